"""Start-up time of the quick commands, against a bare Python, in one run.

    .venv/bin/python bench/startup.py [--runs 15]

Runs each of these as a new process, ``--runs`` times, and prints the median wall-clock
time and its ratio to a bare ``python -c pass``:

* ``python -c pass`` (the floor: the interpreter alone);
* ``fairdeal --help`` (click and the command list; no command module, no game);
* ``fairdeal games`` (the plugins, loaded through their entry points);
* ``fairdeal rules ecarte``;
* ``python -c "import fairdeal.cli.play"`` (what a game needs before it starts: trio,
  the session, the network code), for comparison.

The commands run from the ``fairdeal`` script next to this Python, so run it with the
virtual environment's Python.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path


def _time(command: list[str], runs: int) -> float:
    """Median seconds of ``runs`` runs (after one unmeasured run to warm the file cache)."""
    subprocess.run(command, capture_output=True, check=True)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    fairdeal = Path(sys.executable).with_name("fairdeal")
    if not fairdeal.exists():
        sys.exit(f"no fairdeal script next to {sys.executable}: run this with the venv's Python")
    cases = [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("fairdeal --help", [str(fairdeal), "--help"]),
        ("fairdeal games", [str(fairdeal), "games"]),
        ("fairdeal rules ecarte", [str(fairdeal), "rules", "ecarte"]),
        ("import fairdeal.cli.play", [sys.executable, "-c", "import fairdeal.cli.play"]),
    ]
    base = None
    print(f"{'command':<26} {'median':>9} {'x bare python':>14}   ({args.runs} runs each)")
    for label, command in cases:
        t = _time(command, args.runs)
        base = base or t
        print(f"{label:<26} {t * 1000:>7.0f}ms {t / base:>14.1f}")


if __name__ == "__main__":
    main()
