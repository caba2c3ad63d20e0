"""Find over the real protocol: the holder of a card shows it; a card already known to everyone in a
hand is found with nobody asked."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from fairdeal import Card, Decide, Find, Game, GameState, Move, Over, Result, Suit, Table, Zone
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.testing import Stepper, check_game

ACE_OF_CLUBS = Card(1, Suit.CLUBS)


@dataclass(frozen=True)
class S(GameState):
    shown: bool = False
    holder: int | None = None
    done: bool = False


class ShowThenFind(Game[S]):
    """Seat 0 shows its hand or keeps it, then whoever holds the A♣ is found and ends the game."""

    name, api, min_players, max_players = "show-then-find", 3, 2, 2
    rules = "A test game."
    deck = tuple(Card(r, s) for s in (Suit.CLUBS, Suit.DIAMONDS) for r in (1, 2))
    zones = (Zone.hand("hand0", 0), Zone.hand("hand1", 1), Zone.hidden("deck"))

    def setup(self, config, table: Table) -> S:  # type: ignore[no-untyped-def]
        table.deal("deck", "hand0", 2)
        table.deal("deck", "hand1", 2)
        return S(table)

    def next_step(self, state: S):  # type: ignore[no-untyped-def]
        if state.done:
            return Over(Result(state.holder, (0, 0), "found"))
        if not state.shown:
            return Decide(0, "to show a hand or not")
        return Find(ACE_OF_CLUBS, ("hand0", "hand1"), "who holds the A♣")

    def legal_moves(self, state: S, player: int) -> list[Move]:
        return [Move("show"), Move("keep")]

    def apply(self, state: S, player: int, move: Move) -> S:
        s = state.copy()
        if move.action == "show":
            s.table.turn_up("hand0")
        return s.but(shown=True)

    def on_found(self, state: S, seat: int | None) -> S:
        return state.but(holder=seat, done=True)


class Always:
    def __init__(self, action: str) -> None:
        self.action = action

    def choose(self, game, state, player, moves, rng):  # type: ignore[no-untyped-def]
        return next(m for m in moves if m.action == self.action)


@pytest.mark.parametrize("action", ["show", "keep"])
def test_the_holder_is_found_and_a_card_known_to_all_asks_nobody(action: str) -> None:
    game = ShowThenFind()
    check_game(game, 2, seeds=range(6), policies=[Always(action), Always(action)])
    for seed in range(6):
        t = Stepper(game, 2, seed, policies=[Always(action), Always(action)])
        t.finish()
        holder = t.seats[0].result.winner
        kinds = [decode_envelope(e).kind for e in t.log]
        truth = next(
            p for p in range(2) for c in t.seats[p].view().table.cards(f"hand{p}") if c == ACE_OF_CLUBS
        )
        assert holder == truth
        asked = "deck.find" in kinds
        assert asked == (action == "keep" or holder == 1), (action, holder, kinds)
        assert {s.verdict.fair for s in t.everyone} == {True}
