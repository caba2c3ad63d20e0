"""The table drawn into a rectangle: a game's :class:`TableView` as lines of rich text.

Pure: no Textual, no terminal. :func:`draw_table` lays the other players' regions out
along the top, the shared middle below them and the viewer's own region at the bottom,
each pile as a small block (its label over its cards), and returns the lines with the
place of every card and pile on them (:class:`Hit`), so a click can be mapped back.
It tries roomier forms first and tighter ones until the table fits; whatever the
table, nothing drawn is wider or taller than the rectangle it was given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.text import Text

from fairdeal.core.cards import Card
from fairdeal.core.tableview import Pile, Region, Seat, Spread, TableView, Words

from ..render import score_words, to_ascii

Namer = Callable[[int], str]

RED = "bold red on grey93"
BLACK = "bold black on grey93"
BACK = "blue"
LABEL = "dim"
LIT = "bold black on green"
TURN = "bold yellow"
NAME_ROOM = 14  # a name in a region header
WHO_ROOM = 8  # a name next to a card in a trick
CAPTION_ROOM = 12  # a name under a card drawn as a box


@dataclass(frozen=True)
class Marks:
    """What the table shows beyond the cards: the selected card, the cards that can be picked,
    the piles lit as targets (zone → key), the cards that moved since the viewer's last move."""

    selected: int | None = None
    pickable: frozenset[int] = frozenset()
    lit: Mapping[str, str] = field(default_factory=dict)
    fresh: frozenset[int] = frozenset()
    ascii: bool = False


@dataclass(frozen=True, slots=True)
class Hit:
    """Something clickable on line ``y`` between columns ``x0`` and ``x1`` (excluded)."""

    y: int
    x0: int
    x1: int
    token: int | None = None
    zone: str | None = None


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


# -- small pieces ------------------------------------------------------------------------------------
class _Line:
    """A line being built: text plus the hits on it (x positions relative to its start)."""

    def __init__(self) -> None:
        self.text = Text()
        self.hits: list[Hit] = []

    @property
    def width(self) -> int:
        return self.text.cell_len

    def add(
        self, part: Text | str, style: str = "", token: int | None = None, zone: str | None = None
    ) -> None:
        t = part if isinstance(part, Text) else Text(part, style=style)
        x0 = self.width
        self.text.append_text(t)
        if token is not None or zone is not None:
            self.hits.append(Hit(0, x0, self.width, token, zone))

    def pad(self, width: int) -> None:
        if self.width < width:
            self.text.append(" " * (width - self.width))


class _Block:
    """Some lines of equal width, with their hits."""

    def __init__(self, lines: list[_Line]) -> None:
        self.lines = lines
        self.width = max((ln.width for ln in lines), default=0)
        for ln in lines:
            ln.pad(self.width)

    @property
    def height(self) -> int:
        return len(self.lines)


def words_text(words: Words, names: Namer, ascii: bool, style: str = "") -> Text:
    """Words with their cards coloured and seats named."""
    out = Text(style=style)
    for w in words:
        if isinstance(w, Seat):
            piece = Text(names(w.seat))
            if piece.plain == "You" and out.plain.rstrip()[-1:].islower():
                piece = Text("you")  # "won by you", but "Points: You 0"
        elif isinstance(w, Card):
            piece = Text(w.text(ascii), style="" if ascii else ("bold red" if w.suit.red else "bold"))
        else:
            piece = Text(to_ascii(w) if ascii else w)
        p = piece.plain
        if not p:
            continue
        if out.plain and not out.plain.endswith((" ", "(")) and not p.startswith((" ", ",", ")", ":", ";")):
            out.append(" ")
        out.append_text(piece)
    return out


def card_text(card: Card | None, token: int | None, marks: Marks, pad: bool = False) -> Text:
    """One card as the table shows it: its face on a light ground, or its back.

    ``pad``: a wider card (a space either side), when the table has room.
    """
    if card is None:
        back = "##" if marks.ascii else "▒▒"
        return Text(f"{back}{back[0]}" if pad else back, style="" if marks.ascii else BACK)
    face = card.text(marks.ascii)
    if pad and not marks.ascii:
        face = f" {face} " if len(face) == 2 else f"{face} "
    style = "" if marks.ascii else (RED if card.suit.red else BLACK)
    if token is not None and token in marks.fresh:
        style += " underline"
    if token is not None and token == marks.selected:
        style += " reverse"
        face = f"[{face}]" if marks.ascii else face
    return Text(face, style=style.strip())


