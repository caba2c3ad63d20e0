"""Écarté in the reader's language, through its own catalog (fairdeal.Catalog, domain "ecarte"):
what a player reads is German in German, while the log and the result stay English, byte for byte,
and every form of the result is said again in each language with its seat kept."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fairdeal import Card, Decide, Move, Result, Seat, i18n
from fairdeal.cli.render import table_text
from fairdeal.core.dealer import Reveal
from fairdeal.plugins.ecarte import Ecarte, EcarteState, Phase, Rules
from fairdeal.plugins.ecarte._words import CATALOG
from fairdeal.plugins.ecarte.model import (
    AGAINST_DECLINER,
    KING_ANNOUNCED,
    KING_TURNED,
    MADE_TRICKS,
    NON_DEALER_UNEXCHANGED,
    THE_VOLE,
    hand,
)
from fairdeal.plugins.ecarte.model import zones as ecarte_zones
from fairdeal.plugins.ecarte.rules import REASONS, reason, standing
from fairdeal.testing import build_table, play_with_protocol
from tests.plugins.ecarte_positions import mid_play

GAME = Ecarte()
LANGS = [lang for lang in i18n.LANGUAGES if lang != "en"]


@pytest.fixture
def german() -> Iterator[None]:
    i18n.use("de")
    try:
        yield
    finally:
        i18n.use("en")


def _what(state: EcarteState) -> str:
    step = GAME.next_step(state)
    assert isinstance(step, Decide)
    return step.what


def _words(words: tuple[object, ...]) -> str:
    return " ".join(
        w.text() if isinstance(w, Card) else f"<{w.seat}>" if isinstance(w, Seat) else str(w) for w in words
    )


def test_a_game_in_german_says_german_words(german: None) -> None:
    s = mid_play(trump_when_void=True)
    t = s.table
    queen = next(x for x, c in t.known(hand(0)) if c.text(ascii=True) == "QH")
    mine = s.with_table(t.masked(0))
    assert GAME.describe(mine, 0, Move("play", (queen,))) == "D♥ spielen"  # the Queen is a Dame
    assert _what(mine) == "zum Stich spielen"  # after "Du bist dran:"
    assert _what(s.with_table(t.masked(1))) == "spielt zum Stich"  # after a name
    discard = EcarteState(t, phase=Phase.DISCARD, dealer=0, actor=0, discarded=0)
    assert GAME.describe(discard, 0, Move("discard", (queen,))) == "D♥ ablegen (verdeckt)"
    assert GAME.narrate(discard.with_table(t.masked(1)), 0, Move("discard", (queen,)), "Ann") == (
        "Ann legt eine Karte ab"
    )
    assert GAME.describe(discard, 1, Move("propose")) == "einen Kartentausch vorschlagen"
    assert GAME.move_parts(discard, 1, Move("propose")).verb == "vorschlagen"

    t.flip(queen)
    t.learn(Reveal(queen, None), t.card(queen))
    told = GAME.narrate(s.but(tricks=(2, 2)).with_table(t.masked(1)), 0, Move("play", (queen,)), "Ann")
    assert told == "Ann spielt D♥ — du nimmst den Stich; du bekommst 1 Punkt für 3 Stiche"

    view = GAME.table_view(mine, 0)
    facts = [_words(f) for f in view.facts]
    assert facts == ["Spiel 3", "Ziel 7", "Trumpfzwang"] and view.score_name == "Punkte"
    labels = [p.label for _r, p in view.piles()]
    assert labels[:4] == ["Aufgedeckt", "Talon", "Stich", "Letzter Stich"] and "Hand" in labels
    text = table_text(GAME, mine, 0, {0: "You", 1: "Bob"}.__getitem__, ascii=True)
    assert "Trumpf C Kreuz" in text and "gewonnen von Bob" in text and "Geber, Stiche: 0" in text


def test_the_turned_up_king_and_the_story_in_german(german: None) -> None:
    s = mid_play(trump_when_void=True)
    before = s.but(scores=(0, 0), why="")
    after = s.but(scores=(1, 0), why=KING_TURNED)
    [(seat, said)] = GAME.remarks(before, after.with_table(s.table.masked(0)))
    assert seat == Seat(0) and said == "bekommst 1 Punkt für den aufgedeckten König"  # "Du ..."
    [(_seat, said)] = GAME.remarks(before, after.with_table(s.table.masked(1)))
    assert said == "bekommt 1 Punkt für den aufgedeckten König"


def test_the_words_are_english_again_in_english() -> None:
    s = mid_play(trump_when_void=True)
    assert _what(s.with_table(s.table.masked(0))) == "to play to the trick"
    assert [_words(f) for f in GAME.table_view(s, 0).facts] == [
        "deal 3",
        "first to 7",
        "must trump when void",
    ]


def test_the_log_and_result_of_a_seeded_game_do_not_depend_on_the_language() -> None:
    english = play_with_protocol(GAME, 2, 3, {"target": 2})
    try:
        i18n.use("de")
        german = play_with_protocol(GAME, 2, 3, {"target": 2})
    finally:
        i18n.use("en")
    assert german.log == english.log
    assert german.session.result == english.session.result
    result = english.session.result
    assert isinstance(result, Result) and result.reason.startswith("seat ") and result.reason.isascii()
    i18n.use("de")
    try:
        again = CATALOG.again(result.reason)
    finally:
        i18n.use("en")
    assert again != result.reason and "mit 2 Punkten am Ziel" in again and f"seat {result.winner}" in again


def _every_result() -> list[tuple[str, str]]:
    """Every reason and standing the game can write, for a target of 1 and of 5."""
    forms = [("the game ended without a winner", "")]
    whys = {
        KING_TURNED: ((0, 0), None, "classic"),
        KING_ANNOUNCED: ((0, 0), None, "classic"),
        MADE_TRICKS: ((3, 2), None, "classic"),
        THE_VOLE: ((5, 0), None, "classic"),
        AGAINST_DECLINER: ((4, 1), 1, "classic"),
        NON_DEALER_UNEXCHANGED: ((2, 3), 0, "seed"),  # seat 0 deals: seat 1 is the non-dealer
    }
    for why, (tricks, declined, penalty) in whys.items():
        for target in (1, 5):
            winner = 0 if tricks[0] >= 3 or why in (KING_TURNED, KING_ANNOUNCED) else 1
            made = tricks[winner]
            state = EcarteState(
                build_table(ecarte_zones(), 2, {}),
                rules=Rules(target=target, penalty=penalty),
                phase=Phase.OVER,
                dealer=0,
                tricks=tricks,
                declined=declined,
                winner=winner,
                why=why.format(made=made),
            )
            forms.append((reason(state), standing(1)))
    forms.append(("", standing(4)))
    return forms


def test_every_result_is_written_from_a_marked_message() -> None:
    forms = _every_result()
    reasons = {r for r, _s in forms if r}
    assert len(reasons) == 1 + 2 * len(REASONS)
    assert "seat 0 reached 5 points, the last for the vole (all 5 tricks)" in reasons
    assert "seat 1 reached 1 point, the last for 3 tricks as non-dealer without an exchange" in reasons
    assert {s for _r, s in forms} == {"", "1 deal played", "4 deals played"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_result_is_said_again_in_each_language_with_its_seat(lang: str) -> None:
    i18n.use(lang)
    try:
        for text in [t for form in _every_result() for t in form if t]:
            said = CATALOG.again(text)
            assert said != text, (lang, text)
            assert "{" not in said and not any(w in said for w in ("reached", "tricks", "played")), said
            if text.startswith("seat "):
                assert text.split(" ", 2)[:2] == ["seat", text.split(" ")[1]]
                assert f"seat {text.split(' ')[1]}" in said, (lang, said)
    finally:
        i18n.use("en")
