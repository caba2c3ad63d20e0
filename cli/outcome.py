"""The end of a game as the commands report it: the ``--json`` object and the summary.

:func:`result_object` is the machine-readable result (its keys are a public contract).
:func:`summary` is the same end in words, for people: the result and why, the scores
and the match standing, what the audit found (or exactly what failed and who), and
the log with how to verify or replay it. :func:`summary_lines` gives it as plain
lines, :func:`print_summary` through a :class:`~fairdeal.cli.console.UI` with colour.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fairdeal import i18n
from fairdeal.core.session.session import Session
from fairdeal.i18n import gettext as _
from fairdeal.i18n import ngettext

from .phrases import and_list
from .phrases import you as you_word
from .render import named

if TYPE_CHECKING:
    from .console import UI

#: Styles of summary lines (plain output ignores them). ``PATH``: a line with a path, never wrapped
#: (to be copied whole); a line of ``DIM`` that begins with two spaces is a command, never wrapped.
HEAD, GOOD, BAD, WARN, DIM, PLAIN, PATH = "bold", "bold green", "bold red", "yellow", "dim", "", "none"


def kept_whole(text: str, style: str) -> bool:
    """Whether a summary line is a path or a command, which stay whole to be copied."""
    return style == PATH or (text.startswith("  ") and style == DIM)


def verdict_word(session: Session) -> str:
    """``fair`` or ``cheating`` from the audit; ``undecided`` when there was no complete audit."""
    if session.verdict is None:
        return "undecided"
    return "fair" if session.verdict.fair else "cheating"


def result_object(
    session: Session,
    seat_kinds: list[str],
    log: Path | None,
    error: str | None = None,
    *,
    adjourned: bool = False,
) -> dict[str, Any]:
    """The JSON object that ``play --json``, ``host --json``, ``join --json`` (and ``resume``,
    ``watch``) print.

    ``error`` says why this seat's game ended early when it did (None otherwise);
    ``adjourned``: every player agreed to stop here and go on later.
    """
    r = session.result
    a = session.aborted
    return {
        "game": session.game.name,
        "seats": seat_kinds,
        "names": [s.name for s in session.header.seats],
        "winner": r.winner if r else None,
        "scores": list(r.scores) if r else None,
        "reason": r.reason if r else (f"aborted: {a.reason}" if a else None),
        "standing": r.standing if r else "",
        "verdict": verdict_word(session),
        "findings": [str(f) for f in session.verdict.findings] if session.verdict else [],
        "aborted": {"blame": a.blame, "blamed": list(a.blamed), "reason": a.reason} if a else None,
        "log": str(log) if log else None,
        "error": error,
        "adjourned": adjourned,
    }


#: What an audit says it checked (``fairdeal.core.session.verify``: the report, and --json, keep the
#: English), as :func:`checked_words` finds it.
_ENTRIES_CHECKED = re.compile(r"(\d+) entries: signatures, hash chain, sequence, every proof")
_SHUFFLES_CHECKED = re.compile(
    r"shuffles proven fair: (\d+) pass(?:es)?, (\d+) complete rounds? \(every pass in the log\)"
)
_ROUND_STOPS = re.compile(r"round (\d+) stops after (\d+) of its (\d+) passes")


def checked_words(text: str) -> str:
    """One thing an audit checked (English, as the report holds it) in the language spoken; a text
    it does not know, as it is."""
    if text == "every move replayed with every card known":
        return _("every move replayed with every card known")
    if text == "no shuffle in the log":
        return _("no shuffle in the log")
    if m := _ENTRIES_CHECKED.fullmatch(text):
        n = int(m.group(1))
        said = ngettext(
            "{n} entry: signatures, hash chain, sequence, every proof",
            "{n} entries: signatures, hash chain, sequence, every proof",
            n,
        )
        return said.format(n=n)
    head, *rounds = text.split("; ")
    m = _SHUFFLES_CHECKED.fullmatch(head)
    stops = [_ROUND_STOPS.fullmatch(r) for r in rounds]
    if m is None or None in stops:
        return text
    passes, done = int(m.group(1)), int(m.group(2))
    proven = ngettext("shuffles proven fair: {n} pass", "shuffles proven fair: {n} passes", passes)
    rounds_done = ngettext(
        ", {n} complete round (every pass in the log)", ", {n} complete rounds (every pass in the log)", done
    )
    out = [proven.format(n=passes) + rounds_done.format(n=done)]
    for stop in stops:
        assert stop is not None
        index, passed, of = (int(g) for g in stop.groups())
        out.append(
            ngettext(
                "round {round} stops after {passed} of its {n} pass",
                "round {round} stops after {passed} of its {n} passes",
                of,
            ).format(round=index, passed=passed, n=of)
        )
    return _("; ").join(out)


def _who(session: Session, seat: int | None, you: int | None) -> str:
    """``Bob (seat 1)``, ``Alice (seat 0, you)``, or ``an unknown seat``."""
    if seat is None:
        return _("an unknown seat")
    names = session.header.names
    if not 0 <= seat < len(names):
        return _("seat {n}").format(n=seat)
    if seat == you:
        return _("{name} (seat {n}, you)").format(name=names[seat], n=seat)
    return _("{name} (seat {n})").format(name=names[seat], n=seat)


_SELF: Any = object()  # "the session's own seat"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def fairdeal_command() -> str:
    """How to run fairdeal again: ``fairdeal`` when that is on the PATH, else this program's full path."""
    me = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if me is None or me.name != "fairdeal":
        return "fairdeal"
    found = shutil.which("fairdeal")
    try:
        if found is not None and os.path.samefile(found, me):
            return "fairdeal"
    except OSError:
        pass
    return shlex.quote(str(me.resolve()))


