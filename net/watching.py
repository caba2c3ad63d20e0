"""Watching a game: follow it from its first entry to its end, as a silent observer (:func:`watch_game`)."""

from __future__ import annotations

from collections.abc import Sequence

import trio

from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.session import Event
from fairdeal.core.session.session import Session

from . import wire
from .comeback import Connector, Refusal, expect, rejoin
from .entrylog import EntryLog
from .events import (
    Applied,
    GameEnded,
    HostBusy,
    HostReached,
    NotStartedYet,
    Refused,
    Report,
    Resumed,
    ignore,
)
from .follow import Follower, refusal_text
from .guarded import GuardedSession
from .lobbyterms import NOT_YET_WATCHED, busy_for
from .plans import (
    NetOutcome,
    WatchPlan,
)
from .replay import first_header
from .seeds import NoKeeper
from .stream import SecureStream
from .traffic import total


async def watch_game(plan: WatchPlan, report: Report | None = None) -> NetOutcome:
    """Follow the game of ``plan.invite`` as a watcher, from its first entry to its end.

    Every entry is checked as a silent observer checks it and written to the log; no card
    is ever shown that everyone may not see. A dropped link is followed by coming back, as a
    seat does. Raises NetError when the host cannot be reached or refuses.
    """
    tell: Report = report or ignore
    connector = plan.connector()
    secure, sync, path, via = await _reach(plan, connector, tell)
    try:
        tell(HostReached(plan.invite, path, via))
        first = await expect(secure, plan.handshake_timeout, "the game's first entry")
        if not isinstance(first, wire.Entry):
            raise RemoteProtocolError(
                f"expected an entry, not {type(first).__name__.lower()}", peer="the host"
            )
        header = first_header([first.data])
        session = GuardedSession(plan.resolve(header.game), None)
        log = EntryLog(plan.open_log)
        events: list[Event] = []

        def observe(s: Session, new: Sequence[Event]) -> None:
            events.extend(new)
            log.write(s, new)
            tell(Applied(s, tuple(new)))

        observe(session, session.receive(first.data, peer="the host"))
        tell(Resumed(header, None, session.seq))
        follower = Follower(
            session,
            None,
            connector,
            float(sync.grace),
            observe,
            lambda exc: refusal_text(exc, lambda _: None),
            tell,
            NoKeeper(),
        )
        try:
            await follower.run(follower.new_link(secure))
        finally:
            log.close()
    finally:
        await trio.aclose_forcefully(secure)  # type: ignore[arg-type]
    stats = total(follower.stats)
    tell(GameEnded.of(session, follower.error, follower.adjourned, follower.ending or "stopped"))
    return NetOutcome(session, follower.error, events, follower.adjourned, links={0: stats})


async def _reach(
    plan: WatchPlan, connector: Connector, tell: Report
) -> tuple[SecureStream, wire.Sync, str, str]:
    """Reach the host as a watcher; while the game has not started, ask again every
    ``plan.start_poll`` seconds, and while the host is busy catching up other watchers, when it
    says (told as :class:`HostBusy` each time); for ``plan.start_wait`` at most (then the
    refusal stands, told as :class:`Refused`)."""
    deadline = trio.current_time() + plan.start_wait
    told = False
    while True:
        try:
            return await rejoin(connector, None, 0, wire.NO_ENTRY)
        except Refusal as exc:
            busy = busy_for(exc.reason)
            wait = plan.start_poll if busy is None else busy
            early = NOT_YET_WATCHED in exc.reason
            if not (early or busy is not None) or trio.current_time() + wait > deadline:
                tell(Refused(exc.reason))
                raise
        if busy is not None:
            tell(HostBusy.now(wait))
        elif not told:
            tell(NotStartedYet.now(plan.start_poll, plan.start_wait))
            told = True
        await trio.sleep(wait)


__all__ = ["watch_game"]
