"""Shared by the search tests: a position where the seat to move has a choice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from fairdeal import Game
from fairdeal.testing import random_position

Position = tuple[Any, int, list[Any]]


def _choice_position(game: Game[Any]) -> Position:
    for seed in range(60):
        view, _ = random_position(game, 2, seed, 40)
        step = game.next_step(view)
        moves = list(game.legal_moves(view, step.player)) if hasattr(step, "player") else []
        if len(moves) > 1:
            return view, step.player, moves
    raise AssertionError(f"no {game.name} position with a choice in 60 seeds")


@pytest.fixture
def choice_position() -> Callable[[Game[Any]], Position]:
    """``choice_position(game)``: a two-seat position of ``game`` (the view, the seat to move, its
    moves) where that seat has more than one legal move."""
    return _choice_position
