"""Network play that survives: links cut by a proxy the test controls, seats and watchers coming
back, adjourning and resuming, and every refusal a peer coming back can meet. Real Noise over
loopback TCP, every seat in this process (``host_game``, ``join_game``, ``watch_game``).

Every game must finish with every peer's log byte-identical and fair; no entry lost or doubled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
import trio

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng, python_random
from fairdeal.core.session import EntryAccepted, Event
from fairdeal.core.session.envelope import decode_envelope, entry_hash
from fairdeal.core.session.header import Header
from fairdeal.core.session.logfile import MAGIC, parse_log, record
from fairdeal.core.session.session import Session
from fairdeal.core.session.verify import verify_log
from fairdeal.net import (
    GuestResume,
    HostPlan,
    HostResume,
    JoinPlan,
    NetOutcome,
    Prepared,
    WatchPlan,
    host_game,
    join_game,
    watch_game,
    wire,
)
from fairdeal.net import events as ev
from fairdeal.net.comeback import Connector, Refusal, rejoin
from fairdeal.net.driver import BotAgent
from fairdeal.net.invite import Endpoint, Invite

from .proxy import CutProxy

LIMIT = 90


class MemLog:
    def __init__(self, data: bytes = MAGIC) -> None:
        self.data = bytearray(data)

    def append(self, entry: bytes) -> None:
        self.data += record(entry)

    def close(self) -> None:
        pass

    @property
    def entries(self) -> tuple[bytes, ...]:
        return parse_log(bytes(self.data)).entries


class Seen:
    """What one end reports; ``reach(n)`` waits until this end has accepted ``n`` entries."""

    def __call__(self, event: ev.NetEvent) -> None:
        match event:
            case ev.Listening(code, invite, bound):
                self.listening(code, invite, bound)
            case ev.Joined(joiner, lobby):
                self.joined(joiner, lobby)
            case ev.Applied(session, events):
                self.events(session, events)
            case ev.Away(seat, name, seconds, _, resuming):
                self.away(seat, name, seconds)
                if resuming:
                    self.notes.append(("resuming", seat))
            case ev.Back(seat, name):
                self.back(seat, name)
            case ev.HostLost(reason, seconds):
                self.host_lost(reason, seconds)
            case ev.HostBack(path, via, entries):
                self.host_back(path, via, entries)
            case ev.WatcherCame(watchers):
                self.watcher_joined(watchers)
            case ev.WatcherLeft(watchers):
                self.notes.append(("watcher left", watchers))
            case ev.WatcherWaiting(fingerprint, _):
                self.notes.append(("watcher waiting", fingerprint))
            case ev.Rejected(_, reason):
                self.notes.append(("rejected", reason))
            case ev.TableReady(_, vote):
                self.vote = vote
            case ev.AdjournVote(seat, name, agree, missing):
                self.adjourn_vote(seat, name, agree, missing)
            case ev.Adjourned(entries):
                self.adjourned(entries)
            case ev.Resumed(header, seat, entries):
                self.resumed(header, seat, entries)
            case ev.LinkFlooded(seat, name, reason):
                self.link_flooded(seat, name, reason)
            case _:
                self.other(event)

    def other(self, event: ev.NetEvent) -> None:
        """Any other event (a test may note it)."""

    def link_flooded(self, seat: int, name: str, reason: str) -> None:
        """A guest's link was dropped for flooding (a test may note it)."""

    def __init__(self) -> None:
        self.invite: Invite | None = None
        self.listening_ready = trio.Event()
        self.seated = 0
        self.seat_changed = trio.Event()
        self.entries = 0
        self.changed = trio.Event()
        self.notes: list[tuple[str, Any]] = []
        self.vote: Callable[[bool], bool] | None = None
        self.session: Session | None = None

    def listening(self, code: str, invite: Invite, bound: Sequence[str]) -> None:
        self.invite = invite
        self.listening_ready.set()

    def joined(self, joiner: Any, lobby: Any) -> None:
        self.seated += 1
        self.seat_changed.set()
        self.seat_changed = trio.Event()

    def events(self, session: Session, events: Sequence[Event]) -> None:
        self.session = session
        self.entries += sum(isinstance(e, EntryAccepted) for e in events)
        self.changed.set()
        self.changed = trio.Event()

    async def reach(self, n: int) -> bool:
        """Wait until ``n`` entries are in (True), or the game is over first (False)."""
        while self.entries < n:
            if self.session is not None and self.session.finished:
                return False
            await self.changed.wait()
        return True

    def away(self, seat: int, name: str, seconds: float) -> None:
        self.notes.append(("away", seat))

    def back(self, seat: int, name: str) -> None:
        self.notes.append(("back", seat))

    def host_lost(self, reason: str, seconds: float) -> None:
        self.notes.append(("host_lost", reason))

    def host_back(self, path: str, via: str, entries: int) -> None:
        self.notes.append(("host_back", entries))

    def watcher_joined(self, watchers: int) -> None:
        self.notes.append(("watcher", watchers))

    def adjourn_vote(self, seat: int, name: str, agree: bool, missing: Sequence[str]) -> None:
        self.notes.append(("vote", (seat, agree, tuple(missing))))

    def adjourned(self, entries: int) -> None:
        self.notes.append(("adjourned", entries))

    def resumed(self, header: Header, seat: int | None, entries: int) -> None:
        self.notes.append(("resumed", entries))

    def kinds(self, kind: str) -> list[Any]:
        return [v for k, v in self.notes if k == kind]


