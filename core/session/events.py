"""What a :class:`~fairdeal.core.session.session.Session` tells its front end: the events an entry
caused, and what a seat owes next."""

from __future__ import annotations

from dataclasses import dataclass

from ..dealer import Verdict
from ..rules import Move, Result


@dataclass(frozen=True, slots=True)
class EntryAccepted:
    """Entry ``seq`` is now part of the game: append ``data`` to the log."""

    seq: int
    seat: int
    kind: str
    data: bytes


@dataclass(frozen=True, slots=True)
class MoveMade:
    seat: int
    move: Move
    text: str


@dataclass(frozen=True, slots=True)
class GameOver:
    result: Result


@dataclass(frozen=True, slots=True)
class Audited:
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class Aborted:
    """The host ended the game: ``blamed`` are the seats at fault (``blame`` the first, if any).

    ``evidence``, when given, is an entry the blamed seat signed answering a point of the log
    where the log holds another entry of its own: it signed two different entries for one
    obligation (it equivocated)."""

    blamed: tuple[int, ...]
    reason: str
    evidence: bytes | None = None

    @property
    def blame(self) -> int | None:
        return self.blamed[0] if self.blamed else None


Event = EntryAccepted | MoveMade | GameOver | Audited | Aborted


@dataclass(frozen=True, slots=True)
class Waiting:
    """Seat ``seat`` owes an entry now: ``what`` in words; ``kinds`` the entry kinds that meet it."""

    seat: int
    what: str
    decision: bool = False
    kinds: frozenset[str] = frozenset()


__all__ = ["Aborted", "Audited", "EntryAccepted", "Event", "GameOver", "MoveMade", "Waiting"]
