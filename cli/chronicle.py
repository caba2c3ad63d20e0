"""What happened at the table, as one seat tells it: every move in words, every card it showed named.

A :class:`Chronicle` follows one seat's session (``update`` after each accepted entry). It
keeps the moves in words (the game's narration, in the second person for the seat's own,
the seats it names written with their names), and names the cards a move showed once they
are revealed, which is often a few entries later: "Bob turned the top card of their pile:
9♠". It also notes the cards that came into the seat's hand ("You drew 7♥") and the cards
turned up by the game itself ("Bob's payoff: 9♦"), and it knows which cards moved since
the seat's last move (:attr:`fresh`), for the table to mark them.

It works for any game: it compares where every card lies before and after each entry.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from fairdeal.core.cards import Card
from fairdeal.core.rules import Game, GameState, words_text
from fairdeal.core.session import Event, MoveMade
from fairdeal.core.session.session import Session
from fairdeal.core.table import Table, Visibility
from fairdeal.i18n import gettext as _
from fairdeal.i18n import language, pgettext

from .render import named, seat_words, sentence

#: How many entries are kept.
KEEP = 500


@dataclass
class Entry:
    """One thing that happened. ``seat`` made it (None: the game itself); ``cards`` were shown
    by it after it was told (revealed later), ``waiting`` counts the cards still to be named."""

    text: str
    seat: int | None = None
    mine: bool = False
    cards: list[Card] = field(default_factory=list)
    turned: list[Card] = field(default_factory=list)
    waiting: set[int] = field(default_factory=set)
    flips: set[int] = field(default_factory=set)
    serial: int = 0
    #: The cards the seat's own move brought into its hand (``drew`` their tokens).
    drawn: list[Card] = field(default_factory=list)
    draws: set[int] = field(default_factory=set)

    def words(self) -> str:
        """The entry with the cards it showed: ``Bob turned the top card of their pile: 9♠``;
        a card it turned up where it lies: ``…onto centre 1 (turned up 7♦)``; the cards one's own
        move drew, on the same line: ``You drew 2 cards: 9♣ Q♠``."""
        text = self.text
        if self.cards:
            text = _("{said}: {cards}").format(said=text, cards=_cards(self.cards))
        if self.turned:
            text = _("{said} (turned up {cards})").format(said=text, cards=_cards(self.turned))
        if self.drawn:
            # "You drew 2 cards: 9♣ Q♠", where the words end as English ones do; else said apart.
            counted = pgettext("the last word of drawing cards", "card cards").split()
            if text.endswith(tuple(counted)):
                text = _("{said}: {cards}").format(said=text, cards=_cards(self.drawn))
            else:
                text = _("{said}; you drew {cards}").format(said=text, cards=_cards(self.drawn))
        return text


class Chronicle:
    """The story of a game as seat ``seat`` sees it (see the module docstring)."""

    def __init__(self, seat: int | None, pile_name: Callable[[GameState, int], str] | None = None) -> None:
        self.seat = seat
        self.entries: list[Entry] = []
        self.fresh: set[int] = set()
        self.since_mine = 0  # serial of the first entry after this seat's last move
        self._zones: dict[int, str] = {}
        self._came_from: dict[int, str] = {}  # cards on their way into this seat's hand: from where
        self._known: set[int] = set()
        self._faceup: set[int] = set()
        self._serial = 0
        self._told = 0  # serial of the first entry not handed out by ``completed``
        self._pile_name = pile_name
        self._state: GameState | None = None  # the view after the last entry, for the game's remarks

    # -- following the session -----------------------------------------------------------------------
    def update(self, session: Session, events: Sequence[Event]) -> bool:
        """Take in one accepted entry's events; True if anything changed."""
        view = session.view()
        moves = [ev for ev in events if isinstance(ev, MoveMade)]
        names = session.header.names if session.header is not None else ()
        if view is None:
            for ev in moves:
                self._add(Entry(named(ev.text, names, self.seat), ev.seat, ev.seat == self.seat))
            return bool(moves)
        table = view.table
        zones = {tok: z for tok in table.all_tokens() if (z := table.zone_of(tok)) is not None}
        known = set(table.known_cards())
        moved = {tok for tok, z in zones.items() if self._zones.get(tok) != z}
        for tok in moved:
            if tok in self._zones and _owned_by(table, zones[tok], self.seat):
                self._came_from[tok] = self._zones[tok]
        flipped = (table.faceup & set(zones)) - self._faceup
        changed = bool(moves)
        for ev in moves:
            mine = ev.seat == self.seat
            entry = Entry(named(ev.text, names, self.seat), ev.seat, mine)
            # The cards this move brought into public view but not yet revealed: named when they are.
            entry.waiting = {
                tok for tok in moved | flipped if tok not in known and _will_show(table, tok, zones[tok])
            }
            entry.flips = entry.waiting & (flipped - moved)
            if mine:  # the cards this move dealt into the seat's own hand: named with the move
                entry.draws = {
                    tok for tok in moved if tok not in known and _owned_by(table, zones[tok], self.seat)
                }
                entry.waiting |= entry.draws
            self._add(entry)
            if mine:
                self.fresh = set()
                self.since_mine = entry.serial + 1
        if not (moves and moves[-1].seat == self.seat):
            self.fresh |= {tok for tok in moved | flipped if tok in zones}
        self.fresh &= set(zones)
        newly = known - self._known
        named_here: set[int] = set()
        for entry in self.entries[-50:]:
            hit = [tok for tok in entry.waiting if tok in newly]
            for tok in sorted(hit, key=lambda t: _order(table, t)):
                card = table.card(tok)
                if card is not None:
                    where = (
                        entry.drawn
                        if tok in entry.draws
                        else entry.turned
                        if tok in entry.flips
                        else entry.cards
                    )
                    where.append(card)
                entry.waiting.discard(tok)
                named_here.add(tok)
                changed = True
        if self._zones:  # not on the first look: the opening deal is on the table already
            told = named_here | (moved if moves else set())  # a move's narration names its cards
            changed |= self._note_hand(table, newly - told, names)
            changed |= self._note_turned(view, table, newly - told, zones)
        if self._state is not None:
            for said in remarks(session.game, self._state, view, names, self.seat):
                self._add(Entry(said, None, False))
                changed = True
        if moves and moves[-1].seat != self.seat:
            self.fresh |= {tok for tok in newly if tok in zones}
        self._zones = zones
        self._known = known
        self._faceup = set(table.faceup)
        self._state = view
        return changed

    def _note_hand(self, table: Table, newly: set[int], names: Sequence[str]) -> bool:
        """Name the cards that came into this seat's hand: drawn (from a pile nobody owns) or received
        from another seat (passed, given), said so with who it came from."""
        if self.seat is None:
            return False
        came = [
            tok
            for tok in newly
            if (z := table.zone_of(tok)) is not None
            and table.specs[z].visibility is Visibility.OWNER
            and table.specs[z].owner == self.seat
            and tok not in table.public
        ]
        if not came:
            return False
        by: dict[int | None, list[int]] = {}
        for tok in sorted(came, key=lambda t: _order(table, t)):
            before = self._came_from.pop(tok, None)
            owner = table.specs[before].owner if before is not None else None
            by.setdefault(owner if owner != self.seat else None, []).append(tok)
        for giver, toks in by.items():
            cards = _cards([c for tok in toks if (c := table.card(tok))])
            if giver is None:
                text = _("You drew {cards}").format(cards=cards)
            else:
                name = names[giver] if 0 <= giver < len(names) else seat_words(giver)
                text = _("You received {cards} from {name}").format(cards=cards, name=name)
            self._add(Entry(text, None, False))
        self.fresh |= set(came)
        return True

    def _note_turned(self, view: GameState, table: Table, newly: set[int], zones: dict[int, str]) -> bool:
        shown = [
            tok
            for tok in newly
            if tok in table.public
            and tok in zones
            and table.specs[zones[tok]].visibility is not Visibility.OWNER
            and self._zones.get(tok) is not None
        ]
        if not shown:
            return False
        for tok in sorted(shown, key=lambda t: _order(table, t)):
            card = table.card(tok)
            if card is None:
                continue
            where = self._pile_name(view, tok) if self._pile_name else zones[tok]
            self._add(Entry(_("{said}: {cards}").format(said=where, cards=_cards([card])), None, False))
            self.fresh.add(tok)
        return True

    def _add(self, entry: Entry) -> None:
        entry.serial = self._serial
        self._serial += 1
        self.entries.append(entry)
        if len(self.entries) > KEEP:
            del self.entries[: len(self.entries) - KEEP]

    # -- reading -------------------------------------------------------------------------------------
    def completed(self, *, force: bool = False) -> list[Entry]:
        """The entries not handed out yet whose cards are all named, in order (``force``: all of them)."""
        out = []
        for entry in self.entries:
            if entry.serial < self._told:
                continue
            if entry.waiting and not force:
                break
            out.append(entry)
            self._told = entry.serial + 1
        return out

    def recent(self, n: int) -> list[Entry]:
        return self.entries[-n:]


