"""Hosting a game: listen, fill the seats, play seat 0 and sequence everyone's entries.

:func:`host_game` listens, runs the :class:`~fairdeal.net.lobby.Lobby` until every
seat is filled, writes the header and drives the game with
:func:`~fairdeal.net.driver.run_host` (its own seat's session checks every entry);
:class:`~fairdeal.net.attendance.Attendance` holds who is away, who comes in late and the
adjourn votes. Joining is :mod:`.joining`, watching :mod:`.watching`; all three write every
accepted entry to the log as it is accepted and report what people see as the events of
:mod:`~fairdeal.net.events`, through one ``report(event)`` callable.

A game survives drops and crashes: the host holds a seat whose link dropped for its
grace period (:class:`~fairdeal.net.roster.Roster`) and takes it back when it returns
(``rejoin``); a host whose program died resumes from its log and seed (``HostPlan.resume``).
When every player agrees, the game is adjourned: everyone stops with its log and seed kept,
to resume later.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import trio

from fairdeal.core.errors import ConfigError
from fairdeal.core.session import EntryAccepted, Event
from fairdeal.core.session.header import Header, SeatInfo
from fairdeal.core.session.session import Session

from . import wire
from .addresses import direct_hints
from .attendance import Attendance
from .chat import ChatRoom
from .doors import DoorBell, keep_doors
from .driver import SeatOutcome, run_host, stalled
from .entrylog import EntryLog
from .errors import NetError
from .events import (
    Adjourned,
    Announced,
    AnnounceFailed,
    Applied,
    Away,
    ChatLine,
    Ending,
    GameEnded,
    Listening,
    Report,
    Resumed,
    Started,
    TableReady,
    ignore,
)
from .follow import HOST_LEFT
from .guarded import GuardedSession
from .invite import MAX_DOORS, SECRET_BYTES, Invite
from .leaving import YOU_LEFT, Leaving
from .link import NetLink
from .lobby import Joiner, Lobby, Offer, TableOffer
from .mdns import Announcement, LanAnnouncer
from .plans import (
    HostPlan,
    NetOutcome,
)
from .rendezvous import keep_short_codes
from .replay import replay
from .roster import Roster
from .seeds import NoKeeper, new_seed, seat_rng


def _listen_address(listener: trio.SocketListener) -> tuple[str, int]:
    host, port = listener.socket.getsockname()[:2]
    return str(host), int(port)


async def _close_links(links: Mapping[int, NetLink], reason: str) -> None:
    async with trio.open_nursery() as nursery:
        for link in links.values():
            nursery.start_soon(link.aclose, reason)


async def host_game(plan: HostPlan, report: Report | None = None) -> NetOutcome:
    """Host one game: listen, fill the seats, play seat 0 and sequence everyone's entries.

    Joiners come in directly on the listening port and, with a relay, through the relay
    doors; with ``plan.announce`` the game is announced on the local network while seats are
    free (and during the game when it takes watchers). Late joiners are told "the table is
    full" until the game ends; seats coming back and watchers are let in. With
    ``plan.mailbox``, a short code for the next player is kept open at that mailbox until the
    table is full (:mod:`.rendezvous`). With ``plan.resume`` the game goes on from its log, with
    the same invite code.

    Returns when the game is over, aborted or adjourned (``outcome.error`` then says why
    and whom it blames). Raises NetError if it cannot listen, ConfigError for a bad plan.
    """
    tell: Report = report or ignore
    g = plan.game
    if not max(2, g.min_players) <= plan.players <= g.max_players:
        raise ConfigError(f"{g.name} is for {g.min_players} to {g.max_players} players, not {plan.players}")
    plan.options = dict(g.config(plan.players, dict(plan.options)).options)  # every option, typed
    if not wire.valid_name(plan.name) or not wire.valid_kind(plan.kind):
        raise ConfigError("the host's name or seat kind is not valid")
    if not 0 <= plan.grace <= wire.MAX_GRACE:
        raise ConfigError(f"a grace period is 0 to {wire.MAX_GRACE} seconds")
    session = _resumed_host_session(plan, tell) if plan.resume is not None else None
    doors = 0 if plan.relay is None else (plan.doors or min(MAX_DOORS, plan.players - 1))
    try:
        listeners = await trio.open_tcp_listeners(plan.port, host=plan.bind or None)
    except OSError as exc:
        raise NetError(f"cannot listen on {plan.bind}:{plan.port}: {exc.strerror or exc}") from None
    try:
        bound = [_listen_address(x) for x in listeners]
        port = bound[0][1]
        if plan.resume is not None:
            invite = plan.resume.invite  # the same code: the guests' copies still work
        else:
            rng = plan.rng
            secret = (
                rng.fork("table-secret").bytes(SECRET_BYTES) if rng else secrets.token_bytes(SECRET_BYTES)
            )
            invite = Invite(
                plan.identity.fingerprint, secret, tuple(direct_hints(plan, port)), plan.relay, doors
            )
        code = invite.encode()
        (plan.keeper or NoKeeper()).table(code, port)
        tell(Listening(code, invite, tuple(f"{h}:{p}" for h, p in bound)))
        table = TableOffer(
            g.name,
            plan.distribution,
            plan.version,
            dict(plan.options),
            plan.players,
            int(plan.grace),
            watchers=plan.watchers > 0,
        )
        host_seat = wire.LobbySeat(plan.name, plan.identity.fingerprint, plan.kind)
        announcer = _announcer(plan, tell, invite, code, port) if plan.announce else None
        lobby = Lobby(
            plan.identity,
            invite.session,
            table,
            host_seat,
            report=tell,
            keepalive=plan.keepalive,
            limits=plan.limits,
            on_change=(lambda lb: announcer.update(lb.players - lb.missing)) if announcer else None,
        )

        bell = DoorBell()

        async def doors_source(offer: Offer) -> None:
            await keep_doors(invite, offer, tell, bell)

        sources = [doors_source] if invite.relay is not None and invite.doors else []
        async with trio.open_nursery() as links_nursery, trio.open_nursery() as accepting:
            lan_scope = trio.CancelScope()
            if announcer is not None:
                if session is not None:
                    announcer.update(plan.players)
                accepting.start_soon(_scoped, lan_scope, announcer.run)
            codes_scope = trio.CancelScope()
            if session is None and plan.mailbox is not None:
                codes = functools.partial(keep_short_codes, plan.mailbox, code, tell, plan.on_short_code)
                accepting.start_soon(_scoped, codes_scope, codes)
            if session is None:
                seated = await lobby.fill(listeners, links_nursery, sources, accepting)
                codes_scope.cancel()  # the table is full: every short code is let go
            else:
                seated = {}
                await lobby.serve(listeners, links_nursery, sources, accepting)
            if plan.watchers <= 0:
                lan_scope.cancel()  # the table is full and takes no watchers: withdraw the announcement
            outcome = await _play_host(plan, tell, seated, lobby, session, bell)
            accepting.cancel_scope.cancel()
    finally:
        for listener in listeners:
            await trio.aclose_forcefully(listener)
    return outcome


def _resumed_host_session(plan: HostPlan, tell: Report) -> GuardedSession:
    """The host seat rebuilt from its log and seed: every entry checked again, as when it came,
    and told to the front end as the story so far."""
    r = plan.resume
    assert r is not None
    session = GuardedSession(plan.game, 0, plan.identity, seat_rng(r.seed))
    replay(session, r.entries, lambda s, new: tell(Applied(s, tuple(new), replayed=True)))
    return session  # finished, it still owes its last entries to those who did not get them


async def _scoped(scope: trio.CancelScope, run: Callable[[], Any]) -> None:
    with scope:
        await run()


def _announcer(plan: HostPlan, tell: Report, invite: Invite, code: str, port: int) -> LanAnnouncer:
    addresses = [e.host for e in invite.direct if e.port == port]
    return LanAnnouncer(
        Announcement(plan.game.name, plan.name, plan.identity.fingerprint, 1, plan.players, code),
        addresses,
        port,
        interfaces=plan.lan_interfaces,
        on_error=lambda reason: tell(AnnounceFailed(reason)),
        on_announced=lambda name: tell(Announced(name)),
    )


def _ended(session: Session) -> str:
    """What the host says as it stops: the game ended (an abort), nobody may write any more (every
    seat left it), or it leaves a game not over."""
    if session.finished:
        return "the game has ended"
    return stalled(session) if not session.owing() else HOST_LEFT


async def _play_host(
    plan: HostPlan,
    tell: Report,
    seated: Mapping[int, tuple[Joiner, NetLink]],
    lobby: Lobby,
    resumed: Session | None = None,
    bell: DoorBell | None = None,
) -> NetOutcome:
    g = plan.game
    keeper = plan.keeper or NoKeeper()
    if resumed is None:
        seats = [SeatInfo(plan.name, plan.identity.public_key, plan.kind)]
        seats += [SeatInfo(j.name, j.identity, j.kind) for j, _ in (seated[s] for s in sorted(seated))]
        game_id = plan.rng.fork("game-id").bytes(16) if plan.rng else secrets.token_bytes(16)
        header = Header(
            game_id, g.name, plan.plugin, plan.distribution, plan.version, dict(plan.options), tuple(seats)
        )
        seed = plan.seed or new_seed(plan.rng, 0)
        session: Session = GuardedSession(g, 0, plan.identity, seat_rng(seed))
        backlog: list[bytes] = []
    else:
        session = resumed
        header = session.header
        assert plan.resume is not None
        seed = plan.resume.seed
        backlog = list(plan.resume.entries)
    links = {s: link for s, (_, link) in seated.items()}
    log = EntryLog(plan.open_log)
    table = Attendance(plan, tell, session, header)
    table.bell = bell
    roster = Roster(links, grace=plan.grace, watchers=plan.watchers, backlog=backlog, observer=table)
    table.roster = roster
    if resumed is not None:
        roster.hold(
            [s for s in range(1, header.players) if s not in session.departed], "the host's program restarted"
        )

    def observe(s: Session, events: Sequence[Event]) -> None:
        log.write(s, events)
        if s.seq == 1 and resumed is None and any(isinstance(e, EntryAccepted) for e in events):
            keeper.begin(0, seed, int(plan.grace))  # before the first entry that uses the seed
        tell(Applied(s, tuple(events)))

    if resumed is None:
        tell(Started(header, 0))
    else:
        tell(Resumed(header, 0, session.seq))
        for seat in roster.away:
            tell(Away.now(seat, header.names[seat], roster.grace, resuming=True))
    marks = plan.resume.chat if plan.resume is not None else ()
    room = ChatRoom(
        header,
        0,
        plan.identity,
        cast("Mapping[int, NetLink]", roster.links),  # a host's roster holds its NetLinks
        lambda *line: tell(ChatLine(*line)),
        marks=marks,
        keep=keeper.chat,
    )
    table.room = room
    for seat, link in links.items():
        table.prepare(seat, link)
    lobby.on_late = table.late
    leaving = Leaving()
    tell(TableReady(room.say, table.vote, leaving.leave))
    result: SeatOutcome | None = None
    try:
        with leaving.scope():  # leaving stops the play, not the links: they say goodbye below
            if not session.finished:
                result = await run_host(session, header, plan.agent, roster, observe, plan.timeouts)
            else:  # the host stopped after the last entry, before everyone had it
                result = SeatOutcome(session)
            if session.finished:  # those whose link dropped at the end come back for the last entries
                await roster.linger(roster.grace)
        if result is None:  # the host's person left the game: its guests keep their seats
            result = SeatOutcome(session, YOU_LEFT)
    finally:
        log.close()
        roster.close()
        adjourned = result is not None and result.adjourned
        if adjourned:
            table.send(wire.Adjourned(len(roster.backlog)), table.everyone())
            keeper.adjourned()
            tell(Adjourned(len(roster.backlog)))
        elif session.finished:
            keeper.finished()
        done = session.aborted is None and session.finished
        why = "the game is adjourned" if adjourned else "the game is over" if done else _ended(session)
        every = {id(x): x for x in [*links.values(), *table.everyone()] if isinstance(x, NetLink)}
        with trio.CancelScope(shield=True):
            await _close_links(every, why)
    stats = {s: k.stats for s, k in links.items()}
    how: Ending = "left" if leaving.left and result.error == YOU_LEFT else "stopped"
    tell(GameEnded.of(result.session, result.error, result.adjourned, how, resumable=not session.finished))
    return NetOutcome(result.session, result.error, result.events, result.adjourned, links=stats)


__all__ = ["host_game"]
