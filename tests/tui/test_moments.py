"""The moments between moves, as a matrix: every moment × both front ends × every role.

Each moment is decided once by the network layer (an event, or an action it offers) and only
said by the front ends; here each cell plays a real network game in this process
(:mod:`.moments`: a host, a guest and a watcher over loopback TCP, the person's end shown by the
front end under test, the others bots on a thread of their own) and checks what the person
reads and what the others were told:

============  ==============================  ==============================  ======================
moment        host                            guest                           watcher
============  ==============================  ==============================  ======================
leaving       Ctrl-C: guests and watcher      Ctrl-Q, yes: the game stops     Ctrl-Q, yes: the host
              told the host left; resume      for all, the host's box names   counts one watcher
              later                           who left                        less
told of it    a guest left: the box names it  the host left: box, resume      the host left: box,
                                                                              watch again
resigning     Ctrl-Q on its turn: everyone    Ctrl-Q on its turn: everyone    the box says who
              reads "Ann resigned"            reads "Bob resigned"            resigned
refusal       its words of a connection it    the table is full: a box with   no watchers, its own
              turned away                     what to do                      identity: a box
host away     a seat away, counted down       the host lost, counted down;    the host lost,
                                              not there yet (resumed)         counted down
busy host     —                               —                               told to wait, said
============  ==============================  ==============================  ======================

The table cells run the real ``TableApp`` with Textual's pilot (keys pressed as a person
presses them); the line-mode cells run ``run_seat`` with a real SIGINT and ``finish_game``, as
``fairdeal host --plain`` does. The real processes and terminals are in
``tests/net/test_leaving.py`` and the tmux tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from textual.css.query import NoMatches

from fairdeal.cli.console import UI
from fairdeal.cli.endings import Ending
from fairdeal.cli.netlines import LineReport
from fairdeal.cli.netseat import SeatLog, end_box, finish_game, run_seat
from fairdeal.cli.tui.app import SidePanel, TableApp
from fairdeal.cli.tui.bars import status_line
from fairdeal.cli.tui.netshow import NetShow
from fairdeal.cli.tui.netview import TableReport
from fairdeal.cli.tui.player import TablePlayer
from fairdeal.cli.tui.screens import ConfirmScreen, EndScreen
from fairdeal.net import WatchPlan
from fairdeal.net import events as ev
from fairdeal.seedfile import seed_path

from .harness import LatePlayer, until
from .moments import ROLES, SEATS, Net, Role

pytestmark = pytest.mark.slow

UNDER_WAY = 12  # entries: the first deal is dealt, moves are being made
LOG = Path("/nowhere/ecarte.fdlog")


# -- the table ---------------------------------------------------------------------------------------
class AtTable:
    """The person's end of a :class:`Net` at the full-screen table (80×24), driven by the pilot."""

    def __init__(self, role: Role, *, skip: int = 10_000, **net: Any) -> None:
        self.role = role
        self.player = TablePlayer(watching=True) if role == "watcher" else LatePlayer(skip)
        report = TableReport(self.player)
        self.shows = NetShow()
        agent = None if role == "watcher" else self.player
        self.net = Net(role, report, agent, **net)
        self.app = TableApp("Écarté", self.player, self.net.play, net=self.shows)
        report.app = self.app
        self.app.finish = self.box
        self.question = ""
        self.shown: Ending | None = None
        self.notes = ""

    def box(self) -> Ending | None:
        """The end box, as ``run_table`` builds it (this seat's seed file taken as kept)."""
        session = self.player.session
        return end_box(self.shows.refused, self.shows.ended, session, LOG, self.role == "watcher", True)

    def run(self, act: Any) -> None:
        """Start the others, run the app, and ``await act(pilot)`` while it runs."""
        self.net.start_others()

        async def main() -> None:
            async with self.app.run_test(size=(80, 24)) as pilot:
                await act(pilot)
                await until(lambda: self.app.outcome is not None, pilot, "this end's game to stop", 60)
                await pilot.pause(0.2)
                self.notes = self.panel()
                if isinstance(self.app.screen, EndScreen):
                    self.shown = Ending(self.app.screen.title, self.app.screen.lines)
                    await pilot.press("enter")

        asyncio.run(main())
        self.net.stop_others()

    def panel(self) -> str:
        """The side panel's notes, as one line of words."""
        with contextlib.suppress(NoMatches):
            notes = self.app.query_one(SidePanel).notes
            return " ".join(" ".join(n.text.plain for n in notes).split())
        return self.notes

    def status(self) -> str:
        return status_line(self.app).plain

    async def under_way(self, pilot: Any) -> None:
        await until(lambda: self.net.taps[self.role].entries >= UNDER_WAY, pilot, "the game under way", 60)

    async def ask(self, pilot: Any, key: str, answer: str = "y") -> None:
        """Press ``key``, note the question asked, answer it."""
        await pilot.press(key)
        await until(lambda: isinstance(self.app.screen, ConfirmScreen), pilot, "the question", 10)
        self.question = self.app.screen.question  # type: ignore[attr-defined]
        await pilot.press(answer)


