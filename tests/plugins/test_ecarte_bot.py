"""Écarté's classic bot: its textbook choices, its margin over `random`, and its speed."""

from __future__ import annotations

import random
from typing import Any

from fairdeal import Card, Move, RandomPolicy, Suit, ecarte_32, parse_card
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import play_game
from fairdeal.plugins.ecarte import ClassicBot, Ecarte, EcarteState, Phase, Rules, jeu_de_regle, strength
from fairdeal.plugins.ecarte.model import DISCARDS, TALON, TRICK, TURNUP, hand, zones
from fairdeal.testing import build_table

GAME = Ecarte()
C = parse_card


def cards(text: str) -> list[Card]:
    return [C(x) for x in text.split()]


def state(mine: str, *, seat: int = 1, trick: str = "", turnup: str = "10C", **fields: Any) -> EcarteState:
    """``seat`` holds ``mine``; the other hand gets five cards from the rest. Seat 0 deals."""
    used = set(cards(mine) + cards(trick) + cards(turnup))
    rest = [c for c in ecarte_32() if c not in used]
    other, talon = rest[:5], rest[5:]
    contents = {
        TALON: talon,
        hand(seat): cards(mine),
        hand(1 - seat): other,
        TURNUP: cards(turnup),
        TRICK: cards(trick),
    }
    table = build_table(zones(), 2, contents).masked(seat)
    base: dict[str, object] = {
        "phase": Phase.PLAY,
        "dealer": 0,
        "deal_no": 1,
        "trump": C(turnup).suit,
        "actor": seat,
    }
    base.update(fields)
    return EcarteState(table, rules=Rules(), **base)  # type: ignore[arg-type]


def choose(s: EcarteState, seat: int) -> Move:
    moves = list(GAME.legal_moves(s, seat))
    return ClassicBot().choose(GAME, s, seat, moves, random.Random(0))


def card_of(s: EcarteState, move: Move) -> str:
    c = s.table.card(int(move.args[0]))
    assert c is not None
    return c.text(ascii=True)


def test_jeu_de_regle() -> None:
    clubs = Suit.CLUBS
    assert jeu_de_regle(cards("7C 8C 9C 7H 8D"), clubs)  # three trumps
    assert jeu_de_regle(cards("7C 8C KH 7D 8S"), clubs)  # two trumps and a guarded King
    assert jeu_de_regle(cards("7C 8C 7H 8H 9H"), clubs)  # two trumps and three of a suit
    assert jeu_de_regle(cards("7C KH QH JH 8D"), clubs)  # one trump and a King-Queen-Jack
    assert not jeu_de_regle(cards("7C KH 8D 9S 7S"), clubs)  # one trump, one guarded suit
    assert not jeu_de_regle(cards("AH 10H 8D 9S 7S"), clubs)  # nothing
    assert not jeu_de_regle(cards("KH KD KS 7H 8D"), clubs)  # three Kings but no trump
    assert strength(cards("7C 8C KH QH 9S"), clubs) == (2, 2)


def test_the_non_dealer_stands_with_a_jeu_de_regle() -> None:
    s = state("7C 8C 9C 7H 8D", phase=Phase.PROPOSE)
    assert choose(s, 1) == Move("stand")
    s = state("AH 10H 8D 9S 7S", phase=Phase.PROPOSE)
    assert choose(s, 1) == Move("propose")


def test_the_score_changes_what_it_stands_with() -> None:
    """A bare jeu de règle stands, unless the opponent needs two points: then the penalty for a
    deal without exchange would give them the match, and it asks for cards (it played the same
    whatever the score)."""
    hand_ = "7C 8C 9C 7H 8D"
    assert choose(state(hand_, phase=Phase.PROPOSE), 1) == Move("stand")
    assert choose(state(hand_, phase=Phase.PROPOSE, scores=(3, 0)), 1) == Move("propose")
    assert choose(state(hand_, phase=Phase.PROPOSE, scores=(4, 0)), 1) == Move("stand")
    weaker = "7C 7H 8D KS 9S"  # a trump and a King: one trick short of a jeu de règle
    assert choose(state(weaker, phase=Phase.PROPOSE), 1) == Move("propose")
    assert choose(state(weaker, phase=Phase.PROPOSE, scores=(4, 0)), 1) == Move("stand")


