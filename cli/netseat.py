"""What ``host``, ``join``, ``watch`` and ``resume`` share: a network seat's log, running a seat in
line mode or at the full-screen table, and the end of a game (what the person reads of network
play is :mod:`.netlines` in line mode, :mod:`.tui.netview` at the table)."""

import atexit
import json
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn, cast

import click
import trio

from fairdeal.core.errors import ConfigError, FairdealError
from fairdeal.core.rng import Rng
from fairdeal.core.session.header import Header
from fairdeal.core.session.session import Session
from fairdeal.i18n import N_
from fairdeal.i18n import gettext as _
from fairdeal.net import NetOutcome, WatchPlan, wire
from fairdeal.net.driver import Agent
from fairdeal.net.errors import NetError
from fairdeal.net.events import GameEnded
from fairdeal.net.invite import PUBLIC_RELAY, Endpoint, parse_endpoint
from fairdeal.seatlock import SeatLock, lock_seat
from fairdeal.seedfile import seed_path
from fairdeal.storage import LogWriter, default_log_path, unique_log_path

from .console import UI
from .endings import Ending, ending, print_ending, refusal_ending
from .linemode import TerminalAgent
from .netlines import LineReport, write_atomically
from .networds import refusal_words
from .outcome import result_object
from .seats import SeatKind, bot_agent, table_name

Say = Callable[[str], None]


RELAY_ENV = "FAIRDEAL_RELAY"
"""The relay a host uses without --relay or --no-relay: tcp:HOST:PORT, or ``none``."""


def default_relay() -> Endpoint | None:
    """The relay of ``FAIRDEAL_RELAY`` (``none``: no relay), else the public one magic-wormhole uses."""
    value = os.environ.get(RELAY_ENV, "").strip()
    if not value:
        return PUBLIC_RELAY
    if value.lower() in ("none", "off", "no"):
        return None
    try:
        return parse_endpoint(value)
    except ValueError:
        raise ConfigError(
            _("{variable}={value} is not tcp:HOST:PORT or none").format(variable=RELAY_ENV, value=repr(value))
        ) from None


# -- shared pieces ------------------------------------------------------------------------------------
class SeatLog:
    """Opens the game's log when the header is known (``--log`` or the default path); with
    ``reopen``, goes on appending to the log of a resumed game.

    With ``lock`` (a seat's log, not a watcher's) the seat is locked for this process as its log
    is made (:mod:`fairdeal.seatlock`); a resumed seat takes the lock first (:meth:`lock_now`),
    before anything is written. The lock goes when the process ends."""

    def __init__(
        self, path: Path | None, *, reopen: bool = False, suffix: str = "", lock: bool = True
    ) -> None:
        if path is not None and path.exists() and not reopen:
            raise ConfigError(_("the log file {path} exists already; choose another --log").format(path=path))
        self.wanted = path
        self.reopen = reopen
        self.suffix = suffix
        self.path: Path | None = path if reopen else None
        self.header: Header | None = None
        self.locking = lock
        self.lock: SeatLock | None = None
        #: How the game ended for this end, as the network layer said (the front end notes it).
        self.ended: GameEnded | None = None

    def where(self) -> tuple[Path | None, Header | None]:
        return self.path, self.header

    def lock_now(self, say: Say) -> None:
        """Lock the seat of this log for this process (SeatBusy when another process plays it); says
        so when a process that crashed had left its lock."""
        if self.lock is not None or self.path is None or not self.locking:
            return
        self.lock = lock_seat(self.path)
        atexit.register(self.lock.release)
        if self.lock.took_over is not None:
            said = _(
                "The fairdeal process that played this seat before (pid {pid}) ended without letting go of "
                "it: this process takes the seat over."
            )
            say(said.format(pid=self.lock.took_over))

    def _made(self, writer: LogWriter) -> LogWriter:
        try:
            self.lock_now(lambda text: None)
        except BaseException:
            writer.close()
            raise
        return writer

    def open(self, header: Header) -> LogWriter:
        self.header = header
        if self.reopen and self.wanted is not None:
            return LogWriter.reopen(self.wanted)
        if self.wanted is not None:
            self.path = self.wanted
            return self._made(LogWriter(self.wanted))
        path = default_log_path(header.game, header.game_id)
        if self.suffix:
            path = path.with_name(f"{path.stem}-{self.suffix}{path.suffix}")
        for _attempt in range(5):
            path = unique_log_path(path)
            try:
                writer = LogWriter(path)
            except FileExistsError:  # another process took the name just now
                continue
            self.path = path
            return self._made(writer)
        raise ConfigError(_("cannot create a log file next to {path}").format(path=path))


