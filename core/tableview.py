"""How a game describes its table to a front end: regions of piles, not lines of text.

A front end draws every game from one :class:`TableView`: the other players' regions
along the top, the shared middle, the viewer's own region at the bottom, the game's
headline facts and scores, and what the game waits for. A pile says which cards it
holds (tokens, and the cards this viewer knows), how it lies (face up, face down, held
in a hand) and how it is laid out (stacked: the top card and a count; fanned: every
card shows), and whether moves can put a card on it (its ``zone``). Text that names a
seat holds a :class:`Seat`, which the front end writes as "You" for its viewer and as
the seat's name for the others. Nothing here does I/O.

:func:`default_view` (:meth:`TableView.of`) describes any game from its zones, so a game
that describes nothing still gets a table; :func:`pile_words` says a pile in words, for line
mode (``fairdeal.cli.render.table_lines``), which reads the same description.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from .cards import Card
from .table import Table, Visibility, Zone


class Spread(Enum):
    """How a pile is laid out."""

    STACKED = "stacked"  # squared up: the top card (or its back) and how many there are
    FANNED = "fanned"  # spread out: every card shows (a hand, a trick, a side stack)


class Facing(Enum):
    """How a pile's cards lie."""

    UP = "up"  # face up: everybody sees them
    DOWN = "down"  # face down: a stock, a Snatch pile (a card turned up in it still shows)
    HELD = "held"  # in its owner's hand: faces for the owner, backs for everyone else


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat named in text: "You" for the viewer, the seat's name for the others."""

    seat: int


#: Words on the table: text, cards and seats, run together with spaces where they do not touch.
Words = tuple[str | Card | Seat, ...]


@dataclass(frozen=True, slots=True)
class Pile:
    """One pile of cards as the viewer sees it.

    ``tokens`` are bottom first; ``cards`` is parallel to them, None where this viewer does
    not know the card (drawn as a back). ``zone`` is the zone a move names to put a card
    here: set it on piles that are targets of moves. ``who`` (parallel to ``tokens``, may
    be empty) says which seat put each card there, ``tags`` a word shown with a card
    (``"snatched"``). ``note`` is a short remark shown with the pile (``takes 7``).
    """

    label: str
    tokens: tuple[int, ...] = ()
    cards: tuple[Card | None, ...] = ()
    spread: Spread = Spread.STACKED
    facing: Facing = Facing.UP
    zone: str | None = None
    note: Words = ()
    who: tuple[int, ...] = ()
    tags: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.cards) != len(self.tokens):
            raise ValueError(f"pile {self.label!r}: {len(self.cards)} cards for {len(self.tokens)} tokens")
        if self.who and len(self.who) != len(self.tokens):
            raise ValueError(f"pile {self.label!r}: who must be empty or one seat per card")
        if self.tags and len(self.tags) != len(self.tokens):
            raise ValueError(f"pile {self.label!r}: tags must be empty or one per card")

    @staticmethod
    def of(
        table: Table,
        zone: str,
        label: str,
        *,
        spread: Spread = Spread.STACKED,
        facing: Facing | None = None,
        target: bool = False,
        note: Words = (),
        tokens: Sequence[int] | None = None,
        who: Sequence[int] = (),
        tags: Sequence[str] = (),
    ) -> Pile:
        """The pile showing ``zone`` of ``table`` (or just ``tokens`` of it), cards as this view knows them.

        ``facing`` defaults to the zone's visibility (PUBLIC up, OWNER held, HIDDEN down);
        ``target`` makes the pile a target of moves that name ``zone``.
        """
        toks = tuple(table.tokens(zone) if tokens is None else tokens)
        if facing is None:
            facing = _FACING[table.specs[zone].visibility]
        return Pile(
            label,
            toks,
            tuple(table.card(t) for t in toks),
            spread,
            facing,
            zone if target else None,
            tuple(note),
            tuple(who),
            tuple(tags),
        )

    @property
    def size(self) -> int:
        return len(self.tokens)


_FACING = {Visibility.PUBLIC: Facing.UP, Visibility.OWNER: Facing.HELD, Visibility.HIDDEN: Facing.DOWN}


@dataclass(frozen=True, slots=True)
class Region:
    """A part of the table: a seat's own area (``owner``), or the shared middle (``owner`` None).

    ``notes`` are short remarks about that seat or the middle (``dealer``, ``out: paid
    with their whole pile``).
    """

    owner: int | None
    piles: tuple[Pile, ...] = ()
    notes: tuple[Words, ...] = ()


#: What the scores are called when a game says no more (front ends say it in the reader's language).
POINTS = "points"


@dataclass(frozen=True, slots=True)
class TableView:
    """The whole table as one viewer sees it.

    ``facts`` are the game's headline facts (``deal 3``, ``trump ♦``); ``scores`` one per
    seat (None while the game keeps none), called ``score_name``; ``turn`` is the seat
    the game waits for, if any; ``status`` says what it waits for, in words.
    """

    regions: tuple[Region, ...]
    facts: tuple[Words, ...] = ()
    scores: tuple[int, ...] | None = None
    score_name: str = POINTS
    turn: int | None = None
    status: Words = ()

    def piles(self) -> Iterable[tuple[Region, Pile]]:
        for region in self.regions:
            for pile in region.piles:
                yield region, pile

    def labels_said(self, say: Callable[[str], str]) -> TableView:
        """This view with each pile's label as ``say`` gives it (a game's catalog: a zone's title
        is declared once, in English, and said in the language of whoever reads the table). A
        label capitalised from its title is looked up as written, then as the title."""

        def said(label: str) -> str:
            direct = say(label)
            if direct != label or not label[:1].isupper():
                return direct
            title = label[:1].lower() + label[1:]
            found = say(title)
            return label if found == title else found[:1].upper() + found[1:]

        regions = tuple(
            replace(r, piles=tuple(replace(p, label=said(p.label)) for p in r.piles)) for r in self.regions
        )
        return replace(self, regions=regions)

    def targets(self) -> dict[str, Pile]:
        """The piles moves can put cards on, by zone."""
        return {p.zone: p for _, p in self.piles() if p.zone is not None}

    @staticmethod
    def of(
        table: Table,
        *,
        facts: Sequence[Words] = (),
        scores: Sequence[int] | None = None,
        score_name: str = POINTS,
        notes: Mapping[str, Words] | None = None,
    ) -> TableView:
        """Every zone of ``table`` as a pile, labelled with its title: a region per seat with
        the zones it owns, the rest in the middle; hands fanned (by suit and rank), other piles
        stacked.

        ``facts`` and ``scores`` (called ``score_name``) go in the headline, ``notes`` (zone ->
        words) with the piles.
        """
        view = default_view(table, None, facts=facts, scores=scores, notes=notes)
        return view if score_name == view.score_name else replace(view, score_name=score_name)


