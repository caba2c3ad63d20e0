"""Spite & Malice positions built card by card, for the tests of its planner and its search."""

from __future__ import annotations

from typing import Any

from fairdeal import Card, parse_card
from fairdeal.plugins.spite_malice import Phase, SpiteMalice, SpiteState
from fairdeal.plugins.spite_malice.layout import CENTRES, SIDES, STOCK, hand, payoff
from fairdeal.testing import build_table, settle

GAME = SpiteMalice()


def cards(text: str) -> list[Card]:
    """``"4C 10D"`` as cards."""
    return [parse_card(x) for x in text.split()]


def turn_view(
    hand0: str,
    centres: tuple[str, str, str],
    pay0: str = "QS",
    pay1: str = "JD",
    sides0: tuple[str, ...] = ("", "", "", ""),
    **fields: Any,
) -> SpiteState:
    """Seat 0's own view in the middle of its turn (or as ``fields`` say): its hand, the centre
    stacks, the payoff piles (top last, turned up) and its side stacks; seat 1 holds 8♦ 8♠ and
    the stock six cards."""
    contents = {
        hand(0): cards(hand0),
        hand(1): cards("8D 8S"),
        payoff(0): cards(pay0),
        payoff(1): cards(pay1),
        STOCK: cards("7H 7C 7S 7D 9H 9D"),
    }
    contents.update({z: cards(sides0[i]) for i, z in enumerate(SIDES[0])})
    contents.update({c: cards(centres[i]) for i, c in enumerate(CENTRES)})
    table = build_table(list(GAME.zones_for(GAME.config(2))), 2, contents)
    for p in range(2):
        table.flip(table.top(payoff(p)) or -1)
    state = settle(SpiteState(table, **{"phase": Phase.PLAY, "turn": 0, "filled": True, **fields}))
    return state.with_table(state.table.masked(0))


def mid_turn() -> SpiteState:
    """Seat 0 to play game 3 at 12 to 30: 9♣ 7♦ in hand, 3♠ on its payoff pile, 5♠ 6♠ on its first
    side stack; K♠ tops centre 1 (three cards), seat 1 holds Q♠ with J♦ on its payoff pile."""
    zones = list(GAME.zones_for(GAME.config(2)))
    c = cards("AH 2H KS 9C 7D QS 4C 3S 10H JD 5S 6S")
    contents = {
        hand(0): [c[3], c[4]],
        hand(1): [c[5]],
        payoff(0): [c[6], c[7]],
        payoff(1): [c[8], c[9]],
        SIDES[0][0]: [c[10], c[11]],
        CENTRES[0]: [c[0], c[1], c[2]],
        STOCK: cards("8D") * 6,
    }
    table = build_table(zones, 2, contents)
    for p in range(2):
        table.flip(table.top(payoff(p)) or -1)
    return settle(SpiteState(table, phase=Phase.PLAY, turn=0, filled=True, scores=(12, 30), game=3))
