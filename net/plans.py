"""What hosting, joining and watching are given (the plans), and what they return (:class:`NetOutcome`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from fairdeal.core.identity import Identity
from fairdeal.core.rng import Rng
from fairdeal.core.rules import Game
from fairdeal.core.session.header import Header

from . import wire
from .comeback import Connector
from .connect import RELAY_DELAY
from .driver import Agent, SeatOutcome, Timeouts
from .invite import Endpoint, Invite
from .keeper import Keeper
from .link import Keepalive, LinkStats
from .lobbyterms import LobbyLimits

ANY_ADDRESS: Final = "0.0.0.0"
GRACE: Final = 120.0
"""Seconds a host holds a seat whose link dropped (``host --grace``)."""
WATCHERS: Final = 16
"""Watchers a host lets in (``host --watchers``)."""


class LogSink(Protocol):
    """Where accepted entries go, in order (a :class:`fairdeal.storage.LogWriter`)."""

    def append(self, entry: bytes) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Prepared:
    """A joiner's answer to a welcome: the game it plays, its agent, name and announced kind."""

    game: Game[Any]
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
    ``mailbox``: the URL of the mailbox server of short codes (None: none), where one short code
    for the next player is kept open while seats are free (:mod:`.rendezvous`); ``on_short_code``
    is called with each as it opens.
    """

    game: Game[Any]
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
    mailbox: str | None = None
    on_short_code: Callable[[str], None] | None = None


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
    resolve: Callable[[str], Game[Any]]
    keepalive: Keepalive = field(default_factory=Keepalive)
    connect_timeout: float = 15.0
    handshake_timeout: float = 10.0
    extra_direct: Sequence[Endpoint] = ()
    relay_delay: float = RELAY_DELAY
    open_log: Callable[[Header], LogSink] | None = None
    #: Before the game starts, ask again every ``start_poll`` seconds, for ``start_wait`` at most.
    start_wait: float = 1800.0
    start_poll: float = 3.0

    def connector(self, invite: Invite | None = None) -> Connector:
        return _connector(self, invite)


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


__all__ = [
    "ANY_ADDRESS",
    "GRACE",
    "WATCHERS",
    "GuestResume",
    "HostPlan",
    "HostResume",
    "JoinPlan",
    "LogSink",
    "NetOutcome",
    "Prepared",
    "WatchPlan",
]