def _text(end: Ending | None) -> str:
    assert end is not None, "no end box"
    return " ".join(" ".join(t for t, _ in end.lines).split())


# -- line mode -----------------------------------------------------------------------------------------
class InLines:
    """The person's end of a :class:`Net` in line mode: ``run_seat`` (a real SIGINT for Ctrl-C)
    and ``finish_game``, their words in a string; the seat's seed file taken as kept."""

    def __init__(self, role: Role, tmp: Path, **net: Any) -> None:
        self.role = role
        self.out = io.StringIO()
        self.ui = UI(plain=True, file=self.out, status=False, width=80)
        self.report = LineReport(self.ui)
        self.net = Net(role, self.report, **net)
        self.log = SeatLog(None, lock=role != "watcher")
        self.log.path = tmp / "ecarte.fdlog"
        seed_path(self.log.path).write_text("kept")
        self.status: int | str | None = None
        self.running = False
        self._lock = threading.Lock()

    def run(self, interrupt_after: int | None = None) -> None:
        """Play this end; with ``interrupt_after``, Ctrl-C once it holds that many entries."""
        self.net.start_others()
        self.running = True
        if interrupt_after is not None:
            threading.Thread(target=self._ctrl_c, args=(interrupt_after,), daemon=True).start()
        try:
            play = lambda plan, report: self.net.play()  # noqa: E731 - run_seat calls fn(plan, report)
            plan = object.__new__(WatchPlan) if self.role == "watcher" else ()  # what run_seat tells by
            outcome = run_seat(self.ui.say, play, plan, self.report, log=self.log)
            finish_game(outcome, self.log, False, self.ui, None, you=SEATS.get(self.role))
        except SystemExit as stop:
            self.status = stop.code
        finally:
            with self._lock:
                self.running = False  # no Ctrl-C from here on: it would land in another test
            self.net.stop_others()

    def interrupt(self) -> None:
        """Ctrl-C, as at a terminal — while this end still runs."""
        with self._lock:
            if self.running:
                os.kill(os.getpid(), signal.SIGINT)

    def _ctrl_c(self, entries: int) -> None:
        end = time.monotonic() + 60
        while self.running and self.net.taps[self.role].entries < entries and time.monotonic() < end:
            time.sleep(0.02)
        self.interrupt()

    @property
    def text(self) -> str:
        return " ".join(self.out.getvalue().split())


@pytest.fixture(autouse=True)
def _ctrl_c_as_at_a_terminal() -> Any:
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


