"""Network play through a transit relay against direct connections, in one run.

    python bench/relay.py [--repeat 5] [--seed 1] [--quick]

Starts a real magic-wormhole transit relay (``twist transitrelay``, from the
``magic-wormhole-transit-relay`` package in the test extras) on 127.0.0.1, then, in one
process (``host_game`` and ``join_game``, one task per seat, bots everywhere):

1. Join time: from the start of ``join_game`` to the seat taken (``welcome``) and to the
   first table (the first decision of the game: keys, shuffles and the deal done), for a
   2-player Écarté game, the joiner's code either direct only or relay only. Median of
   the runs.
2. A whole bot game of Écarté (2 seats) and Snatch! (5 seats), every joiner through the
   relay against every joiner direct: wall-clock time (best of the runs) and the ratio.
   The games are the same (same seeds and identities): every seat writes the same entries
   (those owed at once may reach the host, and so sit in the log, in another order).

Everything is on loopback, so the relay's cost here is its own work and the extra hop,
not a network's round trips.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import trio
from _netgame import MemoryLog, Seating, same_game

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng, python_random
from fairdeal.net import HostPlan, JoinPlan, Prepared, host_game, join_game, wire
from fairdeal.net import events as ev
from fairdeal.net.driver import BotAgent
from fairdeal.net.invite import Endpoint, Invite


# -- the relay ----------------------------------------------------------------------------------------
class Relay:
    """``twist transitrelay`` on a free port of 127.0.0.1."""

    def __init__(self) -> None:
        twist = Path(sys.executable).parent / "twist"
        self.proc = subprocess.Popen(
            [str(twist), "transitrelay", "--port=tcp:0:interface=127.0.0.1"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        end = time.monotonic() + 30
        port = 0
        while time.monotonic() < end and not port:
            line = self.proc.stdout.readline()
            if not line:
                break
            try:
                text = str(json.loads(line).get("log_text", ""))
            except ValueError:
                text = line
            m = re.search(r"starting on (\d+)", text)
            port = int(m.group(1)) if m else 0
        if not port:
            self.stop()
            raise SystemExit("the transit relay did not start (is magic-wormhole-transit-relay installed?)")
        self.endpoint = Endpoint("127.0.0.1", port)
        threading.Thread(target=lambda: [None for _ in self.proc.stdout or ()], daemon=True).start()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# -- one game -----------------------------------------------------------------------------------------
@dataclass
class Setup:
    game: str
    players: int
    options: dict[str, bool | int | str]
    seed: int

    def entry(self) -> registry.GameEntry:
        return registry.load().entry(self.game)

    def identities(self) -> list[Identity]:
        master = SeededRng(self.seed)
        return [Identity.generate(master.fork(f"identity-{i}")) for i in range(self.players)]

    def agent(self, seat: int) -> BotAgent:
        spec = registry.load().bot(self.game)
        return BotAgent(spec.make(), python_random(SeededRng(self.seed).fork(f"bot-{seat}")))

    def kind(self) -> str:
        return f"bot:{registry.load().bot(self.game).name}"


class _Timer:
    """When the joiner was welcomed and when it first saw a decision pending (the first table)."""

    def __init__(self) -> None:
        self.t0 = time.perf_counter()
        self.welcomed_at: float | None = None
        self.table_at: float | None = None
        self.path = ""

    def __call__(self, event: ev.NetEvent) -> None:
        match event:
            case ev.HostReached(_, path):
                self.path = path
            case ev.Seated():
                self.welcomed_at = time.perf_counter() - self.t0
            case ev.Applied(session):
                w = session.waiting()
                if self.table_at is None and w is not None and w.decision:
                    self.table_at = time.perf_counter() - self.t0
            case _:
                pass


async def play(s: Setup, relay: Endpoint | None) -> tuple[float, list[_Timer], bytes]:
    """One whole game; with ``relay`` every joiner comes through it only, else directly only."""
    entry = s.entry()
    ids = s.identities()
    master = SeededRng(s.seed)
    logs = [MemoryLog() for _ in range(s.players)]
    host_obs = Seating()
    plan = HostPlan(
        game=entry.game, plugin=entry.plugin, distribution=entry.distribution, version=entry.version,
        options=s.options, players=s.players, identity=ids[0], name="Bot 0", kind=s.kind(),
        agent=s.agent(0), bind="127.0.0.1", port=0, relay=relay, rng=master, open_log=lambda h: logs[0],
    )  # fmt: skip
    timers = [_Timer() for _ in range(s.players)]

    async def guest(seat: int, invite: Invite) -> None:
        def prepare(w: wire.Welcome) -> Prepared:
            return Prepared(entry.game, s.agent(seat), f"Bot {seat}", s.kind())

        jp = JoinPlan(invite, ids[seat], prepare, rng=master, open_log=lambda h: logs[seat], relay_delay=0)
        timers[seat].t0 = time.perf_counter()
        await join_game(jp, timers[seat])

    t0 = time.perf_counter()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host_game, plan, host_obs)
        await host_obs.listening_now.wait()
        assert host_obs.invite is not None
        inv = host_obs.invite
        if relay is not None:
            await host_obs.relay_up.wait()
            t0 = time.perf_counter()  # the relay's readiness is the host's start-up, not the game's
            code = Invite(inv.fingerprint, inv.secret, (), inv.relay, inv.doors)
        else:
            code = Invite(inv.fingerprint, inv.secret, inv.direct)
        for seat in range(1, s.players):  # one after the other, so seat i has identity i
            nursery.start_soon(guest, seat, code)
            while host_obs.seated < seat:
                await host_obs.changed.wait()
    elapsed = time.perf_counter() - t0
    assert all(bytes(x.data) == bytes(logs[0].data) for x in logs), "the peers' logs differ"
    want = "relay" if relay is not None else "direct"
    assert all(t.path == want for t in timers[1:]), [t.path for t in timers[1:]]
    return elapsed, timers[1:], bytes(logs[0].data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="one run of each (a smoke test)")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else args.repeat
    relay = Relay()
    try:
        ecarte = Setup("ecarte", 2, {"target": 5}, args.seed)
        joins: dict[str, list[tuple[float, float]]] = {"direct": [], "relay": []}
        for _ in range(repeat):
            for mode, via in (("direct", None), ("relay", relay.endpoint)):
                _, timers, _ = trio.run(play, ecarte, via)
                t = timers[0]
                assert t.welcomed_at is not None and t.table_at is not None
                joins[mode].append((t.welcomed_at, t.table_at))
        print(f"Join time, Écarté for 2, median of {repeat} (from join_game's start):")
        print(f"  {'':<8}{'seat taken ms':>14}{'first table ms':>16}")
        med = {
            m: (statistics.median(a for a, _ in v), statistics.median(b for _, b in v))
            for m, v in joins.items()
        }
        for mode in ("direct", "relay"):
            print(f"  {mode:<8}{med[mode][0] * 1000:>14.1f}{med[mode][1] * 1000:>16.1f}")
        seat_ratio, table_ratio = (med["relay"][i] / med["direct"][i] for i in (0, 1))
        print(f"  {'ratio':<8}{seat_ratio:>14.2f}{table_ratio:>16.2f}")
        print()
        print(f"Whole bot games, best of {repeat}:")
        print(f"  {'game':<10}{'seats':>6}{'direct s':>10}{'relay s':>10}{'ratio':>8}")
        same = True
        for setup in (Setup("ecarte", 2, {"target": 5}, args.seed), Setup("snatch", 5, {}, args.seed)):
            times: dict[str, list[float]] = {"direct": [], "relay": []}
            logs: dict[str, bytes] = {}
            for _ in range(repeat):
                for mode, via in (("direct", None), ("relay", relay.endpoint)):
                    took, _, log = trio.run(play, setup, via)
                    times[mode].append(took)
                    logs[mode] = log
            same = same and same_game(logs["direct"], logs["relay"])
            d, r = min(times["direct"]), min(times["relay"])
            print(f"  {setup.game:<10}{setup.players:>6}{d:>10.2f}{r:>10.2f}{r / d:>8.2f}")
        print()
        print("ratio: relay / direct; the relay and the direct game are the same game "
              f"(the same entries: {'yes' if same else 'NO'}).")  # fmt: skip
        return 0 if same else 1
    finally:
        relay.stop()


if __name__ == "__main__":
    sys.exit(main())
