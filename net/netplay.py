"""Network play: host a game and let joiners in, or join one from an invite code.

:func:`host_game` listens, runs the :class:`~fairdeal.net.lobby.Lobby` until every
seat is filled, writes the header and drives the game with
:func:`~fairdeal.net.driver.run_host` (its own seat's session checks every entry).
:func:`join_game` connects, checks the host's identity against the invite, takes
the offered seat and plays with :func:`~fairdeal.net.driver.run_guest`. Both return
the seat's outcome; both write every accepted entry to the log as it is accepted.

A game survives drops and crashes: the host holds a seat whose link dropped for its
grace period (:class:`~fairdeal.net.roster.Roster`) and takes it back when it returns
(``rejoin``), while a guest that loses the host keeps trying to reach it
(:mod:`~fairdeal.net.follow`). A seat whose program died resumes from its log and seed
(``HostPlan.resume``, ``JoinPlan.resume``). :func:`watch_game` follows a game as a
watcher. When every player agrees, the game is adjourned: everyone stops with its log and
seed kept, to resume later.

What people see goes through a :class:`NetObserver` (no-ops by default), so a
front end can be swapped without touching the network code.
"""

from __future__ import annotations

import contextlib
import ipaddress
import math
import secrets
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, cast

import trio

from fairdeal import __version__
from fairdeal.core.errors import ConfigError, FairdealError, RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.core.rng import Rng, SeededRng
from fairdeal.core.rules import Game
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.header import Header, SeatInfo
from fairdeal.core.session.session import HEADER, AlteredEntry, EntryAccepted, Event, HostCheated, Session

from . import _fault, wire
from .chat import ChatRoom
from .connect import RELAY_DELAY
from .doors import DoorBell, DoorsObserver, keep_doors
from .driver import Agent, PeerGone, SeatOutcome, Timeouts, run_host
from .errors import NetError
from .follow import HOST_LEFT, Connector, Follower, Keeper, come_back, expect, refusal_text
from .invite import MAX_DOORS, SECRET_BYTES, Endpoint, Invite, parse_endpoint
from .lan import Announcement, LanAnnouncer
from .link import Keepalive, LinkStats, NetLink
from .lobby import Joiner, Lobby, LobbyLimits, LobbyObserver, Offer, Table
from .roster import Roster

ANY_ADDRESS: Final = "0.0.0.0"
MAX_HINTS: Final = 4
"""Direct addresses put in an invite code (``--advertise`` first), to keep codes short."""
_ROUTE_PROBE: Final = ("192.0.2.1", 9)  # TEST-NET-1: only a route lookup, no packet is ever sent
SEED_BYTES: Final = 32
GRACE: Final = 120.0
"""Seconds a host holds a seat whose link dropped (``host --grace``)."""
WATCHERS: Final = 16
"""Watchers a host lets in (``host --watchers``)."""
VOTE_GAP: Final = 1.0
"""Seconds between two changes of a guest's adjourn vote (faster ones are ignored, and counted)."""


def seat_rng(seed: bytes) -> Rng:
    """The randomness of a seat, all of it from its secret 32-byte seed (kept to resume the seat)."""
    return SeededRng(seed, "fairdeal/seat")


def new_seed(rng: Rng | None, seat: int) -> bytes:
    """A seat's seed: fresh from the system, or derived from ``rng`` (tests, benchmarks)."""
    return rng.fork(f"seat-{seat}").bytes(SEED_BYTES) if rng is not None else secrets.token_bytes(SEED_BYTES)


