"""Écarté bot evaluation: the classic bot against `random`, and the cost of a bot-vs-bot game.

    /tmp/ve/bin/python bench/ecarte_bot.py [--games 200] [--target 5] [--option name=value ...]

Plays seeded games to ``target`` with the plain dealer, the classic bot taking seat 0 in
even games and seat 1 in odd ones, and prints its win rate (the goal is 75% or more).
Then it times games between two classic bots (CPU seconds per game, dealer included).
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
from fairdeal.plugins.ecarte import ClassicBot, Ecarte

GOAL = 0.75


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--target", type=int, default=5)
    parser.add_argument("--timed", type=int, default=50, help="bot-vs-bot games to time")
    parser.add_argument("--option", action="append", default=[], help="a game option, name=value")
    args = parser.parse_args(argv)
    game = Ecarte()
    raw: dict[str, object] = {"target": args.target, **parse_assignments(args.option)}
    config = game.config(2, raw)

    wins = moves = deals = 0
    start = time.process_time()
    for seed in range(args.games):
        bot = seed % 2
        players: list[Policy] = [RandomPolicy(), RandomPolicy()]
        players[bot] = ClassicBot()
        played = play_game(game, config, PlainDealer(2, SeededRng(seed)), players, random.Random(seed))
        wins += played.result.winner == bot
        moves += len(played.moves)
        deals += sum(1 for e in played.events if e.kind == "shuffle") + 1
    spent = time.process_time() - start
    rate = wins / args.games
    options = ", ".join(f"{k}={v}" for k, v in config.options.items())
    print(f"ecarte ({options}): classic bot vs random over {args.games} seeded games, seats alternating")
    verdict = "PASS" if rate >= GOAL else "FAIL"
    print(f"  classic bot won {wins}/{args.games} = {rate:.1%} (goal {GOAL:.0%}): {verdict}")
    print(
        f"  {deals / args.games:.1f} deals and {moves / args.games:.0f} moves a game, "
        f"{spent / args.games * 1000:.1f} ms CPU a game"
    )

    start = time.process_time()
    moves = 0
    for seed in range(args.timed):
        played = play_game(
            game,
            config,
            PlainDealer(2, SeededRng(10_000 + seed)),
            [ClassicBot(), ClassicBot()],
            random.Random(seed),
        )
        moves += len(played.moves)
    spent = time.process_time() - start
    print(
        f"classic vs classic, {args.timed} games with the plain dealer: "
        f"{spent / args.timed * 1000:.1f} ms CPU a game ({moves / args.timed:.0f} moves)"
    )
    return 0 if rate >= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