def resume_command(log: Path | str, profile_name: str | None = None) -> str:
    """The command that goes on with the game of ``log``: with the identity the seat was played
    with, the profile ``profile_name`` (default: the one in use; ``--profile NAME`` if any).
    A ``str`` stands for the log as is (``LOG``), not quoted."""
    from fairdeal import storage

    named = profile_name if profile_name is not None else storage.profile()
    profile = f" --profile {named}" if named else ""
    shown = log if isinstance(log, str) else shlex.quote(str(log))
    return f"{fairdeal_command()}{profile} resume {shown}"


def _at_home(path: Path) -> str:
    """``path`` as a person reads it: under the home folder as ``~/...``."""
    home = Path.home()
    return f"~/{path.relative_to(home)}" if path.is_relative_to(home) and path != home else str(path)


def _table_scores(session: Session) -> tuple[int, ...] | None:
    """The scores the table showed last (for a resignation, whose result scores nothing)."""
    view = session.view()
    seat = session.seat
    if view is None:
        return None
    try:
        return session.game.table_view(view, seat).scores
    except Exception:  # a plugin's description must never break the end of a game
        return None


def log_lines(log: Path | None, *, compact: bool = False, resume: bool = False) -> list[tuple[str, str]]:
    """The log and the commands that read it (``resume``: and go on with it). ``compact``: for a
    box of 80 columns, the path named once and the commands with ``LOG`` in its place."""
    if log is None:
        return []
    cmd = fairdeal_command()
    q = "LOG" if compact else shlex.quote(str(log))
    out = [
        (
            _("Log (LOG): {path}").format(path=_at_home(log))
            if compact
            else _("Log: {path}").format(path=log),
            PATH,
        )
    ]
    commands = [(_("go on:"), resume_command(q))] if resume else []
    commands += [(_("check it:"), f"{cmd} verify {q}"), (_("replay it:"), f"{cmd} replay {q}")]
    column = max(len(label) for label, _command in commands) + 2
    out.extend((f"  {label.ljust(column)}{command}", DIM) for label, command in commands)
    return out


def adjourned_lines(
    session: Session, log: Path | None, *, resumable: bool, compact: bool = False
) -> list[tuple[str, str]]:
    """An adjourned game: nothing is lost, and how to go on (``resumable``: this end keeps what it
    needs to, beside ``log``) — in place of a result and an audit, which come at the real end.
    ``compact``: as :func:`summary` says."""
    out = [
        (
            ngettext(
                "The game is adjourned after {n} entry: nothing is lost.",
                "The game is adjourned after {n} entries: nothing is lost.",
                session.seq,
            ).format(n=session.seq),
            HEAD,
        )
    ]
    going_on = session.seat is not None and resumable and log is not None
    if session.seat is None:
        out.append((_("The players will go on later; watch again with the same code when they do."), PLAIN))
    elif going_on and compact:
        out.append((_("To go on, every player runs  fairdeal resume  (or joins with the same code)."), PLAIN))
    elif going_on and log is not None:
        how = _(
            "To go on, every player runs  fairdeal resume  (the others may also join with the same code):"
        )
        out.append((how, PLAIN))
        out.append((f"  {resume_command(log)}", DIM))
    out.append((_("Every shuffle so far was proven; moves are checked once every card is known."), PLAIN))
    return out + log_lines(log, compact=compact, resume=going_on and compact)