class NoKeeper:
    """A seat that keeps nothing on disk (it cannot be resumed after a crash)."""

    def table(self, code: str, port: int) -> None:
        pass

    def begin(self, seat: int, seed: bytes, grace: int) -> None:
        pass

    def sent(self, data: bytes) -> None:
        pass

    def chat(self, marks: tuple[int, ...]) -> None:
        pass

    def adjourned(self) -> None:
        pass

    def finished(self) -> None:
        pass


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

    # -- a game that survives ------------------------------------------------------------------------
    def resumed(self, header: Header, seat: int | None, entries: int) -> None:
        """The game goes on from a log of ``entries`` entries (a resumed seat, or a watcher)."""

    def away(self, seat: int, name: str, seconds: float) -> None:
        """Seat ``seat``'s link dropped: it is held ``seconds`` more ("waiting for NAME to come back")."""

    def back(self, seat: int, name: str) -> None:
        """Seat ``seat`` came back; the game goes on."""

    def host_lost(self, reason: str, seconds: float) -> None:
        """This joiner lost the host: it tries to reach it again for ``seconds``."""

    def host_back(self, path: str, via: str, entries: int) -> None:
        """This joiner reached the host again (it holds ``entries`` entries)."""

    def host_left(self) -> None:
        """The host left the game on purpose (its person stopped it): this joiner stops too."""

    def watcher_joined(self, watchers: int) -> None:
        """A watcher came in (``watchers`` follow the game now)."""

    def adjourn_ready(self, vote: Callable[[bool], bool]) -> None:
        """The game started: ``vote(True)`` proposes (or agrees) to adjourn, ``vote(False)`` declines."""

    def adjourn_vote(self, seat: int, name: str, agree: bool, missing: Sequence[str]) -> None:
        """Seat ``seat`` proposed or agreed to adjourn (``agree``), or declined; ``missing``: who has
        not agreed yet."""

    def adjourned(self, entries: int) -> None:
        """Every player agreed: the game stops after ``entries`` entries, to be resumed later."""

    def link_flooded(self, seat: int, name: str, reason: str) -> None:
        """(The host) seat ``seat``'s link sent too many messages that were ignored or refused
        (``reason`` says what): it was dropped."""


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


@dataclass(frozen=True)
class HostResume:
    """A host that goes on with a game: its log's entries and the invite code it handed out."""

    entries: Sequence[bytes]
    invite: Invite
    seed: bytes
    chat: Sequence[int] = ()


@dataclass(frozen=True)
class GuestResume:
    """A guest that goes on with a game: its log's entries, its seat and seed, and the decision it
    had sent (kept in its seed file) whose echo it never saw."""

    entries: Sequence[bytes]
    seat: int
    seed: bytes
    sent: bytes | None = None
    wait: float = GRACE
    chat: Sequence[int] = ()


