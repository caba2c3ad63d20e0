"""Code holders who squat on the host's relay doors, at a real ``twist transitrelay``.

Whoever holds the invite code (another invitee, a neighbour who saw the LAN announcement,
the relay operator who reads the tokens) can wait on the host's doors. The squatters here
are built on the project's own relay client and Noise channel: one waits with the *host's*
side and answers the handshake with its own identity, over and over; one waits with the
*joiners'* side and closes each pairing at once, as fast as it can. Every join still
reaches the host, the host's door churn stays within its bound, and the words say what
happened. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Callable
from typing import Literal

import pytest
import trio

from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.net import doors as doors_module
from fairdeal.net import wire
from fairdeal.net.connect import connect_host
from fairdeal.net.doors import DOOR_BURST, DOOR_RATE, keep_doors
from fairdeal.net.errors import NetError, RelayError
from fairdeal.net.invite import Endpoint, Invite
from fairdeal.net.link import NetLink
from fairdeal.net.lobby import Joiner, Lobby, Offer
from fairdeal.net.relay import PrefixedStream, relay_connect
from fairdeal.net.stream import SecureStream, secure_connect

from .test_relay import FAST, HOST, LIMIT, SHORT, Recorder, _dead_port, _hello, _table, until

IMPOSTOR = Identity.from_seed(b"I" * 32)


class Squatter:
    """A code holder who waits on one door of the relay again and again, on ``side``.

    ``host`` side: it answers the joiner's handshake as the Noise responder with its own
    identity. ``joiner`` side: it closes each pairing at once. ``paired`` counts its pairings.
    """

    def __init__(self, relay: Endpoint, invite: Invite, side: Literal["host", "joiner"]) -> None:
        self.relay, self.invite, self.side = relay, invite, side
        self.paired = 0

    async def squat(self, door: int) -> None:
        token, side = self.invite.relay_token(door), self.invite.relay_side(self.side)
        while True:
            try:
                stream = await relay_connect(self.relay, token, side)
            except RelayError:
                continue  # closed as a leftover when the host's connection was paired: again
            self.paired += 1
            if self.side == "joiner":
                await stream.aclose()
                continue
            await self._pretend(stream)

    async def _pretend(self, stream: PrefixedStream) -> None:
        with contextlib.suppress(Exception):
            secure = await secure_connect(stream, IMPOSTOR, initiator=False, handshake_timeout=5)
            await secure.aclose()
        await trio.aclose_forcefully(stream)


# The joiners here keep their connection open but run no link, so they answer no ping: the host's
# silence limit must outlast the joins of a whole test (each meets the squatters first), or under
# load a seat taken early is dropped as silent before the last joiner is seated.
PATIENT = dataclasses.replace(FAST, silence=LIMIT)


def _lobby(invite: Invite, rec: Recorder, players: int = 4) -> Lobby:
    return Lobby(
        HOST, invite.session, _table(players), wire.LobbySeat("Host", HOST.fingerprint, "human"),
        report=rec, keepalive=PATIENT, limits=SHORT,
    )  # fmt: skip


KEPT: list[SecureStream] = []


async def _join(invite: Invite, name: str, timeout: float = 15) -> int:
    """Join through the relay alone; the seat the host gave (the connection is kept open)."""
    c = await connect_host(invite, Identity.generate(), connect_timeout=timeout, relay_delay=0)
    assert c.path == "relay"
    secure, welcome = await _hello(c, invite, name)
    assert isinstance(welcome, wire.Welcome), welcome
    KEPT.append(secure)
    return welcome.seat


class Taken(Recorder):
    def __init__(self) -> None:
        super().__init__()
        self.taken: list[str] = []

    def relay_door_taken(self, relay: str) -> None:
        self.taken.append(relay)


@pytest.mark.trio
async def test_a_squatter_with_the_hosts_side_keeps_no_joiner_out(transit_relay: Endpoint) -> None:
    """The squatter answers with its own identity: a stray. Each joiner closes it and tries again
    until it reaches the host; nobody is told the host is an impostor, and the host, whose
    waiting connection the relay closes whenever a joiner is paired with the squatter, reports
    no trouble."""
    dead = Endpoint("127.0.0.1", _dead_port())
    invite = Invite(HOST.fingerprint, os.urandom(16), (dead,), transit_relay, 2)
    relay_only = Invite(invite.fingerprint, invite.secret, (), transit_relay, invite.doors)
    rec = Taken()
    lobby = _lobby(invite, rec)
    squatters = [Squatter(transit_relay, invite, "host") for _ in range(2)]
    result: dict[int, tuple[Joiner, NetLink]] = {}

    async def doors(offer: Offer) -> None:
        await keep_doors(invite, offer, rec)

    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            for s in squatters:
                for door in range(invite.doors):
                    n.start_soon(s.squat, door)
            # The first joiner comes while only the squatters wait: it meets them, and keeps trying.
            first = trio.Event()
            seats: list[int] = []

            async def early() -> None:
                seats.append(await _join(relay_only, "Early"))
                first.set()

            n.start_soon(early)
            await until(lambda: sum(s.paired for s in squatters) >= 1)
            assert not first.is_set()

            async def fill() -> None:
                result.update(await lobby.fill([], n, [doors]))

            n.start_soon(fill)  # the host opens its doors now
            await first.wait()
            # Two more joiners, with the squatters and the host on every door.
            for name in ("Second", "Third"):
                seats.append(await _join(relay_only, name))
            await until(lambda: len(result) == 3)
            for _, link in result.values():
                await link.aclose("test over")
            n.cancel_scope.cancel()
    assert sorted(seats) == [1, 2, 3]
    assert rec.trouble == [], rec.trouble  # a door closed under the host is not trouble


@pytest.mark.trio
async def test_a_door_closed_under_the_host_is_open_again_at_once(transit_relay: Endpoint) -> None:
    """A joiner paired with a squatter on the host's side makes the relay close the host's own
    waiting connection: the host opens the door again at once (no back-off) and says so once."""
    invite = Invite(HOST.fingerprint, os.urandom(16), (), transit_relay, 1)
    rec = Taken()
    token, host_side, joiner_side = (
        invite.relay_token(0),
        invite.relay_side("host"),
        invite.relay_side("joiner"),
    )
    offered: list[PrefixedStream] = []
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            n.start_soon(keep_doors, invite, lambda s, a: offered.append(s), rec)  # type: ignore[arg-type]
            await until(lambda: rec.ready != [])
            # A squatter waits beside the host; a joiner's connection is paired with one of the
            # two (the relay picks), and the other is closed. Until it is the host's that closes:
            closed_under_host = False
            for _ in range(30):
                before = len(offered)
                squatter = await _waiting(transit_relay, token, host_side, n)
                paired = await relay_connect(transit_relay, token, joiner_side, pair_timeout=2)
                await until(lambda w=squatter, b=before: w.done.is_set() or len(offered) > b)  # type: ignore[misc]
                await paired.aclose()
                if squatter.paired:
                    closed_under_host = True
                    break
                squatter.cancel()  # the host's was paired: it reopens as always; again
                await trio.sleep(0.3)  # its new connection is at the relay
            assert closed_under_host
            # The host's door is waiting again at once: a joiner is paired within half a second
            # (the back-off for a relay in trouble would have paused it a whole second first).
            start = trio.current_time()
            again = await relay_connect(transit_relay, token, joiner_side, pair_timeout=0.5)
            assert trio.current_time() - start < 0.5
            await again.aclose()
            n.cancel_scope.cancel()
    assert rec.trouble == [] and rec.taken == [str(transit_relay)]


class _Waiting:
    def __init__(self) -> None:
        self.done = trio.Event()
        self.paired = False
        self.scope = trio.CancelScope()

    def cancel(self) -> None:
        self.scope.cancel()


async def _waiting(relay: Endpoint, token: str, side: str, nursery: trio.Nursery) -> _Waiting:
    """A connection waiting on ``token`` with ``side``; ``done`` once it is paired (or closed)."""
    w = _Waiting()
    waiting = trio.Event()

    async def run() -> None:
        with w.scope:
            try:
                s = await relay_connect(relay, token, side, on_waiting=waiting.set)
            except RelayError:
                pass
            else:
                w.paired = True
                await s.aclose()
        w.done.set()

    nursery.start_soon(run)
    await waiting.wait()
    await trio.sleep(0.05)  # the request line is at the relay
    return w


@pytest.mark.trio
async def test_a_squatter_with_the_joiners_side_costs_the_host_a_bounded_churn(
    transit_relay: Endpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A code holder pairs with the host's doors as fast as it can and closes each pairing: the
    host opens at most DOOR_BURST + DOOR_RATE × t relay connections a door in t seconds, and a
    joiner still gets in."""
    opened: list[float] = []
    real = doors_module.relay_connect

    async def counted(*args: object, **kwargs: object) -> PrefixedStream:
        opened.append(trio.current_time())
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(doors_module, "relay_connect", counted)
    dead = Endpoint("127.0.0.1", _dead_port())
    invite = Invite(HOST.fingerprint, os.urandom(16), (dead,), transit_relay, 2)
    relay_only = Invite(invite.fingerprint, invite.secret, (), transit_relay, invite.doors)
    rec = Taken()
    lobby = _lobby(invite, rec, players=2)
    squatter = Squatter(transit_relay, invite, "joiner")
    result: dict[int, tuple[Joiner, NetLink]] = {}
    window = 5.0

    async def doors(offer: Offer) -> None:
        await keep_doors(invite, offer, rec)

    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:

            async def fill() -> None:
                result.update(await lobby.fill([], n, [doors]))

            n.start_soon(fill)
            await until(lambda: rec.ready != [])
            start = trio.current_time()
            for door in range(invite.doors):
                n.start_soon(squatter.squat, door)
            await trio.sleep(window)
            churn = len([t for t in opened if t >= start])
            seat = await _join(relay_only, "Joiner")
            await until(lambda: len(result) == 1)
            for _, link in result.values():
                await link.aclose("test over")
            n.cancel_scope.cancel()
    bound = invite.doors * (DOOR_BURST + DOOR_RATE * window + 1)
    assert squatter.paired >= invite.doors * DOOR_BURST  # it did pair with the host, many times
    assert churn <= bound, (churn, bound)
    assert seat == 1


