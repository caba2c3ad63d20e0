"""``fairdeal play``: a local game in one process over the real protocol."""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import click
import trio

from fairdeal import i18n
from fairdeal.core.deck import CheckedProofs
from fairdeal.core.errors import ConfigError
from fairdeal.core.identity import Identity
from fairdeal.core.options import parse_assignments
from fairdeal.core.rng import Rng, SeededRng, SystemRng
from fairdeal.core.rules import rules_in
from fairdeal.core.session import EntryAccepted, Event
from fairdeal.core.session.header import Header, SeatInfo
from fairdeal.core.session.session import Session
from fairdeal.i18n import N_
from fairdeal.i18n import gettext as _
from fairdeal.net.driver import Agent
from fairdeal.net.local import play_local
from fairdeal.storage import LogWriter, default_log_path, load_identity, unique_log_path

from .console import UI, run_interruptible, wants_table
from .flags import ascii_option, json_option, log_option, name_option, plain_option, rule_options
from .linemode import TerminalAgent
from .main import cli, complete_game, complete_seat, friendly_errors, load_registry
from .outcome import print_summary, result_object
from .seats import bot_agent, parse_seats, table_name


@cli.command()
@click.argument("game", shell_complete=complete_game)
@click.option(
    "--seat",
    "seats",
    multiple=True,
    metavar="KIND",
    shell_complete=complete_seat,
    help=N_("human, bot or bot:NAME; once per seat, in seat order (default: you and bots)."),
)
@rule_options
@click.option(
    "--seed", type=int, default=None, help=N_("Fix every seat's randomness (tests and benchmarks only).")
)
@log_option
@name_option
@json_option
@ascii_option
@plain_option
@friendly_errors
def play(
    game: str,
    seats: Sequence[str],
    options: Sequence[str],
    seed: int | None,
    log_path: Path | None,
    name: str | None,
    as_json: bool,
    ascii: bool,
    plain: bool,
) -> None:
    """Play GAME here against bots: every seat runs the full protocol in this process.

    On a terminal you play at a full-screen table: pick a card (arrows, its name like
    "8c", or a click), then where it goes (its key or a click); F1 shows the keys. With
    --plain (or when not on a terminal) you see the table as lines and your moves
    numbered: type a number, the first words of a move ("play 7h") or a card in it
    ("7h"); "help" lists the commands, "quit" resigns. At the end you get the result,
    the audit's verdict and the path of the game's log (check it with "fairdeal verify").

    \b
    Examples:
      fairdeal play ecarte                           you against the default bot
      fairdeal play spite-malice --seat human --seat bot
      fairdeal play ecarte --seat human --seat bot --option target=7
      fairdeal play snatch --seat bot --seat bot:random --seat bot --json
    """
    if log_path is not None and log_path.exists():
        raise ConfigError(_("the log file {path} exists already; choose another --log").format(path=log_path))
    reg = load_registry()
    entry = reg.entry(game)
    g = entry.game
    kinds = parse_seats(seats, game, reg, fill_to=g.min_players)
    config = g.config(len(kinds), dict(parse_assignments(options)))
    master: Rng = SeededRng(seed) if seed is not None else SystemRng()

    ui = UI(ascii=ascii)
    identities: list[Identity] = []
    infos: list[SeatInfo] = []
    agents: list[Agent] = []
    human: TerminalAgent | None = None
    table = any(k.human for k in kinds) and wants_table(plain, as_json)
    player: Any = None
    if table:
        from .tui.player import TablePlayer

        player = TablePlayer()
    for i, kind in enumerate(kinds):
        if kind.human:
            ident = (
                Identity.generate(master.fork(f"identity-{i}")) if seed is not None else load_identity()[0]
            )
            if player is not None:
                agents.append(player)
            else:
                # With --json, stdout carries only the result: the game goes to stderr, no waiting line.
                human = TerminalAgent(ui if not as_json else UI(ascii=ascii, file=sys.stderr, status=False))
                agents.append(human)
            infos.append(SeatInfo(table_name(name), ident.public_key, "human"))
        else:
            ident = Identity.generate(master.fork(f"identity-{i}") if seed is not None else None)
            agents.append(bot_agent(kind, game, reg, master.fork(f"bot-{i}") if seed is not None else None))
            infos.append(SeatInfo(f"Bot {i} ({kind.bot})", ident.public_key, kind.label))
        identities.append(ident)
    game_id = master.fork("game-id").bytes(16)
    header = Header(
        game_id, g.name, entry.plugin, entry.distribution, entry.version, dict(config.options), tuple(infos)
    )
    # Every seat is in this process: each proof is checked once, by the first seat to receive it.
    checked = CheckedProofs()
    sessions = [Session(g, i, identities[i], master.fork(f"seat-{i}"), checked) for i in range(len(kinds))]
    path = log_path if log_path is not None else unique_log_path(default_log_path(g.name, game_id))
    log = LogWriter(path)
    watch = next((i for i, k in enumerate(kinds) if k.human), 0)

    def observe(session: Session, events: Sequence[Event]) -> None:
        if session.seat == 0:
            for ev in events:
                if isinstance(ev, EntryAccepted):
                    log.append(ev.data)
        if session.seat == watch:
            if human is not None:
                human.observe(session, events)
            elif player is not None:
                player.observe(session, events)

    def interrupted() -> None:
        if human is not None:
            human.close(flush=False)
        stopped = _("stopped (Ctrl-C); the game did not finish. Its log so far: {path}").format(path=path)
        click.echo(f"\nfairdeal: {stopped}", err=True)
        again = _("A game against bots cannot be resumed; replay it with  fairdeal replay {path}")
        click.echo("  " + again.format(path=path), err=True)
        sys.exit(130)

    if player is not None:
        outcomes = _play_at_table(
            g, player, lambda: play_local(header, sessions, agents, observe), ascii, path, watch, interrupted
        )
        log.close()
        print_summary(ui, outcomes[watch].session, path, you=watch)
        return
    try:
        outcomes = run_interruptible(
            lambda: trio.run(play_local, header, sessions, agents, observe), interrupted
        )
        if human is not None:
            human.show_end(outcomes[watch].session)
    finally:
        log.close()
        if human is not None:
            human.close()
    mine = outcomes[watch].session
    if as_json:
        click.echo(json.dumps(result_object(mine, [k.label for k in kinds], path)))
    else:
        print_summary(ui, mine, path, you=watch if human is not None else None)


def _play_at_table(
    game: Any,
    player: Any,
    run: Callable[[], Awaitable[Any]],
    ascii: bool,
    path: Path,
    watch: int,
    interrupted: Callable[[], None],
) -> Any:
    """Play in the full-screen table; return the seats' outcomes (Ctrl-C calls ``interrupted``)."""
    from .endings import Ending
    from .outcome import summary
    from .tui.app import TableApp

    rules = rules_in(game, i18n.language())
    app = TableApp(game.title, player, run, ascii=ascii, rules_text=rules)

    def finish() -> Ending:
        assert player.session is not None
        return Ending(_("Game over"), summary(player.session, path, ascii=ascii, you=watch, compact=True))

    app.finish = finish
    app.run()
    if app.interrupted or app.outcome is None:
        interrupted()
    return app.outcome.unwrap()
