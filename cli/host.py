"""``fairdeal host``: host a game over the network, one seat per process (``fairdeal join`` is
:mod:`.join`).

The seat keeps its seed file next to its log while the game lasts (:mod:`.keeping`), so
that ``fairdeal resume`` can go on with it after a crash, a lost connection or an
adjournment.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from fairdeal import i18n
from fairdeal.core.errors import ConfigError
from fairdeal.core.options import parse_assignments
from fairdeal.core.rng import Rng, SeededRng
from fairdeal.core.rules import rules_in
from fairdeal.i18n import N_, ngettext
from fairdeal.i18n import gettext as _
from fairdeal.net import HostPlan, host_game
from fairdeal.net.driver import Timeouts
from fairdeal.net.invite import parse_endpoint
from fairdeal.seedfile import HostParams
from fairdeal.storage import load_identity

from .console import wants_table
from .flags import (
    ascii_option,
    heartbeat_option,
    json_option,
    keepalive,
    log_option,
    name_option,
    plain_option,
    positive_seconds,
    rule_options,
)
from .keeping import SeedKeeper
from .lan import lan_interfaces
from .main import cli, friendly_errors, load_registry
from .netlines import LineReport
from .netseat import (
    SeatLog,
    default_relay,
    finish_game,
    make_ui,
    run_seat,
    run_table,
    seat_agent,
    table_player,
)
from .seats import parse_seat
from .shortcodes import CodeFile, mailbox_option, mailbox_url


# -- host -------------------------------------------------------------------------------------------
@cli.command()
@click.argument("game")
@click.option(
    "--players",
    type=click.IntRange(2, 10),
    default=None,
    help=N_("Seats at the table, yours included (default: the game's minimum)."),
)
@click.option(
    "--seat",
    "seat",
    default="human",
    show_default=True,
    metavar="KIND",
    help=N_("Who plays your seat: human, bot or bot:NAME."),
)
@name_option
@rule_options
@click.option(
    "--bind",
    default="0.0.0.0",
    show_default=True,
    metavar="ADDRESS",
    help=N_("The address to listen on (all IPv4 interfaces by default; :: for IPv6)."),
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    show_default=True,
    help=N_("The TCP port to listen on; 0 picks a free one (the invite code carries it)."),
)
@click.option(
    "--advertise",
    default=None,
    metavar="ADDRESS[:PORT]",
    help=N_(
        "Also put this address in the invite code, first (e.g. your public address and a forwarded port)."
    ),
)
@click.option(
    "--relay",
    "relay_text",
    default=None,
    metavar="tcp:HOST:PORT",
    help=N_(
        "The transit relay for players who cannot reach you directly "
        "(default: the public one magic-wormhole uses, tcp:transit.magic-wormhole.io:4001)."
    ),
)
@click.option("--no-relay", is_flag=True, help=N_("No relay: only direct connections (a LAN game)."))
@click.option(
    "--private",
    is_flag=True,
    help=N_("Do not announce the game on the local network: only those with the code can join."),
)
@click.option(
    "--invite-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=N_("Also write the invite code to this file."),
)
@mailbox_option
@click.option(
    "--code-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=N_("Write the short code for the next player to this file, again as each new one opens."),
)
@log_option
@click.option(
    "--timeout",
    type=float,
    default=30.0,
    show_default=True,
    callback=positive_seconds,
    help=N_("Seconds a player has for an automatic step (keys, shuffles, shares, reveals)."),
)
@click.option(
    "--move-timeout",
    type=float,
    default=None,
    callback=positive_seconds,
    help=N_("Seconds a player has to choose a move (default: no limit)."),
)
@click.option(
    "--grace",
    type=click.FloatRange(0, 7 * 24 * 3600),
    default=120.0,
    show_default=True,
    help=N_(
        "Seconds to hold the seat of a player whose connection drops, waiting for them to come back "
        "(0: the game stops at once, blaming them)."
    ),
)
@click.option(
    "--watchers",
    type=click.IntRange(0, 1000),
    default=16,
    show_default=True,
    help=N_("How many may watch the game (fairdeal watch CODE); 0 lets nobody watch."),
)
@json_option
@ascii_option
@plain_option
@click.option("--seed", type=int, default=None, hidden=True, help=N_("Fix this seat's randomness (tests)."))
@heartbeat_option
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
    mailbox_text: str | None,
    code_file: Path | None,
    log_path: Path | None,
    timeout: float,
    move_timeout: float | None,
    grace: float,
    watchers: int,
    as_json: bool,
    ascii: bool,
    plain: bool,
    seed: int | None,
    heartbeat: float | None,
) -> None:
    """Host GAME over the network: print an invite code, wait for the players, play.

    You take seat 0; joiners take the next seats as they arrive. The game starts when
    every seat is filled. Every player writes the same log.

    The invite code leads joiners to this machine's addresses and, for those who cannot
    reach it (both behind home routers), through a transit relay, which only ever sees
    encrypted bytes. Beside it, a short code (7-brave-otter) for one player at a time, easy
    to read over the phone, hands the invite over through a mailbox server; once used, the
    next one is shown. Players on the same network can also join without the code: the
    game is announced there (not with --private).

    Exit status: 0 the game was played to its end; 1 it was aborted or cut short;
    2 it could not start; 3 it was adjourned (everyone goes on later: fairdeal resume);
    130 you left it (Ctrl-C).

    \b
    Examples:
      fairdeal host ecarte
      fairdeal host snatch --players 4 --port 7700
      fairdeal host spite-malice --seat bot --invite-file code.txt
      fairdeal host ecarte --no-relay --private
      fairdeal host ecarte --relay tcp:relay.example.org:4001
      fairdeal host ecarte --mailbox none      no short codes
    """
    reg = load_registry()
    entry = reg.entry(game)
    g = entry.game
    n = players if players is not None else max(2, g.min_players)
    kind = parse_seat(seat, game, reg)
    config = g.config(n, dict(parse_assignments(options)))
    if advertise is not None and not _valid_advertise(advertise):
        not_one = _("--advertise {value} is not an address or host name (with :PORT or not)")
        raise ConfigError(not_one.format(value=repr(advertise)))
    if no_relay and relay_text is not None:
        raise ConfigError(_("--relay and --no-relay contradict each other"))
    try:
        relay = None if no_relay else parse_endpoint(relay_text) if relay_text else default_relay()
    except ValueError:
        raise ConfigError(_("--relay {value} is not tcp:HOST:PORT").format(value=repr(relay_text))) from None
    lan_on, interfaces = lan_interfaces(bind)
    mailbox = mailbox_url(mailbox_text)
    codes = CodeFile(code_file)
    master: Rng | None = SeededRng(seed) if seed is not None else None
    identity = load_identity()[0]
    ui = make_ui(ascii, as_json)
    table = table_player(kind.human and wants_table(plain, as_json))
    agent, human, seat_name = seat_agent(kind, 0, name, game, reg, master, ui, table)
    say = ui.say
    log = SeatLog(log_path)
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
        keepalive=keepalive(heartbeat),
        rng=master,
        open_log=log.open,
        grace=grace,
        watchers=watchers,
        keeper=keeper,
        auto_adjourn=not kind.human,
        mailbox=mailbox,
        on_short_code=codes,
    )
    hosting = ngettext(
        "Hosting {game} for {n} player as {name} ({fingerprint}).",
        "Hosting {game} for {n} players as {name} ({fingerprint}).",
        n,
    )
    say(hosting.format(game=g.title, n=n, name=seat_name, fingerprint=identity.fingerprint))
    if private:
        say(_("Not announced on the local network (--private): only players with the code can join."))
    if table is not None:
        rules = rules_in(g, i18n.language())
        outcome = run_table(say, g.title, rules, ascii, table, invite_file, log, host_game, plan)
    else:
        report = LineReport(ui, human, invite_file)
        outcome = run_seat(say, host_game, plan, report, log=log)
    extra: dict[str, object] | None = {"short_codes": codes.opened} if mailbox is not None else None
    finish_game(outcome, log, as_json, ui, human, extra=extra)


def _valid_advertise(text: str) -> bool:
    from fairdeal.net.invite import valid_host

    try:
        parse_endpoint(text)
    except ValueError:
        return valid_host(text)
    return True
