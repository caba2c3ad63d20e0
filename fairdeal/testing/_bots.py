"""Measuring a bot against others: seeded games with the plain dealer, win rates with intervals and
the CPU each side spends a decision (:func:`match_bots`)."""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core.dealer import PlainDealer
from fairdeal.core.rng import SeededRng
from fairdeal.core.rules import Game, GameState, Move, Policy
from fairdeal.core.runner import play_game


@dataclass
class Timed:
    """A policy whose CPU time is kept for every decision with a choice."""

    inner: Policy
    times: list[float] = field(default_factory=list)

    def choose(
        self, game: Game[Any], state: GameState, player: int, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        if len(moves) < 2:
            return self.inner.choose(game, state, player, list(moves), rng)
        start = time.process_time()
        move = self.inner.choose(game, state, player, list(moves), rng)
        self.times.append(time.process_time() - start)
        return move


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


@dataclass
class Match:
    """How a bot did: games won, lost and drawn (nobody won), and each side's CPU a decision."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    mine: list[float] = field(default_factory=list)  # seconds a decision with a choice, the bot's
    theirs: list[float] = field(default_factory=list)  # and the others'

    @property
    def decided(self) -> int:
        return self.wins + self.losses

    @property
    def rate(self) -> float:
        """The bot's share of the decided games."""
        return self.wins / self.decided if self.decided else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson interval of :attr:`rate`."""
        return wilson(self.wins, self.decided)

    def summary(self) -> str:
        low, high = self.interval
        return (
            f"won {self.wins}/{self.decided} decided = {self.rate:.1%}, 95% interval {low:.1%} to "
            f"{high:.1%} ({self.draws} drawn); CPU a decision: {times_text(self.mine)} (the bot), "
            f"{times_text(self.theirs)} (the others)"
        )


def times_text(times: Sequence[float]) -> str:
    """Median and 90th percentile of decision times, in words."""
    if not times:
        return "no decisions with a choice"
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median {statistics.median(ordered) * 1000:.0f} ms, p90 {p90 * 1000:.0f} ms ({len(ordered)})"


def match_bots(
    game: Game[Any],
    players: int,
    bot: Callable[[], Policy],
    others: Callable[[], Policy],
    seeds: Iterable[int] = range(100),
    options: Mapping[str, object] | None = None,
    *,
    progress: Callable[[int, Match], None] | None = None,
) -> Match:
    """Play ``bot()`` against ``others()`` in every other seat, one seeded game with the plain dealer
    per seed, the bot's seat going round the table (seed % players); count its wins, losses and
    draws, and time each side's decisions. A bot with an ``observe(event, replicas)`` method is
    shown every event of its games (a bot that may see more than a seat does, for a ceiling)."""
    config = game.config(players, dict(options or {}))
    m = Match()
    for i, seed in enumerate(seeds):
        seat = seed % players
        mine, theirs = Timed(bot()), Timed(others())
        policies: list[Policy] = [theirs] * players
        policies[seat] = mine
        observe = getattr(mine.inner, "observe", None)
        played = play_game(
            game,
            config,
            PlainDealer(players, SeededRng(seed)),
            policies,
            random.Random(seed),
            observe=observe,
        )
        winner = played.result.winner
        m.wins += winner == seat
        m.draws += winner is None
        m.losses += winner is not None and winner != seat
        m.mine += mine.times
        m.theirs += theirs.times
        if progress is not None:
            progress(i + 1, m)
    return m
