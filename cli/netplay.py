"""``fairdeal host`` and ``fairdeal join``: play over the network, one seat per process."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import click
import trio

from fairdeal.core.errors import ConfigError, FairdealError
from fairdeal.core.identity import Identity
from fairdeal.core.options import parse_assignments
from fairdeal.core.rng import Rng, SeededRng
from fairdeal.core.session.header import Header
from fairdeal.core.session.session import Event, Session
from fairdeal.net import wire
from fairdeal.net.driver import Agent, Timeouts
from fairdeal.net.invite import Invite, decode_invite
from fairdeal.net.lobby import Joiner
from fairdeal.net.netplay import HostPlan, JoinPlan, NetObserver, NetOutcome, Prepared, host_game, join_game
from fairdeal.storage import LogWriter, default_log_path, load_identity, unique_log_path

from .console import UI, describe_waiting, wants_table
from .flags import ascii_option, json_option, log_option, name_option, plain_option, rule_options
from .main import cli, friendly_errors, load_registry
from .outcome import print_summary, result_object
from .render import option_text
from .seats import SeatKind, bot_agent, default_name, parse_seat
from .terminal import TerminalAgent

Say = Callable[[str], None]


# -- what the person sees (swap this class to restyle) ------------------------------------------------
def lobby_lines(lobby: wire.Lobby) -> list[str]:
    """The table as the lobby knows it, one line a seat."""
    lines = []
    for i, s in enumerate(lobby.seats):
        who = "(free)" if s is None else f"{s.name}  {s.fingerprint}  [{s.kind}]"
        lines.append(f"  seat {i}: {who}")
    return lines


def _waiting(lobby: wire.Lobby) -> str:
    n = lobby.missing
    return "Every seat is taken." if n == 0 else f"Waiting for {n} more player{'s' if n > 1 else ''}..."


class TerminalNetObserver(NetObserver):
    """Plain-text lobby and game messages; the human seat's table view goes through its TerminalAgent."""

    def __init__(self, ui: UI, human: TerminalAgent | None = None, invite_file: Path | None = None) -> None:
        self.ui = ui
        self.say: Say = ui.say
        self.human = human
        self.invite_file = invite_file

    def listening(self, code: str, invite: Invite, bound: Sequence[str]) -> None:
        self.say(f"Listening on {', '.join(bound)}.")
        self.say("Invite code (give it to the other players; they type  fairdeal join CODE):")
        self.ui.say(f"  {code}", "bold", wrap=False)
        if self.invite_file is not None:
            _write_atomically(self.invite_file, code + "\n")
            self.ui.say(f"  (also written to {self.invite_file})", wrap=False)
        self.say(f"It sends them to {invite.address} and proves this host is {invite.fingerprint}.")

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

    def connected(self, invite: Invite) -> None:
        self.say(f"Connected: the host is {invite.fingerprint}, as the invite says.")

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
        for i, s in enumerate(header.seats):
            you = "  <- you" if i == seat else ""
            self.say(f"  seat {i}: {s.name}  {s.fingerprint}  [{s.kind}]{you}")

    def events(self, session: Session, events: Sequence[Event]) -> None:
        if self.human is not None:
            self.human.observe(session, events)
        else:  # a lent bot: show what the game waits for, when it waits long enough to matter
            self.ui.status.wait(None if session.finished else describe_waiting(session))


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


# -- shared pieces ------------------------------------------------------------------------------------
class _Log:
    """Opens the game's log when the header is known (``--log`` or the default path)."""

    def __init__(self, path: Path | None) -> None:
        if path is not None and path.exists():
            raise ConfigError(f"the log file {path} exists already; choose another --log")
        self.wanted = path
        self.path: Path | None = None

    def open(self, header: Header) -> LogWriter:
        if self.wanted is not None:
            self.path = self.wanted
            return LogWriter(self.wanted)
        path = default_log_path(header.game, header.game_id)
        for _ in range(5):
            path = unique_log_path(path)
            try:
                writer = LogWriter(path)
            except FileExistsError:  # another process took the name just now
                continue
            self.path = path
            return writer
        raise ConfigError(f"cannot create a log file next to {path}")


