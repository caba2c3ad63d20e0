"""Spite & Malice in the reader's language, through its own catalog (fairdeal.Catalog, domain
"spite_malice"): what a player reads is German in German and Russian in Russian, while the log and
the result stay English, byte for byte, and every result and standing the game can write is said
again in each language with its seats kept."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fairdeal import Move, Over, Result, i18n
from fairdeal.cli.render import table_text
from fairdeal.plugins.spite_malice import Phase, SpiteMalice, SpiteState
from fairdeal.plugins.spite_malice._words import CATALOG, LOG
from fairdeal.plugins.spite_malice.layout import CENTRES, SIDES, hand, payoff
from fairdeal.plugins.spite_malice.state import GameRecord
from fairdeal.testing import build_table, play_with_protocol
from tests.plugins.spite_positions import mid_turn

GAME = SpiteMalice()
LANGS = [lang for lang in i18n.LANGUAGES if lang != "en"]
#: English words of the log's messages that no translation keeps.
ENGLISH = ("reached", "played", "drawn", "after", "game ", "leads", "point")


@pytest.fixture
def speak() -> Iterator[object]:
    def use(lang: str) -> None:
        i18n.use(lang)

    try:
        yield use
    finally:
        i18n.use("en")


def test_a_table_in_german_says_the_piles_as_the_rules_name_them(speak: object) -> None:
    i18n.use("de")
    s = mid_turn()
    mine = table_text(GAME, s.with_table(s.table.masked(0)), 0, {0: "Du", 1: "Bob"}.get)
    assert "Spiel 3 · Partie bis 50" in mine and "Punkte — Du: 12 · Bob: 30" in mine
    assert "Aufbau 1: K♠ (3 Karten), K=3, nimmt 4" in mine and "Aufbau 2: leer, nimmt A" in mine
    assert "Du ◀  Spielerstapel: 3♠ (2 Karten) · Hand: 7♦ 9♣ · Ablage 1: 5♠ 6♠" in mine
    assert "Nachziehstapel: 6 Karten verdeckt" in mine and mine.endswith("Du bist dran")
    theirs = table_text(GAME, s.with_table(s.table.masked(1)), 1, {0: "Ann", 1: "Du"}.get)
    assert theirs.endswith("Ann ist dran") and "Hand: 2 Karten verdeckt" in theirs


def test_moves_and_the_story_in_german_and_russian(speak: object) -> None:
    s = mid_turn()
    t = s.table
    pay = Move("play", (t.top(payoff(0)) or -1, CENTRES[1]))
    side = Move("play", (t.top(SIDES[0][0]) or -1, CENTRES[1]))
    discard = Move("discard", (t.tokens(hand(0))[1], SIDES[0][3]))
    i18n.use("de")
    assert GAME.describe(s, 0, pay) == "3♠ vom Spielerstapel auf leeren Aufbau"
    assert GAME.narrate(s, 0, side, "Ann") == "Ann hat 6♠ von Ablage 1 auf Aufbau 2 gespielt"
    assert (
        GAME.narrate(s.with_table(t.masked(0)), 0, side, "Ann")
        == "Du hast 6♠ von Ablage 1 auf Aufbau 2 gespielt"
    )
    assert GAME.narrate(s, 0, discard, "Ann") == "Ann hat 7♦ auf Ablage 4 gelegt und den Zug beendet"
    i18n.use("ru")
    assert GAME.describe(s, 0, pay) == "сыграть 3♠ с личной стопки на пустой центр"
    assert GAME.describe(s, 0, discard) == "конец хода: 7♦ на пустую боковую"
    mine = table_text(GAME, s.with_table(t.masked(0)), 0, {0: "Вы", 1: "Bob"}.get)
    assert "Колода: 6 карт рубашкой вверх" in mine and "Центр 2: пусто, ждёт Т" in mine  # Т: туз


def test_the_words_are_english_again_in_english() -> None:
    s = mid_turn()
    pay = Move("play", (s.table.top(payoff(0)) or -1, CENTRES[1]))
    assert GAME.describe(s, 0, pay) == "play 3♠ from payoff to an empty centre"
    theirs = table_text(GAME, s.with_table(s.table.masked(1)), 1, {0: "Ann", 1: "You"}.get)
    assert theirs.endswith("Ann to play") and "Points — Ann: 12 · You: 30" in theirs


def test_the_log_and_result_of_a_seeded_match_do_not_depend_on_the_language(speak: object) -> None:
    options = {"target": 1, "max_games": 2}
    english = play_with_protocol(GAME, 2, 3, options)
    i18n.use("de")
    german = play_with_protocol(GAME, 2, 3, options)
    assert german.log == english.log
    result = german.session.result
    assert result == english.session.result and isinstance(result, Result)
    assert result.reason.isascii() and result.standing.startswith("seat 0 ")
    said = CATALOG.again(result.standing)
    assert said != result.standing and "nach 2 Spielen" in said and "seat 1" in said


def _record(number: int, winner: int | None, points: int) -> GameRecord:
    return GameRecord(number, 0, winner, points, "")


def _every_result() -> list[str]:
    """Every reason and standing the match can write: won, led, level; one game and several."""
    table = build_table(list(GAME.zones_for(GAME.config(2))), 2, {})
    forms = []
    histories = [
        ((_record(1, 1, 30),), (0, 30), 25),
        ((_record(1, None, 0), _record(2, 0, 1)), (1, 0), 1),
        ((_record(1, 0, 12), _record(2, None, 0), _record(3, 1, 5)), (12, 5), 100),
        ((_record(1, None, 0),), (0, 0), 100),
        ((_record(1, 0, 4), _record(2, 1, 4)), (4, 4), 100),
    ]
    for history, scores, target in histories:
        state = SpiteState(table, phase=Phase.OVER, scores=scores, history=history, target=target,
                           max_games=len(history))  # fmt: skip
        step = GAME.next_step(state)
        assert isinstance(step, Over)
        forms += [step.result.reason, step.result.standing]
    return forms


def test_every_result_is_written_from_a_marked_message() -> None:
    forms = _every_result()
    assert "seat 1 reached 25 points" in forms and "seat 0 reached 1 point" in forms
    assert "3 games played (safety rule): seat 0 leads" in forms
    assert "2 games played (safety rule): level, drawn match" in forms
    assert "seat 0 12, seat 1 5 after 3 games (game 1: seat 0 +12; game 2: drawn; game 3: seat 1 +5)" in forms
    assert all(any(said.match(text) for said in LOG) for text in forms)


@pytest.mark.parametrize("lang", LANGS)
def test_every_result_is_said_again_in_each_language_with_its_seats(speak: object, lang: str) -> None:
    forms = _every_result()
    i18n.use(lang)
    for text in forms:
        said = CATALOG.again(text)
        assert said != text and "{" not in said, (lang, text, said)
        assert not any(word in said for word in ENGLISH), (lang, said)
        for seat in ("seat 0", "seat 1"):
            assert (seat in said) == (seat in text), (lang, text, said)


def test_in_english_again_gives_the_text_itself() -> None:
    for text in _every_result():
        assert CATALOG.again(text) == text


def test_every_move_on_offer_is_said_in_every_language(speak: object) -> None:
    state = mid_turn()
    moves = list(GAME.legal_moves(state, 0))
    english = {m: (GAME.describe(state, 0, m), GAME.narrate(state, 0, m, "Ann")) for m in moves}
    assert len(moves) > 5
    for lang in LANGS:
        i18n.use(lang)
        for move in moves:
            said = (GAME.describe(state, 0, move), GAME.narrate(state, 0, move, "Ann"))
            for words, was in zip(said, english[move], strict=True):
                assert words != was and "{" not in words, (lang, words)
            assert "Ann" in said[1], (lang, said)
