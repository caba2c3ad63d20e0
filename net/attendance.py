"""The host's table during the game: who is away and back, seats and watchers that come in late,
adjourn votes; what each link is told of it."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from typing import Any, Final

import trio

from fairdeal.core.session.header import Header
from fairdeal.core.session.session import Session

from . import wire
from .chat import ChatRoom
from .doors import DoorBell
from .driver import PeerGone
from .events import (
    AdjournVote,
    Away,
    Back,
    LinkFlooded,
    Report,
    WatcherCame,
    WatcherLeft,
)
from .link import NetLink
from .lobbyterms import Admit
from .plans import (
    HostPlan,
)
from .roster import Roster

VOTE_GAP: Final = 1.0
"""Seconds between two changes of a guest's adjourn vote (faster ones are ignored, and counted)."""


class Attendance:
    """The host's table during the game: who is away and back, watchers, adjourn votes, chat."""

    def __init__(self, plan: HostPlan, report: Report, session: Session, header: Header) -> None:
        self.plan, self.report, self.session, self.header = plan, report, session, header
        self.roster: Roster | None = None
        self.room: ChatRoom | None = None
        self.votes: set[int] = set()
        self.bell: DoorBell | None = None
        self.voted_at: dict[int, float] = {}

    @property
    def guests(self) -> list[NetLink]:
        assert self.roster is not None
        return [link for link in self.roster.links.values() if isinstance(link, NetLink)]

    def send(self, msg: wire.Message, links: Sequence[Any]) -> None:
        """Send ``msg`` to each of ``links`` that is still up."""
        for link in links:
            if isinstance(link, NetLink) and link.alive:
                with contextlib.suppress(PeerGone):
                    link.send(msg)

    def everyone(self) -> list[Any]:
        assert self.roster is not None
        return [*self.roster.links.values(), *self.roster.watchers]

    # -- the roster's reports --------------------------------------------------------------------------
    def away(self, seat: int, seconds: float, reason: str) -> None:
        if self.bell is not None:  # the host's own network may have changed: new relay doors
            self.bell.ring()
        self.send(wire.Away(seat, int(seconds)), self.everyone())
        self.report(Away.now(seat, self.header.names[seat], seconds))

    def back(self, seat: int) -> None:
        self.send(wire.Back(seat), [x for s, x in self._links() if s != seat] + self._watchers())
        self.report(Back(seat, self.header.names[seat]))

    def watcher_left(self, watchers: int) -> None:
        if not self.session.finished:  # at the end every watcher goes: that is no news
            self.report(WatcherLeft(watchers))

    def _links(self) -> list[tuple[int, Any]]:
        assert self.roster is not None
        return list(self.roster.links.items())

    def _watchers(self) -> list[Any]:
        assert self.roster is not None
        return list(self.roster.watchers)

    # -- a link that comes in late ----------------------------------------------------------------------
    def prepare(self, seat: int, link: NetLink) -> None:
        link.start_game()
        name = self.header.names[seat]
        link.on_flood = lambda reason: self.report(LinkFlooded(seat, name, reason))
        if self.room is not None:
            link.on_chat = self.room.from_link(seat)
        link.on_adjourn = lambda msg, seat=seat: self.hear(seat, msg)

    async def late(
        self, msg: wire.Rejoin | wire.Watch, identity: bytes, link: NetLink, admit: Admit
    ) -> str | None:
        """Take a seat back, or a watcher in (its catch-up as ``admit`` allows); why not, if not."""
        roster = self.roster
        if roster is None or self.session.seq == 0:
            return "the game is starting: try again in a moment"
        grace = int(roster.grace)
        if isinstance(msg, wire.Watch):
            why = await roster.watch(
                link, msg.entries, msg.last, greet=lambda n: link.send(wire.Sync(n, grace)), admit=admit
            )
            if why is None:
                self._after_sync(link, None)
                self.report(WatcherCame(len(roster.watchers)))
            return why
        seat = msg.seat
        header = self.header
        if not seat < header.players:
            return f"there is no seat {seat} at this table"
        if header.seats[seat].identity != identity:
            return f"seat {seat} is not yours: it belongs to {header.seats[seat].fingerprint}"
        self.prepare(seat, link)
        why = await roster.attach(
            seat, link, msg.entries, msg.last, greet=lambda n: link.send(wire.Sync(n, grace))
        )
        if why is None:
            self._after_sync(link, seat)
        return why

    def _after_sync(self, link: NetLink, seat: int | None) -> None:
        """What a link that came in late must know: who is away, who has agreed to adjourn."""
        assert self.roster is not None
        now = trio.current_time()
        for s, away in self.roster.away.items():
            if s != seat:
                self.send(wire.Away(s, max(0, int(away.deadline - now)), away.resuming), [link])
        for s in sorted(self.votes):
            self.send(wire.Adjourn(s, True), [link])

    # -- adjourning -----------------------------------------------------------------------------------
    def hear(self, seat: int, msg: wire.Adjourn) -> bool:
        """A guest's vote: only for its own seat, and at most one change a :data:`VOTE_GAP` seconds.
        False when it was ignored (the link counts those)."""
        now = trio.current_time()
        if msg.seat != seat or now - self.voted_at.get(seat, -math.inf) < VOTE_GAP:
            return False
        if not self.vote_as(seat, msg.agree):
            return False
        self.voted_at[seat] = now
        return True

    def vote(self, agree: bool) -> bool:
        """The host's own vote (from its front end)."""
        if self.session.finished or self.roster is None or self.roster.closed:
            return False
        self.vote_as(0, agree)
        return True

    def vote_as(self, seat: int, agree: bool) -> bool:
        """Count a vote; False when it changes nothing."""
        if self.roster is None or self.roster.closed:
            return False
        if agree:
            if seat in self.votes:
                return False
            self.votes.add(seat)
        elif not self.votes:
            return False
        else:
            self.votes.clear()
        self.send(wire.Adjourn(seat, agree), self.everyone())  # the voter's too: received
        players = [s for s in range(self.header.players) if s not in self.session.departed]
        missing = [self.header.names[s] for s in players if s not in self.votes]
        self.report(AdjournVote(seat, self.header.names[seat], agree, tuple(missing)))
        if agree and self.plan.auto_adjourn and 0 not in self.votes:
            self.vote_as(0, True)
            return True
        if agree and not missing:
            self.roster.adjourn()
        return True


__all__ = ["VOTE_GAP", "Attendance"]
