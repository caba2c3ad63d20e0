"""What the drivers and the roster need of a link (re-exported by :mod:`fairdeal.net.driver`)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from fairdeal.core.errors import FairdealError


class PeerGone(FairdealError):
    """The other side of a link went away."""


class Link(Protocol):
    """A channel of log entries to one peer."""

    async def send_entry(self, data: bytes) -> None: ...

    async def receive_entry(self) -> bytes: ...


@runtime_checkable
class Heartbeat(Protocol):
    """A link whose peer pings (a :class:`~fairdeal.net.link.NetLink`): when the peer was last heard,
    since when it has been heard steadily (None: quiet now), entries waiting to be taken."""

    heard_at: float

    @property
    def pending(self) -> int: ...

    @property
    def ping_interval(self) -> float: ...

    def present_since(self) -> float | None: ...