@dataclass
class Game:
    """A seeded bot game: a host and guests, each with its own identity, log and observer."""

    name: str
    players: int
    options: dict[str, Any]
    seed: int = 7
    grace: float = 30.0
    watchers: int = 4
    logs: list[MemLog] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=list)
    proxies: list[CutProxy] = field(default_factory=list)
    outcomes: list[NetOutcome | None] = field(default_factory=list)
    entry: Any = None  # the game's registry entry (default: the installed game of that name)
    bot: Any = None  # and the bot every seat plays (default: its default bot)

    def __post_init__(self) -> None:
        reg = registry.load()
        self.entry = self.entry or reg.entry(self.name)
        self.bot = self.bot or reg.bot(self.name)
        master = SeededRng(self.seed)
        self.ids = [Identity.generate(master.fork(f"identity-{i}")) for i in range(self.players)]
        self.seeds = [master.fork(f"seat-seed-{i}").bytes(32) for i in range(self.players)]
        self.logs = [MemLog() for _ in range(self.players)]
        self.seen = [Seen() for _ in range(self.players)]
        self.outcomes = [None] * self.players

    def agent(self, seat: int) -> BotAgent:
        return BotAgent(self.bot.make(), python_random(SeededRng(self.seed).fork(f"bot-{seat}")))

    def host_plan(self, **extra: Any) -> HostPlan:
        e = self.entry
        config = e.game.config(self.players, dict(self.options))
        plan = HostPlan(
            game=e.game, plugin=e.plugin, distribution=e.distribution, version=e.version,
            options=dict(config.options), players=self.players, identity=self.ids[0], name="Bot 0",
            kind=f"bot:{self.bot.name}", agent=self.agent(0), bind="127.0.0.1", port=0,
            rng=SeededRng(self.seed), open_log=lambda h: self.logs[0], grace=self.grace,
            watchers=self.watchers, seed=self.seeds[0], auto_adjourn=True,
        )  # fmt: skip
        for k, v in extra.items():
            setattr(plan, k, v)
        return plan

    def via_proxy(self, seat: int) -> Invite:
        real = self.seen[0].invite
        assert real is not None
        return Invite(real.fingerprint, real.secret, (Endpoint("127.0.0.1", self.proxies[seat - 1].port),))

    def join_plan(self, seat: int, **extra: Any) -> JoinPlan:
        def prepare(w: wire.Welcome) -> Prepared:
            return Prepared(self.entry.game, self.agent(seat), f"Bot {seat}", f"bot:{self.bot.name}")

        plan = JoinPlan(
            self.via_proxy(seat), self.ids[seat], prepare, open_log=lambda h: self.logs[seat],
            seed=self.seeds[seat], auto_adjourn=True, connect_timeout=5,
        )  # fmt: skip
        for k, v in extra.items():
            setattr(plan, k, v)
        return plan

    async def play(
        self,
        during: Callable[[Game], Any] | None = None,
        host_extra: dict[str, Any] | None = None,
        before: Callable[[Game, trio.Nursery], Any] | None = None,
    ) -> None:
        """Host, seat the guests one after the other through their proxies, play to the end
        (``before`` runs once the host listens, before any guest comes)."""
        with trio.fail_after(LIMIT):
            async with trio.open_nursery() as n:

                async def host() -> None:
                    self.outcomes[0] = await host_game(self.host_plan(**(host_extra or {})), self.seen[0])

                n.start_soon(host)
                await self.seen[0].listening_ready.wait()
                assert self.seen[0].invite is not None
                target = self.seen[0].invite.direct[0]
                if before is not None:
                    await before(self, n)
                for seat in range(1, self.players):
                    proxy = CutProxy((target.host, target.port))
                    await n.start(proxy.run)
                    self.proxies.append(proxy)

                    async def guest(seat: int = seat) -> None:
                        self.outcomes[seat] = await join_game(self.join_plan(seat), self.seen[seat])

                    n.start_soon(guest)
                    while self.seen[0].seated < seat:  # seat i has identity i
                        await self.seen[0].seat_changed.wait()
                if during is not None:
                    await during(self)
                while any(o is None for o in self.outcomes):
                    await trio.sleep(0.05)
                n.cancel_scope.cancel()

    def check(self, logs: Sequence[bytes] | None = None, verdict: str = "fair") -> bytes:
        datas = list(logs) if logs is not None else [bytes(x.data) for x in self.logs]
        for d in datas[1:]:
            assert d == datas[0], "a peer's log differs from the host's"
        entries = parse_log(datas[0]).entries
        assert len({entry_hash(e) for e in entries}) == len(entries), "an entry twice"
        report = verify_log(datas[0], lambda _: self.entry.game)
        assert report.verdict == verdict, report.findings
        return datas[0]


