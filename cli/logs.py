"""``fairdeal verify``, ``fairdeal replay`` and ``fairdeal id``: logs and identity."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from fairdeal.core.errors import ConfigError
from fairdeal.core.session.logfile import parse_log
from fairdeal.core.session.session import MoveMade, Session
from fairdeal.core.session.verify import CHEATING, FAIR, read_header, verify_log
from fairdeal.storage import identity_path, load_identity

from .main import cli, friendly_errors, load_registry
from .terminal import line_text


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None


@cli.command()
@click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@friendly_errors
def verify(log: Path, as_json: bool) -> None:
    """Check a game log: signatures, the hash chain, every proof, every shuffle,
    every move under the rules with every card known, and the result.

    Exit status: 0 fair; 1 cheating or corruption found (the seat and the entry are
    named); 2 cannot be decided (the log is cut short, reveals are missing).

    \b
    Example:
      fairdeal verify ~/.local/share/fairdeal/logs/ecarte-1a2b3c4d5e6f.fdlog
    """
    reg = load_registry()
    report = verify_log(_read(log), reg.game)
    if as_json:
        click.echo(json.dumps(report.to_json()))
        sys.exit(report.exit_code)
    h = report.header
    if h is not None:
        click.echo(f"{h.game}: {', '.join(f'{s.name} ({s.fingerprint})' for s in h.seats)}")
    click.echo(f"{report.entries} entries read.")
    for c in report.checked:
        click.echo(f"checked: {c}")
    r = report.result
    if r is not None and h is not None:
        who = "no winner" if r.winner is None else f"winner {h.seats[r.winner].name}"
        click.echo(f"result: {who} — {r.reason}; scores {', '.join(map(str, r.scores))}")
    if report.verdict == FAIR:
        click.echo("FAIR: every signature, shuffle, card and move checks out.")
    elif report.verdict == CHEATING:
        click.echo("CHEATING OR CORRUPTION FOUND:")
    else:
        click.echo("UNDECIDED: the log cannot settle the game:")
    for f in report.findings:
        click.echo(f"  {f}")
    sys.exit(report.exit_code)


@cli.command()
@click.argument("log", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--step/--no-step", default=None, help="Wait for Enter after each move (default: on a terminal)."
)
@click.option("--ascii", is_flag=True, help="Plain ASCII cards.")
@friendly_errors
def replay(log: Path, step: bool | None, ascii: bool) -> None:
    """Step through a finished game, move by move, showing the table as everyone saw it.

    \b
    Example:
      fairdeal replay game.fdlog --no-step
    """
    reg = load_registry()
    parsed = parse_log(_read(log))
    if not parsed.entries:
        raise ConfigError(f"{log}: {parsed.problem or 'no entries'}")
    header = read_header(parsed.entries[0])
    game = reg.game(header.game)
    interactive = sys.stdin.isatty() if step is None else step
    observer = Session(game, None)
    click.echo(f"{game.title}: " + ", ".join(f"seat {i} {s.name}" for i, s in enumerate(header.seats)))
    shown = True  # the table has been drawn since the last move
    for i, entry in enumerate(parsed.entries):
        events = observer.receive(entry)
        for ev in events:
            if isinstance(ev, MoveMade):
                click.echo(f"\n[{i}] {ev.text}")
                shown = False
        w = observer.waiting()
        if not shown and (w is None or w.decision):
            # Drawn once the cards the move turned up have been revealed.
            view = observer.view()
            if view is not None:
                for line in game.render(view, None):
                    click.echo("    " + line_text(line, ascii))
            shown = True
            if interactive:
                click.prompt("", default="", show_default=False, prompt_suffix="")
    if observer.result is not None:
        click.echo(f"\nEnd: {observer.result.reason}. Scores {', '.join(map(str, observer.result.scores))}.")
    if parsed.problem:
        click.echo(f"({parsed.problem})")


@cli.command("id")
@friendly_errors
def identity() -> None:
    """Print your identity's fingerprint (made on first use and kept in your config folder).

    Friends see this fingerprint in the lobby and in invite codes; it names you in logs.

    \b
    Example:
      fairdeal id
    """
    ident, created = load_identity()
    if created:
        click.echo(f"Created a new identity in {identity_path()}")
    click.echo(ident.fingerprint)
