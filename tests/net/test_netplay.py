"""``fairdeal host`` / ``fairdeal join`` end to end: real processes over loopback TCP.

Every peer's log must verify and be byte-identical; every ``--json`` object the same
but for the log path. Hostile clients against the lobby, and a guest that sends a bad
entry during the game, must never crash the host. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import os
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trio

from fairdeal import registry
from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.logfile import parse_log
from fairdeal.core.session.verify import verify_log
from fairdeal.net import GuestSession, JoinPlan, NetOutcome, Prepared, join_game, wire
from fairdeal.net.driver import BotAgent, PeerGone, run_guest
from fairdeal.net.framing import encode_frame
from fairdeal.net.invite import Invite, decode_invite
from fairdeal.net.link import NetLink
from fairdeal.net.stream import secure_connect

from .peers import LIMIT, sit_down
from .peers import check_logs as _check_logs
from .peers import flat as _flat
from .peers import host as _host
from .peers import join as _join
from .peers import same_results as _same_results

GAMES = [
    ("ecarte", 2, ["--option", "target=3"]),
    ("spite-malice", 2, ["--option", "target=1", "--option", "max_games=1"]),
    ("snatch", 5, []),
]


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g for g, _, _ in GAMES])
def test_bots_play_a_full_game_over_tcp(tmp_path: Path, game: str, players: int, options: list[str]) -> None:
    host, code = _host(tmp_path, game, "--players", str(players), *options)
    guests = [_join(tmp_path, f"guest{i}", code) for i in range(1, players)]
    codes = [g.wait() for g in guests]
    assert host.wait() == 0, host.err
    assert codes == [0] * len(guests), [g.err for g in guests]
    peers = [host, *guests]
    result = _same_results(peers)
    assert result["game"] == game and result["verdict"] == "fair" and result["aborted"] is None
    assert len(result["names"]) == players and result["seats"][0].startswith("bot:")
    _check_logs(peers)
    assert "took seat" in host.err and "The game begins" in host.err
    for g in guests:
        assert "Connected directly to 127.0.0.1:" in g.err and "as the invite says" in _flat(g.err)


def test_bad_codes_and_a_wrong_host_identity_stop_the_joiner(tmp_path: Path) -> None:
    damaged = _join(tmp_path, "damaged", "fd1:aech6aaaagojlo7nlvay6qudtfbovvvn7hgcqndtn5e4npyh")
    assert damaged.wait() == 2 and "damaged or mistyped" in damaged.err
    host, code = _host(tmp_path, "ecarte", "--option", "target=1")
    real = decode_invite(code)
    impostor = Invite(Identity.from_seed(b"x" * 32).fingerprint, real.secret, real.direct)
    wrong = _join(tmp_path, "wrong", impostor.encode())
    assert wrong.wait() == 2
    assert "host identity does not match the invite" in wrong.err
    guest = _join(tmp_path, "guest", code)
    assert guest.wait() == 0 and host.wait() == 0
    _same_results([host, guest])
    _check_logs([host, guest])


async def _garbage(port: int, session: bytes) -> None:
    """Hostile and broken clients, one after the other, each closed by the host or by itself."""

    async def raw(data: bytes) -> None:
        s = await trio.open_tcp_stream("127.0.0.1", port)
        await s.send_all(data)
        with trio.move_on_after(0.3):
            await s.receive_some(100)
        await s.aclose()

    async def secure(identity: Identity, *, prologue: bytes | None = None) -> Any:
        s = await trio.open_tcp_stream("127.0.0.1", port)
        kwargs = {"prologue": prologue} if prologue else {}
        return await secure_connect(s, identity, initiator=True, handshake_timeout=5, **kwargs)

    await raw(os.urandom(200))  # garbage
    await raw(b"\x00\x30" + b"\x00" * 7)  # a truncated frame
    await raw(b"\xff\xff" + os.urandom(4000))  # an oversized first frame, cut short
    with pytest.raises(RemoteProtocolError, match=r"decrypt|authentic"):  # another prologue: message 2 fails
        await secure(Identity.generate(), prologue=b"not-fairdeal")
    s = await secure(Identity.generate())  # malformed msgpack after a good handshake
    await s.send(b"\xc1 not msgpack")
    assert isinstance(wire.decode(await s.receive()), wire.Refused)
    await s.aclose()
    s = await secure(Identity.generate())  # an oversized application message
    cipher = s.channel._send_cipher  # type: ignore[attr-defined]
    await s._stream.send_all(encode_frame(cipher.encrypt_with_ad(b"", b"\xff\xff\xff\xff" + b"x")))  # type: ignore[attr-defined]
    await s.aclose()
    s = await secure(Identity.generate())  # the wrong session id
    await s.send(wire.encode(wire.Hello(bytes(8) if session != bytes(8) else b"\x01" * 8)))
    refused = wire.decode(await s.receive())
    assert isinstance(refused, wire.Refused) and "session" in refused.reason
    await s.aclose()


def test_garbage_clients_cannot_break_the_lobby(tmp_path: Path) -> None:
    host, code = _host(tmp_path, "ecarte", "--option", "target=2")
    invite = decode_invite(code)
    trio.run(_garbage, invite.direct[0].port, invite.session)
    assert host.proc.poll() is None, "the host died"
    guest = _join(tmp_path, "guest", code)
    assert guest.wait() == 0, guest.err
    assert host.wait() == 0, host.err
    result = _same_results([host, guest])
    assert result["verdict"] == "fair"
    _check_logs([host, guest])
    dropped = [line for line in host.err.splitlines() if line.startswith("Dropped a connection")]
    assert len(dropped) >= 7, host.err
    for words in ("not msgpack", "exceeds the limit", "wrong session id", "handshake"):
        assert any(words in line for line in dropped), (words, host.err)


class _Cheater:
    """A link that corrupts the guest's ``nth`` outgoing entry."""

    def __init__(self, link: NetLink, nth: int, how: str, identity: Identity) -> None:
        self.link, self.nth, self.how, self.identity = link, nth, how, identity
        self.sent = 0
        self.heard: list[bytes] = []

    async def send_entry(self, data: bytes) -> None:
        self.sent += 1
        if self.sent == self.nth:
            if self.how == "stall":  # keep the connection (pongs and all) but never send this entry
                return
            env = decode_envelope(data)
            if self.how == "signature":
                data = replace(env, sig=bytes([env.sig[0] ^ 1]) + env.sig[1:]).encode()
            else:  # a properly signed entry that answers another point of the log (an earlier one,
                # which no entry of this seat answers: else it would be two entries for one point)
                answered = {env.anchor} | {
                    e.anchor for e in map(decode_envelope, self.heard) if e.seat == env.seat
                }
                old = next(e for e in map(decode_envelope, reversed(self.heard)) if e.hash() not in answered)
                point = {"anchor_seq": old.seq, "anchor": old.hash(), "anchor_sig": old.placed}
                data = replace(env, **point).signed(self.identity).encode()
        await self.link.send_entry(data)

    async def receive_entry(self) -> bytes:
        data = bytes(await self.link.receive_entry())
        self.heard.append(data)
        return data


