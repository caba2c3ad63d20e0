"""A game's log watched from outside as it grows: every entry with the moment it was seen.

:class:`Timeline` polls a log file (a thread; only when its size changed) and keeps each
entry's sequence number, seat, kind, anchor and hash with the monotonic time it appeared,
so tests and benchmarks can act at a point of the game ("once seat 3's shuffle pass is in")
and tell afterwards how long a seat owed what (an entry's anchor is the entry that made it
owed).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from fairdeal.core.session.envelope import decode_envelope, entry_hash
from fairdeal.core.session.logfile import parse_log

POLL = 0.02


@dataclass(frozen=True)
class Seen:
    """One entry of the log and when it was seen (``time.monotonic()``)."""

    at: float
    seq: int
    seat: int
    kind: str
    anchor: bytes
    digest: bytes


class Timeline:
    """The entries of the log at ``path``, as they appear (start with :meth:`start`)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: list[Seen] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._size = -1

    def start(self) -> Timeline:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self._read()

    def _run(self) -> None:
        while not self._stop.wait(POLL):
            self._read()

    def _read(self) -> None:
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return
        if size == self._size:
            return
        self._size = size
        now = time.monotonic()
        entries = parse_log(self.path.read_bytes()).entries
        for data in entries[len(self.entries) :]:
            env = decode_envelope(data)
            self.entries.append(Seen(now, env.seq, env.seat, env.kind, env.anchor, entry_hash(data)))

    # -- questions ---------------------------------------------------------------------------------
    def wait_for(
        self, test: Callable[[Sequence[Seen]], bool], limit: float, alive: Callable[[], bool] = lambda: True
    ) -> float:
        """Wait until ``test(entries)`` holds (at most ``limit`` seconds, while ``alive()``); the time."""
        end = time.monotonic() + limit
        while time.monotonic() < end and alive():
            if test(list(self.entries)):
                return time.monotonic()
            time.sleep(POLL / 2)
        raise AssertionError(f"the game did not get there (last entries: {self.tail()})")

    def count(self, kind: str, seat: int | None = None) -> int:
        return sum(1 for e in list(self.entries) if e.kind == kind and (seat is None or e.seat == seat))

    def first_from(self, seat: int, after: float) -> Seen | None:
        """The first entry of ``seat`` seen after ``after``."""
        return next((e for e in list(self.entries) if e.seat == seat and e.at > after), None)

    def seen_at(self, digest: bytes) -> float:
        """When the entry whose hash is ``digest`` was seen."""
        return next(e.at for e in self.entries if e.digest == digest)

    def owed_since(self, entry: Seen) -> float:
        """When ``entry`` became owed: when the entry it answers (its anchor) was seen."""
        return self.seen_at(entry.anchor)

    def tail(self, n: int = 5) -> list[tuple[int, int, str]]:
        return [(e.seq, e.seat, e.kind) for e in list(self.entries)[-n:]]


__all__ = ["POLL", "Seen", "Timeline"]
