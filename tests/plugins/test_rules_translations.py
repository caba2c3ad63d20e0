"""The rules in German, Russian, Greek and Persian say what the English says (each game's rules.txt,
which follows RULES.md): every number, option name and run of card ranks of the English is in each
translation (ranks in the language's letters), the court cards are named as the card words name
them, and `fairdeal rules` lists the options with the very same option lines."""

from __future__ import annotations

import re
from typing import Any

import pytest
from click.testing import CliRunner

from fairdeal import registry
from fairdeal.cli.main import cli
from fairdeal.core.cards import ACE, JACK, KING, QUEEN
from fairdeal.core.cardwords import LANGUAGES, fold
from fairdeal.core.rules import rules_in

GAMES = ("spite-malice", "ecarte", "snatch")
LANGS = ("de", "ru", "el", "fa")
PERSIAN_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹", "0123456789")
RANK_OF = {"A": ACE, "J": JACK, "Q": QUEEN, "K": KING}
#: What each language's text holds where the English names a court card (its stem: words decline).
COURT_STEMS = {
    "de": {"Ace": "Ass", "King": "König", "Queen": "Dame", "Jack": "Bube"},
    "ru": {"Ace": "туз", "King": "корол", "Queen": "дам", "Jack": "валет"},
    "el": {"Ace": "άσσ", "King": "ρήγ", "Queen": "ντάμ", "Jack": "βαλέ"},
    "fa": {"Ace": "آس", "King": "شاه", "Queen": "بی‌بی", "Jack": "سرباز"},
}


@pytest.fixture(scope="module")
def reg() -> Any:
    return registry.load()


def _texts(reg: Any, game: str, lang: str) -> tuple[str, str]:
    g = reg.game(game)
    return g.rules_text(), rules_in(g, lang)


def numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+", text.translate(PERSIAN_DIGITS)))


def rank_runs(text: str) -> list[list[str]]:
    """Runs of three or more card ranks written as on the cards: ``K Q J A 10 9 8 7``."""
    found = re.findall(r"(?<!\S)(?:(?:[AKQJ]|10|[2-9])(?: |$)){3,}", text, re.M)
    return [run.split() for run in found]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_its_rules_in_each_language(reg: Any, game: str, lang: str) -> None:
    english, translated = _texts(reg, game, lang)
    assert translated.strip() and translated != english
    assert all(len(line) <= 92 for line in translated.splitlines())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_number_option_name_and_rank_of_the_english_is_in_the_translation(
    reg: Any, game: str, lang: str
) -> None:
    english, translated = _texts(reg, game, lang)
    assert numbers(translated) == numbers(english)
    for option in reg.game(game).options:
        if option.name in english:
            assert option.name in translated, option.name
    letters = LANGUAGES[lang].letters
    folded = translated.translate(PERSIAN_DIGITS)
    for run in rank_runs(english):
        assert " ".join(letters.get(RANK_OF[r], r) if r in RANK_OF else r for r in run) in folded, run


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_option_lines_of_the_text_are_the_english_ones(reg: Any, game: str, lang: str) -> None:
    """Écarté lists its options in its text: each line that starts an option is word for word."""
    english, translated = _texts(reg, game, lang)
    starts = re.compile(r"^  (\S+=\S+)", re.M)
    assert starts.findall(translated) == starts.findall(english)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_court_cards_are_named_as_the_card_words_name_them(reg: Any, game: str, lang: str) -> None:
    english, translated = _texts(reg, game, lang)
    for word, stem in COURT_STEMS[lang].items():
        if re.search(rf"\b{word}s?\b", english):
            assert fold(stem) in fold(translated), (word, stem)
    for rank, stem in ((ACE, "Ace"), (KING, "King"), (QUEEN, "Queen"), (JACK, "Jack")):
        assert fold(COURT_STEMS[lang][stem]) in fold(LANGUAGES[lang].ranks[rank])


def _options(output: str) -> list[str]:
    """The option lines `fairdeal rules` prints after the text: ``target=N (1..50) (default 5)``."""
    return re.findall(r"^  (\S+=.*?\(default [^)]*\)):", output, re.M)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_fairdeal_rules_shows_the_translation_and_the_same_option_lines(game: str, lang: str) -> None:
    english = CliRunner().invoke(cli, ["rules", game], catch_exceptions=False)
    translated = CliRunner().invoke(cli, ["--lang", lang, "rules", game], catch_exceptions=False)
    assert english.exit_code == translated.exit_code == 0
    g = registry.load().game(game)
    assert translated.output.startswith(rules_in(g, lang).rstrip())
    if "(--option " in g.rules_text():  # rules that list their options say them once, in their words
        for o in g.options:
            assert f"{o.name}=" in english.output and f"{o.name}=" in translated.output
        assert "(--option " in rules_in(g, lang)
    else:
        assert _options(translated.output) == _options(english.output) == [o.describe() for o in g.options]
    if g.options:
        assert "Options (--option name=value):" not in translated.output


def test_a_language_without_a_translation_is_shown_in_english(reg: Any) -> None:
    g = reg.game("snatch")
    assert rules_in(g, "pt") == rules_in(g, "en") == rules_in(g, None) == g.rules_text()


def test_the_example_plugin_ships_german(example_entry_points: Any) -> None:
    game = registry.load(example_entry_points).game("crazy-eights")
    english, german = game.rules_text(), rules_in(game, "de")
    assert german.startswith("Verrückte Achten") and rules_in(game, "ru") == english
    assert numbers(german) == numbers(english)
    for word, stem in COURT_STEMS["de"].items():
        assert (word in english) == (stem in german), word


def test_a_game_written_before_languages_is_asked_in_english() -> None:
    """Plugin API 1 and 2 games may override ``rules_text(self)``: they are asked without a language."""

    class Old:
        def rules_text(self) -> str:
            return "Old rules."

    assert rules_in(Old(), "de") == "Old rules."  # type: ignore[arg-type]
