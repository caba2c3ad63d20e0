"""The table at 80×24 fits in every language at the moments the snapshot tests show (German words
are long): the status line and every button of the actions bar whole on the screen, no line of the
table wider than its area, and the language's own words there (so a language that did not switch
fails too). Persian is checked in logical order here (``FAIRDEAL_BIDI=terminal``: its cells are
the same mirrored); tests/i18n/test_rtl.py reads the mirrored table in tmux."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from rich.cells import cell_len

from fairdeal import i18n
from fairdeal.cli.tui.app import TableApp
from fairdeal.cli.tui.bars import action_lines, status_line
from fairdeal.cli.tui.widgets import TableArea
from tests.tui.harness import table_app, until
from tests.tui.test_snapshots import POINTS

SIZE = (80, 24)
LANGS = list(i18n.LANGUAGES)


@pytest.fixture(autouse=True)
def speaking() -> Iterator[None]:
    yield
    i18n.use("en")


def _screen(app: TableApp) -> list[str]:
    """The screen as text, a row a line (what the terminal shows, cropped to its width)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def check_fits(app: TableApp, lang: str) -> list[str]:
    """Assert that the table at this moment fits its screen whole; returns the screen."""
    rows = _screen(app)
    width, height = app.size
    assert len(rows) == height and all(cell_len(r) <= width for r in rows)
    area = app.query_one(TableArea)
    drawn = area.drawn
    assert drawn is not None
    assert len(drawn.lines) <= area.size.height, "the table is taller than its area"
    for line in drawn.lines:
        assert line.cell_len <= area.size.width, f"a line of the table overflows: {line.plain!r}"
    whole = status_line(app).plain.strip()
    status = status_line(app, width - 2).plain.strip()  # fitted: the Enter: hint may be left out
    assert whole.startswith(status) and "…" not in status.replace(whole, ""), (
        f"the status line is cut: {whole!r}"
    )
    assert any(status in row for row in rows), f"the status line is cut: {status!r}\n" + "\n".join(rows)
    wide, parts = action_lines(app, 10_000)  # each button as it is whole, on one endless line
    for y, x0, x1, _key in parts:
        button = wide[y].plain[x0:x1].strip()
        assert any(button in row for row in rows), f"a button is cut: {button!r}\n" + "\n".join(rows)
    for english in ("F1 help", "Your turn"):  # the keys line and the status line say it in the language
        said = i18n.gettext(english)
        assert lang == "en" or said != english, f"no {lang} for {english!r}"
        assert any(said in row for row in rows), f"{said!r} is not on the screen\n" + "\n".join(rows)
    return rows


def _at_the_moment(
    lang: str, game: str, players: int, options: dict[str, object], seed: int, skip: int
) -> None:
    i18n.use(lang)
    app, player = table_app(game, players, seed, options, skip=skip)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: player.deciding, pilot, "the person's turn")
            await pilot.pause()
            check_fits(app, lang)
            app.exit()

    asyncio.run(main())


def _cases() -> list[Any]:
    out = []
    for lang in LANGS:
        for game, players, options, seed, skip in POINTS:
            out.append(
                pytest.param(
                    lang,
                    game,
                    players,
                    options,
                    seed,
                    skip,
                    id=f"{game}-{players}p-after{skip}-{lang}",
                )
            )
    return out


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "game", "players", "options", "seed", "skip"), _cases())
def test_the_table_fits_80_by_24_in_every_language(
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
    game: str,
    players: int,
    options: dict[str, object],
    seed: int,
    skip: int,
) -> None:
    monkeypatch.setenv("FAIRDEAL_BIDI", "terminal")
    _at_the_moment(lang, game, players, options, seed, skip)


def test_a_german_word_too_long_for_the_screen_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a German status word a hundred letters long is cut, and it says so."""
    german = i18n.catalog("de")

    class Longer:
        def __getattr__(self, name: str) -> Any:
            return getattr(german, name)

        def gettext(self, message: str) -> str:
            said = german.gettext(message)
            return "Du-bist-am-Zug" * 8 if message == "Your turn" else said

    monkeypatch.setattr(i18n, "catalog", lambda lang, domain=i18n.DOMAIN: Longer())
    with pytest.raises(AssertionError, match="the status line is cut"):
        _at_the_moment("de", "ecarte", 2, {}, 4, 0)