def summary(
    session: Session,
    log: Path | None,
    *,
    ascii: bool = False,
    you: int | None = _SELF,
    adjourned: bool = False,
    resumable: bool = True,
    compact: bool = False,
) -> list[tuple[str, str]]:
    """The end of a game as (text, style) lines; ``ascii`` avoids non-ASCII marks.

    ``you`` is the seat of the person reading (default: the session's seat; None when
    nobody here plays, e.g. bots only). Seats are named as at the table ("You" for the
    reader); after a resignation the scores are the ones the table showed. An ``adjourned``
    game is said as such (:func:`adjourned_lines`). ``compact``: for the table's end box (80
    columns), the log's path said once and the commands with ``LOG`` in its place; the
    summary printed in the terminal spells them out.
    """
    if adjourned:
        return adjourned_lines(session, log, resumable=resumable, compact=compact)
    if you is _SELF:
        you = session.seat
    out: list[tuple[str, str]] = []
    r = session.result
    a = session.aborted
    ok, ko, dash, dot = ("OK", "!!", "-", ",") if ascii else ("✔", "✘", "—", " ·")
    if a is not None:
        out.append((_stopped(session, a.blamed, a.reason, you, dash), BAD))
    elif r is not None:
        out.extend(_result_lines(session, you, dash, dot))
    v = session.verdict
    if v is not None and v.fair:
        fair = _("Fair game: every shuffle proven, every move checked with every card known.")
        out.append((f"{ok} {fair}", GOOD))
    elif v is not None:
        found = _("CHEATING FOUND by the audit:")
        out.append((f"{ko} {found}", BAD))
        for f in v.findings:
            where = _("{who} at {where}: {reason}").format(
                who=_who(session, f.seat, you), where=f.where, reason=f.reason
            )
            out.append((f"  {where}", BAD))
    elif a is not None:
        out.append((_("Not audited: it stopped before the final reveal (every shuffle was proven)."), WARN))
    else:
        out.append((_("The final reveal did not complete: moves not checked with every card known."), WARN))
    return out + log_lines(log, compact=compact)


def _stopped(session: Session, blamed: tuple[int, ...], reason: str, you: int | None, dash: str) -> str:
    """Why a game stopped before its end: a seat left it (on purpose: no fault to find), or who is
    blamed and why."""
    who = and_list([_who(session, s, you) for s in blamed])
    if reason.startswith("left the game") and len(blamed) == 1:
        why = reason[len("left the game") :].strip()
        if blamed[0] == you:
            text = _("The game stopped before its end: You left it {why}").format(why=why)
        else:
            text = _("The game stopped before its end: {who} left it {why}").format(who=who, why=why)
        return _sentence(text.strip())
    if not blamed:
        return _sentence(_("The game was stopped before its end: {reason}").format(reason=reason))
    if len(blamed) == 1:
        text = _("The game was stopped before its end {dash} {who} is blamed: {reason}")
    else:
        text = _("The game was stopped before its end {dash} {who} are blamed: {reason}")
    return _sentence(text.format(dash=dash, who=who, reason=reason))


def _result_lines(session: Session, you: int | None, dash: str, dot: str) -> list[tuple[str, str]]:
    """Who won and why, the scores, the match's standing."""
    r = session.result
    assert r is not None
    names = session.header.names
    text = i18n.game_again(session.game, r.reason)
    first = re.match(rf"seat {r.winner}\b[:,—]?\s+", text) if r.winner is not None else None
    if first is not None:  # "Bob wins: reached 5 points", not "Bob wins: Bob ..." (also "seat 1: ...")
        text = text[first.end() :]
    reason = named(text, names, you)
    if reason.endswith(" resigned"):  # the session's words for a resignation: "Bob resigned"
        who = reason.removesuffix(" resigned")
        mine = you is not None and 0 <= you < len(names) and who == names[you]
        reason = _("You resigned") if mine else _("{name} resigned").format(name=who)
    out: list[tuple[str, str]] = []
    if r.winner is None:
        out.append((_sentence(_("No winner: {reason}").format(reason=reason)), HEAD))
    elif r.winner == you:
        out.append((_sentence(_("You win: {reason}").format(reason=reason)), GOOD))
    else:
        out.append((_sentence(_("{name} wins: {reason}").format(name=names[r.winner], reason=reason)), HEAD))
    shown = r.scores
    label = _("Scores")
    if r.reason.endswith(" resigned") and not any(r.scores):
        table = _table_scores(session)
        if table is not None and len(table) == len(names):
            shown, label = table, _("Scores when the game stopped")
    scores = f"{dot} ".join(
        f"{you_word() if i == you else n}: {s}" for i, (n, s) in enumerate(zip(names, shown, strict=True))
    )
    out.append((f"{label} {dash} {scores}", PLAIN))
    if r.standing:
        standing = named(i18n.game_again(session.game, r.standing), names, you)
        out.append((_("Standing: {standing}").format(standing=standing), PLAIN))
    return out


def summary_lines(
    session: Session, log: Path | None, *, ascii: bool = False, you: int | None = _SELF
) -> list[str]:
    """The end of a game in plain words, one string a line."""
    return [text for text, _ in summary(session, log, ascii=ascii, you=you)]


def print_summary(
    ui: UI,
    session: Session,
    log: Path | None,
    *,
    you: int | None = _SELF,
    adjourned: bool = False,
    resumable: bool = True,
) -> None:
    """Print the end of a game under a "Game over" rule, or "Adjourned" (as for :func:`summary`)."""
    ui.blank()
    ui.rule(_("Adjourned") if adjourned else _("Game over"))
    for text, style in summary(
        session, log, ascii=ui.ascii, you=you, adjourned=adjourned, resumable=resumable
    ):
        ui.say(text, style, wrap=not kept_whole(text, style))  # paths and commands stay whole, to be copied
