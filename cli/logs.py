"""``fairdeal verify``, ``fairdeal replay`` and ``fairdeal id``: logs and identity."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

import click

from fairdeal import i18n
from fairdeal.core.cards import Card
from fairdeal.core.errors import ConfigError
from fairdeal.core.rules import GameState
from fairdeal.core.session import EntryAccepted, MoveMade
from fairdeal.core.session.header import Header
from fairdeal.core.session.logfile import is_log, parse_log
from fairdeal.core.session.session import MOVE, Session
from fairdeal.core.session.verify import (
    CHEATING,
    DAMAGED,
    FAIR,
    OTHER_VERSION,
    UNDECIDED,
    Finding,
    read_header,
    verify_log,
)
from fairdeal.core.table import Visibility
from fairdeal.i18n import N_, ngettext
from fairdeal.i18n import gettext as _
from fairdeal.storage import data_dir, identity_path, load_identity

from .chronicle import remarks
from .console import UI
from .main import cli, friendly_errors, load_registry
from .outcome import checked_words
from .render import named, table_lines

#: Exit status of verify and replay for a file that is not a fairdeal log at all (for verify's MORE:
#: neither a log nor evidence kept beside one).
NOT_A_LOG = 3
#: Exit status of verify and replay for a file that cannot be read at all: missing, unreadable, a
#: folder. Not 2 ("undecided": the log was read and settles nothing) nor 3 (the file was read).
CANNOT_READ = 4
#: ``f"{path} is {logfile.NOT_A_LOG}"``, as the catalog has it.
NOT_A_LOG_SENTENCE = N_("{path} is not a fairdeal log (a log begins with the line FDLOG1)")
NOT_EVIDENCE = N_("{path} is neither a fairdeal log nor evidence kept beside one")
_NESTED = N_("{path} is neither a fairdeal log nor evidence kept beside one (its JSON nests too deeply)")
_MORE_HINT = N_("MORE are other players' logs of this game, or the LOG.evidence.json a seat kept.")


def _stop(status: int, message: str, as_json: bool, hint: str = "", **fields: object) -> NoReturn:
    """Say why verify or replay cannot go on, in one line, and exit. ``message`` and ``hint`` are
    messages of the catalog with ``fields`` for their placeholders: the reader's language on the
    terminal, English in ``--json``'s object (it is for programs)."""
    if as_json:
        click.echo(json.dumps({"verdict": None, "error": message.format(**fields)}))
    else:
        click.echo(f"fairdeal: {_(message).format(**fields)}", err=True)
        if hint:
            click.echo(f"  {_(hint)}", err=True)
    sys.exit(status)


def _read(path: Path, as_json: bool = False) -> bytes:
    """The bytes of the file at ``path``; exit status 4 when it cannot be read."""
    try:
        return path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or str(exc)
        _stop(CANNOT_READ, N_("cannot read {path}: {reason}"), as_json, path=path, reason=reason)


def _read_log(path: Path, as_json: bool = False) -> bytes:
    """The bytes of a log; a file that is not one is an error of its own (exit status 3)."""
    data = _read(path, as_json)
    if not is_log(data):
        hint = N_("A game's log is the .fdlog file named at the end of the game.")
        _stop(NOT_A_LOG, NOT_A_LOG_SENTENCE, as_json, hint, path=path)
    return data


def _read_other(path: Path, as_json: bool) -> bytes:
    """Another log of the game, or evidence a seat kept (a JSON object), as verify_log reads it.

    Evidence is parsed here, where its depth is caught, and handed on as flat JSON holding only
    what verify_log takes from it (``entries`` and ``relayed_instead``, text): JSON nested past
    Python's recursion limit raises RecursionError, not ValueError, in ``json.loads``.
    """
    data = _read(path, as_json)
    if is_log(data):
        return data
    try:
        kept = json.loads(data)
    except RecursionError:
        _stop(NOT_A_LOG, _NESTED, as_json, _MORE_HINT, path=path)
    except ValueError:
        kept = None
    if not isinstance(kept, dict):
        _stop(NOT_A_LOG, NOT_EVIDENCE, as_json, _MORE_HINT, path=path)
    listed = kept.get("entries")
    flat: dict[str, Any] = {
        "entries": [h for h in listed if isinstance(h, str)] if isinstance(listed, list) else []
    }
    if isinstance(kept.get("relayed_instead"), str):
        flat["relayed_instead"] = kept["relayed_instead"]
    return json.dumps(flat).encode()


