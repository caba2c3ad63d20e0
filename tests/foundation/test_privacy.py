"""Nobody can decrypt a card its view does not know, whatever the game's moves do with its cards.

The conformance kit's :func:`~fairdeal.testing.check_privacy` reads the log as an attacker would
(every ciphertext, share and mask, a seat's own secrets) and compares, after every entry, the
cards each seat and a watcher can decrypt with the cards their views know. It runs here on a test
game whose moves carry cards between zones of every visibility at random (``traffic.py``), on the
built-in games and on the example plugin; and it finds the leak of log protocol 3, where a card one
seat alone could open was opened to the next seat with its share, readable by everyone after.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairdeal import registry
from fairdeal.testing import ConformanceError, check_privacy

from .traffic import Traffic

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "crazy-eights"


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**16))
def test_every_way_a_card_moves_keeps_it_readable_only_by_who_may_know_it(players: int, seed: int) -> None:
    assert check_privacy(Traffic(), players, seeds=[seed]) > 0


@pytest.mark.slow
def test_a_hundred_games_of_cards_going_everywhere_leak_nothing() -> None:
    for players in (2, 3, 4):
        check_privacy(Traffic(), players, seeds=range(100, 120))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_kit_finds_what_log_protocol_3_opened_to_every_reader(players: int) -> None:
    with pytest.raises(ConformanceError, match=r"can decrypt token \d+ .*which its view does not know"):
        check_privacy(Traffic(), players, seeds=range(3), protocol=3)


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [
        ("ecarte", 2, {"target": 2}),
        ("snatch", 2, {}),
        ("snatch", 5, {}),
        ("spite-malice", 2, {"target": 1, "max_games": 1}),
    ],
)
def test_the_built_in_games_leak_nothing(name: str, players: int, options: dict[str, object]) -> None:
    check_privacy(registry.load().game(name), players, options, seeds=range(1 if players > 2 else 2))


def test_the_example_plugin_leaks_nothing() -> None:
    sys.path.insert(0, str(EXAMPLE))
    try:
        from fairdeal_crazy_eights import CrazyEights

        check_privacy(CrazyEights(), [2, 4], seeds=range(2))
    finally:
        sys.path.remove(str(EXAMPLE))
