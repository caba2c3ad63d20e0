"""A protocol game driven entry by entry in one process: a session per seat and a watcher."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fairdeal.core.rules import Game, Policy
from fairdeal.core.session.envelope import NO_SIG, decode_envelope
from fairdeal.testing._kit import seat_policies
from fairdeal.testing._protocol import seat_sessions


class Stepper:
    """Every seat's session of one game, and a watcher's, in one process, with no links.

    :meth:`step` builds the next owed entry (a seat's bot decides where a decision is owed;
    where several seats owe at once, the first, or with ``any_order`` one drawn from the game's
    random stream) without delivering it; :meth:`deliver` has the host place it and gives it to every session.
    Tests slip their own entries in between; ``on_entry(stepper, data)`` is called after each.
    """

    def __init__(
        self,
        game: Game[Any],
        players: int,
        seed: int = 0,
        options: Mapping[str, object] | None = None,
        *,
        policies: Sequence[Policy] | None = None,
        protocol: int | None = None,
        any_order: bool = False,
        on_entry: Callable[[Stepper, bytes], None] | None = None,
    ) -> None:
        from fairdeal.core.session.session import Session

        self.game = game
        table = seat_sessions(game, players, seed, options, protocol=protocol)
        self.ids, self.header, self.seats = table.identities, table.header, table.sessions
        self.watcher = Session(game, None)
        self.bots = seat_policies(players, policies)
        self.rng = random.Random(seed)
        self.log: list[bytes] = []
        self.any_order = any_order
        self.on_entry = on_entry
        self.deliver(self.seats[0].start(self.header))

    @property
    def everyone(self) -> list[Any]:
        """Every seat's session, then the watcher's."""
        return [*self.seats, self.watcher]

    def deliver(self, data: bytes) -> None:
        """Give ``data`` to every session, placed by the host first if it is not yet."""
        data = self.placed(data)
        for s in self.everyone:
            s.receive(data)
        self.log.append(data)
        if self.on_entry is not None:
            self.on_entry(self, data)

    def placed(self, data: bytes) -> bytes:
        """``data`` as the host places it (an entry the host wrote is placed already)."""
        env = decode_envelope(data)
        if env.placed != NO_SIG:
            return data
        placed: bytes = self.seats[0].place(data, env.seat)
        return placed

    def step(self) -> bytes | None:
        """The next owed entry (not yet delivered), or None when the game is over."""
        owing = self.seats[0].owing()
        if not owing:
            return None
        w = owing[self.rng.randrange(len(owing))] if self.any_order and len(owing) > 1 else owing[0]
        owner = self.seats[w.seat]
        if w.decision:
            move = self.bots[w.seat].choose(self.game, owner.view(), w.seat, owner.legal_moves(), self.rng)
            made: bytes = owner.make_move(move)
            return made
        due: bytes | None = owner.due()
        return due

    def run_until(self, stop: Callable[[Stepper], bool], limit: int = 5000) -> None:
        """Deliver owed entries until ``stop(self)`` is true (checked before each entry)."""
        for _ in range(limit):
            if stop(self):
                return
            data = self.step()
            if data is None:
                raise AssertionError("the game ended first")
            self.deliver(data)
        raise AssertionError("the game did not get there")

    def finish(self, limit: int = 5000) -> None:
        """Deliver owed entries to the end of the game."""
        for _ in range(limit):
            data = self.step()
            if data is None:
                return
            self.deliver(data)
        raise AssertionError("the game did not end")