# -- leaving ---------------------------------------------------------------------------------------------
def _others_told_of_leaving(net: Net, role: Role) -> None:
    """What the others were told when ``role`` left, and how the game ended for each."""
    taps = net.taps
    if role == "host":
        for other, watching in (("guest", False), ("watcher", True)):
            assert taps[other].of(ev.HostLeft) == [ev.HostLeft(watching)], taps[other].events[-5:]
            assert not taps[other].of(ev.HostLost), "leaving is never a lost link"
            ended = taps[other].ended
            assert ended is not None and ended.how == "host left"
            assert ended.resumable is (other == "guest")
        assert taps["host"].ended == ev.GameEnded("left", "you left the game", resumable=True)
    elif role == "guest":
        for other in ("host", "watcher"):
            ended = taps[other].ended
            assert ended is not None and ended.how == "aborted", taps[other].events[-5:]
            assert ended.blamed == (1,) and ended.reason == "left the game", ended
            assert not taps[other].of(ev.Away), "leaving is never a dropped link"
        assert taps["guest"].ended == ev.GameEnded("left", "you left the game")  # over for all
    else:
        assert taps["host"].of(ev.WatcherLeft), taps["host"].events[-5:]


@pytest.mark.parametrize("role", ROLES)
def test_leaving_at_the_table_tells_the_others(role: Role) -> None:
    t = AtTable(role)

    async def act(pilot: Any) -> None:
        await t.under_way(pilot)
        if role == "host":
            await pilot.press("ctrl+c")
        else:
            await t.ask(pilot, "ctrl+q")
        if role == "watcher":  # the host and the guest play on: the host leaves too, to end it
            await until(lambda: bool(t.net.taps["host"].of(ev.WatcherLeft)), pilot, "the watcher gone", 30)
            t.net.leave("host")

    t.run(act)
    _others_told_of_leaving(t.net, role)
    assert t.shown is None, "leaving closes the table: the terminal says how it ended"
    if role == "guest":
        assert "It stops here for everyone" in t.question, t.question
    if role == "watcher":
        assert t.question.startswith("Stop watching?"), t.question
        return
    box = t.box()
    text = _text(box)
    assert box is not None and box.title == "You left", text
    if role == "host":
        assert "the others were told, and keep their seats" in text and "go on: " in text, text
    else:
        assert "it stops here for everyone" in text and "go on:" not in text, text


@pytest.mark.parametrize("role", ROLES)
def test_leaving_in_line_mode_tells_the_others(role: Role, tmp_path: Path) -> None:
    t = InLines(role, tmp_path)
    if role == "watcher":  # the host leaves once the watcher is gone, to end the game
        threading.Thread(target=_host_leaves_after_the_watcher, args=(t.net,), daemon=True).start()
    t.run(interrupt_after=UNDER_WAY)
    assert t.status == 130, (t.status, t.text)
    _others_told_of_leaving(t.net, role)
    if role == "host":
        assert "Leaving the game: telling the others" in t.text
        assert "You left the game after" in t.text and "the others were told" in t.text, t.text
        assert f"resume {t.log.path}" in t.text, t.text
    elif role == "guest":
        assert "You left the game after" in t.text and "it stops here for everyone" in t.text, t.text
        assert "resume" not in t.text, t.text
    else:
        assert "You stopped watching" in t.text, t.text


def _host_leaves_after_the_watcher(net: Net) -> None:
    end = time.monotonic() + 60
    while not net.taps["host"].of(ev.WatcherLeft) and time.monotonic() < end:
        time.sleep(0.05)
    net.leave("host")


# -- told that another left -----------------------------------------------------------------------------
def _told_that(role: Role, text: str, notes: str) -> None:
    """What ``role`` reads when the other seat left (the host, or for the host its guest)."""
    if role == "host":
        assert "The game stopped before its end: Bob (seat 1) left it." in text, text
    elif role == "guest":
        assert "The host left the game: it stops here, and your seat is kept." in text, text
        assert "The host left the game: it stops here (this seat can go on" in notes, notes
    else:
        assert "The host left the game: it stops here." in text and "watch again with the same code" in text
        assert "(watch again if the host goes on with it)" in notes, notes
    assert "trying to reach it again" not in notes and "connection dropped" not in notes, notes


