"""The expert against each game's strongest bot: win rates with 95 % intervals, time per decision.

    nice -n 19 .venv/bin/python bench/bots.py [--game ecarte|snatch|spite-malice|crazy-eights ...]
        [--games 150] [--playouts N] [--first-seed 0]

Seeded games with the plain dealer, the expert in seat 0 in even games and seat 1 in odd ones:

* Écarté (a match to 5): the expert, its playouts played by the classic bot, against it;
* Snatch!, two players: the expert (playouts by shrewd) against shrewd;
* Spite & Malice, single games (target=1, max_games=1): the expert (playouts by the planner)
  against the planner;
* Crazy Eights (``examples/``), two players, as a game with no bot of its own: the expert
  with random playouts against random.

The expert plays with each game's own search (``Game.search``: Écarté 1,000 playouts, Spite &
Malice 120 with a horizon and doubt, Snatch! 240, these three flat; Crazy Eights 240 of the
tree search) unless ``--playouts`` or ``--search tree|flat`` says otherwise.

``--ceiling`` shows the expert, at every decision, the cards in the other seats' hands (OWNER
zones; a stock nobody sees is still sampled): not fair play, but what seeing them is worth — the
level no fair player can be expected to pass.

For each it prints wins, losses and draws, the expert's share of the decided games with its
Wilson 95 % interval, against the goal, and each side's CPU time per decision (median and
90th percentile over the decisions with a choice). The process's CPU time is what is
measured, so other load on the machine moves it little.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fairdeal import Game, GameState, Move, Policy, RandomPolicy, Search, Visibility
from fairdeal.core.dealer import PlainDealer, Reveal
from fairdeal.core.replica import Replica
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import play_game
from fairdeal.core.search import Expert
from fairdeal.core.table import EVERYONE

ROOT = Path(__file__).resolve().parent.parent


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


@dataclass
class Seeing:
    """A policy shown the cards in the other seats' hands before it decides (``--ceiling``)."""

    inner: Policy
    replicas: dict[int | None, Replica[Any]] = field(default_factory=dict)  # the runner's, as they stand

    def observe(self, event: object, replicas: dict[int | None, Replica[Any]]) -> None:
        self.replicas = replicas

    def choose(
        self, game: Game[Any], state: GameState, player: int, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        truth = self.replicas[EVERYONE].state.table
        table = state.table.copy()
        for zone in table.specs.values():
            if zone.visibility is Visibility.OWNER and zone.owner != player:
                for token in table.tokens(zone.name):
                    if table.card(token) is None:
                        table.learn(Reveal(token, player), truth.card(token))
        return self.inner.choose(game, state.with_table(table), player, list(moves), rng)


@dataclass(frozen=True)
class Matchup:
    game: Callable[[], Game[Any]]
    options: dict[str, object]
    players: int
    expert: Callable[[int | None], Policy]
    opponent: Callable[[], Policy]
    against: str
    goal: float


def _crazy_eights() -> Game[Any]:
    sys.path.insert(0, str(ROOT / "examples" / "crazy-eights"))
    from fairdeal_crazy_eights import CrazyEights  # type: ignore[import-not-found]

    game: Game[Any] = CrazyEights()
    return game


def matchups() -> dict[str, Matchup]:
    from fairdeal.plugins.ecarte import ClassicBot, Ecarte
    from fairdeal.plugins.snatch import Shrewd, SnatchGame
    from fairdeal.plugins.spite_malice import Planner, SpiteMalice

    def expert(rollout: Callable[[], Policy] | None) -> Callable[[int | None], Policy]:
        return lambda playouts: Expert(rollout, playouts) if playouts else Expert(rollout)

    return {
        "ecarte": Matchup(Ecarte, {}, 2, expert(ClassicBot), ClassicBot, "classic", 0.60),
        "snatch": Matchup(SnatchGame, {}, 2, expert(Shrewd), Shrewd, "shrewd", 0.60),
        "spite-malice": Matchup(
            SpiteMalice, {"target": 1, "max_games": 1}, 2, expert(Planner), Planner, "planner", 0.55
        ),
        "crazy-eights": Matchup(_crazy_eights, {}, 2, expert(None), RandomPolicy, "random", 0.85),
    }


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def _times(times: list[float]) -> str:
    if not times:
        return "no decisions with a choice"
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    median = statistics.median(ordered)
    return f"median {median * 1000:.0f} ms, p90 {p90 * 1000:.0f} ms ({len(ordered)} decisions)"


def run(
    name: str,
    m: Matchup,
    games: int,
    first: int,
    playouts: int | None,
    progress: bool = False,
    search: str | None = None,
    ceiling: bool = False,
) -> bool:
    game = m.game()
    if search is not None:  # the same game, searched the other way (no doubt: a flat search's only)
        own = game.search
        tree = search == "tree"
        replace = Search(own.playouts, own.horizon, 0.0 if tree else own.doubt, tree)
        game = type(f"{type(game).__name__}Searched", (type(game),), {"search": replace})()
    config = game.config(m.players, dict(m.options))
    probe = m.expert(playouts)
    rollout = probe.rollout if isinstance(probe, Expert) else None
    wins = losses = draws = 0
    mine: list[float] = []
    theirs: list[float] = []
    start = time.monotonic()
    for seed in range(first, first + games):
        seat = seed % 2
        seeing = Seeing(m.expert(playouts)) if ceiling else None
        expert, other = Timed(seeing or m.expert(playouts)), Timed(m.opponent())
        policies: list[Policy] = [other] * m.players
        policies[seat] = expert
        played = play_game(
            game,
            config,
            PlainDealer(m.players, SeededRng(seed)),
            policies,
            random.Random(seed),
            observe=seeing.observe if seeing else None,
        )
        winner = played.result.winner
        wins += winner == seat
        draws += winner is None
        losses += winner is not None and winner != seat
        mine += expert.times
        theirs += other.times
        if progress:
            done = seed - first + 1
            print(
                f"  [{done}/{games}] +{wins} -{losses} ={draws}; expert {_times(mine)}",
                file=sys.stderr,
                flush=True,
            )
    decided = wins + losses
    low, high = wilson(wins, decided)
    rate = wins / decided if decided else 0.0
    ok = decided > 0 and rate >= m.goal
    print(
        f"{name}: expert ({'flat' if game.search.flat_with(rollout) else 'tree'} search"
        f"{', shown the other hands' if ceiling else ''}) vs {m.against}, "
        f"{games} seeded games (seeds {first}..{first + games - 1}), seats alternating"
    )
    print(f"  wins {wins}, losses {losses}, draws {draws}")
    print(
        f"  expert won {wins}/{decided} decided = {rate:.1%}, 95% interval {low:.1%} to {high:.1%} "
        f"(±{(high - low) / 2:.1%}); goal {m.goal:.0%}: {'PASS' if ok else 'FAIL'}"
    )
    print(f"  expert CPU per decision: {_times(mine)}")
    print(f"  {m.against} CPU per decision: {_times(theirs)}")
    print(f"  [{time.monotonic() - start:.0f} s]", flush=True)
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(matchups()), help="default: every game")
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--playouts", type=int, default=None, help="the expert's budget (default: its own)")
    parser.add_argument("--progress", action="store_true", help="a line on stderr after every game")
    parser.add_argument("--search", choices=["tree", "flat"], help="default: the game's own")
    parser.add_argument(
        "--ceiling", action="store_true", help="show the expert the other seats' hands (not fair play)"
    )
    args = parser.parse_args(argv)
    table = matchups()
    results = [
        run(n, table[n], args.games, args.first_seed, args.playouts, args.progress, args.search, args.ceiling)
        for n in args.game or sorted(table)
    ]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
