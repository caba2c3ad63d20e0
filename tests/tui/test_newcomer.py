"""The rough edges a newcomer meets at the table: typed words after "/" in a bot game, the help
at 80 columns, --ascii arrows, a window too small, a table that keeps its form all game."""

from __future__ import annotations

import asyncio

import pytest

from fairdeal.cli.render import to_ascii
from fairdeal.cli.tui.layout import draw_table
from fairdeal.cli.tui.screens import KEY_COLUMN, help_lines
from fairdeal.cli.tui.widgets import TableArea

from .harness import table_app, until
from .positions import game_named, positions


def test_words_typed_after_a_slash_in_a_bot_game_never_act_as_keys() -> None:
    app, player = table_app("ecarte", 2, seed=3)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: player.deciding, pilot, "a decision")
            moves = player.moves
            await pilot.press("slash")
            assert "No chat in a game against bots" in app.flash
            await pilot.press(*"as 1 s p", "enter")  # card names, a place key, button letters
            await pilot.pause(0.2)
            assert player.deciding and player.moves is moves, "a typed word played a move"
            assert app.selected is None
            assert app.query_one(TableArea).has_focus  # Enter closed the line: keys act again
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    asyncio.run(main())


def test_the_help_is_wrapped_once_to_the_screen() -> None:
    for width in (74, 114):
        lines = help_lines(width)
        assert all(len(line) <= width for line in lines), [ln for ln in lines if len(ln) > width]
        f3 = lines.index(next(ln for ln in lines if ln.startswith("  F3")))
        assert lines[f3 + 1].startswith(" " * KEY_COLUMN) and "resume" in " ".join(lines[f3 : f3 + 3])
    # every continuation hangs under the words, never under the keys
    for line in help_lines(74):
        if line.startswith(" " * 3):
            assert line.startswith(" " * KEY_COLUMN), line


def test_ascii_writes_arrows_as_ascii_arrows() -> None:
    assert to_ascii("Choose a card: ← →, its name") == "Choose a card: <- ->, its name"
    assert to_ascii("↑↓ scroll") == "^v scroll"


def test_a_window_too_small_says_so_and_how_big_it_must_be() -> None:
    app, player = table_app("spite-malice", 2, seed=3, options={"target": 1})

    async def main() -> None:  # 44×16: too small even with the side panel hidden
        async with app.run_test(size=(44, 16)) as pilot:
            await until(lambda: player.deciding, pilot, "a decision")
            await pilot.pause()
            shown = " ".join(line.plain for line in app.query_one(TableArea).drawn.lines)
            assert "The window is too small" in shown and "at least 80x24" in shown, shown
            await pilot.resize_terminal(80, 24)
            await pilot.pause(0.2)
            shown = " ".join(line.plain for line in app.query_one(TableArea).drawn.lines)
            assert "too small" not in shown and "Payoff" in shown, shown
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    asyncio.run(main())


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [("snatch", 4, {}), ("ecarte", 2, {}), ("spite-malice", 2, {"target": 1})],
)
@pytest.mark.parametrize(("width", "height"), [(50, 19), (78, 35)])  # the table of 80×24 and 120×40
def test_the_table_keeps_one_form_for_the_whole_game(
    name: str, players: int, options: dict[str, object], width: int, height: int
) -> None:
    """Drawn as the table draws it (never roomier than the last form), a whole game keeps the
    form of its first table: no switch from boxes to compact cards mid-game."""
    game = game_named(name)
    names = {0: "You", 1: "Carol", 2: "Player 2", 3: "Bot 3 (shrewd)"}.__getitem__
    least = 0
    forms = []
    for state in positions(game, players, seed=9, options=options, limit=300):
        drawn = draw_table(game.table_view(state, 0), 0, names, width, height, least=least)
        least = drawn.form
        forms.append(drawn.form)
    assert len(set(forms)) == 1, forms


def test_ascii_draws_the_boxes_and_the_help_in_ascii_too() -> None:
    from textual.widgets import Static

    from fairdeal.cli.tui.screens import ConfirmScreen, TextScreen

    app, player = table_app("ecarte", 2, seed=3, ascii=True)
    lines = help_lines(74, ascii=True)
    assert all(line.isascii() for line in lines) and "lit in green" not in " ".join(lines)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: player.deciding, pilot, "a decision")
            await pilot.press("f1")
            await until(lambda: isinstance(app.screen, TextScreen), pilot, "the help")
            box = app.screen.query_one("VerticalScroll")
            assert box.styles.border_top[0] == "ascii" and (box.border_title or "").isascii()
            await pilot.press("escape")
            await pilot.press("ctrl+q")
            await until(lambda: isinstance(app.screen, ConfirmScreen), pilot, "the question")
            assert app.screen.query_one(Static).styles.border_top[0] == "ascii"
            await pilot.press("n")
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    asyncio.run(main())
