"""What the ``expert`` bot needs of Spite & Malice: which moves are alike, and a position's worth.

A game runs to a few hundred moves, too long to play out at every decision, so the expert's
playouts stop at a horizon (:data:`SEARCH`) and :func:`chances` guesses the rest from the two
payoff piles at the start of a turn. The guess is a logistic fit to 21,404 turn starts of 300
single games the planner played against itself (seeds 5000..5299):
``P(the seat to move wins) = 1 / (1 + exp(-(0.06 + 1.23 (b - a) / sqrt(a + b))))``, ``a`` the
cards left in its payoff pile and ``b`` in the other's. In a match of several games it guesses
the current game, which is what both seats play for.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

from fairdeal import Move, Search

from .bots import stack_ranks
from .layout import CENTRE_INDEX, SIDE_INDEX, payoff
from .state import Phase, SpiteState

#: The expert's playouts: the rest of its turn and the other's reply, then the guess; the
#: planner's choice stands unless another is clearly better. Against the planner, single games:
#: 57.3 % of 185 decided (50.1-64.2 %), a median of 230-265 ms a decision (bench/bots.py).
SEARCH = Search(playouts=120, horizon=8, doubt=1.5, tree=False)
MOVER = 0.06
LEAD = 1.23


def alike(state: SpiteState, player: int, move: Move) -> Hashable:
    """Suits play no part and centre stacks of one value are the same choice: a move is what it
    takes (the payoff top, a side stack by its ranks, a hand card by its rank) and where it goes
    (a centre stack by its value, a side stack by its ranks)."""
    t = state.table
    token, dest = move.args
    if not isinstance(token, int) or not isinstance(dest, str):
        return move
    card = t.card(token)
    rank = card.rank if card is not None else 0
    src = t.zone_of(token)
    if src == payoff(player):
        what: Hashable = ("payoff", rank)
    elif src in SIDE_INDEX:
        what = ("side", stack_ranks(t, src))
    else:
        what = ("hand", rank)
    if dest in CENTRE_INDEX:
        return (move.action, what, t.size(dest))
    return (move.action, what, stack_ranks(t, dest))


def chances(state: SpiteState) -> tuple[float, float] | None:
    """Each seat's chance of winning, guessed at the start of a turn (before its draw) from the
    payoff piles (see the module docstring); None elsewhere."""
    if state.phase is not Phase.PLAY or state.filled:
        return None
    t = state.table
    mover = state.turn
    a, b = t.size(payoff(mover)), t.size(payoff(1 - mover))
    if a + b == 0:
        return None
    p = 1.0 / (1.0 + math.exp(-(MOVER + LEAD * (b - a) / math.sqrt(a + b))))
    return (p, 1.0 - p) if mover == 0 else (1.0 - p, p)
