"""One real network game in this process, for the matrix of the moments between moves.

A host, a guest and a watcher over loopback TCP, each with its own identity and log, as
``fairdeal host``, ``join`` and ``watch`` run them (:func:`~fairdeal.net.host_game`,
:func:`~fairdeal.net.join_game`, :func:`~fairdeal.net.watch_game`). One end is the person's:
its events go to the front end under test — line mode's ``LineReport``, or the table's
``TableReport`` in a ``TableApp`` driven by Textual's pilot — and its seat is played by the
agent the test gives (a person at the table, or a bot). Every end's events are also recorded
(:class:`Tap`), so a test can see what the others were told, and act for a bot end (leave,
as the network layer offers it).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import trio

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng
from fairdeal.core.session import EntryAccepted
from fairdeal.core.session.session import Session
from fairdeal.cutproxy import CutProxy
from fairdeal.net import HostPlan, JoinPlan, NetOutcome, Prepared, WatchPlan, host_game, join_game, watch_game
from fairdeal.net import events as ev
from fairdeal.net.driver import RESIGN, Agent, BotAgent
from fairdeal.net.invite import Endpoint, Invite

Role = Literal["host", "guest", "watcher"]
ROLES: tuple[Role, ...] = ("host", "guest", "watcher")
SEATS = {"host": 0, "guest": 1}
NAMES = {"host": "Ann", "guest": "Bob"}
LIMIT = 120.0  # seconds a whole game of the matrix may take


class Tap:
    """One end's report: keeps every event (and the leave offered), then hands it on."""

    def __init__(self, forward: ev.Report | None = None) -> None:
        self.forward = forward
        self.events: list[ev.NetEvent] = []
        self.leave: Callable[[], None] | None = None
        self.session: Session | None = None
        self.entries = 0
        self.invite: Invite | None = None

    def __call__(self, event: ev.NetEvent) -> None:
        self.events.append(event)
        match event:
            case ev.Listening(_, invite):
                self.invite = invite
            case ev.TableReady(_, _, leave):
                self.leave = leave
            case ev.Applied(session, events):
                self.session = session
                self.entries += sum(isinstance(e, EntryAccepted) for e in events)
            case ev.GameEnded():
                self.leave = None
        if self.forward is not None:
            self.forward(event)

    def of(self, kind: type[Any]) -> list[Any]:
        """The events of ``kind`` this end was told, in order."""
        return [e for e in self.events if isinstance(e, kind)]

    @property
    def ended(self) -> ev.GameEnded | None:
        ends = self.of(ev.GameEnded)
        return ends[-1] if ends else None


class Thinking(BotAgent):
    """A bot that takes ``pause`` seconds over each move, as a person would."""

    def __init__(self, policy: Any, rng: random.Random, pause: float) -> None:
        super().__init__(policy, rng)
        self.pause = pause

    async def decide(self, session: Session, moves: list[Any]) -> Any:
        await trio.sleep(self.pause)
        return await super().decide(session, moves)


class Resigning(Thinking):
    """A bot that resigns at its third move."""

    moves = 0

    async def decide(self, session: Session, moves: list[Any]) -> Any:
        self.moves += 1
        return RESIGN if self.moves == 3 else await super().decide(session, moves)


