"""Cards in the words of each language's players, and a card typed in that language's letters.

Data only (no catalog, no I/O): the front ends pass the language they speak (``de``, ``ru``,
``el``, ``fa``; None or ``en``: English, which :class:`~fairdeal.core.cards.Card` itself says).

- :func:`card_words` — ``Pik-Ass``, ``туз пик``, ``άσσος μπαστούνι``, ``آس پیک``;
- :func:`card_text` — the short form: the language's rank letters and the suit symbol (``D♥`` in
  German, ``Д♥`` in Russian); Greek and Iranian decks print A K Q J, so those stay;
- :func:`suit_word` — ``Herz``, ``червы``, ``κούπα``, ``دل``;
- :func:`parse_card` — what a player types: the Latin codes always (``8c``, ``10h``, ``qs``,
  ``A♠``), and in the player's own letters (:data:`TYPED`, documented in docs/architecture.md):
  the rank's letter (German A K D B, Russian Т К Д В, Greek Α Ρ Ν Β, Persian آ ش ب س) and the
  suit as any unambiguous start of its name (German ``p`` Pik, ``h`` Herz, ``kr`` Kreuz, ``ka``
  Karo); on a Russian keyboard the keys of the Latin code too (``8с`` with a Cyrillic с is
  ``8c``); Persian digits (``۱۰د``). Case, accents and Arabic letter variants do not matter.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import cache

from .cards import ACE, JACK, KING, QUEEN, SUITS, Card, Suit, rank_text

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES
_NUMBERS = range(2, 11)


@dataclass(frozen=True)
class CardLanguage:
    """How one language names cards: words, short letters and what its players type."""

    suits: dict[Suit, str]  # the suit's name, as in "trump: Herz"
    ranks: dict[int, str]  # every rank's word, 1..13
    phrase: str  # a card's name from {rank} and {suit}
    letters: dict[int, str] = field(default_factory=dict)  # short-form letters of A, J, Q, K
    in_phrase: dict[Suit, str] = field(default_factory=dict)  # the suit's form in a card's name
    typed_ranks: dict[str, int] = field(default_factory=dict)  # letters typed for a rank
    typed_suits: dict[str, Suit] = field(default_factory=dict)  # letters typed for a suit (besides names)
    digits: str = ""  # the language's own digits 0-9, typed for a number


def _numbered(words: str) -> dict[int, str]:
    """Ranks 1..13 from their words, Ace first."""
    return dict(zip(range(1, 14), words.split(), strict=True))


LANGUAGES: dict[str, CardLanguage] = {
    "de": CardLanguage(
        suits={C: "Kreuz", D: "Karo", H: "Herz", S: "Pik"},
        ranks=_numbered("Ass Zwei Drei Vier Fünf Sechs Sieben Acht Neun Zehn Bube Dame König"),
        phrase="{suit}-{rank}",
        letters={ACE: "A", JACK: "B", QUEEN: "D", KING: "K"},
        typed_ranks={"a": ACE, "b": JACK, "d": QUEEN, "k": KING},
    ),
    "ru": CardLanguage(
        suits={C: "трефы", D: "бубны", H: "червы", S: "пики"},
        ranks=_numbered(
            "туз двойка тройка четвёрка пятёрка шестёрка семёрка восьмёрка девятка десятка валет дама король"
        ),
        phrase="{rank} {suit}",
        letters={ACE: "Т", JACK: "В", QUEEN: "Д", KING: "К"},
        in_phrase={C: "треф", D: "бубен", H: "червей", S: "пик"},
        # The initials, and the keys of the Latin code on the Russian (ЙЦУКЕН) keyboard: A ф, J о, Q й, K л.
        typed_ranks={"т": ACE, "в": JACK, "д": QUEEN, "к": KING, "ф": ACE, "о": JACK, "й": QUEEN, "л": KING},
        typed_suits={"с": C, "в": D, "р": H, "ы": S},  # the keys of c, d, h, s on that keyboard
    ),
    "el": CardLanguage(
        suits={C: "σπαθί", D: "καρό", H: "κούπα", S: "μπαστούνι"},
        ranks=_numbered(
            "άσσος δυάρι τριάρι τεσσάρι πεντάρι εξάρι εφτάρι οχτάρι εννιάρι δεκάρι βαλές ντάμα ρήγας"
        ),
        phrase="{rank} {suit}",
        typed_ranks={"α": ACE, "β": JACK, "ν": QUEEN, "ρ": KING},
    ),
    "fa": CardLanguage(
        suits={C: "خاج", D: "خشت", H: "دل", S: "پیک"},
        ranks=_numbered("آس دو سه چهار پنج شش هفت هشت نه ده سرباز بی‌بی شاه"),
        phrase="{rank} {suit}",
        typed_ranks={"آ": ACE, "ا": ACE, "س": JACK, "ب": QUEEN, "ش": KING},
        digits="۰۱۲۳۴۵۶۷۸۹",
    ),
}

#: The Latin codes, typed in every language.
_LATIN_RANKS = {"a": ACE, "j": JACK, "q": QUEEN, "k": KING}
_LATIN_SUITS = {**{s.value.lower(): s for s in SUITS}, **{s.symbol: s for s in SUITS}}
#: Arabic letters a Persian keyboard may give for its own, and the joiners inside words.
_VARIANTS = str.maketrans({"ي": "ی", "ى": "ی", "ك": "ک", "\u200c": None, "\u200d": None})


def language_of(lang: str | None) -> CardLanguage | None:
    """The card words of ``lang``; None for English (or a language without them)."""
    return LANGUAGES.get(lang or "en")


def suit_word(suit: Suit, lang: str | None = None) -> str:
    """The suit's name: ``spades``, ``Pik``, ``пики``, ``μπαστούνι``, ``پیک``."""
    words = language_of(lang)
    return suit.word if words is None else words.suits[suit]


