"""The drivers with links that drop: seats held and taken back, catch-up, entries sent again,
equivocation, watchers, and a seat that never comes back. In one process, over memory links.

Every game here must end with every peer's log byte-identical and fair, no entry lost or
doubled; a cheat must end it with the right seat blamed and the evidence in the log.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
import trio

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng
from fairdeal.core.session import EntryAccepted, Event
from fairdeal.core.session.envelope import GENESIS, decode_envelope, entry_hash
from fairdeal.core.session.header import Header, SeatInfo
from fairdeal.core.session.logfile import MAGIC, record
from fairdeal.core.session.session import Session
from fairdeal.core.session.verify import verify_log
from fairdeal.net.driver import BotAgent, PeerGone, Timeouts, run_guest, run_host
from fairdeal.net.local import MemoryLink, link_pair
from fairdeal.net.roster import Roster

LIMIT = 60
FIRST: dict[int, dict[int, MemoryLink]] = {}  # each roster's first links, the guests' ends


@dataclass
class Seat:
    session: Session
    agent: Any
    log: bytearray = field(default_factory=lambda: bytearray(MAGIC))

    def observe(self, session: Session, events: Sequence[Event]) -> None:
        for ev in events:
            if isinstance(ev, EntryAccepted):
                self.log += record(ev.data)

    @property
    def last(self) -> bytes:
        return self.session.last_hash


class Table:
    """A host and guests of ``game``, every seat its own session and keys, seeded."""

    def __init__(self, name: str, players: int, options: dict[str, Any], seed: int = 5) -> None:
        reg = registry.load()
        self.game = reg.game(name)
        config = self.game.config(players, dict(options))
        master = SeededRng(seed)
        self.ids = [Identity.generate(master.fork(f"identity-{i}")) for i in range(players)]
        self.header = Header(
            master.fork("game-id").bytes(16), name, name, "fairdeal-tests", "0", dict(config.options),
            tuple(SeatInfo(f"Bot {i}", self.ids[i].public_key, "bot") for i in range(players)),
        )  # fmt: skip
        bot = reg.bot(name)
        self.seats = [
            Seat(Session(self.game, i, self.ids[i], master.fork(f"seat-{i}")),
                 BotAgent(bot.make(), random.Random(seed * 10 + i)))
            for i in range(players)
        ]  # fmt: skip
        self.players = players

    def check(self, watchers: Sequence[Seat] = (), verdict: str = "fair") -> bytes:
        data = bytes(self.seats[0].log)
        for s in [*self.seats[1:], *watchers]:
            assert bytes(s.log) == data, "a peer's log differs from the host's"
        report = verify_log(data, lambda name: self.game)
        assert report.verdict == verdict, report.findings
        return data


class Cut:
    """A guest's end of a memory link that goes dead at a chosen moment (both ways at once).

    ``after(n_received, n_sent, data)`` is asked after each entry: True cuts the link there.
    ``swallow``: the entry that triggered the cut on sending never reaches the host.
    """

    def __init__(self, link: MemoryLink, peer: MemoryLink, cut: Callable[[str, int, bytes], bool]) -> None:
        self.link, self.peer, self.cut = link, peer, cut
        self.received = self.sent = 0
        self.dead = False
        self.swallow = False

    async def kill(self) -> None:
        self.dead = True
        await self.link.aclose()
        await self.peer.aclose()

    async def send_entry(self, data: bytes) -> None:
        if self.dead:
            raise PeerGone("cut")
        self.sent += 1
        if self.cut("sent", self.sent, data):
            if not self.swallow:
                await self.link.send_entry(data)
            await self.kill()
            return  # the guest believes it sent it; the host may or may not have it
        await self.link.send_entry(data)

    async def receive_entry(self) -> bytes:
        if self.dead:
            raise PeerGone("cut")
        data = await self.link.receive_entry()
        self.received += 1
        if self.cut("received", self.received, data):
            await self.kill()
            raise PeerGone("cut")
        return data


async def guest_that_comes_back(
    t: Table, roster: Roster, seat: int, cut: Callable[[str, int, bytes], bool], swallow: bool = False,
    max_returns: int = 500,
) -> int:  # fmt: skip
    """Play seat ``seat``, coming back on a new link each time the link is cut; how many times it came back.

    Its first link must be in the roster already (``roster.links[seat]``, the guest's end in
    ``roster.first[seat]``)."""
    me = t.seats[seat]
    returns = 0
    first = True
    while not me.session.finished:
        resend_at: int | None = None
        if first:
            host_end, guest_end = roster.links[seat], FIRST[id(roster)][seat]  # type: ignore[assignment]
            first = False
        else:
            host_end, guest_end = link_pair()
            returns += 1
            assert returns <= max_returns
            why = await roster.attach(seat, host_end, me.session.seq, me.last)
            assert why is None, why
            resend_at = len(roster.backlog)  # what the host's sync says
        link = Cut(guest_end, host_end, cut)
        link.swallow = swallow
        try:
            await run_guest(me.session, me.agent, link, me.observe, resend_at=resend_at)
        except PeerGone:
            await trio.sleep(0)
    host_end.left = True  # type: ignore[attr-defined]  # it says goodbye, as a NetLink's bye does
    await guest_end.aclose()
    return returns


async def host_and_guests(
    t: Table, cut: Callable[[int, str, int, bytes], bool], *, grace: float = 30.0, swallow: bool = False,
    timeouts: Timeouts | None = None,
) -> tuple[Any, list[int]]:  # fmt: skip
    roster = Roster({}, grace=grace)
    FIRST[id(roster)] = {}
    for seat in range(1, t.players):
        roster.links[seat], FIRST[id(roster)][seat] = link_pair()
    returns: list[int] = [0] * t.players
    host = t.seats[0]
    out: list[Any] = []
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            for seat in range(1, t.players):

                async def guest(seat: int = seat) -> None:
                    returns[seat] = await guest_that_comes_back(
                        t, roster, seat, lambda *a, seat=seat: cut(seat, *a), swallow
                    )

                n.start_soon(guest)
            out.append(await run_host(host.session, t.header, host.agent, roster, host.observe, timeouts))
            if host.session.finished:
                await roster.linger(LIMIT)  # as the host program does: a seat cut at the very end comes back
            if not host.session.finished or host.session.aborted is not None:
                n.cancel_scope.cancel()
    return out[0], returns


@pytest.mark.parametrize(
    ("name", "players", "options", "every"),
    [("ecarte", 2, {"target": 2}, 7), ("snatch", 4, {}, 13), ("spite-malice", 2, {"max_games": 1}, 29)],
    ids=["ecarte", "snatch", "spite-malice"],
)
def test_links_cut_again_and_again_and_the_game_finishes(
    name: str, players: int, options: dict[str, Any], every: int
) -> None:
    t = Table(name, players, options)
    out, returns = trio.run(
        host_and_guests, t, lambda seat, way, n, data: way == "received" and n % every == 0
    )
    assert out.error is None and t.seats[0].session.verdict is not None
    assert all(r > 0 for r in returns[1:]), returns
    t.check()


@pytest.mark.parametrize("swallow", [False, True], ids=["host-has-it", "host-never-got-it"])
def test_a_link_cut_right_after_an_entry_is_sent_loses_nothing_and_doubles_nothing(swallow: bool) -> None:
    t = Table("ecarte", 2, {"target": 2})

    once: set[bytes] = set()

    def cut(seat: int, way: str, n: int, data: bytes) -> bool:
        if way != "sent" or data in once or decode_envelope(data).kind not in ("move", "deck.shares"):
            return False
        once.add(data)  # each entry is cut once: sent again, it goes through
        return True

    out, returns = trio.run(lambda: host_and_guests(t, cut, swallow=swallow))
    assert out.error is None and returns[1] > 3
    data = t.check()
    hashes = [entry_hash(e) for e in _entries(data)]
    assert len(set(hashes)) == len(hashes)  # no entry twice


def _entries(data: bytes) -> tuple[bytes, ...]:
    from fairdeal.core.session.logfile import parse_log

    return parse_log(data).entries


def test_a_seat_that_never_comes_back_is_blamed_after_the_grace_period() -> None:
    t = Table("snatch", 3, {})

    async def main() -> Any:
        roster = Roster({}, grace=0.3)
        host = t.seats[0]
        with trio.fail_after(LIMIT):
            async with trio.open_nursery() as n:
                for seat in (1, 2):
                    host_end, guest_end = link_pair()
                    roster.links[seat] = host_end
                    me = t.seats[seat]
                    gone = seat == 2

                    async def guest(me: Seat = me, link: MemoryLink = guest_end, gone: bool = gone) -> None:
                        cut = Cut(link, roster.links[2] if gone else link, lambda way, k, d: gone and k == 40)
                        with contextlib.suppress(PeerGone):  # seat 2 vanishes for good
                            await run_guest(me.session, me.agent, cut, me.observe)

                    n.start_soon(guest)
                out = await run_host(host.session, t.header, host.agent, roster, host.observe)
                n.cancel_scope.cancel()
        return out

    out = trio.run(main)
    a = t.seats[0].session.aborted
    assert a is not None and a.blame == 2 and "did not come back within 0.3 s" in a.reason
    assert out.error is not None
    t.seats[2].log = bytearray(t.seats[0].log)  # seat 2 left; the others hold the same log
    t.check(verdict="undecided")


def test_an_equivocating_guest_is_blamed_with_the_other_entry_as_evidence() -> None:
    t = Table("ecarte", 2, {"target": 2})

    class TwoFaced:
        """Plays its first move, then after a drop signs another move for the same place."""

        def __init__(self, inner: Any) -> None:
            self.inner, self.moves, self.options = inner, 0, 0

        async def decide(self, session: Session, moves: list[Any]) -> Any:
            self.moves += 1
            self.options = len(moves)
            return moves[self.moves % len(moves)]

    two = TwoFaced(t.seats[1].agent)
    t.seats[1].agent = two
    sent_moves: list[bytes] = []

    async def main() -> None:
        roster = Roster({}, grace=30)
        host_end, guest_end = link_pair()
        roster.links[1] = host_end
        me = t.seats[1]

        async def guest() -> None:
            def cut(way: str, n: int, data: bytes) -> bool:
                if way == "sent" and decode_envelope(data).kind == "move" and two.options > 1:
                    sent_moves.append(data)
                    return len(sent_moves) == 1  # a move that had another choice
                return False

            link = Cut(guest_end, host_end, cut)
            with pytest.raises(PeerGone):
                await run_guest(me.session, me.agent, link, me.observe)
            await trio.sleep(0.2)  # the host has taken the first move meanwhile
            # A dishonest client: it forgets what it sent, and signs another move for that place.
            other_move = me.session.make_move(
                next(m for m in me.session.legal_moves() if me.session.make_move(m) != sent_moves[0])
            )
            host2, guest2 = link_pair()
            assert await roster.attach(1, host2, me.session.seq, me.last) is None
            await guest2.send_entry(other_move)
            sent_moves.append(other_move)
            while True:
                try:
                    data = await guest2.receive_entry()
                except PeerGone:
                    return
                me.session._outstanding = None  # it pretends it never sent a thing
                me.observe(me.session, me.session.receive(data))
                if me.session.finished:
                    return

        with trio.fail_after(LIMIT):
            async with trio.open_nursery() as n:
                n.start_soon(guest)
                host = t.seats[0]
                await run_host(host.session, t.header, host.agent, roster, host.observe)

    trio.run(main)
    a = t.seats[0].session.aborted
    assert a is not None and a.blame == 1 and "signed two different entries" in a.reason
    assert a.evidence == sent_moves[1] and sent_moves[0] != sent_moves[1]
    report = verify_log(bytes(t.seats[0].log), lambda name: t.game)
    assert report.verdict == "cheating" and report.findings[0].seat == 1
    first = decode_envelope(sent_moves[0])
    assert report.findings[0].entry == t.seats[0].session.written_at(1, first.anchor)


def test_a_stale_or_forged_last_entry_is_refused_and_changes_nothing() -> None:
    t = Table("ecarte", 2, {"target": 1})

    async def main() -> None:
        roster = Roster({}, grace=30)
        host_end, guest_end = link_pair()
        roster.links[1] = host_end
        me = t.seats[1]
        refusals: list[str | None] = []

        async def guest() -> None:
            link = Cut(guest_end, host_end, lambda way, n, d: way == "received" and n == 12)
            with pytest.raises(PeerGone):
                await run_guest(me.session, me.agent, link, me.observe)
            h, _ = link_pair()
            have = me.session.seq
            refusals.append(await roster.attach(1, h, have, b"\x01" * 32))  # a forged hash
            refusals.append(await roster.attach(1, h, have - 1, me.last))  # the hash of another entry
            refusals.append(await roster.attach(1, h, len(roster.backlog) + 5, me.last))  # more than the host
            assert roster.links.get(1) is not h  # a refused link never joins
            h2, g2 = link_pair()
            refusals.append(await roster.attach(1, h2, have, me.last))  # the truth
            await run_guest(me.session, me.agent, g2, me.observe)

        with trio.fail_after(LIMIT):
            async with trio.open_nursery() as n:
                n.start_soon(guest)
                host = t.seats[0]
                await run_host(host.session, t.header, host.agent, roster, host.observe)
        assert refusals[0] is not None and "differs from the host's" in refusals[0]
        assert refusals[1] is not None and "differs from the host's" in refusals[1]
        assert refusals[2] is not None and "the host lost entries" in refusals[2]
        assert refusals[3] is None

    trio.run(main)
    t.check()


def test_a_watcher_follows_from_entry_zero_and_cannot_write() -> None:
    t = Table("snatch", 3, {})
    watcher = Seat(Session(t.game, None), None)
    intruder = Seat(Session(t.game, None), None)
    refused: list[str | None] = []

    async def main() -> None:
        roster = Roster({}, grace=30, watchers=1)
        pairs = {s: link_pair() for s in (1, 2)}
        for s, (h, _) in pairs.items():
            roster.links[s] = h
        host = t.seats[0]

        async def follow(who: Seat, link: MemoryLink) -> None:
            with pytest.raises(PeerGone):
                while True:
                    who.observe(who.session, who.session.receive(await link.receive_entry()))

        async def late_watcher() -> None:
            while len(roster.backlog) < 30:  # joins mid-game
                await trio.sleep(0.01)
            h, g = link_pair()
            assert await roster.watch(h, 0, GENESIS) is None
            refused.append(await roster.watch(link_pair()[0], 0, GENESIS))  # over the limit
            n.start_soon(follow, watcher, g)
            # A second one writes an entry: its place ends, and the game goes on untouched.
            roster.max_watchers = 2
            h2, g2 = link_pair()
            assert await roster.watch(h2, 0, GENESIS) is None
            await g2.send_entry(roster.backlog[-1])
            await follow(intruder, g2)

        with trio.fail_after(LIMIT):
            async with trio.open_nursery() as n:
                for s, (_, g) in pairs.items():
                    n.start_soon(run_guest, t.seats[s].session, t.seats[s].agent, g, t.seats[s].observe)
                n.start_soon(late_watcher)
                await run_host(host.session, t.header, host.agent, roster, host.observe)
                for h, _ in pairs.values():
                    await h.aclose()
                roster.close_all("the game is over")
                await trio.sleep(0.1)
                n.cancel_scope.cancel()

    trio.run(main)
    assert refused == ["this table has its 1 watchers already"]
    t.check(watchers=[watcher])
    assert watcher.session.finished and watcher.session.verdict is not None
    assert len(intruder.log) < len(watcher.log)


def test_the_host_deciding_is_not_interrupted_by_a_seat_that_drops_and_comes_back() -> None:
    t = Table("ecarte", 2, {"target": 1})
    asked = 0

    class Slow:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        async def decide(self, session: Session, moves: list[Any]) -> Any:
            nonlocal asked
            asked += 1
            await trio.sleep(0.05)  # a person thinking while the guest's link drops and comes back
            return await self.inner.decide(session, moves)

    t.seats[0].agent = Slow(t.seats[0].agent)
    moves_by_host = 0

    once: set[bytes] = set()

    def cut(seat: int, way: str, n: int, data: bytes) -> bool:
        if way != "received" or data in once or not _is_move(data, 1):
            return False
        once.add(data)
        return True

    async def main() -> None:
        nonlocal moves_by_host
        out, returns = await host_and_guests(t, cut)
        assert out.error is None and returns[1] > 0
        moves_by_host = sum(1 for e in _entries(bytes(t.seats[0].log)) if _is_move(e, 0))

    trio.run(main)
    assert asked == moves_by_host  # every question answered once: no decision was thrown away
    t.check()


def _is_move(e: bytes, seat: int) -> bool:
    env = decode_envelope(e)
    return env.kind == "move" and env.seat == seat


def test_nobody_comes_back_or_in_once_the_game_is_over() -> None:
    t = Table("ecarte", 2, {"target": 1})

    async def main() -> list[str | None]:
        out, _ = await host_and_guests(t, lambda *a: False)
        assert out.error is None
        roster_done = Roster({}, grace=30, watchers=4, backlog=[e for e in _entries(bytes(t.seats[0].log))])
        roster_done.close()
        late = [
            await roster_done.attach(1, link_pair()[0], t.seats[1].session.seq, t.seats[1].last),
            await roster_done.watch(link_pair()[0], 0, GENESIS),
        ]
        return late

    late = trio.run(main)
    assert all(x is not None and "not going on" in x for x in late), late
    t.check()