@dataclass
class Net:
    """A host, a guest and (once play begins) a watcher. ``person`` is the end whose events go to
    ``report`` and whose seat ``agent`` plays, in the front end's own trio run (:meth:`play`); the
    other ends are bots in a trio run of their own, on a thread (:meth:`start_others`), as if on
    other machines: only the sockets join them."""

    person: Role
    report: ev.Report | None = None
    agent: Agent | None = None
    game: str = "ecarte"
    options: dict[str, Any] = field(default_factory=lambda: {"target": 5})
    seed: int = 5
    watchers: int = 4
    grace: float = 30.0
    watch: bool = True
    think: float = 0.5  # seconds the bots of the other ends take over each move: the game stays under way
    as_host: tuple[Role, ...] = ()  # ends that come with the host's own identity
    late: bool = False  # the person's end comes once play began, after the others took the seats
    resigns: Role | None = None  # that end's bot resigns at its third move
    taps: dict[Role, Tap] = field(default_factory=dict)
    outcomes: dict[Role, NetOutcome | BaseException] = field(default_factory=dict)

    def __post_init__(self) -> None:
        reg = registry.load()
        self.entry = reg.entry(self.game)
        self.bot = reg.bot(self.game)
        master = SeededRng(self.seed)
        self.ids = {r: Identity.generate(master.fork(f"identity-{r}")) for r in ROLES}
        for role in self.as_host:
            self.ids[role] = self.ids["host"]
        self.taps = {r: Tap(self.report if r == self.person and not self.late else None) for r in ROLES}
        self.token: trio.lowlevel.TrioToken | None = None
        self._scope: trio.CancelScope | None = None
        self.proxy: CutProxy | None = None  # between the host and the other ends: cut, the host is gone
        self.invite: Invite | None = None  # the host's invite, through the proxy
        self._thread: threading.Thread | None = None
        #: The person's own end when it comes late: the others play every role themselves.
        self.mine = Tap(self.report)

    @property
    def roles(self) -> list[Role]:
        return [r for r in ROLES if self.watch or r != "watcher"]

    def _agent(self, role: Role) -> Agent:
        if role == self.person and self.agent is not None and not self.late:
            return self.agent
        if role == self.resigns:
            return Resigning(self.bot.make(), random.Random(f"{self.seed}-{role}"), self.think)
        return Thinking(self.bot.make(), random.Random(f"{self.seed}-{role}"), self.think)

    def _plan(self, role: Role, invite: Invite | None) -> Any:
        e = self.entry
        if role == "host":
            return HostPlan(
                game=e.game, plugin=e.plugin, distribution=e.distribution, version=e.version,
                options=dict(e.game.config(2, dict(self.options)).options), players=2,
                identity=self.ids["host"], name=NAMES["host"], kind="human", agent=self._agent("host"),
                bind="127.0.0.1", port=0, rng=SeededRng(self.seed), grace=self.grace,
                watchers=self.watchers,
            )  # fmt: skip
        assert invite is not None
        if role == "watcher":
            return WatchPlan(invite, self.ids["watcher"], registry.load().game, connect_timeout=5)

        def prepare(w: Any) -> Prepared:
            return Prepared(e.game, self._agent("guest"), NAMES["guest"], "human")

        return JoinPlan(invite, self.ids["guest"], prepare, connect_timeout=5)

    async def _end(self, role: Role, mine: bool = False) -> NetOutcome | None:
        """Play ``role``'s end to its end (a guest once the host listens, a watcher once play
        began); ``mine``: the person's end, which comes once play began when it is late."""
        tap = self.taps["host"]
        while role != "host" and self.invite is None:
            await trio.sleep(0.01)
        while (role == "watcher" or (mine and self.late)) and not tap.entries:
            await trio.sleep(0.01)
        run = {"host": host_game, "guest": join_game, "watcher": watch_game}[role]
        report = self.mine if mine and self.late else self.taps[role]
        plan = self._plan(role, self.invite)
        if mine and self.late:
            plan.identity = Identity.generate()
        try:
            outcome = await run(plan, report)
        except Exception as exc:  # a refusal, say: the test reads it
            if mine:
                raise
            self.outcomes[role] = exc
            return None
        if not (mine and self.late):
            self.outcomes[role] = outcome
        return outcome

    async def _others(self) -> None:
        self.token = trio.lowlevel.current_trio_token()
        host = self.taps["host"]
        with trio.move_on_after(LIMIT) as self._scope:
            async with trio.open_nursery() as proxy:
                async with trio.open_nursery() as ends:
                    if self.person != "host":
                        ends.start_soon(self._end, "host")
                    while host.invite is None:
                        await trio.sleep(0.01)
                    real = host.invite.direct[0]
                    self.proxy = CutProxy((real.host, real.port))
                    await proxy.start(self.proxy.run)
                    self.invite = replace(host.invite, direct=(Endpoint("127.0.0.1", self.proxy.port),))
                    for role in self.roles:
                        if role != "host" and (role != self.person or self.late):
                            ends.start_soon(self._end, role)
                proxy.cancel_scope.cancel()  # every end is over

    def start_others(self) -> None:
        """The bot ends, in a trio run of their own on a thread."""
        self._thread = threading.Thread(target=trio.run, args=(self._others,), daemon=True)
        self._thread.start()

    def stop_others(self, limit: float = 60.0) -> None:
        """Wait for the bot ends to end (bounded)."""
        assert self._thread is not None
        self._thread.join(limit)
        assert not self._thread.is_alive(), f"the other ends did not end: {sorted(self.outcomes)}"

    async def play(self) -> NetOutcome | None:
        """The person's end, in this trio run (start the others first)."""
        return await self._end(self.person, mine=True)

    def kill(self) -> None:
        """The network between the host and the others goes: every connection closes at once, with
        no goodbye, and none gets through any more (as when a program dies)."""
        assert self.proxy is not None
        self.act("host", lambda: self.proxy.hold(True))  # type: ignore[union-attr]

    def act(self, role: Role, fn: Callable[[], object]) -> None:
        """Call ``fn()`` on the trio side of a bot end (its leave, say)."""
        assert self.token is not None
        self.token.run_sync_soon(fn)

    def leave(self, role: Role) -> None:
        """A bot end leaves, as the network layer offers it."""
        assert role != self.person or self.late, "the person's end leaves through its front end"
        leave = self.taps[role].leave
        assert leave is not None, f"{role} was offered no leave"
        self.act(role, leave)


async def until_trio(test: Callable[[], bool], what: str, limit: float = 60.0) -> None:
    """Wait on the trio side until ``test()`` (bounded)."""
    with trio.fail_after(limit):
        while not test():
            await trio.sleep(0.02)
    assert test(), what
