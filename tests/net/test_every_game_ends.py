"""Every built-in game, at every seat count, with every bot among random seats, played to its end over
the protocol (a session per seat, the host's driver sequencing): every game ends cleanly and its log
is fair — or, when the rules took every seat out and nobody is left to sign the end, every driver
stops saying so (:func:`.ending.check_clean_end`).

A four-seat Snatch! game whose seats all went out crashed the host's driver (no seat owed the end);
this sweep is the class of that bug. The default run plays a few games of each; the whole sweep is
``slow``. Spite & Malice plays one hand to one card (``target=1, max_games=1``); the expert searches
with a small budget (its search is what is under test, not its strength).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from fairdeal import registry
from fairdeal.core.rules import Policy
from fairdeal.core.search import EXPERT, expert_bot
from fairdeal.testing import play_with_protocol

from .ending import check_clean_end

OPTIONS: dict[str, dict[str, object]] = {"spite-malice": {"target": 1, "max_games": 1}}


def _bots(reg: Any, game: str, name: str, seats: int, seed: int, quick: bool) -> list[Policy]:
    """``name``'s bot in some seats (at least one) and random bots in the others, chosen by ``seed``."""
    if name == EXPERT:  # the default run's expert plays random playouts: the same search, faster
        spec = expert_bot(game, None if quick else reg.bot(game), playouts=2 if quick else 1)
    else:
        spec = reg.bot(game, name)
    pick = random.Random(seed)
    mine = [pick.random() < 0.5 for _ in range(seats)]
    mine[pick.randrange(seats)] = True
    return [spec.make() if m else reg.bot(game, "random").make() for m in mine]


def _play(game: str, seats: int, name: str, seed: int, quick: bool) -> None:
    reg = registry.load()
    g = reg.game(game)
    played = play_with_protocol(g, seats, seed, OPTIONS.get(game), _bots(reg, game, name, seats, seed, quick))
    check_clean_end(played, g)


def _built_in() -> list[str]:
    """The games fairdeal itself installs (not an example's or another plugin's)."""
    return sorted(name for name, entry in registry.load().games.items() if entry.distribution == "fairdeal")


def _every_case(seeds: int) -> Iterator[tuple[str, int, str, int]]:
    reg = registry.load()
    for game in _built_in():
        g = reg.game(game)
        for seats in range(max(2, g.min_players), g.max_players + 1):
            for name in sorted(reg.bots[game]):
                for seed in range(seeds):
                    yield game, seats, name, 1000 * seats + seed


def _quick_cases() -> Iterator[tuple[str, int, str, int]]:
    """Each bot of each game once at two seats, Snatch! at three to five seats with each of its bots
    in turn, and the four-seat Snatch! game every seat of which went out (seed 7, random seats)."""
    reg = registry.load()
    for game in _built_in():
        for name in sorted(reg.bots[game]):
            yield game, 2, name, 1
    for seats, name in zip(range(3, 6), sorted(reg.bots["snatch"]), strict=False):
        yield "snatch", seats, name, seats
    yield "snatch", 4, "random", 7


@pytest.mark.parametrize(("game", "seats", "bot", "seed"), list(_quick_cases()))
def test_a_game_played_over_the_protocol_ends_cleanly(game: str, seats: int, bot: str, seed: int) -> None:
    _play(game, seats, bot, seed, quick=True)


# One seed a case in the suite (42 games, about 4 minutes of CPU); FAIRDEAL_SWEEP_SEEDS=3 for more.
@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "seats", "bot", "seed"), list(_every_case(int(os.environ.get("FAIRDEAL_SWEEP_SEEDS", "1"))))
)
def test_every_game_at_every_seat_count_with_every_bot_ends_cleanly(
    game: str, seats: int, bot: str, seed: int
) -> None:
    _play(game, seats, bot, seed, quick=False)