#: verify's line for each verdict (an unknown one is undecided).
_VERIFY_VERDICT = {
    FAIR: N_("FAIR: every signature, shuffle, card and move checks out."),
    CHEATING: N_("CHEATING FOUND:"),
    DAMAGED: N_("DAMAGED OR ALTERED (nobody is proven at fault):"),
    OTHER_VERSION: N_("NOT CHECKED: another version of fairdeal wrote this log:"),
}
_UNDECIDED_VERDICT = N_("UNDECIDED: the log cannot settle the game:")
#: replay's last line for each verdict, with its style.
_REPLAY_VERDICT = {
    FAIR: (N_("Verdict: FAIR — every signature, shuffle, card and move checks out."), "bold green"),
    CHEATING: (N_("Verdict: CHEATING FOUND:"), "bold red"),
    DAMAGED: (N_("Verdict: DAMAGED OR ALTERED — nobody is proven at fault:"), "bold red"),
}
_REPLAY_UNDECIDED = (N_("Verdict: UNDECIDED — the log cannot settle the game:"), "yellow")
#: The verdicts as one word, as --reveal's refusal names them.
_VERDICT_WORDS = {
    FAIR: N_("fair"),
    CHEATING: N_("cheating"),
    DAMAGED: N_("damaged"),
    UNDECIDED: N_("undecided"),
    OTHER_VERSION: N_("other version"),
}


def _finding(f: Finding) -> str:
    """A finding in the reader's words: ``seat 1, entry 14: why`` (the why is the checker's)."""
    if f.seat is not None and f.entry is not None:
        return _("seat {seat}, entry {entry}: {reason}").format(seat=f.seat, entry=f.entry, reason=f.reason)
    if f.seat is not None:
        return _("seat {seat}: {reason}").format(seat=f.seat, reason=f.reason)
    if f.entry is not None:
        return _("entry {entry}: {reason}").format(entry=f.entry, reason=f.reason)
    return f.reason


#: How many of the newest logs verify without a LOG lists.
LOGS_LISTED = 5


def _which_log(as_json: bool) -> NoReturn:
    """``fairdeal verify`` without a LOG: the newest logs of the data folder (each on a line of its
    own, the folder named once), and the command that checks the newest; exit status 2, as click's
    missing argument."""
    folder = data_dir() / "logs"
    if as_json:
        _stop(2, N_("no LOG given; the logs are in {folder}"), as_json, folder=folder)
    logs = sorted(folder.glob("*.fdlog"), key=_mtime, reverse=True) if folder.is_dir() else []
    say = lambda text: click.echo(text, err=True)  # noqa: E731
    if not logs:
        say(_("Which log? fairdeal verify LOG checks a game's log; no game has left one yet."))
        say(_("Every game you play leaves its log in {folder}.").format(folder=folder))
        sys.exit(2)
    say(_("Which log? The newest in {folder}:").format(folder=folder))
    for log in logs[:LOGS_LISTED]:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(_mtime(log)))
        say(f"  {when}  {log.name}")
    more = len(logs) - LOGS_LISTED
    if more > 0:
        say("  " + ngettext("and {n} older log", "and {n} older logs", more).format(n=more))
    say(_("Check one with its path; the newest:"))
    say(f"  fairdeal verify {logs[0]}")
    sys.exit(2)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


