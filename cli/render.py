"""The table and words as line mode shows them: rich ``Text``, or plain text.

Line mode draws a game from the same description the full-screen table draws
(:class:`~fairdeal.core.tableview.TableView`): :func:`table_lines` writes it as lines, a seat's
area on a line under its name, the middle's piles one a line. Words are strings, cards and
seats (and :class:`~fairdeal.core.rules.FaceDown`); this module turns them into red and black
cards with suit symbols, or plain text (``--ascii`` also writes suits as C D H S). Card names
inside plain strings (``"Bob played 7♥"``) are coloured the same way, so descriptions and
narrations match the table. Nothing here writes to the terminal.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rich.text import Text

from fairdeal import i18n
from fairdeal.core import tableview
from fairdeal.core.cards import SUITS, Card, parse_card, rank_text
from fairdeal.core.rules import TO_PLAY, FaceDown, Line
from fairdeal.core.tableview import POINTS, Pile, Region, Seat, TableView, Words
from fairdeal.i18n import gettext as _
from fairdeal.i18n import ngettext

from .phrases import you, you_within

#: How a seat is written: "You" for the viewer, the seat's name for the others.
Namer = Callable[[int], str]


def seat_words(seat: int) -> str:
    """A seat's name when no names are known."""
    return _("seat {n}").format(n=seat)


_SEAT_WORD = re.compile(r"\b[Ss]eat (\d+)\b")


