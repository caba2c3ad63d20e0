"""Exact values in a world: alpha-beta over the rest of a two-player game whose world holds no
more luck, within a budget of nodes.

In a world (:func:`fairdeal.core.worlds.sample_world`) every card is known, but a card no
seat knows (the talon, a pile nobody may look at) was made up by the sampler: a line that
shows one is luck, not a choice, and a search that took it as known would play as if it
could see the future. So what is left of a world is a game of perfect information only as far
as every card still to be shown is known to some seat, and no joint random choice and no
reshuffle is to come. :func:`exact_values` then plays every line out with minimax — each seat
picks what is best for it, the values being the seats' shares of the win (or the game's
``outlook``) — and gives each candidate move its exact value. A tree bigger than the budget,
or luck ahead on any line, gives None: the caller plays out instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Generic

from .playout import score, settle
from .rules import Auto, Decide, Game, Move, Over, S


class _TooBig(Exception):
    """The tree is bigger than the budget, or luck is still to come."""


def exact_values(
    game: Game[S], world: S, player: int, candidates: Sequence[Move], nodes: int
) -> list[float] | None:
    """Each candidate's exact value for ``player`` (its share of the win) in the all-seeing
    ``world`` of a two-player game, or None when that cannot be told within ``nodes`` decisions."""
    if world.table.players != 2:
        return None
    table = world.table
    seats = range(table.players)
    luck = frozenset(t for t in table.all_tokens() if not any(table.knows(p, t) for p in seats))
    search = _Search(game, player, luck, nodes)
    try:
        return [search.value(game.apply(world, player, m), -1.0, 2.0) for m in candidates]
    except _TooBig:
        return None


class _Search(Generic[S]):
    def __init__(self, game: Game[S], me: int, luck: frozenset[int], nodes: int) -> None:
        self.game, self.me, self.luck, self.left = game, me, luck, nodes
        self.outlook = type(game).outlook is not Game.outlook

    def value(self, state: S, alpha: float, beta: float) -> float:
        """``state``'s minimax value for :attr:`me`, exact within ``(alpha, beta)``."""
        game = self.game
        while True:
            table = state.table
            if table.pending_shuffles():
                raise _TooBig
            reveals = table.requirements()
            if reveals:
                if any(r.token in self.luck for r in reveals):
                    raise _TooBig  # a card nobody knew comes into view: luck, not a choice
                settle(table, _NO_LUCK)
            if self.outlook:
                chances = game.outlook(state)
                if chances is not None:
                    return chances[self.me]
            step = game.next_step(state)
            if isinstance(step, Over):
                return score(step.result, self.me)
            if isinstance(step, Auto):
                state = game.advance(state)
                continue
            if not isinstance(step, Decide):  # a joint random choice
                raise _TooBig
            break
        self.left -= 1
        if self.left < 0:
            raise _TooBig
        p = step.player
        if p == self.me:
            best = -1.0
            for m in game.legal_moves(state, p):
                best = max(best, self.value(game.apply(state, p, m), alpha, beta))
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
            return best
        worst = 2.0
        for m in game.legal_moves(state, p):
            worst = min(worst, self.value(game.apply(state, p, m), alpha, beta))
            beta = min(beta, worst)
            if alpha >= beta:
                break
        return worst


#: settle() is given a generator for its reshuffles; here there are none (checked first).
_NO_LUCK = random.Random(0)

__all__ = ["exact_values"]
