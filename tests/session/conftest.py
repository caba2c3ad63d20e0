from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairdeal import testing

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


class Stepper(testing.Stepper):
    """:class:`fairdeal.testing.Stepper` of a registered game by name, its default bot at every seat,
    and forged entries (``forge``)."""

    def __init__(self, name: str, players: int, options: dict[str, object], seed: int = 3) -> None:
        from fairdeal import registry

        reg = registry.load()
        bots = [reg.bot(name).make() for _ in range(players)]
        super().__init__(reg.game(name), players, seed, options, policies=bots)

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