@pytest.mark.parametrize("role", ROLES)
def test_told_at_the_table_that_another_left(role: Role) -> None:
    t = AtTable(role)
    leaver: Role = "guest" if role == "host" else "host"

    async def act(pilot: Any) -> None:
        await t.under_way(pilot)
        t.net.leave(leaver)

    t.run(act)
    assert t.shown is not None, "the end box"
    text = _text(t.shown)
    assert t.shown.title == ("Game over" if role == "host" else "The host left"), t.shown.title
    _told_that(role, text, t.notes)
    if role == "guest":
        assert "go on: " in text and "resume LOG" in text, text


@pytest.mark.parametrize("role", ROLES)
def test_told_in_line_mode_that_another_left(role: Role, tmp_path: Path) -> None:
    t = InLines(role, tmp_path)
    leaver: Role = "guest" if role == "host" else "host"
    threading.Thread(target=_leaves, args=(t.net, leaver), daemon=True).start()
    t.run()
    assert t.status == 1, (t.status, t.text)
    _told_that(role, t.text, t.text)
    if role == "guest":
        assert f"resume {t.log.path}" in t.text, t.text


def _leaves(net: Net, role: Role) -> None:
    end = time.monotonic() + 60
    while (net.taps[role].entries < UNDER_WAY or net.taps[role].leave is None) and time.monotonic() < end:
        time.sleep(0.02)
    net.leave(role)


# -- resigning -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("role", ROLES)
def test_resigning_at_the_table_is_said_to_everyone(role: Role) -> None:
    t = AtTable(role, skip=3, resigns="host" if role == "watcher" else None, options={"target": 2})

    async def act(pilot: Any) -> None:
        if role != "watcher":
            await until(lambda: t.player.deciding, pilot, "the person's fourth move", 60)
            await t.ask(pilot, "ctrl+q")

    t.run(act)
    text = _text(t.shown)
    who = {"host": "Ann", "guest": "Bob", "watcher": "Ann"}[role]
    if role == "watcher":
        assert "Bob wins: Ann resigned." in text, text
    else:
        assert t.question.startswith("Resign this game?"), t.question
        assert "You resigned" in text, text
    for other in ROLES:
        ended = t.net.taps[other].ended if other != role else t.shows.ended
        assert ended is not None and ended.how == "finished", (other, ended)
        session = t.net.taps[other].session if other != role else t.player.session
        assert session is not None and session.result is not None
        assert session.result.reason == f"{who} resigned", session.result


@pytest.mark.parametrize("role", ROLES)
def test_resigning_in_line_mode_is_said(role: Role, tmp_path: Path) -> None:
    from fairdeal.cli.linemode import TerminalAgent

    typed = iter(["quit", "y"])
    t = InLines(role, tmp_path, resigns="host" if role == "watcher" else None, options={"target": 2})
    if role != "watcher":
        t.net.agent = TerminalAgent(t.ui, ask=lambda prompt: next(typed))
    t.run()
    assert t.status == 0, (t.status, t.text)
    if role == "watcher":
        assert "Bob wins: Ann resigned." in t.text, t.text
    else:
        assert "You resigned" in t.text, t.text


# -- refusals --------------------------------------------------------------------------------------------
REFUSALS: list[tuple[Role, dict[str, Any], str, str]] = [
    ("guest", {"late": True}, "the table is full (the game has started)", "Every seat is taken"),
    ("watcher", {"watchers": 0}, "this host does not allow watchers", "The host chose to let nobody watch"),
    (
        "watcher",
        {"as_host": ("watcher",)},
        "that is the host's own identity (watch from another profile: --profile NAME)",
        "fairdeal --profile NAME watch",
    ),
]


@pytest.mark.parametrize(("role", "net", "words", "hint"), REFUSALS, ids=["full", "no watchers", "own id"])
def test_a_refusal_at_the_table_is_a_box_with_the_reason_and_what_to_do(
    role: Role, net: dict[str, Any], words: str, hint: str
) -> None:
    t = AtTable(role, **net)

    async def act(pilot: Any) -> None:
        await until(lambda: t.shows.refused is not None, pilot, "the refusal", 60)
        t.net.leave("host")  # the others' game is not this test's: it ends

    t.run(act)
    assert t.shown is not None and t.shown.title == "Refused", t.shown
    text = _text(t.shown)
    assert f"The host refused: {words}." in text and hint in text, text


