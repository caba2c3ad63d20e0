"""How long one seat can hold a step it owes: bounded, however it goes quiet, drops or comes back.

A guest of our own making (the project's own session, driver and link) joins a real ``host_game``
in this process and, once it owes a move, never makes it; instead it plays for time:

* it goes quiet (sends nothing, answers no ping) for longer than ``Keepalive.quiet`` and shorter
  than ``Keepalive.silence``, then pings, again and again: a quiet gap then heard again gave the
  step its whole time again;
* it drops its link and comes back at once, again and again: coming back gave the step its whole
  time again;
* it stays away just under the grace period, comes back and drops again at once, again and again:
  each absence had a grace period of its own.

Each held the table for ever; now the seat is blamed within twice the step's time (plus the grace
period it spent away), and the last within the grace period in all. Timeouts are scaled down.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.core.session.session import Session
from fairdeal.net import GuestSession, host_game, wire
from fairdeal.net.comeback import Connector, rejoin
from fairdeal.net.driver import PeerGone, Timeouts, run_guest
from fairdeal.net.invite import Invite
from fairdeal.net.link import Keepalive, NetLink
from fairdeal.net.stream import SecureStream

from .peers import sit_down
from .test_survive_net import Game

BEAT = Keepalive.every(0.5)  # quiet after 1 s, dropped after 1.5 s of silence
MOVE = 2.0  # --move-timeout
LIMIT = 30.0


class Quiet(NetLink):
    """A guest's link that, once ``quiet`` is set, answers no ping and pings only every ``gap`` s."""

    quiet = False
    gap = 1.25

    async def _pinger(self) -> None:
        while self.error is None:
            await trio.sleep(self.gap if self.quiet else self.keepalive.interval)
            with contextlib.suppress(PeerGone):
                self.send(wire.Ping(1))

    def _dispatch(self, msg: wire.Message) -> None:
        if self.quiet and isinstance(msg, wire.Ping | wire.Pong):
            return
        super()._dispatch(msg)


class Stalls:
    """An agent that never moves: it notes that the seat owes a move, then waits for ever."""

    def __init__(self) -> None:
        self.owes = trio.Event()

    async def decide(self, session: Session, moves: list[Any]) -> Any:
        self.owes.set()
        await trio.sleep_forever()


Play = Callable[[Invite, Identity, GuestSession, NetLink, SecureStream], Awaitable[None]]


async def _guest(invite: Invite, play: Play) -> None:
    """Take seat 1, play until it owes a move, then ``play`` for time (until the game ends)."""
    reg = registry.load()
    me, s, welcome = await sit_down(invite)
    session = GuestSession(
        reg.game(welcome.game), welcome.seat, me, welcome=welcome, name="Mallory", kind="bot"
    )
    link = Quiet(s, role="guest", peer="the host", keepalive=BEAT)
    agent = Stalls()
    async with trio.open_nursery() as n:
        await n.start(link.run)

        async def guest() -> None:
            with contextlib.suppress(PeerGone):
                await run_guest(session, agent, link, None)

        n.start_soon(guest)
        await agent.owes.wait()
        await play(invite, me, session, link, s)
        n.cancel_scope.cancel()


async def _host_and(play: Play, *, grace: float = 30.0, move: float = MOVE) -> tuple[Session, float]:
    """Host a two-seat game with ``play``'s guest until the host ends it: the host's session, and
    how long the move was owed before (the host then lingers for the guest: not waited for)."""
    g = Game("ecarte", 2, {}, grace=grace)
    plan = g.host_plan(timeouts=Timeouts(obligation=30.0, move=move), keepalive=BEAT)
    owed_at: list[float] = []
    ended: list[tuple[Session, float]] = []

    async def guest_play(
        invite: Invite, me: Identity, s: GuestSession, link: NetLink, raw: SecureStream
    ) -> None:
        owed_at.append(trio.current_time())
        await play(invite, me, s, link, raw)

    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:

            async def host() -> None:
                await host_game(plan, g.seen[0])

            async def end() -> None:
                while (s := g.seen[0].session) is None or not s.finished:
                    await g.seen[0].changed.wait()
                ended.append((s, trio.current_time()))
                n.cancel_scope.cancel()

            n.start_soon(host)
            n.start_soon(end)
            await g.seen[0].listening_ready.wait()
            assert g.seen[0].invite is not None
            await _guest(g.seen[0].invite, guest_play)
    session, at = ended[0]
    return session, at - owed_at[0]


def _blamed(session: Session) -> str:
    aborted = session.aborted
    assert aborted is not None and aborted.blamed == (1,), aborted
    return aborted.reason


async def _quiet_then_ping(
    invite: Invite, me: Identity, s: GuestSession, link: NetLink, raw: SecureStream
) -> None:
    link.quiet = True  # type: ignore[attr-defined]
    await trio.sleep_forever()


def test_a_seat_that_goes_quiet_and_pings_again_and_again_is_blamed_after_its_time() -> None:
    session, held = trio.run(_host_and, _quiet_then_ping)
    assert "timed out waiting for" in _blamed(session)
    assert held < MOVE + 2 * BEAT.interval + 1.25 + 1, held  # its time, then heard once more


async def _drop_and_come_back(
    invite: Invite, me: Identity, s: GuestSession, link: NetLink, raw: SecureStream
) -> None:
    link.fail("cut")  # no goodbye: a dropped link
    for _ in range(1000):
        back, *_ = await rejoin(Connector(invite, me, keepalive=BEAT), 1, s.seq, s.last_hash)
        await trio.sleep(0.5)  # there, then gone again at once
        await back.aclose()


def test_a_seat_that_drops_and_comes_back_again_and_again_is_blamed_within_twice_its_time() -> None:
    session, held = trio.run(_host_and, _drop_and_come_back)
    assert "timed out waiting for" in _blamed(session)
    assert held < 2 * MOVE + 2, held


GRACE = 2.0


async def _away_nearly_the_grace(
    invite: Invite, me: Identity, s: GuestSession, link: NetLink, raw: SecureStream
) -> None:
    link.fail("cut")  # no goodbye: a dropped link
    for _ in range(100):
        await trio.sleep(GRACE - 0.8)
        back, *_ = await rejoin(Connector(invite, me, keepalive=BEAT), 1, s.seq, s.last_hash)
        await back.aclose()


def test_a_seat_that_comes_back_just_before_its_grace_ends_and_drops_again_is_blamed_after_the_grace() -> (
    None
):
    session, held = trio.run(lambda: _host_and(_away_nearly_the_grace, grace=GRACE, move=math.inf))
    reason = _blamed(session)
    assert f"was away {GRACE:g} s in all while the game waited for" in reason, reason
    assert held < GRACE + 2, held
