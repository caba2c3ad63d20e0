"""``fairdeal host`` and ``fairdeal join``: play over the network, one seat per process.

Each seat keeps its seed file next to its log while the game lasts (:mod:`.keeping`), so
that ``fairdeal resume`` can go on with it after a crash, a lost connection or an
adjournment; ``join`` with the code of a game this profile has not finished goes on with it.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
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
from fairdeal.net.invite import PUBLIC_RELAY, Endpoint, Invite, decode_invite, parse_endpoint
from fairdeal.net.lobby import Joiner
from fairdeal.net.netplay import HostPlan, JoinPlan, NetObserver, NetOutcome, Prepared, host_game, join_game
from fairdeal.seedfile import HostParams, read_seed, seed_path, unfinished_logs
from fairdeal.storage import LogWriter, default_log_path, load_identity, unique_log_path

from .adjourning import Adjourning
from .console import UI, clock, describe_waiting, wants_table
from .flags import (
    ascii_option,
    connect_timeout_option,
    json_option,
    log_option,
    look_option,
    name_option,
    plain_option,
    positive_seconds,
    rule_options,
)
from .keeping import SeedKeeper
from .lan import lan_interfaces, pick
from .main import cli, friendly_errors, load_registry
from .outcome import print_summary, result_object
from .render import option_text
from .seats import SeatKind, bot_agent, default_name, parse_seat
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
    for i, s in enumerate(lobby.seats):
        who = "(free)" if s is None else f"{s.name}  {s.fingerprint}  [{s.kind}]"
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
        for i, s in enumerate(header.seats):
            you = "  <- you" if i == seat else ""
            self.say(f"  seat {i}: {s.name}  {s.fingerprint}  [{s.kind}]{you}")

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
class _Log:
    """Opens the game's log when the header is known (``--log`` or the default path); with
    ``reopen``, goes on appending to the log of a resumed game."""

    def __init__(self, path: Path | None, *, reopen: bool = False, suffix: str = "") -> None:
        if path is not None and path.exists() and not reopen:
            raise ConfigError(f"the log file {path} exists already; choose another --log")
        self.wanted = path
        self.reopen = reopen
        self.suffix = suffix
        self.path: Path | None = path if reopen else None
        self.header: Header | None = None

    def where(self) -> tuple[Path | None, Header | None]:
        return self.path, self.header

    def open(self, header: Header) -> LogWriter:
        self.header = header
        if self.reopen and self.wanted is not None:
            return LogWriter.reopen(self.wanted)
        if self.wanted is not None:
            self.path = self.wanted
            return LogWriter(self.wanted)
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
            return writer
        raise ConfigError(f"cannot create a log file next to {path}")


#: Exit status of host, join and resume when the game was adjourned (to be resumed later).
ADJOURNED = 3


def _finish(
    outcome: NetOutcome,
    log: _Log,
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
    source: str = "the invite",
) -> NetOutcome:
    """Run ``fn(plan, observer)`` as the guest of the full-screen table; like :func:`_run` after it."""
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
    metavar="ADDRESS[:PORT]",
    help="Also put this address in the invite code, first (e.g. your public address and a forwarded port).",
)
@click.option(
    "--relay",
    "relay_text",
    default=None,
    metavar="tcp:HOST:PORT",
    help="The transit relay for players who cannot reach you directly "
    "(default: the public one magic-wormhole uses, tcp:transit.magic-wormhole.io:4001).",
)
@click.option("--no-relay", is_flag=True, help="No relay: only direct connections (a LAN game).")
@click.option(
    "--private",
    is_flag=True,
    help="Do not announce the game on the local network: only those with the code can join.",
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
    callback=positive_seconds,
    help="Seconds a player has for an automatic step (keys, shuffles, shares, reveals).",
)
@click.option(
    "--move-timeout",
    type=float,
    default=None,
    callback=positive_seconds,
    help="Seconds a player has to choose a move (default: no limit).",
)
@click.option(
    "--grace",
    type=click.FloatRange(0, 7 * 24 * 3600),
    default=120.0,
    show_default=True,
    help="Seconds to hold the seat of a player whose connection drops, waiting for them to come back "
    "(0: the game stops at once, blaming them).",
)
@click.option(
    "--watchers",
    type=click.IntRange(0, 1000),
    default=16,
    show_default=True,
    help="How many may watch the game (fairdeal watch CODE); 0 lets nobody watch.",
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
    relay_text: str | None,
    no_relay: bool,
    private: bool,
    invite_file: Path | None,
    log_path: Path | None,
    timeout: float,
    move_timeout: float | None,
    grace: float,
    watchers: int,
    as_json: bool,
    ascii: bool,
    plain: bool,
    seed: int | None,
) -> None:
    """Host GAME over the network: print an invite code, wait for the players, play.

    You take seat 0; joiners take the next seats as they arrive. The game starts when
    every seat is filled. Every player writes the same log.

    The invite code leads joiners to this machine's addresses and, for those who cannot
    reach it (both behind home routers), through a transit relay, which only ever sees
    encrypted bytes. Players on the same network can also join without the code: the
    game is announced there (not with --private).

    Exit status: 0 the game was played to its end; 1 it was aborted or cut short;
    2 it could not start.

    \b
    Examples:
      fairdeal host ecarte
      fairdeal host snatch --players 4 --port 7700
      fairdeal host spite-malice --seat bot --invite-file code.txt
      fairdeal host ecarte --no-relay --private
      fairdeal host ecarte --relay tcp:relay.example.org:4001
    """
    reg = load_registry()
    entry = reg.entry(game)
    g = entry.game
    n = players if players is not None else max(2, g.min_players)
    kind = parse_seat(seat, game, reg)
    config = g.config(n, dict(parse_assignments(options)))
    if advertise is not None and not _valid_advertise(advertise):
        raise ConfigError(f"--advertise {advertise!r} is not an address or host name (with :PORT or not)")
    if no_relay and relay_text is not None:
        raise ConfigError("--relay and --no-relay contradict each other")
    try:
        relay = None if no_relay else parse_endpoint(relay_text) if relay_text else default_relay()
    except ValueError:
        raise ConfigError(f"--relay {relay_text!r} is not tcp:HOST:PORT") from None
    lan_on, interfaces = lan_interfaces(bind)
    master: Rng | None = SeededRng(seed) if seed is not None else None
    identity = load_identity()[0]
    ui = _ui(ascii, as_json)
    table = _table_player(kind.human and wants_table(plain, as_json))
    agent, human, seat_name = _seat_agent(kind, 0, name, game, reg, master, ui, table)
    say = ui.say
    log = _Log(log_path)
    keeper = SeedKeeper(
        "host",
        kind.label,
        identity.fingerprint,
        log.where,
        host=HostParams(
            bind,
            port or 1,
            lan_on and not private,
            timeout,
            move_timeout,
            watchers,
            advertise,
        ),
    )
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
        relay=relay,
        announce=lan_on and not private,
        lan_interfaces=interfaces,
        timeouts=Timeouts(
            obligation=timeout, move=move_timeout if move_timeout is not None else float("inf")
        ),
        rng=master,
        open_log=log.open,
        grace=grace,
        watchers=watchers,
        keeper=keeper,
        auto_adjourn=not kind.human,
    )
    say(f"Hosting {g.title} for {n} players as {seat_name} ({identity.fingerprint}).")
    if private:
        say("Not announced on the local network (--private): only players with the code can join.")
    if table is not None:
        outcome = _run_table(say, g.title, g.rules_text(), ascii, table, invite_file, log, host_game, plan)
    else:
        observer = TerminalNetObserver(ui, human, invite_file)
        outcome = _run(say, host_game, plan, observer, log=log)
    _finish(outcome, log, as_json, ui, human)


def unfinished_at(invite: Invite) -> Path | None:
    """The log of this profile's unfinished game (as a guest) at the table of ``invite``, if any."""
    for log in unfinished_logs():
        try:
            seed = read_seed(log)
            if seed.role == "guest" and decode_invite(seed.invite).session == invite.session:
                return log
        except FairdealError:
            continue
    return None


