"""The host's relay doors: waiting relay connections that joiners behind NATs can reach.

For each door ``d`` of the invite (``Invite.doors`` of them) the host keeps one
connection to the relay waiting under ``Invite.relay_token(d)`` with the host's side.
When the relay pairs it with a joiner (``ok``), the connection is handed to the lobby,
which treats it like any accepted TCP connection (Noise handshake first), and the door
is opened again at once with a new relay connection. A relay that cannot be reached, or
that misbehaves, is retried with growing pauses (1 s up to 30 s); the observer hears of
it once when it goes wrong and once when it works again, never once per retry.

A waiting door says nothing, so nothing tells the host when its network changed under it
(another Wi-Fi, a phone hotspot: the relay still holds the old connections, which lead
nowhere now). :meth:`DoorBell.ring` opens every door again at once, on a new connection
(the host rings it when a guest's link falls silent); a door whose attempt fails at once
(no network) is tried again every second, so the doors are back as soon as the network is.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Final

import trio

from .errors import RelayError
from .invite import Invite
from .relay import relay_connect

RETRY_FIRST: Final = 1.0
RETRY_MAX: Final = 30.0
CONNECT_TIMEOUT: Final = 10.0
READY_GRACE: Final = 1.0
"""Seconds every door must have waited without a refusal before the relay is reported ready."""

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


class DoorsObserver:
    """What the doors report (no-ops by default)."""

    def relay_ready(self, relay: str) -> None:
        """Every door is waiting at ``relay``."""

    def relay_trouble(self, relay: str, reason: str) -> None:
        """The relay cannot be used for now (it is retried in the background)."""


class _Status:
    """Edge-triggered reports: ready once every door has waited :data:`READY_GRACE` seconds
    without a refusal, trouble once per bad spell."""

    def __init__(self, relay: str, doors: int, observer: DoorsObserver) -> None:
        self.relay, self.observer = relay, observer
        self.since: dict[int, float] = {}  # door -> when its request was sent
        self.doors = doors
        self.state: str | None = None

    def door_waiting(self, door: int) -> None:
        self.since[door] = trio.current_time()

    def door_paired(self, door: int) -> None:
        self.since.pop(door, None)

    def door_failed(self, door: int, reason: str) -> None:
        self.since.pop(door, None)
        if self.state != "trouble":
            self.state = "trouble"
            self.observer.relay_trouble(self.relay, reason)

    async def watch(self) -> None:
        while True:
            await trio.sleep(READY_GRACE / 4)
            now = trio.current_time()
            steady = len(self.since) == self.doors and all(
                now - t >= READY_GRACE for t in self.since.values()
            )
            if steady and self.state != "ready":
                self.state = "ready"
                self.observer.relay_ready(self.relay)


async def keep_doors(
    invite: Invite, offer: Offer, observer: DoorsObserver | None = None, bell: DoorBell | None = None
) -> None:
    """Keep every door of ``invite`` open until cancelled, offering each paired connection; ``bell``
    opens them all again at once when rung."""
    if invite.relay is None:
        return
    status = _Status(str(invite.relay), invite.doors, observer or DoorsObserver())
    async with trio.open_nursery() as nursery:
        nursery.start_soon(status.watch)
        for door in range(invite.doors):
            nursery.start_soon(_door, invite, door, offer, status, bell or DoorBell())


async def _door(invite: Invite, door: int, offer: Offer, status: _Status, bell: DoorBell) -> None:
    assert invite.relay is not None
    relay = invite.relay
    token, side = invite.relay_token(door), invite.relay_side("host")
    pause = RETRY_FIRST
    while True:
        started = trio.current_time()
        stream: trio.abc.Stream | None = None
        try:
            with bell.waiting():
                stream = await relay_connect(
                    relay,
                    token,
                    side,
                    connect_timeout=CONNECT_TIMEOUT,
                    on_waiting=lambda: status.door_waiting(door),
                )
        except RelayError as exc:
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


__all__ = ["DoorBell", "DoorsObserver", "keep_doors"]
