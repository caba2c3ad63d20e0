"""Errors of network play (part of the one hierarchy of ``fairdeal.core.errors``)."""

from __future__ import annotations

from typing import Literal

from fairdeal.core.errors import FairdealError

RelayTrouble = Literal["unreachable", "closed", "refused", "garbage", "timeout"]


class NetError(FairdealError):
    """Network play could not start or go on: unreachable host, refused seat, lobby closed."""


class RelayError(NetError):
    """A transit relay did not pair this connection; ``kind`` says how it failed.

    ``unreachable``: no TCP connection to the relay; ``closed``: it closed the connection
    before pairing (a door taken by another joiner at the same moment, or the relay gave
    up); ``refused``: it answered a line other than ``ok`` (``bad handshake``,
    ``impatient``); ``garbage``: it answered something that is not a line of its protocol;
    ``timeout``: no pairing within the time allowed.
    """

    def __init__(self, kind: RelayTrouble, message: str) -> None:
        super().__init__(message)
        self.kind: RelayTrouble = kind


__all__ = ["NetError", "RelayError", "RelayTrouble"]