def cut_every(entries: int, times: int) -> Callable[[Game], Any]:
    async def during(g: Game) -> None:
        for k in range(1, times + 1):
            assert await g.seen[0].reach(k * entries), "the game ended before every cut"
            for p in g.proxies:
                p.cut()

    return during


@pytest.mark.parametrize(
    ("name", "players", "options", "every", "times"),
    [("ecarte", 2, {"target": 5}, 12, 4), ("snatch", 3, {}, 12, 3)],
    ids=["ecarte", "snatch"],
)
def test_links_cut_by_the_network_come_back_and_the_game_finishes(
    name: str, players: int, options: dict[str, Any], every: int, times: int
) -> None:
    g = Game(name, players, options)
    trio.run(g.play, cut_every(every, times))
    assert all(o is not None and o.error is None for o in g.outcomes), [o and o.error for o in g.outcomes]
    g.check()
    host = g.seen[0]
    assert host.kinds("away") and host.kinds("back"), host.notes
    for seat in range(1, players):
        assert len(g.seen[seat].kinds("host_back")) >= times - 1, g.seen[seat].notes
    assert sum(p.connections for p in g.proxies) > players - 1


def test_a_network_down_for_a_while_is_waited_out() -> None:
    g = Game("ecarte", 2, {"target": 2})

    async def during(g: Game) -> None:
        assert await g.seen[0].reach(15)
        g.proxies[0].hold(True)  # nothing gets through: every attempt to come back fails
        await trio.sleep(1.5)
        assert g.seen[1].kinds("host_lost") and not g.seen[1].kinds("host_back")
        g.proxies[0].hold(False)

    trio.run(g.play, during)
    assert all(o is not None and o.error is None for o in g.outcomes)
    assert g.proxies[0].connections >= 2
    g.check()


def test_the_host_gives_up_on_a_seat_after_the_grace_period_and_the_guest_says_how_to_resume() -> None:
    g = Game("snatch", 3, {}, grace=1.0)

    async def during(g: Game) -> None:
        assert await g.seen[0].reach(20)
        g.proxies[1].hold(True)  # seat 2 cannot come back

    trio.run(g.play, during)
    host = g.outcomes[0]
    assert host is not None and host.session.aborted is not None
    assert host.session.aborted.blame == 2 and "did not come back within 1 s" in host.session.aborted.reason
    lost = g.outcomes[2]
    assert lost is not None and lost.error is not None
    assert "could not reach it again within 1 s" in lost.error
    assert bytes(g.logs[1].data) == bytes(g.logs[0].data)
    assert bytes(g.logs[0].data).startswith(bytes(g.logs[2].data))
    g.check(logs=[bytes(g.logs[0].data)], verdict="undecided")


