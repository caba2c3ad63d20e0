"""The host's lobby: accept joiners until every seat is filled.

Connections come from TCP listeners and from other sources (the relay doors), each
admitted in its own task with its own deadlines (a slow or hostile client never holds up
the others):

1. the Noise XX handshake as responder, which authenticates the joiner's identity key:
   its first message is due within ``LobbyLimits.first_message`` seconds of the
   connection, the whole handshake within ``LobbyLimits.handshake``;
2. ``hello`` (``LobbyLimits.hello`` seconds): protocol version and the session id of
   the invite; the identity must not be the host's nor seated already; a free seat
   must remain (it is reserved);
3. ``welcome`` offering the lowest free seat, answered by ``ready`` (name, kind) or
   ``bye``; the joiner is then seated, its :class:`NetLink` started, and every seated
   joiner gets a ``lobby`` update.

Once the game runs, a seat that comes back or a watcher sends ``rejoin`` or ``watch``
instead of ``hello``: after the same checks (protocol, session id) its link is started
and handed to :attr:`Lobby.on_late`, which takes it or says why not; a watcher's catch-up
starts only within the budgets of :class:`~fairdeal.net.watchgate.WatchGate` (its identity's,
its address's and the host's in all), which the lobby keeps for the whole game.

At most ``LobbyLimits.pending`` connections are admitted at once. When one more arrives,
the connection that made the least progress gives way to it: one that has not sent its
first handshake message yet (the oldest such first), else the one whose last step is the
oldest. A connection that proved the session id (step 3) never gives way. So idle or
stalled connections, however many and from whatever address, cannot keep out a joiner,
whose steps follow each other within a round trip.

Anything wrong drops that connection with a reason; once the handshake is complete the
joiner is told why first (``refused``), whatever the fault. Drops are reported
(:class:`~fairdeal.net.events.Rejected`) one by one up to ``LobbyLimits.report_burst`` per
``report_window`` seconds and summarised beyond that. After the table is full the lobby may
keep admitting (see :meth:`Lobby.fill`): late joiners are then refused with "the table is full".
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Final

import trio

from fairdeal.core.errors import FairdealError, RemoteProtocolError
from fairdeal.core.identity import Identity

from . import wire
from ._admission import CountingStream, Pending, overdue, peer_address, pick_victim
from ._drops import Drops
from .events import Joined, Joiner, LeftLobby, Report, WatcherWaiting, ignore
from .link import Keepalive, NetLink
from .lobbyterms import (
    NO_WATCHERS,
    NOT_YET_WATCHED,
    OWN_IDENTITY,
    TABLE_FULL,
    Late,
    LobbyLimits,
    Offer,
    Source,
    TableOffer,
    busy,
)
from .stream import PeerClosed, SecureStream, secure_connect
from .watchgate import WatchGate

REFUSE_SEND_LIMIT: Final = 2.0


_EARLY_WATCHERS = 32  # watchers waiting for the start that are each told of once


class _Refuse(Exception):
    """Refuse the peer with ``reason``; ``quiet``: the refusal was reported already, in other words."""

    def __init__(self, reason: str, *, quiet: bool = False) -> None:
        super().__init__(reason)
        self.reason, self.quiet = reason, quiet


def _refusal(exc: RemoteProtocolError) -> bytes:
    """The ``refused`` a joiner gets when what it sent broke the secure channel."""
    return wire.encode(wire.Refused(wire.clean_text(exc.reason)))


class Lobby:
    """Seats joiners for one hosted game (seat 0 is the host's)."""

    def __init__(
        self,
        identity: Identity,
        session: bytes,
        table: TableOffer,
        host_seat: wire.LobbySeat,
        *,
        report: Report | None = None,
        keepalive: Keepalive | None = None,
        limits: LobbyLimits | None = None,
        on_change: Callable[[wire.Lobby], None] | None = None,
    ) -> None:
        self.identity = identity
        self.session = session
        self.table = table
        self.host_seat = host_seat
        self.report: Report = report or ignore
        self.keepalive = keepalive or Keepalive()
        self.limits = limits or LobbyLimits()
        self.on_change = on_change
        self._seated: dict[int, tuple[Joiner, NetLink]] = {}
        self._reserved: dict[int, bytes] = {}  # seat -> identity, between welcome and ready
        self._pool: list[Pending] = []
        self._started = False
        self._early_watchers: set[str] = set()  # fingerprints of watchers told to wait for the start
        self._changed = trio.Event()
        self._drops = Drops(self.report, self.limits)
        self._catch_ups = WatchGate(self.limits.catch_ups)
        self._links: trio.Nursery | None = None
        self._accepting: trio.Nursery | None = None
        #: Who takes seats coming back and watchers once the game runs (None: nobody yet).
        self.on_late: Late | None = None

    # -- state ------------------------------------------------------------------------------------
    def lobby(self) -> wire.Lobby:
        seats: list[wire.LobbySeat | None] = [self.host_seat]
        for s in range(1, self.table.players):
            seats.append(self._seated[s][0].lobby_seat if s in self._seated else None)
        return wire.Lobby(tuple(seats))

    @property
    def pending(self) -> int:
        """Connections being admitted right now."""
        return len(self._pool)

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()
        if self.on_change is not None:
            self.on_change(self.lobby())

    def _broadcast(self) -> None:
        lobby = self.lobby()
        for _, link in self._seated.values():
            if link.alive:
                link.send(lobby)

    def _reserve(self, identity: bytes) -> int | None:
        for s in range(1, self.table.players):
            if s not in self._seated and s not in self._reserved:
                self._reserved[s] = identity
                return s
        return None

    def _seated_identities(self) -> set[bytes]:
        return {j.identity for j, _ in self._seated.values()} | set(self._reserved.values())

    def _unseat(self, seat: int, link: NetLink) -> None:
        if self._started or self._seated.get(seat, (None, None))[1] is not link:
            return
        joiner, _ = self._seated.pop(seat)
        self._broadcast()
        self.report(LeftLobby(joiner, link.error or "left", self.lobby()))
        self._notify()

    # -- running ----------------------------------------------------------------------------------
    async def fill(
        self,
        listeners: Sequence[trio.SocketListener],
        links: trio.Nursery,
        sources: Sequence[Source] = (),
        accepting: trio.Nursery | None = None,
    ) -> dict[int, tuple[Joiner, NetLink]]:
        """Admit joiners until every seat is filled; return them by seat, links running in ``links``.

        Connections come from ``listeners`` and ``sources``. Without ``accepting``, admission
        stops when this returns (the listeners are not closed here). With it, admission runs
        in that nursery and goes on after the table is full, refusing every newcomer with
        "the table is full", until the caller cancels it.
        """
        self._links = links
        async with contextlib.AsyncExitStack() as stack:
            if accepting is None:
                accepting = await stack.enter_async_context(trio.open_nursery())
                own = True
            else:
                own = False
            self._accepting = accepting
            for listener in listeners:
                accepting.start_soon(self._accept_loop, listener)
            for source in sources:
                accepting.start_soon(source, self.offer)
            accepting.start_soon(self._drops.run)
            while True:
                changed = self._changed
                for seat, (_, link) in list(self._seated.items()):
                    if not link.alive:
                        self._unseat(seat, link)
                if len(self._seated) == self.table.players - 1:
                    self._started = True
                    break
                await changed.wait()
            if own:
                accepting.cancel_scope.cancel()
        return dict(self._seated)

    async def serve(
        self,
        listeners: Sequence[trio.SocketListener],
        links: trio.Nursery,
        sources: Sequence[Source] = (),
        accepting: trio.Nursery | None = None,
    ) -> None:
        """Admit connections for a game that runs already (a resumed host): nobody is seated, seats
        come back and watchers come in through :attr:`on_late`. Runs in ``accepting``."""
        self._links = links
        self._started = True
        assert accepting is not None
        self._accepting = accepting
        for listener in listeners:
            accepting.start_soon(self._accept_loop, listener)
        for source in sources:
            accepting.start_soon(source, self.offer)
        accepting.start_soon(self._drops.run)

    def offer(self, stream: trio.abc.Stream, address: str) -> None:
        """Admit a connection from a source (it is closed if the lobby does not run)."""
        if self._accepting is None:
            raise RuntimeError("the lobby is not admitting connections")
        self._admit_soon(stream, address)

    def _admit_soon(self, stream: trio.abc.Stream, address: str) -> None:
        assert self._accepting is not None
        pending = Pending(address, trio.current_time())
        if len(self._pool) >= self.limits.pending:
            victim = pick_victim(self._pool)
            if victim is None:
                self._drops.drop(address, "too many connections at once")
                self._accepting.start_soon(trio.aclose_forcefully, stream)
                return
            victim.evicted = True
            victim.scope.cancel()
            self._pool.remove(victim)
        self._pool.append(pending)
        self._accepting.start_soon(self._admit, stream, pending)

    async def _accept_loop(self, listener: trio.SocketListener) -> None:
        while True:
            try:
                stream = await listener.accept()
            except OSError as exc:  # out of file descriptors and the like: wait, then go on
                self._drops.drop("?", f"could not accept a connection ({exc.strerror or exc})")
                await trio.sleep(0.5)
                continue
            self._admit_soon(stream, peer_address(stream))

    async def _admit(self, raw: trio.abc.Stream, pending: Pending) -> None:
        """Take one connection through the handshake, hello and ready; never raises."""
        limits = self.limits
        address = pending.address
        stream = CountingStream(raw, pending, limits.handshake)
        secure: SecureStream | None = None
        seat: int | None = None
        handed_off = False
        reason: str | None = None
        pending.scope.deadline = pending.opened + min(limits.first_message, limits.handshake)
        try:
            with pending.scope:
                secure = await secure_connect(
                    stream,
                    self.identity,
                    initiator=False,
                    handshake_timeout=limits.handshake + 1,  # the scope's deadlines come first
                    peer=address,
                    on_receive_error=_refusal,
                )
                pending.step(2, trio.current_time() + limits.hello)
                hello = wire.decode(await secure.receive(), peer=address)
                if isinstance(hello, wire.Rejoin | wire.Watch):
                    handed_off = await self._late(secure, hello, pending, address)
                    return
                if not isinstance(hello, wire.Hello):
                    raise _Refuse(f"the first message must be hello, not {type(hello).__name__.lower()}")
                if hello.protocol != wire.PROTOCOL:
                    raise _Refuse(
                        f"protocol {hello.protocol} is not spoken here (this host speaks {wire.PROTOCOL})"
                    )
                if hello.session != self.session:
                    raise _Refuse("wrong session id: the invite code is for another game, or an old one")
                identity = secure.peer_identity
                if identity == self.identity.public_key:
                    raise _Refuse(OWN_IDENTITY)
                if identity in self._seated_identities():
                    raise _Refuse("this identity already has a seat at the table")
                seat = None if self._started else self._reserve(identity)
                if seat is None:
                    raise _Refuse(TABLE_FULL + (" (the game has started)" if self._started else ""))
                pending.step(3, trio.current_time() + limits.hello)
                await secure.send(wire.encode(self.table.welcome(seat)))
                reply = wire.decode(await secure.receive(), peer=address)
                if isinstance(reply, wire.Bye):
                    self._drops.drop(address, f"left before taking a seat: {reply.reason}")
                    return
                if not isinstance(reply, wire.Ready):
                    raise _Refuse(f"expected ready, not {type(reply).__name__.lower()}")
                joiner = Joiner(seat, reply.name, reply.kind, identity, secure.peer_fingerprint, address)
                secure.on_receive_error = None  # in the game, the link says what went wrong
                link = NetLink(secure, role="host", peer=secure.peer_fingerprint, keepalive=self.keepalive)
                assert self._links is not None
                await self._links.start(link.run)
                handed_off = True  # the link owns the stream now
                del self._reserved[seat]
                self._seated[seat] = (joiner, link)
                self._links.start_soon(self._watch, seat, link)
                self._broadcast()
                self.report(Joined(joiner, self.lobby()))
                self._notify()
                return
            reason = overdue(pending, self.limits)
            self._drops.drop(address, reason)
            await self._refuse(secure, reason)
        except _Refuse as refusal:
            if not refusal.quiet:
                self._drops.drop(address, refusal.reason)
            await self._refuse(secure, refusal.reason)
        except PeerClosed:
            self._drops.drop(address, "closed the connection")
        except RemoteProtocolError as exc:
            self._drops.drop(address, exc.reason)
            if secure is not None and not secure.channel.closed:
                await self._refuse(secure, exc.reason)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            self._drops.drop(address, "lost the connection")
        except FairdealError as exc:
            self._drops.drop(address, str(exc))
        except Exception:  # the host process never crashes on a peer's account
            self._drops.drop(address, "an unexpected error in this program")
        finally:
            if pending in self._pool:
                self._pool.remove(pending)
            if seat is not None and not handed_off:
                self._reserved.pop(seat, None)
            if not handed_off:
                await trio.aclose_forcefully(secure if secure is not None else stream)  # type: ignore[arg-type]

    async def _late(
        self, secure: SecureStream, msg: wire.Rejoin | wire.Watch, pending: Pending, address: str
    ) -> bool:
        """A seat coming back or a watcher: checked like a hello, then handed to :attr:`on_late`.
        True when its link took the stream over."""
        what = "seat coming back" if isinstance(msg, wire.Rejoin) else "watcher"
        if msg.protocol != wire.PROTOCOL:
            raise _Refuse(f"protocol {msg.protocol} is not spoken here (this host speaks {wire.PROTOCOL})")
        if msg.session != self.session:
            raise _Refuse("wrong session id: the invite code is for another game, or an old one")
        watcher = isinstance(msg, wire.Watch)
        if watcher and not self.table.watchers:
            raise _Refuse(NO_WATCHERS)
        if watcher and not self._started:
            # It asks again every few seconds until the start: told once, not as a dropped connection.
            fingerprint = secure.peer_fingerprint
            if fingerprint in self._early_watchers:
                raise _Refuse(NOT_YET_WATCHED, quiet=True)
            if len(self._early_watchers) < _EARLY_WATCHERS:  # past that, a flood: told as drops are
                self._early_watchers.add(fingerprint)
                self.report(WatcherWaiting(fingerprint, address))
                raise _Refuse(NOT_YET_WATCHED, quiet=True)
        if self.on_late is None or not self._started:
            raise _Refuse(NOT_YET_WATCHED if watcher else "the game has not started: join it with its code")
        if secure.peer_identity == self.identity.public_key:
            raise _Refuse(OWN_IDENTITY)
        pending.step(3, trio.current_time() + self.limits.hello)
        secure.on_receive_error = None
        link = NetLink(
            secure, role="host", peer=secure.peer_fingerprint, keepalive=self.keepalive, writes=not watcher
        )
        assert self._links is not None
        await self._links.start(link.run)
        identity = secure.peer_identity

        def admit(cost: int) -> str | None:
            wait = self._catch_ups.admit(identity, address, cost)
            return None if wait is None else busy(wait)

        try:
            why = await self.on_late(msg, identity, link, admit)
        except Exception:  # the host process never crashes on a peer's account
            why = "an unexpected error in this program"
        if why is not None:
            self._drops.drop(address, f"{what} refused: {why}")
            with contextlib.suppress(FairdealError):
                link.send(wire.Refused(wire.clean_text(why)))
            await link.aclose(why)
        return True

    async def _refuse(self, secure: SecureStream | None, reason: str) -> None:
        if secure is None or secure.channel.closed:
            return
        with trio.move_on_after(REFUSE_SEND_LIMIT):
            with contextlib.suppress(
                FairdealError, trio.BrokenResourceError, trio.ClosedResourceError, OSError
            ):
                await secure.send(wire.encode(wire.Refused(wire.clean_text(reason))))

    async def _watch(self, seat: int, link: NetLink) -> None:
        await link.closed.wait()
        self._unseat(seat, link)


__all__ = [
    "OWN_IDENTITY",
    "TABLE_FULL",
    "Joiner",
    "Late",
    "Lobby",
    "LobbyLimits",
    "Offer",
    "Source",
    "TableOffer",
    "peer_address",
]
