"""Right-to-left lines (Persian) on terminals that do not reorder them, and never reordered twice.

A line is kept in logical order (the order it is typed and read: what the catalogs, logs and line
mode hold). Terminals differ in how they show one: some apply the Unicode bidirectional algorithm
themselves (the terminal working group's BiDi proposal: VTE 0.58 and later, so GNOME Terminal and
its kin, Konsole, mlterm), most do not (xterm, tmux, kitty, Alacritty, Windows Terminal) and show
a Persian word's letters left to right, unjoined. For those, the full-screen table calls
:func:`visual` on each line it draws: the line's letters joined into their contextual forms
(``arabic-reshaper``) and put in visual order (``python-bidi``, the Unicode bidirectional
algorithm), a right-to-left paragraph with its card codes, numbers and seat names left to right.
Where the terminal reorders, it is given the logical line (:func:`mode`), so nothing is reordered
twice. Line mode always writes logical order: screen readers and pipes read it as text.

``FAIRDEAL_BIDI=terminal`` (the terminal reorders) or ``FAIRDEAL_BIDI=fairdeal`` (fairdeal does)
says which; without it, :func:`mode` recognises the terminals above by their variables.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping

#: The variable that says who reorders right-to-left text.
ENV = "FAIRDEAL_BIDI"
TERMINAL, FAIRDEAL = "terminal", "fairdeal"
#: VTE_VERSION from which VTE applies the bidirectional algorithm itself (0.58: 5800).
VTE_BIDI = 5800


def mode(environ: Mapping[str, str] | None = None) -> str:
    """Who puts right-to-left text in visual order on this terminal: ``terminal`` or ``fairdeal``.

    ``FAIRDEAL_BIDI`` decides when it is one of the two; else a terminal known to do BiDi (VTE 0.58
    or later, Konsole, mlterm) is ``terminal`` and any other ``fairdeal``.
    """
    env = os.environ if environ is None else environ
    asked = env.get(ENV, "").strip().lower()
    if asked in (TERMINAL, FAIRDEAL):
        return asked
    return TERMINAL if terminal_reorders(env) else FAIRDEAL


def terminal_reorders(environ: Mapping[str, str]) -> bool:
    """Whether the terminal these variables describe applies the bidirectional algorithm itself."""
    vte = environ.get("VTE_VERSION", "")
    if vte.isdigit() and int(vte) >= VTE_BIDI:
        return True
    return bool(environ.get("KONSOLE_VERSION")) or environ.get("TERM", "").startswith("mlterm")


def has_right_to_left(text: str) -> bool:
    """Whether ``text`` holds a letter written right to left (Persian, Arabic, Hebrew)."""
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def visual(line: str, how: str | None = None, right_to_left: bool = True) -> str:
    """``line`` (logical order) as a terminal that does not reorder must be given it.

    With ``how`` (default :func:`mode`) ``terminal``, or a line with no right-to-left letter, the
    line as it is. Else its Arabic-script letters joined (contextual forms) and the whole put in
    visual order as a paragraph written right to left (``right_to_left=False``: left to right, for
    an English line holding a Persian name), left to right on the screen, one line to one line.
    """
    if (how or mode()) == TERMINAL or not has_right_to_left(line):
        return line
    return visual_order(line, right_to_left)[0]


def _is_mark(ch: str) -> bool:
    """A vowel mark written over or under a letter (the Persian ezafe ``ِ``): a terminal that is
    given the letters in visual order would put it on the wrong one, so it is left out."""
    return unicodedata.category(ch) == "Mn" and unicodedata.bidirectional(ch) == "NSM"


#: A run of words with no right-to-left letter: names, cards, numbers, options among Persian words.
_RUN = re.compile(
    r"[^\s\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]+(?:\s+[^\s\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]+)*"
)
_OPEN, _CLOSE = "([{", ")]}"
_ENDS = ",.;:!?—-–·|"
#: The mark put around an island for the algorithm (left to right, strong), not shown.
_LRM = "\u200e"


def _islands(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds something that reads left to right as one piece among right-to-left words
    (``Bot 1 (classic)``, ``A♦``, ``×10``, ``10♥ J♣ Q♠``): a run with no right-to-left letter, less
    the punctuation at its ends and a bracket whose pair is not in it. The algorithm alone would set
    a card's suit, a count's ×, a bracket apart from their words, since those are neutral to it."""
    found = []
    for run in _RUN.finditer(text):
        start, end = run.start(), run.end()
        while start < end and (text[start] in _ENDS or text[start].isspace()):
            start += 1
        while end > start and (text[end - 1] in _ENDS or text[end - 1].isspace()):
            end -= 1
        piece = text[start:end]
        if not piece:
            continue
        if piece[:1] in _OPEN and _CLOSE[_OPEN.index(piece[0])] not in piece:
            start += 1
        if piece[-1:] in _CLOSE and _OPEN[_CLOSE.index(piece[-1])] not in piece:
            end -= 1
        if any(unicodedata.bidirectional(ch) in ("L", "EN", "AN") for ch in text[start:end]):
            found.append((start, end))
    return found


def visual_order(line: str, right_to_left: bool = True) -> tuple[str, list[int]]:
    """``line`` in visual order (as :func:`visual` gives it) and, for each of its characters, the
    column it shows at (-1: not shown: a joiner, a vowel mark). The letters are joined one to one
    (no ligature), so a column is a character of the line; the table moves what a click hits with it.
    """
    from arabic_reshaper import ArabicReshaper
    from bidi import algorithm as bidi

    kept = [i for i, ch in enumerate(line) if not _is_mark(ch)]
    reshaper = ArabicReshaper(configuration={"delete_harakat": False, "support_ligatures": False})
    shaped = reshaper.reshape("".join(line[i] for i in kept))
    if len(shaped) != len(kept):  # the reshaper changed the length: no joined forms then
        shaped = "".join(line[i] for i in kept)
    text, index = _with_islands(shaped, kept)
    storage = bidi.get_empty_storage()
    storage["base_level"] = bidi.PARAGRAPH_LEVELS["R" if right_to_left else "L"]
    storage["base_dir"] = "R" if right_to_left else "L"
    bidi.get_embedding_levels(text, storage)
    for i, char in zip(index, storage["chars"], strict=True):
        char["index"] = i
    for step in (
        bidi.explicit_embed_and_overrides,
        bidi.resolve_weak_types,
        bidi.resolve_neutral_types,
        bidi.resolve_implicit_levels,
        bidi.reorder_resolved_levels,
        bidi.apply_mirroring,
    ):
        step(storage, False)
    shown = [char for char in storage["chars"] if char["index"] >= 0]
    where = [-1] * len(line)
    for column, char in enumerate(shown):
        where[char["index"]] = column
    return "".join(char["ch"] for char in shown), where


def _with_islands(text: str, index: list[int]) -> tuple[str, list[int]]:
    """``text`` with a left-to-right mark on either side of each island, and the index in the line
    of each character (-1 for the marks)."""
    out: list[str] = []
    at: list[int] = []
    last = 0
    for start, end in _islands(text):
        out.append(text[last:start])
        at.extend(index[last:start])
        out.append(_LRM + text[start:end] + _LRM)
        at.extend([-1, *index[start:end], -1])
        last = end
    out.append(text[last:])
    at.extend(index[last:])
    return "".join(out), at
