"""Every built-in game and the example plugin play to the end through ``fairdeal play``; logs verify."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairdeal import registry
from fairdeal.cli.main import cli

GAMES = [
    ("spite-malice", ["--seat", "bot", "--seat", "bot", "--option", "target=1", "--option", "max_games=1"]),
    ("ecarte", ["--seat", "bot", "--seat", "bot:random", "--option", "target=3"]),
    ("snatch", ["--seat", "bot", "--seat", "bot", "--seat", "bot:random"]),
    ("crazy-eights", ["--seat", "bot", "--seat", "bot"]),
]


@pytest.fixture
def with_example(
    monkeypatch: pytest.MonkeyPatch, example_entry_points: list[metadata.EntryPoint], tmp_path: Path
) -> None:
    """The installed plugins plus the example one, found through its entry-point metadata."""
    real = [ep for ep in metadata.entry_points(group="fairdeal") if ep.name != "crazy-eights"]
    monkeypatch.setattr(registry, "discover", lambda: real + list(example_entry_points))
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "home"))


@pytest.mark.parametrize(("game", "args"), GAMES, ids=[g for g, _ in GAMES])
def test_bots_play_to_the_end_and_the_log_verifies(
    with_example: None, tmp_path: Path, game: str, args: list[str]
) -> None:
    runner = CliRunner()
    log = tmp_path / f"{game}.fdlog"
    res = runner.invoke(cli, ["play", game, *args, "--seed", "7", "--log", str(log), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output.strip().splitlines()[-1])
    assert out["game"] == game
    assert out["verdict"] == "fair"
    assert out["log"] == str(log)
    assert len(out["scores"]) == len(out["seats"]) == args.count("--seat")
    assert out["winner"] is None or 0 <= out["winner"] < len(out["seats"])
    check = runner.invoke(cli, ["verify", str(log), "--json"])
    assert check.exit_code == 0, check.output
    report = json.loads(check.output)
    assert report["verdict"] == "fair"
    assert report["winner"] == out["winner"] and report["scores"] == out["scores"]

    again = tmp_path / f"{game}-again.fdlog"
    res2 = runner.invoke(cli, ["play", game, *args, "--seed", "7", "--log", str(again), "--json"])
    assert res2.exit_code == 0
    assert again.read_bytes() == log.read_bytes(), "the same seed must give a byte-identical log"


def test_play_prints_the_log_path_and_how_to_check_it(with_example: None, tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["play", "crazy-eights", "--seat", "bot", "--seat", "bot", "--seed", "1"])
    assert res.exit_code == 0, res.output
    logs = list((tmp_path / "home" / "data" / "logs").glob("crazy-eights-*.fdlog"))
    assert len(logs) == 1
    assert str(logs[0]) in res.output and "fairdeal verify" in res.output


def test_an_existing_log_is_never_overwritten(with_example: None, tmp_path: Path) -> None:
    log = tmp_path / "taken.fdlog"
    log.write_bytes(b"precious")
    res = CliRunner().invoke(cli, ["play", "ecarte", "--seat", "bot", "--seat", "bot", "--log", str(log)])
    assert res.exit_code == 2 and "exists already" in res.output and "Traceback" not in res.output
    assert log.read_bytes() == b"precious"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["play", "poker"], "unknown game 'poker'"),
        (["play", "ecarte", "--option", "colour=red"], "unknown option 'colour'"),
        (["play", "ecarte", "--option", "target=zero"], "whole number"),
        (["play", "ecarte", "--seat", "robot"], "human, bot or bot:NAME"),
        (["play", "ecarte", "--seat", "bot:genius"], "no bot 'genius'"),
        (["play", "ecarte", "--seat", "human", "--seat", "human"], "at most one seat can be human"),
        (["play", "ecarte", "--seat", "bot", "--seat", "bot", "--seat", "bot"], "for 2 players, not 3"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(with_example: None, argv: list[str], needle: str) -> None:
    res = CliRunner().invoke(cli, argv)
    assert res.exit_code == 2
    assert needle in res.output
    assert "Traceback" not in res.output
