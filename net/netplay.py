"""Network play: host a game and let joiners in, or join one from an invite code.

:func:`host_game` listens, runs the :class:`~fairdeal.net.lobby.Lobby` until every
seat is filled, writes the header and drives the game with
:func:`~fairdeal.net.driver.run_host` (its own seat's session checks every entry).
:func:`join_game` connects, checks the host's identity against the invite, takes
the offered seat and plays with :func:`~fairdeal.net.driver.run_guest`. Both return
the seat's outcome; both write every accepted entry to the log as it is accepted.

What people see goes through a :class:`NetObserver` (no-ops by default), so a
front end can be swapped without touching the network code.
"""

from __future__ import annotations

import contextlib
import secrets
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import trio

from fairdeal import __version__
from fairdeal.core.errors import ConfigError, FairdealError, RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.core.rng import Rng
from fairdeal.core.rules import Game
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.header import Header, SeatInfo
from fairdeal.core.session.session import HEADER, EntryAccepted, Event, Session

from . import wire
from .chat import ChatRoom
from .driver import Agent, PeerGone, SeatOutcome, Timeouts, run_guest, run_host
from .invite import Invite
from .link import Keepalive, LinkStats, NetLink
from .lobby import Joiner, Lobby, LobbyLimits, LobbyObserver, Table
from .stream import PeerClosed, secure_connect

ANY_ADDRESS: Final = "0.0.0.0"
_ROUTE_PROBE: Final = ("192.0.2.1", 9)  # TEST-NET-1: only a route lookup, no packet is ever sent


class NetError(FairdealError):
    """Network play could not start or go on: unreachable host, refused seat, lobby closed."""


class LogSink(Protocol):
    """Where accepted entries go, in order (a :class:`fairdeal.storage.LogWriter`)."""

    def append(self, entry: bytes) -> None: ...

    def close(self) -> None: ...


class NetObserver(LobbyObserver):
    """What network play reports to the person at this end (every method a no-op here)."""

    def listening(self, code: str, invite: Invite, bound: Sequence[str]) -> None:
        """The host listens on ``bound`` and hands out ``code``."""

    def connected(self, invite: Invite) -> None:
        """The joiner reached the host and the host's identity matched the invite."""

    def welcomed(self, welcome: wire.Welcome, name: str, kind: str) -> None:
        """The joiner took seat ``welcome.seat``."""

    def lobby(self, lobby: wire.Lobby) -> None:
        """The joiner got a lobby update."""

    def starting(self, header: Header, seat: int) -> None:
        """Every seat is filled: the game begins (the header is the log's first entry)."""

    def events(self, session: Session, events: Sequence[Event]) -> None:
        """Entries were accepted (moves, game over, audit, abort)."""

    def chat_ready(self, say: Callable[[str], bool]) -> None:
        """The game started: ``say(text)`` sends a line of chat to the table."""

    def chat(self, seat: int, name: str, fingerprint: str, text: str) -> None:
        """A line of chat, checked (``fingerprint`` is the seat's, from the game's header)."""


@dataclass(frozen=True)
class Prepared:
    """A joiner's answer to a welcome: the game it plays, its agent, name and announced kind."""

    game: Game
    agent: Agent
    name: str
    kind: str


@dataclass
class NetOutcome(SeatOutcome):
    """A seat's outcome, with the traffic of its links by seat (the host's link for a guest: seat 0)."""

    links: dict[int, LinkStats] = field(default_factory=dict)


@dataclass
class HostPlan:
    """Everything :func:`host_game` needs; ``rng`` fixes all randomness (tests, benchmarks)."""

    game: Game
    plugin: str
    distribution: str
    version: str
    options: Mapping[str, bool | int | str]
    players: int
    identity: Identity
    name: str
    kind: str
    agent: Agent
    bind: str = ANY_ADDRESS
    port: int = 0
    advertise: str | None = None
    timeouts: Timeouts = field(default_factory=Timeouts)
    keepalive: Keepalive = field(default_factory=Keepalive)
    limits: LobbyLimits = field(default_factory=LobbyLimits)
    rng: Rng | None = None
    open_log: Callable[[Header], LogSink] | None = None


@dataclass
class JoinPlan:
    """Everything :func:`join_game` needs. ``prepare`` turns the host's welcome into the seat's
    game, agent, name and kind, or raises ConfigError (the joiner then says bye and stops)."""

    invite: Invite
    identity: Identity
    prepare: Callable[[wire.Welcome], Prepared]
    keepalive: Keepalive = field(default_factory=Keepalive)
    connect_timeout: float = 15.0
    handshake_timeout: float = 10.0
    rng: Rng | None = None
    open_log: Callable[[Header], LogSink] | None = None


