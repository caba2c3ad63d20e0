"""The errors of an entry that cannot be blamed on the seat whose signature it bears: an entry
the host did not place where it sits, a host whose own signatures prove it cheated, a seat's own
entry relayed altered."""

from __future__ import annotations

from typing import Any

from ..errors import RemoteProtocolError
from .header import HOST


class DamagedEntry(RemoteProtocolError):
    """The entry is not one the host placed here: it does not decode, carries no valid placement
    signature of the host, or sits elsewhere than the host placed it. Nobody's signature says who
    did it: in a log handed over, the log was damaged or altered; live, the host sent it."""

    def __init__(self, reason: str, *, peer: str | None = None) -> None:
        super().__init__(reason, peer=peer)


class HostCheated(RemoteProtocolError):
    """The host's own placement signatures prove it broke the protocol (it forked the log, or
    placed an entry its author did not sign). ``evidence``: entries that prove it with this log."""

    def __init__(self, reason: str, evidence: tuple[bytes, ...] = (), *, peer: str | None = None) -> None:
        super().__init__(reason, seat=HOST, peer=peer)
        self.evidence = evidence


def header_host_key(body: Any) -> bytes | None:
    """The host's identity key as a header body names it (seat 0's), if it names one."""
    seats = body.get("seats") if isinstance(body, dict) else None
    first = seats[0] if isinstance(seats, list) and seats else None
    key = first.get("identity") if isinstance(first, dict) else None
    return key if isinstance(key, bytes) and len(key) == 32 else None


class AlteredEntry(RemoteProtocolError):
    """The host relayed something else where this seat's own entry belongs.

    ``sent`` is what this seat sent, ``received`` what the host relayed in its place:
    the evidence, to keep beside the log. Neither is ever applied.
    """

    def __init__(self, reason: str, sent: bytes, received: bytes) -> None:
        super().__init__(reason, peer="the host")
        self.sent = sent
        self.received = received


__all__ = ["AlteredEntry", "DamagedEntry", "HostCheated", "header_host_key"]
