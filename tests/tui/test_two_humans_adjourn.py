"""Two people at the full-screen table, each in a real terminal (tmux, 80×24), on two
"machines" (two homes): they play a move, adjourn (F3 on one side, yes on the other), read the
adjourned box, and later both resume — and each resumed table shows the game as it stands and
the story so far before anybody moves."""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import pytest

from .test_real_terminal import Screen

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]

WAIT = 60.0


def _move(screen: Screen) -> None:
    """Play the move a person would play first (the key the buttons show, else Enter)."""
    now = screen.wait_for("Your turn")
    actions = "\n".join(now.splitlines()[-3:])
    for key, word in (("s", "stand"), ("r", "refuse"), ("d", "done")):
        if f" {key}  {word}" in actions:
            screen.keys(key)
            return
    screen.keys("Enter")


def _turn_of(a: Screen, b: Screen) -> Screen:
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        for s in (a, b):
            if "Your turn" in s.text():
                return s
        time.sleep(0.1)
    raise AssertionError(f"nobody's turn:\n{a.text()}\n{b.text()}")


def test_two_people_adjourn_and_both_resume_to_the_table_and_story(tmp_path: Path) -> None:
    fairdeal = str(Path(sys.executable).with_name("fairdeal"))
    ann_dir, bob_dir = tmp_path / "ann", tmp_path / "bob"
    ann_dir.mkdir()
    bob_dir.mkdir()
    code_file = tmp_path / "code.txt"
    ann_log, bob_log = ann_dir / "game.fdlog", bob_dir / "game.fdlog"
    ann = Screen(ann_dir, [
        fairdeal, "host", "ecarte", "--no-relay", "--private", "--bind", "127.0.0.1", "--port", "0",
        "--invite-file", str(code_file), "--name", "Ann", "--option", "target=5", "--log", str(ann_log),
    ])  # fmt: skip
    bob: Screen | None = None
    try:
        end = time.monotonic() + WAIT
        while not code_file.exists() and time.monotonic() < end:
            time.sleep(0.1)
        code = code_file.read_text().strip()
        bob = Screen(bob_dir, [fairdeal, "join", code, "--name", "Bob", "--log", str(bob_log)])
        for _ in range(2):  # a move each way, so that there is a story to tell
            first = _turn_of(ann, bob)
            before = first.text()
            _move(first)
            end = time.monotonic() + WAIT
            while first.text() == before and time.monotonic() < end:
                time.sleep(0.1)
        time.sleep(1.0)
        ann.keys("F3")
        ann.wait_for("[y] yes")
        ann.keys("y")
        bob.wait_for("[y] yes")
        bob.keys("y")
        for s in (ann, bob):
            box = s.wait_for("Enter leaves")
            assert "Adjourned" in box and "nothing is lost" in box, box
            assert "final reveal did not complete" not in box, box
            s.keys("Enter")
            assert "EXIT=3" in s.wait_for("EXIT=")
        ann.close()
        bob.close()
        # Later, on each machine: fairdeal resume, the host first.
        ann = Screen(ann_dir, [fairdeal, "resume", str(ann_log)])
        bob = Screen(bob_dir, [fairdeal, "resume", str(bob_log)])
        for s in (ann, bob):
            now = s.wait_for("Turn-up")
            assert "catching up" not in now
            lines = now.splitlines()
            assert len(lines) <= 24 and all(len(x) <= 80 for x in lines)
            story = now[now.index("What happened") :]
            assert "You drew" in story and any(w in story for w in ("stood", "played", "proposed")), now
    finally:
        ann.close()
        if bob is not None:
            bob.close()
