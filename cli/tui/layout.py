"""The table drawn into a rectangle: a game's :class:`TableView` as lines of rich text.

Pure: no Textual, no terminal. :func:`draw_table` lays the other players' regions out
along the top, the shared middle below them and the viewer's own region at the bottom,
each pile as a small block (its label over its cards), and returns the lines with the
place of every card and pile on them (:class:`Hit`), so a click can be mapped back.
It tries roomier forms first and tighter ones until the table fits; whatever the
table, nothing drawn is wider or taller than the rectangle it was given.

The pieces it sets are made elsewhere: the lines and blocks (``_canvas``), how a card, a
name and words look (``_faces``), the piles (``_piles``); the title bar is ``titlebar``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from fairdeal.core.tableview import Region, TableView
from fairdeal.i18n import gettext as _

from ._canvas import Hit, Line, flow, pack
from ._faces import LABEL, NAME_ROOM, TURN, Marks, Namer, card_text, short, words_text
from ._piles import big_pile_block, pile_block
from .titlebar import title_line


@dataclass
class Drawn:
    """The lines drawn and what is clickable on them; ``form`` is the form the table took (see
    :func:`draw_table`), ``whole`` whether all of it fits (nothing cut)."""

    lines: list[Text]
    hits: list[Hit]
    form: int = 0
    whole: bool = True

    def at(self, x: int, y: int) -> Hit | None:
        """The card (preferred) or pile under column ``x`` of line ``y``."""
        found = [h for h in self.hits if h.y == y and h.x0 <= x < h.x1]
        found.sort(key=lambda h: h.token is None)
        return found[0] if found else None


# -- regions -----------------------------------------------------------------------------------------
def _header(region: Region, view: TableView, names: Namer, marks: Marks, room: int) -> list[Line]:
    """The seat's name, the turn marker and its notes; notes that do not fit go on further lines."""
    lines = [Line()]
    assert region.owner is not None
    name = short(names(region.owner), NAME_ROOM)
    lines[0].add(Text(name, style="bold"))
    if view.turn == region.owner:
        lines[0].add(Text(" <" if marks.ascii else " ◀", style=TURN))
    for note in region.notes:
        text = words_text(note, names, marks.ascii, "italic")
        if lines[-1].width + 3 + text.cell_len > room:
            lines.append(Line())
            lines[-1].add("  ")
        else:
            lines[-1].add(Text(" | " if marks.ascii else " · ", style=LABEL))
        lines[-1].add(text)
    return lines


def _region_lines(
    region: Region,
    view: TableView,
    names: Namer,
    marks: Marks,
    width: int,
    inline: bool,
    pad: bool = False,
    big: bool = False,
) -> list[Line]:
    if big:
        blocks = [big_pile_block(p, names, marks, width) for p in region.piles]
    else:
        blocks = [pile_block(p, names, marks, width, pad) for p in region.piles]
    lines: list[Line] = []
    if region.owner is not None:
        heads = _header(region, view, names, marks, width)
        head = heads[-1]
        if inline and blocks and all(b.height == 2 for b in blocks):
            # One line: the name, then each pile as "label cards".
            for p in region.piles:
                head.add("  ")
                blk = pile_block(p, names, marks, width)
                lbl, row = blk.lines
                if len(region.piles) > 1 or (lbl.hits and marks.lit.get(p.zone or "")):
                    x0 = head.width
                    label = lbl.text.copy()
                    label.rstrip()
                    head.text.append_text(label)
                    head.hits.extend(Hit(0, h.x0 + x0, h.x1 + x0, h.token, h.zone) for h in lbl.hits)
                    head.add(" ")
                x0 = head.width
                row_text = row.text.copy()
                row_text.rstrip()
                head.text.append_text(row_text)
                head.hits.extend(Hit(0, h.x0 + x0, h.x1 + x0, h.token, h.zone) for h in row.hits)
            if head.width <= width:
                return heads
            heads = _header(region, view, names, marks, width)  # too wide on one line: as blocks
        lines.extend(heads)
    lines.extend(flow(blocks, width))
    if region.owner is None and region.notes:  # the middle's remarks, on a line under its piles
        note = Line()
        for i, words in enumerate(region.notes):
            if i:
                note.add(Text(" | " if marks.ascii else " · ", style=LABEL))
            note.add(words_text(words, names, marks.ascii, "italic dim"))
        lines.append(note)
    return lines


def _compose(
    view: TableView, viewer: int | None, names: Namer, marks: Marks, width: int, height: int, form: int
) -> list[Line]:
    """The whole table in one of the forms: 0 cards drawn as boxes, 1 wide cards, 2 piles as blocks,
    3 the others on one line each, 4 your own area on one line too."""
    big = form == 0
    pad = form == 1
    form = max(0, form - 1)
    mine = [r for r in view.regions if r.owner is not None and r.owner == viewer]
    middle = [r for r in view.regions if r.owner is None]
    others = [r for r in view.regions if r.owner is not None and r.owner != viewer]
    if viewer is not None and others:  # the seats after the viewer's first, as they sit round the table
        n = max(r.owner for r in others if r.owner is not None) + 1
        others.sort(key=lambda r: ((r.owner or 0) - viewer) % max(n, viewer + 1))
    sections: list[list[Line]] = []
    if others:
        many = len(others) > 2  # many players: each on one line, set in columns
        groups = [
            _region_lines(r, view, names, marks, width, form >= 2 or many, pad and not many, big and not many)
            for r in others
        ]
        if len(groups) > 2 and all(len(g) <= 2 for g in groups):
            sections.append(pack(groups, width))
        else:
            sections.append([ln for g in groups for ln in g])
    for r in middle:
        sections.append(_region_lines(r, view, names, marks, width, False, pad, big))
    for r in mine:
        sections.append(_region_lines(r, view, names, marks, width, form >= 3, pad, big))
    sections = [sec for sec in sections if sec]
    out: list[Line] = []
    # A blank line between the others, the middle and your own area, when the height allows.
    spaced = sum(len(sec) for sec in sections) + len(sections) - 1 <= height
    for i, sec in enumerate(sections):
        if i and spaced:
            out.append(Line())
        out.extend(sec)
    return out


