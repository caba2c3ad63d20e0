"""What a seated guest's flood costs the host: its CPU while the guest sends, as fast as it can,
what the host ignores or refuses.

    python bench/flood.py [--seconds 10] [--kinds entry,chat] [--quick]

The host is a real ``fairdeal host snatch`` process (a bot seat; its CPU is read from
``/proc``); the guest is this process, built on the project's own session, driver and
link: it plays until it has sent its shuffle pass, then floods for ``--seconds``:

* ``entry``: its own shuffle pass (about 6.9 kB) again and again, byte for byte;
* ``chat``: chat lines in its own name whose signatures are wrong.

A last row is the baseline anyone who knows the host's address can impose, seated or not:
new connections, each a whole handshake and a ``hello`` that the host refuses.

Each kind runs three times, in one run: with the flood count (``net/flood.py``) turned off
(the host as it was: it checks and ignores every copy), with it on (the link is dropped past
its limit, and the guest stops), and with it on against a guest that comes back (``rejoin``)
at once and floods again, over and over. The table gives the messages sent, how many
connections that took, and the host's CPU as a share of one core over the window.

Figures go with the machine they were measured on; compare rows of one run.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import trio

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.net import GuestSession, wire
from fairdeal.net.comeback import Connector, rejoin
from fairdeal.net.driver import BotAgent, PeerGone, run_guest
from fairdeal.net.invite import Invite, decode_invite
from fairdeal.net.link import NetLink
from fairdeal.net.stream import SecureStream, secure_connect

HOST = """
import functools, sys
if sys.argv[1] == "off":
    import fairdeal.net.link as link
    link.Flood = functools.partial(link.Flood, limit=10**9)
del sys.argv[1]
from fairdeal.cli.main import main
main()
"""
BATCH = 64
_BROKEN = (trio.BrokenResourceError, trio.ClosedResourceError, OSError, PeerGone)


@dataclass
class Row:
    kind: str
    mode: str
    sent: int
    connections: int
    cpu: float  # share of one core


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start_host(folder: Path, mode: str) -> tuple[subprocess.Popen[str], Invite]:
    code_file = folder / "invite.txt"
    args = ["host", "snatch", "--seat", "bot", "--bind", "127.0.0.1", "--port", "0", "--private",
            "--invite-file", str(code_file), "--grace", "600", "--timeout", "600", "--move-timeout", "600",
            "--log", str(folder / "host.fdlog")]  # fmt: skip
    env = {
        **os.environ,
        "FAIRDEAL_HOME": str(folder / "home"),
        "FAIRDEAL_RELAY": "none",
        "FAIRDEAL_MAILBOX": "none",
        "FAIRDEAL_LAN": "off",
    }
    proc = subprocess.Popen(
        [sys.executable, "-c", HOST, mode, *args],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if code_file.exists() and code_file.read_text().strip():
            return proc, decode_invite(code_file.read_text().strip())
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("the host did not start")


class _UpToPass(NetLink):
    """A guest's link that notes when its shuffle pass has gone out."""

    passed: bytes | None = None
    sent = trio.Event()

    async def send_entry(self, data: bytes) -> None:
        await super().send_entry(data)
        if self.passed is None and decode_envelope(data).kind == "deck.shuffle":
            self.passed = data
            self.sent.set()


