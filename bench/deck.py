"""CPU cost of the deck protocol, per seat and in total, against ``PlainDealer`` and a baseline.

Run ``python bench/deck.py [--against REV] [--no-baseline]``. Every seat runs in this one
process; each seat's CPU time (``time.process_time``) counts the messages it builds and
every message it receives (wire decoding and every check included), so the figures are
what each peer would spend in a real game. The set-up (keys and the first shuffle, every
check by every seat) is also measured on a baseline revision checked out into a
temporary folder (default: main just before shuffle passes carried proofs), each run in
its own process, alternately, in the same run. Not a test: it prints tables.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TypeVar

import msgpack

from fairdeal.core.cards import Card, standard_52
from fairdeal.core.dealer import PlainDealer, Reveal
from fairdeal.core.deck import DeckSeat, Message, decode, encode
from fairdeal.core.rng import SeededRng

T = TypeVar("T")
GAME = b"bench-game"


class Game:
    """Every seat of one game, with a CPU-time account per seat."""

    def __init__(self, players: int) -> None:
        rng = SeededRng("bench")
        self.cpu = [0.0] * players
        self.seats = [
            self.on(i, partial(DeckSeat, GAME, i, players, rng.fork(f"seat-{i}"))) for i in range(players)
        ]

    def on(self, seat: int, work: Callable[[], T]) -> T:
        start = time.process_time()
        try:
            return work()
        finally:
            self.cpu[seat] += time.process_time() - start

    def reset(self) -> None:
        self.cpu = [0.0] * len(self.cpu)

    def total(self) -> float:
        return sum(self.cpu)

    def send(self, msg: Message) -> None:
        def pack() -> bytes:
            kind, body = encode(msg)
            return msgpack.packb([kind, body], use_bin_type=True)

        raw = self.on(msg.seat, pack)
        for i, s in enumerate(self.seats):  # seat i is self.seats[i]

            def take(s: DeckSeat = s) -> None:
                kind, body = msgpack.unpackb(raw, raw=False)
                s.receive(decode(kind, msg.seat, body))

            self.on(i, take)

    def pump(self) -> None:
        while (n := self.seats[0].next_sender()) is not None:
            msg = self.on(n, self.seats[n].due_message)
            assert msg is not None
            self.send(msg)

    def everyone(self, call: Callable[[DeckSeat], object]) -> None:
        for i, s in enumerate(self.seats):
            self.on(i, partial(call, s))


def plain_cpu(work: Callable[[], object], repeat: int = 50) -> float:
    start = time.process_time()
    for _ in range(repeat):
        work()
    return (time.process_time() - start) / repeat


@dataclass
class Row:
    """One measured line: CPU seconds per seat, or a single figure (``cpu`` of one item)."""

    name: str
    cpu: list[float]
    plain: float | None = None

    @property
    def total(self) -> float:
        return sum(self.cpu)

    def text(self) -> str:
        total = self.total * 1e3
        if self.plain is None:
            return f"{self.name:<46} {total:>9.2f}"
        mean, most = total / len(self.cpu), max(self.cpu) * 1e3
        ratio = f"{self.total / self.plain:>10,.0f}x" if self.plain > 0 else f"{'n/a':>11}"
        return f"{self.name:<46} {total:>9.1f} {mean:>9.1f} {most:>9.1f} {self.plain * 1e3:>9.3f} {ratio}"


def scenario(players: int, deck: tuple[Card, ...]) -> list[Row]:
    """Set-up, a 5-card private deal to seat 0, and the audit, on one game."""
    out = []
    game = Game(players)
    game.pump()
    game.everyone(lambda s: s.start(deck))
    game.pump()
    plain_start = plain_cpu(lambda: PlainDealer(players, SeededRng(1)).start(deck))
    out.append(Row(f"keys + shuffle, {players} seats x {len(deck)} cards", game.cpu, plain_start))

    tokens = game.seats[0].round_tokens()
    batch = [Reveal(t, 0) for t in tokens[-5:]]
    probe = [s.copy() for s in game.seats]  # for the split below, before the deal
    game.reset()
    game.everyone(lambda s: s.request(batch))
    game.pump()
    assert all(game.seats[0].card(r.token) is not None for r in batch)
    plain = PlainDealer(players, SeededRng(1))
    plain_tokens = plain.start(deck)
    plain_deal = plain_cpu(lambda: plain.reveal([Reveal(t, 0) for t in plain_tokens[-5:]]))
    out.append(Row("  5-card private deal, proved and checked", game.cpu, plain_deal))
    out.append(Row("    = per private card, every seat's work", [game.total() / 5]))

    # One seat's part of such a deal (five other cards, so nothing is memoised): building
    # its 5 shares with proofs; the owner checking them. Seat 1 owes first: only its shares
    # may come now.
    other = [Reveal(t, 0) for t in tokens[-10:-5]]
    for s in probe:
        s.request(other)
    start = time.process_time()
    msg = probe[1].shares_message()
    out.append(Row("    one seat proves its 5 shares", [time.process_time() - start]))
    kind, body = encode(msg)
    start = time.process_time()
    probe[0].receive(decode(kind, msg.seat, body))
    out.append(Row("    the owner checks 5 shares (and decrypts)", [time.process_time() - start]))

    # The end of the game: the final reveal of the cards one seat saw alone (the 5 dealt above).
    game.reset()
    game.everyone(lambda s: s.begin_final_reveal())
    game.pump()
    assert all((v := s.verdict()) is not None and v.fair for s in game.seats)
    plain_audit = plain_cpu(PlainDealer(players, SeededRng(1)).audit)
    out.append(Row("  final reveal (5 private cards)", game.cpu, plain_audit))
    return out


def setup_cpu(players: int, cards: int) -> float:
    """Keys and the first shuffle of ``cards`` cards, every check by every seat: total CPU.

    Uses only what every revision of the deck protocol has, so it runs on the baseline too.
    """
    game = Game(players)
    game.pump()
    game.everyone(lambda s: s.start(standard_52(2)[:cards]))
    game.pump()
    return game.total()


def primitives() -> str:
    from fairdeal.core.deck import _group as g
    from fairdeal.core.deck import _h2c

    s = g.hash_scalar(b"bench", 1)
    p = g.base(s)
    ops = {
        "scalarmult (constant time)": lambda: g.mul(s, p),
        "scalarmult (public scalar)": lambda: g.mul_public(s, p),
        "base scalarmult": lambda: g.base(s),
        "add": lambda: g.add(p, p),
        "is_point": lambda: g.is_point(p),
        "hash_to_curve": lambda: _h2c.hash_to_curve(b"x", b"bench"),
    }
    parts = [f"{name} {timeit.timeit(op, number=500) / 500 * 1e6:.0f} µs" for name, op in ops.items()]
    return "primitives here: " + ", ".join(parts)


SETUPS = ((2, 104), (2, 52), (4, 52))


def against_baseline(rev: str, runs: int) -> None:
    """The set-up here and on revision ``rev``, each run in a fresh process, alternately."""
    from _baseline import baseline_tree, run_worker

    here = Path(__file__).resolve()
    with baseline_tree(rev) as old:
        print(f"set-up against the baseline {rev[:12]}: mean CPU of {runs} runs each, every seat's work")
        head = f"{'seats x cards':<16}{'here ms':>10}{'baseline ms':>13}{'ratio':>8}"
        print(head)
        print("-" * len(head))
        for players, cards in SETUPS:
            new, before = [], []
            for _ in range(runs):
                new.append(run_worker(here, ["--worker", str(players), str(cards)])["cpu"])
                before.append(run_worker(here, ["--worker", str(players), str(cards)], tree=old)["cpu"])
            a, b = statistics.mean(new) * 1e3, statistics.mean(before) * 1e3
            print(f"{f'{players} x {cards}':<16}{a:>10.1f}{b:>13.1f}{a / b:>7.2f}x")


def main(runs: int = 3) -> None:
    from _baseline import BASELINE

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--against", default=BASELINE, help="the baseline revision (default: %(default).12s)")
    ap.add_argument("--no-baseline", action="store_true", help="measure this tree only")
    ap.add_argument("--worker", nargs=2, metavar=("SEATS", "CARDS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps({"cpu": setup_cpu(int(args.worker[0]), int(args.worker[1]))}))
        return
    print(primitives())
    print(f"best of {runs} runs (this machine is shared and noisy)")
    print()
    head = f"{'CPU time, ms':<46} {'total':>9} {'mean/seat':>9} {'max/seat':>9} {'plain':>9} {'ratio':>11}"
    print(head)
    print("-" * len(head))
    best: dict[int, list[Row]] = {}
    for players, deck in ((2, standard_52(2)), (10, standard_52(2)[:64])):
        trials = [scenario(players, deck) for _ in range(runs)]
        best[players] = [min((t[i] for t in trials), key=lambda r: r.total) for i in range(len(trials[0]))]
        for r in best[players]:
            print(r.text())
        print()
    per_card = best[2][2].total * 1e3
    verdict = "ok" if per_card < 2.0 else "MISSED"
    print(f"target: one private card dealt and checked, 2 seats < 2 ms: {per_card:.2f} ms, {verdict}")
    print()
    if not args.no_baseline:
        against_baseline(args.against, runs=5)


if __name__ == "__main__":
    main()
