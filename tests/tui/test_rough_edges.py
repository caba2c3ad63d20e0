"""What a newcomer met at the table at 80×24, 60×18 and 120×40: NO_COLOR, a narrow window."""

from __future__ import annotations

import asyncio

import pytest
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


@pytest.mark.parametrize("no_color", ["1", None])
def test_no_color_sends_no_colour_at_all(no_color: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR: no colour, not even greys (bold, reverse and underline stay); without it, colours."""
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
                assert colours
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    asyncio.run(main())


def test_a_lit_place_is_reversed_so_it_shows_without_colour() -> None:
    from rich.style import Style

    from fairdeal.cli.tui._faces import LIT

    assert Style.parse(LIT).reverse