# -- sessions that never let a peer's entry crash this process --------------------------------------
def _claimed_seat(data: bytes) -> int | None:
    try:
        return decode_envelope(data).seat
    except FairdealError:
        return None


class GuardedSession(Session):
    """A session whose :meth:`receive` raises only RemoteProtocolError for another seat's entry.

    Checking an entry is atomic (a refused entry changes nothing), so an unexpected error
    while checking a peer's entry is turned into a refusal of that entry, naming the seat.
    """

    def receive(self, data: bytes, *, peer: str | None = None) -> list[Event]:
        try:
            return super().receive(data, peer=peer)
        except RemoteProtocolError:
            raise
        except Exception as exc:
            seat = _claimed_seat(data)
            if seat is not None and seat == self.seat:
                raise
            raise RemoteProtocolError(
                f"the entry could not be checked ({type(exc).__name__}: {wire.clean_text(str(exc), 120)})",
                seat=seat,
                peer=peer,
            ) from exc


class GuestSession(GuardedSession):
    """A guest's session: the header must also match what the host's welcome promised."""

    def __init__(self, *args: Any, welcome: wire.Welcome, name: str, kind: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._welcome, self._name, self._kind = welcome, name, kind

    def receive(self, data: bytes, *, peer: str | None = None) -> list[Event]:
        if self.seq == 0:
            env = decode_envelope(data, peer=peer)
            if env.kind == HEADER and env.seq == 0:
                self._check_header(Header.from_body(env.game_id, env.body))
        return super().receive(data, peer=peer)

    def _check_header(self, h: Header) -> None:
        w = self._welcome

        def bad(reason: str) -> RemoteProtocolError:
            return RemoteProtocolError(f"the header is not what the host offered: {reason}", seat=0)

        if (h.game, h.players) != (w.game, w.players):
            raise bad(f"{h.game} for {h.players}, not {w.game} for {w.players}")
        if dict(h.options) != dict(w.options):
            raise bad("other options")
        mine = h.seats[w.seat]
        if (mine.name, mine.kind) != (self._name, self._kind):
            raise bad("this seat's name or kind differs from what this joiner announced")


# -- hosting ---------------------------------------------------------------------------------------
def guess_address() -> str:
    """The IPv4 address other machines most likely reach this one at (127.0.0.1 if none).

    A UDP socket is pointed at a documentation address: the kernel picks the outgoing
    interface; nothing is sent.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(_ROUTE_PROBE)
            address = str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    return address if address and address != ANY_ADDRESS else "127.0.0.1"


def _advertised(plan: HostPlan) -> str:
    if plan.advertise:
        return plan.advertise
    if plan.bind not in (ANY_ADDRESS, "::", ""):
        return plan.bind
    return guess_address()


def _listen_address(listener: trio.SocketListener) -> tuple[str, int]:
    host, port = listener.socket.getsockname()[:2]
    return str(host), int(port)


async def _close_links(links: Mapping[int, NetLink], reason: str) -> None:
    async with trio.open_nursery() as nursery:
        for link in links.values():
            nursery.start_soon(link.aclose, reason)


def _entry_logger(
    open_log: Callable[[Header], LogSink] | None,
) -> tuple[Callable[[Session, Sequence[Event]], None], Callable[[], None]]:
    """An observer that writes accepted entries (opening the log at the header), and a closer."""
    sink: list[LogSink] = []

    def write(session: Session, events: Sequence[Event]) -> None:
        for ev in events:
            if not isinstance(ev, EntryAccepted):
                continue
            if not sink and open_log is not None:
                sink.append(open_log(session.header))
            if sink:
                sink[0].append(ev.data)

    def close() -> None:
        if sink:
            sink[0].close()

    return write, close


async def host_game(plan: HostPlan, observer: NetObserver | None = None) -> NetOutcome:
    """Host one game: listen, fill the seats, play seat 0 and sequence everyone's entries.

    Returns when the game is over or aborted (``outcome.error`` then says why and whom it
    blames). Raises NetError if it cannot listen, ConfigError for a bad plan.
    """
    obs = observer or NetObserver()
    g = plan.game
    if not max(2, g.min_players) <= plan.players <= g.max_players:
        raise ConfigError(f"{g.name} is for {g.min_players} to {g.max_players} players, not {plan.players}")
    g.config(plan.players, dict(plan.options))
    if not wire.valid_name(plan.name) or not wire.valid_kind(plan.kind):
        raise ConfigError("the host's name or seat kind is not valid")
    try:
        listeners = await trio.open_tcp_listeners(plan.port, host=plan.bind or None)
    except OSError as exc:
        raise NetError(f"cannot listen on {plan.bind}:{plan.port}: {exc.strerror or exc}") from None
    try:
        bound = [_listen_address(x) for x in listeners]
        port = bound[0][1]
        session_id = plan.rng.fork("session-id").bytes(8) if plan.rng else secrets.token_bytes(8)
        invite = Invite(_advertised(plan), port, plan.identity.fingerprint, session_id)
        obs.listening(invite.encode(), invite, [f"{h}:{p}" for h, p in bound])
        table = Table(g.name, plan.distribution, plan.version, dict(plan.options), plan.players)
        host_seat = wire.LobbySeat(plan.name, plan.identity.fingerprint, plan.kind)
        lobby = Lobby(
            plan.identity,
            session_id,
            table,
            host_seat,
            observer=obs,
            keepalive=plan.keepalive,
            limits=plan.limits,
        )
        async with trio.open_nursery() as links_nursery:
            try:
                seated = await lobby.fill(listeners, links_nursery)
            finally:
                for listener in listeners:
                    await trio.aclose_forcefully(listener)
            outcome = await _play_host(plan, obs, seated)
    finally:
        for listener in listeners:
            await trio.aclose_forcefully(listener)
    return outcome


async def _play_host(
    plan: HostPlan, obs: NetObserver, seated: Mapping[int, tuple[Joiner, NetLink]]
) -> NetOutcome:
    g = plan.game
    seats = [SeatInfo(plan.name, plan.identity.public_key, plan.kind)]
    seats += [SeatInfo(j.name, j.identity, j.kind) for j, _ in (seated[s] for s in sorted(seated))]
    game_id = plan.rng.fork("game-id").bytes(16) if plan.rng else secrets.token_bytes(16)
    header = Header(
        game_id, g.name, plan.plugin, plan.distribution, plan.version, dict(plan.options), tuple(seats)
    )
    links = {s: link for s, (_, link) in seated.items()}
    session = GuardedSession(g, 0, plan.identity, plan.rng.fork("seat-0") if plan.rng else None)
    write, close_log = _entry_logger(plan.open_log)

    def observe(s: Session, events: Sequence[Event]) -> None:
        write(s, events)
        obs.events(s, events)

    obs.starting(header, 0)
    room = ChatRoom(header, 0, plan.identity, links, obs.chat)
    for seat, link in links.items():
        link.start_game()
        link.on_chat = room.from_link(seat)
    obs.chat_ready(room.say)
    try:
        result = await run_host(session, header, plan.agent, links, observe, plan.timeouts)
    finally:
        close_log()
        done = session.aborted is None and session.finished
        with trio.CancelScope(shield=True):
            await _close_links(links, "the game is over" if done else "the game has ended")
    return NetOutcome(result.session, result.error, result.events, {s: k.stats for s, k in links.items()})


# -- joining ---------------------------------------------------------------------------------------
class _Interrupted(Exception):
    """An entry arrived, or the link closed, while this seat was deciding."""


class _Interruptible:
    """An agent whose decision is dropped as soon as the host sends something (an abort) or goes away."""

    def __init__(self, agent: Agent, link: NetLink) -> None:
        self.agent, self.link = agent, link

    async def decide(self, session: Session, moves: list[Any]) -> Any:
        box: list[Any] = []
        async with trio.open_nursery() as nursery:

            async def think() -> None:
                box.append(await self.agent.decide(session, moves))
                nursery.cancel_scope.cancel()

            async def watch() -> None:
                await self.link.wait_activity()
                nursery.cancel_scope.cancel()

            nursery.start_soon(think)
            nursery.start_soon(watch)
        if not box:
            raise _Interrupted
        return box[0]


async def _connect(plan: JoinPlan) -> trio.SocketStream:
    invite = plan.invite
    try:
        with trio.fail_after(plan.connect_timeout):
            return await trio.open_tcp_stream(invite.host, invite.port)
    except trio.TooSlowError:
        raise NetError(
            f"could not reach the host at {invite.address} within {plan.connect_timeout:g} s"
        ) from None
    except OSError as exc:
        raise NetError(f"could not connect to the host at {invite.address}: {_os_reason(exc)}") from None


def _os_reason(exc: BaseException) -> str:
    """The first operating-system reason (``Connection refused``) behind a connection failure."""
    seen: list[BaseException] = [exc]
    while seen:
        e = seen.pop(0)
        if isinstance(e, OSError) and e.strerror:
            return e.strerror
        if isinstance(e, BaseExceptionGroup):
            seen.extend(e.exceptions)
        if e.__cause__ is not None:
            seen.append(e.__cause__)
    return str(exc)


async def _expect(secure: Any, timeout: float, what: str) -> wire.Message:
    try:
        with trio.fail_after(timeout):
            return wire.decode(await secure.receive(), peer="the host")
    except trio.TooSlowError:
        raise NetError(f"the host did not send {what} within {timeout:g} s") from None
    except PeerClosed:
        raise NetError(f"the host closed the connection before sending {what}") from None
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        raise NetError("lost the connection to the host") from None


async def join_game(plan: JoinPlan, observer: NetObserver | None = None) -> NetOutcome:
    """Join the game of ``plan.invite`` and play the offered seat to the end.

    Raises NetError or RemoteProtocolError when the game cannot start (unreachable host,
    "host identity does not match the invite", refused, lobby closed) and ConfigError when
    ``plan.prepare`` declines the table. Once the game started, problems end it and are
    reported in ``outcome.error`` (the log holds every entry accepted up to there).
    """
    obs = observer or NetObserver()
    invite = plan.invite
    stream = await _connect(plan)
    secure = await secure_connect(
        stream,
        plan.identity,
        initiator=True,
        expected_peer_fingerprint=invite.fingerprint,
        handshake_timeout=plan.handshake_timeout,
        peer=invite.address,
    )
    try:
        obs.connected(invite)
        await secure.send(wire.encode(wire.Hello(invite.session, f"fairdeal {__version__}")))
        msg = await _expect(secure, plan.handshake_timeout, "a welcome")
        if isinstance(msg, wire.Refused):
            raise NetError(f"the host refused: {msg.reason}")
        if not isinstance(msg, wire.Welcome):
            raise RemoteProtocolError(f"expected welcome, not {type(msg).__name__.lower()}", peer="the host")
        welcome = msg
        try:
            if welcome.protocol != wire.PROTOCOL:
                raise ConfigError(
                    f"the host speaks protocol {welcome.protocol}, this fairdeal {wire.PROTOCOL}"
                )
            prepared = plan.prepare(welcome)
            prepared.game.config(welcome.players, dict(welcome.options))
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
    obs.welcomed(welcome, prepared.name, prepared.kind)
    link = NetLink(
        secure,
        role="guest",
        peer="the host",
        keepalive=plan.keepalive,
        on_control=lambda m: obs.lobby(m) if isinstance(m, wire.Lobby) else None,
    )
    early: list[wire.Chat] = []  # chat that comes before the header: checked once it is known
    link.on_chat = lambda m: early.append(m) if len(early) < 16 else None
    rng = plan.rng.fork(f"seat-{welcome.seat}") if plan.rng else None
    session = GuestSession(
        prepared.game,
        welcome.seat,
        plan.identity,
        rng,
        welcome=welcome,
        name=prepared.name,
        kind=prepared.kind,
    )
    write, close_log = _entry_logger(plan.open_log)
    started = False
    error: str | None = None
    events: list[Event] = []

    def observe(s: Session, new: Sequence[Event]) -> None:
        nonlocal started
        if not started:
            started = True
            obs.starting(s.header, welcome.seat)
            room = ChatRoom(s.header, welcome.seat, plan.identity, {0: link}, obs.chat)
            link.on_chat = room.from_link(0)
            for line in early:
                link.on_chat(line)
            obs.chat_ready(room.say)
        events.extend(new)
        write(s, new)
        obs.events(s, new)

    agent = _Interruptible(prepared.agent, link)
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(link.run)
            try:
                while error is None and not session.finished:
                    try:
                        await run_guest(session, agent, link, observe)
                    except (_Interrupted, PeerGone):
                        pass  # an entry came in while this seat was deciding, or the link closed
                    except RemoteProtocolError as exc:
                        error = f"the host sent an entry this seat refuses: {exc}"
                        break
                    try:  # what arrived before the link closed (an abort, say) still counts
                        for data in link.take_pending():
                            if session.finished:
                                break
                            observe(session, session.receive(data, peer="the host"))
                    except RemoteProtocolError as exc:
                        error = f"the host sent an entry this seat refuses: {exc}"
                    if error is None and not session.finished and not link.alive:
                        reason = link.error or "the link was closed"
                        error = f"the host left the game ({reason})" if started else reason
            finally:
                close_log()
                bye = "the game is over" if session.finished else (error or "leaving")
                with trio.CancelScope(shield=True):
                    await link.aclose(bye)
    finally:
        await trio.aclose_forcefully(secure)  # type: ignore[arg-type]
    if not started:
        raise NetError(f"the game did not start: {error or 'the host closed the lobby'}")
    return NetOutcome(session, error, events, {0: link.stats})


__all__ = [
    "GuardedSession",
    "GuestSession",
    "HostPlan",
    "JoinPlan",
    "LogSink",
    "NetError",
    "NetObserver",
    "NetOutcome",
    "Prepared",
    "guess_address",
    "host_game",
    "join_game",
]