@dataclass
class HostPlan:
    """Everything :func:`host_game` needs; ``rng`` fixes all randomness (tests, benchmarks).

    ``relay`` is the transit relay joiners may come through (None: direct connections only),
    with ``doors`` waiting connections (default: one per joiner's seat). ``announce`` puts the
    game on the local network (on ``lan_interfaces``, default all) for as long as seats are
    free, or watchers may come. ``grace``: seconds a dropped seat is held (0: it is blamed at
    once). ``watchers``: how many may follow the game (0: none). ``resume`` goes on with a game
    from its log (on the same port, with the same code). ``keeper`` keeps the seat's seed.
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
    grace: float = GRACE
    watchers: int = WATCHERS
    seed: bytes | None = None
    keeper: Keeper | None = None
    resume: HostResume | None = None
    auto_adjourn: bool = False


@dataclass
class JoinPlan:
    """Everything :func:`join_game` needs. ``prepare`` turns the host's welcome into the seat's
    game, agent, name and kind, or raises ConfigError (the joiner then says bye and stops).
    ``extra_direct`` adds direct addresses to the invite's (those a LAN announcement gave).
    ``resume`` goes on with a game from this seat's log (it comes back to the host instead of
    taking a new seat); ``keeper`` keeps the seat's seed; with ``auto_adjourn`` (a bot seat)
    the seat agrees to adjourn as soon as someone proposes it."""

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
    seed: bytes | None = None
    keeper: Keeper | None = None
    resume: GuestResume | None = None
    auto_adjourn: bool = False

    def connector(self, invite: Invite | None = None) -> Connector:
        return _connector(self, invite)


@dataclass
class WatchPlan:
    """Everything :func:`watch_game` needs: the invite, this end's identity (any: a watcher is not
    a seat), how to find a game by name, where to write the log."""

    invite: Invite
    identity: Identity
    resolve: Callable[[str], Game]
    keepalive: Keepalive = field(default_factory=Keepalive)
    connect_timeout: float = 15.0
    handshake_timeout: float = 10.0
    extra_direct: Sequence[Endpoint] = ()
    relay_delay: float = RELAY_DELAY
    open_log: Callable[[Header], LogSink] | None = None


def _connector(plan: JoinPlan | WatchPlan, invite: Invite | None = None) -> Connector:
    """How a joiner or a watcher reaches the host (``invite``, or the plan's), with the plan's limits."""
    return Connector(
        invite or plan.invite,
        plan.identity,
        plan.extra_direct,
        plan.connect_timeout,
        plan.handshake_timeout,
        plan.relay_delay,
        plan.keepalive,
    )


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


async def host_game(plan: HostPlan, observer: NetObserver | None = None) -> NetOutcome:
    """Host one game: listen, fill the seats, play seat 0 and sequence everyone's entries.

    Joiners come in directly on the listening port and, with a relay, through the relay
    doors; with ``plan.announce`` the game is announced on the local network while seats are
    free (and during the game when it takes watchers). Late joiners are told "the table is
    full" until the game ends; seats coming back and watchers are let in. With
    ``plan.resume`` the game goes on from its log, with the same invite code.

    Returns when the game is over, aborted or adjourned (``outcome.error`` then says why
    and whom it blames). Raises NetError if it cannot listen, ConfigError for a bad plan.
    """
    obs = observer or NetObserver()
    g = plan.game
    if not max(2, g.min_players) <= plan.players <= g.max_players:
        raise ConfigError(f"{g.name} is for {g.min_players} to {g.max_players} players, not {plan.players}")
    plan.options = dict(g.config(plan.players, dict(plan.options)).options)  # every option, typed
    if not wire.valid_name(plan.name) or not wire.valid_kind(plan.kind):
        raise ConfigError("the host's name or seat kind is not valid")
    if not 0 <= plan.grace <= wire.MAX_GRACE:
        raise ConfigError(f"a grace period is 0 to {wire.MAX_GRACE} seconds")
    session = _resumed_host_session(plan) if plan.resume is not None else None
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
        obs.listening(code, invite, [f"{h}:{p}" for h, p in bound])
        table = Table(
            g.name,
            plan.distribution,
            plan.version,
            dict(plan.options),
            plan.players,
            int(plan.grace),
            watchers=plan.watchers > 0,
        )
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

        bell = DoorBell()

        async def doors_source(offer: Offer) -> None:
            await keep_doors(invite, offer, obs, bell)

        sources = [doors_source] if invite.relay is not None and invite.doors else []
        async with trio.open_nursery() as links_nursery, trio.open_nursery() as accepting:
            lan_scope = trio.CancelScope()
            if announcer is not None:
                if session is not None:
                    announcer.update(plan.players)
                accepting.start_soon(_scoped, lan_scope, announcer.run)
            if session is None:
                seated = await lobby.fill(listeners, links_nursery, sources, accepting)
            else:
                seated = {}
                await lobby.serve(listeners, links_nursery, sources, accepting)
            if plan.watchers <= 0:
                lan_scope.cancel()  # the table is full and takes no watchers: withdraw the announcement
            outcome = await _play_host(plan, obs, seated, lobby, session, bell)
            accepting.cancel_scope.cancel()
    finally:
        for listener in listeners:
            await trio.aclose_forcefully(listener)
    return outcome


def _resumed_host_session(plan: HostPlan) -> GuardedSession:
    """The host seat rebuilt from its log and seed: every entry checked again, as when it came."""
    r = plan.resume
    assert r is not None
    session = GuardedSession(plan.game, 0, plan.identity, seat_rng(r.seed))
    _replay(session, r.entries)
    return session  # finished, it still owes its last entries to those who did not get them


def _replay(session: Session, entries: Sequence[bytes]) -> None:
    """Apply a seat's own log to a fresh session (ConfigError when it does not replay)."""
    if not entries:
        raise ConfigError("the log holds no entry: there is no game to resume")
    for i, entry in enumerate(entries):
        try:
            session.receive(entry)
        except FairdealError as exc:
            raise ConfigError(
                f"the log does not replay with this seat's seed at entry {i} ({exc}): "
                "the seed file is from another game, or the log is damaged"
            ) from None


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


class _Table:
    """The host's table during the game: who is away and back, watchers, adjourn votes, chat."""

    def __init__(self, plan: HostPlan, obs: NetObserver, session: Session, header: Header) -> None:
        self.plan, self.obs, self.session, self.header = plan, obs, session, header
        self.roster: Roster | None = None
        self.room: ChatRoom | None = None
        self.votes: set[int] = set()
        self.bell: DoorBell | None = None
        self.voted_at: dict[int, float] = {}

    @property
    def guests(self) -> list[NetLink]:
        assert self.roster is not None
        return [link for link in self.roster.links.values() if isinstance(link, NetLink)]

    def _tell(self, msg: wire.Message, links: Sequence[Any]) -> None:
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
        self._tell(wire.Away(seat, int(seconds)), self.everyone())
        self.obs.away(seat, self.header.seats[seat].name, seconds)

    def back(self, seat: int) -> None:
        self._tell(wire.Back(seat), [x for s, x in self._links() if s != seat] + self._watchers())
        self.obs.back(seat, self.header.seats[seat].name)

    def _links(self) -> list[tuple[int, Any]]:
        assert self.roster is not None
        return list(self.roster.links.items())

    def _watchers(self) -> list[Any]:
        assert self.roster is not None
        return list(self.roster.watchers)

    # -- a link that comes in late ----------------------------------------------------------------------
    def prepare(self, seat: int, link: NetLink) -> None:
        link.start_game()
        name = self.header.seats[seat].name
        link.on_flood = lambda reason: self.obs.link_flooded(seat, name, reason)
        if self.room is not None:
            link.on_chat = self.room.from_link(seat)
        link.on_adjourn = lambda msg, seat=seat: self.hear(seat, msg)

    async def late(self, msg: wire.Rejoin | wire.Watch, identity: bytes, link: NetLink) -> str | None:
        roster = self.roster
        if roster is None or self.session.seq == 0:
            return "the game is starting: try again in a moment"
        grace = int(roster.grace)
        if isinstance(msg, wire.Watch):
            why = await roster.watch(
                link, msg.entries, msg.last, greet=lambda n: link.send(wire.Sync(n, grace))
            )
            if why is None:
                self._after_sync(link, None)
                self.obs.watcher_joined(len(roster.watchers))
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
                self._tell(wire.Away(s, max(0, int(away.deadline - now))), [link])
        for s in sorted(self.votes):
            self._tell(wire.Adjourn(s, True), [link])

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
        self._tell(wire.Adjourn(seat, agree), self.everyone())  # the voter's too: received
        players = [s for s in range(self.header.players) if s not in self.session.departed]
        missing = [self.header.seats[s].name for s in players if s not in self.votes]
        self.obs.adjourn_vote(seat, self.header.seats[seat].name, agree, missing)
        if agree and self.plan.auto_adjourn and 0 not in self.votes:
            self.vote_as(0, True)
            return True
        if agree and not missing:
            self.roster.adjourn()
        return True


def _ended(session: Session) -> str:
    """What the host says as it stops: the game ended (an abort), or it leaves a game not over."""
    return "the game has ended" if session.finished else HOST_LEFT


async def _play_host(
    plan: HostPlan,
    obs: NetObserver,
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
    log = _Log(plan.open_log)
    table = _Table(plan, obs, session, header)
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
        obs.events(s, events)

    if resumed is None:
        obs.starting(header, 0)
    else:
        obs.resumed(header, 0, session.seq)
        for seat in roster.away:
            obs.away(seat, header.seats[seat].name, roster.grace)
    marks = plan.resume.chat if plan.resume is not None else ()
    room = ChatRoom(
        header,
        0,
        plan.identity,
        cast("Mapping[int, NetLink]", roster.links),  # a host's roster holds its NetLinks
        obs.chat,
        marks=marks,
        keep=keeper.chat,
    )
    table.room = room
    for seat, link in links.items():
        table.prepare(seat, link)
    lobby.on_late = table.late
    obs.chat_ready(room.say)
    obs.adjourn_ready(table.vote)
    result: SeatOutcome | None = None
    try:
        if not session.finished:
            result = await run_host(session, header, plan.agent, roster, observe, plan.timeouts)
        else:  # the host stopped after the last entry, before everyone had it
            result = SeatOutcome(session)
        if session.finished:  # those whose link dropped at the end come back for the last entries
            await roster.linger(roster.grace)
    finally:
        log.close()
        roster.close()
        adjourned = result is not None and result.adjourned
        if adjourned:
            table._tell(wire.Adjourned(len(roster.backlog)), table.everyone())
            keeper.adjourned()
            obs.adjourned(len(roster.backlog))
        elif session.finished:
            keeper.finished()
        done = session.aborted is None and session.finished
        why = "the game is adjourned" if adjourned else "the game is over" if done else _ended(session)
        every = {id(x): x for x in [*links.values(), *table.everyone()] if isinstance(x, NetLink)}
        with trio.CancelScope(shield=True):
            await _close_links(every, why)
    stats = {s: k.stats for s, k in links.items()}
    return NetOutcome(result.session, result.error, result.events, result.adjourned, links=stats)


# -- joining ---------------------------------------------------------------------------------------
async def join_game(plan: JoinPlan, observer: NetObserver | None = None) -> NetOutcome:
    """Join the game of ``plan.invite`` and play the offered seat to the end.

    Raises NetError or RemoteProtocolError when the game cannot start (unreachable host,
    "host identity does not match the invite", refused, lobby closed) and ConfigError when
    ``plan.prepare`` declines the table. Once the game started, problems end it and are
    reported in ``outcome.error`` (the log holds every entry accepted up to there); a
    dropped link is not a problem until the host stays away longer than its grace period.
    With ``plan.resume`` the seat goes on from its log: it comes back to the host (waiting
    for it up to ``plan.resume.wait`` seconds) instead of taking a new seat.
    """
    obs = observer or NetObserver()
    if plan.resume is not None:
        return await _rejoin_game(plan, obs)
    invite = plan.invite
    connected = await plan.connector().connect()
    secure = connected.secure
    try:
        obs.connected(invite, connected.path, connected.via)
        await secure.send(wire.encode(wire.Hello(invite.session, f"fairdeal {__version__}")))
        msg = await expect(secure, plan.handshake_timeout, "a welcome")
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
    guest = _Guest(plan, obs, session, prepared.agent, seed, float(welcome.grace))
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
        obs: NetObserver,
        session: Session,
        agent: Agent,
        seed: bytes,
        grace: float,
        *,
        started: bool = False,
    ) -> None:
        self.plan, self.obs, self.session, self.seed = plan, obs, session, seed
        self.log = _Log(plan.open_log)
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
            _FollowReport(obs),
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
            self.obs.chat,
            marks=marks,
            keep=self.keeper.chat,
        )
        self.follower.room = room
        link = self.follower.links.get(0)
        if link is not None:
            link.on_chat = room.from_link(0)
            for line in self.early:
                link.on_chat(line)
        self.obs.chat_ready(room.say)
        self.obs.adjourn_ready(self.follower.vote)

    def observe(self, s: Session, new: Sequence[Event]) -> None:
        if not self.started:
            self.started = True
            assert s.seat is not None
            self.obs.starting(s.header, s.seat)
            self._start()
        self.events.extend(new)
        self.log.write(s, new)
        if s.seq == 1 and any(isinstance(e, EntryAccepted) for e in new):
            self.keeper.begin(s.seat or 0, self.seed, int(self.follower.grace))
        self.obs.events(s, new)

    def outcome(self) -> NetOutcome:
        f = self.follower
        stats = LinkStats()
        for x in f.stats:
            _add_stats(stats, x)
        return NetOutcome(self.session, f.error, self.events, f.adjourned, links={0: stats})


