"""How far each connection the lobby is admitting got: its stage and the time of its last step
(:class:`Pending`), the stream that notes when the joiner's first handshake message is in
(:class:`CountingStream`), which connection gives way to a newcomer when too many are admitted
at once (:func:`victim`), why one whose time ran out is dropped (:func:`overdue`), and where a
connection comes from (:func:`peer_address`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import trio

from .framing import FRAME_HEADER_LEN
from .lobbyterms import LobbyLimits

FIRST_MESSAGE: Final = FRAME_HEADER_LEN + 32
"""Bytes of the joiner's first handshake message (a framed ephemeral key)."""


def peer_address(stream: trio.abc.Stream) -> str:
    """``host:port`` of a socket stream's peer, or ``?``."""
    try:
        address = stream.socket.getpeername()  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return "?"
    if isinstance(address, tuple) and len(address) >= 2:
        host = str(address[0])
        return f"[{host}]:{address[1]}" if ":" in host else f"{host}:{address[1]}"
    return str(address)


class Pending:
    """One connection being admitted: how far it got and when it last took a step."""

    __slots__ = ("address", "evicted", "opened", "received", "scope", "stage", "stepped")

    def __init__(self, address: str, now: float) -> None:
        self.address = address
        self.opened = self.stepped = now
        self.stage = 0  # 0 opened, 1 first handshake message in, 2 handshake done, 3 hello accepted
        self.received = 0
        self.scope = trio.CancelScope()
        self.evicted = False

    def step(self, stage: int, deadline: float) -> None:
        self.stage = stage
        self.stepped = trio.current_time()
        self.scope.deadline = deadline


class CountingStream(trio.abc.Stream):
    """Passes a stream through, noting when the joiner's first handshake message is complete."""

    def __init__(self, stream: trio.abc.Stream, pending: Pending, handshake: float) -> None:
        self.stream, self.pending, self.handshake = stream, pending, handshake

    @property
    def socket(self) -> object:
        return getattr(self.stream, "socket", None)

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        data = await self.stream.receive_some(max_bytes)
        p = self.pending
        if p.stage == 0:
            p.received += len(data)
            if p.received >= FIRST_MESSAGE:
                p.step(1, p.opened + self.handshake)
        return data

    async def aclose(self) -> None:
        await self.stream.aclose()


def pick_victim(pool: Sequence[Pending]) -> Pending | None:
    """The connection that gives way to a newer one: the least progress, then the oldest step."""
    candidates = [p for p in pool if p.stage < 3 and not p.evicted]
    if not candidates:
        return None
    return min(candidates, key=lambda p: (p.stage > 0, p.stepped))


def overdue(p: Pending, limits: LobbyLimits) -> str:
    """Why a connection whose scope was cancelled is dropped."""
    if p.evicted:
        return "gave way to a newer connection (it made no progress)"
    if p.stage == 0:
        return f"sent no handshake within {min(limits.first_message, limits.handshake):g} s"
    if p.stage == 1:
        return f"handshake did not finish within {limits.handshake:g} s"
    if p.stage == 2:
        return f"did not send hello within {limits.hello:g} s"
    return f"did not answer the welcome within {limits.hello:g} s"


__all__ = ["FIRST_MESSAGE", "CountingStream", "Pending", "overdue", "peer_address", "pick_victim"]
