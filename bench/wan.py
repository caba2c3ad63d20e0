"""Whole bot games over an emulated wide-area network: what players feel is waiting.

    python bench/wan.py [--delays 0,25,50] [--jitter 0] [--seed 1] [--games ...] [--quick]

Every game runs through the real stacks (``host_game`` and ``join_game``: Noise over
TCP on loopback, one task per seat in one process), with a delaying proxy between each
joiner and the host that holds every chunk for a fixed one-way delay (plus optional
uniform jitter, order kept), in both directions. For each game and delay it reports:

* ``entries``: the log's length;
* ``rounds``: the round trips on the critical path, read from the log: every entry
  a guest writes costs one round trip (the host's relay out, the guest's entry back),
  but entries written at once by several seats (the same anchor: the keys, the
  shares of one reveal, ...) share one;
* ``wall s`` and ``cpu s`` from the header to the end (the lobby's handshakes are not
  counted; the CPU is the whole process: every seat's computing in one place);
* ``wall/(rounds×RTT)``: near 1 when waiting on the wire is what the game costs.

Figures go with the machine they were measured on; compare rows of one run.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

import trio
from _netgame import BotTable, Seating, only_games

from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.logfile import parse_log

#: main just before several seats could write at once (one writer at a time), proofs included.
BEFORE = "da0285e7ad7c81ecec6dce7193fd3279a4ba5313"

GAMES: list[tuple[str, int, dict[str, bool | int | str]]] = [
    ("ecarte", 2, {"target": 5}),
    ("spite-malice", 2, {"max_games": 1}),
    ("snatch", 2, {}),
    ("snatch", 4, {}),
    ("snatch", 10, {}),
]


# -- the delaying proxy ------------------------------------------------------------------------------------
class DelayProxy:
    """Listens on loopback; each connection goes on to ``target`` with every chunk held back."""

    def __init__(self, target: tuple[str, int], delay: float, jitter: float, seed: int) -> None:
        self.target, self.delay, self.jitter = target, delay, jitter
        self.rng = random.Random(seed)
        self.port = 0

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started()
        await trio.serve_listeners(self._handle, listeners)

    async def _handle(self, client: trio.SocketStream) -> None:
        try:
            server = await trio.open_tcp_stream(*self.target)
        except OSError:
            await client.aclose()
            return
        async with client, server, trio.open_nursery() as nursery:
            nursery.start_soon(self._pipe, client, server, nursery.cancel_scope)
            nursery.start_soon(self._pipe, server, client, nursery.cancel_scope)

    async def _pipe(self, src: trio.SocketStream, dst: trio.SocketStream, scope: trio.CancelScope) -> None:
        send, receive = trio.open_memory_channel[tuple[float, bytes]](1_000_000)

        async def writer() -> None:
            last = 0.0
            async for due, data in receive:
                due = max(due, last)  # jitter never reorders the stream
                last = due
                await trio.sleep_until(due)
                try:
                    await dst.send_all(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    break
            scope.cancel()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(writer)
            try:
                while data := await src.receive_some(65536):
                    hold = self.delay + (self.rng.uniform(0, self.jitter) if self.jitter else 0.0)
                    await send.send((trio.current_time() + hold, data))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass
            await send.aclose()


# -- one game ------------------------------------------------------------------------------------------------
class _Seating(Seating):
    """Also notes when the game itself starts (the header), so the lobby is not timed."""

    def starting(self, header: object, seat: int) -> None:
        self.started = (time.perf_counter(), time.process_time())


@dataclass
class Run:
    entries: int
    rounds: int
    wall: float
    cpu: float
    log: bytes


async def wan_game(name: str, players: int, options: Mapping[str, object], seed: int, delay: float,
                   jitter: float) -> Run:  # fmt: skip
    table = BotTable(name, players, options, seed)
    seating = _Seating()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(table.host, seating)
        await seating.listening_now.wait()
        assert seating.invite is not None
        table.invite = seating.invite
        for seat in range(1, players):  # one after the other, so seat i has identity i
            target = seating.invite.direct[0]
            proxy = DelayProxy((target.host, target.port), delay, jitter, seed + seat)
            await nursery.start(proxy.run)
            nursery.start_soon(table.join, seat, proxy.port)
            await seating.wait_seated(seat)
        await table.done.wait()
        nursery.cancel_scope.cancel()  # the proxies
    t0, c0 = seating.started  # the game itself, from its header: not the lobby's handshakes
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    data = table.log()
    entries = parse_log(data).entries
    return Run(len(entries), critical_rounds(entries), wall, cpu, data)


def critical_rounds(entries: Sequence[bytes]) -> int:
    """Round trips on the critical path, read from the log.

    A guest's entry costs a round trip (the host's relay out, the entry back) unless it
    was written at once with other guests' entries owed at the same point: entries with
    the same anchor share one. The host's own entries cost no wire time. (Envelopes
    without an anchor, from before entries could be written at once: one each.)
    """
    anchors = set()
    for i, e in enumerate(entries[1:]):
        env = decode_envelope(e)
        if env.seat != 0:
            anchors.add(getattr(env, "anchor", i))
    return len(anchors)


def _worker(argv: list[str]) -> int:
    """One game in this process, on whatever fairdeal is importable; prints a JSON line."""
    name, players, delay, jitter, seed = argv[0], int(argv[1]), float(argv[2]), float(argv[3]), int(argv[4])
    options = next(o for n, p, o in GAMES if (n, p) == (name, players))
    run = trio.run(wan_game, name, players, dict(options), seed, delay, jitter)
    print(json.dumps({"entries": run.entries, "rounds": run.rounds, "wall": run.wall, "cpu": run.cpu}))
    return 0


def _row(label: str, name: str, players: int, rtt: float, run: dict[str, float], base: float) -> str:
    per = f"{run['wall'] / (run['rounds'] * rtt):.2f}" if rtt else "-"
    return (f"{label:<9}{name:<14}{players:>5}{rtt * 1000:>7.0f}{run['entries']:>8}{run['rounds']:>7}"
            f"{run['wall']:>8.2f}{run['cpu']:>7.2f}{per:>19}{run['wall'] / base:>8.2f}")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--worker"]:
        return _worker(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delays", default="0,25,50", help="one-way delays in ms, comma-separated")
    parser.add_argument("--jitter", type=float, default=0.0, help="extra uniform one-way delay, ms")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="", help="only these, e.g. snatch:10,ecarte:2")
    parser.add_argument("--quick", action="store_true", help="Écarté and 4-player Snatch! at 0 and 25 ms")
    parser.add_argument(
        "--against", default=BEFORE, help="the revision to compare with (default: %(default).10s)"
    )
    parser.add_argument("--no-baseline", action="store_true", help="this tree only")
    args = parser.parse_args(argv)
    delays = [float(d) / 1000 for d in args.delays.split(",")]
    games = GAMES
    if args.quick:
        delays, games = [0.0, 0.025], [g for g in GAMES if (g[0], g[1]) in (("ecarte", 2), ("snatch", 4))]
    if args.games:
        games = only_games(GAMES, args.games)
    head = (f"{'':<9}{'game':<14}{'seats':>5}{'RTT ms':>7}{'entries':>8}{'rounds':>7}{'wall s':>8}"
            f"{'cpu s':>7}{'wall/(rounds×RTT)':>19}{'vs 0 ms':>8}")  # fmt: skip
    print(head)
    print("-" * len(head))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _baseline import baseline_tree, run_worker

    me = Path(__file__).resolve()
    with nullcontext(None) if args.no_baseline else baseline_tree(args.against) as old:
        for name, players, _ in games:
            bases: dict[str, float] = {}
            for delay in delays:
                trees = [("now", None)] + ([] if old is None else [("before", old)])
                for label, tree in trees:
                    work = [name, str(players), str(delay), str(args.jitter / 1000), str(args.seed)]
                    run = run_worker(me, ["--worker", *work], tree)
                    base = bases.setdefault(label, run["wall"])
                    print(_row(label, name, players, 2 * delay, run, base), flush=True)
    print()
    print("rounds: guest entries that wait on the wire; those written at once (same anchor) count once.")
    print("vs 0 ms: wall time against the same game with no delay (same seed: the same game).")
    if not args.no_baseline:
        print(
            f"before: revision {args.against[:10]}, one seat writing at a time; the same games (same seeds)."
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
