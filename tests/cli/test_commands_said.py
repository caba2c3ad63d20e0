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


@pytest.fixture(scope="module")
def finished_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "ecarte.fdlog"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FAIRDEAL_HOME", str(path.parent / "home"))
        result = run("play", "ecarte", "--seat", "bot", "--seat", "bot", "--seed", "7", "--log", str(path))
    assert result.exit_code == 0, result.output
    return path


def test_resuming_a_finished_game_says_it_is_over_and_how_to_replay_it(finished_log: Path) -> None:
    result = run("resume", str(finished_log))
    assert result.exit_code == 2
    assert "is over: there is nothing to resume" in result.output
    assert f"fairdeal replay {finished_log}" in result.output
    assert "secrets" not in result.output and "seed file" not in result.output


def test_resuming_a_local_game_stopped_early_says_it_cannot_be(finished_log: Path, tmp_path: Path) -> None:
    from fairdeal.core.session.logfile import MAGIC, parse_log, record

    entries = parse_log(finished_log.read_bytes()).entries
    cut = tmp_path / "cut.fdlog"
    cut.write_bytes(MAGIC + b"".join(record(e) for e in entries[:40]))  # as Ctrl-C leaves it
    result = run("resume", str(cut))
    assert result.exit_code == 2
    assert (
        "did not finish" in result.output
        and "against bots (fairdeal play) cannot be resumed" in result.output
    )
    assert f"fairdeal replay {cut}" in result.output


@pytest.mark.parametrize("command", ["host", "join", "resume"])
def test_every_network_command_says_exit_status_3_is_adjourned(command: str) -> None:
    help_text = " ".join(run(command, "--help").output.split())
    assert "3 it was adjourned" in help_text or "3 adjourned" in help_text, help_text


def test_a_failed_name_lookup_is_said_in_words_never_as_an_errno() -> None:
    import errno
    import socket

    from fairdeal.net.reasons import os_reason

    lookup = socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
    assert os_reason(lookup).startswith("its address cannot be found (name lookup failed")
    assert "Unknown error" not in os_reason(socket.gaierror(-3, ""))
    group = BaseExceptionGroup("all failed", [OSError(errno.ECONNREFUSED, "Connection refused")])
    assert os_reason(group) == "nothing answers there (connection refused)"
    assert "Unknown error" not in os_reason(OSError(-77, ""))


def test_the_relay_s_failure_reaches_the_host_in_these_words() -> None:
    """A relay on loopback that nobody runs: the host reads what happened, not an errno."""
    import socket

    import trio

    from fairdeal.net.errors import RelayError
    from fairdeal.net.invite import parse_endpoint
    from fairdeal.net.relay import relay_connect

    with socket.socket() as s:  # a port free a moment ago, with nothing listening on it
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    async def main() -> str:
        with pytest.raises(RelayError) as info:
            await relay_connect(
                parse_endpoint(f"tcp:127.0.0.1:{port}"), "a" * 64, "b" * 16, connect_timeout=5
            )
        return str(info.value)

    said = trio.run(main)
    assert said == f"cannot reach the relay at 127.0.0.1:{port}: nothing answers there (connection refused)"
