"""The host's roster on its own, over memory links: what it keeps for seats that come and go."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from fairdeal import registry
from fairdeal.core.session.envelope import entry_hash
from fairdeal.net.local import link_pair
from fairdeal.net.roster import Roster
from fairdeal.testing import seat_sessions

CYCLES = 200


def _header_entry() -> bytes:
    table = seat_sessions(registry.load().game("snatch"), 2, 1)
    return table.sessions[0].start(table.header)


@pytest.mark.trio
async def test_a_seat_that_drops_and_comes_back_again_and_again_leaves_nothing_waiting_behind() -> None:
    """Each absence waited for its whole grace period in a task of its own, even once the seat was
    back: a seat that dropped and came back a hundred times a second kept that many tasks (and their
    memory) for the grace period. An absence that ends takes its wait with it."""
    first = _header_entry()
    link, _ = link_pair()
    roster = Roster({1: link}, grace=600, backlog=[first])
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            with roster.running(nursery):
                for _ in range(CYCLES):
                    await link.aclose()
                    assert roster.drop(1, link, "cut")
                    link, _ = link_pair()
                    assert await roster.attach(1, link, 1, entry_hash(first)) is None
                await trio.testing.wait_all_tasks_blocked()
                waiting = len(nursery.child_tasks)
            nursery.cancel_scope.cancel()
    assert waiting == 1, waiting  # the current link's pump, and nothing for absences that ended
