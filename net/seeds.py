"""Each seat's randomness: one secret 32-byte seed, kept (by a :class:`~fairdeal.net.keeper.Keeper`)
so that the seat can be resumed; :class:`NoKeeper` keeps nothing."""

from __future__ import annotations

import secrets
from typing import Final

from fairdeal.core.rng import Rng, SeededRng

SEED_BYTES: Final = 32


def seat_rng(seed: bytes) -> Rng:
    """The randomness of a seat, all of it from its secret 32-byte seed (kept to resume the seat)."""
    return SeededRng(seed, "fairdeal/seat")


def new_seed(rng: Rng | None, seat: int) -> bytes:
    """A seat's seed: fresh from the system, or derived from ``rng`` (tests, benchmarks)."""
    return rng.fork(f"seat-{seat}").bytes(SEED_BYTES) if rng is not None else secrets.token_bytes(SEED_BYTES)


class NoKeeper:
    """A seat that keeps nothing on disk (it cannot be resumed after a crash)."""

    def table(self, code: str, port: int) -> None:
        pass

    def begin(self, seat: int, seed: bytes, grace: int) -> None:
        pass

    def sent(self, data: bytes) -> None:
        pass

    def chat(self, marks: tuple[int, ...]) -> None:
        pass

    def adjourned(self) -> None:
        pass

    def finished(self) -> None:
        pass


__all__ = ["SEED_BYTES", "NoKeeper", "new_seed", "seat_rng"]