def _short(name: str, room: int) -> str:
    """``name`` in at most ``room`` cells: without a trailing remark in brackets first, then cut."""
    if cell_len(name) > room and " (" in name:
        name = name.split(" (")[0]
    return name if cell_len(name) <= room else name[: max(1, room - 1)] + "…"


def title_line(title: str, view: TableView | None, names: Namer, width: int, ascii: bool) -> Text:
    """The title bar in ``width`` cells: the game, its facts on the left, the scores on the right.

    When it is too long the names in it are shortened (a remark in brackets goes first, then
    the name is cut), then the scores lose their label (``Points —``), and only then is the end
    of the facts cut.
    """
    tries = [(room, True) for room in (None, NAME_ROOM, WHO_ROOM)] + [(WHO_ROOM, False), (5, False)]
    for room, label in tries:
        namer = names if room is None else (lambda seat, r=room: _short(names(seat), r))
        left = Text(title, style="bold")
        right = Text()
        if view is not None:
            for fact in view.facts:
                left.append(" · ", style="dim")
                left.append_text(words_text(fact, namer, ascii))
            words = score_words(view)
            right = words_text(words if label else words[1:], namer, ascii)
            if label:
                right.stylize("dim", 0, len(view.score_name) + 2)
        if left.cell_len + 2 + right.cell_len <= width:
            break
    room_left = max(0, width - right.cell_len - 2)
    if left.cell_len > room_left:
        left.truncate(room_left, overflow="ellipsis")
    pad = max(1, width - left.cell_len - right.cell_len)
    return left + Text(" " * pad) + right


# -- piles -------------------------------------------------------------------------------------------
def _pile_items(pile: Pile, names: Namer, marks: Marks, pad: bool) -> list[tuple[Text, int | None]]:
    """The pieces of a pile's card row: (text, token), to be set one after another."""
    dash = "-" if marks.ascii else "—"
    times = "x" if marks.ascii else "×"
    if not pile.tokens:
        return [(Text(dash, style=LABEL), None)]
    if pile.spread is Spread.STACKED:
        tok, card = pile.tokens[-1], pile.cards[-1]
        items: list[tuple[Text, int | None]] = [(card_text(card, tok, marks, pad), tok)]
        if pile.size > 1:
            items.append((Text(f"{times}{pile.size}", style=LABEL), None))
        return items
    items = []  # (text, token) again, for the spread cards
    hidden = [i for i, c in enumerate(pile.cards) if c is None]
    if len(hidden) > 1 and len(hidden) == pile.size and not pile.who:
        return [
            (card_text(None, None, marks), pile.tokens[-1]),
            (Text(f"{times}{pile.size}", style=LABEL), None),
        ]
    for i, (tok, card) in enumerate(zip(pile.tokens, pile.cards, strict=True)):
        piece = Text()
        if pile.who:
            piece.append(_short(names(pile.who[i]), WHO_ROOM) + " ", style=LABEL)
        piece.append_text(card_text(card, tok, marks, pad))
        if pile.tags and pile.tags[i]:
            piece.append(f" {pile.tags[i]}", style="italic")
        items.append((piece, tok))
    return items


def _pile_block(pile: Pile, names: Namer, marks: Marks, room: int, pad: bool = False) -> _Block:
    """A pile as a block: its label (with its key when lit) over its cards, wrapped to ``room``."""
    head = _Line()
    key = marks.lit.get(pile.zone) if pile.zone is not None else None
    if key is not None:
        head.add(Text(f"{key} {pile.label}", style="reverse" if marks.ascii else LIT), zone=pile.zone)
    else:
        dim = marks.selected is not None and marks.lit
        head.add(Text(pile.label, style="dim" if dim else LABEL), zone=pile.zone)
    rows = [_Line()]
    gap = "  " if pile.who else " "
    for piece, tok in _pile_items(pile, names, marks, pad):
        row = rows[-1]
        need = piece.cell_len + (len(gap) if row.width else 0)
        if row.width and row.width + need > room:
            rows.append(_Line())
            row = rows[-1]
        if row.width:
            row.add(gap)
        row.add(piece, token=tok, zone=pile.zone)
    if pile.note:
        note = words_text(pile.note, names, marks.ascii, "italic")
        if rows[-1].width + 1 + note.cell_len <= room:
            rows[-1].add(" ")
            rows[-1].add(note)
        else:
            extra = _Line()
            extra.add(note)
            rows.append(extra)
    return _Block([head, *rows])


