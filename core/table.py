"""Zones of card tokens and what one viewer knows about them.

A :class:`Table` is the card part of a game state, as one viewer sees it. Cards
are *tokens* (integers from the dealer) sitting in named zones, bottom to top.
Every zone has a visibility:

* ``PUBLIC`` — face up: everyone learns each card that arrives there;
* ``OWNER``  — a hand: its owner learns each card that arrives there;
* ``HIDDEN`` — face down: nobody learns anything, the owner included.

A rules engine moves tokens (``deal``, ``move``), turns single cards face up
(``flip``), shows a card to one seat where it lies (``show``) and asks for reshuffles
(``shuffle_together``). It never decides what
a card *is*: after each engine call the core reads :meth:`Table.requirements`
and :meth:`Table.pending_shuffles`, has the dealer perform them and records the
outcome with :meth:`Table.learn` and :meth:`Table.replace_shuffled`. Only then
may the engine read the new cards (``card`` returns None for unknown ones).

Knowledge sets (``public``, ``seen``) and the seat each card was last opened to alone
(:meth:`Table.opened_to`) are identical in every viewer's copy; only ``cards`` differs: it
holds exactly the identities this viewer may know. A seat that has seen a card keeps knowing
it wherever it goes, until it is reshuffled.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from .cards import Card
from .dealer import Reveal
from .errors import LocalProtocolError

#: ``Table.viewer`` of the all-knowing copy (plain dealer, or replay after the audit).
EVERYONE = -1


class Visibility(Enum):
    PUBLIC = "public"
    OWNER = "owner"
    HIDDEN = "hidden"


@dataclass(frozen=True, slots=True)
class Zone:
    """A named pile. ``owner`` is required for OWNER zones and optional otherwise. ``fanned``: the
    default table lays every card out, in the order they came, each with who played it (a trick);
    otherwise only hands are fanned and other piles stacked (their top card and a count)."""

    name: str
    visibility: Visibility
    owner: int | None = None
    title: str = ""
    fanned: bool = False

    def __post_init__(self) -> None:
        if self.visibility is Visibility.OWNER and self.owner is None:
            raise ValueError(f"OWNER zone {self.name!r} needs an owner")

    @staticmethod
    def public(name: str, title: str = "", owner: int | None = None) -> Zone:
        """A face-up pile: everyone learns each card that arrives (a discard pile)."""
        return Zone(name, Visibility.PUBLIC, owner, title)

    @staticmethod
    def trick(name: str, title: str = "the trick") -> Zone:
        """A face-up pile laid out card by card, each with who played it: a trick."""
        return Zone(name, Visibility.PUBLIC, None, title, fanned=True)

    @staticmethod
    def hidden(name: str, title: str = "", owner: int | None = None) -> Zone:
        """A face-down pile: nobody learns its cards, its owner included (a stock, a talon; with an
        ``owner``, a seat's own face-down pile, shown in its region)."""
        return Zone(name, Visibility.HIDDEN, owner, title)

    @staticmethod
    def hand(name: str, owner: int, title: str = "hand") -> Zone:
        """``owner``'s hand: the owner learns each card that arrives, nobody else does."""
        return Zone(name, Visibility.OWNER, owner, title)


@dataclass(frozen=True, slots=True)
class RuledOut:
    """What play showed about hidden cards: none of ``tokens`` is any of ``cards`` (a seat that
    did not follow suit holds no card of the suit led, among the cards it held then)."""

    tokens: frozenset[int]
    cards: frozenset[Card]


@dataclass(frozen=True, slots=True)
class ShuffleRequest:
    """All ``tokens`` are to be shuffled together into fresh tokens, in zone ``into``."""

    into: str
    tokens: tuple[int, ...]


class Table:
    """Token positions plus one viewer's knowledge. Mutable; copy before changing.

    ``viewer`` is a seat, ``None`` for the public view, or :data:`EVERYONE`.
    """

    __slots__ = (
        "_cards",
        "_deferred",
        "_dirty",
        "_opened",
        "_shows",
        "_shuffles",
        "_where",
        "_zones",
        "custody",
        "deck",
        "faceup",
        "played_by",
        "players",
        "public",
        "ruled_out",
        "seen",
        "specs",
        "viewer",
    )

    def __init__(
        self, zones: Iterable[Zone], players: int, viewer: int | None = None, deck: Iterable[Card] = ()
    ) -> None:
        self.specs: Mapping[str, Zone] = {z.name: z for z in zones}
        for z in self.specs.values():
            if z.owner is not None and not 0 <= z.owner < players:
                raise ValueError(f"zone {z.name!r} has owner {z.owner} outside 0..{players - 1}")
        self.players = players
        self.viewer = viewer
        self._zones: dict[str, list[int]] = {name: [] for name in self.specs}
        self._where: dict[int, str] = {}
        self._cards: dict[int, Card] = {}
        self.public: set[int] = set()
        self.seen: tuple[set[int], ...] = tuple(set() for _ in range(players))
        self.faceup: set[int] = set()
        self._dirty: set[int] = set()
        self._shuffles: list[ShuffleRequest] = []
        #: token -> the seat it was last opened to alone: the one seat that can open it by itself
        #: (the same for every viewer). A private card lying in another seat's hand is opened to
        #: that seat again (handed over), so that a hand's cards are always its owner's to show.
        self._opened: dict[int, int] = {}
        # Tuples, shared by copies (each change makes a new one): (token, seat) of the cards to show one
        # seat where they lie, and (src, dst, n) of the deals from a zone waiting for its shuffle.
        self._shows: tuple[tuple[int, int], ...] = ()
        self._deferred: tuple[tuple[str, str, int], ...] = ()
        #: token -> the seat whose move put it where it lies face up (the same for every viewer).
        self.played_by: dict[int, int] = {}
        #: Whether cards in a hand are handed over to its owner (log protocol 4 on), or only opened
        #: to it once (a game of log protocol 3, replayed as it was played).
        self.custody = True
        #: Every card of the game, as dealt (the same for every viewer): what a seat's unseen cards
        #: are drawn from when worlds are sampled (:mod:`fairdeal.core.worlds`).
        self.deck: tuple[Card, ...] = tuple(deck)
        #: What play has shown about cards nobody may see (the same for every viewer): the game's
        #: :meth:`~fairdeal.core.rules.Game.rules_out`, gathered move by move.
        self.ruled_out: tuple[RuledOut, ...] = ()

    # -- copying -----------------------------------------------------------------------------------
    def copy(self) -> Table:
        t = Table.__new__(Table)
        t.specs = self.specs
        t.players = self.players
        t.viewer = self.viewer
        t._zones = {k: list(v) for k, v in self._zones.items()}
        t._where = dict(self._where)
        t._cards = dict(self._cards)
        t.public = set(self.public)
        t.seen = tuple(set(s) for s in self.seen)
        t.faceup = set(self.faceup)
        t._dirty = set(self._dirty)
        t._shuffles = list(self._shuffles)
        t._opened = dict(self._opened)
        t._shows = self._shows
        t._deferred = self._deferred
        t.played_by = dict(self.played_by)
        t.custody = self.custody
        t.deck = self.deck
        t.ruled_out = self.ruled_out
        return t

    def masked(self, viewer: int | None) -> Table:
        """A copy showing only what ``viewer`` (a seat, or None for the public) may know."""
        t = self.copy()
        t.viewer = viewer
        allowed = self.public | (self.seen[viewer] if viewer is not None and viewer >= 0 else set())
        if viewer == EVERYONE:
            return t
        t._cards = {k: v for k, v in self._cards.items() if k in allowed}
        return t

    # -- reading -----------------------------------------------------------------------------------
    def tokens(self, zone: str) -> tuple[int, ...]:
        """The tokens of ``zone``, bottom first."""
        return tuple(self._zone(zone))

    def size(self, zone: str) -> int:
        return len(self._zone(zone))

    def top(self, zone: str) -> int | None:
        z = self._zone(zone)
        return z[-1] if z else None

    def zone_of(self, token: int) -> str | None:
        return self._where.get(token)

    def card(self, token: int | None) -> Card | None:
        """The card behind ``token`` if this viewer knows it."""
        return None if token is None else self._cards.get(token)

    def cards(self, zone: str) -> list[Card | None]:
        """The cards of ``zone`` bottom first, None where this viewer does not know them."""
        return [self._cards.get(t) for t in self._zone(zone)]

    def known(self, zone: str) -> list[tuple[int, Card]]:
        """(token, card) for every card of ``zone`` this viewer knows, bottom first."""
        return [(t, self._cards[t]) for t in self._zone(zone) if t in self._cards]

    def knows_all(self, zone: str) -> bool:
        """Whether this viewer knows every card of ``zone`` (a player's own hand; not another's)."""
        return all(t in self._cards for t in self._zone(zone))

    def unknown(self) -> list[int]:
        """The tokens on the table whose card this viewer does not know, in token order."""
        return sorted(t for t in self._where if t not in self._cards)

    def top_card(self, zone: str) -> Card | None:
        return self.card(self.top(zone))

    def all_tokens(self) -> Iterator[int]:
        return iter(self._where)

    def known_cards(self) -> Mapping[int, Card]:
        return self._cards

    def is_public(self, token: int) -> bool:
        return token in self.public

    def opened_to(self, token: int) -> int | None:
        """The seat ``token`` was last opened to alone (None: never, or it is public): the one seat
        that can open it to everyone by itself. It is the owner of a hand the card lies in."""
        return None if token in self.public else self._opened.get(token)

    def knows(self, seat: int | None, token: int) -> bool:
        """Whether ``seat`` (None: everybody) legitimately knows ``token``."""
        if token in self.public:
            return True
        return seat is not None and seat >= 0 and token in self.seen[seat]

    def _zone(self, zone: str) -> list[int]:
        try:
            return self._zones[zone]
        except KeyError:
            raise LocalProtocolError(f"no zone named {zone!r}") from None

    # -- moving (what engines do) -----------------------------------------------------------------
    def place(self, zone: str, tokens: Sequence[int]) -> None:
        """Put fresh tokens (from the dealer) on top of ``zone``, in order."""
        z = self._zone(zone)
        for t in tokens:
            if t in self._where:
                raise LocalProtocolError(f"token {t} is already on the table")
            z.append(t)
            self._where[t] = zone
            self._dirty.add(t)

    def move(self, token: int, dst: str, index: int | None = None) -> None:
        """Move ``token`` from wherever it is to the top of ``dst`` (or to position ``index``)."""
        src = self._where.get(token)
        if src is None:
            raise LocalProtocolError(f"token {token} is not on the table")
        self._zones[src].remove(token)
        z = self._zone(dst)
        if index is None:
            z.append(token)
        else:
            z.insert(index, token)
        self._where[token] = dst
        self._dirty.add(token)

    def deal(self, src: str, dst: str, n: int = 1) -> list[int]:
        """Deal the top ``n`` cards of ``src`` one at a time onto ``dst``; return them.

        From a zone waiting for its shuffle (``shuffle_together`` in this same step), the deal
        happens once it is shuffled, in the order asked, and returns nothing now."""
        if any(req.into == src for req in self._shuffles):
            self._zone(dst)
            self._deferred = (*self._deferred, (src, dst, n))
            return []
        z = self._zone(src)
        if n > len(z):
            raise LocalProtocolError(f"cannot deal {n} from {src!r}: it holds {len(z)}")
        moved = [z[-1 - i] for i in range(n)]
        for t in moved:
            self.move(t, dst)
        return moved

    def flip(self, token: int) -> None:
        """Turn ``token`` face up where it lies: everybody will learn it."""
        if token not in self._where:
            raise LocalProtocolError(f"token {token} is not on the table")
        self.faceup.add(token)
        self._dirty.add(token)

    def show(self, token: int, seat: int) -> None:
        """Show ``token`` to ``seat`` alone where it lies (a peek, "show me"): ``seat`` will learn it
        and keep knowing it; nobody else learns anything."""
        if token not in self._where:
            raise LocalProtocolError(f"token {token} is not on the table")
        if not 0 <= seat < self.players:
            raise LocalProtocolError(f"no seat {seat}")
        self._shows = (*self._shows, (token, seat))
        self._dirty.add(token)

    def turn_up(self, *zones: str) -> None:
        """Turn every card of ``zones`` face up where it lies (hands shown at the end, to be counted)."""
        for zone in zones:
            for token in self._zone(zone):
                self.flip(token)

    def shuffle_together(self, sources: Sequence[str], into: str) -> None:
        """Gather every card of ``sources`` into ``into`` (a HIDDEN zone) to be shuffled.

        ``into`` ends up holding exactly the gathered cards; it must be one of the
        sources or empty. The core replaces them by fresh tokens in a new order.
        """
        if self.specs[into].visibility is not Visibility.HIDDEN:
            raise LocalProtocolError(f"cannot shuffle into {into!r}: it is not a hidden zone")
        if into not in sources and self._zone(into):
            raise LocalProtocolError(f"cannot shuffle into {into!r}: it is not empty")
        gathered: list[int] = []
        for s in dict.fromkeys(sources):
            gathered.extend(self._zone(s))
        for t in gathered:
            self.move(t, into)
        self._shuffles.append(ShuffleRequest(into, tuple(self._zone(into))))

    def rule_out(self, facts: Iterable[RuledOut]) -> None:
        """Record what a move showed about hidden cards (the core does, after every move)."""
        live = tuple(f for f in facts if f.tokens and f.cards)
        if live:
            self.ruled_out = (*self.ruled_out, *live)

    def completed(self, cards: Mapping[int, Card]) -> Table:
        """An all-seeing copy (viewer :data:`EVERYONE`) that also knows ``cards``, identities for
        the tokens this view does not know: a world (:func:`fairdeal.core.worlds.sample_world`)."""
        t = self.copy()
        t.viewer = EVERYONE
        for token, card in cards.items():
            if token not in self._where:
                raise LocalProtocolError(f"token {token} is not on the table")
            t._cards[token] = card
        return t

    # -- what the core must do next ---------------------------------------------------------------
    def mark_played(self, seat: int) -> None:
        """Record ``seat`` as who put there each card its move just laid face up (the core does, after
        every move; a card that moves again is marked again)."""
        for t in self._dirty:
            zone = self._where.get(t)
            if zone is not None and (self.specs[zone].visibility is Visibility.PUBLIC or t in self.faceup):
                self.played_by[t] = seat

    def hands(self, zones: Sequence[str]) -> dict[int, tuple[int, ...]]:
        """Seat -> the cards of its hands among ``zones`` that are not public, in token order: where a
        searched card may be (:class:`~fairdeal.core.rules.Find`). Every zone must be a hand."""
        out: dict[int, list[int]] = {}
        for name in zones:
            spec = self.specs.get(name)
            if spec is None or spec.visibility is not Visibility.OWNER or spec.owner is None:
                raise LocalProtocolError(f"a card is looked for in hands only, and {name!r} is not one")
            out.setdefault(spec.owner, []).extend(t for t in self._zone(name) if t not in self.public)
        return {seat: tuple(sorted(ts)) for seat, ts in out.items() if ts}

    def shown_in(self, card: Card, zones: Sequence[str]) -> int | None:
        """The owner of the hand among ``zones`` where ``card`` lies known to everyone, if it does (a
        search for it then asks nobody)."""
        for name in zones:
            spec = self.specs[name]
            if any(t in self.public and self._cards.get(t) == card for t in self._zone(name)):
                return spec.owner
        return None

    def shown_by_leaving(self, seat: int) -> list[Reveal]:
        """What a seat that leaves the game shows everyone: every card it has seen that is still on the
        table and not public. (Its secret key, which the others need to go on without it, opens every
        card ever opened to it, wherever the card went since.)"""
        return [Reveal(t, None) for t in sorted(self.seen[seat]) if t in self._where and t not in self.public]

    def requirements(self) -> list[Reveal]:
        """Reveals owed by the visibility of where cards now lie and by what was shown, in token order."""
        if not self._dirty:
            return []
        out: list[Reveal] = []
        showing = self._showing()
        done = []
        for t in sorted(self._dirty):
            need = showing.get(t) or self._need(t)
            if need is None:
                done.append(t)
            else:
                out.append(need)
        self._dirty.difference_update(done)  # nothing more can be owed for these until they move
        return out

    def _showing(self) -> dict[int, Reveal]:
        """The next show owed of each token (one a batch: a token is opened to one seat at a time);
        a show whose seat already knows the card owes nothing and is dropped."""
        pending: list[tuple[int, int]] = []
        first: dict[int, Reveal] = {}
        for t, seat in self._shows:
            if t not in self._where or t in self.public or t in self.seen[seat]:
                continue
            pending.append((t, seat))
            first.setdefault(t, Reveal(t, seat))
        self._shows = tuple(pending)
        return first

    def _need(self, t: int) -> Reveal | None:
        """What the zone ``t`` lies in owes: everybody learns a face-up card, a hand's owner a card in
        its hand (handed over to it when another seat alone can open it)."""
        zone = self._where.get(t)
        if zone is None or t in self.public:
            return None
        spec = self.specs[zone]
        if spec.visibility is Visibility.PUBLIC or t in self.faceup:
            return Reveal(t, None)
        if spec.visibility is Visibility.OWNER:
            assert spec.owner is not None
            mine = self._opened.get(t) == spec.owner if self.custody else t in self.seen[spec.owner]
            return None if mine else Reveal(t, spec.owner)
        return None

    def pending_shuffles(self) -> list[ShuffleRequest]:
        return list(self._shuffles)

    def settled(self) -> bool:
        """True when nothing is owed: every card is known where it should be."""
        return not self._shuffles and not self.requirements()

    def learn(self, reveal: Reveal, card: Card | None) -> None:
        """Record that ``reveal`` happened; ``card`` is its identity if this viewer may know it."""
        t = reveal.token
        if t not in self._where:
            raise LocalProtocolError(f"token {t} is not on the table")
        if reveal.to is None:
            self.public.add(t)
            self._opened.pop(t, None)
        else:
            self.seen[reveal.to].add(t)
            self._opened[t] = reveal.to
            if self._shows:
                self._shows = tuple(s for s in self._shows if s != (t, reveal.to))
            self._dirty.add(t)  # where it lies may owe more: a shown card goes back to its hand's owner
        if card is not None:
            self._cards[t] = card

    def replace_shuffled(
        self, request: ShuffleRequest, fresh: Sequence[int], cards: Mapping[int, Card] | None = None
    ) -> None:
        """Replace the tokens of a pending shuffle by ``fresh`` ones, in deck order."""
        if not self._shuffles or self._shuffles[0] != request:
            raise LocalProtocolError("that shuffle is not the next pending one")
        if len(fresh) != len(request.tokens):
            raise LocalProtocolError("a reshuffle must keep the number of cards")
        z = self._zone(request.into)
        if tuple(z) != request.tokens:
            raise LocalProtocolError(f"zone {request.into!r} changed before its shuffle was done")
        for t in request.tokens:
            del self._where[t]
            self._cards.pop(t, None)
            self.public.discard(t)
            self.faceup.discard(t)
            self._dirty.discard(t)
            self._opened.pop(t, None)
            self.played_by.pop(t, None)
            for s in self.seen:
                s.discard(t)
        if self._shows:
            dead = set(request.tokens)
            self._shows = tuple(s for s in self._shows if s[0] not in dead)
        z.clear()
        self._shuffles.pop(0)
        if self.ruled_out:  # what was shown of the old tokens says nothing of the fresh ones
            dead = set(request.tokens)
            self.ruled_out = tuple(f for f in self.ruled_out if not f.tokens <= dead)
        self.place(request.into, fresh)
        if cards:
            self._cards.update({t: c for t, c in cards.items() if t in set(fresh)})
        if not self._shuffles and self._deferred:
            deals, self._deferred = self._deferred, ()
            for src, dst, n in deals:
                self.deal(src, dst, n)

    def __repr__(self) -> str:
        zones = ", ".join(f"{k}:{len(v)}" for k, v in self._zones.items())
        return f"Table(viewer={self.viewer}, {zones})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Table):
            return NotImplemented
        return (
            self._zones == other._zones
            and self._cards == other._cards
            and self.public == other.public
            and self.seen == other.seen
            and self.faceup == other.faceup
            and self._opened == other._opened
            and self._shows == other._shows
            and self._deferred == other._deferred
            and self.played_by == other.played_by
            and self._shuffles == other._shuffles
            and self.viewer == other.viewer
        )

    __hash__ = None  # type: ignore[assignment]
