"""How long the full-screen table can be kept from redrawing by the game's own work.

    .venv/bin/python bench/tui.py [--seed 1]

The table runs the game in trio as a guest of Textual's event loop, in one thread: while
one trio task step runs (a bot's search, a batch of proofs, an audit), the app cannot
redraw. This plays one bot game of each built-in game in one process over the real
protocol (as ``fairdeal play`` does) and reports the task steps: how many, the median,
the 99th percentile and the longest, in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import trio

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng
from fairdeal.core.session.header import Header, SeatInfo
from fairdeal.core.session.session import Session
from fairdeal.net.driver import BotAgent
from fairdeal.net.local import play_local


class StepTimes(trio.abc.Instrument):
    """Records how long each trio task step takes."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self._start = 0.0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        self._start = time.perf_counter()

    def after_task_step(self, task: trio.lowlevel.Task) -> None:
        self.times.append(time.perf_counter() - self._start)


def play(name: str, players: int, options: dict[str, object], seed: int) -> list[float]:
    reg = registry.load()
    game = reg.game(name)
    config = game.config(players, options)
    master = SeededRng(seed)
    ids = [Identity.generate(master.fork(f"identity-{i}")) for i in range(players)]
    header = Header(
        master.fork("game-id").bytes(16),
        name,
        name,
        "bench",
        "0",
        dict(config.options),
        tuple(SeatInfo(f"Bot {i}", ids[i].public_key, "bot") for i in range(players)),
    )
    sessions = [Session(game, i, ids[i], master.fork(f"seat-{i}")) for i in range(players)]
    agents = [BotAgent(reg.bot(name).make(), random.Random(seed + i)) for i in range(players)]
    steps = StepTimes()
    trio.run(play_local, header, sessions, agents, instruments=[steps])
    return steps.times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games: list[tuple[str, int, dict[str, object]]] = [
        ("spite-malice", 2, {"target": 1}),
        ("ecarte", 2, {}),
        ("snatch", 2, {}),
        ("snatch", 10, {}),
    ]
    print(f"{'game':<20} {'steps':>7} {'median':>8} {'p99':>8} {'longest':>8}   (milliseconds)")
    for name, players, options in games:
        times = sorted(t * 1000 for t in play(name, players, options, args.seed))
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        label = f"{name} ({players}p)"
        print(f"{label:<20} {len(times):>7} {statistics.median(times):>8.2f} {p99:>8.1f} {times[-1]:>8.1f}")


if __name__ == "__main__":
    main()
