"""Text that came from a peer or a log file, on its way to a terminal.

A seat name, an option, a move or a reason can be written by anyone who hosts a game or
hands over a log. Shown as it is, an escape sequence in it would drive the reader's
terminal (set its title, clear it, move the cursor over the verdict) and a bidirectional
override would make it lie about what it says; a line or paragraph separator (U+2028,
U+2029) would break the one line it must stay on. So every text field is refused at parse
unless :func:`shows_as_is` holds, and text shown from anywhere else goes through
:func:`clean_text`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable

from ._hidden_chars import HIDDEN_RANGES

#: Characters of a reason given to people (a refusal, a goodbye, an abort).
MAX_REASON = 200

#: White space, which no text may begin or end with: Unicode's White_Space characters (and U+001C to
#: U+001F, category Cc, refused anyway). A fixed set, as what Python's ``str.strip`` takes may not be.
WHITE_SPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def _starts() -> tuple[tuple[int, ...], tuple[int, ...]]:
    firsts, lasts = [], []
    for span in HIDDEN_RANGES.split():
        first, last = span.split("-")
        firsts.append(int(first, 16))
        lasts.append(int(last, 16))
    return tuple(firsts), tuple(lasts)


_FIRSTS, _LASTS = _starts()


def _hidden(c: str) -> bool:
    # Category C: control (Cc), format (Cf: bidi overrides, zero-width), surrogate (Cs),
    # private use (Co) and unassigned (Cn): none shows as itself on a terminal. Zl and Zp
    # (U+2028, U+2029) break the line in some terminals and in every text widget. By Unicode
    # 14.0 on every Python (core/_hidden_chars.py), so that peers on different Pythons agree.
    cp = ord(c)
    if 0x20 <= cp < 0x7F:  # printable ASCII: the common case
        return False
    i = bisect_right(_FIRSTS, cp) - 1
    return i >= 0 and cp <= _LASTS[i]


def shows_as_is(text: object, limit: int, *, empty: bool = False) -> bool:
    """True for a ``str`` that a terminal shows as written, on one line.

    At most ``limit`` characters (and at least one unless ``empty``), no character of
    Unicode category C (control, format, surrogate, private use, unassigned), Zl or Zp
    (line and paragraph separators) by Unicode 14.0, and no white space (:data:`WHITE_SPACE`)
    at either end.
    """
    return (
        isinstance(text, str)
        and (empty or len(text) > 0)
        and len(text) <= limit
        and text == text.strip(WHITE_SPACE)
        and not any(_hidden(c) for c in text)
    )


def clean_text(text: object, limit: int = MAX_REASON) -> str:
    """``str(text)`` made safe to show, on one line, cut at ``limit`` (``-`` when nothing is left).

    Category C, Zl and Zp characters become spaces and every run of white space one space.
    """
    out = "".join(" " if _hidden(c) else c for c in str(text))
    return " ".join(out.split())[:limit].rstrip() or "-"


def distinct_names(names: Iterable[str], limit: int = 40) -> tuple[str, ...]:
    """``names`` in order, a repeated one told apart by its count: ``Ann``, ``Ann (2)``.

    Two seats may announce the same name; everywhere a seat is named it must still say which
    one. Each name keeps at most ``limit`` characters (the base is cut to leave room).
    """
    out: list[str] = []
    for name in names:
        n, candidate = 1, name
        while candidate in out:
            n += 1
            suffix = f" ({n})"
            candidate = name[: max(1, limit - len(suffix))].rstrip() + suffix
        out.append(candidate)
    return tuple(out)