#: Exit status of host, join and resume when the game was adjourned (to be resumed later).
ADJOURNED = 3
#: Exit status when this end's person left the game (Ctrl-C, or leave at the table).
LEFT = 130


def _ended(outcome: NetOutcome, log: SeatLog, resumable: bool) -> GameEnded:
    """How the game ended, as the network layer said (else from the outcome); resumable only where
    this seat's seed file is kept beside its log."""
    told = log.ended or GameEnded.of(outcome.session, outcome.error, outcome.adjourned, resumable=True)
    kept = resumable and log.path is not None and seed_path(log.path).exists()
    return replace(told, resumable=told.resumable and kept)


def finish_game(
    outcome: NetOutcome,
    log: SeatLog,
    as_json: bool,
    ui: UI,
    human: TerminalAgent | None,
    *,
    resumable: bool = True,
    you: int | None = -1,
    extra: dict[str, object] | None = None,
) -> None:
    """Say how the game ended (or print the ``--json`` object, with ``extra``'s keys) and exit."""
    session = outcome.session
    if human is not None:
        human.show_end(session)
        human.close()
    ui.status.wait(None)
    ended = _ended(outcome, log, resumable)
    if as_json:
        kinds = [s.kind for s in session.header.seats]
        obj = result_object(session, kinds, log.path, outcome.error, adjourned=outcome.adjourned)
        obj.update(extra or {})
        click.echo(json.dumps(obj))
    if not as_json or ended.how not in ("finished", "aborted"):  # with --json, on stderr: how to go on
        seat = (session.seat if human is not None else None) if you == -1 else you
        print_ending(ui, ending(ended, session, log.path, you=seat, ascii=ui.ascii))
    if outcome.adjourned:
        sys.exit(ADJOURNED)
    if ended.how == "left":
        sys.exit(LEFT)
    ok = session.finished and session.aborted is None and outcome.error is None
    sys.exit(0 if ok else 1)


#: What to do about the errors a person meets when joining or hosting (matched in order).
_HINTS = (
    (
        "wrong or already used",
        N_(
            "Ask the host for the short code its screen shows now: each is for one player, once, and a "
            "wrong try uses it up. The long code (fd1:...) works too."
        ),
    ),
    ("needs a mailbox", N_("Join with the long code (fd1:...), or name the host's mailbox: --mailbox URL.")),
    ("word of short codes", N_("Read the code again from the host's screen: a number and two words.")),
    ("a short code is", N_("Read the code again from the host's screen: a number and two words.")),
    (
        "mailbox",
        N_(
            "The mailbox of short codes could not be used: ask the host for the long code (fd1:...), "
            "which needs no mailbox, or try again."
        ),
    ),
    ("the game has not started yet", N_("Run  fairdeal watch CODE  again once the players have begun.")),
    (
        "does not allow watchers",
        N_("The host chose to let nobody watch (fairdeal host --watchers 0); ask it to let you watch."),
    ),
    (
        "host identity does not match the invite",
        N_(
            "The computer at that address is not the host who made the code. Ask your host for a fresh "
            "code and compare fingerprints (the host's `fairdeal id`)."
        ),
    ),
    (
        "host's own identity",
        N_(
            "You joined with the same identity as the host (one profile on one machine). Give this "
            "terminal its own identity: fairdeal --profile NAME join ... (any name; it is kept)."
        ),
    ),
    (
        "another version of fairdeal",
        N_("Run the same fairdeal version as the host (fairdeal --version), then ask for a new code."),
    ),
    (
        "not the host answered on its doors",
        N_(
            "Someone else who has the code (or the relay) answers on the relay in the host's place; it "
            "cannot pretend to be the host. Check that the host still waits in `fairdeal host`, or ask it "
            "for a fresh code, given only to the players."
        ),
    ),
    (
        "no host is waiting",
        N_(
            "Check that the host still waits in `fairdeal host` and that you have the newest code it "
            "printed; if its table is full, the game has started without you."
        ),
    ),
    (
        "the table is full",
        N_("Every seat is taken: ask the host to host another game (or one for more players)."),
    ),
    (
        "relay",
        N_(
            "The relay could not be used: try again, or ask the host for a code with another relay "
            "(fairdeal host --relay tcp:HOST:PORT) or with an address you can reach (--advertise)."
        ),
    ),
    (
        "closed during the handshake",
        N_("The host closed the connection before it was set up: check that it still waits for players."),
    ),
    (
        "is not a fairdeal host",
        N_(
            "Another program listens at that address and port: check the code with your host (the port "
            "is the one `fairdeal host` printed)."
        ),
    ),
    (
        "handshake did not finish",
        N_(
            "Nothing at that address answered as a fairdeal host: check the address and port with your "
            "host, and that its `fairdeal host` is still waiting."
        ),
    ),
    (
        "connection refused",
        N_(
            "Nobody is listening there: check that the host is still waiting in `fairdeal host` and that "
            "you have the newest code it printed."
        ),
    ),
    (
        "could not connect",
        N_(
            "Check the address and port, and that no firewall blocks the host's port (behind a router the "
            "host may need --advertise with an address you can reach)."
        ),
    ),
    ("did not send", N_("The host is not answering: check that it is still running, then join again.")),
    ("closed the connection", N_("The host went away before the game began: ask it to host again.")),
    ("lost the connection", N_("The connection dropped: ask the host to host again.")),
    ("refused", N_("Ask the host for the code of the game it is hosting now.")),
    ("invite code", N_("Copy the whole code again from the host: it starts with fd1:.")),
    ("cannot listen", N_("Choose another --port (or 0 for any free one), or another --bind address.")),
)