def _clip(line: Line, width: int) -> Text:
    text = line.text
    if text.cell_len > width:
        text = text.copy()
        text.truncate(width, overflow="ellipsis")
    text.rstrip()
    return text


#: Lines a table drawn with boxes keeps free, so that a game growing by a band of boxes (a
#: second trick beside the first, a note that wraps) does not have to change form mid-game.
BOX_ROOM = 6


def draw_table(
    view: TableView,
    viewer: int | None,
    names: Namer,
    width: int,
    height: int,
    marks: Marks | None = None,
    least: int = 0,
) -> Drawn:
    """The table in ``width`` × ``height`` cells: never wider, never taller.

    It takes the roomiest form that fits, from ``least`` on (0 cards as boxes, with
    :data:`BOX_ROOM` lines to spare; 1 wide cards; 2-4 tighter and tighter): a front end that
    passes the form it drew last never goes back to a roomier one as the game changes.
    """
    marks = marks or Marks()
    width, height = max(1, width), max(0, height)
    lines: list[Line] = []
    form = least
    for form in range(min(max(0, least), 4), 5):
        if form == 0 and marks.ascii:
            continue  # boxes need the box-drawing characters
        lines = _compose(view, viewer, names, marks, width, height, form)
        if form == 0 and len(lines) + BOX_ROOM > height:
            continue
        if form == 1 and len(lines) * 2 > height:
            continue  # wide cards only where there is plenty of room
        if len(lines) <= height and all(ln.width <= width for ln in lines):
            break
    whole = len(lines) <= height and all(ln.width <= width for ln in lines)
    if len(lines) > height:
        # Keep the viewer's own area and the middle whole: cut the others' rows first.
        mine_count = len(_compose_mine(view, viewer, names, marks, width))
        keep_tail = min(height, mine_count + 6)
        lines = lines[: max(0, height - keep_tail)] + lines[len(lines) - keep_tail :]
    out: list[Text] = []
    hits: list[Hit] = []
    for y, ln in enumerate(lines[:height]):
        out.append(_clip(ln, width))
        hits.extend(Hit(y, h.x0, min(h.x1, width), h.token, h.zone) for h in ln.hits if h.x0 < width)
    return Drawn(out, hits, form, whole)


#: The smallest terminal every built-in game's table fits whole.
MIN_COLUMNS, MIN_LINES = 80, 24


def too_small(drawn: Drawn, columns: int, lines: int, width: int) -> Drawn:
    """``drawn`` (a table that did not fit whole), or, in a terminal smaller than
    :data:`MIN_COLUMNS` × :data:`MIN_LINES`, a plain word that the window is too small and how
    big it must be, in place of a table with parts missing."""
    if columns >= MIN_COLUMNS and lines >= MIN_LINES:
        return drawn
    words = _(
        "The window is too small for this table ({size}): make it at least {least} to see every card; "
        "the game is not lost meanwhile."
    ).format(size=f"{columns}x{lines}", least=f"{MIN_COLUMNS}x{MIN_LINES}")
    import textwrap

    wrapped = textwrap.wrap(words, max(1, width), break_long_words=True)
    return Drawn([Text(line, style="bold yellow") for line in wrapped], [], drawn.form, False)


#: The side panel's widths (what happened, the chat), roomiest first; 0 is hidden (F4 shows the story).
PANEL_WIDTHS = (40, 28, 20, 0)


def panel_width(columns: int) -> int:
    """The side panel's width in a terminal of ``columns``: 40 from 100 columns on, 28 from 80, 20 below
    (the table takes the rest; :func:`narrower_panel` when the table does not fit whole beside it)."""
    return 40 if columns >= 100 else 28 if columns >= MIN_COLUMNS else 20


def narrower_panel(width: int) -> int:
    """The panel's next width when the table does not fit whole beside one of ``width``: narrower,
    then hidden (0)."""
    return next((w for w in PANEL_WIDTHS if w < width), 0)


def _compose_mine(view: TableView, viewer: int | None, names: Namer, marks: Marks, width: int) -> list[Line]:
    mine = [r for r in view.regions if r.owner is not None and r.owner == viewer]
    return [ln for r in mine for ln in _region_lines(r, view, names, marks, width, inline=True)]


def screen_order(view: TableView, viewer: int | None) -> list[int]:
    """Tokens in the order the table shows them to ``viewer``: own region last, left to right."""
    order: list[int] = []
    regions = sorted(view.regions, key=lambda r: (r.owner == viewer, r.owner is None))
    for r in regions:
        for p in r.piles:
            order.extend(p.tokens)
    return order


__all__ = [
    "Drawn",
    "Hit",
    "Marks",
    "card_text",
    "draw_table",
    "narrower_panel",
    "panel_width",
    "screen_order",
    "title_line",
    "too_small",
    "words_text",
]