@cli.command()
@click.argument("log", type=click.Path(path_type=Path), required=False)
@click.argument("more", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--json", "as_json", is_flag=True, help=N_("Print the report as one JSON object (never translated).")
)
@friendly_errors
def verify(log: Path | None, more: tuple[Path, ...], as_json: bool) -> None:
    """Check a game log: signatures, the hash chain, every proof, every shuffle,
    every move under the rules with every card known, and the result.

    MORE are other players' logs of the same game, or evidence a seat kept beside
    its log (LOG.evidence.json): two different entries the host placed at one point
    of the game prove that it showed players different logs.

    Exit status: 0 fair; 1 cheating found (the seat whose signature proves it and
    the entry are named), or the log is damaged or was altered (nobody is named);
    2 cannot be decided (the log is cut short, the game was aborted); 3 a file is
    not a fairdeal log (MORE: neither a log nor evidence); 4 a file cannot be read
    (missing, unreadable, a folder).
    Every game you play leaves its log in your data folder; the end of the game
    prints its path.

    \b
    Examples:
      fairdeal verify ~/.local/share/fairdeal/logs/ecarte-1a2b3c4d5e6f.fdlog
      fairdeal verify game.fdlog --json        the report for a program
      fairdeal verify mine.fdlog theirs.fdlog  two players' logs of one game
    """
    if log is None:
        _which_log(as_json)
    data = _read_log(log, as_json)
    others = [_read_other(p, as_json) for p in more]
    reg = load_registry()
    report = verify_log(data, reg.game, others)
    if as_json:
        click.echo(json.dumps(report.to_json()))
        sys.exit(report.exit_code)
    h = report.header
    if h is not None:
        seats = zip(h.names, h.seats, strict=True)
        click.echo(f"{h.game}: {', '.join(f'{name} ({s.fingerprint})' for name, s in seats)}")
        installed = reg.games.get(h.game)
        if installed is not None and (installed.distribution, installed.version) != (
            h.distribution,
            h.version,
        ):
            click.echo(
                _("note: the game was played with {played}; checked with {installed}").format(
                    played=f"{h.distribution} {h.version}",
                    installed=f"{installed.distribution} {installed.version}",
                )
            )
    click.echo(ngettext("{n} entry read.", "{n} entries read.", report.entries).format(n=report.entries))
    for c in report.checked:
        click.echo(_("checked: {what}").format(what=checked_words(c)))
    r = report.result
    if r is not None and h is not None:
        game = reg.game(h.game) if h.game in reg.games else None  # its words, where it is installed
        who = _("no winner") if r.winner is None else _("winner {name}").format(name=h.names[r.winner])
        scores = ", ".join(map(str, r.scores))
        click.echo(
            _("result: {who} — {reason}; scores {scores}").format(
                who=who, reason=named(i18n.game_again(game, r.reason), h.names), scores=scores
            )
        )
        if r.standing:
            click.echo(
                _("standing: {standing}").format(standing=named(i18n.game_again(game, r.standing), h.names))
            )
    click.echo(_(_VERIFY_VERDICT.get(report.verdict, _UNDECIDED_VERDICT)))
    for f in report.findings:
        click.echo(f"  {_finding(f)}")
    sys.exit(report.exit_code)


