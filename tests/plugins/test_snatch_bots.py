"""Snatch! bots: what ``never-snatch`` and ``shrewd`` decide, and a seeded evaluation."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from fairdeal import Card, Decide, Game, GameState, Move, Policy, RandomPolicy, Suit, parse_card
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import play_game
from fairdeal.plugins.snatch import PASS, SNATCH, TURN, NeverSnatch, Shrewd, SnatchGame, SnatchState
from fairdeal.plugins.snatch.state import PLAYED, TRICK, pile
from fairdeal.testing import build_table, settle

GAME = SnatchGame()
S, D = Suit.SPADES, Suit.DIAMONDS
BENCH = Path(__file__).resolve().parents[2] / "bench" / "snatch_bot.py"


def cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split()]


def scenario(*piles: str, steps: str, opener: int = 0) -> SnatchState:
    """Piles written top first; ``steps`` as ``seat:move`` or ``judge``, run in order."""
    n = len(piles)
    contents = {pile(p): cards(text)[::-1] for p, text in enumerate(piles)}
    state = SnatchState(build_table(GAME.zones_for(GAME.config(n)), n, contents), opener=opener)
    for what in steps.split():
        if what == "judge":
            state = settle(GAME.advance(state))
        else:
            seat, _, action = what.partition(":")
            state = settle(
                GAME.apply(state, int(seat), next(m for m in (TURN, SNATCH, PASS) if m.action == action))
            )
    return state


def decide(policy: Policy, state: SnatchState) -> str:
    """What ``policy`` picks at a snatch offer, seeing the table as the deciding seat does."""
    step = GAME.next_step(state)
    assert isinstance(step, Decide)
    moves = list(GAME.legal_moves(state, step.player))
    assert moves == [SNATCH, PASS]
    view = state.with_table(state.table.masked(step.player))
    return policy.choose(GAME, view, step.player, moves, random.Random(0)).action


def test_never_snatch_turns_and_passes() -> None:
    state = scenario("AS 9H 8H", "QS 7H 2H", steps="0:turn 1:turn judge 0:turn")
    assert decide(NeverSnatch(), state) == "pass"
    turn = scenario("AS 9H 8H", "QS 7H 2H", steps="0:turn")
    assert NeverSnatch().choose(GAME, turn, 1, [TURN], random.Random(0)) == TURN


def test_shrewd_snatches_when_the_price_leaves_it_cards_and_the_trick_ends_nothing() -> None:
    state = scenario("AS 9H 8H 7D", "QS 7H 2H JD", steps="0:turn 1:turn judge 0:turn")  # 9♥ alone
    assert decide(Shrewd(), state) == "snatch"


def test_shrewd_never_pays_its_whole_pile() -> None:
    state = scenario("AS QH JH", "7H 9C", "8D 10C JC", steps="0:turn 1:turn")  # price 1, 1 card left
    assert decide(Shrewd(), state) == "pass"
    last = scenario("AS QH JH", "7H", "8D 10C JC", steps="0:turn 1:turn")  # its own last card
    assert decide(Shrewd(), last) == "pass"


def test_shrewd_does_not_hand_the_game_to_a_player_whose_last_card_lies_in_the_trick() -> None:
    # Seat 0's last card Q♥ takes the trick as it stands (it goes out); 7♣ snatching would make
    # clubs trump, 7♣ would take, and seat 0 would win.
    state = scenario("AS QH", "QS 7C 8D 9D 10D", steps="0:turn 1:turn judge 0:turn 0:pass 1:turn")
    assert state.table.size(pile(0)) == 0
    assert decide(Shrewd(), state) == "pass"


def test_shrewd_snatches_to_make_a_last_card_take_its_trick() -> None:
    # A♦ takes as it stands and seat 0 (last card 9♥, not the strongest) would win; snatching
    # with 7♥ makes hearts trump, 9♥ takes, and seat 0 is out instead.
    state = scenario(
        "JS 9H",
        "QS 7H 8D 9D 10D",
        "AS AD 8C 9C",
        steps="0:turn 1:turn 2:turn judge 2:turn 0:turn 0:pass 1:turn",
        opener=0,
    )
    assert state.table.size(pile(0)) == 0
    assert decide(Shrewd(), state) == "snatch"


def midtrick(played: str, first: str) -> SnatchState:
    """Three players, spades trump (the first card is in ``played``), seat 0 turned Q♥, seat 1
    just turned 7♦ (it may snatch, 1 card), seat 2 is still to turn its last card."""
    contents = {
        PLAYED: cards(f"{first} {played}"),
        TRICK: cards("QH 7D"),
        pile(0): cards("2C 2H 7C"),
        pile(1): cards("8C 9C 10C"),
        pile(2): cards("JC"),
    }
    table = build_table(GAME.zones_for(GAME.config(3)), 3, contents)
    return SnatchState(table, opener=0, order=(0, 1), window=True, first=table.tokens(PLAYED)[0], count=0)


def test_shrewd_weighs_the_last_card_still_to_come() -> None:
    # Every spade and every Ace is gone: as it stands, seat 2's last card cannot take the trick,
    # so seat 2 wins for sure. With diamonds trump, any diamond above 7 takes: snatch.
    gone = midtrick("AS QS JS 10S 9S 8S 7S AH AD AC", first="2S")
    view = gone.with_table(gone.table.masked(1))
    assert Shrewd().others_win(view, cards("QH 7D"), S, D, random.Random(1))[0] == 1.0
    assert decide(Shrewd(), gone) == "snatch"
    # Now every diamond above 7 is gone instead: after a snatch seat 2 could never take the
    # trick (a sure win for it), while spades trump leaves it some chance to go out: pass.
    diamonds = midtrick("8D 9D 10D JD QD AD", first="2S")
    view = diamonds.with_table(diamonds.table.masked(1))
    assert Shrewd().others_win(view, cards("QH 7D"), S, D, random.Random(1))[1] == 1.0
    assert decide(Shrewd(), diamonds) == "pass"


def _load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("snatch_bot", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shrewd_beats_a_fair_share_by_a_clear_margin() -> None:
    bench = _load_bench()
    seeds = range(1000, 1200)
    for opponent in (RandomPolicy, NeverSnatch):
        wins, _, games = bench.evaluate(opponent, seeds, 4)
        assert wins / games > 0.40, (opponent.__name__, wins, games)


def test_the_evaluation_is_not_rigged_a_never_snatch_seat_gets_about_a_fair_share() -> None:
    bench = _load_bench()
    wins, _, games = bench.evaluate(NeverSnatch, range(1000, 1100), 4, bot=NeverSnatch)
    assert 0.1 < wins / games < 0.4


def test_shrewd_does_bounded_work_for_a_snatch() -> None:
    offered: list[tuple[SnatchState, int]] = []

    class Recording(Shrewd):
        def choose(
            self, game: Game, state: GameState, player: int, moves: Sequence[Move], rng: random.Random
        ) -> Move:
            if SNATCH in moves and isinstance(state, SnatchState):
                offered.append((state, player))
            return super().choose(game, state, player, moves, rng)

    for seed in range(6):
        play_game(
            GAME,
            GAME.config(10),
            PlainDealer(10, SeededRng(seed)),
            [Recording() for _ in range(10)],
            random.Random(seed),
        )
    assert len(offered) > 20
    # Its work is bounded by design: at most two judgements of the trick per sample (the time
    # it takes is measured in bench/snatch_bot.py, not here).
    bot, rng = Shrewd(), random.Random(0)
    calls = 0
    real = Shrewd._wins

    def counting(*args: Any) -> float:
        nonlocal calls
        calls += 1
        return real(*args)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Shrewd, "_wins", staticmethod(counting))
        for state, seat in offered:
            calls = 0
            bot.snatch_pays(state, seat, rng)
            assert calls <= 2 * bot.samples