async def _attack(invite: Invite, kind: str, seconds: float, again: bool, pid: int) -> tuple[int, int, float]:
    reg = registry.load()
    me = Identity.generate()
    stream = await trio.open_tcp_stream(invite.direct[0].host, invite.direct[0].port)
    secure = await secure_connect(stream, me, initiator=True, expected_peer_fingerprint=invite.fingerprint)
    await secure.send(wire.encode(wire.Hello(invite.session)))
    welcome = wire.decode(await secure.receive())
    assert isinstance(welcome, wire.Welcome)
    await secure.send(wire.encode(wire.Ready("Mallory", "bot")))
    game = reg.game(welcome.game)
    session = GuestSession(game, welcome.seat, me, welcome=welcome, name="Mallory", kind="bot")
    link = _UpToPass(secure, role="guest", peer="the host")
    link.sent = trio.Event()
    agent = BotAgent(reg.bot(welcome.game).make(), random.Random(1))
    async with trio.open_nursery() as n:
        await n.start(link.run)

        async def play() -> None:
            with contextlib.suppress(*_BROKEN):
                await run_guest(session, agent, link, None)

        n.start_soon(play)
        await link.sent.wait()
        await trio.sleep(0.5)  # its pass is in; from now on the guest does nothing but flood
        assert link.passed is not None
        if kind == "conns":
            result = await _connections(invite, seconds, pid)
        else:
            if kind == "entry":
                payloads = [wire.encode(wire.Entry(link.passed))] * BATCH
            else:
                payloads = [
                    wire.encode(wire.Chat(welcome.seat, k, "spam", bytes(64))) for k in range(1, BATCH + 1)
                ]
            result = await _flood(invite, me, session, secure, payloads, seconds, again, pid)
        n.cancel_scope.cancel()
    return result


async def _flood(
    invite: Invite,
    me: Identity,
    session: GuestSession,
    secure: SecureStream,
    payloads: list[bytes],
    seconds: float,
    again: bool,
    pid: int,
) -> tuple[int, int, float]:
    sent, connections = 0, 1
    cpu0, start = _cpu_seconds(pid), trio.current_time()
    current = secure
    with trio.move_on_at(start + seconds):
        while True:
            try:
                while True:
                    sent += len(payloads)  # (the last batch may be cut short when the host hangs up)
                    await current.send_many(payloads)
            except _BROKEN:
                pass
            if not again:
                await trio.sleep_forever()
            with contextlib.suppress(Exception):
                back = Connector(invite, me, connect_timeout=5)
                assert session.seat is not None
                current, *_ = await rejoin(back, session.seat, session.seq, session.last_hash)
                connections += 1
    return sent, connections, (_cpu_seconds(pid) - cpu0) / (trio.current_time() - start)


async def _connections(invite: Invite, seconds: float, pid: int) -> tuple[int, int, float]:
    """The baseline anyone can impose who knows the host's address, with no seat and no code: new
    connections as fast as one client makes them, each a whole handshake and a ``hello``."""
    me = Identity.generate()
    hello = wire.encode(wire.Hello(bytes(8)))
    connections = 0
    cpu0, start = _cpu_seconds(pid), trio.current_time()
    with trio.move_on_at(start + seconds):
        while True:
            with contextlib.suppress(Exception):
                stream = await trio.open_tcp_stream(invite.direct[0].host, invite.direct[0].port)
                connections += 1
                s = await secure_connect(
                    stream, me, initiator=True, expected_peer_fingerprint=invite.fingerprint
                )
                await s.send(hello)
                await s.receive()
                await s.aclose()
    return 0, connections, (_cpu_seconds(pid) - cpu0) / (trio.current_time() - start)


def measure(kind: str, mode: str, seconds: float) -> Row:
    with tempfile.TemporaryDirectory(prefix="fairdeal-flood-") as tmp:
        proc, invite = _start_host(Path(tmp), "off" if mode == "off" else "on")
        try:
            sent, connections, cpu = trio.run(
                _attack, invite, kind, seconds, mode == "on, comes back", proc.pid
            )
        finally:
            proc.kill()
            proc.wait()
    return Row(kind, mode, sent, connections, cpu)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--kinds", default="entry,chat")
    ap.add_argument("--quick", action="store_true", help="2 s floods")
    args = ap.parse_args(argv)
    seconds = 2.0 if args.quick else args.seconds
    print(f"{'flood':6} {'count':16} {'sent':>9} {'conns':>6} {'host CPU':>9}")
    for kind in args.kinds.split(","):
        for mode in ("off", "on", "on, comes back"):
            r = measure(kind, mode, seconds)
            print(f"{r.kind:6} {r.mode:16} {r.sent:9d} {r.connections:6d} {r.cpu:8.0%}")
    r = measure("conns", "no seat, no code", seconds)
    print(f"{r.kind:6} {r.mode:16} {'-':>9} {r.connections:6d} {r.cpu:8.0%}")


if __name__ == "__main__":
    main()
