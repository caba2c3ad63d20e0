"""What ``host``, ``join``, ``watch`` and ``resume`` share: the terminal's observer of a network
seat, its log, running a seat in line mode or at the full-screen table, and the end of a game."""

import atexit
import json
import os
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

import click
import trio

from fairdeal.core.errors import ConfigError, FairdealError
from fairdeal.core.rng import Rng
from fairdeal.core.session.header import Header
from fairdeal.core.session.session import Event, Session
from fairdeal.core.text import distinct_names
from fairdeal.net import wire
from fairdeal.net.driver import Agent
from fairdeal.net.invite import PUBLIC_RELAY, Endpoint, Invite, parse_endpoint
from fairdeal.net.lobby import Joiner
from fairdeal.net.netplay import NetObserver, NetOutcome
from fairdeal.seatlock import SeatLock, lock_seat
from fairdeal.seedfile import seed_path
from fairdeal.storage import LogWriter, default_log_path, unique_log_path

from .adjourning import Adjourning
from .console import UI, clock, describe_waiting
from .outcome import print_summary, result_object
from .render import option_text
from .seats import SeatKind, bot_agent, table_name
from .terminal import TerminalAgent

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
        raise ConfigError(f"{RELAY_ENV}={value!r} is not tcp:HOST:PORT or none") from None


# -- what the person sees (swap this class to restyle) ------------------------------------------------
def lobby_lines(lobby: wire.Lobby) -> list[str]:
    """The table as the lobby knows it, one line a seat."""
    lines = []
    names = iter(distinct_names(s.name for s in lobby.seats if s is not None))
    for i, s in enumerate(lobby.seats):
        who = "(free)" if s is None else f"{next(names)}  {s.fingerprint}  [{s.kind}]"
        lines.append(f"  seat {i}: {who}")
    return lines


def _waiting(lobby: wire.Lobby) -> str:
    n = lobby.missing
    return "Every seat is taken." if n == 0 else f"Waiting for {n} more player{'s' if n > 1 else ''}..."


