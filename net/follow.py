"""A guest or a watcher follows the host, and comes back when the link drops.

Once a joiner's game has started, :class:`Follower` runs it on a link: a seat plays with
:func:`~fairdeal.net.driver.run_guest`, a watcher only checks and records what the host
sends. When the link drops, the joiner keeps trying to reach the host again, with
back-off, over every path the invite allows (:func:`~fairdeal.net.comeback.come_back`),
for the grace period the host announced; it proves its identity by the same handshake,
says how many entries it holds and the hash of the last (``rejoin`` for a seat, ``watch``
for a watcher), and the host answers ``sync`` and sends what it missed. An entry the seat
had sent and not seen come back is awaited, or sent again when the host does not hold it.

The same loop serves a seat that was resumed from its log: it starts by coming back.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

import trio

from fairdeal.core.errors import FairdealError, RemoteProtocolError
from fairdeal.core.session import AlteredEntry, DamagedEntry, Event, HostCheated
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.session import MOVE, RESIGN, Session

from . import wire
from .chat import ChatRoom
from .comeback import Connector, Refusal, come_back, refused_why
from .driver import LEAVING, Agent, PeerGone, run_guest
from .events import (
    Adjourned,
    AdjournVote,
    Away,
    Back,
    Ending,
    HostBack,
    HostBusy,
    HostLeft,
    HostLost,
    LobbyChanged,
    Refused,
    Report,
)
from .interruptible import Interrupted, Interruptible
from .keeper import Keeper
from .leaving import YOU_LEFT, Leaving
from .link import LinkStats, NetLink
from .stream import SecureStream

HOST_LEFT: Final = "the host left the game"
"""Why a guest stops when the host says goodbye before the game's end (its person stopped it)."""


