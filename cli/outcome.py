"""The end of a game as the commands report it: the ``--json`` object and the summary.

:func:`result_object` is the machine-readable result (its keys are a public contract).
:func:`summary` is the same end in words, for people: the result and why, the scores
and the match standing, what the audit found (or exactly what failed and who), and
the log with how to verify or replay it. :func:`summary_lines` gives it as plain
lines, :func:`print_summary` through a :class:`~fairdeal.cli.console.UI` with colour.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fairdeal.core.session.session import Session

if TYPE_CHECKING:
    from .console import UI

#: Styles of summary lines (plain output ignores them).
HEAD, GOOD, BAD, WARN, DIM, PLAIN = "bold", "bold green", "bold red", "yellow", "dim", ""


def verdict_word(session: Session) -> str:
    """``fair`` or ``cheating`` from the audit; ``undecided`` when there was no complete audit."""
    if session.verdict is None:
        return "undecided"
    return "fair" if session.verdict.fair else "cheating"


def result_object(
    session: Session, seat_kinds: list[str], log: Path | None, error: str | None = None
) -> dict[str, Any]:
    """The JSON object that ``play --json``, ``host --json`` and ``join --json`` print.

    ``error`` says why this seat's game ended early when it did (None otherwise).
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
        "aborted": {"blame": a.blame, "reason": a.reason} if a else None,
        "log": str(log) if log else None,
        "error": error,
    }


def _who(session: Session, seat: int | None, you: int | None) -> str:
    """``Bob (seat 1)``, ``Alice (seat 0, you)``, or ``an unknown seat``."""
    if seat is None:
        return "an unknown seat"
    names = [s.name for s in session.header.seats]
    if not 0 <= seat < len(names):
        return f"seat {seat}"
    mark = ", you" if seat == you else ""
    return f"{names[seat]} (seat {seat}{mark})"


_SELF: Any = object()  # "the session's own seat"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def summary(
    session: Session, log: Path | None, *, ascii: bool = False, you: int | None = _SELF
) -> list[tuple[str, str]]:
    """The end of a game as (text, style) lines; ``ascii`` avoids non-ASCII marks.

    ``you`` is the seat of the person reading (default: the session's seat; None when
    nobody here plays, e.g. bots only).
    """
    if you is _SELF:
        you = session.seat
    out: list[tuple[str, str]] = []
    r = session.result
    a = session.aborted
    names = [s.name for s in session.header.seats]
    ok, ko, dash, dot = ("OK", "!!", "-", ",") if ascii else ("✔", "✘", "—", " ·")
    if a is not None:
        blame = f" {dash} {_who(session, a.blame, you)} is blamed" if a.blame is not None else ""
        out.append((_sentence(f"The game was stopped before its end{blame}: {a.reason}"), BAD))
    elif r is not None:
        if r.winner is None:
            out.append((_sentence(f"No winner: {r.reason}"), HEAD))
        elif r.winner == you:
            out.append((_sentence(f"You win ({names[r.winner]}): {r.reason}"), GOOD))
        else:
            out.append((_sentence(f"{names[r.winner]} wins: {r.reason}"), HEAD))
        scores = f"{dot} ".join(
            f"{n}{' (you)' if i == you else ''} {s}"
            for i, (n, s) in enumerate(zip(names, r.scores, strict=True))
        )
        out.append((f"Scores: {scores}", PLAIN))
        if r.standing:
            out.append((f"Standing: {r.standing}", PLAIN))
    v = session.verdict
    if v is not None and v.fair:
        out.append((f"{ok} Fair game: every shuffle proven, every move checked with every card known.", GOOD))
    elif v is not None:
        out.append((f"{ko} CHEATING FOUND by the audit:", BAD))
        for f in v.findings:
            out.append((f"  {_who(session, f.seat, you)} at {f.where}: {f.reason}", BAD))
    elif a is not None:
        out.append(
            ("Not audited: the game stopped before its final reveal (every shuffle in it was proven).", WARN)
        )
    else:
        out.append(
            ("The final reveal did not complete: the moves were not checked with every card known.", WARN)
        )
    if log is not None:
        q = shlex.quote(str(log))
        out.append((f"Log: {log}", PLAIN))
        out.append((f"  check it:   fairdeal verify {q}", DIM))
        out.append((f"  replay it:  fairdeal replay {q}", DIM))
    return out


def summary_lines(
    session: Session, log: Path | None, *, ascii: bool = False, you: int | None = _SELF
) -> list[str]:
    """The end of a game in plain words, one string a line."""
    return [text for text, _ in summary(session, log, ascii=ascii, you=you)]


def print_summary(ui: UI, session: Session, log: Path | None, *, you: int | None = _SELF) -> None:
    """Print the end of a game under a "Game over" rule (``you``: as for :func:`summary`)."""
    ui.blank()
    ui.rule("Game over")
    for text, style in summary(session, log, ascii=ui.ascii, you=you):
        # Paths and commands stay whole, to be copied.
        ui.say(text, style, wrap=not text.lstrip().startswith(("Log: ", "check it:", "replay it:")))