def _finish(outcome: NetOutcome, log: _Log, as_json: bool, ui: UI, human: TerminalAgent | None) -> None:
    session = outcome.session
    if human is not None:
        human.show_end(session)
        human.close()
    ui.status.wait(None)
    if as_json:
        kinds = [s.kind for s in session.header.seats]
        click.echo(json.dumps(result_object(session, kinds, log.path)))
    else:
        if outcome.error and session.aborted is None:
            ui.say(f"The game ended early: {outcome.error}.", "bold")
            ui.say("It cannot go on without that player; the log below keeps every move made so far.")
        print_summary(ui, session, log.path, you=session.seat if human is not None else None)
    ok = session.finished and session.aborted is None and outcome.error is None
    sys.exit(0 if ok else 1)


#: What to do about the errors a person meets when joining or hosting (matched in order).
_HINTS = (
    (
        "host identity does not match the invite",
        "The computer at that address is not the host who made the code. Ask your host for a fresh "
        "code and compare fingerprints (the host's `fairdeal id`).",
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


def _with_hint(exc: FairdealError) -> FairdealError:
    text = str(exc).lower()
    for needle, hint in _HINTS:
        if needle in text:
            exc.hint = hint  # type: ignore[attr-defined]
            break
    return exc


def _run(
    say: Say, fn: Callable[..., Awaitable[NetOutcome]], *args: object, log: _Log | None = None
) -> NetOutcome:
    """``trio.run(fn, *args)``; Ctrl-C leaves the game (exit status 130), the log kept as it is
    (and its path printed)."""
    try:
        return trio.run(fn, *args)
    except KeyboardInterrupt:
        pass
    except BaseExceptionGroup as group:  # trio's nurseries wrap what their tasks raise
        if group.subgroup(KeyboardInterrupt) is None:
            ours = group.subgroup(FairdealError)
            while isinstance(ours, BaseExceptionGroup):
                ours = ours.exceptions[0]
            if ours is not None:
                raise _with_hint(ours) from None  # one line on stderr (friendly_errors), no traceback
            raise
    except FairdealError as exc:
        raise _with_hint(exc) from None
    _interrupted(say, log)


def _interrupted(say: Say, log: _Log | None) -> None:
    where = f" Its log so far: {log.path}" if log is not None and log.path is not None else ""
    say(f"Interrupted: you left the game.{where}")
    sys.exit(130)


def _positive(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    if value is not None and not value > 0:
        raise click.BadParameter("must be a positive number of seconds")
    return value


# -- the full-screen table ---------------------------------------------------------------------------
def _table_player(wanted: bool) -> Any:
    """A :class:`~fairdeal.cli.tui.player.TablePlayer` when the table is wanted (imported only then)."""
    if not wanted:
        return None
    from .tui.player import TablePlayer

    return TablePlayer()


def _run_table(
    say: Say,
    title: str,
    rules: str,
    ascii: bool,
    player: Any,
    invite_file: Path | None,
    log: _Log,
    fn: Callable[..., Awaitable[NetOutcome]],
    plan: Any,
) -> NetOutcome:
    """Run ``fn(plan, observer)`` as the guest of the full-screen table; like :func:`_run` after it."""
    from .tui.app import TableApp
    from .tui.netview import TableNetObserver

    observer = TableNetObserver(player, invite_file, _write_atomically)
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
        return app.outcome.unwrap()  # type: ignore[no-any-return]
    except BaseExceptionGroup as group:
        ours = group.subgroup(FairdealError)
        while isinstance(ours, BaseExceptionGroup):
            ours = ours.exceptions[0]
        if ours is not None:
            raise _with_hint(ours) from None
        raise
    except FairdealError as exc:
        raise _with_hint(exc) from None


# -- host -------------------------------------------------------------------------------------------
@cli.command()
@click.argument("game")
@click.option(
    "--players",
    type=click.IntRange(2, 10),
    default=None,
    help="Seats at the table, yours included (default: the game's minimum).",
)
@click.option(
    "--seat",
    "seat",
    default="human",
    show_default=True,
    metavar="KIND",
    help="Who plays your seat: human, bot or bot:NAME.",
)
@name_option
@rule_options
@click.option(
    "--bind",
    default="0.0.0.0",
    show_default=True,
    metavar="ADDRESS",
    help="The address to listen on (all IPv4 interfaces by default; :: for IPv6).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help="The TCP port to listen on; 0 picks a free one (the invite code carries it).",
)
@click.option(
    "--advertise",
    default=None,
    metavar="ADDRESS",
    help="The address to put in the invite code (e.g. your public address behind a router).",
)
@click.option(
    "--invite-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the invite code to this file.",
)
@log_option
@click.option(
    "--timeout",
    type=float,
    default=30.0,
    show_default=True,
    callback=_positive,
    help="Seconds a player has for an automatic step (keys, shuffles, shares, reveals).",
)
@click.option(
    "--move-timeout",
    type=float,
    default=None,
    callback=_positive,
    help="Seconds a player has to choose a move (default: no limit).",
)
@json_option
@ascii_option
@plain_option
@click.option("--seed", type=int, default=None, hidden=True, help="Fix this seat's randomness (tests).")
@friendly_errors
def host(
    game: str,
    players: int | None,
    seat: str,
    name: str | None,
    options: Sequence[str],
    bind: str,
    port: int,
    advertise: str | None,
    invite_file: Path | None,
    log_path: Path | None,
    timeout: float,
    move_timeout: float | None,
    as_json: bool,
    ascii: bool,
    plain: bool,
    seed: int | None,
) -> None:
    """Host GAME over the network: print an invite code, wait for the players, play.

    You take seat 0; joiners take the next seats as they arrive. The game starts when
    every seat is filled. Every player writes the same log.

    Exit status: 0 the game was played to its end; 1 it was aborted or cut short;
    2 it could not start.

    \b
    Examples:
      fairdeal host ecarte
      fairdeal host snatch --players 4 --port 7700
      fairdeal host spite-malice --seat bot --invite-file code.txt
    """
    reg = load_registry()
    entry = reg.entry(game)
    g = entry.game
    n = players if players is not None else max(2, g.min_players)
    kind = parse_seat(seat, game, reg)
    config = g.config(n, dict(parse_assignments(options)))
    if advertise is not None and not _valid_host(advertise):
        raise ConfigError(f"--advertise {advertise!r} is not an address or host name")
    master: Rng | None = SeededRng(seed) if seed is not None else None
    identity = load_identity()[0]
    ui = _ui(ascii, as_json)
    table = _table_player(kind.human and wants_table(plain, as_json))
    agent, human, seat_name = _seat_agent(kind, 0, name, game, reg, master, ui, table)
    say = ui.say
    log = _Log(log_path)
    plan = HostPlan(
        game=g,
        plugin=entry.plugin,
        distribution=entry.distribution,
        version=entry.version,
        options=dict(config.options),
        players=n,
        identity=identity,
        name=seat_name,
        kind=kind.label,
        agent=agent,
        bind=bind,
        port=port,
        advertise=advertise,
        timeouts=Timeouts(
            obligation=timeout, move=move_timeout if move_timeout is not None else float("inf")
        ),
        rng=master,
        open_log=log.open,
    )
    say(f"Hosting {g.title} for {n} players as {seat_name} ({identity.fingerprint}).")
    if table is not None:
        outcome = _run_table(say, g.title, g.rules_text(), ascii, table, invite_file, log, host_game, plan)
    else:
        observer = TerminalNetObserver(ui, human, invite_file)
        outcome = _run(say, host_game, plan, observer, log=log)
    _finish(outcome, log, as_json, ui, human)


def _valid_host(text: str) -> bool:
    from fairdeal.net.invite import valid_host

    return valid_host(text)


def _ui(ascii: bool, as_json: bool) -> UI:
    """The terminal UI; with --json, stdout carries only the result and the rest goes to stderr."""
    return UI(ascii=ascii, file=sys.stderr if as_json else None)


def _seat_agent(
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
        return table, None, _clean_name(name or default_name())
    if kind.human:
        human = TerminalAgent(ui)
        return human, human, _clean_name(name or default_name())
    agent = bot_agent(kind, game, reg, master.fork(f"bot-{seat}") if master else None)  # type: ignore[arg-type]
    return agent, None, _clean_name(name or f"Bot {seat} ({kind.bot})")


def _clean_name(name: str) -> str:
    text = wire.clean_text(name, 40).strip()
    if not wire.valid_name(text):
        raise ConfigError(f"{name!r} cannot be a name at the table")
    return text


# -- join -------------------------------------------------------------------------------------------
@cli.command()
@click.argument("code")
@click.option(
    "--seat",
    "seat",
    default="human",
    show_default=True,
    metavar="KIND",
    help="Who plays your seat: human, bot or bot:NAME (a bot plays with a fresh identity).",
)
@name_option
@log_option
@click.option(
    "--connect-timeout",
    type=float,
    default=15.0,
    show_default=True,
    callback=_positive,
    help="Seconds to wait for the host to answer.",
)
@json_option
@ascii_option
@plain_option
@click.option("--seed", type=int, default=None, hidden=True, help="Fix this seat's randomness (tests).")
@friendly_errors
def join(
    code: str,
    seat: str,
    name: str | None,
    log_path: Path | None,
    connect_timeout: float,
    as_json: bool,
    ascii: bool,
    plain: bool,
    seed: int | None,
) -> None:
    """Join a game from the invite CODE the host gave you, and play.

    The connection is refused unless the host proves the identity the code names
    ("host identity does not match the invite").

    Exit status: 0 the game was played to its end; 1 it was aborted or cut short;
    2 it could not start.

    \b
    Examples:
      fairdeal join fd1:aeaqaab7...
      fairdeal join fd1:aeaqaab7... --seat bot --json
    """
    try:
        invite = decode_invite(code)
    except FairdealError as exc:
        raise _with_hint(exc) from None
    if not wire.valid_kind(seat.strip()):
        raise ConfigError(f"a seat is human, bot or bot:NAME, not {seat!r}")
    reg = load_registry()
    master: Rng | None = SeededRng(seed) if seed is not None else None
    ui = _ui(ascii, as_json)
    say = ui.say
    log = _Log(log_path)
    human_seat = seat.strip() == "human"
    identity = load_identity()[0] if human_seat else Identity.generate()
    observer = TerminalNetObserver(ui)
    table = _table_player(human_seat and wants_table(plain, as_json))

    def prepare(welcome: wire.Welcome) -> Prepared:
        if welcome.game not in reg.games:
            raise ConfigError(
                f"the host plays {welcome.game} ({welcome.distribution} {welcome.version}), "
                "which is not installed here"
            )
        entry = reg.entry(welcome.game)
        if entry.version != welcome.version:
            say(f"warning: the host has {welcome.game} {welcome.version}, you have {entry.version}.")
        kind = parse_seat(seat, welcome.game, reg)
        agent, human, seat_name = _seat_agent(kind, welcome.seat, name, welcome.game, reg, master, ui, table)
        observer.human = human
        return Prepared(entry.game, agent, seat_name, kind.label)

    plan = JoinPlan(
        invite=invite,
        identity=identity,
        prepare=prepare,
        connect_timeout=connect_timeout,
        rng=master,
        open_log=log.open,
    )
    say(f"Joining the game at {invite.address} ...")
    if table is not None:
        outcome = _run_table(say, "fairdeal", "", ascii, table, None, log, join_game, plan)
    else:
        outcome = _run(say, join_game, plan, observer, log=log)
    _finish(outcome, log, as_json, ui, observer.human)
