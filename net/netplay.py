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
import ipaddress
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
from fairdeal.core.session.session import HEADER, AlteredEntry, EntryAccepted, Event, Session

from . import wire
from .chat import ChatRoom
from .connect import RELAY_DELAY, connect_host
from .doors import DoorsObserver, keep_doors
from .driver import Agent, PeerGone, SeatOutcome, Timeouts, run_guest, run_host
from .errors import NetError
from .invite import MAX_DOORS, SECRET_BYTES, Endpoint, Invite, parse_endpoint
from .lan import Announcement, LanAnnouncer
from .link import Keepalive, LinkStats, NetLink
from .lobby import Joiner, Lobby, LobbyLimits, LobbyObserver, Offer, Table
from .stream import PeerClosed

ANY_ADDRESS: Final = "0.0.0.0"
MAX_HINTS: Final = 4
"""Direct addresses put in an invite code (``--advertise`` first), to keep codes short."""
_ROUTE_PROBE: Final = ("192.0.2.1", 9)  # TEST-NET-1: only a route lookup, no packet is ever sent


class LogSink(Protocol):
    """Where accepted entries go, in order (a :class:`fairdeal.storage.LogWriter`)."""

    def append(self, entry: bytes) -> None: ...

    def close(self) -> None: ...


class NetObserver(LobbyObserver, DoorsObserver):
    """What network play reports to the person at this end (every method a no-op here)."""

    def listening(self, code: str, invite: Invite, bound: Sequence[str]) -> None:
        """The host listens on ``bound`` and hands out ``code``."""

    def announced(self, name: str) -> None:
        """The game is announced on the local network under ``name``."""

    def announce_failed(self, reason: str) -> None:
        """The game could not be announced on the local network (it goes on without)."""

    def connected(self, invite: Invite, path: str, via: str) -> None:
        """The joiner reached the host (``path`` ``direct`` or ``relay``, through ``via``) and the
        host's identity matched the invite."""

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
    """Everything :func:`host_game` needs; ``rng`` fixes all randomness (tests, benchmarks).

    ``relay`` is the transit relay joiners may come through (None: direct connections only),
    with ``doors`` waiting connections (default: one per joiner's seat). ``announce`` puts the
    game on the local network (on ``lan_interfaces``, default all).
    """

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
    relay: Endpoint | None = None
    doors: int | None = None
    announce: bool = False
    lan_interfaces: Sequence[str] | None = None
    timeouts: Timeouts = field(default_factory=Timeouts)
    keepalive: Keepalive = field(default_factory=Keepalive)
    limits: LobbyLimits = field(default_factory=LobbyLimits)
    rng: Rng | None = None
    open_log: Callable[[Header], LogSink] | None = None


