"""Information-set Monte Carlo tree search (single observer): one tree over what the seat to
move can know, grown by playing sampled worlds down it.

Each iteration samples a world consistent with the seat's view
(:class:`fairdeal.core.worlds.Worlds`) and walks it down the tree from the root. At each
decision with a choice the moves legal *in that world* are the ones on offer: a child seen in
many worlds is weighed by how often it was on offer (its *availability*), and the move is
chosen by UCB1 over the children on offer, each for the seat that moves (so the others play
to win too), until a move not yet in the tree is met; it is added, the world is played out
(:func:`fairdeal.core.playout.playout`, by the rollout policy) and every node on the way
learns what its mover got. The root plays its most visited move.

Moves are told apart by what the searching seat would see: its own by the game's
:meth:`~fairdeal.core.rules.Game.alike`, another seat's by its action and arguments with the
card it takes (:meth:`~fairdeal.core.rules.Game.move_parts`) named by identity (``play 7♥``
whichever token held it). Forced moves, joint random choices and reveals are played without
making a node.

Like :class:`~fairdeal.core.search.Expert`, it reads only the view and its ``rng``, counts
playouts rather than reading a clock, and asks ``stop()`` between iterations.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Generic

from .playout import playout, to_decision
from .rules import Decide, Game, Move, Policy, S
from .worlds import Worlds

#: UCB1's exploration constant for values in [0, 1].
EXPLORE = 0.7


def never() -> bool:
    """A ``stop`` that never stops a search."""
    return False


def _unjudged(state: object) -> None:
    return None


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[Hashable, _Node] = {}

    def ucb(self, explore: float) -> float:
        return self.total / self.visits + explore * math.sqrt(math.log(self.avail) / self.visits)


def tree_search(
    game: Game[S],
    state: S,
    player: int,
    kinds: dict[Hashable, Move],
    favourite: Hashable,
    rollout: Policy,
    rng: random.Random,
    *,
    playouts: int,
    max_moves: int | None = None,
    stop: Callable[[], bool] = never,
    explore: float = EXPLORE,
) -> Hashable:
    """The kind of move to play among ``kinds`` (by the game's ``alike`` on the view
    ``state``), ``favourite`` (the rollout policy's own choice) winning a tie of visits:
    ``playouts`` iterations, fewer if ``stop()`` turns true."""
    root = _Node()
    root.children = {k: _Node() for k in kinds}
    walk = _Walk(game, player, root, kinds, [rollout] * state.table.players, rng, max_moves, explore)
    sampler = Worlds(state)
    for _ in range(playouts):
        if stop():
            break
        walk.iterate(sampler.sample(rng))
    return max(kinds, key=lambda k: (root.children[k].visits, k == favourite))


class _Walk(Generic[S]):
    """One search's fixed parts, and one iteration down the tree."""

    def __init__(
        self,
        game: Game[S],
        player: int,
        root: _Node,
        kinds: dict[Hashable, Move],
        policies: list[Policy],
        rng: random.Random,
        max_moves: int | None,
        explore: float,
    ) -> None:
        self.game, self.player, self.root, self.kinds = game, player, root, kinds
        self.policies, self.rng, self.max_moves, self.explore = policies, rng, max_moves, explore
        self.limit = game.max_moves if max_moves is None else max_moves
        judged = type(game).outlook is not Game.outlook
        self.judge: Callable[[S], Sequence[float] | None] = game.outlook if judged else _unjudged

    def iterate(self, world: S) -> None:
        """Walk ``world`` (all-seeing; changed) down the tree, add a node, play it out, learn."""
        game, rng = self.game, self.rng
        path: list[tuple[_Node, int]] = []
        node, s = self.root, world
        values: Sequence[float] | None = None
        for _ in range(self.limit):
            s, step = to_decision(game, s, rng, self.judge)
            if not isinstance(step, Decide):
                values = step
                break
            p = step.player
            offered = self.kinds if node is self.root else self._offered(s, p)
            if len(offered) == 1:
                s = game.apply(s, p, next(iter(offered.values())))
                continue
            for k in offered:
                if k in node.children:
                    node.children[k].avail += 1
            fresh = [k for k in offered if k not in node.children or not node.children[k].visits]
            if fresh:
                k = fresh[rng.randrange(len(fresh))]
                child = node.children.setdefault(k, _Node())
                child.avail = max(child.avail, 1)
                path.append((child, p))
                s = game.apply(s, p, offered[k])
                values = playout(
                    game, s, self.policies, rng, max_moves=self.max_moves, horizon=game.search.horizon
                )
                break
            k = max(offered, key=lambda k: node.children[k].ucb(self.explore))
            node = node.children[k]
            path.append((node, p))
            s = game.apply(s, p, offered[k])
        if values is None:  # the walk outran the game's bound: nobody's
            values = [0.5] * world.table.players
        for n, mover in path:
            n.visits += 1
            n.total += values[mover]

    def _offered(self, s: S, p: int) -> dict[Hashable, Move]:
        """The moves legal for ``p`` in the world ``s``, one of each kind the searching seat tells
        apart: its own by ``alike``; another's as :meth:`_shown`."""
        options = self.game.legal_moves(s, p)
        if p == self.player:
            return {self.game.alike(s, p, m): m for m in reversed(options)}
        keyed: dict[Hashable, Move] = {}
        for m in options:
            keyed.setdefault(self._shown(s, p, m), m)
        return keyed

    def _shown(self, s: S, p: int, m: Move) -> Hashable:
        """Another seat's move as the searching seat tells it apart: its action and arguments,
        the card it takes (the game's ``move_parts``) named by its identity in this world rather
        than by its token. Other numbers (a pile's index) stay numbers, even where one is also
        some hidden token's id."""
        token = self.game.move_parts(s, p, m).card
        if token is None:
            return (m.action, m.args)
        at = next((i for i, a in enumerate(m.args) if type(a) is int and a == token), None)
        if at is None:
            return (m.action, m.args)
        return (m.action, (*m.args[:at], s.table.card(token), *m.args[at + 1 :]))


__all__ = ["EXPLORE", "never", "tree_search"]
