"""Check a whole game log: signatures, chain, proofs, shuffles, every move, the result.

:func:`verify_log` replays the log as a silent observer (every entry checked as a
seat would check it: every shuffle pass's proof, every share's proof, every move as
far as the table could see), then, once the final reveal has opened every card some
seat saw alone, replays the game again knowing them all, so a move that broke a rule
nobody could see at the table (a renege from a hidden hand) is found and named.

The verdict is ``fair``, ``cheating`` (a seat and an entry are named: what its signature
proves), ``damaged`` (an entry is not as the host placed it: the log was damaged or altered
after it was written, and no signature says by whom; nobody is named) or ``undecided`` (the log
is cut short or the game was aborted). Every shuffle pass in a log was proven as it came, so
even an undecided or damaged log says which shuffles are fair up to there.

Other logs of the same game, or evidence a seat kept, can be given too (``others``): every entry
in them that the host placed is checked against this log, and two different entries the host
placed at one point of the log prove that it forked the log (``cheating``, seat 0).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError, FairdealError, RemoteProtocolError
from ..rules import Game, Result
from ._knowledge import REPLAYED
from .envelope import FORMAT_VERSION, Envelope, decode_envelope
from .faults import DamagedEntry, header_host_key
from .header import HOST, PROTOCOLS, Header
from .logfile import MAGIC, parse_log
from .session import Session

FAIR, CHEATING, DAMAGED, UNDECIDED = "fair", "cheating", "damaged", "undecided"
#: A log of an envelope format or log protocol this fairdeal does not read: nothing is checked.
OTHER_VERSION = "other version"
EXIT = {FAIR: 0, CHEATING: 1, DAMAGED: 1, UNDECIDED: 2, OTHER_VERSION: 3}
#: What a damaged entry's finding says first.
DAMAGE = "the log is damaged or altered here (no signature says by whom)"


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
    if type(protocol) is int and protocol not in PROTOCOLS:
        known = " and ".join(str(p) for p in sorted(PROTOCOLS))
        return f"the log was written with protocol {protocol}; this fairdeal checks protocols {known}"
    return None


def read_header(entry: bytes) -> Header:
    """The header of a log's first entry; every refusal says "bad header". A :class:`DamagedEntry`
    when the host it names did not sign and place it (nobody's fault is proven), else a refusal of
    the host's (seat 0): it signed a header that is not one."""
    try:
        env = decode_envelope(entry)
    except RemoteProtocolError as exc:
        raise DamagedEntry(f"bad header: {exc.reason}") from None
    key = header_host_key(env.body)
    if env.seq != 0 or key is None or not env.placed_by(key, env.game_id) or not env.verify(key):
        raise DamagedEntry("bad header: it is not signed and placed by the host it names")
    return Header.from_body(env.game_id, env.body)


def verify_log(data: bytes, resolve: Callable[[str], Game[Any]], others: Sequence[bytes] = ()) -> Report:
    """Verify a log's bytes; ``resolve`` finds the game plugin named in the header.

    ``others``: the bytes of other logs of this game, or of evidence files a seat kept beside its
    log (JSON with hex ``entries``), whose entries the host placed are checked against this log.
    """
    report, observer = _verify_one(data, resolve)
    if observer is None or not others:
        return report
    forks = _forks(observer, [e for blob in others for e in entries_of(blob)])
    if not forks:
        return report
    return Report(
        CHEATING, report.entries, report.header, report.result, (*forks, *report.findings), report.checked
    )


def _verify_one(data: bytes, resolve: Callable[[str], Game[Any]]) -> tuple[Report, Session | None]:
    parsed = parse_log(data)
    entries = parsed.entries
    if not entries:
        problem = parsed.problem or "the log is empty"
        return Report(UNDECIDED, 0, findings=(Finding(None, None, problem),)), None
    other = _other_protocol(entries[0])
    if other is not None:
        return Report(OTHER_VERSION, len(entries), findings=(Finding(None, 0, other),)), None
    try:
        header = read_header(entries[0])
    except DamagedEntry as exc:
        return Report(DAMAGED, len(entries), findings=(Finding(None, 0, f"{DAMAGE}: {exc.reason}"),)), None
    except RemoteProtocolError as exc:
        return Report(CHEATING, len(entries), findings=(Finding(0, 0, exc.reason),)), None
    try:
        game = resolve(header.game)
    except ConfigError as exc:
        return Report(UNDECIDED, len(entries), header, findings=(Finding(None, None, str(exc)),)), None
    observer = Session(game, None)
    for i, entry in enumerate(entries):
        try:
            observer.receive(entry)
        except DamagedEntry as exc:
            # Not as the host placed it: the author of the entry is not to blame, nor anyone else.
            finding = Finding(None, i, f"{DAMAGE}: {exc.reason}")
            return Report(
                DAMAGED, len(entries), header, observer.result, (finding,), _checked(i, observer)
            ), observer
        except FairdealError as exc:
            # A bad entry (a shuffle pass whose proof fails, a forged share, an illegal move...)
            # names the seat whose signature proves it (the host, for what it placed); everything
            # before it was checked.
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
            ), observer
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
        ), observer
    a = observer.aborted
    if a is not None and a.evidence is not None:
        # The abort carries an entry the blamed seat signed answering a point of the log where the
        # log holds another of its own (the session checked it): two signed entries for one obligation.
        assert a.blame is not None
        place = observer.written_at(a.blame, decode_envelope(a.evidence).anchor)
        reason = f"signed two different entries for entry {place} (equivocation; the other is in the abort)"
        return Report(
            CHEATING, len(entries), header, observer.result, (Finding(a.blame, place, reason),), checked
        ), observer
    if _decided(observer):
        checked = (*checked, REPLAYED, *_unsigned(observer, parsed.problem))
        return Report(FAIR, len(entries), header, observer.result, (), checked), observer
    missing = _missing(observer, parsed.problem)
    if observer.verdict is not None:
        checked = (*checked, REPLAYED)
    return Report(UNDECIDED, len(entries), header, observer.result, tuple(missing), checked), observer


