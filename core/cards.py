"""Playing cards: rank, suit and which copy of the deck; deck builders; text forms."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum


class Suit(Enum):
    """The four French suits. ``value`` is the ASCII letter."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def word(self) -> str:
        return self.name.lower()

    def text(self, ascii: bool = False) -> str:
        return self.value if ascii else self.symbol


_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
_RANK_TEXT = {ACE: "A", JACK: "J", QUEEN: "Q", KING: "K"}
_RANK_WORD = {ACE: "Ace", JACK: "Jack", QUEEN: "Queen", KING: "King"}


def rank_text(rank: int) -> str:
    """``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``."""
    return _RANK_TEXT.get(rank, str(rank))


def rank_word(rank: int) -> str:
    return _RANK_WORD.get(rank, str(rank))


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card: rank 1 (Ace) to 13 (King), suit, and copy 0 or 1 of the deck."""

    rank: int
    suit: Suit
    copy: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise ValueError(f"rank must be 1..13, not {self.rank}")
        if not isinstance(self.suit, Suit):
            raise ValueError(f"suit must be a Suit, not {self.suit!r}")
        if self.copy < 0:
            raise ValueError("copy must be >= 0")

    def text(self, ascii: bool = False, lang: str | None = None) -> str:
        """Short form: ``10♥`` (or ``10H`` in ASCII); in language ``lang`` its rank letters (``D♥`` in
        German, :func:`~fairdeal.core.cardwords.card_text`). The copy is not shown."""
        if lang not in (None, "en"):
            from .cardwords import card_text

            return card_text(self, lang, ascii)
        return rank_text(self.rank) + self.suit.text(ascii)

    @property
    def name(self) -> str:
        """A stable name including the copy, e.g. ``10H#1``; used for hashing."""
        return f"{rank_text(self.rank)}{self.suit.value}#{self.copy}"

    def words(self, lang: str | None = None) -> str:
        """The card's name: ``Ace of spades``; in language ``lang`` as its players say it (``Pik-Ass``,
        ``туз пик``: :func:`~fairdeal.core.cardwords.card_words`)."""
        if lang not in (None, "en"):
            from .cardwords import card_words

            return card_words(self, lang)
        return f"{rank_word(self.rank)} of {self.suit.word}"

    def __str__(self) -> str:
        return self.text()

    def __lt__(self, other: object) -> bool:  # order by (suit, rank, copy) for stable sorting
        if not isinstance(other, Card):
            return NotImplemented
        return (self.suit.value, self.rank, self.copy) < (other.suit.value, other.rank, other.copy)


def canonical_key(card: Card) -> tuple[int, int, int]:
    """Where ``card`` stands in the canonical order: by copy, then suit (C, D, H, S), then rank
    (Ace 1 … King 13)."""
    return (card.copy, SUITS.index(card.suit), card.rank)


def canonical(cards: Iterable[Card]) -> tuple[Card, ...]:
    """``cards`` in the canonical order (:func:`canonical_key`): the order in which the deck
    protocol takes a game's deck into its first shuffle, whatever order the rules list it in."""
    return tuple(sorted(cards, key=canonical_key))


def parse_card(text: str, lang: str | None = None) -> Card:
    """Parse ``10H``, ``qs``, ``A♠`` or ``7♦#1`` into a card; a player of language ``lang`` may also
    type its own letters (``8с``, ``Dh`` in German: :func:`~fairdeal.core.cardwords.parse_card`).
    A ValueError for anything that is not a card."""
    from .cardwords import parse_card as parse

    return parse(text, lang)


def build_deck(ranks: Iterable[int], copies: int = 1) -> tuple[Card, ...]:
    """Every rank of ``ranks`` in every suit, ``copies`` times (copy 0, 1, …)."""
    rs = tuple(ranks)
    return tuple(Card(r, s, c) for c in range(copies) for s in SUITS for r in rs)


def standard_52(copies: int = 1) -> tuple[Card, ...]:
    """The 52-card deck, or ``copies`` of it shuffled together (104 for two)."""
    return build_deck(range(1, 14), copies)


def ecarte_32() -> tuple[Card, ...]:
    """Écarté's 32: A K Q J 10 9 8 7 of each suit."""
    return build_deck((ACE, KING, QUEEN, JACK, 10, 9, 8, 7))


def snatch_32(copies: int = 1) -> tuple[Card, ...]:
    """Snatch!'s 32 per deck: A Q J 10 9 8 7 2 of each suit (no Kings)."""
    return build_deck((ACE, QUEEN, JACK, 10, 9, 8, 7, 2), copies)
