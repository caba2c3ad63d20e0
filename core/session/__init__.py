"""Game sessions: the signed, hash-chained log is the game.

:class:`Session` is one seat's sans-I/O engine; :func:`verify_log` checks a whole log.
"""

from ._knowledge import replay_with_full_knowledge
from .envelope import FORMAT_VERSION, Envelope, decode_envelope, entry_hash
from .events import Aborted, Audited, EntryAccepted, Event, GameOver, MoveMade, Waiting
from .faults import AlteredEntry, DamagedEntry, HostCheated
from .header import Header, SeatInfo
from .logfile import MAGIC, ParsedLog, parse_log, record
from .session import Session
from .verify import CHEATING, DAMAGED, FAIR, OTHER_VERSION, UNDECIDED, Finding, Report, verify_log

__all__ = [
    "CHEATING",
    "DAMAGED",
    "FAIR",
    "FORMAT_VERSION",
    "MAGIC",
    "OTHER_VERSION",
    "UNDECIDED",
    "Aborted",
    "AlteredEntry",
    "Audited",
    "DamagedEntry",
    "EntryAccepted",
    "Envelope",
    "Event",
    "Finding",
    "GameOver",
    "Header",
    "HostCheated",
    "MoveMade",
    "ParsedLog",
    "Report",
    "SeatInfo",
    "Session",
    "Waiting",
    "decode_envelope",
    "entry_hash",
    "parse_log",
    "record",
    "replay_with_full_knowledge",
    "verify_log",
]