def test_a_watcher_joins_mid_game_and_its_log_verifies() -> None:
    g = Game("snatch", 3, {})
    watched: list[NetOutcome] = []
    log = MemLog()
    seen = Seen()

    async def during(g: Game) -> None:
        await g.seen[0].reach(20)
        reg = registry.load()
        target = g.seen[0].invite
        assert target is not None
        plan = WatchPlan(target, Identity.generate(), reg.game, open_log=lambda h: log)

        async def watch() -> None:
            watched.append(await watch_game(plan, seen))

        async with trio.open_nursery() as n:
            n.start_soon(watch)
            await seen.reach(40)
            for p in g.proxies:  # the players' links drop; the watcher's does not, and it never waits
                p.cut()

    trio.run(g.play, during)
    assert watched and watched[0].error is None and watched[0].session.finished
    assert seen.kinds("resumed") == [1] and g.seen[0].kinds("watcher") == [1]
    assert g.seen[0].kinds("watcher left") == []  # it stayed to the end
    g.check(logs=[*(bytes(x.data) for x in g.logs), bytes(log.data)])


def test_a_watcher_who_comes_before_the_start_waits_for_it_then_follows_the_game() -> None:
    g = Game("ecarte", 2, {})
    watched: list[NetOutcome] = []
    log = MemLog()
    waits: list[ev.NotStartedYet] = []
    seen = Seen()
    seen.other = lambda event: waits.append(event) if isinstance(event, ev.NotStartedYet) else None  # type: ignore[method-assign]
    watcher = Identity.generate()

    async def before(g: Game, n: trio.Nursery) -> None:
        target = g.seen[0].invite
        assert target is not None
        plan = WatchPlan(target, watcher, registry.load().game, open_log=lambda h: log, start_poll=0.2)

        async def watch() -> None:
            watched.append(await watch_game(plan, seen))

        n.start_soon(watch)
        while not waits:  # it was refused once, said so, and asks again
            await trio.sleep(0.05)
        await trio.sleep(0.5)  # a few more refusals, told once

    trio.run(lambda: g.play(before=before))
    assert len(waits) == 1 and waits[0].every == 0.2, waits
    # The host tells of the watcher once, not of each refused try as a dropped connection.
    assert g.seen[0].kinds("watcher waiting") == [watcher.fingerprint], g.seen[0].notes
    assert not [r for r in g.seen[0].kinds("rejected") if "not started" in r], g.seen[0].notes
    assert g.seen[0].kinds("watcher") == [1]
    assert watched and watched[0].error is None and watched[0].session.finished
    g.check(logs=[*(bytes(x.data) for x in g.logs), bytes(log.data)])


