"""The table's widgets work in any app: they draw what they are given, post what a click hits,
hand keys on."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.app import App, ComposeResult

from fairdeal.cli.tui.layout import Drawn, Hit
from fairdeal.cli.tui.widgets import Bar, Note, Parts, SidePanel, TableArea, ascii_text


def test_widgets_draw_what_they_are_given_and_report_clicks_and_keys() -> None:
    picked: list[tuple[int | None, str | None]] = []
    pressed: list[str] = []
    keys: list[str] = []

    def draw(width: int, height: int) -> Drawn:
        return Drawn([Text(f"table {width}x{height}"), Text("  [7♥]")], [Hit(1, 2, 6, 7, "hand0")])

    def lines(width: int) -> tuple[list[Text], Parts]:
        return [Text(" a  accept")], [(0, 0, 4, "a")]

    class Bare(App[None]):
        CSS = "TableArea { height: 4; } SidePanel { height: 3; } Bar { height: 2; }"

        def compose(self) -> ComposeResult:
            yield TableArea(draw, lambda e: keys.append(e.key))
            panel = SidePanel(ascii=True)
            panel.notes.append(Note(Text("Bob played 7♥")))
            yield panel
            yield Bar(lines, ascii=False, id="actions")

        def on_table_area_picked(self, message: TableArea.Picked) -> None:
            picked.append((message.token, message.zone))

        def on_bar_pressed(self, message: Bar.Pressed) -> None:
            pressed.append(message.key)

    async def main() -> None:
        app = Bare()
        async with app.run_test(size=(40, 12)) as pilot:
            area = app.query_one(TableArea)
            area.focus()
            await pilot.pause()
            assert area.drawn.lines[0].plain.startswith("table ")
            assert "Bob played 7H" in app.query_one(SidePanel).render().plain  # --ascii: the panel too
            await pilot.click(TableArea, offset=(4, 1))  # 1 column of padding, then the card
            await pilot.click(Bar, offset=(2, 0))
            await pilot.press("x")
            await pilot.pause()
        assert picked == [(7, "hand0")] and pressed == ["a"] and "x" in keys

    asyncio.run(main())


def test_ascii_text_keeps_the_styles() -> None:
    text = Text("7♥ ", style="bold") + Text("←→", style="dim")
    out = ascii_text(text, True)
    assert out.plain == "7H <->" and out.spans and ascii_text(text, False) is text