def named(text: str, names: Sequence[str], you: int | None = None) -> str:
    """Words of a game (a result, a move) with ``seat N`` written as the seat's name (``you``
    for the reader's own seat)."""

    def name(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        if seat == you:
            return you_within()
        return names[seat] if 0 <= seat < len(names) else m.group(0)

    return _SEAT_WORD.sub(name, text)


def sentence(text: str, names: Sequence[str], you: int | None = None) -> str:
    """Words of a game that begin a sentence (a remark of the story): seats named as :func:`named`
    does, the first letter capitalised — but not a seat's name, written as its owner wrote it
    ("root scored 1 point"), while the reader's own is "You"."""
    first = _SEAT_WORD.match(text)
    out = named(text, names, you)
    if first is not None and int(first.group(1)) != you and 0 <= int(first.group(1)) < len(names):
        return out
    return out[:1].upper() + out[1:]


RED = "bold red"
BLACK = "bold"
FACE_DOWN = "cyan"

_SYMBOL_TO_LETTER = {s.symbol: s.value for s in SUITS}
#: Suit symbols to letters, and the typography fairdeal's own words use to plain ASCII.
_ASCII_TABLE = str.maketrans(
    {
        **_SYMBOL_TO_LETTER,
        **{"—": "-", "·": "|", "…": "...", "×": "x", "✔": "OK", "✘": "!!"},
        **{"←": "<-", "→": "->", "↑": "^", "↓": "v"},
    }
)
_RED_SYMBOLS = frozenset(s.symbol for s in SUITS if s.red)
#: A card written with a suit symbol (``10♥``, ``Q♠``), or a lone suit symbol (``trump ♦``).
#: Any letter before a symbol: the rank letters of the language spoken too (German ``D♥``).
_CARD_IN_TEXT = re.compile(r"(?<![\w])(?:10|[2-9]|[^\W\d_])[♣♦♥♠]|[♣♦♥♠]")
#: A card as a player might type or a description might show it: ``7h``, ``10♥``, ``QS``.
_CARD_TOKEN = re.compile(r"^(10|[2-9ajqk])([cdhs♣♦♥♠])$", re.IGNORECASE)


def to_ascii(text: str) -> str:
    """``text`` in ASCII: suit symbols as letters (``7♥`` → ``7H``), plain dashes and dots,
    accents dropped (``Écarté`` → ``Ecarte``), anything else as ``?``."""
    text = text.translate(_ASCII_TABLE)
    if text.isascii():
        return text
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return bare.encode("ascii", "replace").decode("ascii")


def card_text(card: Card, ascii: bool = False) -> Text:
    """One card in the letters of the language spoken, coloured by suit (no colour in ASCII)."""
    if ascii:
        return Text(card.text(True, lang=i18n.language()))
    return Text(card.text(lang=i18n.language()), style=RED if card.suit.red else BLACK)


def face_down_text(count: int, ascii: bool = False) -> str:
    """``[?]`` for one face-down card, ``[?]×4`` (``[?]x4``) for several, nothing for none."""
    if count <= 0:
        return ""
    if count == 1:
        return "[?]"
    return f"[?]{'x' if ascii else '×'}{count}"


def styled(text: str, ascii: bool = False, style: str = "") -> Text:
    """Plain words as ``Text``, with the cards and suit symbols in them coloured.

    In ASCII the symbols become letters and nothing is coloured.
    """
    if ascii:
        return Text(to_ascii(text), style=style)
    out = Text(style=style)
    pos = 0
    for m in _CARD_IN_TEXT.finditer(text):
        out.append(text[pos : m.start()])
        symbol = m.group()[-1]
        out.append(m.group(), style=RED if symbol in _RED_SYMBOLS else BLACK)
        pos = m.end()
    out.append(text[pos:])
    return out


def _parts(line: Line, ascii: bool, names: Namer | None) -> list[Text]:
    parts: list[Text] = []
    for seg in line:
        if isinstance(seg, Seat):
            name = (names or seat_words)(seg.seat)
            before = "".join(p.plain for p in parts).rstrip()
            if name == you() and before[-1:].islower():
                name = you_within()  # "won by you", but "You to play" and "Points: You 0"
            parts.append(styled(name, ascii))
        elif isinstance(seg, Card):
            parts.append(card_text(seg, ascii))
        elif isinstance(seg, FaceDown):
            parts.append(Text(face_down_text(seg.count, ascii), style="" if ascii else FACE_DOWN))
        else:
            parts.append(styled(str(seg), ascii))
    return parts


def line_rich(line: Line, ascii: bool = False, names: Namer | None = None) -> Text:
    """One rendered line as ``Text``: segments joined by a space where they do not touch.

    ``names`` writes a :class:`~fairdeal.core.tableview.Seat` (default ``seat N``).
    """
    out = Text()
    for part in _parts(line, ascii, names):
        p = part.plain
        if out.plain.endswith(" ") and p.startswith(" "):  # e.g. after an empty face-down pile
            part = part[len(p) - len(p.lstrip(" ")) :]
            p = part.plain
        if not p:
            continue
        if out.plain and not out.plain.endswith((" ", "(")) and not p.startswith((" ", ",", ")", ":")):
            out.append(" ")
        out.append_text(part)
    return out


def line_text(line: Line, ascii: bool = False, names: Namer | None = None) -> str:
    """One rendered line as plain text (no colour): ``Your hand: 9♣ 8♣ 7♣``."""
    return line_rich(line, ascii, names).plain


def lines_text(lines: Iterable[Line], ascii: bool = False, names: Namer | None = None) -> list[str]:
    """Every line of a rendering as plain text."""
    return [line_text(line, ascii, names) for line in lines]


#: The widest a seat's name column gets in line mode.
NAME_COLUMN = 18


def score_name(view: TableView) -> str:
    """What the scores are called: the game's own word, else "points" in the language spoken."""
    return _("points") if view.score_name == POINTS else view.score_name


def score_words(view: TableView) -> Words:
    """The scores in words, each name apart from its number: ``Points — You: 0 · Bob (classic): 1``."""
    if view.scores is None:
        return ()
    words: list[str | Card | Seat] = [f"{score_name(view).capitalize()} —"]
    for seat, score in enumerate(view.scores):
        words.extend([*(["·"] if seat else []), Seat(seat), f": {score}"])
    return tuple(words)


def table_lines(
    view: TableView, seat: int | None, names: Namer, width: int = 78, ascii: bool = False
) -> list[Text]:
    """The table as line mode prints it, each line at most ``width`` wide where it can be.

    The headline facts and the scores; then every other seat, the middle and ``seat``'s own
    area (the order of the full-screen table, top to bottom): a seat on a line of its own,
    its name in a column (``◀`` when the game waits for it), its piles after it and its
    notes last, wrapped under the piles; each pile of the middle on a line; then what the
    game waits for.
    """
    out: list[Text] = []
    if view.facts:
        facts: list[str | Card | Seat] = []
        for i, fact in enumerate(view.facts):
            facts.extend([*(["·"] if i else []), *fact])
        out.extend(_packed([("", line_rich(tuple(facts), ascii, names))], width, 2))
    if view.scores is not None:
        out.extend(_packed([("", line_rich(score_words(view), ascii, names))], width, 2))
    seats = [(r.owner, r) for r in view.regions if r.owner is not None]
    marker = " <" if ascii else " ◀"
    heads = {p: names(p) + (marker if p == view.turn else "") for p, _ in seats}
    column = min(NAME_COLUMN, max((len(h) for h in heads.values()), default=0)) + 2
    for p, region in seats:
        if p != seat:
            out.extend(_seat_lines(region, heads[p], column, width, ascii, names))
    for region in view.regions:
        if region.owner is None:
            for note in region.notes:
                out.extend(_packed([("", line_rich(note, ascii, names))], width, 2))
            for pile in region.piles:
                out.extend(_packed([("", line_rich(pile_words(pile), ascii, names))], width, 2))
    for p, region in seats:
        if p == seat:
            out.extend(_seat_lines(region, heads[p], column, width, ascii, names))
    if view.status:
        rest = own_turn(view.status, seat)
        if rest is None:  # another's turn: the core's "to play" (a game's own words are said already)
            status = tuple(_("to play") if w == TO_PLAY else w for w in view.status)
        else:
            status = (_("Your turn") + ":", *rest) if rest else (_("Your turn"),)
        out.extend(_packed([("", line_rich(status, ascii, names))], width, 2))
    return out


def own_turn(status: Words, seat: int | None) -> Words | None:
    """What the game waits for when it waits for ``seat``, to follow "Your turn:" (both front ends
    say it so, in every language: the games write it to follow it); None when it waits for another.
    An English ``to discard`` loses its ``to``; ``to play`` says nothing more than "Your turn"."""
    if seat is None or not status or status[0] != Seat(seat):
        return None
    rest = status[1:]
    if rest and isinstance(rest[0], str) and rest[0].startswith("to "):
        rest = (rest[0][3:], *rest[1:])
    return () if rest == ("play",) else rest


def table_text(
    game: Any,
    state: Any,
    viewer: int | None,
    names: Namer | None = None,
    width: int = 78,
    ascii: bool = False,
) -> str:
    """The table of ``game`` in ``state`` as line mode writes it for ``viewer``, as plain text
    (``names`` writes the seats; default ``You`` for the viewer and ``seat N`` for the others)."""

    def named(seat: int) -> str:
        return names(seat) if names is not None else you() if seat == viewer else seat_words(seat)

    view = game.table_view(state, viewer)
    return "\n".join(line.plain for line in table_lines(view, viewer, named, width, ascii))


def pile_words(pile: Pile) -> Words:
    """A pile in words, in the language spoken: ``Centre 1: 7♥ (3 cards), takes 8`` (the label and
    the note are the game's)."""
    return tableview.pile_words(pile, empty=_("empty"), cards=_cards, face_down=_face_down)


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def _face_down(n: int) -> str:
    return ngettext("{n} card face down", "{n} cards face down", n).format(n=n)


def _seat_lines(region: Region, head: str, column: int, width: int, ascii: bool, names: Namer) -> list[Text]:
    dot = " | " if ascii else " · "
    items = [(dot, line_rich(pile_words(pile), ascii, names)) for pile in region.piles]
    if region.notes:
        notes: list[str | Card | Seat] = []
        for i, note in enumerate(region.notes):
            notes.extend([*([","] if i else []), *note])
        items.append((" - " if ascii else " — ", line_rich(tuple(notes), ascii, names)))
    first = styled(head, ascii, "bold")
    first.append(" " * max(1, column - len(head)))
    return _packed(items, width, column, first)


def _packed(items: list[tuple[str, Text]], width: int, hang: int, first: Text | None = None) -> list[Text]:
    """``items`` (each with the separator that goes before it) on as few lines as fit ``width``,
    the lines after the first indented ``hang`` columns; an item too long for a line is cut at
    spaces."""
    lines: list[Text] = [first.copy() if first is not None else Text()]
    fresh = True  # nothing on the current line but its indent
    for sep, item in items:
        if fresh:
            sep = ""
        elif lines[-1].cell_len + len(sep) + item.cell_len > width:
            lines.append(Text(" " * hang))
            sep = ""
        lines[-1].append(sep)
        room = max(10, width - lines[-1].cell_len)
        rest = item
        while rest.cell_len > room:
            cut = rest.plain.rfind(" ", 0, room + 1)
            if cut <= 0:
                break
            lines[-1].append_text(rest[:cut])
            lines.append(Text(" " * hang))
            rest = rest[cut + 1 :]
            room = max(10, width - hang)
        lines[-1].append_text(rest)
        fresh = False
    return lines


def card_token(word: str) -> str | None:
    """``word`` as a card key (``7h``, ``10s``, ``qd``) if it names a card, else None.

    Accepts what a player types (``7h``, ``10H``, ``q♠``, and in the language spoken its own
    letters: ``дч``, ``8с``, ``Dh``, :func:`~fairdeal.core.cardwords.parse_card`) and what
    descriptions show (``7♥``); the key ignores case and writing.
    """
    m = _CARD_TOKEN.match(word)
    if m is None:
        return _typed_in_language(word)
    rank, suit = str(m.group(1)).lower(), str(m.group(2))
    return rank + _SYMBOL_TO_LETTER.get(suit, suit).lower()


def _typed_in_language(word: str) -> str | None:
    """The key of a card typed in the letters of the language spoken (``дч``, ``Dh``), if it is one."""
    lang = i18n.language()
    if lang == "en" or word.startswith("#"):
        return None
    try:
        return card_key(parse_card(word.partition("#")[0], lang))
    except ValueError:
        return None


def _is_item(text: str) -> bool:
    return text.startswith(("- ", "* ")) or (text[:1].isdigit() and text[1:3] in (". ", ") "))


#: An indented definition: a term, two spaces or more, what it means (an option and its help).
_TERM = re.compile(r"\S+ {2,}(?=\S)")


def _hang(lead: str, stripped: str) -> tuple[str, str] | None:
    """A line that begins a list item or a definition: its kind and the indent of its next lines
    (None: a plain line)."""
    if _is_item(stripped):
        return "item", lead + " " * (stripped.index(" ") + 1)
    term = _TERM.match(stripped)
    if lead and term is not None:
        return "term", lead + " " * term.end()
    return None


def reflow(text: str, width: int) -> list[str]:
    """Hard-wrapped text flowed again to ``width``: the lines of a paragraph are joined and
    wrapped anew; blank lines, indents, list items (``- x``, ``1. x``) and indented definitions
    (``target=N   points needed...``, their lines hanging under the words) are kept."""
    import textwrap

    out: list[str] = []
    para: list[str] = []
    indent = hang = ""
    kind = "plain"

    def flush() -> None:
        if para:
            body = " ".join(para)
            lines = textwrap.wrap(body, max(20, width), initial_indent=indent, subsequent_indent=hang)
            out.extend(lines or [""])
            para.clear()

    for raw in text.splitlines():
        line = raw.rstrip()
        stripped = line.lstrip()
        lead = line[: len(line) - len(stripped)]
        if not stripped:
            flush()
            out.append("")
            continue
        begins = _hang(lead, stripped)
        goes_on = begins is None and (
            kind == "item" or (lead == indent if kind == "plain" else len(lead) > len(indent))
        )
        if para and not goes_on:
            flush()
        if not para:
            indent = lead
            kind, hang = begins or ("plain", lead)
        para.append(stripped)
    flush()
    return out


def option_text(name: str, value: object) -> str:
    """An option as a player types it on the command line: ``trump_when_void=true``."""
    shown = ("true" if value else "false") if isinstance(value, bool) else value
    return f"{name}={shown}"


def card_key(card: Card) -> str:
    """The key :func:`card_token` gives for ``card``."""
    return (rank_text(card.rank) + card.suit.value).lower()


__all__ = [
    "Namer",
    "card_key",
    "card_text",
    "card_token",
    "face_down_text",
    "line_rich",
    "line_text",
    "lines_text",
    "named",
    "option_text",
    "reflow",
    "seat_words",
    "sentence",
    "styled",
    "table_lines",
    "table_text",
    "to_ascii",
]
