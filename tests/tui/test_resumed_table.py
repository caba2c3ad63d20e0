"""A resumed seat shows the table as it stands and the story so far at once, before anybody
moves: the entries read back from its own log are told to the front end one by one (as
``Applied(replayed=True)``), so the table and line mode know the game without waiting for the
next entry from the host; line mode keeps them for its recent lines without printing each."""

from __future__ import annotations

import asyncio
import io

import trio

from fairdeal import registry
from fairdeal.cli.console import UI
from fairdeal.cli.linemode import TerminalAgent
from fairdeal.cli.netlines import LineReport
from fairdeal.cli.tui.app import SidePanel, TableApp
from fairdeal.cli.tui.netview import TableReport
from fairdeal.cli.tui.player import TablePlayer
from fairdeal.core.session.logfile import parse_log
from fairdeal.net import events as ev
from fairdeal.net.replay import replay
from fairdeal.testing import play_with_protocol, seat_sessions

from .harness import until

SEED = 4


def _log() -> tuple[bytes, ...]:
    """The first half of a seeded Écarté game's log (played before any event loop runs)."""
    game = registry.load().game("ecarte")
    entries = parse_log(play_with_protocol(game, 2, SEED, {"target": 5}).log).entries
    return entries[: len(entries) // 2]


def _resume(report: object, entries: tuple[bytes, ...]) -> int:
    """Seat 1 of that game rebuilt from ``entries``, told to ``report`` as network play tells
    it; the number of moves in those entries."""
    game = registry.load().game("ecarte")
    table = seat_sessions(game, 2, SEED, {"target": 5})
    session = table.sessions[1]
    moves = [0]

    def each(s: object, new: object) -> None:
        moves[0] += sum(type(e).__name__ == "MoveMade" for e in new)  # type: ignore[attr-defined]
        report(ev.Applied(session, tuple(new), replayed=True))  # type: ignore[operator, arg-type]

    replay(session, entries, each)  # type: ignore[arg-type]
    report(ev.Resumed(table.header, 1, session.seq))  # type: ignore[operator]
    assert moves[0] >= 3, "the resumed part of the game holds a few moves"
    return moves[0]


def test_the_table_of_a_resumed_seat_shows_the_game_and_its_story_at_once() -> None:
    async def game() -> None:
        await trio.sleep_forever()

    entries = _log()

    async def main() -> None:
        player = TablePlayer()
        report = TableReport(player)
        app = TableApp("Test", player, game)
        report.app = app
        async with app.run_test(size=(100, 30)) as pilot:
            _resume(report, entries)
            await until(lambda: player.session is not None, pilot, "the table to know the game")
            await pilot.pause(0.5)
            drawn = " ".join(line.plain for line in app.draw(100, 30).lines)
            assert "catching up" not in drawn
            notes = " ".join(n.text.plain for n in app.query_one(SidePanel).notes)
            assert f"The game goes on after {len(entries)} entries" in notes
            panel = " ".join(app.query_one(SidePanel).render().plain.split())
            assert panel.count("played") >= 3 and "takes the trick" in panel, panel  # the story so far
            await pilot.press("ctrl+c")

    asyncio.run(main())


def test_line_mode_keeps_the_story_of_a_resumed_seat_without_printing_each_move() -> None:
    out = io.StringIO()
    ui = UI(file=out, width=80, plain=True, status=False)
    human = TerminalAgent(ui)
    report = LineReport(ui, human)
    entries = _log()
    moves = _resume(report, entries)
    assert len(human.recent) >= min(moves, 3)  # shown with the table at this seat's next move
    printed = out.getvalue()
    assert f"The game goes on after {len(entries)} entries" in printed
    assert not any(line in printed for line in human.recent)  # not printed one by one
