"""The table's layout pinned at 80×24 and 120×40 for every built-in game, at a few points of a game.

The snapshots are SVG pictures of the screen in ``__snapshots__``; after a deliberate change of
the layout, look at the new ones (``pytest --snapshot-update`` writes them) before committing.
"""

from __future__ import annotations

from typing import Any

import pytest

from .harness import table_app, until

#: (game, players, options, seed, decisions the person lets a seeded rule take first)
POINTS = [
    ("spite-malice", 2, {"target": 1}, 3, 0),
    ("spite-malice", 2, {"target": 1}, 3, 12),
    ("ecarte", 2, {}, 4, 0),
    ("ecarte", 2, {}, 4, 5),
    ("snatch", 2, {}, 5, 3),
    ("snatch", 10, {}, 6, 2),
]
SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(
    ("game", "players", "options", "seed", "skip"),
    POINTS,
    ids=[f"{g}-{n}p-after{k}" for g, n, _, _, k in POINTS],
)
def test_table_layout(
    snap_compare: Any,
    game: str,
    players: int,
    options: dict[str, object],
    seed: int,
    skip: int,
    size: tuple[int, int],
) -> None:
    app, player = table_app(game, players, seed, options, skip=skip)

    async def ready(pilot: Any) -> None:
        await until(lambda: player.deciding, pilot, "the person's turn")

    assert snap_compare(app, terminal_size=size, run_before=ready)
