"""CPU cost of a proven shuffle pass, here and on the Ed25519 deck before it, in one run.

    .venv/bin/python bench/shuffle_proof.py [--against REV] [--rounds 3] [--no-baseline]

For 32, 52, 64 and 104 cards it takes the second pass of a real 2-seat round (a
DeckSeat's own permutation and scalars) and times, in CPU time (``time.process_time``),
best of 3: building the pass (its secrets and re-encryptions), making its proof and
checking it, and the proof's size on the wire. Each side runs in a fresh process, on
this tree and on ``--against`` (default: the last revision whose deck computed over
Ed25519 through PyNaCl), checked out into a temporary folder (``_baseline.py``),
alternately ``--rounds`` times, best kept: both sides share the machine's load. Also
printed: the primitives' cost on each side. Not a test: it prints a table.

Target: a 52-card pass proven and checked as fast as the arithmetic allows; for scale,
Bayer-Groth in Rust proves 52 cards in about 50 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

#: main before the deck moved to secp256k1 (Ed25519 through PyNaCl, every pass proven).
ED25519 = "a9e965bd645b483c7c9b115d43c9e029a7348924"
SIZES = (32, 52, 64, 104)
HERE = Path(__file__).resolve()


def best(work: Any, runs: int = 3) -> float:
    """The least CPU time of ``runs`` calls, in seconds."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def one_size(n: int) -> dict[str, Any]:
    """Build, prove and check pass 1 of round 0 of a 2-seat game over ``n`` cards."""
    import msgpack

    from fairdeal.core.cards import standard_52
    from fairdeal.core.deck import DeckSeat
    from fairdeal.core.deck import _shuffle_proof as sp
    from fairdeal.core.rng import SeededRng

    game = b"bench-game"
    rng = SeededRng(f"bench-{n}")
    seats = [DeckSeat(game, i, 2, rng.fork(f"seat-{i}")) for i in range(2)]

    def pump() -> None:
        while (k := seats[0].next_sender()) is not None:
            msg = seats[k].due_message()
            assert msg is not None
            for s in seats:
                s.receive(msg)

    pump()
    for s in seats:
        s.start(standard_52(2)[:n])
    pump()
    seat = seats[1]
    deck, me = seat._deck, seat.ctx.need_me()
    rnd = deck.rounds[0]
    joint = seat._keys.need_joint()
    inputs, outputs = list(rnd.passes[0].deck), list(rnd.passes[1].deck)
    perm, scalars, seed = deck.secrets(me, rnd, 1)
    context = sp.proof_context(game, 1, 0, 1)

    def prove() -> Any:
        return sp.prove_shuffle(context, joint, inputs, outputs, perm, scalars, seed)

    proof = prove()
    assert sp.verify_shuffle(context, joint, inputs, outputs, proof)

    def build() -> None:
        p, sc, _ = deck.secrets(me, rnd, 1)
        assert deck.apply(rnd, 1, p, sc, joint) == outputs

    return {
        "build": best(build),
        "prove": best(prove),
        "verify": best(lambda: sp.verify_shuffle(context, joint, inputs, outputs, proof)),
        "bytes": len(msgpack.packb(sp.encode_proof(proof), use_bin_type=True)),
        "deck_bytes": sum(len(c) for c in outputs),
    }


def worker() -> dict[str, Any]:
    """One side: the figures of every size, with what both trees have."""
    from _baseline import which_tree

    from fairdeal.core.deck import _group as g

    out: dict[str, Any] = {"tree": which_tree(), "sizes": {n: one_size(n) for n in SIZES}}
    s = g.hash_scalar(b"bench", 1)
    p = g.base(s)
    ops = {"base": lambda: g.base(s), "mul": lambda: g.mul(s, p), "add": lambda: g.add(p, p)}
    out["primitives"] = {k: best(lambda op=op: [op() for _ in range(300)]) / 300 for k, op in ops.items()}
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--against", default=ED25519, help="the revision to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-baseline", action="store_true")
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker()))
        return
    sys.path.insert(0, str(HERE.parent))

    from _baseline import baseline_tree, run_worker

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    here: list[Any] = []
    there: list[Any] = []
    if args.no_baseline:
        here = [run_worker(HERE, ["--worker"]) for _ in range(args.rounds)]
    else:
        with baseline_tree(args.against) as tree:
            for _ in range(args.rounds):
                here.append(run_worker(HERE, ["--worker"]))
                there.append(run_worker(HERE, ["--worker"], tree))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    def least(runs: list[Any], n: int, key: str) -> float:
        return min(r["sizes"][str(n)][key] for r in runs)

    print("CPU ms, best of 3 in each of", args.rounds, "rounds per side (sides alternated)")
    head = f"{'cards':>5} {'':>9} {'build':>7} {'prove':>7} {'verify':>7} {'p+v':>7}"
    head += f" {'proof B':>8} {'deck B':>7}"
    print(head)
    print("-" * len(head))
    for n in SIZES:
        sides = [("here", here)] + ([("before", there)] if there else [])
        for label, runs in sides:
            b, p, v = (least(runs, n, k) * 1e3 for k in ("build", "prove", "verify"))
            size = runs[0]["sizes"][str(n)]
            print(
                f"{n:>5} {label:>9} {b:>7.1f} {p:>7.1f} {v:>7.1f} {p + v:>7.1f} {size['bytes']:>8} "
                f"{size['deck_bytes']:>7}"
            )
        if there:
            ratio = (least(here, n, "prove") + least(here, n, "verify")) / (
                least(there, n, "prove") + least(there, n, "verify")
            )
            print(f"{n:>5} {'ratio':>9} {'':>7} {'':>7} {'':>7} {ratio:>6.2f}x")
    for label, runs in [("here", here)] + ([("before", there)] if there else []):
        prim = {k: min(r["primitives"][k] for r in runs) * 1e6 for k in ("base", "mul", "add")}
        print(f"primitives {label}: " + ", ".join(f"{k} {v:.1f} µs" for k, v in prim.items()))


if __name__ == "__main__":
    main()
