"""Command-line options shared by the commands that play or follow a game (play, host, join, watch)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from fairdeal.i18n import N_
from fairdeal.i18n import gettext as _

log_option = click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=N_("Write the game log here (default: your data directory)."),
)
json_option = click.option(
    "--json",
    "as_json",
    is_flag=True,
    help=N_("Print the result as one JSON object at the end (the game itself goes to stderr)."),
)
ascii_option = click.option(
    "--ascii", is_flag=True, help=N_("Plain text: cards as 7H, QS (C D H S), no colour.")
)
rule_options = click.option(
    "--option", "options", multiple=True, metavar="NAME=VALUE", help=N_("A rule option of the game.")
)
name_option = click.option(
    "--name",
    default=None,
    help=N_("Your name at the table, kept for the next games (default: the one kept, else your login name)."),
)
plain_option = click.option(
    "--plain",
    is_flag=True,
    help=N_("Line mode instead of the full-screen table (also when not on a terminal, or TERM=dumb)."),
)


LOOK_SECONDS = 3.0
"""How long ``lan``, ``join`` and ``watch`` look for games on the local network by default."""


def positive_seconds(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """A click callback: ``value`` must be a positive number of seconds (or None)."""
    if value is not None and not value > 0:
        raise click.BadParameter(_("must be a positive number of seconds"))
    return value


connect_timeout_option = click.option(
    "--connect-timeout",
    type=float,
    default=15.0,
    show_default=True,
    callback=positive_seconds,
    help=N_("Seconds to wait for the host to answer (directly or through its relay)."),
)
look_option = click.option(
    "--wait",
    "look_seconds",
    type=click.FloatRange(0.5, 60),
    default=LOOK_SECONDS,
    show_default=True,
    help=N_("With no code: seconds to look for games on the local network."),
)
heartbeat_option = click.option(
    "--heartbeat",
    type=click.FloatRange(0.05, 60),
    default=None,
    hidden=True,
    help=N_("Seconds between pings on the links (tests; a peer silent for three is dropped)."),
)


def keepalive(heartbeat: float | None) -> Any:
    """The links' :class:`~fairdeal.net.link.Keepalive` for ``--heartbeat`` (None: the default)."""
    from fairdeal.net.link import Keepalive

    return Keepalive() if heartbeat is None else Keepalive.every(heartbeat)
