"""What the network benchmarks share: a log kept in memory, a host observer that seats joiners, and
a seeded game of bots through the real network stacks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import trio

from fairdeal.core.session.logfile import MAGIC, record
from fairdeal.net import HostPlan, JoinPlan, Prepared, host_game, join_game
from fairdeal.net import events as ev
from fairdeal.net.driver import BotAgent
from fairdeal.net.invite import Endpoint, Invite


class MemoryLog:
    """A seat's log file, in memory: the same bytes a ``LogWriter`` would write."""

    def __init__(self) -> None:
        self.data = bytearray(MAGIC)

    def append(self, entry: bytes) -> None:
        self.data += record(entry)

    def close(self) -> None:
        pass


class Seating:
    """The host's report for a benchmark: the invite when it listens, and joiners seated one by one."""

    def __init__(self) -> None:
        self.invite: Invite | None = None
        self.code = ""
        self.listening_now = trio.Event()
        self.relay_up = trio.Event()
        self.seated = 0
        self.changed = trio.Event()

    def __call__(self, event: ev.NetEvent) -> None:
        match event:
            case ev.Listening(code, invite):
                self.code, self.invite = code, invite
                self.listening_now.set()
            case ev.RelayStatus(_, True):
                self.relay_up.set()
            case ev.Joined():
                self.seated += 1
                self.changed.set()
                self.changed = trio.Event()
            case ev.Started(header, seat):
                self.starting(header, seat)
            case _:
                pass

    def starting(self, header: object, seat: int) -> None:
        """The game begins (the header is written)."""

    async def wait_seated(self, count: int) -> None:
        """Until ``count`` joiners have taken their seats."""
        while self.seated < count:
            await self.changed.wait()


def same_game(a: bytes, b: bytes) -> bool:
    """Whether two logs hold the same game: the same entries, each as its author wrote it.

    Entries several seats owed at once go into a log in the order they reached the host,
    so two runs of one seeded game may place them differently (and the hashes that later
    entries answer differ with them); what each seat wrote (its kind and body) is the same.
    """
    import msgpack

    from fairdeal.core.session.envelope import decode_envelope
    from fairdeal.core.session.logfile import parse_log

    def written(log: bytes) -> list[tuple[int, str, bytes]]:
        envs = [decode_envelope(e) for e in parse_log(log).entries]
        return sorted((e.seat, e.kind, msgpack.packb(e.body, use_bin_type=True)) for e in envs)

    return written(a) == written(b)


class BotTable:
    """One seeded game of bots through the real ``host_game``/``join_game`` stacks in one process.

    Seat 0 hosts; ``join(seat, port)`` seats a joiner reaching the host at 127.0.0.1:``port``
    (a proxy in between, or the host itself). Identities, the game id and every seat's
    secrets derive from ``seed``; each seat keeps its log in memory (``logs``). ``done`` is
    set once every seat's game has ended.
    """

    def __init__(self, name: str, players: int, options: Mapping[str, object], seed: int,
                 grace: float | None = None) -> None:  # fmt: skip
        from fairdeal import registry
        from fairdeal.core.identity import Identity
        from fairdeal.core.rng import SeededRng

        reg = registry.load()
        self.entry = reg.entry(name)
        self.players, self.seed = players, seed
        self.bot = reg.bot(name)
        config = self.entry.game.config(players, dict(options))
        self.master = SeededRng(seed)
        self.ids = [Identity.generate(self.master.fork(f"identity-{i}")) for i in range(players)]
        self.logs = [MemoryLog() for _ in range(players)]
        e = self.entry
        self.plan = HostPlan(
            game=e.game, plugin=e.plugin, distribution=e.distribution, version=e.version,
            options=dict(config.options), players=players, identity=self.ids[0], name="Bot 0",
            kind=f"bot:{self.bot.name}", agent=self.agent(0), bind="127.0.0.1", port=0, rng=self.master,
            open_log=lambda h: self.logs[0],
        )  # fmt: skip
        if grace is not None:
            self.plan.grace = grace
        self.plan.timeouts.obligation = 120
        self.done = trio.Event()
        self._finished = 0
        self.invite: Invite | None = None

    def agent(self, seat: int) -> BotAgent:
        """The bot of ``seat``, its choices seeded."""
        from fairdeal.core.rng import SeededRng, python_random

        return BotAgent(self.bot.make(), python_random(SeededRng(self.seed).fork(f"bot-{seat}")))

    def _one_done(self) -> None:
        self._finished += 1
        if self._finished == self.players:
            self.done.set()

    async def host(self, report: ev.Report) -> None:
        """Host the game (``report`` notes the invite as ``report.invite``)."""
        await host_game(self.plan, report)
        self._one_done()

    async def join(self, seat: int, port: int) -> None:
        """Join as ``seat`` through 127.0.0.1:``port`` (the invite's secret and host identity)."""
        assert self.invite is not None
        via = Invite(self.invite.fingerprint, self.invite.secret, (Endpoint("127.0.0.1", port),))
        game, agent, bot = self.entry.game, self.agent(seat), self.bot.name

        def prepare(w: object) -> Prepared:
            return Prepared(game, agent, f"Bot {seat}", f"bot:{bot}")

        log = self.logs[seat]
        await join_game(JoinPlan(via, self.ids[seat], prepare, rng=self.master, open_log=lambda h: log))
        self._one_done()

    def log(self) -> bytes:
        """The game's log, the same at every seat (which this checks)."""
        data = bytes(self.logs[0].data)
        assert all(bytes(x.data) == data for x in self.logs), "the peers' logs differ"
        return data


def only_games(games: Sequence[tuple[str, int, Any]], spec: str) -> list[tuple[str, int, Any]]:
    """The rows of ``games`` that ``spec`` names (``--games snatch:4,ecarte:2``)."""
    want = {(n, int(p)) for n, p in (x.split(":") for x in spec.split(","))}
    return [g for g in games if (g[0], g[1]) in want]
