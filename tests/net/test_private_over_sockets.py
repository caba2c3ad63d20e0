"""Every way a card changes hands, over real sockets, with a watcher: nobody reads more than its view.

Traffic (``tests/foundation/traffic.py``) moves cards every way a game can — given, taken, shown,
buried, drawn, played, a hand exposed, hands swapped, piles reshuffled, a seat leaving — among
three bots, each its own process-side session over Noise on loopback TCP, and a watcher that comes
in at the start. Every log is the same and verifies fair; read as an attacker would read it, the
log opens, after every entry, only the cards a watcher's view knows; and at the end each seat can
decrypt exactly what its view knows.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import trio

from fairdeal.core.identity import Identity
from fairdeal.core.rules import BotSpec, RandomPolicy
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.logfile import parse_log
from fairdeal.net import NetOutcome, WatchPlan, watch_game
from fairdeal.registry import GameEntry
from fairdeal.testing import check_log_privacy

from .test_survive_net import Game, MemLog, Seen
from .test_watching import Held

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "foundation"))
from traffic import Traffic


def test_cards_going_every_way_stay_private_over_tcp_with_a_watcher() -> None:
    game = Traffic()
    entry = GameEntry(game, "traffic", "fairdeal-tests", "0")
    g = Game("traffic", 3, {}, seed=11, entry=entry, bot=BotSpec("traffic", "random", "random", RandomPolicy))
    watched: list[NetOutcome] = []
    log, seen = MemLog(), Seen()
    held = Held(g.agent(0))
    held.hold = True  # the host's first decision waits for the watcher to be in

    async def during(g: Game) -> None:
        async def watch() -> None:
            assert g.seen[0].invite is not None
            plan = WatchPlan(g.seen[0].invite, Identity.generate(), lambda _: game, open_log=lambda h: log)
            watched.append(await watch_game(plan, seen))

        async with trio.open_nursery() as n:
            await held.waiting.wait()
            n.start_soon(watch)
            with trio.fail_after(30):
                while not seen.kinds("resumed"):
                    await trio.sleep(0.05)
            held.hold = False
            held.go.set()

    trio.run(g.play, during, {"agent": held})
    assert all(o is not None and o.error is None for o in g.outcomes), [o and o.error for o in g.outcomes]
    assert watched[0].error is None
    data = g.check(logs=[*(bytes(x.data) for x in g.logs), bytes(log.data)])
    seats: list[Any] = [o.session for o in g.outcomes if o is not None]
    assert check_log_privacy(game, data, seats) > 50
    entries = [decode_envelope(e) for e in parse_log(data).entries]
    moves = {e.body["move"][0] for e in entries if e.kind == "move"}
    assert {"give", "take", "swap", "show", "expose"} <= moves, moves
    assert any(e.body["handovers"] for e in entries if e.kind == "deck.shares")