#: What a watcher does about a refusal whose hint is a joiner's (matched before :data:`_HINTS`).
_WATCHING_HINTS = (
    (
        "host's own identity",
        N_(
            "You watch with the same identity as the host (one profile on one machine). Give this "
            "terminal its own identity: fairdeal --profile NAME watch ... (any name; it is kept)."
        ),
    ),
)


#: Nothing answered at the host's own address, and the relay failed too: the likeliest cause is a
#: host that is not running (an old code), which comes before what the relay did.
_NOT_RUNNING = N_(
    "Nothing answers at the host's address: check that the host still runs `fairdeal host` and that "
    "you have the newest code it printed (the relay could not be used either)."
)


def hint_for(text: str, *, watching: bool = False) -> str | None:
    """What to do about the error ``text`` (a watcher's own hints first), if anything is known."""
    low = text.lower()
    if "could not reach the host" in low and "connection refused" in low:
        return _(_NOT_RUNNING)
    hints = (*_WATCHING_HINTS, *_HINTS) if watching else _HINTS
    return next((_(hint) for needle, hint in hints if needle in low), None)


def with_hint(exc: FairdealError, *, watching: bool = False) -> FairdealError:
    """``exc`` with what to do about it (its ``hint``), in this end's words (a watcher's own)."""
    text = str(exc)
    if watching and refusal_words(text, watching=True) != text:
        exc = NetError(refusal_words(text, watching=True))
    hint = hint_for(text, watching=watching)
    if hint is not None:
        exc.hint = hint  # type: ignore[attr-defined]
    return exc


async def _leavable(
    fn: Callable[..., Awaitable[NetOutcome]], args: tuple[object, ...], report: LineReport | None, say: Say
) -> NetOutcome:
    """``fn(*args)``, where Ctrl-C leaves through the leave the network layer offers (the others
    are told); before it offers one, or pressed again, Ctrl-C stops at once (KeyboardInterrupt)."""
    stopped = False
    outcome: NetOutcome | None = None
    async with trio.open_nursery() as nursery:
        with trio.open_signal_receiver(signal.SIGINT) as presses:

            async def ctrl_c() -> None:
                nonlocal stopped
                async for _press in presses:
                    leave = report.leave if report is not None else None
                    if leave is None or report is None or report.leaving:
                        stopped = True
                        nursery.cancel_scope.cancel()
                        return
                    report.leaving = True
                    say(_("Leaving the game: telling the others (Ctrl-C again stops at once)..."))
                    leave()

            nursery.start_soon(ctrl_c)
            outcome = await fn(*args)
            nursery.cancel_scope.cancel()
    if stopped or outcome is None:
        raise KeyboardInterrupt
    return outcome


def run_seat(
    say: Say,
    fn: Callable[..., Awaitable[NetOutcome]],
    plan: object = None,
    report: LineReport | None = None,
    *,
    log: SeatLog | None = None,
) -> NetOutcome:
    """``trio.run(fn, plan, report)`` (``fn()`` with no plan); Ctrl-C leaves the game through the
    network layer (:attr:`LineReport.leave`: the others are told, and how it ended is said as for
    any end, exit status 130); before the game offers it, or pressed again, Ctrl-C stops at once
    (exit status 130), the log kept as it is (and its path printed).

    Ctrl-C never lands inside a link's reader or writer, which would die before saying ``bye``
    (a guest would then try to reach a host that left on purpose)."""
    args = () if plan is None else (plan, report)
    watching = isinstance(plan, WatchPlan)
    try:
        return trio.run(_leavable, fn, args, report, say, restrict_keyboard_interrupt_to_checkpoints=True)
    except KeyboardInterrupt:
        pass
    except BaseExceptionGroup as group:  # trio's nurseries wrap what their tasks raise
        if group.subgroup(KeyboardInterrupt) is None:
            ours: FairdealError | BaseExceptionGroup[FairdealError] | None = group.subgroup(FairdealError)
            while isinstance(ours, BaseExceptionGroup):
                ours = ours.exceptions[0]
            if ours is not None:
                raise with_hint(ours, watching=watching) from None  # one line (friendly_errors)
            raise
    except FairdealError as exc:
        raise with_hint(exc, watching=watching) from None
    finally:
        if log is not None and report is not None:
            log.ended = report.ended
    _interrupted(say, log)


