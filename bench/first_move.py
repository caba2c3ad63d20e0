"""From ``fairdeal play`` to the first move: the wall-clock time a player waits, in one run.

    .venv/bin/python bench/first_move.py [--runs 5] [--game snatch] [--seats 2 10]

Starts the installed ``fairdeal play GAME --seat human --seat bot ...`` (the seat you play
first, then bots) in a pseudo-terminal of 80x24, as a player would, and measures from the
start of the process to the moment the screen asks for your first move: the full-screen
table's "Your turn:" and, with ``--plain``, the line mode's "Your move (". Everything
before it is in the figure: Python's start, the imports, every seat's keys, the first
shuffle (every pass proven and checked), the deal and the bots' moves before yours. The
game is then abandoned (the process is killed; its log is deleted). Printed: the median
and the fastest of ``--runs`` runs for each number of seats and each mode, with
``uptime``'s load average, since the machine may be shared.

Targets (on a quiet machine): at most 2 s for ten seats and 0.8 s for two.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pexpect

TARGETS = {2: 0.8, 10: 2.0}
PROMPTS = {"table": "Your turn:", "plain": "Your move ("}


def once(fairdeal: Path, game: str, seats: int, mode: str, folder: Path) -> float:
    log = folder / f"first-move-{seats}-{mode}-{time.monotonic_ns()}.fdlog"
    args = ["play", game, "--seat", "human", *["--seat", "bot"] * (seats - 1), "--log", str(log)]
    if mode == "plain":
        args.append("--plain")
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24")
    start = time.perf_counter()
    child = pexpect.spawn(str(fairdeal), args, dimensions=(24, 80), env=env, timeout=120)
    try:
        child.expect_exact(PROMPTS[mode].encode())
        return time.perf_counter() - start
    finally:
        child.terminate(force=True)
        log.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--game", default="snatch")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 10])
    parser.add_argument("--modes", nargs="+", default=["table", "plain"], choices=sorted(PROMPTS))
    args = parser.parse_args(argv)
    fairdeal = Path(sys.executable).with_name("fairdeal")
    if not fairdeal.exists():
        sys.exit(f"no fairdeal script next to {sys.executable}: run this with the venv's Python")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    head = f"{'game':<8} {'seats':>5} {'mode':<6} {'median':>8} {'fastest':>8} {'target':>7}"
    print(f"{head}   ({args.runs} runs)")
    with tempfile.TemporaryDirectory(prefix="fairdeal-first-move-") as tmp:
        for seats in args.seats:
            for mode in args.modes:
                times = [once(fairdeal, args.game, seats, mode, Path(tmp)) for _ in range(args.runs)]
                target = TARGETS.get(seats)
                shown = f"{target:.1f}s" if target else "-"
                print(
                    f"{args.game:<8} {seats:>5} {mode:<6} {statistics.median(times):>7.2f}s "
                    f"{min(times):>7.2f}s {shown:>7}"
                )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