class TerminalNetObserver(NetObserver):
    """Plain-text lobby and game messages; the human seat's table view goes through its TerminalAgent.

    ``source`` names where the joiner got the host's fingerprint ("the invite", "the announcement").
    """

    def __init__(
        self,
        ui: UI,
        human: TerminalAgent | None = None,
        invite_file: Path | None = None,
        source: str = "the invite",
    ) -> None:
        self.ui = ui
        self.say: Say = ui.say
        self.human = human
        self.invite_file = invite_file
        self.source = source
        self.watcher: Any = None  # a watcher's line mode (cli.watch.Spectator)
        self.adjourning = Adjourning()
        self._ticker: threading.Timer | None = None
        self._seat: int | None = None

    def listening(self, code: str, invite: Invite, bound: Sequence[str]) -> None:
        self.say(f"Listening on {', '.join(bound)}.")
        self.say("Invite code (give it to the other players; they type  fairdeal join CODE):")
        self.ui.say(f"  {code}", "bold", wrap=False)
        if self.invite_file is not None:
            _write_atomically(self.invite_file, code + "\n")
            self.ui.say(f"  (also written to {self.invite_file})", wrap=False)
        ways = [str(e) for e in invite.direct]
        if invite.relay is not None:
            ways.append(f"through relay {invite.relay}")
        self.say(f"It leads them to {' or '.join(ways)}, and proves this host is {invite.fingerprint}.")

    def relay_ready(self, relay: str) -> None:
        self.say(f"Players who cannot reach you directly come through relay {relay}.")

    def relay_trouble(self, relay: str, reason: str) -> None:
        self.say(
            f"The relay {relay} cannot be used for now ({reason}); only direct connections work "
            "until it answers again (retrying in the background)."
        )

    def link_flooded(self, seat: int, name: str, reason: str) -> None:
        self.say(f"Dropped {name}'s connection: {reason}.")

    def relay_door_taken(self, relay: str) -> None:
        self.say(
            f"A connection that is not yours was paired on a door of relay {relay}: someone else who "
            "has the code waits there as the host (or the relay dropped it). The door was opened again; "
            "players coming through the relay may need a few more seconds."
        )

    def announced(self, name: str) -> None:
        self.say("Announced on the local network: players nearby can type  fairdeal join  (no code).")

    def announce_failed(self, reason: str) -> None:
        self.say(f"Could not announce the game on the local network ({reason}); the code works all the same.")

    def joined(self, joiner: Joiner, lobby: wire.Lobby) -> None:
        self.say(
            f"{joiner.name} ({joiner.fingerprint}) took seat {joiner.seat} [{joiner.kind}], "
            f"from {joiner.address}."
        )
        self.say(_waiting(lobby))

    def left(self, joiner: Joiner, reason: str, lobby: wire.Lobby) -> None:
        self.say(f"{joiner.name} left seat {joiner.seat} before the start ({reason}).")
        self.say(_waiting(lobby))

    def rejected(self, address: str, reason: str) -> None:
        self.ui.say(f"Dropped a connection from {address}: {reason}.", wrap=False)  # one line, greppable

    def rejected_many(self, count: int, reasons: Mapping[str, int], seconds: float) -> None:
        why = ", ".join(f"{n} {reason}" for reason, n in reasons.items())
        self.ui.say(f"Dropped {count} more connections in the last {seconds:g} s ({why}).", wrap=False)

    def connected(self, invite: Invite, path: str, via: str) -> None:
        how = f"directly to {via}" if path == "direct" else f"through relay {via}"
        self.say(f"Connected {how}: the host is {invite.fingerprint}, as {self.source} says.")

    def welcomed(self, welcome: wire.Welcome, name: str, kind: str) -> None:
        opts = ", ".join(option_text(k, v) for k, v in sorted(welcome.options.items()))
        self.say(
            f"You are {name}, in seat {welcome.seat} of {welcome.players} at {welcome.game}"
            f"{f' ({opts})' if opts else ''}."
        )

    def lobby(self, lobby: wire.Lobby) -> None:
        self.say("Lobby:")
        for line in lobby_lines(lobby):
            self.say(line)
        self.say(_waiting(lobby))

    def starting(self, header: Header, seat: int) -> None:
        self.say("The game begins:")
        self._seats(header, seat)

    def _seats(self, header: Header, seat: int | None) -> None:
        self._seat = seat
        for i, (name, s) in enumerate(zip(header.names, header.seats, strict=True)):
            you = "  <- you" if i == seat else ""
            self.say(f"  seat {i}: {name}  {s.fingerprint}  [{s.kind}]{you}")

    def resumed(self, header: Header, seat: int | None, entries: int) -> None:
        if seat is None:
            self.say("Watching the game (every entry is checked as it comes):")
        else:
            self.say(f"The game goes on after {entries} entries:")
        self._seats(header, seat)

    def events(self, session: Session, events: Sequence[Event]) -> None:
        if self.human is not None:
            self.human.observe(session, events)
        elif self.watcher is not None:
            self.watcher.observe(session, events)
        else:  # a lent bot: show what the game waits for, when it waits long enough to matter
            self.ui.status.wait(None if session.finished else describe_waiting(session))

    # -- a game that survives ------------------------------------------------------------------------
    def away(self, seat: int, name: str, seconds: float) -> None:
        self.ui.status.absences.seats[seat] = (name, time.monotonic() + seconds)
        self.say(f"{name}'s connection dropped: waiting for {name} to come back ({clock(seconds)}).")
        self._tick()

    def back(self, seat: int, name: str) -> None:
        self.ui.status.absences.seats.pop(seat, None)
        self.say(f"{name} is back: the game goes on.")
        self.ui.status.refresh()

    def host_lost(self, reason: str, seconds: float) -> None:
        self.ui.status.absences.host = time.monotonic() + seconds
        self.ui.status.absences.seats.clear()
        what = reason[:1].upper() + reason[1:] if "host" in reason else f"Lost the host ({reason})"
        self.say(f"{what}: trying to reach it again ({clock(seconds)}).")
        self._tick()

    def host_back(self, path: str, via: str, entries: int) -> None:
        if self.ui.status.absences.host is None:
            return  # the first connection of a resumed seat: "connected" says it
        self.ui.status.absences.host = None
        how = f"directly ({via})" if path == "direct" else f"through relay {via}"
        self.say(f"Reached the host again {how}: the game goes on.")
        self.ui.status.refresh()

    def host_left(self) -> None:
        self.ui.status.absences.seats.clear()
        self.say("The host left the game: it stops here (this seat can go on if the host resumes it).")

    def watcher_joined(self, watchers: int) -> None:
        self.say(f"A watcher joined ({watchers} watching now).")

    def adjourn_ready(self, vote: Callable[[bool], bool]) -> None:
        self.adjourning.ready(vote, self._seat)
        if self.human is not None:
            self.human.adjourning = self.adjourning

    def adjourn_vote(self, seat: int, name: str, agree: bool, missing: Sequence[str]) -> None:
        text = self.adjourning.heard(seat, name, agree, missing)
        if self.adjourning.asking and self.human is not None:
            text += " Type adjourn to agree, or no to play on (at your next move)."
        self.say(text)

    def adjourned(self, entries: int) -> None:
        self.ui.status.absences.seats.clear()
        self.ui.status.absences.host = None
        self.say(f"Every player agreed: the game is adjourned after {entries} entries.")

    def _tick(self) -> None:
        """Keep the countdown of the waiting line going while someone is away."""
        if self._ticker is not None or not self.ui.status.enabled:
            return

        def tick() -> None:
            self._ticker = None
            if not self.ui.status.absences:
                return
            self.ui.status.refresh()
            self._tick()

        self._ticker = threading.Timer(1.0 if self.ui.status.live else 30.0, tick)
        self._ticker.daemon = True
        self._ticker.start()


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


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
            raise ConfigError(f"the log file {path} exists already; choose another --log")
        self.wanted = path
        self.reopen = reopen
        self.suffix = suffix
        self.path: Path | None = path if reopen else None
        self.header: Header | None = None
        self.locking = lock
        self.lock: SeatLock | None = None

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
            say(
                f"The fairdeal process that played this seat before (pid {self.lock.took_over}) ended "
                "without letting go of it: this process takes the seat over."
            )

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
        for _ in range(5):
            path = unique_log_path(path)
            try:
                writer = LogWriter(path)
            except FileExistsError:  # another process took the name just now
                continue
            self.path = path
            return self._made(writer)
        raise ConfigError(f"cannot create a log file next to {path}")


