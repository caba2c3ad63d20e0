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
from fairdeal.i18n import N_, ngettext
from fairdeal.i18n import gettext as _
from fairdeal.net import events as ev

from .outcome import BAD, DIM, HEAD, PLAIN, WARN, kept_whole, log_lines, resume_command, summary

if TYPE_CHECKING:
    from .console import UI

Lines = list[tuple[str, str]]

#: Said of every game that stopped before its end: what was checked already, and what waits
#: (marked for the catalog, said as ``_(CHECKED_SO_FAR)``).
CHECKED_SO_FAR = N_(
    "Every shuffle so far was proven; moves are checked once every card is known, at the end."
)
#: Said of a game that stopped for good before its end.
NOT_AUDITED = N_("Not audited: it stopped before the final reveal (every shuffle was proven).")


@dataclass(frozen=True)
class Ending:
    """The end as one end says it: ``title`` (the box's, the rule's) and the ``lines``
    (text, style)."""

    title: str
    lines: Lines


def refusal_ending(reason: str, hint: str | None) -> Ending:
    """The host would not let this end in: its words, and what to do."""
    lines: Lines = [(_("The host refused: {reason}.").format(reason=reason), BAD)]
    if hint:
        lines.append((hint, PLAIN))
    return Ending(_("Refused"), lines)


def _going_on(log: Path | None, compact: bool, when: str) -> Lines:
    """How this seat goes on ``when`` it can (``later``, ``host``: when the host does, ``back``: once
    the host is back): the resume command (in a box, the "go on" line below)."""
    if log is None:
        return []
    if compact:
        said = {
            "later": _("To go on later, run the “go on” command below."),
            "host": _("To go on when the host does, run the “go on” command below."),
            "back": _("To go on once the host is back, run the “go on” command below."),
        }
        return [(said[when], PLAIN)]
    head = {
        "later": _("To go on later:"),
        "host": _("To go on when the host does:"),
        "back": _("To go on once the host is back:"),
    }
    return [(head[when], PLAIN), (f"  {resume_command(log)}", DIM)]


def _cause(ended: ev.GameEnded, session: Session, log: Path | None, compact: bool) -> tuple[str, Lines]:
    """The title and the first lines of a game that stopped before its end: why, how to go on."""
    watching = session.seat is None
    n = session.seq
    can = ended.resumable and not watching

    def then(when: str) -> Lines:
        return _going_on(log, compact, when) if can else []

    match ended.how:
        case "left" if watching:
            return _("You stopped watching"), [
                (
                    ngettext(
                        "You stopped watching after {n} entry.",
                        "You stopped watching after {n} entries.",
                        n,
                    ).format(n=n),
                    HEAD,
                )
            ]
        case "left" if session.seat == 0:
            left = ngettext(
                "You left the game after {n} entry: the others were told, and keep their seats.",
                "You left the game after {n} entries: the others were told, and keep their seats.",
                n,
            )
            others = _("The others go on with  fairdeal resume  then (or join with the same code).")
            return _("You left"), [
                (left.format(n=n), HEAD),
                *then("later"),
                *([(others, PLAIN)] if can else []),
            ]
        case "left" if can:  # nobody was told (the host was away): the seat goes on later
            left = ngettext(
                "You left the game after {n} entry, while the host was away.",
                "You left the game after {n} entries, while the host was away.",
                n,
            )
            return _("You left"), [(left.format(n=n), HEAD), *then("later")]
        case "left":
            left = ngettext(
                "You left the game after {n} entry: the others were told; it stops here for everyone.",
                "You left the game after {n} entries: the others were told; it stops here for everyone.",
                n,
            )
            return _("You left"), [(left.format(n=n), HEAD)]
        case "host left" if watching:
            return _("The host left"), [
                (_("The host left the game: it stops here."), HEAD),
                (_("If it goes on later, watch again with the same code."), PLAIN),
            ]
        case "host left":
            lines = [(_("The host left the game: it stops here, and your seat is kept."), HEAD)]
            return _("The host left"), lines + then("host")
        case "host lost":
            lines = [(_host_lost(ended.reason), HEAD)]
            if watching:
                lines.append((_("Watch again with the same code once the host is back."), PLAIN))
            return _("Host lost"), lines + then("back")
        case "refused":
            why = ended.reason or _("the host refused")
            return _("Stopped"), [(_("The game stopped here: {reason}.").format(reason=why), BAD)]
        case _:
            why = ended.reason or _("it was stopped")
            return _("Stopped"), [
                (_("The game ended early: {reason}.").format(reason=why), HEAD),
                *then("later"),
            ]


def _host_lost(reason: str | None) -> str:
    """Why the host was lost, as a sentence: the network layer's words when they say it (``lost the
    host (...) and could not reach it again within 30 s``), else said so."""
    if not reason:
        return _("Lost the host: it could not be reached.")
    if reason.startswith(("lost the host", "could not reach")):
        return f"{reason[:1].upper()}{reason[1:]}."
    return _("Lost the host: {reason}.").format(reason=reason)


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
        return Ending(_("Adjourned"), lines)
    if ended is None or ended.how in ("finished", "aborted") or session.finished:
        return Ending(_("Game over"), summary(session, log, ascii=ascii, you=you, compact=compact))
    title, lines = _cause(ended, session, log, compact)
    may_go_on = ended.resumable or session.seat is None  # a watcher may see it go on
    lines.append((_(CHECKED_SO_FAR) if may_go_on else _(NOT_AUDITED), WARN))
    resume = ended.resumable and session.seat is not None and compact
    return Ending(title, lines + log_lines(log, compact=compact, resume=resume))


def print_ending(ui: UI, end: Ending) -> None:
    """Print ``end`` under a rule with its title; paths and commands stay whole, to be copied."""
    ui.blank()
    ui.rule(end.title)
    for text, style in end.lines:
        ui.say(text, style, wrap=not kept_whole(text, style))


__all__ = ["CHECKED_SO_FAR", "NOT_AUDITED", "Ending", "ending", "print_ending", "refusal_ending"]
