"""A card's name typed at the table key by key, in the Latin codes (``8c``, ``10h``, ``qs``) and in
the letters of the language spoken (German ``dh`` Dame Herz, ``10ka``; Russian ``дч``, ``8с`` with a
Cyrillic с; Persian ``۱۰د``): what :func:`~fairdeal.core.cardwords.parse_card` reads, taken one key
at a time. Pure; :mod:`.choosing` keeps what is typed so far."""

from __future__ import annotations

from functools import cache

from fairdeal.core.cardwords import fold, language_of, parse_card, typed_forms

_NUMBERS = [str(n) for n in range(2, 11)]


@cache
def card_names(lang: str | None) -> dict[str, tuple[int, str]]:
    """Every name of a card that can be typed in ``lang`` (folded) → (rank, suit letter)."""
    ranks, suits = typed_forms(lang)
    words = language_of(lang)
    numbers = list(_NUMBERS)
    if words is not None and words.digits:
        numbers += [n.translate(str.maketrans("0123456789", words.digits)) for n in _NUMBERS]
    out: dict[str, tuple[int, str]] = {}
    for rank in [*ranks, *numbers]:
        for suit in suits:
            try:
                card = parse_card(rank + suit, lang)
            except ValueError:
                continue
            out[fold(rank + suit)] = (card.rank, card.suit.value)
    return out


@cache
def name_starts(lang: str | None) -> frozenset[str]:
    """Everything a card's name in ``lang`` can begin with, short of the whole name (and "")."""
    return frozenset(name[:end] for name in card_names(lang) for end in range(len(name)))


@cache
def open_starts(lang: str | None) -> frozenset[str]:
    """The starts of names that can still become more than one card (``1``, ``10``, German ``d``):
    a whole name among them waits for the next key; any other whole name is taken at once."""
    cards: dict[str, set[tuple[int, str]]] = {}
    for name, card in card_names(lang).items():
        for end in range(len(name)):
            cards.setdefault(name[:end], set()).add(card)
    return frozenset(start for start, found in cards.items() if len(found) > 1)


def first_keys(lang: str | None) -> frozenset[str]:
    """The keys a card's name can begin with (a button never takes them while cards can be picked)."""
    return frozenset(start[:1] for start in name_starts(lang) if start)


def read_card(typed: str, key: str, lang: str | None = None) -> tuple[str, tuple[int, str] | None]:
    """A card's name typed key by key: ``typed`` is what was typed so far (one of
    :func:`name_starts`). Returns what is typed after ``key`` and the card, (rank, suit letter), once
    its name is whole (at once, unless more keys could make it another card: then at the next key,
    which may end it); ``("", None)`` when ``key`` does not go on with a name (nothing is typed then)."""
    text = fold(typed + key)
    found = card_names(lang).get(text)
    if found is not None and text not in open_starts(lang):
        return "", found
    if text in name_starts(lang):
        return text, None
    return "", None


__all__ = ["card_names", "first_keys", "name_starts", "open_starts", "read_card"]
