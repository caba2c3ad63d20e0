"""How one thing looks on the table: the colours, what is marked on the cards (:class:`Marks`:
the card picked, the cards that can be picked, the piles lit as targets, the cards that moved),
a card as text (:func:`card_text`) or as a small box (:func:`card_box`), words with their cards
coloured and seats named (:func:`words_text`), and a name shortened to its room (:func:`short`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.text import Text

from fairdeal.core.cards import Card
from fairdeal.core.tableview import Seat, Words
from fairdeal.i18n import language

from ..phrases import you, you_within
from ..render import to_ascii

Namer = Callable[[int], str]

RED = "bold red on grey93"
BLACK = "bold black on grey93"
BACK = "blue"
LABEL = "dim"
#: A place lit as a target: black on green, said reversed, so that without colour (NO_COLOR) it stays
#: reversed.
LIT = "bold reverse green on black"
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


def words_text(words: Words, names: Namer, ascii: bool, style: str = "") -> Text:
    """Words with their cards coloured and seats named."""
    out = Text(style=style)
    for w in words:
        if isinstance(w, Seat):
            piece = Text(names(w.seat))
            if piece.plain == you() and out.plain.rstrip()[-1:].islower():
                piece = Text(you_within())  # "won by you", but "Points: You 0"
        elif isinstance(w, Card):
            face = w.text(ascii, lang=language())
            piece = Text(face, style="" if ascii else ("bold red" if w.suit.red else "bold"))
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
    face = card.text(marks.ascii, lang=language())
    if pad and not marks.ascii:
        face = f" {face} " if len(face) == 2 else f"{face} "
    style = "" if marks.ascii else (RED if card.suit.red else BLACK)
    if token is not None and token in marks.fresh:
        style += " underline"
    if token is not None and token == marks.selected:
        style += " reverse"
        face = f"[{face}]" if marks.ascii else face
    return Text(face, style=style.strip())


def short(name: str, room: int) -> str:
    """``name`` in at most ``room`` cells: without a trailing remark in brackets first, then cut."""
    if cell_len(name) > room and " (" in name:
        name = name.split(" (")[0]
    return name if cell_len(name) <= room else name[: max(1, room - 1)] + "…"


def card_box(card: Card | None, token: int | None, marks: Marks, empty: bool = False) -> list[Text]:
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
        text = card.text(lang=language())
        style = RED if card.suit.red else BLACK
        if token is not None and token in marks.fresh:
            style += " underline"
        if token is not None and token == marks.selected:
            style += " reverse"
        face = Text(text.rjust(3), style=style)
    middle = Text("│", style=border) + face + Text("│", style=border)
    return [Text("╭───╮", style=border), middle, Text("╰───╯", style=border)]


__all__ = [
    "BACK",
    "BLACK",
    "CAPTION_ROOM",
    "LABEL",
    "LIT",
    "NAME_ROOM",
    "RED",
    "TURN",
    "WHO_ROOM",
    "Marks",
    "Namer",
    "card_box",
    "card_text",
    "short",
    "words_text",
]
