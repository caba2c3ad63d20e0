"""What surviving a dropped link costs: the time until play goes on, and whole games with drops.

    python bench/survive.py [--every 10,25] [--seed 1] [--repeat 3] [--games ecarte:2,snatch:4] [--quick]
    python bench/survive.py --silent [--downs 10,45,90] [--seats 2,4,10]     (root: network namespaces)

Every game runs through the real stacks (``host_game`` and ``join_game``: Noise over TCP on
loopback, one task per seat in one process), each joiner behind a proxy that can cut its
connection. For each game it plays the same seeded game once with no drop and once for
each N, cutting every joiner's link each time the host has accepted N more entries; the
joiners come back by themselves (``rejoin``, catch-up) and the game goes on. It reports:

* ``entries``: the log's length (the same game with and without drops: every seat writes
  the same entries, which the script checks; entries several seats owe at once may sit in
  another order, as they reached the host);
* ``drops``: how many times the links were cut;
* ``wall s`` of the game with no drop, and ``×`` the wall time with drops against it;
* ``back ms``: from a cut to the host seeing every cut seat back (median / worst);
* ``on ms``: from a cut to the next entry the host accepts from a seat that was cut,
  that is play going on (median / worst; a cut while the host's own seat owes the next
  entries is not waiting on anybody, and shows as small figures here).

With ``--silent`` (or after the rows above, where network namespaces can be made) it
plays Snatch! through a real transit relay, every seat a process in a home of its own
(``bench/_silent.py``), with the default heartbeat (a ping every 5 s, a peer silent for
15 s dropped), step timeout (30 s) and grace (120 s), and takes the last seat's home
offline — its interface down, nothing sent — for each ``--downs`` seconds after the third
move. It reports ``back s``, from the link coming back to the next entry the host accepts
from that seat, and the game's wall time against the same seeded game with no drop.

Figures go with the machine they were measured on; compare rows of one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import trio
from _netgame import BotTable, only_games, same_game

from fairdeal.core.session import EntryAccepted, Event
from fairdeal.core.session.session import Session
from fairdeal.cutproxy import CutProxy
from fairdeal.net import events as ev
from fairdeal.net.invite import Invite

GAMES: list[tuple[str, int, dict[str, bool | int | str]]] = [
    ("ecarte", 2, {"target": 5}),
    ("snatch", 4, {}),
    ("spite-malice", 2, {"max_games": 1}),
]


@dataclass
class _Host:
    invite: Invite | None = None
    ready: trio.Event = field(default_factory=trio.Event)
    seated: int = 0
    changed: trio.Event = field(default_factory=trio.Event)
    entries: int = 0
    grew: trio.Event = field(default_factory=trio.Event)
    session: Session | None = None
    started: float = 0.0
    cut_at: float | None = None
    waiting_back: set[int] = field(default_factory=set)
    back_times: list[float] = field(default_factory=list)
    on_times: list[float] = field(default_factory=list)
    cut_seats: set[int] = field(default_factory=set)

    def __call__(self, event: ev.NetEvent) -> None:
        match event:
            case ev.Listening(_, invite):
                self.invite = invite
                self.ready.set()
            case ev.Joined():
                self.seated += 1
                self.changed.set()
                self.changed = trio.Event()
            case ev.Started():
                self.started = time.perf_counter()
            case ev.Applied(session, events):
                self.events(session, events)
            case ev.Back(seat):
                self.back(seat)
            case _:
                pass

    def events(self, session: Session, events: Sequence[Event]) -> None:
        self.session = session
        for e in events:
            if not isinstance(e, EntryAccepted):
                continue
            self.entries += 1
            if self.cut_at is not None and e.seat in self.cut_seats:
                self.on_times.append(time.perf_counter() - self.cut_at)
                self.cut_at = None
        self.grew.set()
        self.grew = trio.Event()

    def back(self, seat: int) -> None:
        self.waiting_back.discard(seat)
        if not self.waiting_back and self.cut_at is not None:
            self.back_times.append(time.perf_counter() - self.cut_at)


@dataclass
class Run:
    entries: int
    wall: float
    log: bytes
    drops: int
    back: list[float]
    on: list[float]


async def play(name: str, players: int, options: dict[str, Any], seed: int, every: int | None) -> Run:
    table = BotTable(name, players, options, seed, grace=60)
    obs = _Host()
    proxies: list[CutProxy] = []
    drops = 0

    async def cutter() -> None:
        nonlocal drops
        assert every is not None
        mark = every
        while True:
            while obs.entries < mark:
                await obs.grew.wait()
            session = obs.session
            if session is None or session.finished:
                return
            obs.waiting_back = set(range(1, players))
            obs.cut_seats = set(range(1, players))
            obs.cut_at = time.perf_counter()
            for p in proxies:
                p.cut()
            drops += 1
            mark = obs.entries + every

    async with trio.open_nursery() as nursery:
        nursery.start_soon(table.host, obs)
        await obs.ready.wait()
        assert obs.invite is not None
        table.invite = obs.invite
        target = obs.invite.direct[0]
        for seat in range(1, players):  # one after the other, so seat i has identity i
            proxy = CutProxy((target.host, target.port))
            await nursery.start(proxy.run)
            proxies.append(proxy)
            nursery.start_soon(table.join, seat, proxy.port)
            while obs.seated < seat:
                await obs.changed.wait()
        if every is not None:
            nursery.start_soon(cutter)
        await table.done.wait()
        nursery.cancel_scope.cancel()
    wall = time.perf_counter() - obs.started
    data = table.log()
    return Run(obs.entries, wall, data, drops, obs.back_times, obs.on_times)


def _ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    return f"{statistics.median(xs) * 1000:.0f} / {max(xs) * 1000:.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", default="10,25", help="cut every joiner's link each N entries (list)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="", help="only these, e.g. snatch:4,ecarte:2")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each game; the median wall time is shown"
    )
    parser.add_argument("--quick", action="store_true", help="Écarté only, a drop every 10 entries, one run")
    parser.add_argument("--silent", action="store_true", help="only the silent-link rows")
    parser.add_argument("--no-silent", action="store_true", help="no silent-link rows")
    parser.add_argument("--downs", default="10,45,90", help="silent links: seconds offline (list)")
    parser.add_argument("--seats", default="2,4,10", help="silent links: seats at the table (list)")
    args = parser.parse_args(argv)
    if args.silent:
        return silent_rows(args)
    everies = [int(x) for x in args.every.split(",")]
    games = GAMES
    repeat = max(1, args.repeat)
    if args.quick:
        games, everies, repeat = [g for g in GAMES if g[0] == "ecarte"], [10], 1
    if args.games:
        games = only_games(GAMES, args.games)
    head = (f"{'game':<14}{'seats':>5}{'entries':>8}{'every':>6}{'drops':>6}{'wall s':>8}{'×':>6}"
            f"{'back ms':>14}{'on ms':>14}")  # fmt: skip
    print(head)
    print("-" * len(head))

    def runs(name: str, players: int, options: dict[str, Any], every: int | None) -> tuple[Run, float]:
        done = [trio.run(play, name, players, dict(options), args.seed, every) for _ in range(repeat)]
        for r in done[1:]:
            assert same_game(r.log, done[0].log), "the same seeded game must write the same entries"
        first = done[0]
        merged = Run(first.entries, first.wall, first.log, first.drops,
                     [x for r in done for x in r.back], [x for r in done for x in r.on])  # fmt: skip
        return merged, statistics.median(r.wall for r in done)

    for name, players, options in games:
        base, base_wall = runs(name, players, options, None)
        print(f"{name:<14}{players:>5}{base.entries:>8}{'-':>6}{0:>6}{base_wall:>8.2f}{1.0:>6.2f}"
              f"{'-':>14}{'-':>14}")  # fmt: skip
        for every in everies:
            run, wall = runs(name, players, options, every)
            assert same_game(run.log, base.log), "a game with drops must be the same game"
            print(f"{'':<14}{'':>5}{run.entries:>8}{every:>6}{run.drops:>6}{wall:>8.2f}"
                  f"{wall / base_wall:>6.2f}{_ms(run.back):>14}{_ms(run.on):>14}")  # fmt: skip
    print()
    print(f"wall: the median of {repeat} runs; ×: against the same game with no drop (same seed: the same")
    print("game, every seat writing the same entries, which the script checks).")
    print("back: from a cut to every seat back at the host; on: to the next entry from a seat that was cut")
    print("(median / worst).")
    if not args.no_silent and not args.quick:
        print()
        return silent_rows(args)
    return 0


def silent_rows(args: argparse.Namespace) -> int:
    """The silent-link rows (see the module)."""
    from _silent import GAME, Homes, NoNamespaces, unavailable

    why = unavailable()
    if why is not None:
        print(f"silent-link rows skipped: {why}")
        return 0
    downs = [float(x) for x in args.downs.split(",")]
    seats = [int(x) for x in args.seats.split(",")]
    try:
        homes = Homes(max(seats))
    except NoNamespaces as exc:
        print(f"silent-link rows skipped: {exc}")
        return 0
    print(f"silent link: {GAME} through a relay, one home offline after the third move "
          "(heartbeat 5 s / 15 s, step 30 s, grace 120 s)")  # fmt: skip
    head = f"{'seats':>5}{'down s':>8}{'entries':>8}{'wall s':>8}{'×':>8}{'+ s':>7}{'back s':>8}"
    print(head)
    print("-" * len(head))
    try:
        for n in seats:
            base = homes.play(n, args.seed, None)
            print(f"{n:>5}{'-':>8}{base.entries:>8}{base.wall:>8.1f}{1.0:>8.2f}{'-':>7}{'-':>8}", flush=True)
            for down in downs:
                run = homes.play(n, args.seed, down)
                assert run.kinds == base.kinds or sorted(run.kinds) == sorted(base.kinds), "not the same game"
                back = "-" if run.back is None else f"{run.back:.2f}"
                print(f"{'':>5}{down:>8g}{run.entries:>8}{run.wall:>8.1f}{run.wall / base.wall:>8.1f}"
                      f"{run.wall - base.wall - down:>7.1f}{back:>8}", flush=True)  # fmt: skip
    finally:
        homes.close()
    print()
    print("wall: from the header to the last entry, at the host; ×: against the same seeded game with no")
    print("drop; + s: the wall time beyond the drop itself; back: from the link coming back to the next")
    print("entry the host accepts from that seat.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
