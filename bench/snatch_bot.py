"""Evaluate the Snatch! default bot: 4-player games over 400 seeds, the bot in seat (seed mod 4).

Against three ``random`` seats and, separately, against three ``never-snatch`` seats; prints
the bot's win rate in each (a fair share is 1/4) and how games ended.

    /tmp/ve/bin/python bench/snatch_bot.py [--seeds 400] [--players 4]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from fairdeal import Policy, RandomPolicy
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import play_game
from fairdeal.plugins.snatch import NeverSnatch, Shrewd, SnatchGame


def evaluate(
    opponent: Callable[[], Policy], seeds: range, players: int = 4, bot: Callable[[], Policy] = Shrewd
) -> tuple[int, int, int]:
    """(bot wins, games with no winner, games) with ``bot`` in seat seed mod ``players``."""
    game = SnatchGame()
    config = game.config(players)
    wins = nobody = 0
    for seed in seeds:
        seat = seed % players
        policies = [bot() if p == seat else opponent() for p in range(players)]
        played = play_game(game, config, PlainDealer(players, SeededRng(seed)), policies, random.Random(seed))
        wins += played.result.winner == seat
        nobody += played.result.winner is None
    return wins, nobody, len(seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    seeds = range(args.seeds)
    for label, opponent in (("random", RandomPolicy), ("never-snatch", NeverSnatch)):
        start = time.perf_counter()
        wins, nobody, games = evaluate(opponent, seeds, args.players)
        took = time.perf_counter() - start
        print(
            f"shrewd vs {args.players - 1} x {label:<12}: won {wins}/{games} = {wins / games:.1%} "
            f"(fair share {1 / args.players:.0%}; no winner in {nobody}) [{took:.1f} s]"
        )


if __name__ == "__main__":
    main()