#: Exit status of host, join and resume when the game was adjourned (to be resumed later).
ADJOURNED = 3


def finish_game(
    outcome: NetOutcome,
    log: SeatLog,
    as_json: bool,
    ui: UI,
    human: TerminalAgent | None,
    *,
    resumable: bool = True,
    you: int | None = -1,
) -> None:
    session = outcome.session
    if human is not None:
        human.show_end(session)
        human.close()
    ui.status.wait(None)
    kept = log.path is not None and seed_path(log.path).exists()  # this seat can go on later
    again = resume_hint(log.path) if resumable and kept and log.path is not None else ""
    if as_json:
        kinds = [s.kind for s in session.header.seats]
        obj = result_object(session, kinds, log.path, outcome.error, adjourned=outcome.adjourned)
        click.echo(json.dumps(obj))
    elif outcome.error and session.aborted is None and not outcome.adjourned:
        ui.say(f"The game ended early: {outcome.error}.", "bold")
        ui.say("The log below keeps every entry accepted up to there.")
    if outcome.adjourned:
        ui.say(
            f"The game is adjourned after {session.seq} entries: nothing is lost. To go on, every "
            "player runs  fairdeal resume  (the others may also join with the same code):",
            "bold",
        )
    elif again:
        ui.say("This seat's secrets are kept beside the log. To go on with the game later:", "bold")
    if again:
        ui.say(f"  {again}", wrap=False)
    if not as_json:
        seat = (session.seat if human is not None else None) if you == -1 else you
        print_summary(ui, session, log.path, you=seat)
    if outcome.adjourned:
        sys.exit(ADJOURNED)
    ok = session.finished and session.aborted is None and outcome.error is None
    sys.exit(0 if ok else 1)


def resume_hint(log: Path) -> str:
    """The command that goes on with the game of ``log``."""
    import shlex

    from .outcome import fairdeal_command

    return f"{fairdeal_command()} resume {shlex.quote(str(log))}"


