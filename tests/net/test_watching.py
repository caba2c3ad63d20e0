"""Watching as an amplifier: anyone with the code could come in as a watcher again and again, each
time with a new identity, and have the host send it the whole log each time (a long game's log is
megabytes, for a handshake's worth of the attacker's bytes). Catch-ups are now held to budgets
(:mod:`fairdeal.net.watchgate`); an honest watcher told the host is busy waits as long as it is told
and follows the game. Real Noise over loopback TCP, every seat in this process.
"""

from __future__ import annotations

from typing import Any

import trio

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.core.session.session import Session
from fairdeal.net import NetOutcome, WatchPlan, watch_game, wire
from fairdeal.net.comeback import Connector, Refusal, expect, rejoin
from fairdeal.net.driver import Agent
from fairdeal.net.invite import Invite
from fairdeal.net.lobbyterms import LobbyLimits, busy_for
from fairdeal.net.watchgate import Budget, CatchUpLimits

from .test_survive_net import Game, MemLog, Seen

SIZE = 64_000  # bytes of catch-up an address may have in a burst: two logs of this game at 20 entries
RATE = 20_000.0  # and a second
PLENTY = Budget(10**9, 10**9)
CYCLES = 12


class Held:
    """The host's player, who stops thinking while ``hold`` is set, until ``go``: the game waits."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.hold = False
        self.waiting, self.go = trio.Event(), trio.Event()

    async def decide(self, session: Session, moves: list[Any]) -> Any:
        if self.hold:
            self.waiting.set()
            await self.go.wait()
        return await self.inner.decide(session, moves)


async def _cycle(invite: Invite) -> tuple[int, list[str], float]:
    """Come in as a new watcher ``CYCLES`` times, reading each catch-up whole: the bytes caught up
    with, the refusals, the seconds it took."""
    got, refused = 0, []
    start = trio.current_time()
    for _ in range(CYCLES):
        try:
            secure, sync, *_ = await rejoin(
                Connector(invite, Identity.generate(), connect_timeout=5), None, 0, wire.NO_ENTRY
            )
        except Refusal as exc:
            refused.append(str(exc))
            continue
        for _ in range(sync.entries):
            entry = await expect(secure, 5, "an entry")
            assert isinstance(entry, wire.Entry)
            got += len(entry.data)
        await secure.aclose()
    return got, refused, trio.current_time() - start


def test_watchers_coming_again_and_again_are_held_to_the_budget_and_an_honest_one_waits_its_turn() -> None:
    g = Game("snatch", 3, {}, watchers=32)
    held = Held(g.agent(0))
    limits = LobbyLimits(
        catch_ups=CatchUpLimits(identity=PLENTY, address=Budget(SIZE, RATE * 60), total=PLENTY)
    )
    watched: list[NetOutcome] = []
    log, seen = MemLog(), Seen()
    figures: list[Any] = []

    async def during(g: Game) -> None:
        assert await g.seen[0].reach(20)
        held.hold = True
        await held.waiting.wait()  # the game waits on the host's player: its log stays as it is
        invite = g.seen[0].invite
        assert invite is not None
        figures.append(len(bytes(g.logs[0].data)))
        figures.extend(await _cycle(invite))
        plan = WatchPlan(invite, Identity.generate(), registry.load().game, open_log=lambda h: log)

        async def watch() -> None:
            watched.append(await watch_game(plan, seen))

        async with trio.open_nursery() as n:
            n.start_soon(watch)
            with trio.fail_after(30):
                while not seen.kinds("resumed"):  # refused while the budget is spent, then in
                    await trio.sleep(0.05)
            held.hold = False
            held.go.set()

    trio.run(g.play, during, {"agent": held, "limits": limits})
    log_bytes, got, refused, seconds = figures
    assert refused and all(busy_for(r) for r in refused), refused
    assert got <= SIZE + RATE * seconds + log_bytes, (got, log_bytes, seconds)  # one catch-up over, no more
    assert watched and watched[0].error is None and watched[0].session.finished
    g.check(logs=[*(bytes(x.data) for x in g.logs), bytes(log.data)])


class Gate:
    """The host's player, who stops thinking whenever the test holds it, until it lets go."""

    def __init__(self, inner: Agent) -> None:
        self.inner = inner
        self.open = trio.Event()
        self.open.set()
        self.waiting = trio.Event()

    def hold(self) -> None:
        self.open, self.waiting = trio.Event(), trio.Event()

    async def decide(self, session: Session, moves: list[Any]) -> Any:
        if not self.open.is_set():
            self.waiting.set()
            await self.open.wait()
        return await self.inner.decide(session, moves)


def test_a_watcher_coming_back_to_a_busy_host_waits_as_told_and_follows_the_game() -> None:
    """Its link dropped; coming back, it is told the host is busy catching up other watchers: it
    waits the seconds the host says (and says so), asks again, and follows the game to its end."""
    from fairdeal.cutproxy import CutProxy
    from fairdeal.net import events as ev
    from fairdeal.net.invite import Endpoint

    g = Game("snatch", 3, {}, watchers=32)
    gate = Gate(g.agent(0))
    limits = LobbyLimits(
        catch_ups=CatchUpLimits(identity=PLENTY, address=Budget(SIZE, RATE * 60), total=PLENTY)
    )
    watched: list[NetOutcome] = []
    log, seen = MemLog(), Seen()
    busy: list[ev.HostBusy] = []
    seen.other = lambda event: busy.append(event) if isinstance(event, ev.HostBusy) else None  # type: ignore[method-assign]

    async def during(g: Game) -> None:
        assert await g.seen[0].reach(20)
        gate.hold()
        await gate.waiting.wait()
        real = g.seen[0].invite
        assert real is not None
        proxy = CutProxy((real.direct[0].host, real.direct[0].port))
        async with trio.open_nursery() as n:
            await n.start(proxy.run)
            invite = Invite(real.fingerprint, real.secret, (Endpoint("127.0.0.1", proxy.port),))
            plan = WatchPlan(invite, Identity.generate(), registry.load().game, open_log=lambda h: log)

            async def watch() -> None:
                watched.append(await watch_game(plan, seen))

            n.start_soon(watch)
            with trio.fail_after(30):
                while not seen.kinds("resumed"):
                    await trio.sleep(0.05)
                proxy.hold(True)  # its link drops, and it cannot come back for now
                while not seen.kinds("host_lost"):
                    await trio.sleep(0.05)
                entries = g.seen[0].entries
                gate.open.set()  # the game goes on without it
                assert await g.seen[0].reach(entries + 6)
                gate.hold()
                await gate.waiting.wait()
            await _cycle(real)  # other watchers spend this address's budget
            proxy.hold(False)
            with trio.fail_after(60):
                while not seen.kinds("host_back"):
                    await trio.sleep(0.05)
            gate.open.set()
            with trio.fail_after(60):
                while not watched:
                    await trio.sleep(0.05)
            n.cancel_scope.cancel()

    trio.run(g.play, during, {"agent": gate, "limits": limits})
    assert busy and all(b.seconds >= 1 for b in busy), "told to wait, and said so"
    assert watched and watched[0].error is None and watched[0].session.finished, watched and watched[0].error
    g.check(logs=[*(bytes(x.data) for x in g.logs), bytes(log.data)])
