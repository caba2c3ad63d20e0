"""The table's chat line and its keys, with a game that only waits (no cards needed)."""

from __future__ import annotations

import asyncio

import trio

from fairdeal.cli.tui.app import SidePanel, TableApp

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
