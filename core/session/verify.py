"""Check a whole game log: signatures, chain, proofs, shuffles, every move, the result.

:func:`verify_log` replays the log as a silent observer (every entry checked as a
seat would check it), then, once the audit has opened every shuffle, replays the
game again knowing every card, so a move that broke a rule nobody could see at
the table (a renege from a hidden hand) is found and named.

The verdict is ``fair``, ``cheating`` (a seat and an entry are named) or
``undecided`` (the log is cut short, the game was aborted, reveals are missing).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError, FairdealError, RemoteProtocolError
from ..rules import Game, Result
from ._knowledge import REPLAYED
from .envelope import decode_envelope
from .header import PROTOCOL, Header
from .logfile import parse_log
from .session import Session

FAIR, CHEATING, UNDECIDED = "fair", "cheating", "undecided"
EXIT = {FAIR: 0, CHEATING: 1, UNDECIDED: 2}


@dataclass(frozen=True, slots=True)
class Finding:
    """Something wrong or missing: who (a seat, or None), where (an entry number, or None), what."""

    seat: int | None
    entry: int | None
    reason: str

    def __str__(self) -> str:
        parts = []
        if self.seat is not None:
            parts.append(f"seat {self.seat}")
        if self.entry is not None:
            parts.append(f"entry {self.entry}")
        return f"{', '.join(parts)}: {self.reason}" if parts else self.reason


@dataclass(frozen=True)
class Report:
    verdict: str
    entries: int
    header: Header | None = None
    result: Result | None = None
    findings: tuple[Finding, ...] = ()
    checked: tuple[str, ...] = field(default_factory=tuple)

    @property
    def exit_code(self) -> int:
        return EXIT[self.verdict]

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {
            "verdict": self.verdict,
            "game": self.header.game if self.header else None,
            "entries": self.entries,
            "winner": r.winner if r else None,
            "scores": list(r.scores) if r else None,
            "reason": r.reason if r else None,
            "findings": [{"seat": f.seat, "entry": f.entry, "reason": f.reason} for f in self.findings],
            "checked": list(self.checked),
        }


def _other_protocol(entry: bytes) -> str | None:
    """Why a log made by another version of the protocol cannot be checked here, if it was."""
    try:
        body = decode_envelope(entry).body
    except RemoteProtocolError:
        return None
    protocol = body.get("protocol") if isinstance(body, dict) else None
    if type(protocol) is int and protocol != PROTOCOL:
        return f"the log was written with protocol {protocol}; this fairdeal checks protocol {PROTOCOL}"
    return None


def read_header(entry: bytes) -> Header:
    """The header of a log's first entry (format checks only)."""
    env = decode_envelope(entry)
    return Header.from_body(env.game_id, env.body)


def verify_log(data: bytes, resolve: Callable[[str], Game]) -> Report:
    """Verify a log's bytes; ``resolve`` finds the game plugin named in the header."""
    parsed = parse_log(data)
    entries = parsed.entries
    if not entries:
        return Report(UNDECIDED, 0, findings=(Finding(None, None, parsed.problem or "the log is empty"),))
    other = _other_protocol(entries[0])
    if other is not None:
        return Report(UNDECIDED, len(entries), findings=(Finding(None, 0, other),))
    try:
        header = read_header(entries[0])
    except RemoteProtocolError as exc:
        return Report(CHEATING, len(entries), findings=(Finding(0, 0, f"bad header: {exc.reason}"),))
    try:
        game = resolve(header.game)
    except ConfigError as exc:
        return Report(UNDECIDED, len(entries), header, findings=(Finding(None, None, str(exc)),))
    observer = Session(game, None)
    for i, entry in enumerate(entries):
        try:
            observer.receive(entry)
        except RemoteProtocolError as exc:
            return Report(
                CHEATING,
                len(entries),
                header,
                observer.result,
                (Finding(exc.seat, i, exc.reason),),
                _checked(i),
            )
        except FairdealError as exc:
            return Report(
                CHEATING,
                len(entries),
                header,
                observer.result,
                (Finding(None, i, str(exc)),),
                _checked(i),
            )
    checked = _checked(len(entries))
    verdict = observer.verdict
    if verdict is not None and not verdict.fair:
        # The same findings every seat reported at the end of the game: a bad shuffle pass,
        # a card that traces to another, or a move that breaks the rules with every card known.
        return Report(
            CHEATING,
            len(entries),
            header,
            observer.result,
            tuple(_audit_finding(f, entries) for f in verdict.findings),
            checked,
        )
    a = observer.aborted
    if a is not None and a.evidence is not None:
        # The abort carries an entry the blamed seat signed for a place where the log holds another
        # of its own (the session checked it): two signed entries for one sequence number.
        place = decode_envelope(a.evidence).seq
        reason = f"signed two different entries for entry {place} (equivocation; the other is in the abort)"
        return Report(
            CHEATING, len(entries), header, observer.result, (Finding(a.blame, place, reason),), checked
        )
    missing = _missing(observer, parsed.problem)
    if missing is not None:
        return Report(UNDECIDED, len(entries), header, observer.result, (missing,), checked)
    return Report(FAIR, len(entries), header, observer.result, (), (*checked, REPLAYED))


def _checked(upto: int) -> tuple[str, ...]:
    return (f"{upto} entries: signatures, hash chain, sequence, every proof",)


def _missing(observer: Session, problem: str) -> Finding | None:
    if observer.aborted is not None:
        a = observer.aborted
        return Finding(a.blame, observer.seq - 1, f"the game was aborted: {a.reason}")
    if observer.phase == "done":
        return Finding(None, None, problem) if problem else None
    w = observer.waiting()
    where = f"; {problem}" if problem else ""
    if observer.result is None:
        what = "the log ends before the game is over"
    else:
        what = "the log ends before the audit is complete"
    owed = f" (waiting on seat {w.seat} for {w.what})" if w else ""
    return Finding(None, None, f"{what}{owed}{where}")


_PASS = re.compile(r"shuffle round (\d+), pass (\d+)")


def _audit_finding(f: Any, entries: tuple[bytes, ...]) -> Finding:
    """An audit finding, pointed at its log entry (a move's, or the shuffle pass it names)."""
    if f.entry is not None:
        return Finding(f.seat, f.entry, f.reason)
    entry = None
    m = _PASS.search(str(f.where))
    if m is not None and f.seat is not None:
        rnd = int(m.group(1))
        for i, raw in enumerate(entries):
            env = decode_envelope(raw)
            if env.seat == f.seat and env.kind == "deck.shuffle" and env.body.get("round") == rnd:
                entry = i
                break
    return Finding(f.seat, entry, f"{f.where}: {f.reason}")
