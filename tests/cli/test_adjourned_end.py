"""An adjourned game ends with where it stands and how to go on, never with "the final reveal did
not complete" (the warning of a game cut short): in line mode, in the table's end box, for a
player and for a watcher."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from textual.app import App
from textual.widgets import Static

from fairdeal import registry
from fairdeal.cli.console import UI
from fairdeal.cli.outcome import print_summary, summary
from fairdeal.cli.tui.screens import EndScreen
from fairdeal.core.session.session import Session
from fairdeal.testing import seat_sessions

LOG = Path("/games/ecarte-1.fdlog")


def _sessions() -> tuple[Session, Session]:
    """Seat 1 and a watcher of an Écarté game whose header is in."""
    game = registry.load().game("ecarte")
    table = seat_sessions(game, 2, 3)
    watcher = Session(game, None)
    header = table.sessions[0].start(table.header)
    for s in (table.sessions[1], watcher):
        s.receive(header)
    return table.sessions[1], watcher


def test_a_player_reads_that_nothing_is_lost_and_how_to_go_on() -> None:
    seat, _ = _sessions()
    text = "\n".join(t for t, _ in summary(seat, LOG, adjourned=True, resumable=True))
    assert "The game is adjourned after 1 entry: nothing is lost." in text
    assert "every player runs  fairdeal resume" in text and f"resume {LOG}" in text
    assert "final reveal did not complete" not in text and "Not audited" not in text
    assert f"verify {LOG}" in text and f"replay {LOG}" in text
    cut = "\n".join(t for t, _ in summary(seat, LOG))  # the same game cut short, not adjourned
    assert "final reveal did not complete" in cut and "adjourned" not in cut


def test_in_a_profile_the_command_to_go_on_names_it() -> None:
    """The seat was played with the profile's identity: resume without it is refused."""
    from fairdeal import storage

    seat, _ = _sessions()
    storage.use_profile("ann")
    try:
        text = "\n".join(t for t, _ in summary(seat, LOG, adjourned=True, resumable=True))
    finally:
        storage.use_profile(None)
    assert f"--profile ann resume {LOG}" in text, text
    assert f"fairdeal verify {LOG}" in text  # a log verifies with any identity


def test_a_seat_that_kept_nothing_and_a_watcher_are_not_told_to_resume() -> None:
    seat, watcher = _sessions()
    kept_nothing = "\n".join(t for t, _ in summary(seat, LOG, adjourned=True, resumable=False))
    assert "nothing is lost" in kept_nothing and " resume " not in kept_nothing
    watching = "\n".join(t for t, _ in summary(watcher, LOG, adjourned=True, resumable=False))
    assert "The players will go on later; watch again with the same code" in watching
    assert " resume " not in watching


def test_line_mode_puts_it_under_an_adjourned_rule_with_the_command_whole() -> None:
    seat, _ = _sessions()
    out = io.StringIO()
    long_log = Path("/a/rather/long/folder/name/for/the/games/of/this/evening") / "ecarte-0123456789ab.fdlog"
    print_summary(UI(file=out, width=60, plain=True), seat, long_log, adjourned=True)
    text = out.getvalue()
    assert "Adjourned" in text and "Game over" not in text
    assert any(line.strip().endswith(f"resume {long_log}") for line in text.splitlines())  # not wrapped


def test_the_table_end_box_is_titled_adjourned() -> None:
    seat, _ = _sessions()
    lines = summary(seat, LOG, adjourned=True, resumable=True)

    class Box(App[None]):
        def on_mount(self) -> None:
            self.push_screen(EndScreen(lines, "Adjourned"))

    async def main() -> None:
        app = Box()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            box = app.screen.query_one(Static)
            assert box.border_title == "Adjourned"
            assert "nothing is lost" in str(box.render())

    asyncio.run(main())


def test_a_log_in_a_profiles_folder_names_the_profile_to_resume_with() -> None:
    from fairdeal.cli.outcome import resume_command
    from fairdeal.cli.resume import _profile_of

    log = Path("/home/ann/.local/share/fairdeal/profiles/bob/logs/ecarte-1.fdlog")
    assert _profile_of(log) == "bob"
    assert resume_command(log, "bob").endswith(f"--profile bob resume {log}")
    assert _profile_of(Path("/home/ann/.local/share/fairdeal/logs/ecarte-1.fdlog")) is None
    assert _profile_of(Path("/games/profiles/Not Valid/logs/x.fdlog")) is None


def test_the_end_box_names_the_log_once_and_fits_80_columns(monkeypatch: object) -> None:
    """The box says the log's path once (under ``~``) and each command with ``LOG`` in its place,
    so nothing wraps at 80 columns; the terminal's summary keeps the commands whole."""
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    home = Path("/home/ann")
    monkeypatch.setattr(Path, "home", staticmethod(lambda: home))
    monkeypatch.setattr("fairdeal.cli.outcome.fairdeal_command", lambda: "fairdeal")
    log = home / ".local/share/fairdeal/logs/ecarte-2026-12-03-0123456789ab.fdlog"
    seat, _ = _sessions()
    for adjourned in (True, False):
        lines = [t for t, _ in summary(seat, log, adjourned=adjourned, resumable=True, compact=True)]
        text = "\n".join(lines)
        assert f"Log (LOG): ~/{log.relative_to(home)}" in lines
        assert text.count(log.name) == 1 and "  check it:   fairdeal verify LOG" in lines
        assert ("  go on:      fairdeal resume LOG" in lines) is adjourned
        assert all(len(line) <= 76 for line in lines), [
            line for line in lines if len(line) > 76
        ]  # inside the border
    whole = "\n".join(t for t, _ in summary(seat, log, adjourned=True, resumable=True))
    assert f"fairdeal resume {log}" in whole and f"fairdeal verify {log}" in whole and "LOG" not in whole
