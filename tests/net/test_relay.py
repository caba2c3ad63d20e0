"""The transit relay path, in one process over loopback: a real ``twist transitrelay`` (the
``transit_relay`` fixture), relays that misbehave in every way the issue lists, the host's
doors, joiners racing for the seats, and happy eyeballs choosing direct over relay.

The misbehaving relays are small trio servers written here: hostile peers, like the garbage
clients of the lobby tests. Every wait is bounded.
"""

from __future__ import annotations

import os
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import trio

from fairdeal import registry
from fairdeal.core.errors import FairdealError, RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.net import HostPlan, JoinPlan, NetOutcome, Prepared, host_game, join_game, wire
from fairdeal.net import events as ev
from fairdeal.net.connect import Connected, connect_host
from fairdeal.net.doors import keep_doors
from fairdeal.net.driver import BotAgent
from fairdeal.net.errors import NetError, RelayError
from fairdeal.net.invite import Endpoint, Invite
from fairdeal.net.link import Keepalive, NetLink
from fairdeal.net.lobby import Joiner, Lobby, LobbyLimits, Offer, TableOffer
from fairdeal.net.relay import relay_connect
from fairdeal.net.stream import PeerClosed, SecureStream, secure_connect

HOST = Identity.from_seed(b"H" * 32)
SECRET = bytes(range(16))
LIMIT = 60
FAST = Keepalive(interval=0.2, silence=5.0, close=1.0)
SHORT = LobbyLimits(first_message=2.0, handshake=4.0, hello=4.0, pending=16, report_burst=1000)


