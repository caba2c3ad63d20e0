"""A card's name typed at the table key by key in each language's letters (cli/tui/cardkeys.py): the
Latin codes always, the language's own where it has them, and no name that stops before it is whole."""

from __future__ import annotations

import pytest

from fairdeal import i18n
from fairdeal.cli.tui.cardkeys import card_names, name_starts, open_starts, read_card
from fairdeal.cli.tui.picking import TYPED


def typed(keys: str, lang: str | None) -> tuple[str, tuple[int, str] | None]:
    now, found = "", None
    for key in keys:
        now, found = read_card(now, key, lang)
    return now, found


def test_english_reads_the_latin_codes_as_before() -> None:
    assert name_starts(None) == TYPED
    assert typed("10h", None) == ("", (10, "H")) and typed("qs", None) == ("", (12, "S"))
    assert typed("dh", None) == ("", None)  # German letters mean nothing in English


@pytest.mark.parametrize(
    ("lang", "keys", "card"),
    [
        ("de", "dh", (12, "H")),  # Dame Herz
        ("de", "bp", (11, "S")),  # Bube Pik
        ("de", "10ka", (10, "D")),  # Karo: "k" alone could be Kreuz too
        ("de", "qs", (12, "S")),  # the Latin code still works
        ("ru", "дч", (12, "H")),  # дама червей
        ("ru", "8с", (8, "C")),  # a Cyrillic с where the Latin c is on the keyboard
        ("el", "ρκο", (13, "H")),  # ρήγας κούπα
        ("fa", "۱۰د", (10, "H")),  # Persian digits, دل
        ("fa", "شپ", (13, "S")),  # شاه پیک
    ],
)
def test_a_card_typed_in_the_language(lang: str, keys: str, card: tuple[int, str]) -> None:
    assert typed(keys, lang) == ("", card)


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != "en"])
def test_no_whole_name_could_still_become_another_card(lang: str) -> None:
    assert not [name for name in card_names(lang) if name in open_starts(lang)]