@cli.command()
@click.argument("log", type=click.Path(path_type=Path))
@click.option(
    "--step/--no-step", default=None, help=N_("Wait for Enter after each move (default: on a terminal).")
)
@click.option("--ascii", is_flag=True, help=N_("Plain ASCII cards."))
@click.option(
    "--reveal", is_flag=True, help=N_("Show every hand after each move (a finished game that verifies fair).")
)
@friendly_errors
def replay(log: Path, step: bool | None, ascii: bool, reveal: bool) -> None:
    """Step through a finished game entry by entry, showing the table as everyone saw it.

    Each move is shown in words with the public table after it, and the entries between
    moves (keys, shuffles, decryption shares, the final reveal) in one line; on a terminal,
    press Enter for the next one. The log is checked as it is read, and the replay ends
    with the verdict "fairdeal verify" gives. With --reveal, after a finished game whose
    final reveal opened every card a seat saw, every hand is shown too.

    Exit status: as for verify (0 fair, 1 cheating, 2 undecided, 3 not a log, 4 unreadable).

    \b
    Examples:
      fairdeal replay game.fdlog                 one move at a time
      fairdeal replay game.fdlog --no-step       the whole game at once
      fairdeal replay game.fdlog --no-step --reveal --ascii | less
    """
    data = _read_log(log)
    reg = load_registry()
    report = verify_log(data, reg.game)
    parsed = parse_log(data)
    if not parsed.entries:
        nothing = _("no entries")
        raise ConfigError(f"{log}: {parsed.problem or nothing}")
    header = read_header(parsed.entries[0])
    game = reg.game(header.game)
    interactive = sys.stdin.isatty() if step is None else step
    ui = UI(ascii=ascii, status=False)
    if reveal and report.verdict != FAIR:
        verdict = _(_VERDICT_WORDS.get(report.verdict, report.verdict))
        raise ConfigError(
            _("--reveal needs a finished game whose audit is fair; this log is {verdict}").format(
                verdict=verdict
            )
        )
    # The hands: the final reveal of a finished game that verifies fair opened every card a seat
    # saw alone, to anyone who reads the log. The reader's own hand is shown then (as they saw it),
    # every hand with --reveal; else the replay says how to see them.
    traced: dict[int, Card] = {}
    if report.verdict == FAIR:
        audit = Session(game, None)
        for entry in parsed.entries:
            audit.receive(entry)
        traced = dict(audit.deck.revealed_cards())
    reader = _readers_seat(header)
    hands: tuple[int, ...] = ()
    if traced:
        hands = tuple(range(len(header.names))) if reveal else () if reader is None else (reader,)
    observer = Session(game, None)
    ui.rule(_("{game} — replay").format(game=game.title))
    ui.say(
        ", ".join(_("seat {seat} {name}").format(seat=i, name=name) for i, name in enumerate(header.names))
    )
    if interactive:
        ui.say(_("Press Enter for the next move (Ctrl-C stops)."), "dim")
    pending: list[tuple[int, str, int]] = []  # (entry, kind, seat) of the entries that are not moves
    drawn = True  # the table has been drawn since the last move
    before = observer.view()
    for i, entry in enumerate(parsed.entries):
        events = observer.receive(entry)
        for ev in events:
            if isinstance(ev, EntryAccepted) and ev.kind != MOVE:
                pending.append((i, ev.kind, ev.seat))
            elif isinstance(ev, MoveMade):
                _flush_entries(ui, header, pending)
                ui.blank()
                ui.say(f"[{i}] {named(ev.text, header.names)}", "bold")
                drawn = False
        after = observer.view()
        if before is None and after is not None and _has_hands(after):  # dealt: which hands show
            ui.say(_hands_note(bool(traced), reveal, reader, header), "dim")
        if before is not None and after is not None:  # what the game itself did, as the story says it
            said = remarks(game, before, after, header.names, None)
            if said:
                _flush_entries(ui, header, pending)
            for line in said:
                ui.say(line, "italic", indent=2)
        before = after
        w = observer.waiting()
        if not drawn and (w is None or w.decision):
            # Drawn once the cards the move turned up have been revealed.
            _flush_entries(ui, header, pending)
            view = observer.view()
            if view is not None:
                table = game.table_view(view, None)
                names = lambda seat: header.names[seat]  # noqa: E731
                ui.print(*table_lines(table, None, names, ui.width - 4, ui.ascii), indent=4, wrap=False)
                if hands:
                    _show_hands(ui, view, header, traced, hands)
            drawn = True
            if interactive:
                click.prompt("", default="", show_default=False, prompt_suffix="")
    _flush_entries(ui, header, pending)
    if observer.result is not None:
        r = observer.result
        ui.blank()
        ui.rule(_("End"))
        reason = named(i18n.game_again(game, r.reason), header.names).rstrip(".")
        ui.say(_("{reason}. Scores {scores}.").format(reason=reason, scores=", ".join(map(str, r.scores))))
        if r.standing:
            ui.say(named(i18n.game_again(game, r.standing), header.names))
    if parsed.problem:
        ui.say(f"({parsed.problem})", "yellow")
    ui.blank()
    verdict, style = _REPLAY_VERDICT.get(report.verdict, _REPLAY_UNDECIDED)
    ui.say(_(verdict), style)
    for f in report.findings:
        ui.say(f"  {_finding(f)}")
    sys.exit(report.exit_code)


def _has_hands(view: GameState) -> bool:
    """Whether the game deals hands: zones each seat sees alone (Snatch! has none)."""
    return any(spec.visibility is Visibility.OWNER for spec in view.table.specs.values())