def _box(card: Card | None, token: int | None, marks: Marks, empty: bool = False) -> list[Text]:
    """A card drawn as a small box, three lines of five cells: its face, its back, or an empty place."""
    if empty:
        return [Text(x, style=LABEL) for x in ("╭╌╌╌╮", "╎   ╎", "╰╌╌╌╯")]
    border = "grey50"
    if token is not None and token in marks.fresh:
        border = "yellow"
    if token is not None and token == marks.selected:
        border = "bold bright_white"
    if card is None:
        face = Text("▒▒▒", style=BACK)
    else:
        text = card.text()
        style = RED if card.suit.red else BLACK
        if token is not None and token in marks.fresh:
            style += " underline"
        if token is not None and token == marks.selected:
            style += " reverse"
        face = Text(text.rjust(3), style=style)
    middle = Text("│", style=border) + face + Text("│", style=border)
    return [Text("╭───╮", style=border), middle, Text("╰───╯", style=border)]


def _big_pile_block(pile: Pile, names: Namer, marks: Marks, room: int) -> _Block:
    """A pile with its cards drawn as boxes (when the table has room): label, boxes, who played them."""
    head = _Line()
    key = marks.lit.get(pile.zone) if pile.zone is not None else None
    if key is not None:
        head.add(Text(f"{key} {pile.label}", style=LIT), zone=pile.zone)
    else:
        dim = marks.selected is not None and marks.lit
        head.add(Text(pile.label, style="dim" if dim else LABEL), zone=pile.zone)
    times = "×"
    items: list[tuple[list[Text], int | None, str]] = []  # (box lines, token, caption)
    count = ""
    slot = 5
    if not pile.tokens:
        items.append((_box(None, None, marks, empty=True), None, ""))
    elif pile.spread is Spread.STACKED or (all(c is None for c in pile.cards) and not pile.who):
        items.append((_box(pile.cards[-1], pile.tokens[-1], marks), pile.tokens[-1], ""))
        count = f"{times}{pile.size}" if pile.size > 1 else ""
    else:
        # Each card as wide as the longest name under the cards (a box at least), so no name is
        # cut while the row has room: "Carol", "You", "Bot 2" in full, each under its card.
        if pile.who:
            longest = max(cell_len(_short(names(w), CAPTION_ROOM)) for w in pile.who)
            fits = max(5, (room + 1) // max(1, len(pile.tokens)) - 1)
            slot = max(5, min(longest, CAPTION_ROOM, fits))
        for i, (tok, card) in enumerate(zip(pile.tokens, pile.cards, strict=True)):
            caption = _short(names(pile.who[i]), slot) if pile.who else ""
            if pile.tags and pile.tags[i]:
                fits_tag = cell_len(caption) < slot
                caption = (caption if fits_tag else caption[: slot - 2]) + "*" if caption else "*"
            items.append((_box(card, tok, marks), tok, caption))
    captions = any(c for _, _, c in items)
    width = slot if captions else 5
    rows: list[_Line] = []
    band: list[_Line] = []
    gap = 1 if captions else 0  # names under the cards need a space between them
    left = (width - 5) // 2
    for box, at, caption in items:
        if not band or band[0].width + gap + width > room:
            band = [_Line() for _ in range(4 if captions else 3)]
            rows.extend(band)
        elif gap:
            for line in band:
                line.add(" ")
        for r in range(3):
            if left:
                band[r].add(" " * left)
            band[r].add(box[r], token=at, zone=pile.zone)
            if width - 5 - left:
                band[r].add(" " * (width - 5 - left))
        if captions:
            band[3].add(Text(caption.center(width)[:width], style=LABEL), token=at, zone=pile.zone)
    middle = rows[1]
    if count:
        middle.add(Text(f" {count}", style=LABEL))
    if pile.tags and any(pile.tags):
        tag = next(t for t in pile.tags if t)
        middle.add(Text(f" *{tag}", style="italic"))
    if pile.note:
        note = words_text(pile.note, names, marks.ascii, "italic")
        if middle.width + 1 + note.cell_len <= room:
            middle.add(" ")
            middle.add(note)
        else:
            extra = _Line()
            extra.add(note)
            rows.append(extra)
    return _Block([head, *rows])


def _flow(blocks: list[_Block], width: int, gap: int = 2) -> list[_Line]:
    """Blocks set side by side, wrapping to the next band when the width is full."""
    out: list[_Line] = []
    band: list[_Block] = []
    used = 0

    def flush() -> None:
        if not band:
            return
        height = max(b.height for b in band)
        for r in range(height):
            line = _Line()
            for i, b in enumerate(band):
                if i:
                    line.add(" " * gap)
                x0 = line.width
                if r < b.height:
                    src = b.lines[r]
                    line.text.append_text(src.text)
                    line.hits.extend(Hit(0, h.x0 + x0, h.x1 + x0, h.token, h.zone) for h in src.hits)
                else:
                    line.add(" " * b.width)
            out.append(line)

    for b in blocks:
        need = b.width + (gap if band else 0)
        if band and used + need > width:
            flush()
            band, used = [], 0
            need = b.width
        band.append(b)
        used += need
    flush()
    return out


# -- regions -----------------------------------------------------------------------------------------
def _header(region: Region, view: TableView, names: Namer, marks: Marks, room: int) -> list[_Line]:
    """The seat's name, the turn marker and its notes; notes that do not fit go on further lines."""
    lines = [_Line()]
    assert region.owner is not None
    name = _short(names(region.owner), NAME_ROOM)
    lines[0].add(Text(name, style="bold"))
    if view.turn == region.owner:
        lines[0].add(Text(" <" if marks.ascii else " ◀", style=TURN))
    for note in region.notes:
        text = words_text(note, names, marks.ascii, "italic")
        if lines[-1].width + 3 + text.cell_len > room:
            lines.append(_Line())
            lines[-1].add("  ")
        else:
            lines[-1].add(Text(" · ", style=LABEL))
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
) -> list[_Line]:
    if big:
        blocks = [_big_pile_block(p, names, marks, width) for p in region.piles]
    else:
        blocks = [_pile_block(p, names, marks, width, pad) for p in region.piles]
    lines: list[_Line] = []
    if region.owner is not None:
        heads = _header(region, view, names, marks, width)
        head = heads[-1]
        if inline and blocks and all(b.height == 2 for b in blocks):
            # One line: the name, then each pile as "label cards".
            for p in region.piles:
                head.add("  ")
                blk = _pile_block(p, names, marks, width)
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
    lines.extend(_flow(blocks, width))
    if region.owner is None and region.notes:  # the middle's remarks, on a line under its piles
        note = _Line()
        for i, words in enumerate(region.notes):
            if i:
                note.add(Text(" · ", style=LABEL))
            note.add(words_text(words, names, marks.ascii, "italic dim"))
        lines.append(note)
    return lines


