"""Floods: a peer that sends, again and again, what is ignored or refused is dropped, with one line.

A seated guest of our own making (the project's own session, driver and link) against the
real ``fairdeal host``: it sends its shuffle pass again thousands of times, or chat lines with
bad signatures, or adjourn votes that change nothing. Each copy cost the host its decryption,
decoding and checks, with no end; now the link is dropped past a small count, and the host
says so in one line naming the guest. Pings and pongs nobody needs are counted the same way,
over a real loopback connection.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import replace
from pathlib import Path

import pytest
import trio

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.core.session.envelope import decode_envelope, entry_hash
from fairdeal.net import GuestSession, wire
from fairdeal.net.comeback import Connector, rejoin
from fairdeal.net.driver import BotAgent, PeerGone, run_guest
from fairdeal.net.events import AdjournVote, Away, Back
from fairdeal.net.flood import LIMIT
from fairdeal.net.follow import Follower
from fairdeal.net.invite import Invite, decode_invite
from fairdeal.net.link import Keepalive, NetLink
from fairdeal.net.roster import AFTER_END
from fairdeal.net.stream import secure_connect
from fairdeal.testing import seat_sessions

from .peers import LIMIT as PROCESS_LIMIT
from .peers import flat, host, sit_down
from .test_survive_net import Game

COPIES = 2_000


class Flooder(NetLink):
    """A guest's link that floods the host once the game is going: ``kind`` says with what."""

    kind = "entry"
    seat = 1
    flooded = False

    async def send_entry(self, data: bytes) -> None:
        await super().send_entry(data)
        if self.flooded:
            return
        if self.kind == "entry" and decode_envelope(data).kind == "deck.shuffle":
            self.flooded = True
            for _ in range(COPIES):  # its own pass, byte for byte, again and again
                self.send(wire.Entry(data))
        elif self.kind == "placed" and decode_envelope(data).kind == "deck.shuffle":
            self.flooded = True
            env = decode_envelope(data)
            for n in range(1, COPIES + 1):  # its own pass as written, placed elsewhere: other bytes each time
                where = replace(env, seq=n, prev=n.to_bytes(32, "big"), placed=bytes([n % 256]) * 64)
                self.send(wire.Entry(where.encode()))
        elif self.kind == "chat":
            self.flooded = True
            for n in range(1, COPIES + 1):  # lines in its own name whose signatures are wrong
                self.send(wire.Chat(self.seat, n, "spam", bytes(64)))
        elif self.kind == "votes":
            self.flooded = True
            for n in range(COPIES):  # votes in another seat's name, declines of nothing proposed
                self.send(wire.Adjourn(0, True) if n % 2 else wire.Adjourn(self.seat, False))


async def _flood(invite: Invite, kind: str) -> str:
    """Join as a guest that floods with ``kind``; what ended its link."""
    reg = registry.load()
    me, s, welcome = await sit_down(invite)
    session = GuestSession(
        reg.game(welcome.game), welcome.seat, me, welcome=welcome, name="Mallory", kind="bot"
    )
    link = Flooder(s, role="guest", peer="the host")
    link.kind, link.seat = kind, welcome.seat
    agent = BotAgent(reg.bot(welcome.game).make(), random.Random(5))
    with trio.fail_after(PROCESS_LIMIT):
        async with trio.open_nursery() as n:
            await n.start(link.run)
            with contextlib.suppress(PeerGone):
                await run_guest(session, agent, link, None)
            if kind == "late" and session.finished:
                link.flooded = True
                for k in range(COPIES):  # entries after the end, each other bytes, instead of goodbye
                    with contextlib.suppress(PeerGone):
                        link.send(wire.Entry(k.to_bytes(4, "big")))
                await link.closed.wait()
            n.cancel_scope.cancel()
    assert link.flooded
    return link.error or ""


WORDS = {
    "entry": "copies of an entry it had sent already",
    "placed": "copies of an entry it had sent already",
    "chat": "chat lines that were refused",
    "votes": "votes that changed nothing",
}


