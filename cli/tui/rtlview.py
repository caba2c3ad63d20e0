"""The table in a language written right to left (Persian) on a terminal that does not reorder text
(:func:`active`): every line the table draws is mirrored, as a page written right to left is laid
out, and its right-to-left words put in the order the eye reads them.

A line is cut into pieces at its gaps (two spaces or more: the columns of the table, a bar's
buttons): each piece moves to the mirror of its place, so a pile's label stays over the pile's
cards, now at its right edge, and the middle's piles come right to left. A piece with Persian words
in it is put in visual order (:func:`fairdeal.cli.rtl.visual_order`: letters joined, names, cards
and numbers left to right within it); a piece with none (cards, a box's frame, a name) keeps its
order. Styles go with their characters, and what a click hits moves with them (:func:`moved`).
Line mode never does this: it writes logical order."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from fairdeal import i18n

from .. import rtl
from ._canvas import Hit
from .layout import Drawn

_GAP = re.compile(r" {2,}")


def active() -> bool:
    """Whether the table mirrors its lines: the language spoken is written right to left, and the
    terminal does not reorder it itself (``FAIRDEAL_BIDI``, :func:`fairdeal.cli.rtl.mode`)."""
    return i18n.right_to_left() and rtl.mode() == rtl.FAIRDEAL


def _pieces(text: str) -> list[tuple[int, int]]:
    """Where the pieces of a line are: the runs between its gaps (and its ends)."""
    found, start = [], 0
    for gap in _GAP.finditer(text):
        if gap.start() > start:
            found.append((start, gap.start()))
        start = gap.end()
    if start < len(text):
        found.append((start, len(text)))
    return [(a, b) for a, b in found if text[a:b].strip()]


def mirrored(line: Text, width: int | None = None) -> tuple[Text, list[int]]:
    """``line`` as a table written right to left shows it, ``width`` cells wide (default: its own),
    and the column each of its characters shows at (-1: not shown). A line whose characters are not
    each one cell wide is only moved to the right edge; a character of no width (a Persian
    zero-width non-joiner, as in ``می‌شود``; a vowel mark) is left out, as the visual order leaves it."""
    plain = line.plain
    width = max(width if width is not None else 0, cell_len(plain))
    if any(cell_len(ch) != 1 and not _unshown(ch) for ch in plain):
        pad = max(0, width - cell_len(plain))
        return Text(" " * pad) + line, [pad + i for i in range(len(plain))]
    cell = [0]  # the cell where each character of the line begins (and where the line ends)
    for ch in plain:
        cell.append(cell[-1] + cell_len(ch))
    chars = [" "] * width
    where = [-1] * len(plain)
    for start, end in _pieces(plain):
        piece = plain[start:end]
        if rtl.has_right_to_left(piece):
            shown, order = rtl.visual_order(piece)
        else:
            kept = [i for i, ch in enumerate(piece) if not _unshown(ch)]
            shown, order = "".join(piece[i] for i in kept), [-1] * len(piece)
            for column, i in enumerate(kept):
                order[i] = column
        room = cell[end] - cell[start]
        shown = shown[:room].ljust(room)  # as many cells as the piece had
        left = width - cell[end]  # the mirror of the piece's place
        for i, column in enumerate(order):
            if 0 <= column < room:
                where[start + i] = left + column
        chars[left : left + room] = shown
    return _styled("".join(chars), line, where), where


def _unshown(ch: str) -> bool:
    """A character of no width that a mirrored line leaves out: a joiner, a vowel mark."""
    return cell_len(ch) == 0 and unicodedata.category(ch) in ("Cf", "Mn")


def _styled(chars: str, line: Text, where: list[int]) -> Text:
    """``chars`` with the styles ``line``'s characters had, each where it now shows."""
    styles: list[list[str | Style]] = [[] for _ in where]
    for span in line.spans:
        for i in range(span.start, min(span.end, len(where))):
            styles[i].append(span.style)
    at: dict[int, tuple[str | Style, ...]] = {
        col: tuple(styles[i]) for i, col in enumerate(where) if col >= 0
    }
    out = Text(chars, style=line.style, end=line.end, no_wrap=line.no_wrap, overflow=line.overflow)
    run_start, run = 0, at.get(0, ())
    for col in range(1, len(chars) + 1):
        now = at.get(col, ()) if col < len(chars) else None
        if now != run:
            for style in run:
                out.stylize(style, run_start, col)
            run_start, run = col, now or ()
    return out


def moved(where: list[int], x0: int, x1: int) -> tuple[int, int] | None:
    """The columns ``x0`` to ``x1`` (excluded) of a line, where the line mirrored shows them."""
    columns = [where[x] for x in range(max(0, x0), min(x1, len(where))) if where[x] >= 0]
    return (min(columns), max(columns) + 1) if columns else None


def mirrored_drawing(drawn: Drawn, width: int) -> Drawn:
    """The table drawn, mirrored (its lines and where a click hits)."""
    lines, hits = [], []
    maps = []
    for text in drawn.lines:
        shown, where = mirrored(text, width)
        shown.rstrip_end(width)
        lines.append(shown)
        maps.append(where)
    for hit in drawn.hits:
        span = moved(maps[hit.y], hit.x0, hit.x1) if hit.y < len(maps) else None
        if span is not None:
            hits.append(Hit(hit.y, span[0], span[1], hit.token, hit.zone))
    return replace(drawn, lines=lines, hits=hits)


def mirrored_parts(
    lines: list[Text], parts: list[tuple[int, int, int, str]], width: int
) -> tuple[list[Text], list[tuple[int, int, int, str]]]:
    """A bar's lines mirrored, and the parts a click presses where they now show."""
    shown, maps = [], []
    for text in lines:
        line, where = mirrored(text, width)
        shown.append(line)
        maps.append(where)
    moved_parts = []
    for y, x0, x1, key in parts:
        span = moved(maps[y], x0, x1) if y < len(maps) else None
        if span is not None:
            moved_parts.append((y, span[0], span[1], key))
    return shown, moved_parts


def right_to_left(text: Text) -> Text:
    """A line of a bar or a box, mirrored within its own width and set against the right edge."""
    shown, _where = mirrored(text)
    shown.justify = "right"
    return shown


__all__ = ["active", "mirrored", "mirrored_drawing", "mirrored_parts", "moved", "right_to_left"]