@dataclass
class Follower:
    """One joiner's game after its start: a seat (``agent`` set) or a watcher (``agent`` None).

    ``observe`` gets every accepted entry's events (the log is written there); ``refuse``
    turns an error into the sentence that ends this seat's game.
    """

    session: Session
    agent: Agent | None
    connector: Connector
    grace: float
    observe: Callable[[Session, Sequence[Event]], None]
    refuse: Callable[[FairdealError], str]
    report: Report
    keeper: Keeper
    auto_adjourn: bool = False
    on_link: Callable[[NetLink], None] | None = None
    error: str | None = None
    adjourned: bool = False
    stats: list[LinkStats] = field(default_factory=list)
    room: ChatRoom | None = None
    links: dict[int, NetLink] = field(default_factory=dict)
    votes: set[int] = field(default_factory=set)
    final: bool = False  # the game cannot go on from this seat (it refused what the host sent)
    ending: Ending | None = None  # why it stopped before the end, when it did
    leaving: Leaving = field(default_factory=Leaving)  # this end's person leaving on purpose

    @property
    def seat(self) -> int | None:
        return self.session.seat

    # -- the host's control messages ----------------------------------------------------------------
    def control(self, msg: wire.Message) -> None:
        """``lobby``, ``away``, ``back``, ``adjourned`` from the host."""
        names = self.session.header.names if self.session.seq > 0 else ()

        def name(seat: int) -> str:
            return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

        if isinstance(msg, wire.Lobby):
            self.report(LobbyChanged(msg))
        elif isinstance(msg, wire.Away):
            self.report(Away.now(msg.seat, name(msg.seat), float(msg.seconds), resuming=msg.resuming))
        elif isinstance(msg, wire.Back):
            self.report(Back(msg.seat, name(msg.seat)))
        elif isinstance(msg, wire.Adjourned):
            self.adjourned = True
            self.report(Adjourned(msg.entries))

    def hear_vote(self, msg: wire.Adjourn) -> bool:
        """A vote on adjourning, relayed by the host (a bot seat agrees at once). False when it
        changed nothing — a seat that had agreed already, a decline with no proposal standing, a
        seat the table does not have — which the link counts (a host repeating votes floods)."""
        if self.session.seq == 0:
            return False
        seats = self.session.header.seats
        if not 0 <= msg.seat < len(seats):
            return False
        if msg.agree:
            if msg.seat in self.votes:
                return False
            self.votes.add(msg.seat)
        elif not self.votes:
            return False
        else:
            self.votes.clear()
        names = self.session.header.names
        missing = [n for i, n in enumerate(names) if i not in self.votes and i not in self.session.departed]
        self.report(AdjournVote(msg.seat, names[msg.seat], msg.agree, tuple(missing)))
        if msg.agree and self.auto_adjourn and self.seat is not None and self.seat not in self.votes:
            self.vote(True)
        return True

    def vote(self, agree: bool) -> bool:
        """This seat proposes (or agrees) to adjourn, or declines; False when it could not be sent."""
        link = self.links.get(0)
        if self.seat is None or link is None or not link.alive:
            return False
        with contextlib.suppress(PeerGone):
            link.send(wire.Adjourn(self.seat, agree))
            return True
        return False

    # -- one link -----------------------------------------------------------------------------------
    def _attach(self, link: NetLink) -> None:
        self.links[0] = link
        self.stats.append(link.stats)
        link.on_control = self.control
        link.on_adjourn = self.hear_vote
        if self.room is not None:
            link.on_chat = self.room.from_link(0)
        if self.on_link is not None:
            self.on_link(link)

    def _sent(self, data: bytes) -> None:
        with contextlib.suppress(FairdealError):
            if decode_envelope(data).kind in (MOVE, RESIGN):
                self.keeper.sent(data)

    async def _play(self, link: NetLink, resend_at: int | None) -> None:
        session = self.session
        agent = Interruptible(self.agent) if self.agent is not None else None
        if agent is not None:
            agent.link = link
        while self.error is None and not session.finished:
            try:
                if agent is not None:
                    await run_guest(
                        session, agent, link, self.observe, resend_at=resend_at, before_send=self._sent
                    )
                else:
                    while not session.finished:
                        data = await link.receive_entry()
                        self.observe(session, session.receive(data, peer="the host"))
            except (Interrupted, PeerGone):
                pass  # an entry came in while this seat was deciding, or the link closed
            except FairdealError as exc:
                self.error = self.refuse(exc)
                self.final, self.ending = True, "refused"
                return
            if session.seq >= (resend_at or 0):
                resend_at = None  # past the catch-up: anything still outstanding was sent again
            try:  # what arrived before the link closed (an abort, say) still counts
                for data in link.take_pending():
                    if session.finished:
                        break
                    self.observe(session, session.receive(data, peer="the host"))
            except FairdealError as exc:
                self.error = self.refuse(exc)
                self.final, self.ending = True, "refused"
                return
            if not link.alive:
                return

    async def run_link(self, link: NetLink, resend_at: int | None, *, started: bool = False) -> str | None:
        """Play (or watch) on ``link`` until the game ends or the link drops; why it dropped, or None."""
        self._attach(link)
        async with trio.open_nursery() as nursery:
            if not started:
                await nursery.start(link.run)
            try:
                with self.leaving.scope():  # leaving stops the play, not the link: it says goodbye
                    await self._play(link, resend_at)
            finally:
                bye = "the game is over" if self.session.finished else (self.error or LEAVING)
                told = link.error is None  # the goodbye goes out: the host hears why
                with trio.CancelScope(shield=True):
                    await link.aclose(bye)
                if self.leaving.left and not self.session.finished and self.error is None:
                    self._left(told)
        if self.session.finished or self.error is not None or self.adjourned or self.leaving.left:
            return None
        return link.error or "the link was closed"

    def _left(self, told: bool) -> None:
        """This end's person left: ``told``, its goodbye went out, so a seat's game is over for
        everyone (the host aborts it, naming the seat); otherwise the seat may still go on."""
        self.error, self.ending = YOU_LEFT, "left"
        self.final = told and self.seat is not None

    # -- the whole game -----------------------------------------------------------------------------
    async def run(self, link: NetLink, resend_at: int | None = None, *, started: bool = False) -> None:
        """Follow the game from ``link`` to its end, coming back after every drop within the grace."""
        while True:
            reason = await self.run_link(link, resend_at, started=started)
            started = False
            if self.leaving.left and not self.session.finished:
                break  # said goodbye (or could not): run_link noted how this end left
            if reason is None:
                break
            if link.left:  # the host said goodbye: it left on purpose, this is no dropped link
                self.error, self.ending = HOST_LEFT, "host left"
                self.report(HostLeft(watching=self.seat is None))
                break
            if self.grace <= 0:
                self.error, self.ending = f"the host left the game ({reason})", "host lost"
                break
            self.report(HostLost.now(reason, self.grace))
            deadline = trio.current_time() + self.grace
            back = None
            try:
                with self.leaving.scope():
                    back = await come_back(self.connector, self.seat, self.session, deadline, self.busy)
            except Refusal as exc:
                self.error, self.ending = str(exc), "refused"
                self.report(Refused(refused_why(exc)))
                break
            if self.leaving.left:
                self._left(told=False)
                break
            if back is None:
                self.error = f"lost the host ({reason}) and could not reach it again within {self.grace:g} s"
                self.ending = "host lost"
                break
            secure, sync, path, via = back
            self.grace = float(sync.grace)
            self.report(HostBack(path, via, sync.entries))
            link = self.new_link(secure)
            resend_at = sync.entries  # an entry sent and not in the catch-up goes again
        if self.session.finished or self.final:
            self.keeper.finished()
        elif self.adjourned:
            self.keeper.adjourned()

    def busy(self, seconds: float) -> None:
        """(A watcher coming back) the host is busy catching up other watchers for ``seconds``."""
        self.report(HostBusy.now(seconds))

    @property
    def resumable(self) -> bool:
        """Whether this seat keeps what it needs to go on later (a watcher never does)."""
        return self.seat is not None and not (self.session.finished or self.final)

    def new_link(self, secure: SecureStream) -> NetLink:
        link = NetLink(secure, role="guest", peer="the host", keepalive=self.connector.keepalive)
        link.on_control = self.control
        return link


def refusal_text(
    exc: FairdealError, keep_evidence: Callable[[AlteredEntry | HostCheated], str | None]
) -> str:
    """Why a guest stops: the host cheated (it altered this seat's entry, or its own signatures
    prove it, and the proof is kept), the host sent an entry that is not as it placed it, an entry
    is refused (naming the seat whose signature it carries), or this program failed."""
    if isinstance(exc, AlteredEntry):
        where = keep_evidence(exc)
        kept = f"; what it relayed is kept in {where}" if where else ""
        return f"{exc.reason}: the game stops here{kept}"
    if isinstance(exc, HostCheated):
        where = keep_evidence(exc)
        kept = f"; the proof is kept in {where}" if where else ""
        return f"{exc.reason}: the game stops here{kept}"
    if isinstance(exc, DamagedEntry):
        return f"the host sent what it did not place there: {exc.reason}"
    if isinstance(exc, RemoteProtocolError):
        return f"the host sent an entry this seat refuses: {exc}"
    return f"this program could not go on: {exc}"


__all__ = ["HOST_LEFT", "Follower", "refusal_text"]