def remarks(
    game: Game, before: GameState, after: GameState, names: Sequence[str], seat: int | None
) -> list[str]:
    """What the game itself did from ``before`` to ``after`` (its :meth:`~fairdeal.core.rules.Game.remarks`),
    each a sentence of the story as ``seat`` reads it (None: anyone, a replay): ``Bob took the trick``."""
    return [sentence(words_text(words, past=True), names, seat) for words in game.remarks(before, after)]


def _cards(cards: Sequence[Card]) -> str:
    """Cards named in a line of the story, in the letters of the language spoken: ``9♣ Q♠``."""
    return " ".join(c.text(lang=language()) for c in cards)


def _owned_by(table: Table, zone: str, seat: int | None) -> bool:
    """Whether ``zone`` is ``seat``'s own hidden-from-others zone (a hand)."""
    spec = table.specs[zone]
    return seat is not None and spec.visibility is Visibility.OWNER and spec.owner == seat


def _will_show(table: Table, token: int, zone: str) -> bool:
    """Whether every seat is about to learn ``token`` (it lies face up)."""
    return table.specs[zone].visibility is Visibility.PUBLIC or token in table.faceup


def _order(table: Table, token: int) -> tuple[str, int]:
    zone = table.zone_of(token) or ""
    toks = table.tokens(zone) if zone else ()
    return zone, toks.index(token) if token in toks else 0


__all__ = ["KEEP", "Chronicle", "Entry", "remarks"]