@pytest.mark.parametrize("kind", list(WORDS))
def test_a_guest_that_floods_the_host_is_dropped_with_one_line(tmp_path: Path, kind: str) -> None:
    peer, code = host(tmp_path, "snatch", "--grace", "1")
    error = trio.run(_flood, decode_invite(code), kind)
    assert peer.wait() == 1, peer.err  # it did not come back within the grace period
    said = flat(peer.out + "\n" + peer.err)
    dropped = [line for line in (peer.out + "\n" + peer.err).splitlines() if "Dropped Mallory" in line]
    assert len(dropped) == 1, said  # one line, however many copies came
    assert (
        f"Dropped Mallory's connection: {decode_invite(code).fingerprint}" not in said
    )  # the guest's, not the host's
    assert f"sent {LIMIT + 1} messages that were ignored or refused ({LIMIT + 1} {WORDS[kind]})" in said, said
    assert "the host" in error or "closed" in error or "left" in error, error  # the host hung up on it
    result = peer.result()
    assert result["aborted"]["blame"] == 1, result


def test_a_guest_that_sends_entries_after_the_end_is_dropped_with_one_line(tmp_path: Path) -> None:
    """After the end the host lingers until every guest says goodbye; what a guest sends meanwhile
    is ignored, and counted: a guest that sends entries instead of its goodbye is dropped."""
    peer, code = host(tmp_path, "snatch", "--grace", "1")
    error = trio.run(_flood, decode_invite(code), "late")
    assert peer.wait() == 0, peer.err
    said = flat(peer.out + "\n" + peer.err)
    dropped = [line for line in (peer.out + "\n" + peer.err).splitlines() if "Dropped Mallory" in line]
    assert len(dropped) == 1, said
    assert f"sent {LIMIT + 1} messages that were ignored or refused ({LIMIT + 1} {AFTER_END})" in said, said
    assert "closed" in error or "lost" in error, error
    assert peer.result()["verdict"] == "fair"


@pytest.mark.parametrize("what", ["pong", "ping"])
@pytest.mark.trio
async def test_pings_and_pongs_nobody_needs_are_counted_the_same_way(what: str) -> None:
    host_id, guest_id = Identity.generate(), Identity.generate()
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    links: list[NetLink] = []
    flooded: list[str] = []
    done = trio.Event()

    async def accept(stream: trio.SocketStream) -> None:
        secure = await secure_connect(stream, host_id, initiator=False)
        link = NetLink(secure, role="host", peer="seat 1", keepalive=Keepalive(interval=60))
        link.on_flood = flooded.append
        links.append(link)
        await link.run()
        done.set()

    with trio.fail_after(30):
        async with trio.open_nursery() as n:
            n.start_soon(trio.serve_listeners, accept, listeners)
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            guest = await secure_connect(stream, guest_id, initiator=True)
            # The host answers one ping at a time and sends a ping every 60 s: what comes on top is of no use.
            message = wire.Pong(1) if what == "pong" else wire.Ping(1)
            with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                await guest.send_many([wire.encode(message)] * 200)
            await done.wait()
            n.cancel_scope.cancel()
    assert len(flooded) == 1
    assert "seat 1 sent 21 messages that were ignored or refused" in flooded[0]
    assert links[0].error == flooded[0]


def test_a_guest_that_changes_its_vote_every_instant_is_heard_once_then_dropped() -> None:
    """Every change of a guest's adjourn vote is told to every player: at most one a second is
    taken, and a link that keeps trying is dropped (its program comes back, the game goes on)."""
    g = Game("snatch", 3, {})
    flooded: list[tuple[int, str]] = []
    g.seen[0].link_flooded = lambda seat, name, reason: flooded.append((seat, reason))  # type: ignore[method-assign]

    async def during(g: Game) -> None:
        assert await g.seen[0].reach(20)
        invite = g.seen[0].invite
        assert invite is not None
        have = g.logs[0].entries
        secure, *_ = await rejoin(
            Connector(invite, g.ids[1], connect_timeout=5), 1, len(have), entry_hash(have[-1])
        )
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            await secure.send_many([wire.encode(wire.Adjourn(1, n % 2 == 0)) for n in range(200)])
        with trio.fail_after(10):
            while not flooded:
                await trio.sleep(0.05)
        await secure.aclose()

    trio.run(g.play, during, {"auto_adjourn": False})
    votes = [v for v in g.seen[0].kinds("vote") if v[0] == 1]
    assert [v[:2] for v in votes] == [(1, True)], votes  # the first change, no more
    assert len(flooded) == 1 and flooded[0][0] == 1, flooded
    assert (
        f"sent {LIMIT + 1} messages that were ignored or refused ({LIMIT + 1} votes that changed nothing)"
        in (flooded[0][1])
    )
    assert all(o is not None and o.error is None and not o.adjourned for o in g.outcomes)
    g.check()