def _decided(observer: Session) -> bool:
    """Whether the log settles the game: the final reveal complete and every move checked with every
    card known (a fair audit), so the result the rules found stands. The seats' signed ends then add
    nothing a verifier with the rules needs: a seat that does not sign (gone, or unwilling to sign a
    loss) cannot undo it, nor can an abort after it."""
    v = observer.verdict
    return v is not None and v.fair and observer.result is not None


def _unsigned(observer: Session, problem: str) -> tuple[str, ...]:
    """What a decided log lacks or holds besides: the seats still in the game that did not sign its
    end, and why; bytes after its last whole record."""
    missing = [s for s in range(observer.header.players) if s not in observer.departed | observer.signed_end]
    notes = []
    if missing:
        who = " and ".join(f"seat {s}" for s in missing)
        a = observer.aborted
        why = f"the host aborted: {a.reason}" if a is not None else "the log ends before"
        notes.append(
            f"{who} did not sign the end of the game ({why}); the result stands, every card and move checked"
        )
    if problem:
        notes.append(f"after the last whole entry: {problem}")
    return tuple(notes)


def entries_of(blob: bytes) -> list[bytes]:
    """The entries in ``blob``: a log file, or an evidence file a seat kept beside its log (JSON
    whose ``entries`` are hex; ``relayed_instead`` too). Anything else holds none."""
    if blob.startswith(MAGIC):
        return list(parse_log(blob).entries)
    try:
        kept = json.loads(blob)
    except ValueError:
        return []
    if not isinstance(kept, dict):
        return []
    listed = kept.get("entries")
    hexes: list[Any] = list(listed) if isinstance(listed, list) else []
    if isinstance(kept.get("relayed_instead"), str):
        hexes.append(kept["relayed_instead"])
    out = []
    for h in hexes:
        try:
            out.append(bytes.fromhex(h))
        except (TypeError, ValueError):
            continue
    return out


def _forks(observer: Session, entries: Sequence[bytes]) -> list[Finding]:
    """What entries placed by this game's host, from elsewhere, prove against it, with this log's
    entries (those ``observer`` accepted): two different entries placed at one point (a fork), or
    an entry placed that its author did not sign. Entries the host did not place prove nothing."""
    if observer.phase == "header":
        return []
    header = observer.header
    host, game_id, hashes = header.seats[HOST].identity, header.game_id, observer.hashes
    found: dict[int, str] = {}
    for data in entries:
        try:
            env = decode_envelope(data)
        except RemoteProtocolError:
            continue
        if not env.placed_by(host, game_id):
            continue
        s, h = env.seq, env.hash(game_id)
        if s < len(hashes) and hashes[s] != h:
            found.setdefault(s, f"the host forked the log: it placed two different entries as entry {s}")
        elif 0 < s <= len(hashes) and env.prev != hashes[s - 1]:
            found.setdefault(
                s - 1,
                f"the host forked the log: it placed entry {s} after another entry {s - 1} than this log's",
            )
        if not _signed(env, header):
            found.setdefault(s, f"the host placed as entry {s} an entry that seat {env.seat} did not sign")
        a = env.anchor_seq
        if a < len(hashes) and a < s and env.answers_by(host, game_id) and hashes[a] != env.anchor:
            found.setdefault(
                a,
                f"the host forked the log: it placed two different entries as entry {a}, this log's and the "
                f"one seat {env.seat} answers in entry {s}",
            )
    return [Finding(HOST, s, why) for s, why in sorted(found.items())]


def _signed(env: Envelope, header: Header) -> bool:
    return (
        env.game_id == header.game_id
        and env.seat < header.players
        and env.verify(header.seats[env.seat].identity)
    )


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
        elif observer.phase == "end":
            what = "the log ends before every seat signed the end of the game"
        else:
            what = "the log ends before the final reveal is complete"
        owing = observer.owing()
        who = " and ".join(f"seat {o.seat}" for o in owing)
        owed = f" (waiting on {who} for {w.what})" if w else ""
        why = Finding(None, None, f"{what}{owed}{where}")
    if observer.verdict is not None:  # every move was replayed knowing every card: only the end is missing
        return [why, *blamed]
    undecided = Finding(
        None,
        None,
        "undecided: whether every move was legal with every card known "
        "(the cards only one seat saw were never opened to all)",
    )
    return [why, *blamed, undecided]