def _add_stats(into: LinkStats, x: LinkStats) -> None:
    for tag, n in x.sent.items():
        into.sent[tag] = into.sent.get(tag, 0) + n
    for tag, n in x.received.items():
        into.received[tag] = into.received.get(tag, 0) + n
    into.bytes_sent += x.bytes_sent
    into.bytes_received += x.bytes_received
    into.tcp_sent += x.tcp_sent
    into.tcp_received += x.tcp_received


class _FollowReport:
    """A :class:`~fairdeal.net.follow.Follower`'s reports, as the NetObserver has them."""

    def __init__(self, obs: NetObserver) -> None:
        self.obs = obs

    def lobby(self, msg: wire.Lobby) -> None:
        self.obs.lobby(msg)

    def host_lost(self, reason: str, seconds: float) -> None:
        self.obs.host_lost(reason, seconds)

    def host_back(self, path: str, via: str, entries: int) -> None:
        self.obs.host_back(path, via, entries)

    def host_left(self) -> None:
        self.obs.host_left()

    def away(self, seat: int, name: str, seconds: float) -> None:
        self.obs.away(seat, name, seconds)

    def back(self, seat: int, name: str) -> None:
        self.obs.back(seat, name)

    def adjourn_vote(self, seat: int, name: str, agree: bool, missing: Sequence[str]) -> None:
        self.obs.adjourn_vote(seat, name, agree, missing)

    def adjourned(self, entries: int) -> None:
        self.obs.adjourned(entries)