def _follower(
    votes_heard: list[tuple[int, bool]], names: list[str] | None = None, seen: list[object] | None = None
) -> Follower:
    """Seat 1's follower of a real three-seat game, its header in (``seen``: every event reported)."""
    from fairdeal.net.invite import SECRET_BYTES, Endpoint

    table = seat_sessions(registry.load().game("snatch"), 3, 5, names=names)
    session = table.sessions[1]
    session.receive(table.sessions[0].start(table.header))
    invite = Invite(table.identities[0].fingerprint, bytes(SECRET_BYTES), (Endpoint("127.0.0.1", 9),))

    def report(event: object) -> None:
        if seen is not None:
            seen.append(event)
        if isinstance(event, AdjournVote):
            votes_heard.append((event.seat, event.agree))

    return Follower(
        session=session,
        agent=None,
        connector=Connector(invite, table.identities[1]),
        grace=60,
        observe=lambda s, e: None,
        refuse=str,
        report=report,
        keeper=None,  # type: ignore[arg-type]
    )


def test_a_guest_counts_the_votes_a_host_relays_that_change_nothing() -> None:
    heard: list[tuple[int, bool]] = []
    f = _follower(heard)
    assert f.hear_vote(wire.Adjourn(2, True))
    assert not f.hear_vote(wire.Adjourn(2, True))  # agreed already
    assert not f.hear_vote(wire.Adjourn(7, True))  # no such seat
    assert f.hear_vote(wire.Adjourn(0, False))  # declined: the proposal falls
    assert not f.hear_vote(wire.Adjourn(0, False))  # nothing left to decline
    assert heard == [(2, True), (0, False)]  # the screen is told of changes only


def test_a_guest_names_seats_of_equal_names_apart_in_what_it_reports() -> None:
    """Away, back and adjourn votes name a seat as the table does: two Anns are 'Ann' and 'Ann (2)'."""
    seen: list[object] = []
    f = _follower([], ["Ann", "Bob", "Ann"], seen)
    f.control(wire.Away(2, 60))
    f.control(wire.Back(2))
    assert f.hear_vote(wire.Adjourn(0, True))
    away, back, vote = seen
    assert isinstance(away, Away) and away.name == "Ann (2)"
    assert isinstance(back, Back) and back.name == "Ann (2)"
    assert isinstance(vote, AdjournVote) and vote.name == "Ann" and vote.missing == ("Bob", "Ann (2)")


@pytest.mark.trio
async def test_a_host_that_repeats_votes_is_dropped_by_its_guest_with_one_line() -> None:
    host_id, guest_id = Identity.generate(), Identity.generate()
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    heard: list[tuple[int, bool]] = []
    follower = _follower(heard)
    flooded: list[str] = []

    async def accept(stream: trio.SocketStream) -> None:
        secure = await secure_connect(stream, host_id, initiator=False)
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            await secure.send_many([wire.encode(wire.Adjourn(2, True))] * 200)
            await trio.sleep(30)

    with trio.fail_after(30):
        async with trio.open_nursery() as n:
            n.start_soon(trio.serve_listeners, accept, listeners)
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            secure = await secure_connect(stream, guest_id, initiator=True)
            link = NetLink(secure, role="guest", peer="the host", keepalive=Keepalive(interval=60))
            link.on_adjourn = follower.hear_vote
            link.on_flood = flooded.append
            with contextlib.suppress(PeerGone):
                await link.run()
            n.cancel_scope.cancel()
    assert heard == [(2, True)]  # the first one counted, the rest changed nothing
    assert flooded == [link.error]
    assert f"the host sent {LIMIT + 1} messages that were ignored or refused" in flooded[0]
    assert "votes that changed nothing" in flooded[0]
