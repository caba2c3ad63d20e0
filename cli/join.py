"""``fairdeal join``: join a game over the network from its invite code (or one announced on the
local network), one seat per process.

The seat keeps its seed file next to its log while the game lasts (:mod:`.keeping`), so
that ``fairdeal resume`` can go on with it after a crash, a lost connection or an
adjournment; ``join`` with the code of a game this profile has not finished goes on with it.
"""

from __future__ import annotations

from pathlib import Path

import click

from fairdeal.core.errors import ConfigError, FairdealError
from fairdeal.core.identity import Identity
from fairdeal.core.rng import Rng, SeededRng
from fairdeal.i18n import N_
from fairdeal.i18n import gettext as _
from fairdeal.net import JoinPlan, Prepared, join_game, wire
from fairdeal.net.invite import Endpoint, Invite, decode_invite
from fairdeal.seedfile import read_seed, unfinished_logs
from fairdeal.storage import load_identity

from .console import wants_table
from .flags import (
    ascii_option,
    connect_timeout_option,
    heartbeat_option,
    json_option,
    keepalive,
    log_option,
    look_option,
    name_option,
    plain_option,
)
from .keeping import SeedKeeper
from .lan import pick
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
)
from .seats import parse_seat
from .shortcodes import mailbox_option, mailbox_url, read_code


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


# -- join -------------------------------------------------------------------------------------------
@cli.command()
@click.argument("pieces", metavar="[CODE]", nargs=-1)
@click.option(
    "--seat",
    "seat",
    default="human",
    show_default=True,
    metavar="KIND",
    help=N_("Who plays your seat: human, bot or bot:NAME (a bot plays with a fresh identity)."),
)
@name_option
@log_option
@connect_timeout_option
@mailbox_option
@look_option
@json_option
@ascii_option
@plain_option
@click.option("--seed", type=int, default=None, hidden=True, help=N_("Fix this seat's randomness (tests)."))
@heartbeat_option
@friendly_errors
def join(
    pieces: tuple[str, ...],
    seat: str,
    name: str | None,
    log_path: Path | None,
    connect_timeout: float,
    mailbox_text: str | None,
    look_seconds: float,
    as_json: bool,
    ascii: bool,
    plain: bool,
    seed: int | None,
    heartbeat: float | None,
) -> None:
    """Join a game from the invite CODE the host gave you, and play.

    The CODE is the long one (fd1:...) or the short one (7-brave-otter), which is for one
    player, once: its words open the long code through a mailbox server. With no CODE,
    the games announced on the local network are listed and you pick one by number.
    Either way the connection is refused unless the host proves the identity the code
    (or the announcement) names ("host identity does not match the invite"). The host is
    tried directly and through its relay at once; the message says which way connected.

    Exit status: 0 the game was played to its end; 1 it was aborted or cut short;
    2 it could not start; 3 it was adjourned (everyone goes on later: fairdeal resume);
    130 you left it (Ctrl-C).

    \b
    Examples:
      fairdeal join fd1:aeaqaab7...
      fairdeal join 7-brave-otter       a short code, read over the phone
      fairdeal join fd1:aeaqaab7... --seat bot --json
      fairdeal join                     pick a game on the local network
      fairdeal --profile second join    a second identity on the same machine
    """
    if not wire.valid_kind(seat.strip()):
        raise ConfigError(_("a seat is human, bot or bot:NAME, not {text}").format(text=repr(seat)))
    ui = make_ui(ascii, as_json)
    say = ui.say
    extra: tuple[Endpoint, ...] = ()
    code = " ".join(pieces) or None  # a long code a terminal wrapped may come pasted in pieces
    if code is None:
        found = pick(ui, look_seconds)
        invite, extra, source = found.invite, found.addresses, N_("the announcement")
        joining = _("Joining {game} hosted by {host} ({fingerprint}) ...")
        say(joining.format(game=found.game, host=found.host_name, fingerprint=found.fingerprint))
    else:
        invite = read_code(code, mailbox_url(mailbox_text), say)
        source = N_("the invite")
        say(_("Joining the game at {address} ...").format(address=invite.address))
    reg = load_registry()
    unfinished = unfinished_at(invite)
    if unfinished is not None:
        from .resume import run_resume

        going_on = _("This profile has an unfinished game at this table: going on with it ({path}).")
        say(going_on.format(path=unfinished))
        run_resume(unfinished, None, as_json, ascii, plain, heartbeat=heartbeat)
        return
    master: Rng | None = SeededRng(seed) if seed is not None else None
    log = SeatLog(log_path)
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
    report = LineReport(ui, source=source)
    table = table_player(human_seat and wants_table(plain, as_json))

    def prepare(welcome: wire.Welcome) -> Prepared:
        if welcome.game not in reg.games:
            missing = _("the host plays {game} ({distribution} {version}), which is not installed here")
            raise ConfigError(
                missing.format(game=welcome.game, distribution=welcome.distribution, version=welcome.version)
            )
        entry = reg.entry(welcome.game)
        if entry.version != welcome.version:
            other = _("warning: the host has {game} {version}, you have {mine}.")
            say(other.format(game=welcome.game, version=welcome.version, mine=entry.version))
        kind = parse_seat(seat, welcome.game, reg)
        agent, human, seat_name = seat_agent(kind, welcome.seat, name, welcome.game, reg, master, ui, table)
        report.human = human
        keeper.kind = kind.label
        return Prepared(entry.game, agent, seat_name, kind.label)

    plan = JoinPlan(
        invite=invite,
        identity=identity,
        prepare=prepare,
        connect_timeout=connect_timeout,
        keepalive=keepalive(heartbeat),
        extra_direct=extra,
        rng=master,
        open_log=log.open,
        keeper=keeper,
        auto_adjourn=not human_seat,
    )
    if table is not None:
        outcome = run_table(say, "fairdeal", "", ascii, table, None, log, join_game, plan, source)
    else:
        outcome = run_seat(say, join_game, plan, report, log=log)
    finish_game(outcome, log, as_json, ui, report.human)