async def _rejoin_game(plan: JoinPlan, obs: NetObserver) -> NetOutcome:
    """A guest seat resumed from its log: rebuilt, then back to the host for what it missed."""
    r = plan.resume
    assert r is not None
    header = _first_header(r.entries)
    if not 1 <= r.seat < header.players or header.seats[r.seat].identity != plan.identity.public_key:
        raise ConfigError(f"seat {r.seat} of this game is not this identity's ({plan.identity.fingerprint})")
    welcome = wire.Welcome(
        r.seat, header.players, header.game, header.distribution, header.version, dict(header.options)
    )
    prepared = plan.prepare(welcome)
    session = GuardedSession(prepared.game, r.seat, plan.identity, seat_rng(r.seed))
    _replay(session, r.entries)
    if session.finished:
        raise ConfigError("this game is over: there is nothing to resume")
    if r.sent is not None:
        _arm(session, r.sent)
    obs.resumed(header, r.seat, session.seq)
    guest = _Guest(plan, obs, session, prepared.agent, r.seed, r.wait, started=True)
    back = await come_back(plan.connector(), r.seat, session, trio.current_time() + r.wait)
    if back is None:
        raise NetError(
            f"could not reach the host within {r.wait:g} s: it may not be running yet "
            "(it resumes with fairdeal resume); the log and seed are kept, try again"
        )
    secure, sync, path, via = back
    guest.follower.grace = float(sync.grace)
    obs.host_back(path, via, sync.entries)
    try:
        await guest.follower.run(guest.follower.new_link(secure), resend_at=sync.entries)
    finally:
        guest.log.close()
        await trio.aclose_forcefully(secure)  # type: ignore[arg-type]
    return guest.outcome()


