"""What the expert knows of Spite & Malice: which moves are alike, and a guess at a turn's start."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fairdeal import Move, parse_card
from fairdeal.core import search as search_module
from fairdeal.core.playout import playout, settle
from fairdeal.core.search import Expert
from fairdeal.core.worlds import sample_world
from fairdeal.plugins.spite_malice import Planner, SpiteState
from fairdeal.plugins.spite_malice.layout import CENTRES, SIDES, hand

from .spite_positions import GAME, turn_view


def _token(state: SpiteState, card: str) -> int:
    return next(t for t, c in state.table.known(hand(0)) if c == parse_card(card))


def test_cards_of_one_rank_onto_stacks_of_one_value_are_alike() -> None:
    s = turn_view("4C 4D 9C", ("AH 2H 3H", "AS 2S 3S", ""))
    four_c, four_d, nine = (_token(s, c) for c in ("4C", "4D", "9C"))
    same = {
        GAME.alike(s, 0, Move("play", (four_c, CENTRES[0]))),
        GAME.alike(s, 0, Move("play", (four_d, CENTRES[1]))),
    }
    assert len(same) == 1
    discards = {GAME.alike(s, 0, Move("discard", (t, z))) for t in (four_c, four_d) for z in SIDES[0]}
    assert len(discards) == 1  # four empty side stacks, one rank
    assert GAME.alike(s, 0, Move("discard", (nine, SIDES[0][0]))) not in discards
    moves = GAME.legal_moves(s, 0)
    kinds = {GAME.alike(s, 0, m) for m in moves}
    assert len(kinds) == 3 < len(moves)  # a 4 onto a 3, a 4 or a 9 discarded


def test_the_guess_is_made_at_the_start_of_a_turn_and_favours_the_shorter_pile() -> None:
    assert GAME.estimate(turn_view("4C", ("", "", ""))) is None  # mid-turn
    level = GAME.estimate(turn_view("4C", ("", "", ""), pay0="QS 2C", pay1="JD 3C", filled=False))
    assert level is not None and sum(level) == pytest.approx(1.0) and 0.5 < level[0] < 0.6  # to move
    ahead = GAME.estimate(turn_view("4C", ("", "", ""), pay0="QS", pay1="JD 3C 5C 6C", filled=False, turn=1))
    assert ahead is not None and ahead[0] > 0.8 and sum(ahead) == pytest.approx(1.0)


def test_a_playout_past_the_horizon_stops_at_the_guess() -> None:
    s = turn_view("4C 4D 9C KH 2D", ("AH 2H 3H", "AS 2S 3S", ""), pay0="QS 5C 6C JC", pay1="JD 3C")
    counted: list[int] = []

    class Counting(Planner):
        def choose(self, *args: Any) -> Move:
            counted.append(1)
            return super().choose(*args)

    world = sample_world(s, random.Random(0))
    settle(world.table, random.Random(0))
    shares = playout(GAME, world, [Counting(), Counting()], random.Random(0), horizon=3)
    assert 0 < shares[0] < 1 and sum(shares) == pytest.approx(1.0)
    assert shares not in ((0.5, 0.5),) and len(counted) < 40  # a guess a turn or two on, not a game


def test_the_expert_plays_one_move_of_each_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    s = turn_view("4C 4D 9C", ("AH 2H 3H", "AS 2S 3S", ""))
    calls: list[str] = []
    real = search_module.Worlds.sample
    monkeypatch.setattr(search_module.Worlds, "sample", lambda *a: calls.append("world") or real(*a))
    monkeypatch.setattr(search_module, "playout", lambda *a, **k: calls.append("playout") or (0.5, 0.5))
    move = Expert(Planner, 12).search(GAME, s, 0, list(GAME.legal_moves(s, 0)), random.Random(0))
    assert move in GAME.legal_moves(s, 0)
    first = calls[1:].index("world")
    assert first == 3  # three kinds, not the nine legal moves