#: What to do about the errors a person meets when joining or hosting (matched in order).
_HINTS = (
    ("the game has not started yet", "Run  fairdeal watch CODE  again once the players have begun."),
    (
        "does not allow watchers",
        "The host chose to let nobody watch (fairdeal host --watchers 0); ask it to let you watch.",
    ),
    (
        "host identity does not match the invite",
        "The computer at that address is not the host who made the code. Ask your host for a fresh "
        "code and compare fingerprints (the host's `fairdeal id`).",
    ),
    (
        "host's own identity",
        "You joined with the same identity as the host (one profile on one machine). Give this "
        "terminal its own identity: fairdeal --profile NAME join ... (any name; it is kept).",
    ),
    (
        "another version of fairdeal",
        "Run the same fairdeal version as the host (fairdeal --version), then ask for a new code.",
    ),
    (
        "not the host answered on its doors",
        "Someone else who has the code (or the relay) answers on the relay in the host's place; it cannot "
        "pretend to be the host. Check that the host still waits in `fairdeal host`, or ask it for a fresh "
        "code, given only to the players.",
    ),
    (
        "no host is waiting",
        "Check that the host still waits in `fairdeal host` and that you have the newest code it printed; "
        "if its table is full, the game has started without you.",
    ),
    (
        "the table is full",
        "Every seat is taken: ask the host to host another game (or one for more players).",
    ),
    (
        "relay",
        "The relay could not be used: try again, or ask the host for a code with another relay "
        "(fairdeal host --relay tcp:HOST:PORT) or with an address you can reach (--advertise).",
    ),
    (
        "closed during the handshake",
        "The host closed the connection before it was set up: check that it still waits for players.",
    ),
    (
        "is not a fairdeal host",
        "Another program listens at that address and port: check the code with your host (the port "
        "is the one `fairdeal host` printed).",
    ),
    (
        "handshake did not finish",
        "Nothing at that address answered as a fairdeal host: check the address and port with your "
        "host, and that its `fairdeal host` is still waiting.",
    ),
    (
        "connection refused",
        "Nobody is listening there: check that the host is still waiting in `fairdeal host` and that "
        "you have the newest code it printed.",
    ),
    (
        "could not connect",
        "Check the address and port, and that no firewall blocks the host's port (behind a router the "
        "host may need --advertise with an address you can reach).",
    ),
    ("did not send", "The host is not answering: check that it is still running, then join again."),
    ("closed the connection", "The host went away before the game began: ask it to host again."),
    ("lost the connection", "The connection dropped: ask the host to host again."),
    ("refused", "Ask the host for the code of the game it is hosting now."),
    ("invite code", "Copy the whole code again from the host: it starts with fd1:."),
    ("cannot listen", "Choose another --port (or 0 for any free one), or another --bind address."),
)


def with_hint(exc: FairdealError) -> FairdealError:
    text = str(exc).lower()
    for needle, hint in _HINTS:
        if needle in text:
            exc.hint = hint  # type: ignore[attr-defined]
            break
    return exc


def run_seat(
    say: Say, fn: Callable[..., Awaitable[NetOutcome]], *args: object, log: SeatLog | None = None
) -> NetOutcome:
    """``trio.run(fn, *args)``; Ctrl-C leaves the game (exit status 130), the log kept as it is
    (and its path printed)."""
    try:
        return trio.run(fn, *args)
    except KeyboardInterrupt:
        pass
    except BaseExceptionGroup as group:  # trio's nurseries wrap what their tasks raise
        if group.subgroup(KeyboardInterrupt) is None:
            ours: FairdealError | BaseExceptionGroup[FairdealError] | None = group.subgroup(FairdealError)
            while isinstance(ours, BaseExceptionGroup):
                ours = ours.exceptions[0]
            if ours is not None:
                raise with_hint(ours) from None  # one line on stderr (friendly_errors), no traceback
            raise
    except FairdealError as exc:
        raise with_hint(exc) from None
    _interrupted(say, log)


def _interrupted(say: Say, log: SeatLog | None) -> NoReturn:
    where = f" Its log so far: {log.path}" if log is not None and log.path is not None else ""
    say(f"Interrupted: you left the game.{where}")
    sys.exit(130)


# -- the full-screen table ---------------------------------------------------------------------------
def table_player(wanted: bool) -> Any:
    """A :class:`~fairdeal.cli.tui.player.TablePlayer` when the table is wanted (imported only then)."""
    if not wanted:
        return None
    from .tui.player import TablePlayer

    return TablePlayer()


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
    source: str = "the invite",
) -> NetOutcome:
    """Run ``fn(plan, observer)`` as the guest of the full-screen table; like :func:`run_seat` after it."""
    from .tui.app import TableApp
    from .tui.netview import TableNetObserver

    observer = TableNetObserver(player, invite_file, _write_atomically, source)
    app = TableApp(title, player, lambda: fn(plan, observer), ascii=ascii, rules_text=rules)
    observer.app = app

    def finish() -> list[tuple[str, str]]:
        from .outcome import summary

        session = player.session
        return summary(session, log.path, ascii=ascii) if session is not None else []

    app.finish = finish
    app.run()
    if app.interrupted or app.outcome is None:
        _interrupted(say, log)
    try:
        return app.outcome.unwrap()
    except BaseExceptionGroup as group:
        ours: FairdealError | BaseExceptionGroup[FairdealError] | None = group.subgroup(FairdealError)
        while isinstance(ours, BaseExceptionGroup):
            ours = ours.exceptions[0]
        if ours is not None:
            raise with_hint(ours) from None
        raise
    except FairdealError as exc:
        raise with_hint(exc) from None


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
        raise ConfigError(f"{name!r} cannot be a name at the table")
    return text
