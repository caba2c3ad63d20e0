"""``fairdeal replay``: entry by entry, the table drawn once a move's cards are revealed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairdeal.cli.main import cli


def test_replay_shows_turned_cards_and_every_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NO_COLOR", "1")
    log = tmp_path / "s.fdlog"
    runner = CliRunner()
    played = runner.invoke(
        cli, ["play", "snatch", "--seat", "bot", "--seat", "bot", "--seed", "3", "--log", str(log)]
    )
    assert played.exit_code == 0, played.output
    out = runner.invoke(cli, ["replay", str(log), "--no-step", "--ascii"])
    assert out.exit_code == 0, out.output
    text = out.output
    # The first turned card is shown face up on the table (its shares come before the table).
    first = text.index("turned the top card")
    after = text[first : first + 600]
    assert "decryption shares" in after
    assert re.search(r"Trick: Bot \d \(shrewd\) (10|[2-9AJQ])[CDHS]", after), after
    # Every entry is accounted for: the keys and shuffles at the start. Nobody saw a card alone
    # in Snatch, so nothing is left for a final reveal: the game ends with its last move.
    assert re.search(r"\[0-\d+\] the table set by the host; deck keys", text)
    assert "final reveal" not in text
    assert "End" in text