def test_an_adjourned_game_resumes_on_every_seat() -> None:
    g = Game("ecarte", 2, {"target": 5})

    async def during(g: Game) -> None:
        assert await g.seen[0].reach(30)
        assert g.seen[0].vote is not None
        g.seen[0].vote(True)  # the host proposes; the bot guest agrees at once

    trio.run(g.play, during)
    for o in g.outcomes:
        assert o is not None and o.adjourned and o.error is None and not o.session.finished
    first = [bytes(x.data) for x in g.logs]
    assert first[0] == first[1]
    stopped = len(parse_log(first[0]).entries)
    assert g.seen[0].kinds("adjourned") == [stopped] == g.seen[1].kinds("adjourned")
    assert verify_log(first[0], registry.load().game).verdict == "undecided"

    # Later: the host and the guest resume from their logs and seeds, and the game goes on.
    entries = parse_log(first[0]).entries
    g2 = Game("ecarte", 2, {"target": 5})
    g2.logs = [MemLog(first[0]), MemLog(first[1])]
    invite = g.seen[0].invite
    assert invite is not None

    async def resumed() -> None:
        with trio.fail_after(LIMIT):
            async with trio.open_nursery() as n:
                resume = HostResume(entries, invite, g.seeds[0])
                plan = g2.host_plan(resume=resume, port=invite.direct[0].port)

                async def host() -> None:
                    g2.outcomes[0] = await host_game(plan, g2.seen[0])

                n.start_soon(host)
                await g2.seen[0].listening_ready.wait()
                g2.seen[0].invite = invite
                proxy = CutProxy((invite.direct[0].host, invite.direct[0].port))
                await n.start(proxy.run)
                g2.proxies.append(proxy)
                plan1 = g2.join_plan(1, resume=GuestResume(entries, 1, g.seeds[1], wait=20))
                g2.outcomes[1] = await join_game(plan1, g2.seen[1])
                while g2.outcomes[0] is None:
                    await trio.sleep(0.05)
                n.cancel_scope.cancel()

    trio.run(resumed)
    assert all(o is not None and o.error is None and o.session.finished for o in g2.outcomes)
    assert g2.seen[0].kinds("resumed") == [stopped] == g2.seen[1].kinds("resumed")
    assert g2.seen[0].kinds("resuming") == [1]  # the host waited for seat 1 to resume, not for a drop
    data = g2.check()
    assert data.startswith(first[0]) and len(parse_log(data).entries) > stopped


def test_refusals_for_those_who_may_not_come_back() -> None:
    g = Game("snatch", 3, {}, watchers=0)
    answers: dict[str, str] = {}

    async def during(g: Game) -> None:
        assert await g.seen[0].reach(20)
        invite = g.seen[0].invite
        assert invite is not None
        host_log = g.logs[0].entries
        have, last = len(host_log), entry_hash(host_log[-1])

        async def ask(label: str, identity: Identity, seat: int | None, n: int, h: bytes) -> None:
            c = Connector(invite, identity, connect_timeout=5)
            with pytest.raises(Refusal) as info:
                secure, *_ = await rejoin(c, seat, n, h)
                await secure.aclose()
            answers[label] = str(info.value)

        await ask("watcher", Identity.generate(), None, 0, bytes(32))
        await ask("stranger", Identity.generate(), 1, have, last)  # not seat 1's identity
        await ask("other seat", g.ids[2], 1, have, last)  # a player trying to take another's seat
        await ask("host's own", g.ids[0], 1, have, last)
        await ask("forged last", g.ids[1], 1, have, b"\x07" * 32)
        await ask("ahead", g.ids[1], 1, have + 100, last)

    trio.run(g.play, during)
    assert "this host does not allow watchers" in answers["watcher"]
    assert "seat 1 is not yours" in answers["stranger"]
    assert "seat 1 is not yours" in answers["other seat"]
    assert "host's own identity" in answers["host's own"]
    assert "differs from the host's" in answers["forged last"]
    assert "the host lost entries" in answers["ahead"]
    # None of it touched the game: it went on and finished, the same for everyone.
    assert all(o is not None and o.error is None for o in g.outcomes)
    g.check()


def test_a_rejoin_for_a_game_that_has_not_started_is_refused() -> None:
    g = Game("ecarte", 2, {})

    async def main() -> str:
        with trio.fail_after(LIMIT):
            async with trio.open_nursery() as n:
                n.start_soon(lambda: host_game(g.host_plan(), g.seen[0]))
                await g.seen[0].listening_ready.wait()
                assert g.seen[0].invite is not None
                c = Connector(g.seen[0].invite, g.ids[1], connect_timeout=5)
                with pytest.raises(Refusal) as info:
                    await rejoin(c, 1, 3, bytes(32))
                n.cancel_scope.cancel()
        return str(info.value)

    assert "has not started" in trio.run(main)


