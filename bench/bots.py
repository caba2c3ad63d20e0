"""The expert against each game's strongest bot: win rates with 95 % intervals, time per decision.

    nice -n 19 .venv/bin/python bench/bots.py [--game NAME ...] [--games 150] [--playouts N]
        [--first-seed 0] [--players N] [--against BOT] [--option name=value ...]

Seeded games with the plain dealer, the expert in seat 0 in even games and seat 1 in odd ones:

* Écarté (a match to 5): the expert, its playouts played by the classic bot, against it;
* Snatch!, two players: the expert (playouts by shrewd) against shrewd;
* Spite & Malice, single games (target=1, max_games=1): the expert (playouts by the planner)
  against the planner;
* Crazy Eights (``examples/``), two players, as a game with no bot of its own: the expert
  with random playouts against random;
* Hearts (``examples/``), four players, games to 30: the expert (playouts by careful) against
  three of the example's own careful bot (a fair share is 25 %);
* any other installed game (``--game NAME``, a plugin's): the expert, its playouts played by the
  game's default bot, against that bot (``--against BOT`` for another of its bots, ``random``
  included), with the game's fewest players (``--players N``) and its default options
  (``--option name=value``). The same measure is ``fairdeal.testing.match_bots`` for a plugin's
  own tests.

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
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fairdeal import Game, GameState, Move, Policy, RandomPolicy, Search, Visibility
from fairdeal.core.dealer import Reveal
from fairdeal.core.replica import Replica
from fairdeal.core.search import Expert
from fairdeal.core.table import EVERYONE
from fairdeal.testing import Match, match_bots, times_text

ROOT = Path(__file__).resolve().parent.parent


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


def _hearts() -> Game[Any]:
    sys.path.insert(0, str(ROOT / "examples" / "hearts"))
    from fairdeal_hearts import Hearts  # type: ignore[import-not-found]

    game: Game[Any] = Hearts()
    return game


def _careful() -> Policy:
    sys.path.insert(0, str(ROOT / "examples" / "hearts"))
    from fairdeal_hearts import Careful

    policy: Policy = Careful()
    return policy


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
        "hearts": Matchup(_hearts, {"target": 30}, 4, expert(_careful), _careful, "careful", 0.25),
    }


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
    probe = m.expert(playouts)
    rollout = probe.rollout if isinstance(probe, Expert) else None
    start = time.monotonic()

    def expert() -> Policy:
        return Seeing(m.expert(playouts)) if ceiling else m.expert(playouts)

    def step(done: int, so_far: Match) -> None:
        if progress:
            print(
                f"  [{done}/{games}] +{so_far.wins} -{so_far.losses} ={so_far.draws}; "
                f"expert {times_text(so_far.mine)}",
                file=sys.stderr,
                flush=True,
            )

    r = match_bots(game, m.players, expert, m.opponent, range(first, first + games), m.options, progress=step)
    low, high = r.interval
    ok = r.decided > 0 and r.rate >= m.goal
    print(
        f"{name}: expert ({'flat' if game.search.flat_with(rollout) else 'tree'} search"
        f"{', shown the other hands' if ceiling else ''}) vs {m.against}, "
        f"{games} seeded games (seeds {first}..{first + games - 1}), seats going round"
    )
    print(f"  wins {r.wins}, losses {r.losses}, draws {r.draws}")
    print(
        f"  expert won {r.wins}/{r.decided} decided = {r.rate:.1%}, 95% interval {low:.1%} to {high:.1%} "
        f"(±{(high - low) / 2:.1%}); goal {m.goal:.0%}: {'PASS' if ok else 'FAIL'}"
    )
    print(f"  expert CPU per decision: {times_text(r.mine)}")
    print(f"  {m.against} CPU per decision: {times_text(r.theirs)}")
    print(f"  [{time.monotonic() - start:.0f} s]", flush=True)
    return ok


def installed(name: str, players: int | None, against: str | None, options: dict[str, object]) -> Matchup:
    """Any installed game: the expert (the game's default bot playing its playouts) against a bot of
    the game's, with the game's fewest players."""
    from fairdeal import registry

    reg = registry.load()
    try:
        game = reg.game(name)
    except Exception as exc:  # an unknown game: say which are installed
        raise SystemExit(f"{exc}; installed games: {', '.join(sorted(reg.games))}") from None
    opponent = reg.bot(name, against) if against else reg.bot(name)
    rollout = None if opponent.name == "random" else opponent.make
    seats = players or game.min_players

    def expert(playouts: int | None) -> Policy:
        return Expert(rollout, playouts) if playouts else Expert(rollout)

    return Matchup(lambda: game, options, seats, expert, opponent.make, opponent.name, 0.5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game", action="append", help="default: every game above; any installed game's name"
    )
    parser.add_argument("--players", type=int, help="for a game not above (default: its fewest)")
    parser.add_argument("--against", help="for a game not above: which of its bots (default: its default)")
    parser.add_argument("--option", action="append", default=[], help="for a game not above: name=value")
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
    options: dict[str, object] = dict(o.split("=", 1) for o in args.option)
    results = []
    for n in args.game or sorted(table):
        m = table.get(n) or installed(n, args.players, args.against, options)
        results.append(
            run(n, m, args.games, args.first_seed, args.playouts, args.progress, args.search, args.ceiling)
        )
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
