"""Commands given no argument say the choices: verify lists the newest logs of the data folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairdeal.cli.main import cli


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("COLUMNS", raising=False)
    return tmp_path / "home"


def test_verify_without_a_log_lists_the_newest_with_how_to_check_one(home: Path) -> None:
    logs = home / "data" / "logs"
    logs.mkdir(parents=True)
    for i in range(7):  # game-0 is the oldest
        log = logs / f"ecarte-{i:012x}.fdlog"
        log.write_bytes(b"FDLOG1\n")
        os.utime(log, (1_700_000_000 + i * 60, 1_700_000_000 + i * 60))
    (logs / "ecarte-000000000006.fdlog.seed").write_bytes(b"")  # not a log: never listed
    result = CliRunner().invoke(cli, ["verify"])
    assert result.exit_code == 2, result.output
    out = result.output
    assert "Missing argument" not in out and "Which log?" in out and str(logs) in out
    listed = [
        line.split()[-1] for line in out.splitlines() if line.endswith(".fdlog") and "verify" not in line
    ]
    assert listed == [f"ecarte-{i:012x}.fdlog" for i in (6, 5, 4, 3, 2)]
    assert "and 2 older logs" in out
    assert f"fairdeal verify {logs / 'ecarte-000000000006.fdlog'}" in out
    assert all(len(line) <= 80 for line in out.splitlines() if str(logs) not in line), out


def test_verify_without_a_log_and_none_played_says_where_they_will_be(home: Path) -> None:
    result = CliRunner().invoke(cli, ["verify"])
    assert result.exit_code == 2
    assert "no game has left one yet" in result.output and str(home / "data" / "logs") in result.output
    as_json = CliRunner().invoke(cli, ["verify", "--json"])
    assert as_json.exit_code == 2 and '"verdict": null' in as_json.stdout
