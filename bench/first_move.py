"""From ``fairdeal play`` to the first move: the wall-clock time a player waits, in one run.

    .venv/bin/python bench/first_move.py [--runs 5] [--game snatch] [--seats 2 10] [--against REV]

Starts ``python -m fairdeal play GAME --seat human --seat bot ... --seed N`` (the seat you
play first, then bots) in a pseudo-terminal of 80x24, as a player would, and measures from
the start of the process to the moment the screen asks for your first move: the
full-screen table's "Your turn:" and, in line mode (``--plain``), "Your move (".
Everything before it is in the figure: Python's start, the imports, every seat's keys, the
first shuffle (every pass proven and checked), the deal and the bots' moves before yours.
The game is then abandoned (the process is killed; its log is deleted).

Run ``i`` plays seed ``i`` in every mode and on every tree, so all sides wait for the same
game (who opens a Snatch! game is a joint random choice: without a seed, the bots' moves
before yours would differ from run to run). With ``--against REV`` the revision is checked
out into a temporary folder (``_baseline.py``) and its runs alternate with this tree's, so
both share the machine's load. Python may write its bytecode caches (as an installed
package has them; ``PYTHONDONTWRITEBYTECODE`` is dropped for the runs) and each tree and
mode has one unmeasured run first. Printed: the median and the fastest of ``--runs`` runs
for each number of seats, mode and tree, and the median CPU time the process used until
then (user and system, from ``/proc``: the figure least moved by other processes' load), with
``uptime``'s load average before and after, since the machine may be shared.

Targets (on a quiet machine): at most 2 s for ten seats and 0.8 s for two.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path

import pexpect

TARGETS = {2: 0.8, 10: 2.0}
PROMPTS = {"table": "Your turn:", "plain": "Your move ("}
HERE = Path(__file__).resolve()


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used so far (Linux: ``/proc``), or NaN."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return math.nan
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def once(tree: Path | None, game: str, seats: int, mode: str, seed: int, folder: Path) -> tuple[float, float]:
    """Seconds from the start of ``fairdeal play`` (on ``tree``, or this one) to the first move asked,
    and the CPU seconds the process used until then."""
    log = folder / f"first-move-{seats}-{mode}-{time.monotonic_ns()}.fdlog"
    args = ["-m", "fairdeal", "play", game, "--seat", "human", *["--seat", "bot"] * (seats - 1)]
    args += ["--seed", str(seed), "--log", str(log)]
    if mode == "plain":
        args.append("--plain")
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPATH", None)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    start = time.perf_counter()
    # In a folder of its own: ``python -m`` looks in the current folder first, where a checkout's
    # fairdeal/ would shadow the tree asked for.
    child = pexpect.spawn(sys.executable, args, dimensions=(24, 80), env=env, timeout=120, cwd=folder)
    try:
        child.expect_exact(PROMPTS[mode].encode())
        return time.perf_counter() - start, cpu_seconds(child.pid)
    finally:
        child.terminate(force=True)
        log.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--game", default="snatch")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 10])
    parser.add_argument("--modes", nargs="+", default=["table", "plain"], choices=sorted(PROMPTS))
    parser.add_argument("--against", default=None, metavar="REV", help="a revision to compare with")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE.parent))
    from _baseline import baseline_tree

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    head = f"{'game':<8} {'seats':>5} {'mode':<6} {'tree':<12} {'median':>8} {'fastest':>8} {'target':>7}"
    head += f" {'CPU':>7}"
    print(f"{head}   ({args.runs} runs, seeds 1..{args.runs})")
    with (
        tempfile.TemporaryDirectory(prefix="fairdeal-first-move-") as tmp,
        baseline_tree(args.against) if args.against else nullcontext(None) as old,
    ):
        trees: list[tuple[str, Path | None]] = [("here", None)]
        if old is not None:
            trees.append((args.against[:12], old))
        for seats in args.seats:
            for mode in args.modes:
                times: dict[str, list[tuple[float, float]]] = {label: [] for label, _ in trees}
                for _, tree in trees:  # unmeasured: bytecode caches, the file cache
                    once(tree, args.game, seats, mode, 1, Path(tmp))
                for seed in range(1, args.runs + 1):
                    for label, tree in trees:
                        times[label].append(once(tree, args.game, seats, mode, seed, Path(tmp)))
                target = TARGETS.get(seats)
                shown = f"{target:.1f}s" if target else "-"
                for label, _ in trees:
                    wall = [w for w, _ in times[label]]
                    cpu = [c for _, c in times[label]]
                    print(
                        f"{args.game:<8} {seats:>5} {mode:<6} {label:<12} {statistics.median(wall):>7.2f}s "
                        f"{min(wall):>7.2f}s {shown:>7} {statistics.median(cpu):>6.2f}s"
                    )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
