"""Local play: every seat its own session with its own keys, joined by in-memory channels.

This is the real protocol — envelopes, signatures, the deck protocol, the host's
sequencing — with trio memory channels where network play has Noise over TCP.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import trio

from fairdeal.core.session.header import Header
from fairdeal.core.session.session import Session

from .driver import Agent, OnAccepted, PeerGone, SeatOutcome, Timeouts, run_guest, run_host


class MemoryLink:
    """One end of an in-memory link carrying log entries."""

    def __init__(
        self, send: trio.MemorySendChannel[bytes], receive: trio.MemoryReceiveChannel[bytes]
    ) -> None:
        self._send, self._receive = send, receive

    async def send_entry(self, data: bytes) -> None:
        try:
            await self._send.send(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            raise PeerGone("the other side closed the link") from None

    async def receive_entry(self) -> bytes:
        try:
            return await self._receive.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            raise PeerGone("the other side closed the link") from None

    async def aclose(self) -> None:
        await self._send.aclose()
        await self._receive.aclose()


def link_pair() -> tuple[MemoryLink, MemoryLink]:
    a_send, b_receive = trio.open_memory_channel[bytes](math.inf)
    b_send, a_receive = trio.open_memory_channel[bytes](math.inf)
    return MemoryLink(a_send, a_receive), MemoryLink(b_send, b_receive)


async def play_local(
    header: Header,
    sessions: Sequence[Session],
    agents: Sequence[Agent],
    observe: OnAccepted | None = None,
    timeouts: Timeouts | None = None,
) -> list[SeatOutcome]:
    """Play one game among ``sessions`` (seat 0 hosts); return every seat's outcome."""
    outcomes: list[SeatOutcome | None] = [None] * len(sessions)
    host_links: dict[int, MemoryLink] = {}
    guest_links: dict[int, MemoryLink] = {}
    for seat in range(1, len(sessions)):
        host_links[seat], guest_links[seat] = link_pair()

    async def guest(seat: int) -> None:
        try:
            outcomes[seat] = await run_guest(sessions[seat], agents[seat], guest_links[seat], observe)
        finally:
            await guest_links[seat].aclose()

    async with trio.open_nursery() as nursery:
        for seat in guest_links:
            nursery.start_soon(guest, seat)
        # In one process the seats answer in whatever order trio runs them: keep seat order, so a
        # seeded game gives the same log every time.
        outcomes[0] = await run_host(
            sessions[0], header, agents[0], host_links, observe, timeouts, ordered=True
        )
    return [o for o in outcomes if o is not None]
