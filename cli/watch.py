"""``fairdeal watch``: follow a game as a watcher, live, seeing what everyone may see and no more.

A watcher receives the game's log from its first entry and checks every entry as a silent
observer (as ``fairdeal verify`` does); its own log of the game verifies like a player's.
It never writes an entry, never holds the game up, and may leave at any time.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import click

from fairdeal.core.session import Event, MoveMade
from fairdeal.core.session.session import Session
from fairdeal.i18n import N_
from fairdeal.i18n import gettext as _
from fairdeal.net import WatchPlan, watch_game
from fairdeal.net.invite import Endpoint
from fairdeal.storage import load_identity

from .chronicle import Chronicle
from .console import UI, wants_table
from .flags import ascii_option, connect_timeout_option, json_option, log_option, look_option, plain_option
from .lan import pick
from .main import cli, friendly_errors, load_registry
from .netlines import LineReport
from .netseat import (
    SeatLog,
    finish_game,
    make_ui,
    run_seat,
    run_table,
    table_player,
)
from .render import table_lines
from .shortcodes import mailbox_option, mailbox_url, read_code


class Spectator:
    """Line mode for a watcher: every move as it is made, the public table whenever a turn begins."""

    def __init__(self, ui: UI) -> None:
        self.ui = ui
        self.chronicle: Chronicle | None = None
        self.moved = False

    def observe(self, session: Session, events: Sequence[Event]) -> None:
        if self.chronicle is None:
            self.chronicle = Chronicle(None)
        self.chronicle.update(session, events)
        for entry in self.chronicle.completed(force=session.finished):
            self.ui.say(entry.words(), indent=2)
        self.moved = self.moved or any(isinstance(e, MoveMade) for e in events)
        w = session.waiting()
        if self.moved and (w is None or w.decision):
            self.moved = False
            view = session.view()
            if view is not None:
                names = session.header.names
                table = session.game.table_view(view, None)
                lines = table_lines(table, None, lambda seat: names[seat], self.ui.width - 4, self.ui.ascii)
                self.ui.print(*lines, indent=4, wrap=False)

    def show_end(self, session: Session) -> None:
        pass

    def close(self) -> None:
        self.ui.close()


@cli.command()
@click.argument("pieces", metavar="[CODE]", nargs=-1)
@log_option
@connect_timeout_option
@mailbox_option
@look_option
@json_option
@ascii_option
@plain_option
@friendly_errors
def watch(
    pieces: tuple[str, ...],
    log_path: Path | None,
    connect_timeout: float,
    mailbox_text: str | None,
    look_seconds: float,
    as_json: bool,
    ascii: bool,
    plain: bool,
) -> None:
    """Watch a game from its invite CODE: the public table, live, and a log that verifies.

    You see what every player may see (no hidden card, ever), from the first entry of the
    game, checked as you go; you never hold the game up and may leave at any time
    (Ctrl-C). With no CODE, the games announced on the local network are listed to pick
    from. The host may refuse watchers (fairdeal host --watchers 0).

    Exit status: 0 the game was played to its end; 1 it was aborted or cut short;
    2 it could not be watched.

    \b
    Examples:
      fairdeal watch fd1:aeaqaab7...
      fairdeal watch 7-brave-otter    a short code (one use: the host shows the next)
      fairdeal watch                  pick a game on the local network
    """
    ui = make_ui(ascii, as_json)
    say = ui.say
    extra: tuple[Endpoint, ...] = ()
    code = " ".join(pieces) or None  # a long code a terminal wrapped may come pasted in pieces
    if code is None:
        found = pick(ui, look_seconds, watching=True)
        invite, extra = found.invite, found.addresses
        watching = _("Watching {game} hosted by {host} ({fingerprint}) ...")
        say(watching.format(game=found.game, host=found.host_name, fingerprint=found.fingerprint))
    else:
        invite = read_code(code, mailbox_url(mailbox_text), say)
        say(_("Watching the game at {address} ...").format(address=invite.address))
    reg = load_registry()
    log = SeatLog(log_path, suffix="watch", lock=False)
    table = table_player(wants_table(plain, as_json), watching=True)
    report = LineReport(ui, source=N_("the invite") if code else N_("the announcement"))
    spectator = Spectator(ui if not as_json else UI(ascii=ascii, file=sys.stderr, status=False))
    report.watcher = spectator
    plan = WatchPlan(
        invite, load_identity()[0], reg.game, open_log=log.open, connect_timeout=connect_timeout,
        extra_direct=extra,
    )  # fmt: skip
    if table is not None:
        outcome = run_table(say, "fairdeal", "", ascii, table, None, log, watch_game, plan)
    else:
        outcome = run_seat(say, watch_game, plan, report, log=log)
    finish_game(outcome, log, as_json, ui, None, resumable=False, you=None)


__all__ = ["Spectator"]
