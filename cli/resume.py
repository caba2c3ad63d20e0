"""``fairdeal resume``: go on with an unfinished game from its log and its seed file.

A seat's game is unfinished when it was adjourned, when the program stopped (a crash,
the terminal closed) or when the host could not be reached any more. The log holds every
entry the seat accepted and the seed file next to it what the seat cannot recompute
(:mod:`fairdeal.seedfile`). The seat is rebuilt by replaying its log, entry by entry and
with every check, then: a host listens again on the same port with the same invite code
and waits for the others to come back; a guest comes back to the host and catches up.
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from fairdeal import i18n
from fairdeal.core.errors import ConfigError, FairdealError
from fairdeal.core.identity import Identity
from fairdeal.core.rules import rules_in
from fairdeal.core.session.header import Header
from fairdeal.core.session.logfile import parse_log
from fairdeal.core.session.verify import read_header
from fairdeal.i18n import N_, ngettext
from fairdeal.i18n import gettext as _
from fairdeal.net import GuestResume, HostPlan, HostResume, JoinPlan, Prepared, host_game, join_game, wire
from fairdeal.net.comeback import Refusal
from fairdeal.net.driver import Timeouts
from fairdeal.net.invite import decode_invite
from fairdeal.seedfile import SeedFile, delete_seed, read_seed, unfinished_logs
from fairdeal.storage import load_identity

from .console import UI, wants_table
from .flags import ascii_option, heartbeat_option, json_option, keepalive, plain_option
from .keeping import SeedKeeper
from .lan import lan_interfaces
from .main import cli, friendly_errors, load_registry
from .netlines import LineReport
from .netseat import (
    SeatLog,
    finish_game,
    make_ui,
    run_seat,
    run_table,
    seat_agent,
    table_player,
    with_hint,
)
from .outcome import resume_command
from .phrases import is_yes
from .seats import parse_seat


def _describe(log: Path) -> tuple[str, SeedFile | None]:
    """One line about an unfinished game (what, where, how far), for the list to pick from."""
    try:
        seed = read_seed(log)
    except FairdealError as exc:
        return f"{log.name}: {exc}", None  # the seed file's error: its own words
    try:
        entries = parse_log(log.read_bytes()).entries
        header: Header | None = read_header(entries[0]) if entries else None
    except (OSError, FairdealError):
        entries, header = (), None
    names = ", ".join(header.names) if header else "?"
    role = _("host") if seed.role == "host" else _("seat {n}").format(n=seed.seat)
    state = _("adjourned") if seed.adjourned else _("interrupted")
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(log.stat().st_mtime))
    count = ngettext("{n} entry", "{n} entries", len(entries)).format(n=len(entries))
    return f"{seed.game} · {role} · {names}\n{count} · {state} · {when}", seed


#: Said when shown (``_(NONE_HERE)``): marked here for the catalog.
NONE_HERE = N_("no unfinished game here (games that were adjourned, or stopped before their end)")


def _listed(ui: UI, logs: list[Path]) -> None:
    """The unfinished games, numbered: what, who, how far and when, then the log (each on a line
    of its own, so that nothing is cut at 80 columns)."""
    ui.say(_("Unfinished games:"))
    for i, log in enumerate(logs, 1):
        what, when = (*_describe(log)[0].split("\n", 1), "")[:2]
        ui.say(f"  {i:>2}  {what}")
        if when:
            ui.say(f"      {when}")
        ui.say(f"      {log}", "dim", wrap=False)


def _pick(ui: UI, *, dropping: bool = False) -> Path:
    """The unfinished game the person picks by number (``d N`` drops one from the list first)."""
    while True:
        logs = unfinished_logs()
        if not logs:
            raise ConfigError(_(NONE_HERE))
        _listed(ui, logs)
        n = len(logs)
        if dropping:
            ask = _("Drop which game? (1-{n}, or q to quit) ").format(n=n)
        else:
            ask = _("Go on with which game? (1-{n}; d and a number drops one from the list; q to quit) ")
            ask = ask.format(n=n)
        try:
            answer = ui.ask(ask).strip().lower()
        except EOFError:
            raise ConfigError(_("no game was picked")) from None
        if answer in ("q", "quit"):
            raise ConfigError(_("no game was picked"))
        drop = answer[1:].strip() if answer.startswith("d") and not dropping else None
        number = drop if drop is not None else answer
        if not (number.isascii() and number.isdigit() and 1 <= int(number) <= n):
            if dropping:
                ui.say(_("Type a number from 1 to {n}.").format(n=n))
            else:
                ui.say(_("Type a number from 1 to {n}, or d and a number.").format(n=n))
            continue
        if drop is None:
            return logs[int(number) - 1]
        _drop(ui, logs[int(number) - 1], ask=True)


def _drop(ui: UI, log: Path, *, ask: bool = False) -> None:
    """Drop the game of ``log`` from the unfinished games: its secrets are deleted, so this seat can
    never go on with it (a game the host ended while this seat was away, say); the log stays."""
    from fairdeal.seedfile import seed_path

    if not seed_path(log).exists():
        nothing = _("{path} is not an unfinished game of this profile: there is nothing to drop")
        raise ConfigError(nothing.format(path=log))
    if ask:
        question = _("Drop {name}? It can never go on then (its log stays). [y/N] ").format(name=log.name)
        try:
            if not is_yes(ui.ask(question)):
                ui.say(_("Kept."))
                return
        except EOFError:
            return
    delete_seed(log)
    dropped = _("Dropped {name}: it is no longer among the unfinished games. Its log stays: {path}")
    ui.say(dropped.format(name=log.name, path=log))


@cli.command()
@click.argument("log", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--wait",
    type=click.FloatRange(1, 7 * 24 * 3600),
    default=None,
    help=N_("(A guest) seconds to keep trying to reach the host (default: the game's grace period)."),
)
@click.option(
    "--drop",
    is_flag=True,
    help=N_("Drop the game from the list instead: this seat can never go on with it (the log stays)."),
)
@json_option
@ascii_option
@plain_option
@heartbeat_option
@friendly_errors
def resume(
    log: Path | None,
    wait: float | None,
    drop: bool,
    as_json: bool,
    ascii: bool,
    plain: bool,
    heartbeat: float | None,
) -> None:
    """Go on with an unfinished game: adjourned, or stopped by a crash or a lost connection.

    With no LOG, the unfinished games of this profile are listed and you pick one by
    number. The seat is rebuilt from its log and the seed file beside it (every entry is
    checked again), and goes on where it stopped: a host listens again with the same
    invite code, on the same port, and waits for the others; a guest reaches the host
    again and catches up. Nobody can tell a resumed seat from a slow one.

    Exit status: as for host and join (0 played to its end, 1 aborted or cut short,
    2 could not start, 3 adjourned again).

    A game that can never go on (its host ended it while you were away) is dropped from
    the list with --drop (or d and its number when picking).

    \b
    Examples:
      fairdeal resume                      pick one of your unfinished games
      fairdeal resume ~/.local/share/fairdeal/logs/ecarte-1a2b3c4d5e6f.fdlog
      fairdeal resume --drop               pick one to drop from the list
    """
    ui = make_ui(ascii, as_json)
    if drop:
        _drop(ui, log if log is not None else _pick(ui, dropping=True))
        return
    path = log if log is not None else _pick(ui)
    run_resume(path, wait, as_json, ascii, plain, heartbeat=heartbeat)


def _cannot_resume(log: Path) -> ConfigError | None:
    """Why ``log`` has nothing to resume, when it has no seed file: the game is over, or it was
    played in this process alone (``fairdeal play``: nothing to go on with). None if it has one."""
    from fairdeal.core.session.envelope import decode_envelope
    from fairdeal.core.session.session import END, RESIGN
    from fairdeal.seedfile import seed_path

    if seed_path(log).exists() or seed_path(log).is_symlink():
        return None
    try:
        entries = parse_log(log.read_bytes()).entries
        kinds = {decode_envelope(e).kind for e in entries[1:]}
    except (OSError, FairdealError):
        return None
    replay = _("replay it with  fairdeal replay {path}  (or check it with  fairdeal verify {path})")
    replay = replay.format(path=log)
    if END in kinds or RESIGN in kinds:
        over = _("the game of {name} is over: there is nothing to resume; {replay}")
        return ConfigError(over.format(name=log.name, replay=replay))
    if log.stem.endswith("-watch"):  # as fairdeal watch names its logs: a watcher has no seat
        watched = _(
            "{name} is a watcher's log: a watcher has no seat to go on with; watch the game "
            "again with its code (fairdeal watch CODE), or {replay}"
        )
        return ConfigError(watched.format(name=log.name, replay=replay))
    unseeded = _(
        "the game of {name} did not finish, and has no seed file to go on with: a game played "
        "here against bots (fairdeal play) cannot be resumed, nor a network seat whose seed file "
        "is gone; {replay}"
    )
    return ConfigError(unseeded.format(name=log.name, replay=replay))


def _load(log: Path) -> tuple[SeedFile, tuple[bytes, ...], Header]:
    if not log.is_file():
        raise ConfigError(_("there is no game log at {path}").format(path=log))
    reason = _cannot_resume(log)
    if reason is not None:
        raise reason
    seed = read_seed(log)
    try:
        data = log.read_bytes()
    except OSError as exc:
        raise ConfigError(
            _("cannot read {path}: {reason}").format(path=log, reason=exc.strerror or exc)
        ) from None
    parsed = parse_log(data)
    if not parsed.entries:
        why = parsed.problem or _("there is no game to resume")
        raise ConfigError(_("{path} holds no entry: {reason}").format(path=log, reason=why))
    if parsed.problem and "cut short" not in parsed.problem:
        damaged = _("the log {path} is damaged ({reason}); it cannot be continued")
        raise ConfigError(damaged.format(path=log, reason=parsed.problem))
    try:
        header = read_header(parsed.entries[0])
    except FairdealError as exc:
        no_header = _("{path} does not start with a game header ({reason})")
        raise ConfigError(no_header.format(path=log, reason=exc)) from None
    if header.game_id != seed.game_id or header.game != seed.game:
        other = _(
            "the seed file next to {path} is from another game ({seed_game}), the log is {log_game}: "
            "this seat cannot go on"
        )
        seed_game = f"{seed.game} {seed.game_id.hex()[:12]}"
        log_game = f"{header.game} {header.game_id.hex()[:12]}"
        raise ConfigError(other.format(path=log, seed_game=seed_game, log_game=log_game))
    if not seed.seat < header.players:
        no_seat = _("the seed file next to {path} names seat {n}, which this game has not")
        raise ConfigError(no_seat.format(path=log, n=seed.seat))
    return seed, parsed.entries, header


def _identity(seed: SeedFile, header: Header, log: Path) -> Identity:
    identity = Identity.from_seed(seed.identity_key) if seed.identity_key else load_identity()[0]
    if identity.fingerprint != seed.identity or header.seats[seed.seat].identity != identity.public_key:
        named = _profile_of(log)
        how = resume_command(log, named) if named is not None else "fairdeal --profile NAME resume"
        other = _(
            "this seat was played with the identity {theirs}, and this profile's is {ours}: resume "
            "with the profile that played it ({how})"
        )
        raise ConfigError(other.format(theirs=seed.identity, ours=identity.fingerprint, how=how))
    return identity


def _profile_of(log: Path) -> str | None:
    """The profile whose logs folder ``log`` lies in (``…/profiles/NAME/logs/…``), if it is one."""
    from fairdeal import storage

    parts = log.absolute().parts
    for i in range(len(parts) - 2):
        if parts[i] == "profiles" and parts[i + 2] == "logs":
            try:
                return storage.check_profile(parts[i + 1])
            except ConfigError:
                return None
    return None


def run_resume(
    log: Path, wait: float | None, as_json: bool, ascii: bool, plain: bool, *, heartbeat: float | None = None
) -> None:
    """Resume the seat of ``log`` (``host``/``join`` call it too) and exit as they do."""
    seed, entries, header = _load(log)
    identity = _identity(seed, header, log)  # the wrong profile is refused before the seat is taken
    ui = make_ui(ascii, as_json)
    out = SeatLog(log, reopen=True)
    out.lock_now(ui.say)  # one seat, one process: before anything is written
    reg = load_registry()
    if header.game not in reg.games:
        raise ConfigError(_("this game is {game}, which is not installed here").format(game=header.game))
    entry = reg.entry(header.game)
    if entry.version != header.version:
        other = _("warning: the game was played with {game} {version}; this is {mine}")
        click.echo(other.format(game=header.game, version=header.version, mine=entry.version), err=True)
    say = ui.say
    kind = parse_seat(seed.kind, header.game, reg)
    table = table_player(kind.human and wants_table(plain, as_json))
    name = header.seats[seed.seat].name
    agent, human, _name = seat_agent(kind, seed.seat, name, header.game, reg, None, ui, table)
    keeper = SeedKeeper(
        seed.role,
        seed.kind,
        seed.identity,
        out.where,
        invite=seed.invite,
        host=seed.host,
        identity_key=seed.identity_key,
        extra_direct=seed.extra_direct,
        resumed=seed,
    )
    keeper.resuming()
    try:
        invite = decode_invite(seed.invite)
    except FairdealError as exc:
        damaged = _("the seed file next to {path} holds a damaged invite code ({reason})")
        raise ConfigError(damaged.format(path=log, reason=exc)) from None
    report = LineReport(ui, human)
    what = _("host") if seed.role == "host" else _("seat {n}").format(n=seed.seat)
    going = ngettext(
        "Going on with {game} ({what}, {n} entry so far) from {path}.",
        "Going on with {game} ({what}, {n} entries so far) from {path}.",
        len(entries),
    )
    say(going.format(game=entry.game.title, what=what, n=len(entries), path=log))
    try:
        if seed.role == "host":
            assert seed.host is not None
            h = seed.host
            lan_on, interfaces = lan_interfaces(h.bind)
            plan = HostPlan(
                game=entry.game, plugin=header.plugin, distribution=header.distribution,
                version=header.version, options=dict(header.options), players=header.players,
                identity=identity, name=name, kind=seed.kind, agent=agent, bind=h.bind, port=h.port,
                advertise=h.advertise, relay=invite.relay, doors=invite.doors or None,  # the invite's
                announce=h.announce and lan_on, lan_interfaces=interfaces,
                timeouts=Timeouts(h.timeout, h.move_timeout if h.move_timeout is not None else float("inf")),
                keepalive=keepalive(heartbeat),
                open_log=out.open, grace=float(seed.grace), watchers=h.watchers, keeper=keeper,
                resume=HostResume(entries, invite, seed.seed, seed.chat), auto_adjourn=not kind.human,
            )  # fmt: skip
            if table is not None:
                rules = rules_in(entry.game, i18n.language())
                outcome = run_table(say, entry.game.title, rules, ascii, table, None, out, host_game, plan)
            else:
                outcome = run_seat(say, host_game, plan, report, log=out)
        else:

            def prepare(welcome: wire.Welcome) -> Prepared:
                return Prepared(entry.game, agent, name, seed.kind)

            from fairdeal.net.invite import parse_endpoint

            extra = tuple(parse_endpoint(e) for e in seed.extra_direct)
            patience = wait or float(max(seed.grace, 30))
            plan2 = JoinPlan(
                invite=invite, identity=identity, prepare=prepare, extra_direct=extra, open_log=out.open,
                keeper=keeper, auto_adjourn=not kind.human, keepalive=keepalive(heartbeat),
                resume=GuestResume(entries, seed.seat, seed.seed, seed.sent, patience, seed.chat),
            )  # fmt: skip
            if table is not None:
                rules = rules_in(entry.game, i18n.language())
                outcome = run_table(say, entry.game.title, rules, ascii, table, None, out, join_game, plan2)
            else:
                outcome = run_seat(say, join_game, plan2, report, log=out)
    except ConfigError as exc:
        if "this game is over" in str(exc):
            delete_seed(log)  # nothing left to resume: its secrets are of no use any more
            raise ConfigError(
                _("the game of {path} is over: there is nothing to resume").format(path=log)
            ) from None
        raise with_hint(exc) from None
    except Refusal as exc:
        if exc.reason == "the game is over":  # the host ended it while this seat was away
            delete_seed(log)
            over = _(
                "the host says the game of {name} is over: there is nothing to resume (it is no "
                "longer among your unfinished games; its log stays)"
            )
            raise ConfigError(over.format(name=log.name)) from None
        raise
    finish_game(outcome, out, as_json, ui, report.human)


__all__ = ["run_resume"]
