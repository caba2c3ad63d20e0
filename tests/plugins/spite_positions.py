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
