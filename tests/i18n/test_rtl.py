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


def test_a_line_with_a_zero_width_non_joiner_is_mirrored_too() -> None:
    """Persian writes ``می‌شود`` with a zero-width non-joiner: such a line of the table is put in
    visual order like any other (it was left in logical order, a character not one cell wide)."""
    from rich.text import Text

    from fairdeal.cli.tui import rtlview

    line = "بازی شروع می\u200cشود: Ann  F1"
    shown, where = rtlview.mirrored(Text(line), 40)
    assert shown.cell_len == 40 and shown.plain.startswith(" ")
    assert shown.plain.rstrip().endswith(rtl.visual("بازی شروع می\u200cشود: Ann", rtl.FAIRDEAL))
    assert where[line.index("\u200c")] == -1 and sorted(w for w in where if w >= 0) == sorted(
        set(where) - {-1}
    )
    assert _persian_words(shown.plain, from_the_right=True) == _words("بازی شروع میشود")


def _persian_words(text: str, from_the_right: bool) -> list[str]:
    """The Persian words of a row as an eye reads them: from the right (each word's letters too), or
    as the characters come (logical order, for a terminal that reorders them itself)."""
    words = [w for w in _words(text) if rtl.has_right_to_left(w)]
    read = [_unmirrored(w[::-1]) for w in reversed(words)] if from_the_right else words
    return [w.strip(_MARKS) for w in read]


#: Punctuation at a word's ends, which a phrase's words are compared without.
_MARKS = ":;,.!?؛،()"


def _holds(words: list[str], phrase: list[str]) -> bool:
    return any(words[i : i + len(phrase)] == phrase for i in range(len(words) - len(phrase) + 1))


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
@pytest.mark.parametrize("how", ["fairdeal", "terminal"])
def test_the_persian_table_in_tmux_reads_in_the_right_order(tmp_path: Path, how: str) -> None:
    """The installed command's full-screen table at 80×24 in Persian, as tmux (no BiDi) shows it: the
    status line's and the keys line's words read from the right give the catalog's phrases; with
    FAIRDEAL_BIDI=terminal (the terminal reorders) they come in logical order instead, not reordered
    twice."""
    from fairdeal import i18n

    words = i18n.catalog("fa")
    phrases = [_words(words.gettext(m)) for m in ("Your turn", "F1 help", "F2 rules")]
    phrases = [[w.strip(_MARKS) for w in p if rtl.has_right_to_left(w)] for p in phrases]
    assert all(phrases) and phrases[0] == ["نوبت", "شما"]
    fairdeal = Path(sys.executable).with_name("fairdeal")
    socket = f"fairdeal-rtl-{uuid.uuid4().hex[:8]}"
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("VTE_VERSION", "KONSOLE_VERSION", "LANGUAGE")},
        "FAIRDEAL_BIDI": how,
        "FAIRDEAL_LANG": "fa",
        "FAIRDEAL_HOME": str(tmp_path),
        "FAIRDEAL_NAME": "Ann",
        "LANG": "C.UTF-8",
    }
    command = f"{fairdeal} play snatch --seed 3 --seat human --seat bot --seat bot"
    subprocess.run(
        ["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", command],
        check=True,
        env=env,
    )
    try:
        rows: list[str] = []
        for _ in range(200):
            rows = _tmux(socket, "capture-pane", "-p").splitlines()
            if any(_holds(_persian_words(r, how == "fairdeal"), phrases[0]) for r in rows):
                break
            time.sleep(0.1)
        screen = "\n".join(rows)
        for phrase in phrases:
            right = any(_holds(_persian_words(r, how == "fairdeal"), phrase) for r in rows)
            wrong = any(_holds(_persian_words(r, how != "fairdeal"), phrase) for r in rows)
            assert right and not wrong, f"{' '.join(phrase)!r} ({how} reorders):\n{screen}"
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], check=False, capture_output=True)
