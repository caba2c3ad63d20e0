"""What a pass costs: a hand of Hearts with its pass against the same hand without one, in one run.

Each seed plays one hand of the example Hearts (``examples/hearts``, option ``target=1``: the game
ends after it) over the real protocol — every seat its own session and keys, every proof checked
by every seat, in one process — twice: with the pass to the left (every seat passes three cards:
twelve hand-overs) and with ``passing=false``. Printed: CPU per hand (every seat's work), entries,
round trips (the points of the log some seat waited on and answered: entries written at once
answer one point, so a batch of concurrent entries is one round trip), the hand-overs, and the
ratios, pass over no pass. The two hands of a seed deal the same cards (the same seed), so the
difference is the pass: its three moves a seat, the hand-overs, and nothing else — no shuffle.

    python bench/handover.py [--seeds 8]
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.logfile import parse_log
from fairdeal.testing import play_with_protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples" / "hearts"))
hearts: Any = importlib.import_module("fairdeal_hearts")  # the example, from this checkout


def one_hand(seed: int, passing: bool) -> dict[str, Any]:
    """One hand over the protocol: its CPU, entries, round trips and hand-overs."""
    start = time.process_time()
    options = {"target": 1, "passing": passing}
    game = play_with_protocol(hearts.Hearts(), 4, seed, options, [hearts.Careful()] * 4)
    cpu = time.process_time() - start
    entries = [decode_envelope(e) for e in parse_log(game.log).entries]
    report = game.verify(hearts.Hearts())
    assert report.verdict == "fair", report.findings
    return {
        "cpu": cpu,
        "entries": len(entries),
        "rounds": len({e.anchor_seq for e in entries[1:]}),
        "handovers": sum(len(e.body["handovers"]) for e in entries if e.kind == "deck.shares"),
        "shuffles": sum(1 for e in entries if e.kind == "deck.shuffle"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=8)
    args = parser.parse_args()
    rows: dict[bool, list[dict[str, Any]]] = {True: [], False: []}
    for seed in range(args.seeds):
        for passing in (True, False):  # alternately, so that a noisy moment weighs on both
            rows[passing].append(one_hand(seed, passing))
    print(f"one hand of Hearts over the protocol, {args.seeds} seeds, median (all seats' CPU in one process)")
    print(
        f"{'':10} {'CPU s':>7} {'entries':>8} {'round trips':>12} {'hand-overs':>11} {'shuffle passes':>15}"
    )
    med = {p: {k: statistics.median(r[k] for r in rows[p]) for k in rows[p][0]} for p in rows}
    for passing, label in ((True, "pass"), (False, "no pass")):
        m = med[passing]
        print(
            f"{label:10} {m['cpu']:7.3f} {m['entries']:8.0f} {m['rounds']:12.0f} "
            f"{m['handovers']:11.0f} {m['shuffles']:15.0f}"
        )
    ratio = {k: med[True][k] / med[False][k] for k in ("cpu", "entries", "rounds")}
    extra = med[True]["rounds"] - med[False]["rounds"]
    print(
        f"pass / no pass: CPU {ratio['cpu']:.2f}x, entries {ratio['entries']:.2f}x, round trips "
        f"{ratio['rounds']:.2f}x ({extra:+.0f}: the twelve passing moves and one for the hand-overs)"
    )


if __name__ == "__main__":
    main()
