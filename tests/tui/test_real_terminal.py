"""The installed command in a real terminal (tmux, 80×24): a whole game of Écarté against a bot.

At every prompt the screen must show the middle of the table, the score and your hand.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairdeal.cli.main import cli

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]

WAIT = 60.0  # seconds any one screen may take to appear


class Screen:
    """A program in a detached tmux session of its own, read as a person reads the screen."""

    def __init__(self, tmp: Path, command: list[str]) -> None:
        self.socket = str(tmp / "tmux.sock")
        env = {**os.environ, "FAIRDEAL_HOME": str(tmp / "home"), "TERM": "xterm-256color"}
        env.pop("NO_COLOR", None)
        shell = " ".join(command) + f"; echo EXIT=$? ; sleep {int(WAIT)}"
        self._tmux("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", shell, env=env)

    def _tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        done = subprocess.run(
            ["tmux", "-S", self.socket, *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=30,
            check=True,
        )
        return done.stdout

    def text(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "t")

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "t", *keys)

    def wait_for(self, *words: str) -> str:
        """The screen once it shows one of ``words`` (bounded)."""
        end = time.monotonic() + WAIT
        while True:
            screen = self.text()
            if any(w in screen for w in words):
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"none of {words} on the screen:\n{screen}")
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=30)


def test_a_game_of_ecarte_at_80_by_24(tmp_path: Path) -> None:
    fairdeal = Path(sys.executable).with_name("fairdeal")
    assert fairdeal.exists(), "the fairdeal command is installed next to this Python"
    log = tmp_path / "game.fdlog"
    command = [str(fairdeal), "play", "ecarte", "--seat", "human", "--seat", "bot", "--seed", "9"]
    command += ["--option", "target=3", "--name", "Ann", "--log", str(log)]
    screen = Screen(tmp_path, command)
    prompts = 0
    try:
        for _ in range(200):
            now = screen.wait_for("Your turn", "Game over")
            if "Game over" in now:
                break
            prompts += 1
            lines = now.splitlines()
            assert len(lines) <= 24 and all(len(x) <= 80 for x in lines)
            assert "Turn-up" in now and "Talon" in now and "Trick" in now, now  # the middle
            assert "Points — You: 0 · Bot 1 (classic): 0" in now or "Points — You" in now, now  # the score
            mine = now[now.index("\n You") :]
            assert "Hand" in mine and any(s in mine for s in "♣♦♥♠"), now  # your hand, face up
            actions = "\n".join(lines[-3:])
            for key, word in (("s", " stand"), ("r", " refuse"), ("d", " done")):
                if f" {key}  {word.strip()}" in actions:
                    screen.keys(key)
                    break
            else:
                screen.keys("Enter")
            screen.wait_for("Waiting", "Your turn", "Game over")
            time.sleep(0.2)  # let the screen settle on the next state
        end = screen.wait_for("Enter leaves")
        assert "Fair game" in end
        screen.keys("Enter")
        after = screen.wait_for("EXIT=")
    finally:
        screen.close()
    assert prompts >= 5
    assert "EXIT=0" in after and "Fair game" in after and str(log) in after.replace("\n", "")
    assert CliRunner().invoke(cli, ["verify", str(log)]).exit_code == 0