def _pack(groups: list[list[_Line]], width: int) -> list[_Line]:
    """Small regions (one or two lines each) set in columns, so ten players fit."""
    col = max(ln.width for g in groups for ln in g) + 3
    per_row = max(1, (width + 3) // col)
    out: list[_Line] = []
    for start in range(0, len(groups), per_row):
        row_groups = groups[start : start + per_row]
        height = max(len(g) for g in row_groups)
        for r in range(height):
            line = _Line()
            for i, g in enumerate(row_groups):
                x0 = i * col
                line.pad(x0)
                if r < len(g):
                    src = g[r]
                    base = line.width
                    line.text.append_text(src.text)
                    line.hits.extend(Hit(0, h.x0 + base, h.x1 + base, h.token, h.zone) for h in src.hits)
            out.append(line)
    return out


def _compose(
    view: TableView, viewer: int | None, names: Namer, marks: Marks, width: int, height: int, form: int
) -> list[_Line]:
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
    sections: list[list[_Line]] = []
    if others:
        many = len(others) > 2  # many players: each on one line, set in columns
        groups = [
            _region_lines(r, view, names, marks, width, form >= 2 or many, pad and not many, big and not many)
            for r in others
        ]
        if len(groups) > 2 and all(len(g) <= 2 for g in groups):
            sections.append(_pack(groups, width))
        else:
            sections.append([ln for g in groups for ln in g])
    for r in middle:
        sections.append(_region_lines(r, view, names, marks, width, False, pad, big))
    for r in mine:
        sections.append(_region_lines(r, view, names, marks, width, form >= 3, pad, big))
    sections = [sec for sec in sections if sec]
    out: list[_Line] = []
    # A blank line between the others, the middle and your own area, when the height allows.
    spaced = sum(len(sec) for sec in sections) + len(sections) - 1 <= height
    for i, sec in enumerate(sections):
        if i and spaced:
            out.append(_Line())
        out.extend(sec)
    return out


def _clip(line: _Line, width: int) -> Text:
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
    lines: list[_Line] = []
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
    words = (
        f"The window is too small for this table ({columns}x{lines}): make it at least "
        f"{MIN_COLUMNS}x{MIN_LINES} to see every card; the game is not lost meanwhile."
    )
    import textwrap

    wrapped = textwrap.wrap(words, max(1, width), break_long_words=True)
    return Drawn([Text(line, style="bold yellow") for line in wrapped], [], drawn.form, False)


def _compose_mine(view: TableView, viewer: int | None, names: Namer, marks: Marks, width: int) -> list[_Line]:
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
    "screen_order",
    "title_line",
    "too_small",
    "words_text",
]
