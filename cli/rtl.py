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
    import arabic_reshaper
    from bidi import get_display

    shown = get_display(arabic_reshaper.reshape(line), base_dir="R" if right_to_left else "L")
    return str(shown)
