"""Seats still missing from a resumed game read as such to everyone: a guest or watcher that
comes back hears them as ``away`` with ``resuming``, not as links that dropped."""

from __future__ import annotations

from typing import Any

import pytest

from fairdeal.cli.networds import said
from fairdeal.net import wire
from fairdeal.net.attendance import Attendance
from fairdeal.net.events import Away
from fairdeal.net.roster import Roster

from .test_floods import _follower


class _Told(Attendance):
    """The host's table, keeping what it sends instead of sending it."""

    def __init__(self) -> None:
        super().__init__(None, lambda event: None, None, None)  # type: ignore[arg-type]
        self.sent: list[wire.Message] = []

    def send(self, msg: wire.Message, links: Any) -> None:
        self.sent.append(msg)


@pytest.mark.trio
async def test_a_seat_that_comes_back_hears_who_has_not_resumed_and_who_dropped() -> None:
    table = _Told()
    dropping = object()
    roster = Roster({1: object(), 3: dropping}, grace=300)  # type: ignore[dict-item]
    table.roster = roster
    roster.hold([2], "the host's program restarted")  # seat 2 has not come back since the resume
    assert roster.drop(3, dropping, "silent")  # type: ignore[arg-type]  # seat 3 came, then dropped
    table._after_sync(None, 1)  # type: ignore[arg-type]  # seat 1 comes back
    told = {m.seat: m for m in table.sent if isinstance(m, wire.Away)}
    assert set(told) == {2, 3}
    assert told[2].resuming and not told[3].resuming
    assert 295 <= told[2].seconds <= 300


def test_a_guest_shows_a_seat_not_yet_back_in_a_resumed_game_as_waited_for() -> None:
    seen: list[object] = []
    f = _follower([], ["Ann", "Bob", "Cy"], seen)
    f.control(wire.Away(2, 60, resuming=True))
    f.control(wire.Away(0, 60))
    resumed, dropped = seen
    assert isinstance(resumed, Away) and resumed.resuming and resumed.name == "Cy"
    assert isinstance(dropped, Away) and not dropped.resuming
    assert "resume" in (said(resumed) or "") and "dropped" not in (said(resumed) or "")
    assert "dropped" in (said(dropped) or "")