async def _cheat(invite: Invite, how: str) -> GuestSession:
    reg = registry.load()
    me, s, welcome = await sit_down(invite)
    game = reg.game(welcome.game)
    agent = BotAgent(reg.bot(welcome.game).make(), random.Random(1))
    session = GuestSession(game, welcome.seat, me, welcome=welcome, name="Mallory", kind="bot")
    link = NetLink(s, role="guest", peer="the host")
    async with trio.open_nursery() as n:
        await n.start(link.run)
        with contextlib.suppress(PeerGone):
            await run_guest(session, agent, _Cheater(link, 3, how, me), None)
        await link.aclose("bye")
    return session


@pytest.mark.parametrize(
    ("how", "reason"),
    [
        ("signature", "bad signature"),
        ("anchor", "another point of the log"),
        ("stall", "timed out waiting for"),
    ],
)
def test_a_bad_entry_aborts_the_game_with_blame(tmp_path: Path, how: str, reason: str) -> None:
    host, code = _host(tmp_path, "ecarte", "--timeout", "1")
    session = trio.run(_cheat, decode_invite(code), how)
    assert host.wait() == 1, host.err
    result = host.result()
    assert result["aborted"]["blame"] == 1 and reason in result["aborted"]["reason"]
    assert result["verdict"] == "undecided"
    # The cheater received the abort too: its session ended the same way.
    assert session.aborted is not None and session.aborted.blame == 1
    data = host.log.read_bytes()
    entries = parse_log(data).entries
    last = decode_envelope(entries[-1])
    assert last.kind == "abort" and last.body["blame"] == [1]
    report = verify_log(data, registry.load().game)
    assert report.verdict == "undecided"
    assert report.findings[0].seat == 1 and "aborted" in report.findings[0].reason


