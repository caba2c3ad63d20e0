"""Snatch! speaks the language of whoever shows it (its own catalog, fairdeal.Catalog), and nothing of
the log depends on it: a seeded game logs the same bytes in German as in English, and every reason
and standing the game writes (English, ``seat N``) is said again in each language, the seat kept."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from fairdeal import Move, Over, RandomPolicy, Result, i18n
from fairdeal.cli.render import table_text
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.replica import Replica
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import Event, Played, play_game
from fairdeal.plugins.snatch import NeverSnatch, Shrewd, SnatchGame
from fairdeal.plugins.snatch._words import CATALOG
from fairdeal.plugins.snatch.view import PAID, TOOK
from fairdeal.testing import play_with_protocol

GAME = SnatchGame()
LANGS = [lang for lang in i18n.LANGUAGES if lang != "en"]


@pytest.fixture
def speak() -> Iterator[Any]:
    """``speak(lang)`` for the test; English again after it."""
    yield i18n.use
    i18n.use("en")


def _play(players: int, seed: int, observe: Any = None) -> Played:
    pols = [Shrewd() if p % 2 else RandomPolicy() for p in range(players)]
    return play_game(
        GAME,
        GAME.config(players),
        PlainDealer(players, SeededRng(seed)),
        pols,
        random.Random(seed),
        observe=observe,
    )


def test_a_game_played_in_german_says_german_words(speak: Any) -> None:
    speak("de")
    described: list[str] = []
    narrated: list[str] = []
    tables: list[str] = []
    before: dict[int, Any] = {}
    remarks: list[str] = []

    def observe(ev: Event, replicas: dict[int | None, Replica[Any]]) -> None:
        state = replicas[0].state
        if ev.kind == "move" and ev.move is not None and ev.player is not None and 0 in before:
            narrated.append(GAME.narrate(before[0], ev.player, ev.move, "Bob"))
        if 0 in before:
            remarks.extend(" ".join(map(str, w)) for w in GAME.remarks(before[0], state))
        if state.table.settled():
            step = GAME.next_step(state)
            if not isinstance(step, Over) and hasattr(step, "player") and step.player == 0:
                described.extend(GAME.describe(state, 0, m) for m in GAME.legal_moves(state, 0))
            tables.append(table_text(GAME, state, 0))
        before[0] = state.copy()

    _play(3, 5, observe)
    assert any(d.startswith("oberste Karte deines Stapels aufdecken (noch ") for d in described), described[
        :3
    ]
    assert (
        any("hat eine Karte aufgedeckt" in n for n in narrated)
        and "Du hast eine Karte aufgedeckt" in narrated
    )
    assert any(n.startswith(("Bob hat nicht geschnappt", "Bob hat mit")) for n in narrated)
    assert any(r.endswith("hat den Stich genommen") or r == "Du hast den Stich genommen" for r in remarks)
    text = "\n".join(tables)
    for word in ("Stapel:", "Stich", "beiseite", "abgeworfen", "Schnappen kostet", "Trumpf"):
        assert word in text, word
    assert any(suit in text for suit in ("Kreuz", "Karo", "Herz", "Pik"))  # suits in German words
    # What a seat is to do: for the others after their name ("Bob deckt eine Karte auf").
    assert "deckt eine Karte auf" in text or "darf schnappen" in text
    assert "Stapel" in i18n.game_gettext(GAME, GAME.summary)


def test_the_buttons_verbs_are_german(speak: Any) -> None:
    state = _play(2, 1).replicas[0].state
    moves = (Move("turn"), Move("snatch"), Move("pass"))
    speak("de")
    assert [GAME.move_parts(state, 0, m).verb for m in moves] == ["aufdecken", "schnappen", "passen"]
    speak("en")
    assert [GAME.move_parts(state, 0, m).verb for m in moves] == ["turn", "snatch", "pass"]


@pytest.fixture(scope="module")
def logs() -> Iterator[dict[str, bytes]]:
    """The log of one seeded game, played in German and then in English."""
    try:
        i18n.use("de")
        german = play_with_protocol(GAME, 3, seed=7).log
        i18n.use("en")
        english = play_with_protocol(GAME, 3, seed=7).log
        yield {"de": bytes(german), "en": bytes(english)}
    finally:
        i18n.use("en")


def test_the_log_is_the_same_bytes_whatever_the_language(logs: dict[str, bytes]) -> None:
    assert logs["de"] == logs["en"]
    assert b"seat " in logs["en"] or b"emptied" in logs["en"] or b"fewer than two" in logs["en"]
    assert b"Stapel" not in logs["de"] and b"Stich" not in logs["de"]


def test_the_results_stay_english_in_every_language(speak: Any) -> None:
    for lang in ("en", *LANGS):
        speak(lang)
        r = _play(3, 2).result
        assert r.reason.isascii() and r.standing.isascii()
        assert r.reason.endswith("did not take its trick") or r.reason.startswith("fewer than two")


#: Every form of a reason and a standing the game writes.
REASONS = [
    "seat 1 emptied the pile and the last card did not take its trick",
    "fewer than two players remain and nobody has won",
]
STANDINGS = [
    "seat 2 won after 9 tricks",
    f"seat 0 won after 7 tricks; out: seat 1 ({PAID})",
    f"seat 4 won after 11 tricks; out: seat 1 ({PAID}), seat 3 ({TOOK}), seat 7 ({PAID})",
    f"no winner after 8 tricks; out: seat 1 ({TOOK})",
    f"no winner after 6 tricks; out: seat 0 ({TOOK}), seat 2 ({PAID})",
]


def _seats(text: str) -> list[str]:
    return re.findall(r"seat \d+", text)


@pytest.mark.parametrize("lang", LANGS)
def test_every_reason_and_standing_is_said_again_with_its_seats(speak: Any, lang: str) -> None:
    speak(lang)
    for text in REASONS + STANDINGS:
        said = CATALOG.again(text)
        assert said != text, (lang, text)
        assert sorted(_seats(said)) == sorted(_seats(text)), (lang, text, said)
        english_words = ("emptied", "won after", "winner", "out:", "paid", "their last", "fewer")
        assert not any(w in said for w in english_words), (lang, said)
        assert "\u200e" not in said and "\u200f" not in said
    # The front ends' way: the game's catalog, through fairdeal.i18n.
    assert i18n.game_again(GAME, STANDINGS[2]) == CATALOG.again(STANDINGS[2])
    # A text no message of the game makes stays as it is (a resignation's, written by the session).
    assert CATALOG.again("Bob; Ann resigned") == "Bob; Ann resigned"
    assert CATALOG.again("Bob resigned") == "Bob resigned"


def test_in_english_again_gives_the_text_itself(speak: Any) -> None:
    speak("en")
    for text in REASONS + STANDINGS:
        assert CATALOG.again(text) == text


def test_every_result_of_many_games_is_said_again_in_every_language(speak: Any) -> None:
    results = []
    for players, seed in [(2, 1), (2, 3), (3, 1), (3, 4), (4, 2), (6, 1), (10, 2)]:
        pols = [NeverSnatch() if (seed + p) % 3 == 0 else Shrewd() for p in range(players)]
        dealer = PlainDealer(players, SeededRng(seed))
        played = play_game(GAME, GAME.config(players), dealer, pols, random.Random(seed))
        results.append(played.result)
    for lang in LANGS:
        speak(lang)
        for r in results:
            for text in (r.reason, r.standing):
                said = CATALOG.again(text)
                assert said != text and sorted(_seats(said)) == sorted(_seats(text)), (lang, text, said)


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != "en"])
def test_the_end_names_the_winner_once_in_every_language(lang: str) -> None:
    from types import SimpleNamespace

    from fairdeal.cli.outcome import summary_lines

    reason = "seat 1 emptied the pile and the last card did not take its trick"
    header = SimpleNamespace(
        seats=(SimpleNamespace(name="Ann"), SimpleNamespace(name="Bob")), names=("Ann", "Bob")
    )
    session = SimpleNamespace(
        result=Result(1, (0, 1), reason, "seat 1 won after 5 tricks"),
        aborted=None,
        verdict=None,
        seat=0,
        header=header,
        game=GAME,
    )
    i18n.use(lang)
    try:
        headline = summary_lines(session, None)[0]  # type: ignore[arg-type]
    finally:
        i18n.use("en")
    assert headline.count("Bob") == 1 and "seat" not in headline, headline
