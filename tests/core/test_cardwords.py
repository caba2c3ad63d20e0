"""Cards in each language's words, and typed in each language's letters (core/cardwords.py)."""

from __future__ import annotations

import itertools

import pytest

from fairdeal.core.cards import ACE, JACK, KING, QUEEN, SUITS, Card, Suit, parse_card, standard_52
from fairdeal.core.cardwords import LANGUAGES, card_text, card_words, fold, suit_word, typed_forms

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES
ALL = [None, *LANGUAGES]

#: The names the issue asks for: clubs, spades, hearts, diamonds; Jack, Queen, King, Ace.
NAMES = {
    "de": ("Kreuz Pik Herz Karo", "Bube Dame König Ass"),
    "ru": ("трефы пики червы бубны", "валет дама король туз"),
    "el": ("σπαθί μπαστούνι κούπα καρό", "βαλές ντάμα ρήγας άσσος"),
    "fa": ("خاج پیک دل خشت", "سرباز بی‌بی شاه آس"),
}


@pytest.mark.parametrize("lang", NAMES)
def test_suits_and_court_cards_are_named_as_players_name_them(lang: str) -> None:
    suits, ranks = NAMES[lang]
    assert [suit_word(s, lang) for s in (C, S, H, D)] == suits.split()
    words = LANGUAGES[lang].ranks
    assert [words[r] for r in (JACK, QUEEN, KING, ACE)] == ranks.split()


def test_a_card_s_name_in_each_language() -> None:
    queen, seven = Card(QUEEN, H), Card(7, C)
    assert [card_words(queen, lang) for lang in ALL] == [
        "Queen of hearts",
        "Herz-Dame",
        "дама червей",
        "ντάμα κούπα",
        "بی‌بی دل",
    ]
    assert [seven.words(lang) for lang in ALL] == [
        "7 of clubs",
        "Kreuz-Sieben",
        "семёрка треф",
        "εφτάρι σπαθί",
        "هفت خاج",
    ]
    assert Card(ACE, S).words() == Card(ACE, S).words("en") == "Ace of spades"


def test_the_short_form_in_each_language() -> None:
    cards = [Card(r, H) for r in (ACE, KING, QUEEN, JACK, 10)]
    assert [" ".join(card_text(c, lang) for c in cards) for lang in ALL] == [
        "A♥ K♥ Q♥ J♥ 10♥",
        "A♥ K♥ D♥ B♥ 10♥",
        "Т♥ К♥ Д♥ В♥ 10♥",
        "A♥ K♥ Q♥ J♥ 10♥",  # Greek decks print A K Q J
        "A♥ K♥ Q♥ J♥ 10♥",  # and so do Iranian ones
    ]
    assert Card(QUEEN, H).text(ascii=True, lang="ru") == "QH"  # plain ASCII: the Latin code


@pytest.mark.parametrize("lang", ALL)
def test_latin_codes_and_the_language_s_own_short_form_parse_back(lang: str | None) -> None:
    for card in standard_52(2):
        assert parse_card(card.name, lang) == card
        if card.copy == 0:
            assert parse_card(card.text(ascii=True).lower(), lang) == card
            assert parse_card(card.text(), lang) == card
            assert parse_card(card.text(lang=lang), lang) == card


@pytest.mark.parametrize(
    ("lang", "typed", "card"),
    [
        ("de", "Dh", Card(QUEEN, H)),
        ("de", "bkr", Card(JACK, C)),
        ("de", "Kka", Card(KING, D)),
        ("de", "ap", Card(ACE, S)),
        ("de", "10Herz", Card(10, H)),
        ("ru", "8с", Card(8, C)),  # a Cyrillic с: the C key of a Russian keyboard
        ("ru", "дч", Card(QUEEN, H)),  # дама червей
        ("ru", "тт", Card(ACE, C)),  # туз треф
        ("ru", "вб", Card(JACK, D)),  # валет бубен
        ("ru", "кп", Card(KING, S)),  # король пик
        ("el", "Ρκο", Card(KING, H)),  # ρήγας κούπα
        ("el", "νκα", Card(QUEEN, D)),  # ντάμα καρό
        ("el", "ασ", Card(ACE, C)),  # άσσος σπαθί
        ("el", "βμ", Card(JACK, S)),  # βαλές μπαστούνι
        ("el", "7ΣΠΑΘΊ", Card(7, C)),
        ("fa", "۱۰د", Card(10, H)),  # Persian digits: ده دل
        ("fa", "آپ", Card(ACE, S)),  # آس پیک
        ("fa", "اپ", Card(ACE, S)),  # an alef without its madda
        ("fa", "شخا", Card(KING, C)),  # شاه خاج
        ("fa", "بخش", Card(QUEEN, D)),  # بی‌بی خشت
        ("fa", "سدل", Card(JACK, H)),  # سرباز دل
        ("fa", "7پيك", Card(7, S)),  # Arabic ي and ك, as some keyboards give them
    ],
)
def test_a_card_typed_in_the_player_s_letters(lang: str, typed: str, card: Card) -> None:
    assert parse_card(typed, lang) == card


def test_a_russian_keyboard_types_every_latin_code() -> None:
    keys = str.maketrans("ajqkcdhs", "фойлсвры")  # the same keys on the ЙЦУКЕН layout
    for card in standard_52():
        assert parse_card(card.text(ascii=True).lower().translate(keys), "ru") == card


@pytest.mark.parametrize(
    ("lang", "typed"),
    [
        ("de", "Ak"),  # K is both Kreuz and Karo
        ("el", "Ακ"),  # κ is both κούπα and καρό
        ("fa", "آخ"),  # خ is both خاج and خشت
        ("en", "Dh"),  # German letters are German
        (None, "8с"),  # a Cyrillic с is Russian
        ("ru", "\u0661\u0660H"),  # Arabic-Indic digits are not Persian ones
        ("fa", "۱۱H"),
        ("de", "7h#x"),
    ],
)
def test_what_is_not_a_card_in_that_language(lang: str | None, typed: str) -> None:
    with pytest.raises(ValueError):
        parse_card(typed, lang)


@pytest.mark.parametrize("lang", ALL)
def test_no_typed_card_reads_two_ways(lang: str | None) -> None:
    """Every rank form followed by every suit form is one card, however the text is split."""
    ranks, suits = typed_forms(lang)
    numbers = {str(n): n for n in range(2, 11)}
    for (r, rank), (s, suit) in itertools.product({**ranks, **numbers}.items(), suits.items()):
        typed = r + s
        readings = {
            (ranks.get(typed[:i]) or numbers.get(typed[:i]), suits.get(typed[i:]))
            for i in range(1, len(typed))
        }
        assert {x for x in readings if None not in x} == {(rank, suit)}, typed


def test_folding_ignores_case_accents_and_arabic_variants() -> None:
    assert fold("ΣΠΑΘΊ") == fold("σπαθι")
    assert fold("پيك") == fold("پیک")
    assert fold("بی\u200cبی") == fold("بیبی")
    assert {s.symbol for s in SUITS} <= set(typed_forms("fa")[1])
