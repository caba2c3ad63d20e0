"""``fairdeal lan``: the games announced on the local network; and picking one for ``fairdeal join``."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence

import click
import trio
from rich.live import Live
from rich.table import Table
from rich.text import Text

from fairdeal.core.errors import ConfigError
from fairdeal.i18n import N_
from fairdeal.i18n import gettext as _
from fairdeal.net.mdns import LanGame, browse

from .console import UI
from .flags import LOOK_SECONDS, ascii_option, json_option
from .main import cli, friendly_errors

LAN_ENV = "FAIRDEAL_LAN"
"""``off``: no mDNS at all (neither announcing nor looking); else a comma-separated list of
this machine's IPv4 addresses to use; unset or ``all``: every interface."""


def lan_interfaces(bind: str | None = None) -> tuple[bool, list[str] | None]:
    """Whether mDNS may be used here, and on which interface addresses (None: all).

    A host bound to one IPv4 address announces on that interface only.
    """
    value = os.environ.get(LAN_ENV, "").strip().lower()
    if value in ("off", "no", "none", "0"):
        return False, None
    if value and value != "all":
        return True, [a.strip() for a in value.split(",") if a.strip()]
    if bind and bind not in ("0.0.0.0", "::", "") and ":" not in bind:
        return True, [bind]
    return True, None


def _seats(g: LanGame) -> str:
    taken = f"{g.taken}/{g.seats}"
    return _("{taken} full").format(taken=taken) if g.free <= 0 else taken


def game_lines(games: Sequence[LanGame]) -> list[str]:
    """One line a game, numbered from 1 (what ``join`` asks for)."""
    seats = _("{seats} seats")
    return [
        f"  {i:>2}  {g.game:<13} {g.host_name:<16} {g.fingerprint}  {seats.format(seats=_seats(g)):<12} "
        + ", ".join(str(a) for a in (g.addresses or g.invite.direct)[:2])
        for i, g in enumerate(games, 1)
    ]


def _table(games: Sequence[LanGame], seconds: float) -> Table:
    title = _("Games on the local network (looking for {seconds} s)").format(seconds=f"{seconds:g}")
    t = Table(title=title, title_justify="left")
    t.add_column("#", justify="right")
    t.add_column(_("game"), overflow="fold")
    t.add_column(_("host"), overflow="fold")
    t.add_column(_("fingerprint"), no_wrap=True, min_width=23)  # compared by eye: never cut
    t.add_column(_("seats"), no_wrap=True)
    t.add_column(_("address"), overflow="fold")
    for i, g in enumerate(games, 1):
        where = ", ".join(str(a) for a in (g.addresses or g.invite.direct)[:2])
        t.add_row(str(i), g.game, Text(g.host_name), g.fingerprint, _seats(g), where)
    return t


def look(ui: UI, seconds: float, *, quiet: bool = False) -> list[LanGame]:
    """Look for games for ``seconds`` seconds, showing a live table where the terminal allows."""
    enabled, interfaces = lan_interfaces()
    if not enabled:
        off = _("looking for games on the local network is turned off here ({variable}=off)")
        raise ConfigError(off.format(variable=LAN_ENV))
    live_ok = not quiet and not ui.plain and ui.console.is_terminal

    def bad(instance: str, reason: str) -> None:
        ui.say(
            _("Ignored an announcement ({instance}): {reason}.").format(instance=instance, reason=reason),
            wrap=False,
        )

    async def run() -> list[LanGame]:
        if not live_ok:
            return await browse(seconds, interfaces=interfaces, on_bad=bad)
        with Live(_table([], seconds), console=ui.console, refresh_per_second=4) as live:
            return await browse(
                seconds,
                interfaces=interfaces,
                on_change=lambda games: live.update(_table(games, seconds)),
                on_bad=bad,
            )

    games = trio.run(run)
    if not live_ok and not quiet and games:
        ui.say(_("Games on the local network:"))
        for line in game_lines(games):
            ui.say(line, wrap=False)
    return games


def pick(ui: UI, seconds: float, *, watching: bool = False) -> LanGame:
    """The game the person picks by number from those found on the local network (to join it, or
    with ``watching``, to watch it)."""
    looking = _("No invite code: looking for games on the local network ({seconds} s)...")
    ui.say(looking.format(seconds=f"{seconds:g}"))
    games = look(ui, seconds)
    if not games:  # answers can be slow to come: look a while longer before giving up
        ui.say(_("Nothing yet; looking {seconds} s more...").format(seconds=f"{2 * seconds:g}"))
        games = look(ui, 2 * seconds)
    if not games:
        none = _(
            "no game found on the local network; ask the host for an invite code (fairdeal {command} "
            "CODE), or check that both machines are on the same network and that mDNS is not blocked"
        )
        raise ConfigError(none.format(command="watch" if watching else "join"))
    while True:
        n = len(games)
        try:
            if watching:
                asked = _("Watch which game? (1-{n}, or q to quit) ").format(n=n)
            else:
                asked = _("Join which game? (1-{n}, or q to quit) ").format(n=n)
            answer = ui.ask(asked).strip().lower()
        except EOFError:
            raise ConfigError(_("no game was picked")) from None
        if answer in ("q", "quit"):
            raise ConfigError(_("no game was picked"))
        if answer.isascii() and answer.isdigit() and 1 <= int(answer) <= n:
            return games[int(answer) - 1]
        ui.say(_("Type a number from 1 to {n}.").format(n=n))


@cli.command()
@click.option(
    "--wait",
    "seconds",
    type=click.FloatRange(0.5, 60),
    default=LOOK_SECONDS,
    show_default=True,
    help=N_("Seconds to look for games."),
)
@json_option
@ascii_option
@friendly_errors
def lan(seconds: float, as_json: bool, ascii: bool) -> None:
    """List the games announced on the local network (a table that fills in as games answer).

    Join one with "fairdeal join" (no code): it shows the same list and asks for a number.
    A game being played stays listed (every seat taken) while its host takes watchers:
    watch it with "fairdeal watch" (no code). A host started with --private is not listed.

    \b
    Examples:
      fairdeal lan
      fairdeal lan --wait 10 --json
    """
    ui = UI(ascii=ascii, file=sys.stderr if as_json else None)
    games = look(ui, seconds, quiet=as_json)
    if as_json:
        click.echo(json.dumps([g.json() for g in games]))
    elif not games:
        ui.say(_("No game found on the local network in {seconds} s.").format(seconds=f"{seconds:g}"))
