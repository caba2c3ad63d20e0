"""Helpers for the deck protocol tests: a table of seats driven over the real wire form."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

import msgpack
import pytest

from fairdeal.core.cards import Card, standard_52
from fairdeal.core.deck import DeckSeat, Message, decode, encode
from fairdeal.core.deck import _group as g
from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.rng import SeededRng


def wire(msg: Message) -> Message:
    """``msg`` after encode → msgpack bytes → decode, as a peer would see it."""
    kind, body = encode(msg)
    raw = msgpack.packb(body, use_bin_type=True)
    return decode(kind, msg.seat, msgpack.unpackb(raw, raw=False))


def state(seat: DeckSeat) -> tuple[Any, ...]:
    """Everything that a refused message must leave unchanged: every part's whole state."""
    parts = []
    for part in (seat._keys, seat._deck, seat._reveals, seat._random, seat._end):
        for name in type(part).__slots__:
            if name in ("ctx", "_memo", "_built"):  # fixed, or memos of pure functions
                continue
            value = getattr(part, name)
            parts.append((name, copy.copy(value) if isinstance(value, dict | list | set) else value))
    return (seat.waiting_on(), tuple(parts))


class Table:
    """``players`` DeckSeats of one game; every message goes to every seat through the wire."""

    def __init__(self, players: int, seed: int = 0, game_id: bytes = b"test-game", keys: bool = True) -> None:
        self.game_id = game_id
        rng = SeededRng(seed)
        self.seats = [DeckSeat(game_id, i, players, rng.fork(f"seat-{i}")) for i in range(players)]
        self.sent: list[Message] = []
        self.observers: list[DeckSeat] = []
        if keys:
            self.pump()

    def send(self, msg: Message) -> None:
        m = wire(msg)
        for s in self.seats + self.observers:
            s.receive(m)
        self.sent.append(msg)

    def refused_everywhere(self, msg: Message, seat: int, *words: str, direct: bool = False) -> None:
        """``msg`` is refused by every other seat, blaming ``seat``, leaving state alone.

        It goes through the wire form unless ``direct`` (then straight to ``receive``).
        """
        for s in self.seats + self.observers:
            if s.seat == msg.seat:
                continue
            before = state(s)
            with pytest.raises(RemoteProtocolError) as info:
                s.receive(msg if direct else wire(msg))
            err = info.value
            assert err.seat == seat, err
            for w in words:
                assert w in str(err), (w, str(err))
            assert state(s) == before

    def pump(self, until: Callable[[], bool] | None = None) -> None:
        while (n := self.seats[0].next_sender()) is not None:
            if until is not None and until():
                return
            msg = self.seats[n].due_message()
            assert msg is not None
            self.send(msg)

    def pump_until_turn(self, seat: int) -> None:
        """Pump until ``seat`` is the next sender."""
        self.pump(until=lambda: self.seats[0].next_sender() == seat)

    def final_reveal(self) -> None:
        """The game is over: every seat begins the final reveal, and every share of it is sent."""
        self.all(lambda s: s.begin_final_reveal())
        self.pump()

    def leave(self, seat: int) -> None:
        """The rules take ``seat`` out: every seat expects its leave, which it sends."""
        self.all(lambda s: s.begin_leave(seat))
        self.send(self.seats[seat].leave_message())

    def all(self, call: Callable[[DeckSeat], object]) -> None:
        for s in self.seats + self.observers:
            call(s)

    def start(self, deck: Sequence[Card]) -> list[int]:
        self.all(lambda s: s.start(deck))
        self.pump()
        return self.seats[0].round_tokens()

    def oracle(self) -> dict[int, Card]:
        """Decrypt every live token with the sum of every secret (only a test can)."""
        x = self.seats[0].ctx.need_me().x
        for s in self.seats[1:]:
            x = g.sc_add(x, s.ctx.need_me().x)
        deck = self.seats[0]._deck
        out = {}
        for t in deck.live:
            ct = deck.cts[t]
            out[t] = deck.by_point[g.sub(ct[33:], g.mul(x, ct[:33]))]
        return out


def deck_of(n: int) -> list[Card]:
    """The first ``n`` cards of a double 52-card deck (32 ≤ n ≤ 104)."""
    return list(standard_52(2)[:n])


@pytest.fixture(scope="session")
def kit() -> SimpleNamespace:
    """The helpers above (test modules cannot import conftest under importlib mode)."""
    return SimpleNamespace(Table=Table, deck_of=deck_of, state=state, wire=wire)
