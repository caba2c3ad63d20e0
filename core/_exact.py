"""Exact values in a world: alpha-beta over the rest of a two-player game whose world holds no
more luck, within a budget of nodes.

In a world (:func:`fairdeal.core.worlds.sample_world`) every card is known, so what is left of
a game is a game of perfect information as long as no joint random choice and no reshuffle is
still to come. :func:`exact_values` then plays every line out with minimax — each seat picks
what is best for it, the values being the seats' shares of the win (or the game's
``outlook``) — and gives each candidate move its exact value. A tree bigger than the budget,
a reshuffle or a random choice ahead gives None: the caller plays out instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .playout import score, settle
from .rules import Auto, Chance, Decide, Game, Move, Over, S


class _TooBig(Exception):
    """The tree is bigger than the budget, or luck is still to come."""


def exact_values(
    game: Game[S], world: S, player: int, candidates: Sequence[Move], nodes: int
) -> list[float] | None:
    """Each candidate's exact value for ``player`` (its share of the win) in the all-seeing
    ``world`` of a two-player game, or None when that cannot be told within ``nodes`` decisions."""
    if world.table.players != 2:
        return None
    budget = [nodes]
    outlook = type(game).outlook is not Game.outlook
    try:
        return [
            _value(game, game.apply(world, player, m), player, -1.0, 2.0, budget, outlook) for m in candidates
        ]
    except _TooBig:
        return None


def _value(
    game: Game[S], state: S, me: int, alpha: float, beta: float, budget: list[int], outlook: bool
) -> float:
    while True:
        table = state.table
        if table.pending_shuffles():
            raise _TooBig
        if table.requirements():
            settle(table, _NO_LUCK)  # reveals only: the world knows every card
        if outlook:
            chances = game.outlook(state)
            if chances is not None:
                return chances[me]
        step = game.next_step(state)
        if isinstance(step, Over):
            return score(step.result, me)
        if isinstance(step, Auto):
            state = game.advance(state)
            continue
        if isinstance(step, Chance) or not isinstance(step, Decide):
            raise _TooBig
        break
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooBig
    p = step.player
    moves = game.legal_moves(state, p)
    if p == me:
        best = -1.0
        for m in moves:
            best = max(best, _value(game, game.apply(state, p, m), me, alpha, beta, budget, outlook))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        return best
    worst = 2.0
    for m in moves:
        worst = min(worst, _value(game, game.apply(state, p, m), me, alpha, beta, budget, outlook))
        beta = min(beta, worst)
        if alpha >= beta:
            break
    return worst


#: settle() is given a generator for its reshuffles; here there are none (checked first).
_NO_LUCK = random.Random(0)

__all__ = ["exact_values"]