def test_a_guest_that_vanishes_mid_game_is_blamed_after_the_grace_period(tmp_path: Path) -> None:
    # A game to 10 points: far from over when the first shuffle is in the log and the guest dies.
    host, code = _host(tmp_path, "ecarte", "--timeout", "10", "--grace", "1", "--option", "target=10")
    guest = _join(tmp_path, "guest", code)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (guest.log.exists() and guest.log.stat().st_size > 2000):
        time.sleep(0.01)
    guest.proc.kill()
    guest.wait()
    assert host.wait() == 1, host.err
    result = host.result()
    assert result["aborted"]["blame"] == 1 and "did not come back within 1 s" in result["aborted"]["reason"]
    report = verify_log(host.log.read_bytes(), registry.load().game)
    assert report.verdict == "undecided" and report.findings[0].seat == 1


def test_secure_channel_is_the_one_documented() -> None:
    # docs/protocol.md states the Noise protocol name and prologue; keep them in step.
    from fairdeal.net.secure import DEFAULT_PROLOGUE, NOISE_HASH

    assert DEFAULT_PROLOGUE == b"fairdeal/v1" and NOISE_HASH == "SHA256"
    docs = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    assert "Noise_XX_25519_ChaChaPoly_SHA256" in docs and "`fairdeal/v1`" in docs


class _Stuck:
    """An agent that never decides (a person gone for coffee); tells when it is asked."""

    def __init__(self) -> None:
        self.asked = trio.Event()

    async def decide(self, session: object, moves: object) -> None:
        self.asked.set()
        await trio.sleep_forever()


class _MemoryLog:
    def __init__(self) -> None:
        self.data = bytearray(b"FDLOG1\n")

    def append(self, entry: bytes) -> None:
        self.data += len(entry).to_bytes(4, "big") + entry

    def close(self) -> None:
        pass


def test_an_abort_reaches_a_guest_that_is_deciding(tmp_path: Path) -> None:
    host, code = _host(tmp_path, "snatch", "--players", "3", "--grace", "0.5")
    other = _join(tmp_path, "other", code)
    stuck, log = _Stuck(), _MemoryLog()
    reg = registry.load()

    def prepare(w: wire.Welcome) -> Prepared:
        return Prepared(reg.game(w.game), stuck, "Stuck", "human")  # type: ignore[arg-type]

    async def main() -> NetOutcome:
        plan = JoinPlan(decode_invite(code), Identity.generate(), prepare, open_log=lambda h: log)
        box: list[NetOutcome] = []
        with trio.fail_after(LIMIT):
            async with trio.open_nursery() as n:

                async def play() -> None:
                    box.append(await join_game(plan))

                n.start_soon(play)
                await stuck.asked.wait()
                other.proc.kill()  # the other guest vanishes while this one thinks
        return box[0]

    outcome = trio.run(main)
    other.wait()
    assert host.wait() == 1, host.err
    session = outcome.session
    assert session.aborted is not None and outcome.error is None
    blamed = session.aborted.blame
    assert blamed is not None and host.result()["aborted"]["blame"] == blamed
    assert bytes(log.data) == host.log.read_bytes()  # the abort is in the stuck guest's log too