def rank_word(rank: int, lang: str | None = None) -> str:
    """The rank's word: ``Queen`` (``7`` in English), ``Dame``, ``дама``, ``ντάμα``, ``بی‌بی``."""
    from .cards import rank_word as english

    words = language_of(lang)
    return english(rank) if words is None else words.ranks[rank]


def card_words(card: Card, lang: str | None = None) -> str:
    """The card's name as the language's players say it: ``Ace of spades``, ``Pik-Ass``, ``туз пик``."""
    words = language_of(lang)
    if words is None:
        return card.words()
    suit = words.in_phrase.get(card.suit, words.suits[card.suit])
    return words.phrase.format(rank=words.ranks[card.rank], suit=suit)


def card_text(card: Card, lang: str | None = None, ascii: bool = False) -> str:
    """The short form: ``10♥``, ``D♥`` in German, ``Д♥`` in Russian; plain ASCII keeps the Latin code."""
    words = language_of(lang)
    if words is None or ascii:
        return card.text(ascii)
    return words.letters.get(card.rank, rank_text(card.rank)) + card.suit.symbol


def fold(text: str) -> str:
    """``text`` as typed words are compared: case, accents, Arabic variants and joiners ignored."""
    decomposed = unicodedata.normalize("NFD", text.casefold().translate(_VARIANTS))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@cache
def typed_forms(lang: str | None) -> tuple[dict[str, int], dict[str, Suit]]:
    """What may be typed for each rank and suit in ``lang``, folded: the Latin codes, the language's
    letters, and every start of a suit's name that no other suit's name starts with."""
    ranks: dict[str, int] = dict(_LATIN_RANKS)
    suits: dict[str, Suit] = dict(_LATIN_SUITS)
    words = language_of(lang)
    if words is not None:
        ranks.update({fold(k): r for k, r in words.typed_ranks.items()})
        suits.update({fold(k): s for k, s in words.typed_suits.items()})
        names = {s: fold(n) for s, n in words.suits.items()}
        for suit, name in names.items():
            for end in range(1, len(name) + 1):
                start = name[:end]
                if not any(n.startswith(start) for s, n in names.items() if s is not suit):
                    suits.setdefault(start, suit)
    return ranks, suits


def parse_card(text: str, lang: str | None = None) -> Card:
    """A card typed by a player of ``lang``: ``8c``, ``10H``, ``q♠``, ``7♦#1`` in any language, and
    the language's own letters (module docstring); a ValueError for anything else."""
    body, _, copy = text.strip().partition("#")
    words = language_of(lang)
    if words is not None and words.digits:
        body = body.translate(str.maketrans(words.digits, "0123456789"))
    key = fold(body)
    ranks, suits = typed_forms(lang)
    for end in range(len(key) - 1, 0, -1):
        rank_part, suit_part = key[:end], key[end:]
        suit = suits.get(suit_part)
        rank = ranks.get(rank_part) or _number(rank_part)
        if suit is not None and rank is not None:
            return Card(rank, suit, _copy(copy, text))
    raise ValueError(f"not a card: {text!r}")


def _number(typed: str) -> int | None:
    """2..10 written in ASCII digits, else None."""
    if typed.isascii() and typed.isdigit() and int(typed) in _NUMBERS:
        return int(typed)
    return None


def _copy(typed: str, text: str) -> int:
    if not typed:
        return 0
    if not (typed.isascii() and typed.isdigit()):
        raise ValueError(f"not a card: {text!r}")
    return int(typed)
