from __future__ import annotations

from importlib import metadata

import pytest

from fairdeal import registry
from fairdeal.core.errors import ConfigError

from . import plugin_fixtures as fx


def test_example_loads_through_entry_point_metadata(example_entry_points: list[metadata.EntryPoint]) -> None:
    reg = registry.load(example_entry_points)
    assert reg.warnings == []
    entry = reg.entry("crazy-eights")
    assert entry.distribution == "fairdeal-crazy-eights"
    assert entry.plugin == "crazy-eights"
    assert set(reg.bots["crazy-eights"]) == {"random", "greedy", "expert"}
    assert reg.bot("crazy-eights").name == "greedy"  # the game's default
    assert reg.bot("crazy-eights", "random").name == "random"


def test_unknown_hook_is_refused_with_one_warning(example_entry_points: list[metadata.EntryPoint]) -> None:
    reg = registry.load(example_entry_points, plugins=[("typo", fx.UnknownHook())])
    assert len(reg.warnings) == 1
    assert "'typo'" in reg.warnings[0] and "fairdeal_gamez" in reg.warnings[0]
    assert "crazy-eights" in reg.games  # everything else keeps working


def test_failing_and_invalid_plugins_warn_and_others_work(
    example_entry_points: list[metadata.EntryPoint],
) -> None:
    reg = registry.load(
        example_entry_points, plugins=[("broken", fx.BrokenGames()), ("bad", fx.InvalidGame())]
    )
    assert any("'broken'" in w and "boom" in w for w in reg.warnings)
    assert any("'bad'" in w and "invalid game" in w for w in reg.warnings)
    assert len(reg.warnings) == 2
    assert "crazy-eights" in reg.games


def test_plugin_that_fails_to_import() -> None:
    ep = metadata.EntryPoint("ghost", "fairdeal_no_such_module_here", "fairdeal")
    reg = registry.load([ep])
    assert len(reg.warnings) == 1
    assert "'ghost'" in reg.warnings[0] and "failed to import" in reg.warnings[0]


def test_duplicate_game_is_ignored(example_entry_points: list[metadata.EntryPoint]) -> None:
    first = registry.load(example_entry_points)
    game = first.game("crazy-eights")
    reg = registry.load(example_entry_points, plugins=[("copycat", fx.GoodPlugin(game))])
    assert any("already provided" in w and "'copycat'" in w for w in reg.warnings)
    assert reg.entry("crazy-eights").plugin == "crazy-eights"


def test_bots_from_another_plugin(example_entry_points: list[metadata.EntryPoint]) -> None:
    reg = registry.load(example_entry_points, plugins=[("extra", fx.ExtraBot())])
    assert "lucky" in reg.bots["crazy-eights"]
    assert any("no-such-game" in w for w in reg.warnings)


def test_disable_by_name_and_environment(
    example_entry_points: list[metadata.EntryPoint],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert "crazy-eights" not in registry.load(example_entry_points, disabled=["crazy-eights"]).games
    monkeypatch.setenv("FAIRDEAL_DISABLE_PLUGINS", "other, crazy-eights")
    reg = registry.load(example_entry_points)
    assert reg.games == {} and reg.warnings == []


def test_unknown_game_and_bot_errors(example_entry_points: list[metadata.EntryPoint]) -> None:
    reg = registry.load(example_entry_points)
    with pytest.raises(ConfigError, match="unknown game 'poker'; installed games: crazy-eights"):
        reg.game("poker")
    with pytest.raises(
        ConfigError, match="no bot 'genius' for crazy-eights; its bots: expert, greedy, random"
    ):
        reg.bot("crazy-eights", "genius")


def test_validate_game_problems() -> None:
    assert registry.validate_game(object())
