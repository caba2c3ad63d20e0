"""The example third-party plugin: found through metadata, played to the end, passes the kit."""

from __future__ import annotations

import random
from importlib import metadata

from fairdeal import registry
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import play_game
from fairdeal.testing import check_game


def test_example_plays_to_the_end(example_entry_points: list[metadata.EntryPoint]) -> None:
    reg = registry.load(example_entry_points)
    game = reg.game("crazy-eights")
    for players in (2, 3, 5):
        config = game.config(players)
        bots = [reg.bot("crazy-eights").make() for _ in range(players)]
        played = play_game(game, config, PlainDealer(players, SeededRng(players)), bots, random.Random(1))
        assert played.result.reason
        assert len(played.result.scores) == players
        assert played.verdict.fair
        assert len(played.moves) > players


def test_example_passes_the_conformance_kit(example_entry_points: list[metadata.EntryPoint]) -> None:
    game = registry.load(example_entry_points).game("crazy-eights")
    report = check_game(game, players=[2, 3, 5], seeds=range(8))
    assert report.games == 24
    assert report.moves > 24 * 10


def test_example_options(example_entry_points: list[metadata.EntryPoint]) -> None:
    game = registry.load(example_entry_points).game("crazy-eights")
    check_game(game, players=2, options={"hand": 3}, seeds=range(3))
