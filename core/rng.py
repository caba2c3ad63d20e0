"""Randomness sources, injected so that the core never reaches for a global one.

``SystemRng`` draws from the operating system; ``SeededRng`` is a deterministic
stream (SHAKE-256 of a label and a seed). With a small seed (``--seed``, tests,
benchmarks) every secret is predictable to anyone who knows it; with a secret
32-byte seed from the operating system it is a deterministic random bit generator,
which is what a network seat uses, so that its seed alone rebuilds its secrets.
"""

from __future__ import annotations

import hashlib
import os
import random
from typing import Protocol


class Rng(Protocol):
    """A source of random bytes."""

    def bytes(self, n: int) -> bytes: ...

    def fork(self, label: str) -> Rng:
        """An independent stream for a named purpose (seat, bot, ...)."""
        ...


class SystemRng:
    """Cryptographic randomness from the operating system."""

    def bytes(self, n: int) -> bytes:
        return os.urandom(n)

    def fork(self, label: str) -> SystemRng:
        return self


class SeededRng:
    """A deterministic stream derived from ``seed``: secret only if the seed is (32 random bytes)."""

    def __init__(self, seed: int | bytes | str, label: str = "") -> None:
        if isinstance(seed, int):
            seed = seed.to_bytes((seed.bit_length() + 8) // 8, "big", signed=True)
        elif isinstance(seed, str):
            seed = seed.encode()
        self._key = hashlib.sha256(b"fairdeal/seeded-rng/v1\x00" + label.encode() + b"\x00" + seed).digest()
        self._counter = 0

    def bytes(self, n: int) -> bytes:
        out = hashlib.shake_256(self._key + self._counter.to_bytes(8, "big")).digest(n)
        self._counter += 1
        return out

    def fork(self, label: str) -> SeededRng:
        return SeededRng(self._key, label)


def python_random(rng: Rng) -> random.Random:
    """A ``random.Random`` seeded from ``rng``, for bots and other non-secret choices."""
    return random.Random(int.from_bytes(rng.bytes(16), "big"))


def below(rng: Rng, n: int) -> int:
    """A uniform integer in ``range(n)`` without modulo bias."""
    if n <= 0:
        raise ValueError("n must be positive")
    nbytes = (n.bit_length() + 7) // 8 + 8
    limit = (256**nbytes // n) * n
    while True:
        v = int.from_bytes(rng.bytes(nbytes), "big")
        if v < limit:
            return v % n
