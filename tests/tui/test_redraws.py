"""The table redraws what changed, when the player can see it, and not for every entry of the game.

The game runs on the app's own loop (trio as Textual's guest): every redraw is time the first
shuffle and the bots' moves wait for.
"""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Static

from fairdeal.cli.tui.app import TableApp, TableArea
from fairdeal.cli.tui.choosing import Choosing
from fairdeal.cli.tui.widgets import same_text

from .harness import table_app, until


def _count_table_draws(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    drawn = [0]
    render = TableArea.render

    def counted(self: TableArea) -> object:
        drawn[0] += 1
        return render(self)

    monkeypatch.setattr(TableArea, "render", counted)
    return drawn


def test_ten_seats_reach_the_first_move_with_few_redraws(monkeypatch: pytest.MonkeyPatch) -> None:
    """76 entries (keys, ten proven passes, the bots' first cards) before Ann's turn: a few redraws."""
    drawn = _count_table_draws(monkeypatch)

    async def run() -> tuple[int, int]:
        app, player = table_app("snatch", 10, seed=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: player.deciding, pilot, "Ann's first turn")
            assert player.session is not None
            return player.session.seq, drawn[0]

    entries, draws = asyncio.run(run())
    assert entries > 60
    assert draws * 3 < entries, f"{draws} redraws of the table for {entries} entries"


def test_the_players_turn_shows_at_once() -> None:
    """When Ann is to move the table says so without waiting for the next redraw of a busy game."""

    async def run() -> None:
        app, player = table_app("snatch", 4, seed=3)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: player.deciding, pilot, "Ann's first turn", limit=60)
            # the turn's redraw is not held back by REDRAW_EVERY: one pass of the loop shows it
            await pilot.pause()
            assert "Your turn" in _status(app)

    asyncio.run(run())


def test_a_change_undone_before_its_redraw_shows_what_is_now() -> None:
    """A redraw asked for a change, then the change undone: the table shows the present, not the past."""

    async def run() -> None:
        app, player = table_app("spite-malice", 2, seed=1, options={"target": 1})
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: player.deciding, pilot, "Ann's first turn")
            await pilot.pause()
            area = app.query_one(TableArea)
            before = area.content()
            assert area._shown is not None and same_text(area._shown, before)
            picker = app.picker()
            assert picker is not None and picker.cards
            app.choosing = Choosing(selected=picker.cards[0])
            lit = area.content()
            assert not same_text(lit, before)
            area.refresh_if_changed()  # a redraw is due, with the card lit
            app.choosing = Choosing()
            area.refresh_if_changed()  # back as it was, before that redraw happened
            await pilot.pause()
            assert area._shown is not None and same_text(area._shown, before)

    asyncio.run(run())


def _status(app: TableApp) -> str:
    return str(app.query_one("#status", Static).content)
