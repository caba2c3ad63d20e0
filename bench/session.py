"""Whole games between two default bots: the real protocol in one process against the plain dealer.

For each built-in game (and the example plugin when installed), several seeded games
are played twice: once over the real protocol (every seat its own session and keys,
signed entries, every proof checked by every seat, the audit), once through the
runner with the plain dealer (no cryptography, no log). Printed per game: mean wall
time and CPU per game, entries (messages) and log bytes, and the CPU ratio.

    python bench/session.py [--games 5] [--only spite-malice]

Targets on this machine: a whole Spite & Malice game with every check and the audit
under 2 s of CPU; an Écarté game to 5 under 1 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from fairdeal import registry
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import play_game
from fairdeal.testing import play_with_protocol

GAMES = {
    "spite-malice": (2, {"target": 1, "max_games": 1}),
    "ecarte": (2, {}),
    "snatch": (4, {}),
    "crazy-eights": (2, {}),
}
TARGETS = {"spite-malice": 2.0, "ecarte": 1.0}


def measure(name: str, players: int, options: dict[str, object], seeds: range) -> dict[str, float]:
    reg = registry.load()
    game = reg.game(name)
    bot = reg.bot(name)
    proto_cpu, proto_wall, plain_cpu, entries, log_bytes, fair = [], [], [], [], [], 0
    for seed in seeds:
        policies = [bot.make() for _ in range(players)]
        w0, c0 = time.perf_counter(), time.process_time()
        played = play_with_protocol(game, players, seed, options, policies)
        proto_cpu.append(time.process_time() - c0)
        proto_wall.append(time.perf_counter() - w0)
        s = played.session
        fair += bool(s.verdict and s.verdict.fair)
        entries.append(s.seq)
        log_bytes.append(len(played.log))
        config = game.config(players, dict(options))
        c0 = time.process_time()
        play_game(
            game,
            config,
            PlainDealer(players, SeededRng(seed)),
            [bot.make() for _ in range(players)],
            random.Random(seed),
        )
        plain_cpu.append(time.process_time() - c0)
    return {
        "cpu": statistics.mean(proto_cpu),
        "cpu_max": max(proto_cpu),
        "wall": statistics.mean(proto_wall),
        "plain": statistics.mean(plain_cpu),
        "entries": statistics.mean(entries),
        "bytes": statistics.mean(log_bytes),
        "fair": fair,
        "n": len(seeds),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5, help="seeded games per game type")
    ap.add_argument("--only", default=None, help="one game name")
    args = ap.parse_args()
    installed = registry.load().games
    print(
        f"{'game':<14}{'players':>8}{'CPU/game':>10}{'max':>8}{'wall':>8}{'plain CPU':>11}{'ratio':>8}"
        f"{'entries':>9}{'log KiB':>9}  audit   target"
    )
    for name, (players, options) in GAMES.items():
        if (args.only and name != args.only) or name not in installed:
            continue
        m = measure(name, players, options, range(1, args.games + 1))
        target = TARGETS.get(name)
        verdict = "" if target is None else f"< {target:.0f} s: {'PASS' if m['cpu_max'] < target else 'FAIL'}"
        print(
            f"{name:<14}{players:>8}{m['cpu']:>9.3f}s{m['cpu_max']:>7.2f}s{m['wall']:>7.2f}s"
            f"{m['plain'] * 1000:>9.2f}ms{m['cpu'] / m['plain']:>7.0f}x{m['entries']:>9.0f}"
            f"{m['bytes'] / 1024:>9.1f}  {m['fair']}/{m['n']} fair  {verdict}"
        )


if __name__ == "__main__":
    main()