@dataclass
class JoinPlan:
    """Everything :func:`join_game` needs. ``prepare`` turns the host's welcome into the seat's
    game, agent, name and kind, or raises ConfigError (the joiner then says bye and stops).
    ``extra_direct`` adds direct addresses to the invite's (those a LAN announcement gave)."""

    invite: Invite
    identity: Identity
    prepare: Callable[[wire.Welcome], Prepared]
    keepalive: Keepalive = field(default_factory=Keepalive)
    connect_timeout: float = 15.0
    handshake_timeout: float = 10.0
    extra_direct: Sequence[Endpoint] = ()
    relay_delay: float = RELAY_DELAY
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
                f"the entry could not be checked: {wire.clean_text(str(exc), 120) or 'no reason given'}",
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


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses others on the LAN may reach, best guess first (loopback and
    link-local left out; 127.0.0.1 if there is nothing else)."""
    import ifaddr

    found: list[str] = []
    try:
        adapters = ifaddr.get_adapters()
    except OSError:
        adapters = []
    for adapter in adapters:
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue
            a = ipaddress.ip_address(ip.ip)
            if not (a.is_loopback or a.is_link_local or a.is_unspecified or a.is_multicast):
                found.append(str(a))
    guess = guess_address()
    ordered = list(dict.fromkeys([guess, *found] if guess in found else found))
    return ordered or ["127.0.0.1"]


def direct_hints(plan: HostPlan, port: int) -> list[Endpoint]:
    """The direct addresses of the invite: ``--advertise`` first, then where the host listens."""
    hints: list[Endpoint] = []
    if plan.advertise:
        try:
            hints.append(parse_endpoint(plan.advertise))
        except ValueError:
            hints.append(Endpoint(plan.advertise, port))
    if plan.bind in (ANY_ADDRESS, "::", ""):
        hints += [Endpoint(a, port) for a in lan_addresses()]
    else:
        hints.append(Endpoint(plan.bind, port))
    return list(dict.fromkeys(hints))[:MAX_HINTS]


def _listen_address(listener: trio.SocketListener) -> tuple[str, int]:
    host, port = listener.socket.getsockname()[:2]
    return str(host), int(port)


async def _close_links(links: Mapping[int, NetLink], reason: str) -> None:
    async with trio.open_nursery() as nursery:
        for link in links.values():
            nursery.start_soon(link.aclose, reason)


class _Log:
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

    def keep_evidence(self, exc: AlteredEntry) -> str | None:
        """Keep what this seat sent and what the host relayed instead beside the log; where."""
        keep = getattr(self._sink, "keep_evidence", None)
        if keep is None:
            return None
        return str(keep(exc.reason, exc.sent, exc.received))

    def close(self) -> None:
        if self._sink is not None:
            self._sink.close()


async def host_game(plan: HostPlan, observer: NetObserver | None = None) -> NetOutcome:
    """Host one game: listen, fill the seats, play seat 0 and sequence everyone's entries.

    Joiners come in directly on the listening port and, with a relay, through the relay
    doors; with ``plan.announce`` the game is announced on the local network until the
    table is full. Late joiners are told "the table is full" until the game ends.

    Returns when the game is over or aborted (``outcome.error`` then says why and whom it
    blames). Raises NetError if it cannot listen, ConfigError for a bad plan.
    """
    obs = observer or NetObserver()
    g = plan.game
    if not max(2, g.min_players) <= plan.players <= g.max_players:
        raise ConfigError(f"{g.name} is for {g.min_players} to {g.max_players} players, not {plan.players}")
    plan.options = dict(g.config(plan.players, dict(plan.options)).options)  # every option, typed
    if not wire.valid_name(plan.name) or not wire.valid_kind(plan.kind):
        raise ConfigError("the host's name or seat kind is not valid")
    doors = 0 if plan.relay is None else (plan.doors or min(MAX_DOORS, plan.players - 1))
    try:
        listeners = await trio.open_tcp_listeners(plan.port, host=plan.bind or None)
    except OSError as exc:
        raise NetError(f"cannot listen on {plan.bind}:{plan.port}: {exc.strerror or exc}") from None
    try:
        bound = [_listen_address(x) for x in listeners]
        port = bound[0][1]
        rng = plan.rng
        secret = rng.fork("table-secret").bytes(SECRET_BYTES) if rng else secrets.token_bytes(SECRET_BYTES)
        invite = Invite(plan.identity.fingerprint, secret, tuple(direct_hints(plan, port)), plan.relay, doors)
        code = invite.encode()
        obs.listening(code, invite, [f"{h}:{p}" for h, p in bound])
        table = Table(g.name, plan.distribution, plan.version, dict(plan.options), plan.players)
        host_seat = wire.LobbySeat(plan.name, plan.identity.fingerprint, plan.kind)
        announcer = _announcer(plan, obs, invite, code, port) if plan.announce else None
        lobby = Lobby(
            plan.identity,
            invite.session,
            table,
            host_seat,
            observer=obs,
            keepalive=plan.keepalive,
            limits=plan.limits,
            on_change=(lambda lb: announcer.update(lb.players - lb.missing)) if announcer else None,
        )

        async def doors_source(offer: Offer) -> None:
            await keep_doors(invite, offer, obs)

        sources = [doors_source] if doors else []
        async with trio.open_nursery() as links_nursery, trio.open_nursery() as accepting:
            lan_scope = trio.CancelScope()
            if announcer is not None:
                accepting.start_soon(_scoped, lan_scope, announcer.run)
            seated = await lobby.fill(listeners, links_nursery, sources, accepting)
            lan_scope.cancel()  # the table is full: withdraw the announcement
            outcome = await _play_host(plan, obs, seated)
            accepting.cancel_scope.cancel()
    finally:
        for listener in listeners:
            await trio.aclose_forcefully(listener)
    return outcome


async def _scoped(scope: trio.CancelScope, run: Callable[[], Any]) -> None:
    with scope:
        await run()


def _announcer(plan: HostPlan, obs: NetObserver, invite: Invite, code: str, port: int) -> LanAnnouncer:
    addresses = [e.host for e in invite.direct if e.port == port]
    return LanAnnouncer(
        Announcement(plan.game.name, plan.name, plan.identity.fingerprint, 1, plan.players, code),
        addresses,
        port,
        interfaces=plan.lan_interfaces,
        on_error=obs.announce_failed,
        on_announced=obs.announced,
    )


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
    log = _Log(plan.open_log)

    def observe(s: Session, events: Sequence[Event]) -> None:
        log.write(s, events)
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
        log.close()
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


def _refusal(exc: FairdealError, log: _Log) -> str:
    """Why a guest stops: the host sent what it refuses, or this program failed."""
    if isinstance(exc, AlteredEntry):
        where = log.keep_evidence(exc)
        kept = f"; what it relayed is kept in {where}" if where else ""
        return f"{exc.reason}: the game stops here{kept}"
    if isinstance(exc, RemoteProtocolError):
        return f"the host sent an entry this seat refuses: {exc}"
    return f"this program could not go on: {exc}"


async def join_game(plan: JoinPlan, observer: NetObserver | None = None) -> NetOutcome:
    """Join the game of ``plan.invite`` and play the offered seat to the end.

    Raises NetError or RemoteProtocolError when the game cannot start (unreachable host,
    "host identity does not match the invite", refused, lobby closed) and ConfigError when
    ``plan.prepare`` declines the table. Once the game started, problems end it and are
    reported in ``outcome.error`` (the log holds every entry accepted up to there).
    """
    obs = observer or NetObserver()
    invite = plan.invite
    connected = await connect_host(
        invite,
        plan.identity,
        extra_direct=plan.extra_direct,
        connect_timeout=plan.connect_timeout,
        handshake_timeout=plan.handshake_timeout,
        relay_delay=plan.relay_delay,
    )
    secure = connected.secure
    try:
        obs.connected(invite, connected.path, connected.via)
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
    log = _Log(plan.open_log)
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
        log.write(s, new)
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
                    except FairdealError as exc:
                        error = _refusal(exc, log)
                        break
                    try:  # what arrived before the link closed (an abort, say) still counts
                        for data in link.take_pending():
                            if session.finished:
                                break
                            observe(session, session.receive(data, peer="the host"))
                    except FairdealError as exc:
                        error = _refusal(exc, log)
                    if error is None and not session.finished and not link.alive:
                        reason = link.error or "the link was closed"
                        error = f"the host left the game ({reason})" if started else reason
            finally:
                log.close()
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
