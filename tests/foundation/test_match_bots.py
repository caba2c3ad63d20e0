"""fairdeal.testing.match_bots: a bot against others over seeded games, the seats going round."""

from __future__ import annotations

import sys
from pathlib import Path

from fairdeal import RandomPolicy
from fairdeal.testing import match_bots, wilson

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "crazy-eights"


def test_every_game_is_counted_once_and_each_side_is_timed() -> None:
    sys.path.insert(0, str(EXAMPLE))
    try:
        from fairdeal_crazy_eights import CrazyEights, GreedyEights
    finally:
        sys.path.remove(str(EXAMPLE))
    seen: list[int] = []
    m = match_bots(
        CrazyEights(), 3, GreedyEights, RandomPolicy, range(12), progress=lambda n, _: seen.append(n)
    )
    assert m.wins + m.losses + m.draws == 12 and seen == list(range(1, 13))
    assert m.mine and m.theirs and m.decided == m.wins + m.losses
    low, high = m.interval
    assert 0 <= low <= m.rate <= high <= 1
    assert "decided" in m.summary()
    again = match_bots(CrazyEights(), 3, GreedyEights, RandomPolicy, range(12))
    assert (again.wins, again.losses, again.draws) == (m.wins, m.losses, m.draws)  # seeded


def test_the_interval_narrows_with_more_games() -> None:
    small, large = wilson(6, 10), wilson(60, 100)
    assert small[0] < large[0] < 0.6 < large[1] < small[1]
    assert wilson(0, 0) == (0.0, 1.0)
