"""Persian reads right to left on a terminal that does not reorder (fairdeal puts the line in visual
order) and on one that does (fairdeal leaves it logical): never reordered twice. The terminal here
is tmux, which does not reorder: what capture-pane reads is what a person sees."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import unicodedata
import uuid
from pathlib import Path

import pytest

from fairdeal.cli import rtl

REPO = Path(__file__).resolve().parents[2]
#: A line of the Persian rules of Snatch!: Persian words, card ranks, Latin and Persian digits.
LINE = next(
    line
    for line in (REPO / "plugins" / "snatch" / "rules.fa.txt").read_text().splitlines()
    if "A Q J" in line
)


def _seen(text: str) -> str:
    """Text as letters, not shapes: contextual forms back to letters, joiners dropped."""
    return unicodedata.normalize("NFKC", text).replace("\u200c", "").strip()


def _unmirrored(word: str) -> str:
    """A word read from the right as written: a bracket drawn mirrored (as right-to-left text shows
    it, ``(`` as ``)``) back to the one written."""
    return word.translate(str.maketrans("()[]{}", ")(][}{"))


def _words(text: str) -> list[str]:
    return _seen(text).split()


@pytest.mark.parametrize(
    ("env", "how"),
    [
        ({}, "fairdeal"),
        ({"TERM": "xterm-256color"}, "fairdeal"),
        ({"VTE_VERSION": "5402"}, "fairdeal"),  # VTE before 0.58: no BiDi
        ({"VTE_VERSION": "7600"}, "terminal"),
        ({"KONSOLE_VERSION": "230805"}, "terminal"),
        ({"TERM": "mlterm"}, "terminal"),
        ({"VTE_VERSION": "7600", "FAIRDEAL_BIDI": "fairdeal"}, "fairdeal"),
        ({"FAIRDEAL_BIDI": "Terminal"}, "terminal"),
        ({"KONSOLE_VERSION": "1", "FAIRDEAL_BIDI": "nonsense"}, "terminal"),
    ],
)
def test_who_reorders(env: dict[str, str], how: str) -> None:
    assert rtl.mode(env) == how


def test_the_visual_order_reads_right_to_left_with_latin_left_to_right() -> None:
    shown = rtl.visual(LINE, "fairdeal")
    assert "A Q J 10 9 8 7 2" in shown  # card ranks keep their order
    persian = [w for w in _words(LINE) if rtl.has_right_to_left(w)]
    seen_backwards = [_unmirrored(w[::-1]) for w in reversed(_words(shown)) if rtl.has_right_to_left(w)]
    assert seen_backwards == persian  # read from the right, the Persian words come in order
    assert rtl.visual(LINE, "terminal") == LINE
    english = "Options (--option name=value): A Q J 10"
    assert rtl.visual(english, "fairdeal") == english


def _tmux(socket: str, *args: str) -> str:
    return subprocess.run(["tmux", "-L", socket, *args], check=True, capture_output=True, text=True).stdout


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
@pytest.mark.parametrize("how", ["fairdeal", "terminal"])
def test_a_persian_rules_line_on_a_terminal_without_bidi(tmp_path: Path, how: str) -> None:
    script = tmp_path / "show.py"
    script.write_text(
        "import sys\n"
        "from fairdeal.cli import rtl\n"
        f"line = {LINE!r}\n"
        "sys.stdout.write(rtl.visual(line) + '\\n')\n"
        "sys.stdout.flush()\n"
        "input()\n"
    )
    socket = f"fairdeal-rtl-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "FAIRDEAL_BIDI": how, "LANG": "C.UTF-8"}
    command = f"{sys.executable} {script}"
    subprocess.run(
        ["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "150", "-y", "5", command],
        check=True,
        env=env,
    )
    try:
        screen = ""
        for _ in range(100):
            screen = _tmux(socket, "capture-pane", "-p", "-J")
            if screen.strip():
                break
            time.sleep(0.1)
        row = next(r for r in screen.splitlines() if r.strip())
        if how == "terminal":  # the terminal is told the logical line; tmux shows it as it came
            assert _seen(row) == _seen(LINE)
        else:  # what the eye reads from the right is the line as written
            assert _seen(row) == _seen(rtl.visual(LINE, "fairdeal"))
            words = [w for w in _words(row) if rtl.has_right_to_left(w)]
            backwards = [_unmirrored(w[::-1]) for w in reversed(words)]
            assert backwards == [w for w in _words(LINE) if rtl.has_right_to_left(w)]
            assert "A Q J 10 9 8 7 2" in row
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], check=False, capture_output=True)