def _interrupted(say: Say, log: SeatLog | None) -> NoReturn:
    watching = log is not None and not log.locking  # a watcher's log: no seat to lock
    said = _("You stopped watching.") if watching else _("Interrupted: you left the game.")
    if log is not None and log.path is not None:
        said += " " + _("Its log so far: {path}").format(path=log.path)
    say(said)
    sys.exit(LEFT)


# -- the full-screen table ---------------------------------------------------------------------------
def end_box(
    refused: str | None,
    ended: GameEnded | None,
    session: Session | None,
    log: Path | None,
    watching: bool,
    kept: bool,
    ascii: bool = False,
) -> Ending | None:
    """The table's end box: the host's refusal with what to do, or how the game ended (``kept``:
    this seat's seed file is beside its log); None to leave at once (an error the terminal says)."""
    if refused is not None and (session is None or ended is None):  # refused before the game
        reason = refusal_words(refused, watching=watching)
        return refusal_ending(reason, hint_for(reason, watching=watching))
    if session is None or (ended is None and not session.finished):
        return None
    told = None if ended is None else replace(ended, resumable=ended.resumable and kept)
    return ending(told, session, log, you=session.seat, ascii=ascii, compact=True)


def table_player(wanted: bool, *, watching: bool = False) -> Any:
    """A :class:`~fairdeal.cli.tui.player.TablePlayer` when the table is wanted (imported only then)."""
    if not wanted:
        return None
    from .tui.player import TablePlayer

    return TablePlayer(watching=watching)


def run_table(
    say: Say,
    title: str,
    rules: str,
    ascii: bool,
    player: Any,
    invite_file: Path | None,
    log: SeatLog,
    fn: Callable[..., Awaitable[NetOutcome]],
    plan: Any,
    source: str = N_("the invite"),
) -> NetOutcome:
    """Run ``fn(plan, report)`` as the guest of the full-screen table; like :func:`run_seat` after it."""
    from .tui.app import TableApp
    from .tui.netshow import NetShow
    from .tui.netview import TableReport

    report = TableReport(player)
    net = NetShow(invite_file, write_atomically, source)
    app = TableApp(title, player, lambda: fn(plan, report), ascii=ascii, rules_text=rules, net=net)
    report.app = app
    watching = isinstance(plan, WatchPlan)

    def finish() -> Ending | None:
        kept = log.path is not None and seed_path(log.path).exists()
        return end_box(net.refused, net.ended, player.session, log.path, watching, kept, ascii)

    app.finish = finish
    app.run()
    log.ended = net.ended
    if app.interrupted or app.outcome is None:
        _interrupted(say, log)
    try:
        return cast("NetOutcome", app.outcome.unwrap())
    except BaseExceptionGroup as group:
        ours: FairdealError | BaseExceptionGroup[FairdealError] | None = group.subgroup(FairdealError)
        while isinstance(ours, BaseExceptionGroup):
            ours = ours.exceptions[0]
        if ours is not None:
            raise with_hint(ours, watching=watching) from None
        raise
    except FairdealError as exc:
        raise with_hint(exc, watching=watching) from None


# -- the seat: who plays it, and the terminal ------------------------------------------------------
def make_ui(ascii: bool, as_json: bool) -> UI:
    """The terminal UI; with --json, stdout carries only the result and the rest goes to stderr."""
    return UI(ascii=ascii, file=sys.stderr if as_json else None)


def seat_agent(
    kind: SeatKind,
    seat: int,
    name: str | None,
    game: str,
    reg: object,
    master: Rng | None,
    ui: UI,
    table: Any = None,
) -> tuple[Agent, TerminalAgent | None, str]:
    """The agent of this process's seat, the terminal agent if human (in line mode), and the seat's name."""
    if kind.human and table is not None:
        return table, None, _clean_name(table_name(name))
    if kind.human:
        human = TerminalAgent(ui)
        return human, human, _clean_name(table_name(name))
    agent = bot_agent(kind, game, reg, master.fork(f"bot-{seat}") if master else None)  # type: ignore[arg-type]
    return agent, None, _clean_name(name or f"Bot {seat} ({kind.bot})")


def _clean_name(name: str) -> str:
    text = wire.clean_text(name, 40).strip()
    if not wire.valid_name(text):
        raise ConfigError(_("{name} cannot be a name at the table").format(name=repr(name)))
    return text
