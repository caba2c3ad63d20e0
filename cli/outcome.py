"""The end of a game as the commands report it: the ``--json`` object and the plain summary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fairdeal.core.session.session import Session


def verdict_word(session: Session) -> str:
    """``fair`` or ``cheating`` from the audit; ``undecided`` when there was no complete audit."""
    if session.verdict is None:
        return "undecided"
    return "fair" if session.verdict.fair else "cheating"


def result_object(session: Session, seat_kinds: list[str], log: Path | None) -> dict[str, Any]:
    """The JSON object that ``play --json``, ``host --json`` and ``join --json`` print."""
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
    }


def summary_lines(session: Session, log: Path | None) -> list[str]:
    """The end of a game in plain words."""
    lines: list[str] = []
    r = session.result
    a = session.aborted
    names = [s.name for s in session.header.seats]
    if a is not None:
        who = f" ({names[a.blame]}, seat {a.blame})" if a.blame is not None else ""
        lines.append(f"The game was aborted{who}: {a.reason}.")
    elif r is not None:
        if r.winner is None:
            lines.append(f"No winner: {r.reason}.")
        else:
            lines.append(f"{names[r.winner]} wins: {r.reason}.")
        lines.append("Scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, r.scores, strict=True)))
        if r.standing:
            lines.append(r.standing)
    v = session.verdict
    if v is not None and v.fair:
        lines.append("Fair game: every shuffle and every card checked.")
    elif v is not None:
        lines.append("CHEATING FOUND by the audit:")
        lines.extend(f"  {f}" for f in v.findings)
    elif a is None:
        lines.append("The audit did not complete.")
    if log is not None:
        lines.append(f"Log: {log}")
        lines.append(f"  check it:  fairdeal verify {log}")
        lines.append(f"  replay it: fairdeal replay {log}")
    return lines
