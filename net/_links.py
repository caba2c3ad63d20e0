"""What the drivers and the roster need of a link (re-exported by :mod:`fairdeal.net.driver`)."""

from __future__ import annotations

from typing import Protocol

from fairdeal.core.errors import FairdealError


class PeerGone(FairdealError):
    """The other side of a link went away."""


class Link(Protocol):
    """A channel of log entries to one peer."""

    async def send_entry(self, data: bytes) -> None: ...

    async def receive_entry(self) -> bytes: ...
