"""Command-line options shared by the commands that play a game (play, host, join)."""

from __future__ import annotations

from pathlib import Path

import click

log_option = click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the game log here (default: your data directory).",
)
json_option = click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the result as one JSON object at the end (the game itself goes to stderr).",
)
ascii_option = click.option("--ascii", is_flag=True, help="Plain text: cards as 7H, QS (C D H S), no colour.")
rule_options = click.option(
    "--option", "options", multiple=True, metavar="NAME=VALUE", help="A rule option of the game."
)
name_option = click.option("--name", default=None, help="Your name at the table.")
plain_option = click.option(
    "--plain",
    is_flag=True,
    help="Line mode instead of the full-screen table (also when not on a terminal, or TERM=dumb).",
)
