"""A real game at a real (pseudo) terminal: a person against a bot, as a new user would play it.

Each test starts ``fairdeal play`` in an 80x24 pseudo terminal with pexpect, answers its
prompts, and checks what the terminal received and how the program ended.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fairdeal.cli.main import cli

pexpect = pytest.importorskip("pexpect")

PROMPT = r"Your move \(1(-\d+)?, or help\): "
CONFIRM = r"\[y/N\] "
TIMEOUT = 30  # seconds for any one expectation
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(tmp_path: Path, *args: str, no_color: bool = False) -> Any:
    """``fairdeal ARGS --plain`` (line mode) in an 80x24 terminal with its own FAIRDEAL_HOME."""
    args = (*args, "--plain")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env.update(FAIRDEAL_HOME=str(tmp_path / "home"), TERM="xterm-256color", PYTHONUNBUFFERED="1")
    if no_color:
        env["NO_COLOR"] = "1"
    code = "from fairdeal.cli.main import main; main()"
    child = pexpect.spawn(
        sys.executable,
        ["-c", code, *args],
        env=env,
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=TIMEOUT,
        # A test run started in the background (``./test.sh &``) has SIGINT ignored, and an
        # ignored signal stays ignored across exec: Ctrl-C would reach nobody.
        preexec_fn=_ctrl_c_as_at_a_terminal,
    )
    return child


def _ctrl_c_as_at_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


def finish(child: Any) -> str:
    child.expect(pexpect.EOF)
    rest = child.before
    child.close()
    return rest


def test_play_several_turns_try_help_and_nonsense_then_quit(tmp_path: Path) -> None:
    log = tmp_path / "game.fdlog"
    args = ["play", "ecarte", "--seat", "human", "--seat", "bot", "--seed", "2", "--name", "Ann"]
    child = spawn(tmp_path, *args, "--log", str(log))
    seen = ""
    try:
        child.expect(PROMPT)
        first = child.before
        assert "\x1b[" in first  # a terminal: colour
        screen = plain(first)
        assert "Écarté — your turn" in screen
        assert "You (Ann) · Bot 1 (classic)" in screen
        assert "Hand: " in screen and "Your moves:" in screen and " 1. " in screen
        assert max(len(line) for line in screen.split("\n")) <= 80

        child.sendline("help")
        child.expect(PROMPT)
        assert "Commands:" in child.before and "quit" in child.before

        child.sendline("xyzzy")
        child.expect(PROMPT)
        assert "'xyzzy' is not a move or a command" in plain(child.before)

        for _ in range(3):  # three moves by number; the bot answers each
            child.sendline("1")
            child.expect(PROMPT)
            seen += plain(child.before)
        assert "Since your last move:" in seen
        assert "You played" in seen and "Bot 1 (classic) played" in seen

        child.sendline("quit")
        child.expect(CONFIRM)
        child.sendline("n")
        child.expect(PROMPT)
        assert "Not resigning" in child.before
        child.sendline("quit")
        child.expect(CONFIRM)
        child.sendline("y")
        child.expect("Game over")
        end = plain(finish(child))
    finally:
        if child.isalive():
            child.terminate(force=True)
    assert child.exitstatus == 0
    assert "Bot 1 (classic) wins: You resigned." in end
    assert "Fair game: every shuffle proven, every move checked with every card known." in end
    assert f"fairdeal verify {log}" in end
    assert "Traceback" not in end
    verified = CliRunner().invoke(cli, ["verify", str(log)])
    assert verified.exit_code == 0, verified.output
    assert "Ann resigned" in verified.output


def test_no_color_terminal_gets_plain_text(tmp_path: Path) -> None:
    log = tmp_path / "nc.fdlog"
    child = spawn(tmp_path, "play", "ecarte", "--seat", "human", "--seat", "bot", "--seed", "2",
                  "--log", str(log), no_color=True)  # fmt: skip
    try:
        child.expect(PROMPT)
        child.sendline("1")
        child.expect(PROMPT)
        child.sendline("quit")
        child.expect(CONFIRM)
        child.sendline("y")
        out = child.before + finish(child)
    finally:
        if child.isalive():
            child.terminate(force=True)
    assert child.exitstatus == 0
    assert "\x1b" not in out
    assert "Game over" in out or "resigned" in out


def test_ctrl_c_stops_with_one_line(tmp_path: Path) -> None:
    log = tmp_path / "int.fdlog"
    child = spawn(
        tmp_path, "play", "ecarte", "--seat", "human", "--seat", "bot", "--seed", "3", "--log", str(log)
    )
    try:
        child.expect(PROMPT)
        child.sendintr()
        rest = plain(finish(child))
    finally:
        if child.isalive():
            child.terminate(force=True)
    assert child.exitstatus == 130
    assert "Traceback" not in rest
    assert f"fairdeal: stopped (Ctrl-C); the game did not finish. Its log so far: {log}" in rest


def test_end_of_input_asks_then_resigns_cleanly(tmp_path: Path) -> None:
    log = tmp_path / "eof.fdlog"
    child = spawn(
        tmp_path, "play", "ecarte", "--seat", "human", "--seat", "bot", "--seed", "3", "--log", str(log)
    )
    try:
        child.expect(PROMPT)
        child.sendeof()  # at a terminal, Ctrl-D asks first (it may be a slip); twice, it resigns
        child.expect("Resign this game")
        child.sendeof()
        rest = plain(finish(child))
    finally:
        if child.isalive():
            child.terminate(force=True)
    assert child.exitstatus == 0
    assert "End of input: you resign this game." in rest and "resigned" in rest
    assert CliRunner().invoke(cli, ["verify", str(log)]).exit_code == 0
