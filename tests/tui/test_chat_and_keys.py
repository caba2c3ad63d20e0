"""The table's chat line and its keys, with a game that only waits (no cards needed)."""

from __future__ import annotations

import asyncio

import trio

from fairdeal.cli.tui.app import TableApp
from fairdeal.cli.tui.bars import keys_line
from fairdeal.cli.tui.widgets import SidePanel

from .harness import until


def test_chat_is_typed_sent_through_trio_and_shown_as_text() -> None:
    said: list[tuple[str, bool]] = []

    async def game() -> None:
        await trio.sleep_forever()

    def send(text: str) -> bool:
        trio.lowlevel.current_task()  # raises unless called on the trio side, where the links live
        said.append((text, True))
        return True

    async def main() -> None:
        app = TableApp("Test", None, game, chat=send)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("slash")
            await pilot.press(*"hello [bold]you[/bold]", "enter")
            await until(lambda: bool(said), pilot, "the line to be sent")
            app.chat_line("Bob", "fd1-aaaa-bbbb-cccc-dddd", "[red]not markup[/red]")
            await pilot.pause()
            panel = app.query_one(SidePanel).render()
            assert "Bob (fd1-aaaa-bbbb-cccc-dddd): [red]not markup[/red]" in " ".join(panel.plain.split())
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")
        assert app.interrupted

    asyncio.run(main())
    assert said == [("hello [bold]you[/bold]", True)]


def _keys_at(width: int) -> str:
    from rich.text import Text

    from .harness import table_app

    app, player = table_app("spite-malice", 2, seed=3, options={"target": 1})
    shown: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(width, 24)) as pilot:
            await until(lambda: player.deciding, pilot, "a card to pick")
            picker = app.picker()
            assert picker is not None and picker.cards
            await pilot.pause()
            line = keys_line(app, width - 2)
            assert isinstance(line, Text)
            shown.append(line.plain)
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    asyncio.run(main())
    return shown[0]


def test_the_key_line_fits_by_leaving_out_whole_hints_least_needed_first() -> None:
    from rich.cells import cell_len

    narrow, wide = _keys_at(80), _keys_at(120)
    everything = "←→ card · 8c name · key: place · / chat · F1 help · F2 rules · F6 auto:off · ^Q resign"
    assert wide == everything
    assert cell_len(narrow) <= 78 and not narrow.endswith("·")
    # F2 rules goes first (F1 help lists it); picking, help and the way out always stay.
    assert narrow == everything.replace(" · F2 rules", "")


def test_before_the_start_the_way_out_is_leave_and_a_watcher_is_offered_no_auto_moves() -> None:
    from fairdeal.cli.tui.player import TablePlayer

    async def game() -> None:
        await trio.sleep_forever()

    seen: dict[bool, str] = {}

    async def main(watching: bool) -> None:
        app = TableApp("Test", TablePlayer(watching=watching), game)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            seen[watching] = keys_line(app, 78).plain
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    for watching in (False, True):
        asyncio.run(main(watching))
    assert seen[False].endswith("F6 auto:off · ^Q leave"), seen  # nothing to resign yet
    assert "F6" not in seen[True] and seen[True].endswith("^Q leave"), seen


def test_a_players_checked_identity_is_shown_with_its_first_chat_line_only() -> None:
    from fairdeal.cli.tui.netview import TableReport
    from fairdeal.net import events as ev

    async def game() -> None:
        await trio.sleep_forever()

    async def main() -> None:
        report = TableReport(None)
        app = TableApp("Test", None, game)
        report.app = app
        async with app.run_test(size=(80, 24)) as pilot:
            report(ev.ChatLine(1, "Bob", "fd1-aaaa-bbbb-cccc-dddd", "hello"))
            report(ev.ChatLine(1, "Bob", "fd1-aaaa-bbbb-cccc-dddd", "again"))
            await pilot.pause()
            panel = " ".join(app.query_one(SidePanel).render().plain.split())
            assert "Bob (fd1-aaaa-bbbb-cccc-dddd): hello" in panel and "Bob: again" in panel, panel
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    asyncio.run(main())
