"""``fairdeal replay`` tells what the table's story tells: the game's remarks (who took each trick),
and the hands the log opens to its reader (their own; every hand with --reveal), or how to see them."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from fairdeal.cli.main import cli


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("COLUMNS", raising=False)
    return tmp_path / "home"


def run(*args: str, input: str | None = None) -> str:
    result = CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_replay_says_who_took_each_trick(tmp_path: Path) -> None:
    log = tmp_path / "s.fdlog"
    run("play", "snatch", "--seat", "bot", "--seat", "bot", "--seed", "3", "--log", str(log))
    text = run("replay", str(log), "--no-step")
    assert "took the trick" in text
    # Snatch! deals no hands: nothing is said about hands
    assert "hand" not in text.lower().replace("hands over", "")


def test_replay_of_ones_own_game_shows_ones_own_hand(
    tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "e.fdlog"
    # The profile's identity sits at seat 0 (no --seed); line mode plays the first move on offer.
    # Two points: a turned-up King (one point) never ends the game before a hand is played.
    run("play", "ecarte", "--seat", "human", "--seat", "bot", "--plain", "--name", "Ann", "--option",
        "target=2", "--log", str(log), input="1\n" * 400)  # fmt: skip
    mine = run("replay", str(log), "--no-step")
    assert "Your hand (Ann) is shown, as you saw it; --reveal shows every hand." in mine
    assert "Ann's hand: " in mine and "Bot 1 (classic)'s hand" not in mine
    every = run("replay", str(log), "--no-step", "--reveal")
    assert "Ann's hand: " in every and "Bot 1 (classic)'s hand: " in every
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "someone else"))
    theirs = run("replay", str(log), "--no-step")
    assert "'s hand: " not in theirs
    assert "The hands are hidden, as the table showed them; --reveal shows every hand" in " ".join(
        theirs.split()
    )
