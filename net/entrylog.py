"""A seat's log as network play writes it: every accepted entry, in order, opened at the header;
and the evidence of a host that cheated, kept beside it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fairdeal.core.session import AlteredEntry, EntryAccepted, Event, HostCheated
from fairdeal.core.session.header import Header
from fairdeal.core.session.session import Session

from . import _fault
from .plans import (
    LogSink,
)


class EntryLog:
    """Writes accepted entries to the seat's log (opened at the header) and keeps evidence."""

    def __init__(self, open_log: Callable[[Header], LogSink] | None) -> None:
        self._open = open_log
        self._sink: LogSink | None = None

    def write(self, session: Session, events: Sequence[Event]) -> None:
        for ev in events:
            if not isinstance(ev, EntryAccepted):
                continue
            if self._sink is None and self._open is not None:
                self._sink = self._open(session.header)
            if self._sink is not None:
                self._sink.append(ev.data)
            if _fault.armed():
                _fault.reached("accepted", ev.kind)
                if session.result is not None and ev.kind not in ("move", "resign"):
                    _fault.audit()

    def keep_evidence(self, exc: AlteredEntry | HostCheated) -> str | None:
        """Keep beside the log what proves the host cheated (what this seat sent and what the host
        relayed instead, or the entries the host placed that contradict this log); where."""
        keep = getattr(self._sink, "keep_evidence", None)
        if keep is None:
            return None
        if isinstance(exc, AlteredEntry):
            return str(keep(exc.reason, [exc.received], sent=exc.sent, relayed_instead=exc.received))
        return str(keep(exc.reason, list(exc.evidence)))

    def close(self) -> None:
        if self._sink is not None:
            self._sink.close()


__all__ = ["EntryLog"]
