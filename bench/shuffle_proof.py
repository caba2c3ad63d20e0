"""CPU cost of the proof of shuffle, against the cost of building the pass it proves.

Run ``python bench/shuffle_proof.py``. For 32, 52, 64 and 104 cards it takes the second
pass of a real 2-seat round (a DeckSeat's own permutation and scalars) and times, in
CPU time (``time.process_time``), best of 3: making the proof, checking it, decoding
its wire form (every point checked, as a decoder that does not verify must; and as the
deck decodes it, leaving the points to the verification, which checks them anyway),
the point checks a receiver made of a pass's deck before passes carried proofs (now
left to the verification too), and, in the same run, building the pass itself (its
secrets and its re-encryptions). It also counts libsodium calls per card. Not a test:
it prints a table.
"""

from __future__ import annotations

import time
import timeit
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

import msgpack
import nacl.bindings as na

from fairdeal.core.cards import standard_52
from fairdeal.core.deck import DeckSeat
from fairdeal.core.deck import _shuffle_proof as sp
from fairdeal.core.rng import SeededRng

GAME = b"bench-game"
SIZES = (32, 52, 64, 104)
COUNTED = {
    "crypto_scalarmult_ed25519_noclamp": "var",
    "crypto_scalarmult_ed25519_base_noclamp": "base",
    "crypto_core_ed25519_add": "add",
    "crypto_core_ed25519_sub": "add",
    "crypto_core_ed25519_is_valid_point": "valid",
}


def best(work: Callable[[], object], runs: int = 3) -> float:
    """The least CPU time of ``runs`` calls, in seconds."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


@contextmanager
def counting() -> Iterator[Counter[str]]:
    """Count the libsodium group operations made inside the block."""
    calls: Counter[str] = Counter()
    saved = {name: getattr(na, name) for name in COUNTED}

    def wrap(name: str) -> Callable[..., bytes]:
        inner = saved[name]

        def counted(*args: bytes) -> bytes:
            calls[COUNTED[name]] += 1
            return inner(*args)

        return counted

    for name in COUNTED:
        setattr(na, name, wrap(name))
    try:
        yield calls
    finally:
        for name, f in saved.items():
            setattr(na, name, f)


class Case:
    """Pass 1 of round 0 of a 2-seat game over ``n`` cards, with seat 1's secrets."""

    def __init__(self, n: int) -> None:
        rng = SeededRng(f"bench-{n}")
        self.seats = [DeckSeat(GAME, i, 2, rng.fork(f"seat-{i}")) for i in range(2)]
        self.pump()
        for s in self.seats:
            s.start(standard_52(2)[:n])
        self.pump()
        seat = self.seats[1]
        self.deck = seat._deck
        self.me = seat.ctx.need_me()
        self.rnd = self.deck.rounds[0]
        self.joint = seat._keys.need_joint()
        self.inputs = list(self.rnd.passes[0].deck)
        self.outputs = list(self.rnd.passes[1].deck)
        self.perm, self.scalars, self.seed = self.deck.secrets(self.me, self.rnd, 1)
        self.context = sp.proof_context(GAME, 1, 0, 1)

    def pump(self) -> None:
        while (n := self.seats[0].next_sender()) is not None:
            msg = self.seats[n].due_message()
            assert msg is not None
            for s in self.seats:
                s.receive(msg)

    def prove(self) -> sp.ShuffleProof:
        return sp.prove_shuffle(
            self.context, self.joint, self.inputs, self.outputs, self.perm, self.scalars, self.seed
        )

    def verify(self, proof: sp.ShuffleProof) -> bool:
        return sp.verify_shuffle(self.context, self.joint, self.inputs, self.outputs, proof)

    def build(self) -> None:
        perm, scalars, _ = self.deck.secrets(self.me, self.rnd, 1)
        assert self.deck.apply(self.rnd, 1, perm, scalars, self.joint) == self.outputs


def decode(wire: bytes, n: int, check_points: bool = True) -> sp.ShuffleProof:
    return sp.decode_proof(msgpack.unpackb(wire, raw=False), n, seat=1, check_points=check_points)


def check_deck(outputs: list[bytes]) -> None:
    """What a receiver checked of a pass's deck before it carried a proof: every point."""
    assert all(
        na.crypto_core_ed25519_is_valid_point(c[:32]) and na.crypto_core_ed25519_is_valid_point(c[32:])
        for c in outputs
    )


def primitives() -> str:
    s = na.crypto_core_ed25519_scalar_reduce(bytes(range(64)))
    p = na.crypto_scalarmult_ed25519_base_noclamp(s)
    ops = {
        "scalarmult": lambda: na.crypto_scalarmult_ed25519_noclamp(s, p),
        "base scalarmult": lambda: na.crypto_scalarmult_ed25519_base_noclamp(s),
        "add": lambda: na.crypto_core_ed25519_add(p, p),
        "is_valid_point": lambda: na.crypto_core_ed25519_is_valid_point(p),
    }
    parts = [
        f"{name} {min(timeit.repeat(op, number=300, repeat=3)) / 300 * 1e6:.0f} µs"
        for name, op in ops.items()
    ]
    return "primitives here: " + ", ".join(parts)


def main() -> None:
    print(primitives())
    print("CPU time, best of 3 (this machine is shared and noisy)")
    print()
    head = (
        f"{'cards':>5} {'prove':>8} {'verify':>8} {'both':>8} {'decode':>8} {'unchecked':>9} {'deck pts':>8}"
        f" {'bytes':>6} {'msgpack':>7} {'build':>8} {'prove/build':>11} {'verify/build':>12}"
    )
    print(head)
    print("-" * len(head))
    totals = {}
    counts = {}
    for n in SIZES:
        case = Case(n)
        proof = case.prove()
        assert case.verify(proof)
        with counting() as prove_calls:
            case.prove()
        with counting() as verify_calls:
            case.verify(proof)
        counts[n] = (prove_calls, verify_calls)
        wire = msgpack.packb(sp.encode_proof(proof), use_bin_type=True)
        raw = (4 * n + 5) * 32
        t_prove = best(case.prove)
        t_verify = best(partial(case.verify, proof))
        t_decode = best(partial(decode, wire, n))
        t_unchecked = best(partial(decode, wire, n, False))
        t_points = best(partial(check_deck, case.outputs))
        t_build = best(case.build)
        totals[n] = t_prove + t_verify
        print(
            f"{n:>5} {t_prove * 1e3:>8.1f} {t_verify * 1e3:>8.1f} {totals[n] * 1e3:>8.1f}"
            f" {t_decode * 1e3:>8.1f} {t_unchecked * 1e3:>9.1f} {t_points * 1e3:>8.1f}"
            f" {raw:>6} {len(wire):>7}"
            f" {t_build * 1e3:>8.1f} {t_prove / t_build:>10.1f}x {t_verify / t_build:>11.1f}x"
        )
    print()
    print("libsodium calls per card (prove | verify):")
    for n, (p, v) in counts.items():
        kinds = ("var", "base", "add", "valid")
        row = (
            " ".join(f"{k} {p[k] / n:.2f}" for k in kinds)
            + " | "
            + " ".join(f"{k} {v[k] / n:.2f}" for k in kinds)
        )
        print(f"  {n:>3} cards: {row}")
    print()
    for n, limit in ((52, 200.0), (104, 400.0)):
        got = totals[n] * 1e3
        verdict = "ok" if got <= limit else "MISSED"
        print(f"target: {n}-card proof made and checked <= {limit:g} ms: {got:.1f} ms, {verdict}")


if __name__ == "__main__":
    main()
