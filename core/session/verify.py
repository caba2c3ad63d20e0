"""Check a whole game log: signatures, chain, proofs, shuffles, every move, the result.

:func:`verify_log` replays the log as a silent observer (every entry checked as a
seat would check it: every shuffle pass's proof, every share's proof, every move as
far as the table could see), then, once the final reveal has opened every card some
seat saw alone, replays the game again knowing them all, so a move that broke a rule
nobody could see at the table (a renege from a hidden hand) is found and named.

The verdict is ``fair``, ``cheating`` (a seat and an entry are named) or
``undecided`` (the log is cut short or the game was aborted). Every shuffle pass in
a log was proven as it came, so even an undecided log says which shuffles are fair.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError, FairdealError, RemoteProtocolError
from ..rules import Game, Result
from ._knowledge import REPLAYED
from .envelope import FORMAT_VERSION, decode_envelope
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
    except RemoteProtocolError as exc:
        if "format version" in exc.reason:
            return (
                f"the log was written by another version of fairdeal ({exc.reason}; "
                f"this one reads format {FORMAT_VERSION})"
            )
        return None
    protocol = body.get("protocol") if isinstance(body, dict) else None
    if type(protocol) is int and protocol != PROTOCOL:
        return f"the log was written with protocol {protocol}; this fairdeal checks protocol {PROTOCOL}"
    return None


def read_header(entry: bytes) -> Header:
    """The header of a log's first entry (format checks only); every refusal says "bad header"."""
    try:
        env = decode_envelope(entry)
    except RemoteProtocolError as exc:
        raise RemoteProtocolError(f"bad header: {exc.reason}", seat=0) from None
    return Header.from_body(env.game_id, env.body)


def verify_log(data: bytes, resolve: Callable[[str], Game[Any]]) -> Report:
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
        return Report(CHEATING, len(entries), findings=(Finding(0, 0, exc.reason),))
    try:
        game = resolve(header.game)
    except ConfigError as exc:
        return Report(UNDECIDED, len(entries), header, findings=(Finding(None, None, str(exc)),))
    observer = Session(game, None)
    for i, entry in enumerate(entries):
        try:
            observer.receive(entry)
        except FairdealError as exc:
            # A bad entry (a shuffle pass whose proof fails, a forged share, an illegal move...)
            # names its seat when a peer is to blame; everything before it was checked.
            seat, reason = (
                (exc.seat, exc.reason) if isinstance(exc, RemoteProtocolError) else (None, str(exc))
            )
            return Report(
                CHEATING,
                len(entries),
                header,
                observer.result,
                (Finding(seat, i, reason),),
                _checked(i, observer),
            )
    checked = _checked(len(entries), observer)
    verdict = observer.verdict
    if verdict is not None and not verdict.fair:
        # The same findings every seat reported at the end of the game: a move that breaks the
        # rules with every card known, or a card that decrypts to none of the deck.
        return Report(
            CHEATING,
            len(entries),
            header,
            observer.result,
            tuple(
                Finding(f.seat, f.entry, f"{f.where}: {f.reason}" if f.entry is None else f.reason)
                for f in verdict.findings
            ),
            checked,
        )
    a = observer.aborted
    if a is not None and a.evidence is not None:
        # The abort carries an entry the blamed seat signed answering a point of the log where the
        # log holds another of its own (the session checked it): two signed entries for one obligation.
        assert a.blame is not None
        place = observer.written_at(a.blame, decode_envelope(a.evidence).anchor)
        reason = f"signed two different entries for entry {place} (equivocation; the other is in the abort)"
        return Report(
            CHEATING, len(entries), header, observer.result, (Finding(a.blame, place, reason),), checked
        )
    missing = _missing(observer, parsed.problem)
    if missing:
        return Report(UNDECIDED, len(entries), header, observer.result, tuple(missing), checked)
    return Report(FAIR, len(entries), header, observer.result, (), (*checked, REPLAYED))


def _checked(upto: int, observer: Session) -> tuple[str, ...]:
    return (f"{upto} entries: signatures, hash chain, sequence, every proof", _shuffles(observer))


def _shuffles(observer: Session) -> str:
    """Which shuffles the log proves fair: every pass in it was proven as it came."""
    rounds = observer.deck.shuffle_rounds() if observer.phase not in ("header", "keys") else []
    if not rounds:
        return "no shuffle in the log"
    done = [r for r in rounds if r.done]
    passes = sum(len(r.passed) for r in rounds)
    text = (
        f"shuffles proven fair: {passes} pass{'es' if passes != 1 else ''}, "
        f"{len(done)} complete round{'s' if len(done) != 1 else ''} (every pass in the log)"
    )
    for r in rounds:
        if not r.done:
            text += f"; round {r.index} stops after {len(r.passed)} of its {len(r.participants)} passes"
    return text


def _missing(observer: Session, problem: str) -> list[Finding]:
    """Why the log cannot settle the game, and what stays undecided (empty: nothing)."""
    blamed: list[Finding] = []
    if observer.aborted is not None:
        a = observer.aborted
        why = Finding(a.blame, observer.seq - 1, f"the game was aborted: {a.reason}")
        # every other seat the host blamed (all those an obligation waited on, say)
        blamed = [Finding(s, observer.seq - 1, f"also blamed: {a.reason}") for s in a.blamed[1:]]
    elif observer.phase == "done":
        return [Finding(None, None, problem)] if problem else []
    else:
        w = observer.waiting()
        where = f"; {problem}" if problem else ""
        if observer.result is None:
            what = "the log ends before the game is over"
        else:
            what = "the log ends before the final reveal is complete"
        owing = observer.owing()
        who = " and ".join(f"seat {o.seat}" for o in owing)
        owed = f" (waiting on {who} for {w.what})" if w else ""
        why = Finding(None, None, f"{what}{owed}{where}")
    undecided = Finding(
        None,
        None,
        "undecided: whether every move was legal with every card known "
        "(the cards only one seat saw were never opened to all)",
    )
    return [why, *blamed, undecided]
