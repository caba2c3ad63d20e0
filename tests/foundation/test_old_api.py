"""Plugins written to plugin API 1 keep working; a game written to a later API is refused with one
message saying what to do, and so is a version that is not one."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from fairdeal import PLUGIN_API, Game, registry
from fairdeal.cli.render import table_text
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import play_game
from fairdeal.testing import check_game, play_with_protocol

HERE = Path(__file__).resolve().parent


def _old_plugin() -> ModuleType:
    spec = importlib.util.spec_from_file_location("old_api_high_card", HERE / "old_api_high_card.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import would (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def test_a_plugin_of_api_1_loads_with_no_warning_and_its_bot() -> None:
    reg = registry.load([], plugins=[("high-card", _old_plugin())])
    assert reg.warnings == []
    game = reg.game("high-card")
    assert game.api == 1 < PLUGIN_API
    assert reg.default_bots["high-card"] == "first"
    assert reg.bot("high-card").name == "first"
    assert game.rules_text().startswith("High card")
    assert len(game.deck_for(game.config(3))) == 52 and game.deck_zone_for(game.config(3)) == "deck"


def test_a_plugin_of_api_1_passes_the_kit_and_plays_over_the_protocol() -> None:
    game = _old_plugin().HighCard()
    check_game(game, players=[2, 6], seeds=range(10))
    played = play_with_protocol(game, 3, seed=2)
    assert played.verify(game).verdict == "fair"
    texts = [ev for o in played.outcomes for ev in [o.session.result]]
    assert texts[0].reason.endswith("is highest")


def test_line_mode_draws_an_api_1_game_from_its_table_view() -> None:
    """Its own ``render`` is not called any more: line mode and the table draw the same thing."""
    module = _old_plugin()
    game = module.HighCard()
    config = game.config(2)
    policies = [module.First(), module.First()]
    played = play_game(game, config, PlainDealer(2, SeededRng(1)), policies, __import__("random").Random(1))
    state = played.replicas[0].state
    text = table_text(game, state, 0, {0: "You", 1: "Bob"}.get)
    assert "Shown:" in text and "You" in text and "Bob" in text
    assert game.narrate(state, 0, played.moves[0][1], "Ann").startswith("Ann showed")


class _Later(Game):
    name = "later"
    title = "Later"
    summary = "written to an API this fairdeal does not have"
    min_players = 2
    max_players = 2
    api = PLUGIN_API + 1
    zones = ()

    def setup(self, config, table):  # type: ignore[no-untyped-def]
        raise NotImplementedError

    def next_step(self, state):  # type: ignore[no-untyped-def]
        raise NotImplementedError

    def legal_moves(self, state, player):  # type: ignore[no-untyped-def]
        raise NotImplementedError

    def apply(self, state, player, move):  # type: ignore[no-untyped-def]
        raise NotImplementedError


class _Plugin:
    def __init__(self, game: Game) -> None:
        self.game = game

    @registry.hookspecs.hookimpl
    def fairdeal_games(self) -> list[Game]:
        return [self.game]


def test_a_game_of_a_later_api_is_refused_with_one_message_saying_what_to_do() -> None:
    reg = registry.load([], plugins=[("later", _Plugin(_Later()))])
    assert "later" not in reg.games
    assert reg.warnings == [
        f"plugin 'later' registered an invalid game: game 'later' is written to plugin API {PLUGIN_API + 1}, "
        f"and this fairdeal offers API {PLUGIN_API}: upgrade fairdeal"
    ]


def test_an_api_that_is_not_a_version_is_refused() -> None:
    game = _Later()
    game.api = "2"  # type: ignore[misc]
    reg = registry.load([], plugins=[("later", _Plugin(game))])
    expected = f"game 'later' states plugin API '2': set api = {PLUGIN_API}"
    assert reg.warnings == [f"plugin 'later' registered an invalid game: {expected}"]


def test_a_game_with_no_rules_is_refused_saying_where_they_go() -> None:
    class Silent(_Later):
        name = "silent"
        api = PLUGIN_API

    reg = registry.load([], plugins=[("silent", _Plugin(Silent()))])
    assert "silent" not in reg.games
    [warning] = reg.warnings
    assert warning.endswith(f"has no rules: write them in rules.txt beside {__file__}, or set rules")
    Silent.rules = "Say nothing.\n"
    assert "silent" in registry.load([], plugins=[("silent", _Plugin(Silent()))]).games