def _first_header(entries: Sequence[bytes]) -> Header:
    if not entries:
        raise ConfigError("the log holds no entry: there is no game to resume")
    try:
        env = decode_envelope(entries[0])
        return Header.from_body(env.game_id, env.body)
    except FairdealError as exc:
        raise ConfigError(f"the log's first entry is not a game header ({exc})") from None


def _arm(session: Session, sent: bytes) -> None:
    """The decision this seat had sent before it stopped, if the log does not hold it and it is
    still owed: awaited again (and sent again, byte for byte, if the host does not have it)."""
    try:
        env = decode_envelope(sent)
    except FairdealError:
        return
    seat = session.seat
    if seat is None or env.seat != seat or session.written_at(seat, env.anchor) is not None:
        return
    if any(w.seat == seat and env.kind in w.kinds for w in session.owing()) and env.anchor == session.anchor(
        seat
    ):
        session.sent(sent)


# -- watching --------------------------------------------------------------------------------------
async def watch_game(plan: WatchPlan, observer: NetObserver | None = None) -> NetOutcome:
    """Follow the game of ``plan.invite`` as a watcher, from its first entry to its end.

    Every entry is checked as a silent observer checks it and written to the log; no card
    is ever shown that everyone may not see. A dropped link is followed by coming back, as a
    seat does. Raises NetError when the host cannot be reached or refuses.
    """
    obs = observer or NetObserver()
    connector = _connector(plan)
    from .follow import rejoin

    secure, sync, path, via = await rejoin(connector, None, 0, wire.NO_ENTRY)
    try:
        obs.connected(plan.invite, path, via)
        first = await expect(secure, plan.handshake_timeout, "the game's first entry")
        if not isinstance(first, wire.Entry):
            raise RemoteProtocolError(
                f"expected an entry, not {type(first).__name__.lower()}", peer="the host"
            )
        header = _first_header([first.data])
        session = GuardedSession(plan.resolve(header.game), None)
        log = _Log(plan.open_log)
        events: list[Event] = []

        def observe(s: Session, new: Sequence[Event]) -> None:
            events.extend(new)
            log.write(s, new)
            obs.events(s, new)

        observe(session, session.receive(first.data, peer="the host"))
        obs.resumed(header, None, session.seq)
        follower = Follower(
            session,
            None,
            connector,
            float(sync.grace),
            observe,
            lambda exc: refusal_text(exc, lambda _: None),
            _FollowReport(obs),
            NoKeeper(),
        )
        try:
            await follower.run(follower.new_link(secure))
        finally:
            log.close()
    finally:
        await trio.aclose_forcefully(secure)  # type: ignore[arg-type]
    stats = LinkStats()
    for x in follower.stats:
        _add_stats(stats, x)
    return NetOutcome(session, follower.error, events, follower.adjourned, links={0: stats})


__all__ = [
    "GRACE",
    "WATCHERS",
    "GuardedSession",
    "GuestResume",
    "GuestSession",
    "HostPlan",
    "HostResume",
    "JoinPlan",
    "LogSink",
    "NetError",
    "NetObserver",
    "NetOutcome",
    "NoKeeper",
    "Prepared",
    "WatchPlan",
    "guess_address",
    "host_game",
    "join_game",
    "seat_rng",
    "watch_game",
]
