"""Network play: envelope round trip, traffic per game, and TCP against in-process play.

    /tmp/ve/bin/python bench/net.py [--rounds 500] [--repeat 3] [--seed 1] [--quick]

1. Round trip of one signed envelope over loopback TCP through the whole link stack
   (link message, Noise transport, framing, the link's reader and writer tasks): the
   guest sends an entry, the host's link hands it up and sends it back.
2. For a full bot game of each built-in game over loopback TCP (``host_game`` and
   ``join_game`` in one process, one task per seat): log entries, link messages and
   bytes (inside the secure channel, and on TCP with framing and tags; the handshakes,
   about 450 bytes a connection, are not counted).
3. The same games (same seeds, identities and options: the logs come out byte for
   byte the same) played in one process over memory channels (``net/local.py``):
   wall-clock time of each, and their ratio.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import trio
from _netgame import MemoryLog, Seating, same_game

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng, python_random
from fairdeal.core.session import EntryAccepted, Event
from fairdeal.core.session.envelope import FORMAT_VERSION, GENESIS, Envelope
from fairdeal.core.session.header import Header, SeatInfo
from fairdeal.core.session.session import Session
from fairdeal.net import HostPlan, JoinPlan, NetOutcome, Prepared, host_game, join_game
from fairdeal.net.driver import BotAgent
from fairdeal.net.invite import decode_invite
from fairdeal.net.link import NetLink
from fairdeal.net.local import play_local
from fairdeal.net.stream import secure_connect

GAMES: list[tuple[str, int, dict[str, bool | int | str]]] = [
    ("ecarte", 2, {}),
    ("spite-malice", 2, {"max_games": 1}),
    ("snatch", 2, {}),
    ("snatch", 5, {}),
]


# -- 1. round trip -------------------------------------------------------------------------------------
async def round_trip(rounds: int) -> tuple[list[float], int]:
    host_id, guest_id = Identity.from_seed(b"h" * 32), Identity.from_seed(b"g" * 32)
    env = Envelope(FORMAT_VERSION, bytes(16), 1, "move", {"move": ["play", [12]], "shares": None}, 6)
    data = env.signed(guest_id).place(7, GENESIS, host_id).encode()
    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    times: list[float] = []
    async with trio.open_nursery() as nursery:
        accepted = trio.Event()
        box: dict[str, NetLink] = {}

        async def serve() -> None:
            stream = await listeners[0].accept()
            secure = await secure_connect(stream, host_id, initiator=False)
            box["host"] = NetLink(secure, role="host", peer="guest")
            await nursery.start(box["host"].run)
            box["host"].start_game()
            accepted.set()

        nursery.start_soon(serve)
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        secure = await secure_connect(stream, guest_id, initiator=True)
        guest = NetLink(secure, role="guest", peer="host")
        await nursery.start(guest.run)
        await accepted.wait()
        host = box["host"]
        for _ in range(rounds + 20):
            t0 = time.perf_counter()
            await guest.send_entry(data)
            got = await host.receive_entry()
            await host.send_entry(got)
            await guest.receive_entry()
            times.append(time.perf_counter() - t0)
        await guest.aclose()
        await host.aclose()
        await listeners[0].aclose()
    return times[20:], len(data)


# -- 2 and 3. games ------------------------------------------------------------------------------------
@dataclass
class Setup:
    game: object
    entry: registry.GameEntry
    players: int
    options: dict[str, bool | int | str]
    identities: list[Identity]
    seed: int

    def agent(self, seat: int) -> BotAgent:
        reg = registry.load()
        spec = reg.bot(self.entry.game.name)
        return BotAgent(spec.make(), python_random(SeededRng(self.seed).fork(f"bot-{seat}")))

    def name(self, seat: int) -> str:
        return f"Bot {seat} ({registry.load().bot(self.entry.game.name).name})"

    def kind(self) -> str:
        return f"bot:{registry.load().bot(self.entry.game.name).name}"


async def tcp_game(s: Setup) -> tuple[float, list[NetOutcome], bytes]:
    master = SeededRng(s.seed)
    logs = [MemoryLog() for _ in range(s.players)]
    seating = Seating()
    plan = HostPlan(
        game=s.entry.game, plugin=s.entry.plugin, distribution=s.entry.distribution, version=s.entry.version,
        options=s.options, players=s.players, identity=s.identities[0], name=s.name(0), kind=s.kind(),
        agent=s.agent(0), bind="127.0.0.1", port=0, rng=master, open_log=lambda h: logs[0],
    )  # fmt: skip
    outcomes: list[NetOutcome | None] = [None] * s.players

    async def host() -> None:
        outcomes[0] = await host_game(plan, seating)

    async def guest(seat: int) -> None:
        def prepare(w: object) -> Prepared:
            return Prepared(s.entry.game, s.agent(seat), s.name(seat), s.kind())

        jp = JoinPlan(decode_invite(seating.code), s.identities[seat], prepare, rng=master,
                      open_log=lambda h: logs[seat])  # fmt: skip
        outcomes[seat] = await join_game(jp)

    t0 = time.perf_counter()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host)
        await seating.listening_now.wait()
        for seat in range(1, s.players):  # one after the other, so seat i has identity i
            nursery.start_soon(guest, seat)
            while seating.seated < seat:
                await seating.changed.wait()
    elapsed = time.perf_counter() - t0
    assert all(bytes(x.data) == bytes(logs[0].data) for x in logs), "the peers' logs differ"
    return elapsed, [o for o in outcomes if o is not None], bytes(logs[0].data)


async def local_game(s: Setup) -> tuple[float, bytes]:
    master = SeededRng(s.seed)
    seats = tuple(SeatInfo(s.name(i), s.identities[i].public_key, s.kind()) for i in range(s.players))
    header = Header(master.fork("game-id").bytes(16), s.entry.game.name, s.entry.plugin, s.entry.distribution,
                    s.entry.version, dict(s.options), seats)  # fmt: skip
    sessions = [Session(s.entry.game, i, s.identities[i], master.fork(f"seat-{i}")) for i in range(s.players)]
    log = MemoryLog()

    def observe(session: Session, events: Sequence[Event]) -> None:
        if session.seat == 0:
            for ev in events:
                if isinstance(ev, EntryAccepted):
                    log.append(ev.data)

    t0 = time.perf_counter()
    await play_local(header, sessions, [s.agent(i) for i in range(s.players)], observe)
    return time.perf_counter() - t0, bytes(log.data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=500, help="envelope round trips to time")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each game (the best counts)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="fewer rounds and one run (a smoke test)")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.repeat = 50, 1

    rtt, rtt_entry = trio.run(round_trip, args.rounds)
    rtt_us = sorted(t * 1e6 for t in rtt)
    p95 = rtt_us[min(len(rtt_us) - 1, math.ceil(0.95 * len(rtt_us)) - 1)]
    print(f"Envelope round trip over loopback TCP ({args.rounds} rounds, a {rtt_entry}-byte move entry):")
    print(f"  median {statistics.median(rtt_us):.0f} us, p95 {p95:.0f} us, best {rtt_us[0]:.0f} us")
    print()

    reg = registry.load()
    head = (f"{'game':<14}{'seats':>5}{'entries':>8}{'log KiB':>8}{'msgs':>7}{'link KiB':>9}{'TCP KiB':>8}"
            f"{'B/entry':>8}{'TCP s':>7}{'local s':>8}{'ratio':>6}")  # fmt: skip
    print(head)
    print("-" * len(head))
    same = True
    for name, players, options in GAMES:
        entry = reg.entry(name)
        config = entry.game.config(players, dict(options))
        master = SeededRng(args.seed)
        ids = [Identity.generate(master.fork(f"identity-{i}")) for i in range(players)]
        setup = Setup(entry.game, entry, players, dict(config.options), ids, args.seed)
        tcp_times, local_times = [], []
        outcomes: list[NetOutcome] = []
        tcp_log = local_log = b""
        for _ in range(args.repeat):
            t, outcomes, tcp_log = trio.run(tcp_game, setup)
            tcp_times.append(t)
            t, local_log = trio.run(local_game, setup)
            local_times.append(t)
        if not same_game(tcp_log, local_log):
            print(f"  warning: {name}: the TCP and the local game logs differ", file=sys.stderr)
            same = False
        host = outcomes[0]
        stats = list(host.links.values())
        guests = [o.links[0] for o in outcomes[1:]]
        msgs = sum(x.messages_sent + x.messages_received for x in stats)
        link_bytes = sum(x.bytes_sent + x.bytes_received for x in stats)
        tcp_bytes = sum(x.tcp_sent + x.tcp_received for x in stats)
        assert msgs == sum(x.messages_sent + x.messages_received for x in guests)
        entries = host.session.seq
        tcp_t, local_t = min(tcp_times), min(local_times)
        log_kib = len(tcp_log) / 1024
        print(f"{name:<14}{players:>5}{entries:>8}{log_kib:>8.0f}{msgs:>7}{link_bytes / 1024:>9.0f}"
              f"{tcp_bytes / 1024:>8.0f}{tcp_bytes / entries:>8.0f}{tcp_t:>7.2f}{local_t:>8.2f}"
              f"{tcp_t / local_t:>6.2f}")  # fmt: skip
    print()
    print("msgs, link and TCP bytes: every link message both ways on all the host's links, pings included;")
    print("B/entry: TCP bytes per log entry (each entry goes to every guest, its author's copy to the host).")
    print("ratio: TCP s / local s; the two games are the same game (every seat wrote the same entries;")
    print("entries owed at once may sit in another order, as they reached the host).")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
