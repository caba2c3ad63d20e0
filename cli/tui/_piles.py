"""A pile on the table as a block of lines: its label (with its key when it is lit as a target)
over its cards, set in a row that wraps to the room given (:func:`pile_block`), or, when the
table has room, over its cards drawn as boxes with who played each under it
(:func:`big_pile_block`)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from fairdeal.core.tableview import Pile, Spread

from ._canvas import Block, Line
from ._faces import CAPTION_ROOM, LABEL, LIT, WHO_ROOM, Marks, Namer, card_box, card_text, short, words_text


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
            piece.append(short(names(pile.who[i]), WHO_ROOM) + " ", style=LABEL)
        piece.append_text(card_text(card, tok, marks, pad))
        if pile.tags and pile.tags[i]:
            piece.append(f" {pile.tags[i]}", style="italic")
        items.append((piece, tok))
    return items


def pile_block(pile: Pile, names: Namer, marks: Marks, room: int, pad: bool = False) -> Block:
    """A pile as a block: its label (with its key when lit) over its cards, wrapped to ``room``."""
    head = Line()
    key = marks.lit.get(pile.zone) if pile.zone is not None else None
    if key is not None:
        head.add(Text(f"{key} {pile.label}", style="reverse" if marks.ascii else LIT), zone=pile.zone)
    else:
        dim = marks.selected is not None and marks.lit
        head.add(Text(pile.label, style="dim" if dim else LABEL), zone=pile.zone)
    rows = [Line()]
    gap = "  " if pile.who else " "
    for piece, tok in _pile_items(pile, names, marks, pad):
        row = rows[-1]
        need = piece.cell_len + (len(gap) if row.width else 0)
        if row.width and row.width + need > room:
            rows.append(Line())
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
            extra = Line()
            extra.add(note)
            rows.append(extra)
    return Block([head, *rows])


def big_pile_block(pile: Pile, names: Namer, marks: Marks, room: int) -> Block:
    """A pile with its cards drawn as boxes (when the table has room): label, boxes, who played them."""
    head = Line()
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
        items.append((card_box(None, None, marks, empty=True), None, ""))
    elif pile.spread is Spread.STACKED or (all(c is None for c in pile.cards) and not pile.who):
        items.append((card_box(pile.cards[-1], pile.tokens[-1], marks), pile.tokens[-1], ""))
        count = f"{times}{pile.size}" if pile.size > 1 else ""
    else:
        # Each card as wide as the longest name under the cards (a box at least), so no name is
        # cut while the row has room: "Carol", "You", "Bot 2" in full, each under its card.
        if pile.who:
            longest = max(cell_len(short(names(w), CAPTION_ROOM)) for w in pile.who)
            fits = max(5, (room + 1) // max(1, len(pile.tokens)) - 1)
            slot = max(5, min(longest, CAPTION_ROOM, fits))
        for i, (tok, card) in enumerate(zip(pile.tokens, pile.cards, strict=True)):
            caption = short(names(pile.who[i]), slot) if pile.who else ""
            if pile.tags and pile.tags[i]:
                fits_tag = cell_len(caption) < slot
                caption = (caption if fits_tag else caption[: slot - 2]) + "*" if caption else "*"
            items.append((card_box(card, tok, marks), tok, caption))
    captions = any(c for _, _, c in items)
    width = slot if captions else 5
    rows: list[Line] = []
    band: list[Line] = []
    gap = 1 if captions else 0  # names under the cards need a space between them
    left = (width - 5) // 2
    for box, at, caption in items:
        if not band or band[0].width + gap + width > room:
            band = [Line() for _ in range(4 if captions else 3)]
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
            extra = Line()
            extra.add(note)
            rows.append(extra)
    return Block([head, *rows])


__all__ = ["big_pile_block", "pile_block"]