def _dead_port() -> int:
    """A loopback port nothing listens on (connections to it are refused at once)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Recorder:
    def __init__(self) -> None:
        self.drops: list[tuple[str, str]] = []
        self.joins: list[Joiner] = []
        self.leaves: list[Joiner] = []
        self.ready: list[str] = []
        self.trouble: list[str] = []

    def __call__(self, event: ev.NetEvent) -> None:
        match event:
            case ev.Joined(joiner, lobby):
                self.joined(joiner, lobby)
            case ev.LeftLobby(joiner, reason, lobby):
                self.left(joiner, reason, lobby)
            case ev.Rejected(address, reason):
                self.rejected(address, reason)
            case ev.RejectedMany(count, reasons, seconds):
                self.rejected_many(count, reasons, seconds)
            case ev.RelayStatus(relay, True):
                self.relay_ready(relay)
            case ev.RelayStatus(relay, False, reason):
                self.relay_trouble(relay, reason)
            case ev.RelayDoorTaken(relay):
                self.relay_door_taken(relay)
            case _:
                pass

    def rejected_many(self, count: int, reasons: object, seconds: float) -> None:
        pass

    def relay_door_taken(self, relay: str) -> None:
        pass

    def joined(self, joiner: Joiner, lobby: wire.Lobby) -> None:
        self.joins.append(joiner)

    def left(self, joiner: Joiner, reason: str, lobby: wire.Lobby) -> None:
        self.leaves.append(joiner)

    def rejected(self, address: str, reason: str) -> None:
        self.drops.append((address, reason))

    def relay_ready(self, relay: str) -> None:
        self.ready.append(relay)

    def relay_trouble(self, relay: str, reason: str) -> None:
        self.trouble.append(reason)


async def until(cond: Callable[[], bool], limit: float = 10.0) -> None:
    with trio.fail_after(limit):
        while not cond():
            await trio.sleep(0.01)


# -- the relay protocol itself, against the real relay ------------------------------------------------
@pytest.mark.trio
async def test_the_real_relay_pairs_two_sides_and_forwards_bytes(transit_relay: Endpoint) -> None:
    inv = Invite(HOST.fingerprint, SECRET, (), transit_relay, 1)
    token = inv.relay_token(0)
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            got: dict[str, Any] = {}

            async def host() -> None:
                s = await relay_connect(transit_relay, token, inv.relay_side("host"))
                await s.send_all(b"from host")
                got["host"] = await s.receive_some(100)
                await s.aclose()

            n.start_soon(host)
            await trio.sleep(0.2)
            j = await relay_connect(transit_relay, token, inv.relay_side("joiner"), pair_timeout=10)
            got["joiner"] = await j.receive_some(100)
            await j.send_all(b"from joiner")
        await j.aclose()
    assert got == {"host": b"from joiner", "joiner": b"from host"}


@pytest.mark.trio
async def test_two_joiners_on_one_door_never_pair_with_each_other(transit_relay: Endpoint) -> None:
    inv = Invite(HOST.fingerprint, os.urandom(16), (), transit_relay, 1)
    token, side = inv.relay_token(0), inv.relay_side("joiner")
    with trio.fail_after(LIMIT):
        outcomes: list[str] = []

        async def joiner() -> None:
            try:
                s = await relay_connect(transit_relay, token, side, pair_timeout=1.0)
            except RelayError as exc:
                outcomes.append(exc.kind)
            else:
                outcomes.append("paired")
                await s.aclose()

        async with trio.open_nursery() as n:
            n.start_soon(joiner)
            n.start_soon(joiner)
    assert outcomes == ["timeout", "timeout"]


# -- relays that misbehave ------------------------------------------------------------------------
Behaviour = Callable[[trio.SocketStream], Awaitable[None]]


async def _read_request(s: trio.SocketStream) -> bytes:
    data = b""
    while not data.endswith(b"\n") and len(data) < 200:
        chunk = await s.receive_some(200)
        if not chunk:
            break
        data += chunk
    return data


def _answers(reply: bytes, then_close: bool = True) -> Behaviour:
    async def serve(s: trio.SocketStream) -> None:
        await _read_request(s)
        await s.send_all(reply)
        if not then_close:
            await trio.sleep_forever()

    return serve


async def _silent(s: trio.SocketStream) -> None:
    await _read_request(s)
    await trio.sleep_forever()


async def _closes(s: trio.SocketStream) -> None:
    await _read_request(s)


BAD_RELAYS: dict[str, tuple[Behaviour, str]] = {
    "never pairs": (_silent, "no host is waiting there for this code"),
    "closes early": (_closes, "the relay closed the connection before pairing"),
    "refuses": (_answers(b"bad handshake\n"), "refused the request (bad handshake)"),
    "answers garbage": (_answers(b"HTTP/1.1 400 Bad Request\r\n\r\n"), "not its protocol"),
    "a line too long": (_answers(b"o" + b"x" * 200, then_close=False), "not its protocol"),
    "binary noise": (_answers(os.urandom(64).replace(b"\n", b"")), "not its protocol"),
    "more than it should": (_answers(b"ok\n" + bytes(100)), "did not complete the handshake"),
    "pairs, then says nothing": (_answers(b"ok\n", then_close=False), "said nothing in"),
    "pairs, then closes": (_answers(b"ok\n"), "closed the connection in the handshake"),
}
#: Relays that can still be tried again: the joiner keeps at it until its connect timeout.
KEEPS_TRYING = {
    "never pairs",
    "closes early",
    "more than it should",
    "pairs, then says nothing",
    "pairs, then closes",
}


async def _fake_relay(
    behaviour: Behaviour, nursery: trio.Nursery, served: list[int] | None = None
) -> Endpoint:
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")

    async def handler(s: trio.SocketStream) -> None:
        if served is not None:
            served.append(1)
        async with s:
            await behaviour(s)

    nursery.start_soon(trio.serve_listeners, handler, listeners)
    return Endpoint("127.0.0.1", listeners[0].socket.getsockname()[1])


@pytest.mark.parametrize("name", list(BAD_RELAYS))
@pytest.mark.trio
async def test_a_misbehaving_relay_ends_in_one_clear_line(name: str) -> None:
    """What the relay did is said in one line; a relay that pairs nothing, keeps closing or pairs
    strays is tried again, with back-off, until the connect timeout (not three rounds in 2 s)."""
    behaviour, words = BAD_RELAYS[name]
    dead = Endpoint("127.0.0.1", _dead_port())
    served: list[int] = []
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            relay = await _fake_relay(behaviour, n, served)
            invite = Invite(HOST.fingerprint, SECRET, (dead,), relay, 2)
            start = trio.current_time()
            with pytest.raises(NetError) as info:
                await connect_host(invite, Identity.generate(), connect_timeout=4, relay_delay=0.1)
            took = trio.current_time() - start
            assert took < 10
            n.cancel_scope.cancel()
    text = str(info.value)
    assert words in text and "\n" not in text, text
    assert f"{dead}: nothing answers there (connection refused)" in text and f"relay {relay}" in text
    assert "no host is waiting" not in text or name == "never pairs", text
    if name in KEEPS_TRYING:
        assert took >= 3.9, (took, text)
    if name in ("closes early", "pairs, then closes"):
        assert 8 <= len(served) <= 60, (len(served), text)  # backed off, not given up, not a spin


@pytest.mark.trio
async def test_the_host_reports_relay_trouble_once_and_keeps_its_lobby_open() -> None:
    rec = Recorder()
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            relay = await _fake_relay(_answers(b"bad handshake\n"), n)
            invite = Invite(HOST.fingerprint, SECRET, (), relay, 3)
            offered: list[str] = []
            with trio.move_on_after(3.5):  # first tries and two retries of every door
                await keep_doors(invite, lambda s, a: offered.append(a), rec)
            n.cancel_scope.cancel()
    assert offered == [] and len(rec.trouble) == 1 and "bad handshake" in rec.trouble[0]
    assert rec.ready == []


# -- the host's doors with the real relay ---------------------------------------------------------
def _table(players: int) -> TableOffer:
    return TableOffer("ecarte", "fairdeal", "0.1.0", {"target": 5}, players)


async def _hello(c: Connected, invite: Invite, name: str) -> tuple[SecureStream, wire.Message]:
    await c.secure.send(wire.encode(wire.Hello(invite.session)))
    msg = wire.decode(await c.secure.receive())
    if isinstance(msg, wire.Welcome):
        await c.secure.send(wire.encode(wire.Ready(name, "bot:test")))
    return c.secure, msg


@pytest.mark.trio
async def test_joiners_come_through_the_doors_and_a_freed_seat_is_taken_again(
    transit_relay: Endpoint,
) -> None:
    rec = Recorder()
    dead = Endpoint("127.0.0.1", _dead_port())
    invite = Invite(HOST.fingerprint, os.urandom(16), (dead,), transit_relay, 2)
    lobby = Lobby(
        HOST, invite.session, _table(3), wire.LobbySeat("Host", HOST.fingerprint, "human"),
        report=rec, keepalive=FAST, limits=SHORT,
    )  # fmt: skip
    result: dict[int, tuple[Joiner, NetLink]] = {}

    async def doors(offer: Offer) -> None:
        await keep_doors(invite, offer, rec)

    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as links:

            async def run() -> None:
                result.update(await lobby.fill([], links, [doors]))

            links.start_soon(run)
            await until(lambda: rec.ready != [])

            # A peer on a relay door that does not speak Noise: dropped, and the door opens again.
            raw = await relay_connect(transit_relay, invite.relay_token(0), invite.relay_side("joiner"))
            await raw.send_all(b"\x00\x05hello")  # not a Noise message 1 (32 bytes)
            await until(lambda: len(rec.drops) == 1)
            assert rec.drops[0][0] == f"relay {transit_relay} (door 0)"
            await raw.aclose()

            # Alice comes in through the relay, then leaves: her seat is free again.
            alice = await connect_host(invite, Identity.from_seed(b"A" * 32), relay_delay=0)
            assert alice.path == "relay" and alice.via == str(transit_relay)
            a, welcome = await _hello(alice, invite, "Alice")
            assert isinstance(welcome, wire.Welcome) and welcome.seat == 1
            await until(lambda: len(rec.joins) == 1)
            await a.aclose()
            await until(lambda: len(rec.leaves) == 1)

            # Bob and Carol take the two seats, Bob possibly Alice's.
            got = []
            for seed, name in ((b"B", "Bob"), (b"C", "Carol")):
                c = await connect_host(invite, Identity.from_seed(seed * 32), relay_delay=0)
                got.append(await _hello(c, invite, name))
            assert sorted(w.seat for _, w in got if isinstance(w, wire.Welcome)) == [1, 2]
            await until(lambda: len(result) == 2)
            for _, link in result.values():
                await link.aclose("test over")
            for s, _ in got:
                await s.aclose()
    assert {j.name for j, _ in result.values()} == {"Bob", "Carol"}
    assert all(addr.startswith(f"relay {transit_relay} (door ") for addr in (j.address for j in rec.joins))


@pytest.mark.trio
async def test_an_impostor_on_a_relay_door_is_not_the_host(transit_relay: Endpoint) -> None:
    invite = Invite(HOST.fingerprint, os.urandom(16), (), transit_relay, 1)
    impostor = Identity.from_seed(b"I" * 32)
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:

            async def pretend() -> None:
                s = await relay_connect(transit_relay, invite.relay_token(0), invite.relay_side("host"))
                with pytest.raises((RemoteProtocolError, PeerClosed)):
                    await secure_connect(s, impostor, initiator=False, handshake_timeout=10)

            n.start_soon(pretend)
            await trio.sleep(0.3)
            with pytest.raises(RemoteProtocolError, match="host identity does not match the invite") as info:
                await connect_host(invite, Identity.generate(), connect_timeout=5)
    # Every path (the relay's doors, here) met the same other identity: it is named.
    assert f"the peer is {impostor.fingerprint}" in str(info.value)
    assert f"the invite names {HOST.fingerprint}" in str(info.value)


# -- happy eyeballs ---------------------------------------------------------------------------------
@pytest.mark.trio
async def test_direct_beats_the_relay_and_the_relay_wins_when_direct_is_dead(transit_relay: Endpoint) -> None:
    rec = Recorder()
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    live = Endpoint("127.0.0.1", port)
    dead = Endpoint("127.0.0.1", _dead_port())
    invite = Invite(HOST.fingerprint, os.urandom(16), (live,), transit_relay, 2)
    lobby = Lobby(
        HOST, invite.session, _table(3), wire.LobbySeat("Host", HOST.fingerprint, "human"),
        report=rec, keepalive=FAST, limits=SHORT,
    )  # fmt: skip

    async def doors(offer: Offer) -> None:
        await keep_doors(invite, offer, rec)

    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as links:
            links.start_soon(lobby.fill, listeners, links, [doors])
            await until(lambda: rec.ready != [])
            both = await connect_host(invite, Identity.from_seed(b"D" * 32))
            assert (both.path, both.via) == ("direct", str(live))
            relayed = Invite(invite.fingerprint, invite.secret, (dead,), transit_relay, 2)
            only = await connect_host(relayed, Identity.from_seed(b"R" * 32))
            assert (only.path, only.via) == ("relay", str(transit_relay))
            for c, name in ((both, "Direct"), (only, "Relayed")):
                _, welcome = await _hello(c, invite, name)
                assert isinstance(welcome, wire.Welcome)
            await until(lambda: len(rec.joins) == 2)
            assert {j.name: j.address.startswith("relay ") for j in rec.joins} == {
                "Direct": False,
                "Relayed": True,
            }
            links.cancel_scope.cancel()
    # The relay attempt of the first joiner never started or was closed before it mattered:
    # nothing but the two joiners was seated.
    assert len(rec.joins) == 2


# -- a whole race for the seats through the relay ----------------------------------------------------
class _Seating:
    def __init__(self) -> None:
        self.code_ready = trio.Event()
        self.invite: Invite | None = None
        self.relay_up = trio.Event()

    def __call__(self, event: ev.NetEvent) -> None:
        match event:
            case ev.Listening(_, invite):
                self.invite = invite
                self.code_ready.set()
            case ev.RelayStatus(_, True):
                self.relay_up.set()
            case _:
                pass


def _bot(game: str, seed: int) -> BotAgent:
    reg = registry.load()
    return BotAgent(reg.bot(game).make(), random.Random(seed))


@pytest.mark.slow
@pytest.mark.trio
async def test_joiners_race_for_the_seats_through_the_relay(transit_relay: Endpoint) -> None:
    reg = registry.load()
    entry = reg.entry("snatch")
    players, racers = 4, 6
    seating = _Seating()
    plan = HostPlan(
        game=entry.game, plugin=entry.plugin, distribution=entry.distribution, version=entry.version,
        options=dict(entry.game.config(players, {}).options), players=players, identity=HOST,
        name="Host", kind="bot", agent=_bot("snatch", 0), bind="127.0.0.1", relay=transit_relay,
    )  # fmt: skip
    outcomes: dict[int, NetOutcome | BaseException] = {}
    host_box: list[NetOutcome] = []
    ids = [Identity.from_seed(bytes([i]) * 32) for i in range(1, racers + 1)]

    async def joiner(i: int, invite: Invite) -> None:
        def prepare(w: wire.Welcome) -> Prepared:
            return Prepared(reg.game(w.game), _bot(w.game, i), f"Racer {i}", "bot")

        try:
            outcomes[i] = await join_game(
                JoinPlan(invite, ids[i], prepare, connect_timeout=12, relay_delay=0)
            )
        except FairdealError as exc:
            outcomes[i] = exc

    with trio.fail_after(180):
        async with trio.open_nursery() as n:

            async def host() -> None:
                host_box.append(await host_game(plan, seating))

            n.start_soon(host)
            await seating.code_ready.wait()
            await seating.relay_up.wait()
            assert seating.invite is not None
            dead = Endpoint("127.0.0.1", _dead_port())
            relayed = Invite(
                HOST.fingerprint, seating.invite.secret, (dead,), transit_relay, seating.invite.doors
            )
            for i in range(racers):
                n.start_soon(joiner, i, relayed)
    played = {i: o for i, o in outcomes.items() if isinstance(o, NetOutcome)}
    refused = {i: o for i, o in outcomes.items() if not isinstance(o, NetOutcome)}
    assert len(played) == players - 1 and len(refused) == racers - players + 1, outcomes
    for exc in refused.values():
        text = str(exc)
        assert "the table is full" in text or "no host is waiting" in text, text
    header = host_box[0].session.header
    seated = {s.identity for s in header.seats[1:]}
    assert seated == {ids[i].public_key for i in played}
    assert all(o.error is None and o.session.finished for o in played.values())
