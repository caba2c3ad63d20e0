from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "crazy-eights"


@pytest.fixture(scope="session")
def eights() -> Iterator[object]:
    """The example game's rules object (imported directly: these tests are about sessions)."""
    sys.path.insert(0, str(EXAMPLE))
    try:
        from fairdeal_crazy_eights import CrazyEights

        yield CrazyEights()
    finally:
        sys.path.remove(str(EXAMPLE))


class Stepper:
    """A protocol game driven entry by entry in one process: a session per seat and an observer.

    ``step()`` builds the next owed entry (a bot decides where a decision is owed) without
    delivering it; ``deliver(data)`` gives an entry to every session. Tests slip forged
    entries in between.
    """

    def __init__(self, name: str, players: int, options: dict[str, object], seed: int = 3) -> None:
        import random

        from fairdeal import registry
        from fairdeal.core.session.session import Session
        from fairdeal.testing import seat_sessions

        reg = registry.load()
        self.game = reg.game(name)
        table = seat_sessions(self.game, players, seed, options)
        self.ids, self.header, self.seats = table.identities, table.header, table.sessions
        self.watcher = Session(self.game, None)
        self.bots = [reg.bot(name).make() for _ in range(players)]
        self.rng = random.Random(seed)
        self.log: list[bytes] = []
        self.deliver(self.seats[0].start(self.header))

    @property
    def everyone(self) -> list[object]:
        return [*self.seats, self.watcher]

    def deliver(self, data: bytes) -> None:
        """Give ``data`` to every session, placed by the host first if it is not yet."""
        data = self.placed(data)
        for s in self.everyone:
            s.receive(data)  # type: ignore[attr-defined]
        self.log.append(data)

    def placed(self, data: bytes) -> bytes:
        """``data`` as the host places it (an entry the host wrote is placed already)."""
        from fairdeal.core.session.envelope import NO_SIG, decode_envelope

        env = decode_envelope(data)
        if env.placed != NO_SIG:
            return data
        return self.seats[0].place(data, env.seat)  # type: ignore[no-any-return]

    def step(self) -> bytes | None:
        """The next owed entry (not yet delivered), or None when the game is over."""
        w = self.seats[0].waiting()
        if w is None:
            return None
        owner = self.seats[w.seat]
        if w.decision:
            view = owner.view()
            move = self.bots[w.seat].choose(self.game, view, w.seat, owner.legal_moves(), self.rng)
            return owner.make_move(move)
        return owner.due()

    def run_until(self, stop: object, limit: int = 5000) -> None:
        """Deliver owed entries until ``stop(self)`` is true (checked before each entry)."""
        for _ in range(limit):
            if stop(self):  # type: ignore[operator]
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

    def forge(self, seat: int, kind: str, body: object, *, prev: bytes | None = None) -> bytes:
        """An entry of ``kind`` signed by ``seat``, answering the point of the log where ``seat`` owes
        now (or the last entry), placed by the host at the end of the log (after ``prev``, if given)."""
        from fairdeal.core.session.envelope import FORMAT_VERSION, Envelope

        s = self.seats[0]
        point = s.point(None if kind == "abort" else seat)
        env = Envelope(FORMAT_VERSION, self.header.game_id, seat, kind, body, *point).signed(self.ids[seat])
        return env.place(s.seq, s.last_hash if prev is None else prev, self.ids[0]).encode()


@pytest.fixture(scope="session")
def stepper() -> type[Stepper]:
    """The Stepper class (test modules cannot import conftest under importlib mode)."""
    return Stepper