def test_with_the_king_of_trumps_it_asks_for_cards() -> None:
    s = state("KC 8C 9H 7H 8H", phase=Phase.PROPOSE)  # two trumps and three hearts: a jeu de règle...
    assert jeu_de_regle(cards("KC 8C 9H 7H 8H"), Suit.CLUBS)
    assert choose(s, 1) == Move("propose")  # ...but it holds the King of trumps


def test_the_dealer_refuses_by_the_guarded_suits_rule() -> None:
    s = state("7C 8C KH 7D 8S", seat=0, phase=Phase.ANSWER)
    assert choose(s, 0) == Move("refuse")
    s = state("7C AH 10D 7D 8S", seat=0, phase=Phase.ANSWER)
    assert choose(s, 0) == Move("accept")


def test_it_discards_low_plain_cards_and_keeps_a_guarded_queen() -> None:
    """The Queen beside its King stays (it was thrown with everything that was no trump or King)."""
    s = state("7C KS 8D QS 9H", phase=Phase.DISCARD)
    thrown = []
    for _ in range(5):
        m = choose(s, 1)
        if m.action == "done":
            break
        thrown.append(card_of(s, m))
        s.table.move(int(m.args[0]), DISCARDS)
        s = EcarteState(
            s.table,
            rules=s.rules,
            phase=Phase.DISCARD,
            dealer=0,
            deal_no=1,
            trump=s.trump,
            actor=1,
            discarded=s.discarded + 1,
        )
    assert sorted(thrown) == ["8D", "9H"]


def test_as_non_dealer_it_discards_at_least_one() -> None:
    s = state("7C 8C 9C KH KD", phase=Phase.DISCARD)
    m = choose(s, 1)
    assert m.action == "discard" and card_of(s, m) in ("KH", "KD")  # a plain King before a trump


def test_it_leads_from_the_guarded_suit() -> None:
    s = state("7C KH QH 8D 9S")
    assert card_of(s, choose(s, 1)) == "KH"
    s = state("7C JC 8D QS 9S")
    assert card_of(s, choose(s, 1)) == "QS"  # spades are guarded by the Queen and the 9
    s = state("KC QC JC 8D 9S")
    assert card_of(s, choose(s, 1)) == "KC"  # three trumps: trumps first


def test_second_it_wins_cheaply_or_throws_its_lowest() -> None:
    s = state("QH 8H 9D 7C 9S", seat=0, trick="JH")
    assert card_of(s, choose(s, 0)) == "QH"  # forced
    s = state("8D 9D JC 7C 9S", seat=0, trick="JH")
    assert card_of(s, choose(s, 0)) == "7C"  # void: trumps with the lowest trump
    s = state("8D 9D 10S 8S 9S", seat=0, trick="JH")
    assert card_of(s, choose(s, 0)) == "8D"  # cannot win: throws the lowest


def test_it_announces_the_king_of_trumps() -> None:
    s = state("KC 8D 9D 7H 9S")
    m = choose(s, 1)
    assert m.action == "announce" and card_of(s, m) == "KC"


def _win_rate(games: int, target: int = 5) -> float:
    config = GAME.config(2, {"target": target})
    wins = 0
    for seed in range(games):
        bot = seed % 2
        players = [RandomPolicy(), RandomPolicy()]
        players[bot] = ClassicBot()
        played = play_game(GAME, config, PlainDealer(2, SeededRng(seed)), players, random.Random(seed))
        wins += played.result.winner == bot
    return wins / games


def test_the_classic_bot_beats_random_by_a_clear_margin() -> None:
    assert _win_rate(60) >= 0.75
