"""Proofs already checked in this process: one check per proof for seats that share a process.

In local play (``fairdeal play``, :class:`~fairdeal.core.deck.CryptoDealer`) every seat
runs in one process and receives every message; each would check every proof a peer
sent. A :class:`CheckedProofs` handed to all of them (explicitly: it is never global)
lets the first seat that checks a proof record that it holds, and the others find it
there instead of checking it again. Each seat's ``Session`` checks the entries'
signatures through it too (kind ``"signature"``: key, signed bytes, signature).

Sound because a record is the digest of everything the check reads (the kind of proof,
its statement and context, and every byte of the proof), written only after the check
itself returned True in this process: a hit means that exactly this check, on exactly
these bytes, already passed here. A peer cannot write a record; it can only send bytes,
which are checked unless the same bytes were checked before. ``fairdeal verify`` and
every network seat check everything themselves (they are given none).

No clock, no thread, no I/O: a set of 32-byte digests, which only grows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

TAG = b"fairdeal/deck/checked/v1"


class CheckedProofs:
    """The digests of proofs that passed their check in this process."""

    __slots__ = ("_passed", "checks", "hits")

    def __init__(self) -> None:
        self._passed: set[bytes] = set()
        self.checks = 0  # checks run through this object
        self.hits = 0  # checks saved

    def __len__(self) -> int:
        return len(self._passed)

    def check(self, kind: str, parts: Sequence[bytes], run: Callable[..., bool], *args: Any) -> bool:
        """``run(*args)``, unless the same ``kind`` of check on the same ``parts`` already passed here.

        ``parts`` must hold every input of the check (each as bytes, in a fixed order).
        """
        h = hashlib.sha256(TAG)
        h.update(kind.encode())
        for p in parts:
            h.update(len(p).to_bytes(4, "big"))
            h.update(p)
        key = h.digest()
        if key in self._passed:
            self.hits += 1
            return True
        self.checks += 1
        ok = run(*args)
        if ok:
            self._passed.add(key)
        return ok


def check(
    checked: CheckedProofs | None, kind: str, parts: Sequence[bytes], run: Callable[..., bool], *args: Any
) -> bool:
    """``run(*args)``, through ``checked`` when there is one."""
    if checked is None:
        return run(*args)
    return checked.check(kind, parts, run, *args)
