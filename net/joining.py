"""Joining a game: take the offered seat and play it to the end, or come back to the host with a seat
resumed from its log (:func:`join_game`)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import trio

from fairdeal import __version__
from fairdeal.core.errors import ConfigError, FairdealError, RemoteProtocolError
from fairdeal.core.session import EntryAccepted, Event
from fairdeal.core.session.session import Session

from . import wire
from .chat import ChatRoom
from .comeback import Refusal, come_back, expect
from .driver import Agent
from .entrylog import EntryLog
from .errors import NetError
from .events import (
    Applied,
    ChatLine,
    GameEnded,
    HostBack,
    HostReached,
    ReachingHost,
    Refused,
    Report,
    Resumed,
    Seated,
    Started,
    TableReady,
    ignore,
)
from .follow import Follower, refusal_text
from .guarded import GuardedSession, GuestSession
from .leaving import YOU_LEFT
from .link import NetLink
from .plans import (
    JoinPlan,
    NetOutcome,
)
from .replay import arm, first_header, replay
from .seeds import NoKeeper, new_seed, seat_rng
from .traffic import total


async def join_game(plan: JoinPlan, report: Report | None = None) -> NetOutcome:
    """Join the game of ``plan.invite`` and play the offered seat to the end.

    Raises NetError or RemoteProtocolError when the game cannot start (unreachable host,
    "host identity does not match the invite", refused, lobby closed) and ConfigError when
    ``plan.prepare`` declines the table. Once the game started, problems end it and are
    reported in ``outcome.error`` (the log holds every entry accepted up to there); a
    dropped link is not a problem until the host stays away longer than its grace period.
    With ``plan.resume`` the seat goes on from its log: it comes back to the host (waiting
    for it up to ``plan.resume.wait`` seconds) instead of taking a new seat.
    """
    tell: Report = report or ignore
    if plan.resume is not None:
        return await _rejoin_game(plan, tell)
    invite = plan.invite
    connected = await plan.connector().connect()
    secure = connected.secure
    try:
        tell(HostReached(invite, connected.path, connected.via))
        await secure.send(wire.encode(wire.Hello(invite.session, f"fairdeal {__version__}")))
        msg = await expect(secure, plan.handshake_timeout, "a welcome")
        if isinstance(msg, wire.Refused):
            tell(Refused(msg.reason))
            raise Refusal(msg.reason)
        if not isinstance(msg, wire.Welcome):
            raise RemoteProtocolError(f"expected welcome, not {type(msg).__name__.lower()}", peer="the host")
        welcome = msg
        try:
            if welcome.protocol != wire.PROTOCOL:
                raise ConfigError(
                    f"the host speaks protocol {welcome.protocol}, this fairdeal {wire.PROTOCOL}"
                )
            prepared = plan.prepare(welcome)
            prepared.game.exact_config(welcome.players, welcome.options)
        except ConfigError as exc:
            with contextlib.suppress(
                FairdealError, trio.BrokenResourceError, trio.ClosedResourceError, OSError
            ):
                await secure.send(wire.encode(wire.Bye(wire.clean_text(str(exc)))))
            raise
        await secure.send(wire.encode(wire.Ready(prepared.name, prepared.kind)))
    except BaseException:
        await trio.aclose_forcefully(secure)  # type: ignore[arg-type]
        raise
    tell(Seated(welcome, prepared.name, prepared.kind))
    seed = plan.seed or new_seed(plan.rng, welcome.seat)
    session = GuestSession(
        prepared.game,
        welcome.seat,
        plan.identity,
        seat_rng(seed),
        welcome=welcome,
        name=prepared.name,
        kind=prepared.kind,
    )
    guest = _Guest(plan, tell, session, prepared.agent, seed, float(welcome.grace))
    link = NetLink(secure, role="guest", peer="the host", keepalive=plan.keepalive)
    early: list[wire.Chat] = []  # chat that comes before the header: checked once it is known
    link.on_chat = lambda m: early.append(m) if len(early) < 16 else False
    guest.early = early
    try:
        await guest.follower.run(link)
    finally:
        guest.log.close()
        await trio.aclose_forcefully(secure)  # type: ignore[arg-type]
    if not guest.started:
        raise NetError(f"the game did not start: {guest.follower.error or 'the host closed the lobby'}")
    return guest.outcome()


class _Guest:
    """A guest seat's game after the welcome (or after resuming): log, chat, seed, the follower."""

    def __init__(
        self,
        plan: JoinPlan,
        tell: Report,
        session: Session,
        agent: Agent,
        seed: bytes,
        grace: float,
        *,
        started: bool = False,
    ) -> None:
        self.plan, self.tell, self.session, self.seed = plan, tell, session, seed
        self.log = EntryLog(plan.open_log)
        self.keeper = plan.keeper or NoKeeper()
        self.started = started
        self.early: list[wire.Chat] = []
        self.events: list[Event] = []
        self.follower = Follower(
            session,
            agent,
            plan.connector(),
            grace,
            self.observe,
            lambda exc: refusal_text(exc, self.log.keep_evidence),
            tell,
            self.keeper,
            auto_adjourn=plan.auto_adjourn,
        )
        if started:
            self._start()

    def _start(self) -> None:
        s = self.session
        assert s.seat is not None
        marks = self.plan.resume.chat if self.plan.resume is not None else ()
        room = ChatRoom(
            s.header,
            s.seat,
            self.plan.identity,
            self.follower.links,
            lambda *line: self.tell(ChatLine(*line)),
            marks=marks,
            keep=self.keeper.chat,
        )
        self.follower.room = room
        link = self.follower.links.get(0)
        if link is not None:
            link.on_chat = room.from_link(0)
            for line in self.early:
                link.on_chat(line)
        self.tell(TableReady(room.say, self.follower.vote, self.follower.leaving.leave))

    def observe(self, s: Session, new: Sequence[Event]) -> None:
        if not self.started:
            self.started = True
            assert s.seat is not None
            self.tell(Started(s.header, s.seat))
            self._start()
        self.events.extend(new)
        self.log.write(s, new)
        if s.seq == 1 and any(isinstance(e, EntryAccepted) for e in new):
            self.keeper.begin(s.seat or 0, self.seed, int(self.follower.grace))
        self.tell(Applied(s, tuple(new)))

    def outcome(self) -> NetOutcome:
        f = self.follower
        stats = total(f.stats)
        how = f.ending or "stopped"
        self.tell(GameEnded.of(self.session, f.error, f.adjourned, how, resumable=f.resumable))
        return NetOutcome(self.session, f.error, self.events, f.adjourned, links={0: stats})