@pytest.mark.trio
async def test_different_identities_on_the_paths_are_not_called_a_mismatch_of_the_host(
    transit_relay: Endpoint,
) -> None:
    """A direct address whose host is someone else is named as such; a squatter with yet another
    identity on the relay is a stray: the error lists both paths, it does not say the host is
    an impostor as a whole. With one same identity on every path, it says so and names it."""
    other = Identity.from_seed(b"O" * 32)
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    direct = Endpoint("127.0.0.1", listeners[0].socket.getsockname()[1])

    def serve_as(identity: Identity) -> Callable[[trio.SocketStream], object]:
        async def handler(stream: trio.SocketStream) -> None:
            with contextlib.suppress(Exception):
                await secure_connect(stream, identity, initiator=False, handshake_timeout=5)
            await trio.aclose_forcefully(stream)

        return handler

    invite = Invite(HOST.fingerprint, os.urandom(16), (direct,), transit_relay, 1)
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            n.start_soon(trio.serve_listeners, serve_as(other), listeners)
            n.start_soon(Squatter(transit_relay, invite, "host").squat, 0)
            with pytest.raises(NetError) as mixed:
                await connect_host(invite, Identity.generate(), connect_timeout=4, relay_delay=0.1)
            n.cancel_scope.cancel()
    text = str(mixed.value)
    assert not isinstance(mixed.value, RemoteProtocolError)
    assert f"{direct}: host identity does not match the invite: the peer is {other.fingerprint}" in text
    assert f"relay {transit_relay}: " in text and f"proved identity {IMPOSTOR.fingerprint}" in text

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    direct = Endpoint("127.0.0.1", listeners[0].socket.getsockname()[1])
    invite = Invite(HOST.fingerprint, os.urandom(16), (direct,), transit_relay, 1)
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            n.start_soon(trio.serve_listeners, serve_as(IMPOSTOR), listeners)
            n.start_soon(Squatter(transit_relay, invite, "host").squat, 0)
            with pytest.raises(RemoteProtocolError) as same:
                await connect_host(invite, Identity.generate(), connect_timeout=4, relay_delay=0.1)
            n.cancel_scope.cancel()
    assert str(same.value) == (
        f"host identity does not match the invite: the peer is {IMPOSTOR.fingerprint} "
        f"(at {direct} and relay {transit_relay}'s doors), the invite names {HOST.fingerprint}"
    )