@pytest.mark.parametrize(("role", "net", "words", "hint"), REFUSALS, ids=["full", "no watchers", "own id"])
def test_a_refusal_in_line_mode_is_one_line_with_what_to_do(
    role: Role, net: dict[str, Any], words: str, hint: str, tmp_path: Path
) -> None:
    from fairdeal.core.errors import FairdealError

    t = InLines(role, tmp_path, **net)
    threading.Thread(target=_leaves, args=(t.net, "host"), daemon=True).start()
    with pytest.raises(FairdealError) as refused:
        t.run()
    assert str(refused.value) == f"the host refused: {words}", refused.value
    assert hint in getattr(refused.value, "hint", ""), refused.value


@pytest.mark.parametrize("front", ["table", "lines"])
def test_the_host_says_in_its_own_words_why_it_turned_a_connection_away(front: str, tmp_path: Path) -> None:
    words = "it came with this host's own identity (a terminal of this profile: use --profile NAME)."
    if front == "lines":
        t2 = InLines("host", tmp_path, as_host=("watcher",))
        t2.run(interrupt_after=UNDER_WAY + 4)
        assert "Turned away a connection from 127.0.0.1:" in t2.text and words in t2.text, t2.text
        return
    t = AtTable("host", as_host=("watcher",))

    async def act(pilot: Any) -> None:
        await until(lambda: "Turned away" in t.panel(), pilot, "the host's words", 60)
        await pilot.press("ctrl+c")

    t.run(act)
    assert words in t.notes and "join with another profile" not in t.notes, t.notes


# -- the host away ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("role", ROLES)
def test_the_host_away_or_a_seat_away_is_counted_down_at_the_table(role: Role) -> None:
    t = AtTable(role, grace=8)
    status = {
        "host": "Waiting for Bob to come back (0:",
        "guest": "Lost the host: trying to reach it again (0:",
        "watcher": "Lost the host: trying to reach it again (0:",
    }[role]

    async def act(pilot: Any) -> None:
        await t.under_way(pilot)
        t.net.kill()
        await until(lambda: t.status().startswith(status), pilot, status, 30)
        if role == "watcher":
            await t.ask(pilot, "ctrl+q")
        else:
            await pilot.press("ctrl+c")
        if role != "host":
            t.net.leave("host")  # the host is still there, behind the network that went: it ends

    t.run(act)
    if role == "watcher":
        return
    box = t.box()
    text = _text(box)
    if role == "host":
        assert box is not None and box.title == "You left" and "keep their seats" in text, text
    else:  # nobody could be told: the seat goes on once the host is back
        assert "You left the game after" in text and "while the host was away" in text, text
        assert "go on: " in text, text


@pytest.mark.parametrize("role", ROLES)
def test_the_host_away_or_a_seat_away_is_said_in_line_mode(role: Role, tmp_path: Path) -> None:
    t = InLines(role, tmp_path, grace=8)
    said = {
        "host": "Bob's connection dropped: waiting for Bob to come back (0:08).",
        "guest": "The host closed the connection: trying to reach it again (0:08).",
        "watcher": "The host closed the connection: trying to reach it again (0:08).",
    }[role]

    def kill_then_interrupt() -> None:
        end = time.monotonic() + 60
        while t.net.taps[role].entries < UNDER_WAY and time.monotonic() < end:
            time.sleep(0.02)
        t.net.kill()
        while said not in t.text and time.monotonic() < end:
            time.sleep(0.02)
        t.interrupt()
        if role != "host":
            t.net.leave("host")  # the host is still there, behind the network that went: it ends

    threading.Thread(target=kill_then_interrupt, daemon=True).start()
    t.run()
    assert said in t.text, t.text
    assert t.status == 130, (t.status, t.text)