async def _rejoin_game(plan: JoinPlan, tell: Report) -> NetOutcome:
    """A guest seat resumed from its log: rebuilt, then back to the host for what it missed."""
    r = plan.resume
    assert r is not None
    header = first_header(r.entries)
    if not 1 <= r.seat < header.players or header.seats[r.seat].identity != plan.identity.public_key:
        raise ConfigError(f"seat {r.seat} of this game is not this identity's ({plan.identity.fingerprint})")
    welcome = wire.Welcome(
        r.seat, header.players, header.game, header.distribution, header.version, dict(header.options)
    )
    prepared = plan.prepare(welcome)
    session = GuardedSession(prepared.game, r.seat, plan.identity, seat_rng(r.seed))
    replay(session, r.entries, lambda s, new: tell(Applied(s, tuple(new), replayed=True)))
    if session.finished:
        raise ConfigError("this game is over: there is nothing to resume")
    if r.sent is not None:
        arm(session, r.sent)
    tell(Resumed(header, r.seat, session.seq))
    guest = _Guest(plan, tell, session, prepared.agent, r.seed, r.wait, started=True)
    follower = guest.follower
    tell(ReachingHost.now(r.wait))
    back = None
    try:
        with follower.leaving.scope():
            back = await come_back(plan.connector(), r.seat, session, trio.current_time() + r.wait)
    except Refusal as exc:
        tell(Refused(exc.reason))
        raise
    if follower.leaving.left:  # nobody was told: the seat can still go on
        follower.error, follower.ending = YOU_LEFT, "left"
        guest.log.close()
        return guest.outcome()
    if back is None:
        why = (
            f"could not reach the host within {r.wait:g} s: it may not be running yet "
            "(it resumes with fairdeal resume); the log and seed are kept, try again"
        )
        tell(GameEnded("host lost", why, resumable=True))
        raise NetError(why)
    secure, sync, path, via = back
    guest.follower.grace = float(sync.grace)
    tell(HostBack(path, via, sync.entries))
    try:
        await guest.follower.run(guest.follower.new_link(secure), resend_at=sync.entries)
    finally:
        guest.log.close()
        await trio.aclose_forcefully(secure)  # type: ignore[arg-type]
    return guest.outcome()


__all__ = ["join_game"]
