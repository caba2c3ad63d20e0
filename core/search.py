"""The ``expert`` bot: a search for any game.

At a decision with more than one legal move, :class:`Expert` picks one move of each kind the
game's :meth:`~fairdeal.core.rules.Game.alike` tells apart, then searches: with the
information-set tree of :mod:`fairdeal.core.tree` when its playouts are random moves (a game
with no bot of its own) or the game's ``Search`` says ``tree=True``; flat when a bot plays
them, or the game says ``tree=False`` or has ``doubt`` (``search.flat_with(rollout)``), as
follows. The flat search

1. samples a world consistent with its own view (:func:`fairdeal.core.worlds.sample_world`:
   the cards it has not seen dealt at random where it cannot see, narrowed by what play has
   shown);
2. plays every candidate move (one of each kind :meth:`~fairdeal.core.rules.Game.alike` tells
   apart) in that same world, each followed by a playout to the end of the game (or to the
   game's :meth:`~fairdeal.core.rules.Game.outlook`, or past the game's horizon to its
   :meth:`~fairdeal.core.rules.Game.estimate`) with one and the same random seed — *paired*
   playouts, so two moves are compared on the same cards and the same luck, and the
   difference between them is far less noisy than either value;
3. repeats with fresh worlds, by successive halving: the budget is split into rounds, and
   after each round the worse half of the candidates is dropped, so the close calls get the
   most playouts;
4. plays the candidate with the best mean, the game's own bot's choice winning a tie — or,
   where the game has ``search.doubt``, that choice (never dropped then) unless the best beat
   it by more than ``doubt`` standard errors, world by world.

Playouts use the game's own bot (the ``rollout`` policy, each seat on its own view of the
world), or uniformly random moves for a game without one. The budget is a number of playouts
(the game's ``search.playouts`` unless the bot is given its own): the core reads no clock. A
caller may stop the search early with ``stop``, a function asked between playouts (a time
limit, a cancelled game: the driver's business); the best move found so far is then played.

The search reads only the view it is given and its ``rng``: the same view and the same random
stream give the same move, whatever the hidden cards are.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Hashable, Sequence
from functools import partial
from typing import Protocol, runtime_checkable

from .playout import playout
from .rules import BotSpec, Game, Move, Policy, RandomPolicy, S, Search
from .tree import never, tree_search
from .worlds import Worlds

#: Playouts per decision for a game that names no budget: a fraction of a second for a hand game.
PLAYOUTS = Search().playouts


#: The name the expert goes by, for every game (``--seat bot:expert``).
EXPERT = "expert"


@runtime_checkable
class Searching(Protocol):
    """A policy that thinks a while and can be stopped: ``search`` is ``choose`` with a ``stop()``
    it asks between steps of its work (the drivers run it off the event loop)."""

    def search(
        self,
        game: Game[S],
        state: S,
        player: int,
        moves: Sequence[Move],
        rng: random.Random,
        stop: Callable[[], bool] = never,
    ) -> Move: ...


class Expert:
    """The search bot: a tree or a flat search, as the game's ``search`` says (see the module
    docstring).

    ``rollout`` makes the policy the playouts use (default: random moves); ``playouts`` is the
    budget of one decision (default: the game's ``search.playouts``); ``max_moves`` bounds a
    playout (default: the game's own bound).
    """

    def __init__(
        self,
        rollout: Callable[[], Policy] | None = None,
        playouts: int | None = None,
        max_moves: int | None = None,
    ) -> None:
        self.rollout: Policy = rollout() if rollout is not None else RandomPolicy()
        self.playouts = playouts
        self.max_moves = max_moves

    def choose(self, game: Game[S], state: S, player: int, moves: Sequence[Move], rng: random.Random) -> Move:
        return self.search(game, state, player, moves, rng)

    def search(
        self,
        game: Game[S],
        state: S,
        player: int,
        moves: Sequence[Move],
        rng: random.Random,
        stop: Callable[[], bool] = never,
    ) -> Move:
        """The move to play (see the module docstring); ``stop()`` true ends the search at once."""
        distinct = list(dict.fromkeys(moves))
        if len(distinct) == 1:
            return distinct[0]
        favourite = self.rollout.choose(game, state.copy(), player, list(distinct), rng)
        kinds: dict[Hashable, Move] = {}
        for move in distinct:
            kinds.setdefault(game.alike(state, player, move), move)
        fav_kind = game.alike(state, player, favourite)
        kinds[fav_kind] = favourite
        candidates = list(kinds.values())
        if len(candidates) == 1:
            return favourite
        budget = self.playouts if self.playouts is not None else game.search.playouts
        if not game.search.flat_with(self.rollout):
            kind = tree_search(
                game,
                state,
                player,
                kinds,
                fav_kind,
                self.rollout,
                rng,
                playouts=budget,
                max_moves=self.max_moves,
                stop=stop,
            )
            return kinds[kind]
        horizon, doubt = game.search.horizon, game.search.doubt
        fav = candidates.index(favourite)
        tally = _Tally(len(candidates), fav, paired=bool(doubt))
        alive = list(range(len(candidates)))
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        policies = [self.rollout] * state.table.players
        spent = 0
        sampler = Worlds(state)
        for r in range(rounds):
            share = (budget - spent) // (rounds - r)
            worlds = max(1, share // len(alive))
            for _ in range(worlds):
                if stop():
                    return candidates[tally.best(alive, doubt)]
                world = sampler.sample(rng)
                seed = rng.getrandbits(64)
                values: dict[int, float] = {}
                for i in alive:
                    after = game.apply(world, player, candidates[i])
                    value = playout(
                        game, after, policies, random.Random(seed), max_moves=self.max_moves, horizon=horizon
                    )
                    values[i] = value[player]
                    spent += 1
                tally.add(values)
            if len(alive) > 1 and r < rounds - 1:
                alive.sort(key=lambda i: (-tally.mean(i), i != fav, i))
                kept = alive[: max(1, (len(alive) + 1) // 2)]
                if doubt and fav not in kept:
                    kept.append(fav)  # the yardstick the others are measured against
                alive = sorted(kept)
        return candidates[tally.best(alive, doubt)]


class _Tally:
    """The playouts' values of each candidate, and how each compared with the favourite's (the
    game's own bot's choice) in the worlds where both were played (only when ``paired``: a
    search with doubt reads those)."""

    def __init__(self, n: int, favourite: int, *, paired: bool) -> None:
        self.totals = [0.0] * n
        self.counts = [0] * n
        self.diffs: list[list[float]] = [[] for _ in range(n)]
        self.favourite = favourite
        self.paired = paired

    def add(self, values: dict[int, float]) -> None:
        """One world's values, by candidate."""
        fav = values.get(self.favourite) if self.paired else None
        for i, v in values.items():
            self.totals[i] += v
            self.counts[i] += 1
            if fav is not None:
                self.diffs[i].append(v - fav)

    def mean(self, i: int) -> float:
        return self.totals[i] / self.counts[i]

    def best(self, alive: list[int], doubt: float) -> int:
        """The candidate with the best mean, the favourite winning a tie; with ``doubt``, the
        favourite unless the best beat it by more than ``doubt`` standard errors, pair by pair."""
        tried = [i for i in alive if self.counts[i]]
        if not tried:
            return self.favourite
        best = max(tried, key=lambda i: (self.mean(i), i == self.favourite, -i))
        if not doubt or best == self.favourite:
            return best
        diffs = self.diffs[best]
        if len(diffs) < 2:
            return self.favourite
        gain = statistics.fmean(diffs)
        return best if gain > doubt * statistics.stdev(diffs) / math.sqrt(len(diffs)) else self.favourite


def expert_bot(game: str, rollout: BotSpec | None = None, playouts: int | None = None) -> BotSpec:
    """The expert for ``game``, its playouts played by the bot ``rollout`` (None: random moves),
    ``playouts`` a decision (None: the game's own budget)."""
    make = None if rollout is None or rollout.name == "random" else rollout.make
    how = f"with {rollout.name}" if make is not None and rollout is not None else "at random"
    return BotSpec(
        game,
        EXPERT,
        f"searches: plays each move out on deals its view allows, {how}",
        partial(Expert, make, playouts),
    )


__all__ = ["EXPERT", "PLAYOUTS", "Expert", "Searching", "expert_bot", "never"]