@dataclass(frozen=True, slots=True)
class MoveParts:
    """What a move is made of on the table: the card it takes (a token, or None), the pile it
    goes to (a zone, or None) and a short verb (``play``, ``discard``)."""

    card: int | None
    target: str | None
    verb: str


def default_parts(table: Table, move_args: Sequence[int | str], action: str) -> MoveParts:
    """A move's card is its first argument that is a token on the table; its target its first
    argument that names a zone."""
    card = next(
        (a for a in move_args if isinstance(a, int) and not isinstance(a, bool) and table.zone_of(a)), None
    )
    target = next((a for a in move_args if isinstance(a, str) and a in table.specs), None)
    return MoveParts(card, target, action)


def default_view(
    table: Table,
    viewer: int | None,
    *,
    facts: Sequence[Words] = (),
    scores: Sequence[int] | None = None,
    notes: Mapping[str, Words] | None = None,
) -> TableView:
    """Any game's table from its zones: a region per seat with its own zones, the rest in the middle.

    Hands are fanned (sorted by suit and rank), other piles stacked; every zone is a target.
    (``viewer`` is not needed: the table shows only what its own viewer knows.)
    """
    notes = notes or {}
    regions: list[Region] = []
    owners = [None, *range(table.players)]
    for owner in owners:
        piles = [
            _default_pile(table, spec, notes.get(spec.name, ()))
            for spec in table.specs.values()
            if spec.owner == owner
        ]
        if piles:
            regions.append(Region(owner, tuple(piles)))
    return TableView(
        tuple(regions), tuple(tuple(f) for f in facts), tuple(scores) if scores is not None else None
    )


def _default_pile(table: Table, spec: Zone, note: Words) -> Pile:
    """A zone as the default table shows it: a hand fanned by suit and rank, a fanned zone (a trick)
    card by card as they came with who played each, any other pile stacked."""
    label = _label(spec.title or spec.name)
    if spec.visibility is Visibility.OWNER:
        tokens = sorted(table.tokens(spec.name), key=lambda t: _sort_key(table.card(t)))
        return Pile.of(table, spec.name, label, spread=Spread.FANNED, target=True, note=note, tokens=tokens)
    if spec.fanned:
        who = [table.played_by.get(t) for t in table.tokens(spec.name)]
        seats = [w for w in who if w is not None] if None not in who else []
        return Pile.of(table, spec.name, label, spread=Spread.FANNED, target=True, note=note, who=seats)
    return Pile.of(table, spec.name, label, target=True, note=note)


def _sort_key(card: Card | None) -> tuple[int, str, int, int]:
    """A hand as it is held: the cards the viewer does not know first, then by suit and rank."""
    return (0, "", 0, 0) if card is None else (1, card.suit.value, card.rank, card.copy)


def _label(title: str) -> str:
    return title[:1].upper() + title[1:]


# -- in words, for line mode --------------------------------------------------------------------------
def _count(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _face_down(n: int) -> str:
    return f"{_count(n)} face down"


def pile_words(
    pile: Pile,
    *,
    empty: str = "empty",
    cards: Callable[[int], str] = _count,
    face_down: Callable[[int], str] = _face_down,
) -> Words:
    """A pile in words: ``Centre 1: 7♥ (3 cards), takes 8``; ``empty``, ``cards(n)`` and
    ``face_down(n)`` are its counts' words (English by default: a front end passes its language's)."""
    out: list[str | Card | Seat] = [f"{pile.label}:"]
    if not pile.tokens:
        out.append(empty)
    elif pile.spread is Spread.FANNED:
        hidden = sum(1 for c in pile.cards if c is None)
        if hidden:
            out.append(face_down(hidden) + ("," if hidden < pile.size else ""))
        shown = 0
        for i, card in enumerate(pile.cards):
            if card is None:
                continue
            if pile.who:
                out.extend([*([","] if shown else []), Seat(pile.who[i])])
            out.append(card)
            if pile.tags and pile.tags[i]:
                out.append(f"({pile.tags[i]})")
            shown += 1
    else:
        top = pile.cards[-1]
        if top is not None:
            out.append(top)
            if pile.size > 1:
                out.append(f"({cards(pile.size)})")
        else:
            out.append(face_down(pile.size) if pile.facing is not Facing.UP else cards(pile.size))
    if pile.note:
        out.append(",")
        out.extend(pile.note)
    return tuple(out)


__all__ = [
    "POINTS",
    "Facing",
    "MoveParts",
    "Pile",
    "Region",
    "Seat",
    "Spread",
    "TableView",
    "Words",
    "default_parts",
    "default_view",
    "pile_words",
]
