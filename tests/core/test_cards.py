from __future__ import annotations

import pytest

from fairdeal.core.cards import (
    ACE,
    KING,
    SUITS,
    Card,
    Suit,
    ecarte_32,
    parse_card,
    snatch_32,
    standard_52,
)


def test_deck_sizes_and_uniqueness() -> None:
    for deck, size in (
        (standard_52(), 52),
        (standard_52(2), 104),
        (ecarte_32(), 32),
        (snatch_32(), 32),
        (snatch_32(2), 64),
    ):
        assert len(deck) == size
        assert len(set(deck)) == size


def test_ecarte_and_snatch_ranks() -> None:
    assert {c.rank for c in ecarte_32()} == {ACE, KING, 12, 11, 10, 9, 8, 7}
    assert {c.rank for c in snatch_32()} == {ACE, 12, 11, 10, 9, 8, 7, 2}
    assert all(c.rank != KING for c in snatch_32(2))


def test_two_decks_are_two_copies() -> None:
    deck = standard_52(2)
    assert sum(1 for c in deck if c.rank == 7 and c.suit is Suit.HEARTS) == 2
    assert {c.copy for c in deck} == {0, 1}


def test_text_forms() -> None:
    c = Card(10, Suit.HEARTS, 1)
    assert c.text() == "10♥"
    assert c.text(ascii=True) == "10H"
    assert c.name == "10H#1"
    assert Card(ACE, Suit.SPADES).words() == "Ace of spades"
    assert Suit.HEARTS.red and not Suit.CLUBS.red


@pytest.mark.parametrize("card", standard_52(2))
def test_parse_round_trips(card: Card) -> None:
    assert parse_card(card.name) == card
    if card.copy == 0:
        assert parse_card(card.text()) == card
        assert parse_card(card.text(ascii=True).lower()) == card


@pytest.mark.parametrize("bad", ["", "1H", "11S", "KX", "Z", "10", "\u0661\u0660H", "\uff17S", "²H"])
def test_parse_rejects(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_card(bad)


def test_card_validation() -> None:
    with pytest.raises(ValueError):
        Card(0, Suit.CLUBS)
    with pytest.raises(ValueError):
        Card(14, Suit.CLUBS)


def test_sorting_is_by_suit_then_rank() -> None:
    cards = sorted([Card(5, SUITS[1]), Card(2, SUITS[1]), Card(13, SUITS[0])])
    assert cards == [Card(13, SUITS[0]), Card(2, SUITS[1]), Card(5, SUITS[1])]
