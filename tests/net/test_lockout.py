"""Nobody without the code can lock the lobby: idle or stalled connections, held or reopened as fast
as they are dropped, all from the joiner's own address, never keep out a joiner with the code; and
the host's terminal gets a summary, not a line per drop. At the lobby level and through the real
``fairdeal host`` and ``fairdeal join``. Every attacker loop is bounded in count and time."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import trio

from fairdeal.core.identity import Identity
from fairdeal.net import events as ev
from fairdeal.net import wire
from fairdeal.net.framing import encode_frame
from fairdeal.net.invite import decode_invite
from fairdeal.net.link import Keepalive, NetLink
from fairdeal.net.lobby import Joiner, Lobby, LobbyLimits, TableOffer
from fairdeal.net.stream import SecureStream, secure_connect

from .peers import check_logs, host, join

HOST = Identity.from_seed(b"H" * 32)
SESSION = b"sess-id!"
LIMIT = 120
EPHEMERAL = bytes([9]) + bytes(31)  # a valid X25519 public key: a well-formed first message


@dataclass
class Attack:
    """Connections an attacker holds and reopens; counts what happened to them."""

    opened: int = 0
    dropped: int = 0
    holding: int = 0
    reasons: list[str] = field(default_factory=list)


async def _hold(port: int, attack: Attack, *, first_message: bool, rounds: int) -> None:
    """One attacker slot: connect (and maybe send a first handshake message), hold it until the
    host drops it, reconnect at once; at most ``rounds`` times."""
    for _ in range(rounds):
        try:
            s = await trio.open_tcp_stream("127.0.0.1", port)
        except OSError:
            await trio.sleep(0.01)
            continue
        attack.opened += 1
        attack.holding += 1
        try:
            if first_message:
                await s.send_all(encode_frame(EPHEMERAL))
            while await s.receive_some(65536):
                pass  # the host's handshake message 2: read it and never answer
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        finally:
            attack.holding -= 1
            attack.dropped += 1
            await trio.aclose_forcefully(s)


class Recorder:
    def __init__(self) -> None:
        self.lines = 0
        self.summaries: list[tuple[int, Mapping[str, int]]] = []
        self.joins: list[Joiner] = []

    def __call__(self, event: ev.NetEvent) -> None:
        match event:
            case ev.Joined(joiner, lobby):
                self.joined(joiner, lobby)
            case ev.Rejected(address, reason):
                self.rejected(address, reason)
            case ev.RejectedMany(count, reasons, seconds):
                self.rejected_many(count, reasons, seconds)
            case _:
                pass

    def joined(self, joiner: Joiner, lobby: wire.Lobby) -> None:
        self.joins.append(joiner)

    def rejected(self, address: str, reason: str) -> None:
        self.lines += 1

    def rejected_many(self, count: int, reasons: Mapping[str, int], seconds: float) -> None:
        self.summaries.append((count, dict(reasons)))


async def _join(port: int, identity: Identity, name: str) -> tuple[wire.Welcome, SecureStream]:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    s = await secure_connect(stream, identity, initiator=True, expected_peer_fingerprint=HOST.fingerprint)
    await s.send(wire.encode(wire.Hello(SESSION)))
    welcome = wire.decode(await s.receive())
    assert isinstance(welcome, wire.Welcome), welcome
    await s.send(wire.encode(wire.Ready(name, "bot:test")))
    return welcome, s


@pytest.mark.trio
async def test_joiners_get_in_while_idle_and_stalled_connections_flood_the_lobby() -> None:
    rec = Recorder()
    limits = LobbyLimits(first_message=5.0, handshake=10.0, hello=10.0, pending=16, report_window=1.0)
    table = TableOffer("ecarte", "fairdeal", "0.1.0", {}, 3)
    lobby = Lobby(
        HOST, SESSION, table, wire.LobbySeat("Host", HOST.fingerprint, "human"),
        report=rec, keepalive=Keepalive(interval=1, silence=30), limits=limits,
    )  # fmt: skip
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    idle, stalled = Attack(), Attack()
    seated: dict[int, tuple[Joiner, NetLink]] = {}
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as links:

            async def run() -> None:
                seated.update(await lobby.fill(listeners, links))

            links.start_soon(run)
            async with trio.open_nursery() as attackers:
                for _ in range(40):  # far more than the 16 admitted at once, from the same address
                    attackers.start_soon(lambda: _hold(port, idle, first_message=False, rounds=200))
                for _ in range(10):
                    attackers.start_soon(lambda: _hold(port, stalled, first_message=True, rounds=200))
                with trio.fail_after(20):
                    while idle.dropped < 100 or stalled.opened < 10:  # the flood is on: drops, reopens
                        await trio.sleep(0.01)
                w1, alice = await _join(port, Identity.from_seed(b"A" * 32), "Alice")
                w2, bob = await _join(port, Identity.from_seed(b"B" * 32), "Bob")
                assert {w1.seat, w2.seat} == {1, 2}
                with trio.fail_after(10):
                    while len(seated) < 2:
                        await trio.sleep(0.01)
                attackers.cancel_scope.cancel()
            for _, link in seated.values():
                await link.aclose("test over")
            await alice.aclose()
            await bob.aclose()
            for listener in listeners:
                await listener.aclose()
    assert {j.name for j, _ in seated.values()} == {"Alice", "Bob"}
    # Thousands of drops would be thousands of lines: at most 10 a second here, the rest summarised.
    assert idle.dropped >= 100 and rec.summaries, (idle, rec.lines)
    elapsed_windows = len(rec.summaries) + 2
    assert rec.lines <= 10 * elapsed_windows + 10
    reasons = {r for _, rs in rec.summaries for r in rs}
    assert any("gave way to a newer connection" in r for r in reasons), reasons


@pytest.mark.slow
@pytest.mark.trio
async def test_fairdeal_join_gets_in_while_idle_connections_flood_fairdeal_host(tmp_path: Path) -> None:
    h, code = host(tmp_path, "ecarte", "--option", "target=1")
    port = decode_invite(code).direct[0].port
    attack = Attack()
    try:
        with trio.fail_after(LIMIT):
            async with trio.open_nursery() as attackers:
                for _ in range(100):  # more than the host admits at once (64)
                    attackers.start_soon(lambda: _hold(port, attack, first_message=False, rounds=100))
                with trio.fail_after(30):
                    while attack.dropped < 200:
                        await trio.sleep(0.01)
                g = join(tmp_path, "guest", code)
                rc = await trio.to_thread.run_sync(g.wait)
                attackers.cancel_scope.cancel()
        assert rc == 0, g.err
        assert await trio.to_thread.run_sync(h.wait) == 0, h.err[-3000:]
    finally:
        h.kill()
    check_logs([h, g])
    lines = h.err.splitlines()
    dropped = [x for x in lines if x.startswith("Dropped a connection")]
    summaries = [x for x in lines if re.match(r"Dropped \d+ more connections in the last 10 s", x)]
    assert attack.dropped >= 200
    assert summaries, h.err[-2000:]
    assert len(dropped) <= 10 * (len(summaries) + 2), len(dropped)
    assert "gave way to a newer connection" in "".join(summaries)
    assert "closed during the handshake" not in g.err