def _readers_seat(header: Header) -> int | None:
    """The seat of the person replaying (their identity signed it), if exactly one is theirs."""
    try:
        ident, _created = load_identity(create=False)
    except (ConfigError, OSError):
        return None
    mine = [i for i, seat in enumerate(header.seats) if seat.fingerprint == ident.fingerprint]
    return mine[0] if len(mine) == 1 else None


def _hands_note(opened: bool, reveal: bool, reader: int | None, header: Header) -> str:
    """What the replay says of the hands at its start: which it shows, how to see the others."""
    if not opened:
        return _(
            "The hands stay hidden, as the table showed them: only the final reveal of a finished game "
            "that verifies fair opens them."
        )
    if reveal:
        return _("Every hand is shown, as the final reveal opened it.")
    if reader is not None:
        return _("Your hand ({name}) is shown, as you saw it; --reveal shows every hand.").format(
            name=header.names[reader]
        )
    return _(
        "The hands are hidden, as the table showed them; --reveal shows every hand (the final reveal "
        "opened them)."
    )


def _show_hands(
    ui: UI, view: GameState, header: Header, traced: dict[int, Card], seats: tuple[int, ...]
) -> None:
    """The cards held in the hands (OWNER zones) of ``seats``, as the final reveal opened them."""
    table = view.table
    for spec in table.specs.values():
        if spec.visibility is not Visibility.OWNER or spec.owner not in seats:
            continue
        cards = [traced[t] for t in table.tokens(spec.name) if t in traced]
        shown = " ".join(c.text(ui.ascii) for c in cards) if cards else _("empty")
        where = spec.title or spec.name
        ui.say(
            _("{name}'s {zone}: {cards}").format(name=header.names[spec.owner], zone=where, cards=shown),
            indent=4,
        )


#: How replay names the entries between moves, grouped by kind, with the seats that wrote them.
_ENTRY_WORDS = {
    "header": N_("the table set by the host"),
    "deck.key": N_("deck keys with proofs from {names}"),
    "deck.shuffle": N_("shuffles by {names}"),
    "deck.shares": N_("decryption shares with proofs from {names}"),
    "deck.random-commit": N_("random-choice commitments from {names}"),
    "deck.random-reveal": N_("random values revealed by {names}"),
    "deck.leave": N_("secrets published on leaving by {names}"),
    "deck.final-reveal": N_("final reveals of the cards each saw alone from {names}"),
    "resign": N_("resigned by {names}"),
    "abort": N_("the game stopped by the host"),
    "end": N_("the result signed by {names}"),
}
#: An entry of a kind replay does not know.
_OTHER_ENTRY = N_("{kind} from {names}")


def _flush_entries(ui: UI, header: Header, pending: list[tuple[int, str, int]]) -> None:
    """One dim line for the entries between two moves: ``[14-16] decryption shares from A, B``."""
    if not pending:
        return
    first, last = pending[0][0], pending[-1][0]
    where = f"[{first}]" if first == last else f"[{first}-{last}]"
    groups: list[tuple[str, list[str]]] = []
    for _entry, kind, seat in pending:
        if not groups or groups[-1][0] != kind:
            groups.append((kind, []))
        name = header.names[seat]
        if name not in groups[-1][1]:
            groups[-1][1].append(name)
    parts = []
    for kind, names in groups:
        words = _(_ENTRY_WORDS[kind]) if kind in _ENTRY_WORDS else _(_OTHER_ENTRY)
        parts.append(words.format(kind=kind, names=", ".join(names)))
    ui.say(f"{where} " + "; ".join(parts), "dim")
    pending.clear()


@cli.command("id")
@friendly_errors
def identity() -> None:
    """Print your identity's fingerprint (made on first use and kept in your config folder),
    and the name the others see at the table.

    Friends see this fingerprint in the lobby and in invite codes; it names you in logs.

    \b
    Example:
      fairdeal id
    """
    from .seats import table_name

    ident, created = load_identity()
    if created:
        click.echo(_("Created a new identity in {path}").format(path=identity_path()))
    click.echo(ident.fingerprint)
    seen = _("The others see you as {name} (--name NAME changes it).").format(name=table_name(None))
    click.echo(seen, err=True)  # stdout stays the fingerprint alone, for scripts
