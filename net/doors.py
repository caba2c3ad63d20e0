"""The host's relay doors: waiting relay connections that joiners behind NATs can reach.

For each door ``d`` of the invite (``Invite.doors`` of them) the host keeps one
connection to the relay waiting under ``Invite.relay_token(d)`` with the host's side.
When the relay pairs it with a joiner (``ok``), the connection is handed to the lobby,
which treats it like any accepted TCP connection (Noise handshake first), and the door
is opened again at once with a new relay connection.

Anyone who holds the code can wait on a door with the host's side too. When a joiner is
paired with that connection instead, the relay closes the host's own waiting connection:
a pairing the host did not see. The door is then opened again at once, without back-off,
and it is reported once (:class:`~fairdeal.net.events.RelayDoorTaken`) — the relay is
working. A relay that cannot be reached, or that misbehaves, is retried with growing
pauses (1 s up to 30 s); it is reported (:class:`~fairdeal.net.events.RelayStatus`) once when
it goes wrong and once when it works again, never once per retry.

Whatever happens, a door opens at most :data:`DOOR_BURST` relay connections at once and
:data:`DOOR_RATE` a second after that (a token bucket per door): someone pairing with the
host's doors as fast as it can (a code holder on the joiners' side that closes at once)
costs the host at most ``doors × (DOOR_BURST + DOOR_RATE × t)`` relay connections in ``t``
seconds, and a joiner waiting on a door is still paired within about one reopening.

A waiting door says nothing, so nothing tells the host when its network changed under it
(another Wi-Fi, a phone hotspot: the relay still holds the old connections, which lead
nowhere now). :meth:`DoorBell.ring` opens every door again at once, on a new connection
(the host rings it when a seat goes away); a door whose attempt fails at once (no network)
is tried again every second, so the doors are back as soon as the network is.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Final

import trio

from .errors import RelayError
from .events import RelayDoorTaken, RelayStatus, Report, ignore
from .invite import Invite
from .relay import relay_connect

RETRY_FIRST: Final = 1.0
RETRY_MAX: Final = 30.0
CONNECT_TIMEOUT: Final = 10.0
READY_GRACE: Final = 1.0
"""Seconds every door must have waited without a refusal before the relay is reported ready."""
DOOR_BURST: Final = 10
"""Relay connections a door may open at once (then :data:`DOOR_RATE` a second)."""
DOOR_RATE: Final = 2.0
"""Relay connections a second a door opens at most, once its burst is spent."""
TAKEN_QUIET: Final = 60.0
"""Seconds without a door taken under the host before a new one is reported again."""

Offer = Callable[[trio.abc.Stream, str], None]
AT_ONCE: Final = 0.2
"""An attempt that failed within this many seconds sent nothing (no network): no back-off."""


class DoorBell:
    """Asks every door to open again now, on a new connection (the old ones may lead nowhere)."""

    def __init__(self) -> None:
        self._waiting: set[trio.CancelScope] = set()

    def ring(self) -> None:
        for scope in list(self._waiting):
            scope.cancel()

    @contextlib.contextmanager
    def waiting(self) -> Iterator[trio.CancelScope]:
        """A scope that a ring cancels (what is waited for in it is given up)."""
        scope = trio.CancelScope()
        self._waiting.add(scope)
        try:
            with scope:
                yield scope
        finally:
            self._waiting.discard(scope)


class _Status:
    """Edge-triggered reports: ready once every door has waited :data:`READY_GRACE` seconds
    without a refusal, trouble once per bad spell."""

    def __init__(self, relay: str, doors: int, report: Report) -> None:
        self.relay, self.report = relay, report
        self.since: dict[int, float] = {}  # door -> when its request was sent
        self.doors = doors
        self.state: str | None = None
        self.last_taken: float | None = None

    def door_waiting(self, door: int) -> None:
        self.since[door] = trio.current_time()

    def door_paired(self, door: int) -> None:
        self.since.pop(door, None)

    def door_taken(self, door: int) -> None:
        self.since.pop(door, None)
        now = trio.current_time()
        if self.last_taken is None or now - self.last_taken >= TAKEN_QUIET:
            self.report(RelayDoorTaken(self.relay))
        self.last_taken = now

    def door_failed(self, door: int, reason: str) -> None:
        self.since.pop(door, None)
        if self.state != "trouble":
            self.state = "trouble"
            self.report(RelayStatus(self.relay, False, reason))

    async def watch(self) -> None:
        while True:
            await trio.sleep(READY_GRACE / 4)
            now = trio.current_time()
            steady = len(self.since) == self.doors and all(
                now - t >= READY_GRACE for t in self.since.values()
            )
            if steady and self.state != "ready":
                self.state = "ready"
                self.report(RelayStatus(self.relay, True))


async def keep_doors(
    invite: Invite, offer: Offer, report: Report | None = None, bell: DoorBell | None = None
) -> None:
    """Keep every door of ``invite`` open until cancelled, offering each paired connection; ``bell``
    opens them all again at once when rung."""
    if invite.relay is None:
        return
    status = _Status(str(invite.relay), invite.doors, report or ignore)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(status.watch)
        for door in range(invite.doors):
            nursery.start_soon(_door, invite, door, offer, status, bell or DoorBell())


class _Bucket:
    """A token bucket: :meth:`take` waits until one of ``burst`` tokens, refilled at ``rate`` a
    second, is there."""

    def __init__(self, burst: int, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens = float(burst)
        self.at = trio.current_time()

    async def take(self) -> None:
        now = trio.current_time()
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            await trio.sleep((1 - self.tokens) / self.rate)
            self.tokens, self.at = 1.0, trio.current_time()
        self.tokens -= 1


async def _door(invite: Invite, door: int, offer: Offer, status: _Status, bell: DoorBell) -> None:
    assert invite.relay is not None
    relay = invite.relay
    token, side = invite.relay_token(door), invite.relay_side("host")
    pause = RETRY_FIRST
    bucket = _Bucket(DOOR_BURST, DOOR_RATE)
    while True:
        await bucket.take()
        waited = False

        def waiting() -> None:
            nonlocal waited
            waited = True
            status.door_waiting(door)

        started = trio.current_time()
        stream: trio.abc.Stream | None = None
        try:
            with bell.waiting():
                stream = await relay_connect(
                    relay, token, side, connect_timeout=CONNECT_TIMEOUT, on_waiting=waiting
                )
        except RelayError as exc:
            if exc.kind == "closed" and waited:
                # The relay closed this waiting connection: it paired another one on this
                # door. The relay works; the door opens again at once.
                pause = RETRY_FIRST
                status.door_taken(door)
                continue
            status.door_failed(door, str(exc))
            quick = trio.current_time() - started < AT_ONCE
            with bell.waiting():
                await trio.sleep(RETRY_FIRST if quick else pause)
            pause = RETRY_FIRST if quick else min(RETRY_MAX, pause * 2)
            continue
        pause = RETRY_FIRST
        if stream is None:  # rung: this door is opened again at once, on a new connection
            status.door_paired(door)
            continue
        status.door_paired(door)
        offer(stream, f"relay {relay} (door {door})")


__all__ = ["DOOR_BURST", "DOOR_RATE", "DoorBell", "keep_doors"]
