"""The host's lobby and the keepalive link, in one process over loopback TCP. Every test is bounded."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import msgpack
import pytest
import trio
import trio.testing

from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.net import events as ev
from fairdeal.net import wire
from fairdeal.net.driver import PeerGone
from fairdeal.net.flood import LIMIT as LIMIT_FLOOD
from fairdeal.net.framing import encode_frame
from fairdeal.net.link import Keepalive, NetLink
from fairdeal.net.lobby import Joiner, Lobby, LobbyLimits, TableOffer
from fairdeal.net.stream import PeerClosed, SecureStream, secure_connect

HOST = Identity.from_seed(b"H" * 32)
SESSION = b"sess-id!"
LIMIT = 20
FAST = Keepalive(interval=0.05, silence=0.5, close=0.5)
SHORT = LobbyLimits(first_message=1.0, handshake=2.0, hello=2.0, pending=8, report_burst=1000)


class Recorder:
    def __init__(self) -> None:
        self.drops: list[tuple[str, str]] = []
        self.joins: list[Joiner] = []
        self.leaves: list[tuple[Joiner, str]] = []

    def __call__(self, event: ev.NetEvent) -> None:
        match event:
            case ev.Joined(joiner, lobby):
                self.joined(joiner, lobby)
            case ev.LeftLobby(joiner, reason, lobby):
                self.left(joiner, reason, lobby)
            case ev.Rejected(address, reason):
                self.rejected(address, reason)
            case _:
                pass

    def joined(self, joiner: Joiner, lobby: wire.Lobby) -> None:
        self.joins.append(joiner)

    def left(self, joiner: Joiner, reason: str, lobby: wire.Lobby) -> None:
        self.leaves.append((joiner, reason))

    def rejected(self, address: str, reason: str) -> None:
        self.drops.append((address, reason))


async def until(cond: Callable[[], bool], limit: float = 5.0) -> None:
    with trio.fail_after(limit):
        while not cond():
            await trio.sleep(0.01)


def _lobby(rec: Recorder, players: int = 3) -> Lobby:
    table = TableOffer("ecarte", "fairdeal", "0.1.0", {"target": 5}, players)
    host_seat = wire.LobbySeat("Host", HOST.fingerprint, "human")
    return Lobby(HOST, SESSION, table, host_seat, report=rec, keepalive=FAST, limits=SHORT)


async def _connect(port: int, identity: Identity, **kwargs: object) -> SecureStream:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    return await secure_connect(stream, identity, initiator=True, handshake_timeout=2, **kwargs)  # type: ignore[arg-type]


async def _raw(port: int, data: bytes) -> bytes:
    """Send ``data`` on a plain TCP connection, half-close, and return what comes back."""
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    got = b""
    try:  # the host may drop the connection at the first bytes it refuses
        await stream.send_all(data)
        await stream.send_eof()
        with trio.move_on_after(3):
            while chunk := await stream.receive_some(4096):
                got += chunk
    except trio.BrokenResourceError:
        pass
    await stream.aclose()
    return got


async def _join(port: int, identity: Identity, name: str) -> tuple[SecureStream, wire.Welcome]:
    s = await _connect(port, identity, expected_peer_fingerprint=HOST.fingerprint)
    await s.send(wire.encode(wire.Hello(SESSION)))
    welcome = wire.decode(await s.receive())
    assert isinstance(welcome, wire.Welcome)
    await s.send(wire.encode(wire.Ready(name, "bot:test")))
    return s, welcome


async def _refusal(s: SecureStream) -> str:
    """The reason of the ``refused`` message the host sends before it closes."""
    msg = wire.decode(await s.receive())
    assert isinstance(msg, wire.Refused)
    with pytest.raises((PeerClosed, trio.BrokenResourceError, RemoteProtocolError)):
        await s.receive()
    return msg.reason


@pytest.mark.trio
async def test_bad_clients_are_dropped_and_the_lobby_fills() -> None:
    rec = Recorder()
    lobby = _lobby(rec)
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    result: dict[int, tuple[Joiner, NetLink]] = {}
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as links:

            async def run_lobby() -> None:
                result.update(await lobby.fill(listeners, links))

            links.start_soon(run_lobby)
            n = 0

            async def expect(words: str) -> None:
                nonlocal n
                n += 1
                await until(lambda: len(rec.drops) >= n)
                assert words in rec.drops[-1][1], rec.drops

            # Raw garbage, a truncated frame, an oversized first frame, a silent client.
            assert await _raw(port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n") == b""
            await expect("that is not a fairdeal client")  # refused at its first bytes
            await _raw(port, b"\x00\x40" + b"\x01" * 10)
            await expect("closed during the handshake")
            await _raw(port, b"\xff\xff" + b"\x00" * 65535)
            await expect("")
            silent = await trio.open_tcp_stream("127.0.0.1", port)
            await expect("sent no handshake within 1 s")
            await silent.aclose()
            slow = await trio.open_tcp_stream("127.0.0.1", port)  # the first message, then nothing
            await slow.send_all(encode_frame(bytes([9]) + bytes(31)))  # a valid X25519 key
            await expect("handshake did not finish within 2 s")
            await slow.aclose()

            # A failed handshake: another prologue.
            with pytest.raises(RemoteProtocolError):
                await _connect(port, Identity.from_seed(b"p" * 32), prologue=b"other/v9")
            await expect("")

            # A valid handshake, then malformed msgpack: refused with the reason.
            s = await _connect(port, Identity.from_seed(b"m" * 32))
            await s.send(b"\xc1\xc1\xc1")
            assert "not msgpack" in await _refusal(s)
            await expect("not msgpack")

            # An oversized application message length inside the encrypted stream.
            s = await _connect(port, Identity.from_seed(b"o" * 32))
            channel = s.channel
            cipher = channel._send_cipher  # type: ignore[attr-defined]
            frame = encode_frame(cipher.encrypt_with_ad(b"", (2**31).to_bytes(4, "big") + b"x"))
            await s._stream.send_all(frame)  # type: ignore[attr-defined]
            # A framing error inside the channel: the host still says why it closes.
            assert "exceeds the limit" in await _refusal(s)
            await expect("exceeds the limit")
            await s.aclose()

            # Valid msgpack, but not a hello; a wrong session id; another protocol.
            s = await _connect(port, Identity.from_seed(b"n" * 32))
            await s.send(wire.encode(wire.Ping(1)))
            assert "must be hello" in await _refusal(s)
            await expect("must be hello")
            s = await _connect(port, Identity.from_seed(b"s" * 32))
            await s.send(wire.encode(wire.Hello(b"other!!!")))
            assert "wrong session id" in await _refusal(s)
            await expect("wrong session id")
            s = await _connect(port, Identity.from_seed(b"v" * 32))
            await s.send(wire.encode(wire.Hello(SESSION, protocol=1)))
            assert "protocol 1 is not spoken here" in await _refusal(s)
            await expect("protocol 1")

            # The host's own identity; a silent joiner after the handshake.
            s = await _connect(port, HOST)
            await s.send(wire.encode(wire.Hello(SESSION)))
            assert "host's own identity" in await _refusal(s)
            await expect("host's own identity")
            s = await _connect(port, Identity.from_seed(b"q" * 32))
            assert "did not send hello within 2 s" in await _refusal(s)
            await expect("did not send hello within 2 s")
            await s.aclose()

            # A joiner that declines the welcome.
            s = await _connect(port, Identity.from_seed(b"d" * 32))
            await s.send(wire.encode(wire.Hello(SESSION)))
            assert isinstance(wire.decode(await s.receive()), wire.Welcome)
            await s.send(wire.encode(wire.Bye("game not installed")))
            await expect("left before taking a seat: game not installed")
            await s.aclose()

            # A seated joiner that leaves frees its seat; one that sends an entry early is dropped.
            alice = Identity.from_seed(b"A" * 32)
            a1, w = await _join(port, alice, "Alice")
            assert w.seat == 1 and w.players == 3 and w.options == {"target": 5}
            await until(lambda: len(rec.joins) == 1)
            dup = await _connect(port, alice)
            await dup.send(wire.encode(wire.Hello(SESSION)))
            assert "already has a seat" in await _refusal(dup)
            await expect("already has a seat")
            await a1.aclose()
            await until(lambda: len(rec.leaves) == 1)
            rude, w = await _join(port, Identity.from_seed(b"R" * 32), "Rude")
            assert w.seat == 1
            await until(lambda: len(rec.joins) == 2)
            await rude.send(wire.encode(wire.Entry(b"early")))
            await until(lambda: len(rec.leaves) == 2)
            assert "before the game started" in rec.leaves[-1][1]

            # Proper joiners fill the table; each gets lobby updates.
            bob, wb = await _join(port, Identity.from_seed(b"B" * 32), "Bob")
            carol, wc = await _join(port, Identity.from_seed(b"C" * 32), "Carol")
            assert {wb.seat, wc.seat} == {1, 2}
            await until(lambda: len(result) == 2)
            seen: wire.Message | None = None
            while not (isinstance(seen, wire.Lobby) and seen.missing == 0):
                seen = wire.decode(await bob.receive())
            assert [s.name if s else None for s in seen.seats] == ["Host", "Bob", "Carol"] or [
                s.name if s else None for s in seen.seats
            ] == ["Host", "Carol", "Bob"]

            # Once the table is full the host closes its listeners: nobody else gets in.
            for listener in listeners:
                await listener.aclose()
            with pytest.raises(OSError):
                await trio.open_tcp_stream("127.0.0.1", port)
            assert all(link.alive for _, link in result.values())
            assert {j.name for j, _ in result.values()} == {"Bob", "Carol"}
            for _, link in result.values():
                await link.aclose("test over")
            await bob.aclose()
            await carol.aclose()
    for addr, reason in rec.drops:
        assert addr.startswith("127.0.0.1:") and reason


async def _link_pair(
    keepalive: Keepalive = FAST,
) -> tuple[NetLink, NetLink, SecureStream, SecureStream]:
    left, right = trio.testing.memory_stream_pair()
    out: dict[str, SecureStream] = {}

    async def host() -> None:
        out["h"] = await secure_connect(right, HOST, initiator=False)

    async with trio.open_nursery() as n:
        n.start_soon(host)
        out["g"] = await secure_connect(left, Identity.from_seed(b"G" * 32), initiator=True)
    h = NetLink(out["h"], role="host", peer="guest", keepalive=keepalive)
    g = NetLink(out["g"], role="guest", peer="the host", keepalive=keepalive)
    return h, g, out["h"], out["g"]


@pytest.mark.trio
async def test_keepalive_keeps_idle_links_open_and_entries_flow() -> None:
    with trio.fail_after(LIMIT):
        h, g, _, _ = await _link_pair()
        async with trio.open_nursery() as n:
            await n.start(h.run)
            await n.start(g.run)
            h.start_game()
            await trio.sleep(1.5)  # three silence limits without entries: pings keep both open
            assert h.alive and g.alive
            assert h.stats.received.get("ping", 0) >= 5 and h.stats.received.get("pong", 0) >= 5
            await g.send_entry(b"from guest")
            assert await h.receive_entry() == b"from guest"
            for i in range(50):
                await h.send_entry(b"e%d" % i)
            assert [await g.receive_entry() for _ in range(50)] == [b"e%d" % i for i in range(50)]
            await h.aclose("the game is over")
            with pytest.raises(PeerGone, match="left: the game is over"):
                await g.receive_entry()
            with pytest.raises(PeerGone):
                await h.send_entry(b"late")


@pytest.mark.trio
async def test_a_silent_peer_is_dropped() -> None:
    with trio.fail_after(LIMIT):
        h, _, _, g_stream = await _link_pair()
        async with trio.open_nursery() as n:
            await n.start(h.run)
            h.start_game()
            await g_stream.send(wire.encode(wire.Entry(b"one")))  # then nothing: no pongs, no pings
            assert await h.receive_entry() == b"one"
            start = trio.current_time()
            with pytest.raises(PeerGone, match=r"silent for 0\.5 s"):
                await h.receive_entry()
            assert 0.4 < trio.current_time() - start < 2
            await g_stream.aclose()


@pytest.mark.trio
async def test_malformed_messages_close_the_link_with_a_reason() -> None:
    with trio.fail_after(LIMIT):
        h, g, _, g_stream = await _link_pair()
        async with trio.open_nursery() as n:
            await n.start(h.run)
            await g_stream.send(wire.encode(wire.Entry(b"too early")))
            with pytest.raises(PeerGone, match="before the game started"):
                await h.receive_entry()
        h, g, _, g_stream = await _link_pair()
        async with trio.open_nursery() as n:
            await n.start(h.run)
            h.start_game()
            await g_stream.send(wire.encode(wire.Entry(b"kept")))
            await g_stream.send(msgpack.packb({"type": "entry"}))
            assert await h.receive_entry() == b"kept"  # what came before the fault is delivered
            with pytest.raises(PeerGone, match="malformed entry message"):
                await h.receive_entry()
        h, g, h_stream, _ = await _link_pair()
        lobbies: list[wire.Message] = []
        g.on_control = lobbies.append
        async with trio.open_nursery() as n:
            await n.start(g.run)
            lobby = wire.Lobby((wire.LobbySeat("Host", HOST.fingerprint, "human"), None))
            await h_stream.send(wire.encode(lobby))
            await h_stream.send(wire.encode(wire.Hello(SESSION)))
            with pytest.raises(PeerGone, match="unexpected hello"):
                await g.receive_entry()
            assert lobbies == [lobby]


@pytest.mark.trio
async def test_a_ping_flood_queues_nothing_and_is_dropped() -> None:
    with trio.fail_after(LIMIT):
        h, _, _, g_stream = await _link_pair()
        async with trio.open_nursery() as n:
            await n.start(h.run)
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                for i in range(3000):  # the guest never reads: at most one pong waits at a time
                    await g_stream.send(wire.encode(wire.Ping(i)))
                    assert h._queue_in.statistics().current_buffer_used <= 2  # type: ignore[attr-defined]
            await until(lambda: not h.alive)
            # Past the flood limit (net/flood.py), the pings that got no answer of their own end the link.
            assert h.error is not None and "pings while the answer to one was queued" in h.error
            assert h.stats.received["ping"] >= LIMIT_FLOOD + 1


@pytest.mark.trio
async def test_a_framing_error_that_comes_with_the_last_handshake_message_is_still_refused() -> None:
    """The joiner's handshake message 3 and a broken record in one TCP segment: the host completes
    the handshake, finds the record broken, and says so (``refused``) before it closes."""
    from fairdeal.net.secure import MessageReceived, SecureChannel

    rec = Recorder()
    lobby = _lobby(rec)
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as links:
            links.start_soon(lobby.fill, listeners, links)
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            channel = SecureChannel(Identity.from_seed(b"f" * 32), True)
            await stream.send_all(channel.initiate())
            while not channel.handshake_complete:
                channel.receive_data(await stream.receive_some(65536))
            cipher = channel._send_cipher  # type: ignore[attr-defined]
            broken = encode_frame(cipher.encrypt_with_ad(b"", b"\x00\x00\x00\x00"))  # a zero record length
            await stream.send_all(channel.data_to_send() + broken)
            got: list[bytes] = []
            while chunk := await stream.receive_some(65536):
                got += [e.payload for e in channel.receive_data(chunk) if isinstance(e, MessageReceived)]
            refused = wire.decode(got[0])
            assert isinstance(refused, wire.Refused) and "length" in refused.reason, refused
            await until(lambda: len(rec.drops) == 1)
            assert refused.reason in rec.drops[0][1]
            await stream.aclose()
            links.cancel_scope.cancel()