@pytest.mark.parametrize(
    ("watchers", "said"), [(1, "has not started yet: watch again"), (0, "does not allow")]
)
def test_a_watcher_before_the_start_is_told_to_come_back_or_that_nobody_may_watch(
    watchers: int, said: str
) -> None:
    g = Game("ecarte", 2, {}, watchers=watchers)

    async def main() -> str:
        with trio.fail_after(LIMIT):
            async with trio.open_nursery() as n:
                n.start_soon(lambda: host_game(g.host_plan(), g.seen[0]))
                await g.seen[0].listening_ready.wait()
                assert g.seen[0].invite is not None
                c = Connector(g.seen[0].invite, Identity.generate(), connect_timeout=5)
                with pytest.raises(Refusal) as info:
                    await rejoin(c, None, 0, bytes(32))
                n.cancel_scope.cancel()
        return str(info.value)

    told = trio.run(main)
    assert said in told and "join it" not in told, told


def test_a_host_that_holds_fewer_entries_than_the_seat_is_refused_not_followed() -> None:
    """A stale host log (its entries cut short) must not be taken for the truth by a guest."""
    g = Game("ecarte", 2, {"target": 5})

    async def during(g: Game) -> None:
        assert await g.seen[0].reach(30)
        assert g.seen[0].vote is not None
        g.seen[0].vote(True)

    trio.run(g.play, during)
    entries = parse_log(bytes(g.logs[0].data)).entries
    invite = g.seen[0].invite
    assert invite is not None
    g2 = Game("ecarte", 2, {"target": 5})
    short = entries[:-5]  # the host lost its last entries; the guest holds them
    g2.logs = [MemLog(MAGIC + b"".join(record(e) for e in short)), MemLog(bytes(g.logs[1].data))]
    errors: list[str] = []

    async def resumed() -> None:
        with trio.fail_after(LIMIT):
            async with trio.open_nursery() as n:
                plan = g2.host_plan(resume=HostResume(short, invite, g.seeds[0]), port=invite.direct[0].port)
                n.start_soon(lambda: host_game(plan, g2.seen[0]))
                await g2.seen[0].listening_ready.wait()
                g2.seen[0].invite = invite
                proxy = CutProxy((invite.direct[0].host, invite.direct[0].port))
                await n.start(proxy.run)
                g2.proxies.append(proxy)
                with pytest.raises(Refusal) as info:
                    await join_game(g2.join_plan(1, resume=GuestResume(entries, 1, g.seeds[1], wait=10)))
                errors.append(str(info.value))
                n.cancel_scope.cancel()

    trio.run(resumed)
    assert "the host lost entries" in errors[0]
    assert decode_envelope(entries[-1]).seq == len(entries) - 1


def test_a_watcher_that_writes_is_closed_and_a_vote_in_another_seats_name_is_ignored() -> None:
    g = Game("snatch", 3, {})
    closed: list[str] = []

    async def during(g: Game) -> None:
        assert await g.seen[0].reach(20)
        invite = g.seen[0].invite
        assert invite is not None
        # A watcher that sends an entry (a real one, from the log): its link is closed.
        secure, *_ = await rejoin(
            Connector(invite, Identity.generate(), connect_timeout=5), None, 0, bytes(32)
        )
        await secure.send(wire.encode(wire.Entry(g.logs[0].entries[-1])))
        with trio.fail_after(10):
            while True:
                try:
                    msg = wire.decode(await secure.receive())
                except Exception as exc:  # the host closed it
                    closed.append(type(exc).__name__)
                    break
                if isinstance(msg, wire.Bye):
                    closed.append(msg.reason)
                    break
        await secure.aclose()
        # Seat 1's own identity comes back on a second connection (the newer one wins), and votes in
        # seat 2's name: ignored. Its real program then comes back and the game goes on.
        have = g.logs[0].entries
        secure, *_ = await rejoin(
            Connector(invite, g.ids[1], connect_timeout=5), 1, len(have), entry_hash(have[-1])
        )
        await secure.send(wire.encode(wire.Adjourn(2, True)))
        await trio.sleep(0.2)
        await secure.aclose()

    trio.run(g.play, during)
    assert closed == ["PeerClosed"], closed  # its link closed at once
    assert g.seen[0].kinds("watcher") == [1] and g.seen[0].kinds("watcher left") == [0], g.seen[0].notes
    assert all(o is not None and o.error is None and not o.adjourned for o in g.outcomes)
    assert not [v for v in g.seen[0].kinds("vote") if v[0] == 2], g.seen[0].notes
    g.check()
