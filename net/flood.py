"""What a link sends that is ignored or refused, counted: past a small limit, the link is dropped.

Each message a peer sends costs its receiver a decryption and a decoding before anything can
tell that it was of no use: an entry it had sent already, a chat line that fails its checks or
comes too fast, a ping whose answer is still queued, a pong nobody asked for, a vote that
changes nothing. An honest peer sends almost none of these; a flood of them costs the
receiver a core. :class:`Flood` counts them with a leaky bucket — each one adds 1, every
:data:`FORGIVE` seconds take 1 away — and says when the count passes :data:`LIMIT`, with one
line naming what the peer sent. The link then drops it (:class:`~fairdeal.net.link.NetLink`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import trio

LIMIT: Final = 20
"""Ignored or refused messages a link may send in a burst."""
FORGIVE: Final = 10.0
"""Seconds after which one of them is forgotten (so a few over a long game never add up)."""


class Flood:
    """One link's count of what its peer sent that was ignored or refused."""

    def __init__(
        self, limit: int = LIMIT, forgive: float = FORGIVE, clock: Callable[[], float] = trio.current_time
    ) -> None:
        self.limit, self.forgive, self.clock = limit, forgive, clock
        self.level = 0.0
        self._at: float | None = None
        self.kinds: dict[str, int] = {}

    def strike(self, what: str) -> bool:
        """Count one message of no use (``what`` names its kind); True once past the limit."""
        now = self.clock()
        if self._at is not None:
            self.level = max(0.0, self.level - (now - self._at) / self.forgive)
        self._at = now
        self.level += 1
        self.kinds[what] = self.kinds.get(what, 0) + 1
        return self.level > self.limit

    @property
    def total(self) -> int:
        return sum(self.kinds.values())

    def words(self, peer: str) -> str:
        """One line: who sent how many messages of no use, and of which kinds."""
        kinds = ", ".join(f"{n} {what}" for what, n in sorted(self.kinds.items(), key=lambda kv: -kv[1]))
        return f"{peer} sent {self.total} messages that were ignored or refused ({kinds})"


__all__ = ["FORGIVE", "LIMIT", "Flood"]
