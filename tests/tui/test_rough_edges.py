"""What a newcomer met at the table at 80×24, 60×18 and 120×40: NO_COLOR, a narrow window."""

from __future__ import annotations

import asyncio

import pytest
from rich.color import Color
from textual.geometry import Region

from .harness import table_app, until


def _colours(app: object) -> set[tuple[str, str]]:
    """Every colour the screen's widgets send (a widget and the colour), after Textual's filters."""
    found: set[tuple[str, str]] = set()
    screen = app.screen  # type: ignore[attr-defined]
    for widget in (screen, *screen.walk_children()):
        if not widget.display:
            continue
        for strip in widget.render_lines(Region(0, 0, widget.size.width, widget.size.height)):
            for seg in strip:
                style = seg.style
                for colour in () if style is None else (style.color, style.bgcolor):
                    if colour is not None and not colour.is_default:
                        found.add((type(widget).__name__, colour.name))
    return found


def _grey(name: str) -> bool:
    r, g, b = Color.parse(name).get_truecolor()
    return r == g == b


@pytest.mark.parametrize("no_color", ["1", "", None])
def test_no_color_sends_no_colour_at_all(no_color: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR: no colour, not even greys (bold, reverse and underline stay); without it, or set
    to the empty string (no-color.org: that asks for nothing), colours, not Textual's greys."""
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    app, player = table_app("ecarte", 2, seed=3)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: player.deciding, pilot, "a decision")
            await pilot.pause(0.2)
            colours = _colours(app)
            if no_color:
                assert not colours, sorted(colours)[:10]
            else:
                assert any(not _grey(name) for _widget, name in colours), sorted(colours)[:10]
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    asyncio.run(main())


def test_a_lit_place_is_reversed_so_it_shows_without_colour() -> None:
    from rich.style import Style

    from fairdeal.cli.tui._faces import LIT

    assert Style.parse(LIT).reverse


def test_a_narrow_window_gives_the_table_the_room_it_needs_and_the_story_a_key() -> None:
    """60×18: the panel narrows, then hides, until the table fits whole; F4 shows the story; at
    80×24 the panel is back."""
    from fairdeal.cli.tui.bars import keys_line, status_line
    from fairdeal.cli.tui.screens import TextScreen
    from fairdeal.cli.tui.widgets import SidePanel, TableArea

    app, player = table_app("spite-malice", 2, seed=3, options={"target": 1})

    async def main() -> None:
        async with app.run_test(size=(60, 18)) as pilot:
            await until(lambda: player.deciding, pilot, "a decision")
            await until(lambda: app.panel == 0, pilot, "the panel to give way")
            await pilot.pause(0.2)
            side, area = app.query_one(SidePanel), app.query_one(TableArea)
            assert not side.display and area.content_size.width == 58
            shown = " ".join(line.plain for line in area.drawn.lines)
            assert "too small" not in shown and "Payoff" in shown, shown
            assert "F4 shows it" in status_line(app).plain
            assert "F4 story" in keys_line(app, 200).plain
            await pilot.press("f4")
            await until(lambda: isinstance(app.screen, TextScreen), pilot, "the story")
            story = app.screen
            assert isinstance(story, TextScreen) and story.title_text == "What happened"
            assert any("payoff" in line for line in story.lines), story.lines
            await pilot.press("escape")
            await pilot.resize_terminal(80, 24)
            await until(lambda: app.panel == 28 and side.display, pilot, "the panel back")
            await pilot.pause(0.2)
            assert area.drawn.whole and side.outer_size.width == 28
            assert "F4 story" not in keys_line(app, 200).plain
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    asyncio.run(main())


def test_a_table_that_fits_keeps_a_narrower_panel_at_60_columns() -> None:
    from fairdeal.cli.tui.widgets import SidePanel, TableArea

    app, player = table_app("ecarte", 2, seed=3)

    async def main() -> None:
        async with app.run_test(size=(60, 18)) as pilot:
            await until(lambda: player.deciding, pilot, "a decision")
            await pilot.pause(0.3)
            side, area = app.query_one(SidePanel), app.query_one(TableArea)
            assert side.display and side.outer_size.width == 20 and area.drawn.whole
            assert area.content_size.width == 38
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    asyncio.run(main())


def test_the_panels_widths() -> None:
    from fairdeal.cli.tui.layout import narrower_panel, panel_width

    assert [panel_width(c) for c in (60, 79, 80, 99, 100, 120)] == [20, 20, 28, 28, 40, 40]
    assert [narrower_panel(w) for w in (40, 28, 20, 0)] == [28, 20, 0, 0]


def test_ascii_help_scrolls_with_an_ascii_scrollbar() -> None:
    """--ascii: the help's scrollbar is drawn without Textual's Unicode block characters."""
    from fairdeal.cli.tui.screens import TextScreen

    app, player = table_app("ecarte", 2, seed=3, ascii=True)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: player.deciding, pilot, "a decision")
            await pilot.press("f1")
            await until(lambda: isinstance(app.screen, TextScreen), pilot, "the help")
            await pilot.pause(0.2)
            box = app.screen.query_one("VerticalScroll")
            assert box.max_scroll_y > 0  # the help scrolls at 80x24: its scrollbar shows
            bar = box.vertical_scrollbar
            drawn = "".join(seg.text for strip in bar.render_lines(bar.region.reset_offset) for seg in strip)
            assert drawn.isascii(), drawn
            await pilot.press("escape")
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    asyncio.run(main())


@pytest.mark.parametrize(("game", "players", "ends_for_all"), [("snatch", 3, True), ("ecarte", 2, False)])
def test_resigning_says_first_when_it_ends_the_game_for_everyone(
    game: str, players: int, ends_for_all: bool
) -> None:
    """Ctrl-Q on one's turn: with two or more others still in, the game ends for all, with no winner."""
    from fairdeal.cli.tui.screens import ConfirmScreen

    app, player = table_app(game, players, seed=3)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: player.deciding, pilot, "a decision")
            await pilot.press("ctrl+q")
            await until(lambda: isinstance(app.screen, ConfirmScreen), pilot, "the question")
            question = app.screen.question  # type: ignore[attr-defined]
            assert question.startswith("Resign this game?")
            assert ("ends the game for everyone, with no winner" in question) == ends_for_all, question
            await pilot.press("n")
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    asyncio.run(main())
