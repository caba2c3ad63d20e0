"""Game positions for the table tests: each seat's view at the moments a seat decides."""

from __future__ import annotations

import random
from collections.abc import Mapping

from fairdeal.core.dealer import PlainDealer
from fairdeal.core.replica import Replica
from fairdeal.core.rng import SeededRng
from fairdeal.core.rules import Decide, Game, GameState, RandomPolicy
from fairdeal.core.runner import Event, play_game
from fairdeal.registry import load


def game_named(name: str) -> Game:
    return load().game(name)


def positions(
    game: Game,
    players: int,
    seed: int,
    viewer: int = 0,
    options: Mapping[str, object] | None = None,
    limit: int = 400,
) -> list[GameState]:
    """``viewer``'s view each time some seat is to decide, in a random game (at most ``limit`` of them)."""
    config = game.config(players, dict(options or {}))
    out: list[GameState] = []

    def observe(event: Event, replicas: dict[int | None, Replica]) -> None:
        replica = replicas[viewer]
        if len(out) < limit and isinstance(replica.need(), Decide):
            out.append(replica.state.copy())

    play_game(
        game,
        config,
        PlainDealer(players, SeededRng(seed)),
        [RandomPolicy() for _ in range(players)],
        random.Random(seed),
        observe=observe,
    )
    return out
