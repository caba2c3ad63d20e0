"""What the commands say to someone new: the real range of an option, the end of a game
that cannot be resumed and how to replay it, exit statuses in every command's help."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from fairdeal.cli.main import cli


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path / "home"


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def test_an_option_out_of_range_says_its_name_and_its_real_range() -> None:
    result = run("play", "ecarte", "--option", "target=99", "--plain")
    assert result.exit_code == 2
    assert "option target takes a whole number from 1 to 50, not 99" in result.output
    assert "N (" not in result.output
