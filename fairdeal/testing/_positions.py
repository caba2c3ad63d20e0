"""Positions for tests: a random game's position (:func:`random_position`), and tables built by hand
for rules tests (:func:`build_table`, :func:`settle`)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping, Sequence

from fairdeal.core.cards import Card
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.errors import LocalProtocolError
from fairdeal.core.playout import settle as settle_world
from fairdeal.core.replica import Replica
from fairdeal.core.rng import SeededRng
from fairdeal.core.rules import Game, GameState, Move
from fairdeal.core.runner import Event, play_game
from fairdeal.core.table import EVERYONE, Table, Zone
from fairdeal.testing._errors import ConformanceError


class _Reached(Exception):
    pass


def random_position(
    game: Game, players: int, seed: int, decisions: int, options: Mapping[str, object] | None = None
) -> tuple[GameState, GameState]:
    """A position of a random game: the view of the seat to decide at its ``decisions``-th decision
    (or the last, if the game ends first) and the real deal then (an all-seeing state)."""
    config = game.config(players, dict(options or {}))
    replicas: dict[int | None, Replica] = {}
    seen: list[tuple[GameState, GameState]] = []

    def observe(event: Event, reps: dict[int | None, Replica]) -> None:
        replicas.update(reps)

    class Stop:
        def choose(
            self, game: Game, state: GameState, player: int, moves: Sequence[Move], rng: random.Random
        ) -> Move:
            seen.append((state, replicas[EVERYONE].state.copy()))
            if len(seen) > decisions:
                raise _Reached
            return moves[rng.randrange(len(moves))]

    dealer = PlainDealer(players, SeededRng(seed))
    with contextlib.suppress(_Reached):
        play_game(game, config, dealer, [Stop()] * players, random.Random(seed), observe=observe)
    return seen[-1]


# -- building scenarios by hand, for rules tests ------------------------------------------------------
def build_table(
    zones: Sequence[Zone],
    players: int,
    contents: Mapping[str, Sequence[Card]],
    viewer: int | None = EVERYONE,
) -> Table:
    """A table holding exactly ``contents`` (zone -> cards, bottom first), as the dealer would
    have dealt it: cards in PUBLIC zones are public, those in OWNER zones known to their owner,
    HIDDEN ones to nobody. ``viewer`` keeps only what it may know (EVERYONE: all)."""
    table = Table(zones, players, EVERYONE, [c for cards in contents.values() for c in cards])
    token = 0
    for zone, cards in contents.items():
        fresh = list(range(token, token + len(cards)))
        token += len(cards)
        table.place(zone, fresh)
        for t, c in zip(fresh, cards, strict=True):
            table._cards[t] = c
    _settle_table(table, random.Random(0))
    return table.masked(viewer)


def settle(state: GameState, seed: int = 0) -> GameState:
    """Perform what an all-seeing table owes (reveals, reshuffles), as a plain dealer would.

    For scenario tests on states whose table is all-seeing (``build_table`` default).
    """
    s = state.copy()
    _settle_table(s.table, random.Random(seed))
    return s


def _settle_table(table: Table, rng: random.Random) -> None:
    if table.viewer != EVERYONE:
        raise ConformanceError("settle needs an all-seeing table (viewer=EVERYONE)")
    try:
        settle_world(table, rng)
    except LocalProtocolError as exc:
        raise ConformanceError(f"the table never settled ({exc})") from None
