"""How a network game ended for this end, in words: a title and lines, for both front ends.

The network layer decides the moment (:class:`~fairdeal.net.events.GameEnded`: how the game
ended, why, whether this seat can go on; :class:`~fairdeal.net.events.Refused`: the host would
not let this end in); :func:`ending` says it — the cause first, then how to go on (the
``resume`` command) where this seat can, then the result and the audit where there is one, and
the log. Line mode prints it after the game (:func:`print_ending`); the table shows it in its
end box (compact: the log's path said once, the commands with ``LOG`` in its place).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from fairdeal.core.session.session import Session
from fairdeal.net import events as ev

from .outcome import BAD, DIM, HEAD, PLAIN, WARN, log_lines, resume_command, summary

if TYPE_CHECKING:
    from .console import UI

Lines = list[tuple[str, str]]

#: Said of every game that stopped before its end: what was checked already, and what waits.
CHECKED_SO_FAR = "Every shuffle so far was proven; moves are checked once every card is known, at the end."
#: Said of a game that stopped for good before its end.
NOT_AUDITED = "Not audited: it stopped before the final reveal (every shuffle was proven)."


@dataclass(frozen=True)
class Ending:
    """The end as one end says it: ``title`` (the box's, the rule's) and the ``lines``
    (text, style)."""

    title: str
    lines: Lines


def refusal_ending(reason: str, hint: str | None) -> Ending:
    """The host would not let this end in: its words, and what to do."""
    lines: Lines = [(f"The host refused: {reason}.", BAD)]
    if hint:
        lines.append((hint, PLAIN))
    return Ending("Refused", lines)


def _going_on(log: Path | None, compact: bool, when: str) -> Lines:
    """How this seat goes on ``when`` it can: the resume command (in a box, the "go on" line below)."""
    if log is None:
        return []
    if compact:
        return [(f"To go on {when}, run the “go on” command below.", PLAIN)]
    return [(f"To go on {when}:", PLAIN), (f"  {resume_command(log)}", DIM)]


def _cause(ended: ev.GameEnded, session: Session, log: Path | None, compact: bool) -> tuple[str, Lines]:
    """The title and the first lines of a game that stopped before its end: why, how to go on."""
    watching = session.seat is None
    entries = f"after {session.seq} entries"
    can = ended.resumable and not watching

    def then(when: str) -> Lines:
        return _going_on(log, compact, when) if can else []

    match ended.how:
        case "left" if watching:
            return "You stopped watching", [(f"You stopped watching {entries}.", HEAD)]
        case "left" if session.seat == 0:
            lines = [(f"You left the game {entries}: the others were told, and keep their seats.", HEAD)]
            others = "The others go on with  fairdeal resume  then (or join with the same code)."
            return "You left", [*lines, *then("later"), *([(others, PLAIN)] if can else [])]
        case "left" if can:  # nobody was told (the host was away): the seat goes on later
            lines = [(f"You left the game {entries}, while the host was away.", HEAD)]
            return "You left", lines + then("later")
        case "left":
            return "You left", [
                (f"You left the game {entries}: the others were told; it stops here for everyone.", HEAD)
            ]
        case "host left" if watching:
            return "The host left", [
                ("The host left the game: it stops here.", HEAD),
                ("If it goes on later, watch again with the same code.", PLAIN),
            ]
        case "host left":
            lines = [("The host left the game: it stops here, and your seat is kept.", HEAD)]
            return "The host left", lines + then("when the host does")
        case "host lost":
            why = ended.reason or "lost the host: it could not be reached"
            told = why if why.startswith(("lost the host", "could not reach")) else f"lost the host: {why}"
            lines = [(f"{told[:1].upper()}{told[1:]}.", HEAD)]
            if watching:
                lines.append(("Watch again with the same code once the host is back.", PLAIN))
            return "Host lost", lines + then("once the host is back")
        case "refused":
            return "Stopped", [(f"The game stopped here: {ended.reason or 'the host refused'}.", BAD)]
        case _:
            lines = [(f"The game ended early: {ended.reason or 'it was stopped'}.", HEAD)]
            return "Stopped", lines + then("later")


def ending(
    ended: ev.GameEnded | None,
    session: Session,
    log: Path | None,
    *,
    you: int | None,
    ascii: bool = False,
    compact: bool = False,
) -> Ending:
    """How ``session``'s game ended for this end, as ``ended`` says (None: from the session alone):
    the cause and how to go on, the result and the audit, the log."""
    if ended is not None and ended.how == "adjourned":
        lines = summary(session, log, ascii=ascii, you=you, adjourned=True, resumable=ended.resumable,
                        compact=compact)  # fmt: skip
        return Ending("Adjourned", lines)
    if ended is None or ended.how in ("finished", "aborted") or session.finished:
        return Ending("Game over", summary(session, log, ascii=ascii, you=you, compact=compact))
    title, lines = _cause(ended, session, log, compact)
    may_go_on = ended.resumable or session.seat is None  # a watcher may see it go on
    lines.append((CHECKED_SO_FAR if may_go_on else NOT_AUDITED, WARN))
    resume = ended.resumable and session.seat is not None and compact
    return Ending(title, lines + log_lines(log, compact=compact, resume=resume))


def print_ending(ui: UI, end: Ending) -> None:
    """Print ``end`` under a rule with its title; paths and commands stay whole, to be copied."""
    ui.blank()
    ui.rule(end.title)
    for text, style in end.lines:
        command = text.startswith("  ") and style == DIM  # check it, replay it, resume
        ui.say(text, style, wrap=not (command or text.startswith("Log: ")))


__all__ = ["CHECKED_SO_FAR", "NOT_AUDITED", "Ending", "ending", "print_ending", "refusal_ending"]
