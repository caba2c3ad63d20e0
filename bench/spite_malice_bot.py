"""Spite & Malice bot evaluation: the planner against `random`, and the cost of a bot-vs-bot game.

    /tmp/ve/bin/python bench/spite_malice_bot.py [--games 200] [--timed 50] [--option name=value ...]

Plays seeded single games (options target=1 max_games=1: the first game decides, a drawn
game stays drawn) with the plain dealer, the planner taking seat 0 in even games and seat 1
in odd ones, and prints its wins, losses and draws and its win rate among decided games
(the goal is 90% or more). Many games against `random` end drawn: the random player hardly
ever plays onto the centre, so the stock often runs out first. Then it times single games
between two planners (CPU seconds per game, plain dealer and every seat's replica included).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from fairdeal import Policy, RandomPolicy
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.options import parse_assignments
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import play_game
from fairdeal.plugins.spite_malice import Planner, SpiteMalice

GOAL = 0.90


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--timed", type=int, default=50, help="bot-vs-bot games to time")
    parser.add_argument("--option", action="append", default=[], help="a game option, name=value")
    args = parser.parse_args(argv)
    game = SpiteMalice()
    raw: dict[str, object] = {"target": 1, "max_games": 1, **parse_assignments(args.option)}
    config = game.config(2, raw)

    wins = losses = draws = moves = 0
    start = time.process_time()
    for seed in range(args.games):
        bot = seed % 2
        players: list[Policy] = [RandomPolicy(), RandomPolicy()]
        players[bot] = Planner()
        played = play_game(game, config, PlainDealer(2, SeededRng(seed)), players, random.Random(seed))
        winner = played.result.winner
        wins += winner == bot
        losses += winner is not None and winner != bot
        draws += winner is None
        moves += len(played.moves)
    spent = time.process_time() - start
    decided = wins + losses
    rate = wins / decided if decided else 0.0
    options = ", ".join(f"{k}={v}" for k, v in config.options.items())
    print(f"spite-malice ({options}): planner vs random over {args.games} seeded games, seats alternating")
    print(f"  wins {wins}, losses {losses}, draws {draws}")
    verdict = "PASS" if decided and rate >= GOAL else "FAIL"
    print(f"  win rate among decided games: {wins}/{decided} = {rate:.1%} (goal {GOAL:.0%}): {verdict}")
    print(f"  {moves / args.games:.0f} moves a game, {spent / args.games * 1000:.1f} ms CPU a game")

    times: list[float] = []
    moves = decisive = 0
    for seed in range(args.timed):
        start = time.process_time()
        dealer = PlainDealer(2, SeededRng(10_000 + seed))
        played = play_game(game, config, dealer, [Planner(), Planner()], random.Random(seed))
        times.append(time.process_time() - start)
        moves += len(played.moves)
        decisive += played.result.winner is not None
    if times:
        print(
            f"planner vs planner, {args.timed} single games with the plain dealer: "
            f"{sum(times) / len(times) * 1000:.1f} ms CPU a game (slowest {max(times) * 1000:.1f} ms), "
            f"{moves / args.timed:.0f} moves a game, {decisive} decided"
        )
    return 0 if decided and rate >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
