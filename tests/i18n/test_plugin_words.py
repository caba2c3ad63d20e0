"""A plugin's own words (fairdeal.Catalog): its catalogs beside its package, said in the language of
whoever shows them, never in the log; what it wrote into the log in English said again in the
reader's language. Crazy Eights, the guide's example, speaks German."""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog as PoCatalog
from babel.messages.mofile import write_mo

from fairdeal import Catalog, i18n
from fairdeal.cli.render import named
from fairdeal.core.rules import words_text
from fairdeal.testing import play_with_protocol, random_position


@pytest.fixture
def speak() -> Iterator[Any]:
    """``speak(lang)`` for the test; English again after it."""
    yield i18n.use
    i18n.use("en")


@pytest.fixture
def eights(example_entry_points: list[metadata.EntryPoint]) -> Any:
    (ep,) = example_entry_points
    return ep.load()


def _catalog(pairs: dict[str, str]) -> gettext.GNUTranslations:
    po = PoCatalog(locale="de")
    for english, german in pairs.items():
        po.add(english, german)
    out = io.BytesIO()
    write_mo(out, po)
    out.seek(0)
    return gettext.GNUTranslations(out)


def test_again_finds_the_message_a_text_was_made_from() -> None:
    cat = _catalog(
        {
            "{seat} reached {points} points": "{seat} hat {points} Punkte erreicht",
            "{seat} beat {other}, and {seat} leads": "{seat} schlug {other}, und {seat} führt",
            "the game ended without a winner": "das Spiel endete ohne Sieger",
            "{seat} won": "{seat} hat gewonnen",
        }
    )
    assert i18n.said_again(cat, "seat 1 reached 5 points") == "seat 1 hat 5 Punkte erreicht"
    assert i18n.said_again(cat, "the game ended without a winner") == "das Spiel endete ohne Sieger"
    # A name written twice must be the same value both times.
    assert (
        i18n.said_again(cat, "seat 0 beat seat 1, and seat 0 leads")
        == "seat 0 schlug seat 1, und seat 0 führt"
    )
    assert (
        i18n.said_again(cat, "seat 0 beat seat 1, and seat 1 leads") == "seat 0 beat seat 1, and seat 1 leads"
    )
    # The most specific message wins; a text no message makes stays as it is.
    assert i18n.said_again(cat, "seat 2 won") == "seat 2 hat gewonnen"
    assert i18n.said_again(cat, "everyone else left") == "everyone else left"
    assert i18n.said_again(cat, "") == ""


def test_a_catalog_of_a_package_without_one_says_english(speak: Any) -> None:
    speak("de")
    nowhere = Catalog("json")  # a package with no locale folder
    assert nowhere.gettext("draw") == "draw" and nowhere.again("seat 1 won") == "seat 1 won"
    assert Catalog("no_such_package_here").folder is None
    assert Catalog("fairdeal.plugins.snatch").domain == "snatch"


def test_crazy_eights_speaks_german_where_it_has_a_catalog(eights: Any, speak: Any) -> None:
    words = eights.catalog
    assert isinstance(words, Catalog) and words.domain == "fairdeal_crazy_eights"
    assert (
        words.folder is not None
        and (words.folder / "de" / "LC_MESSAGES" / "fairdeal_crazy_eights.mo").is_file()
    )
    game = eights()
    option = game.options[0]
    speak("de")
    assert words.gettext("draw") == "ziehe"
    assert i18n.game_gettext(game, option.help) == "Karten für jeden (0: 7 zu zweit, sonst 5)"
    assert i18n.game_gettext(game, game.summary).startswith("Gleicher Wert oder gleiche Farbe")
    # Its result, written in English into the log, said in German with the seat's name.
    said = i18n.game_again(game, "seat 1 emptied their hand")
    assert said == "seat 1 hat alle Karten abgelegt"
    assert named(said, ["Ann", "Bob"]) == "Bob hat alle Karten abgelegt"
    assert i18n.game_again(game, "blocked: seat 0 holds the fewest points").startswith("blockiert: seat 0")
    speak("ru")  # no Russian catalog: English
    assert words.gettext("draw") == "draw" and i18n.game_again(game, "seat 1 emptied their hand").startswith(
        "seat 1"
    )
    speak("en")
    assert i18n.game_gettext(game, option.help) == option.help


def test_a_game_played_in_german_writes_the_same_log_and_says_its_moves_in_german(
    eights: Any, speak: Any
) -> None:
    game = eights()
    english = play_with_protocol(game, 3, seed=4)
    speak("de")
    german = play_with_protocol(game, 3, seed=4)
    assert german.log == english.log  # nothing of the log depends on the language
    assert german.verify(game).verdict == "fair"
    view, _truth = random_position(game, 3, seed=4, decisions=3)
    player = game.next_step(view).player
    texts = [words_text(game.words(view, player, m)) for m in game.legal_moves(view, player)]
    assert texts and all(t.split()[0] in ("ziehe", "passe", "spiele") for t in texts), texts
    table = game.table_view(view, player)
    labels = {pile.label for _region, pile in table.piles()}
    assert {"Hand", "Ablagestapel", "Nachziehstapel"} <= labels, labels  # the zones' titles, said in German
    notes = " ".join(str(w) for _region, pile in table.piles() for w in pile.note)
    assert "einmal wird noch gemischt" in notes or "gewählte Farbe" in notes, notes
    speak("en")
    assert all(
        words_text(game.words(view, player, m)).split()[0] in ("draw", "pass", "play")
        for m in game.legal_moves(view, player)
    )


def test_the_example_ships_its_catalog_as_package_data() -> None:
    here = Path(__file__).resolve().parents[2] / "examples" / "crazy-eights" / "pyproject.toml"
    assert "locale/*/LC_MESSAGES/*.mo" in here.read_text()