def _valid_advertise(text: str) -> bool:
    from fairdeal.net.invite import valid_host

    try:
        parse_endpoint(text)
    except ValueError:
        return valid_host(text)
    return True


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
@click.argument("code", required=False)
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
@connect_timeout_option
@look_option
@json_option
@ascii_option
@plain_option
@click.option("--seed", type=int, default=None, hidden=True, help="Fix this seat's randomness (tests).")
@friendly_errors
def join(
    code: str | None,
    seat: str,
    name: str | None,
    log_path: Path | None,
    connect_timeout: float,
    look_seconds: float,
    as_json: bool,
    ascii: bool,
    plain: bool,
    seed: int | None,
) -> None:
    """Join a game from the invite CODE the host gave you, and play.

    With no CODE, the games announced on the local network are listed and you pick one
    by number. Either way the connection is refused unless the host proves the identity
    the code (or the announcement) names ("host identity does not match the invite").
    The host is tried directly and through its relay at once; the message says which
    way connected.

    Exit status: 0 the game was played to its end; 1 it was aborted or cut short;
    2 it could not start.

    \b
    Examples:
      fairdeal join fd1:aeaqaab7...
      fairdeal join fd1:aeaqaab7... --seat bot --json
      fairdeal join                     pick a game on the local network
      fairdeal --profile second join    a second identity on the same machine
    """
    if not wire.valid_kind(seat.strip()):
        raise ConfigError(f"a seat is human, bot or bot:NAME, not {seat!r}")
    ui = _ui(ascii, as_json)
    say = ui.say
    extra: tuple[Endpoint, ...] = ()
    if code is None:
        found = pick(ui, look_seconds)
        invite, extra, source = found.invite, found.addresses, "the announcement"
        say(f"Joining {found.game} hosted by {found.host_name} ({found.fingerprint}) ...")
    else:
        try:
            invite = decode_invite(code)
        except FairdealError as exc:
            raise _with_hint(exc) from None
        source = "the invite"
        say(f"Joining the game at {invite.address} ...")
    reg = load_registry()
    unfinished = unfinished_at(invite)
    if unfinished is not None:
        from .resume import run_resume

        say(f"This profile has an unfinished game at this table: going on with it ({unfinished}).")
        run_resume(unfinished, None, as_json, ascii, plain)
        return
    master: Rng | None = SeededRng(seed) if seed is not None else None
    log = _Log(log_path)
    human_seat = seat.strip() == "human"
    identity = load_identity()[0] if human_seat else Identity.generate()
    keeper = SeedKeeper(
        "guest",
        seat.strip(),
        identity.fingerprint,
        log.where,
        invite=invite.encode(),
        identity_key=None if human_seat else identity.seed(),
        extra_direct=[str(e) for e in extra],
    )
    observer = TerminalNetObserver(ui, source=source)
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
        keeper.kind = kind.label
        return Prepared(entry.game, agent, seat_name, kind.label)

    plan = JoinPlan(
        invite=invite,
        identity=identity,
        prepare=prepare,
        connect_timeout=connect_timeout,
        extra_direct=extra,
        rng=master,
        open_log=log.open,
        keeper=keeper,
        auto_adjourn=not human_seat,
    )
    if table is not None:
        outcome = _run_table(say, "fairdeal", "", ascii, table, None, log, join_game, plan, source)
    else:
        outcome = _run(say, join_game, plan, observer, log=log)
    _finish(outcome, log, as_json, ui, observer.human)
