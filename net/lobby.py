"""The host's lobby: accept joiners over TCP until every seat is filled.

For each connection, with its own time limits and in its own task (a slow or
hostile client never holds up the others):

1. the Noise XX handshake as responder (``LobbyLimits.handshake`` seconds), which
   authenticates the joiner's identity key;
2. ``hello`` (``LobbyLimits.hello`` seconds): protocol version and the session id of
   the invite; the identity must not be the host's nor seated already; a free seat
   must remain (it is reserved);
3. ``welcome`` offering the lowest free seat, answered by ``ready`` (name, kind) or
   ``bye``; the joiner is then seated, its :class:`NetLink` started, and every seated
   joiner gets a ``lobby`` update.

Anything wrong drops that connection with a reason (sent as ``refused`` where the
channel allows it, and reported to the observer); the lobby stays open. A seated
joiner whose link closes before the game starts frees its seat.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import trio

from fairdeal.core.errors import FairdealError, RemoteProtocolError
from fairdeal.core.identity import Identity

from . import wire
from .link import Keepalive, NetLink
from .stream import PeerClosed, SecureStream, secure_connect

REFUSE_SEND_LIMIT: Final = 2.0


@dataclass(frozen=True, slots=True)
class Joiner:
    """A seated joiner: the identity is the one its handshake proved; name and kind are announced."""

    seat: int
    name: str
    kind: str
    identity: bytes
    fingerprint: str
    address: str

    @property
    def lobby_seat(self) -> wire.LobbySeat:
        return wire.LobbySeat(self.name, self.fingerprint, self.kind)


@dataclass(frozen=True, slots=True)
class LobbyLimits:
    """Seconds for the handshake, for each of hello and ready; connections admitted at once."""

    handshake: float = 10.0
    hello: float = 10.0
    pending: int = 16


@dataclass(frozen=True, slots=True)
class Table:
    """What the host offers: the game, its plugin, options and the number of seats."""

    game: str
    distribution: str
    version: str
    options: Mapping[str, bool | int | str]
    players: int

    def welcome(self, seat: int) -> wire.Welcome:
        return wire.Welcome(
            seat, self.players, self.game, self.distribution, self.version, dict(self.options)
        )


class LobbyObserver:
    """What the lobby reports (no-ops by default; the front end overrides what it shows)."""

    def joined(self, joiner: Joiner, lobby: wire.Lobby) -> None:
        """``joiner`` took its seat."""

    def left(self, joiner: Joiner, reason: str, lobby: wire.Lobby) -> None:
        """A seated joiner went away before the game started; its seat is free again."""

    def rejected(self, address: str, reason: str) -> None:
        """A connection was dropped before it got a seat."""


class _Refuse(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def peer_address(stream: trio.abc.Stream) -> str:
    """``host:port`` of a socket stream's peer, or ``?``."""
    try:
        address = stream.socket.getpeername()  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return "?"
    if isinstance(address, tuple) and len(address) >= 2:
        host = str(address[0])
        return f"[{host}]:{address[1]}" if ":" in host else f"{host}:{address[1]}"
    return str(address)


class Lobby:
    """Seats joiners for one hosted game (seat 0 is the host's)."""

    def __init__(
        self,
        identity: Identity,
        session: bytes,
        table: Table,
        host_seat: wire.LobbySeat,
        *,
        observer: LobbyObserver | None = None,
        keepalive: Keepalive | None = None,
        limits: LobbyLimits | None = None,
    ) -> None:
        self.identity = identity
        self.session = session
        self.table = table
        self.host_seat = host_seat
        self.observer = observer or LobbyObserver()
        self.keepalive = keepalive or Keepalive()
        self.limits = limits or LobbyLimits()
        self._seated: dict[int, tuple[Joiner, NetLink]] = {}
        self._reserved: dict[int, bytes] = {}  # seat -> identity, between welcome and ready
        self._pending = 0
        self._started = False
        self._changed = trio.Event()

    # -- state ------------------------------------------------------------------------------------
    def lobby(self) -> wire.Lobby:
        seats: list[wire.LobbySeat | None] = [self.host_seat]
        for s in range(1, self.table.players):
            seats.append(self._seated[s][0].lobby_seat if s in self._seated else None)
        return wire.Lobby(tuple(seats))

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

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
        self.observer.left(joiner, link.error or "left", self.lobby())
        self._notify()

    # -- running ----------------------------------------------------------------------------------
    async def fill(
        self, listeners: Sequence[trio.SocketListener], links: trio.Nursery
    ) -> dict[int, tuple[Joiner, NetLink]]:
        """Admit joiners until every seat is filled; return them by seat, links running in ``links``.

        The listeners are not closed here; no connection is accepted after this returns.
        """
        async with trio.open_nursery() as accepting:
            for listener in listeners:
                accepting.start_soon(self._accept_loop, listener, accepting, links)
            while True:
                changed = self._changed
                for seat, (_, link) in list(self._seated.items()):
                    if not link.alive:
                        self._unseat(seat, link)
                if len(self._seated) == self.table.players - 1:
                    self._started = True
                    break
                await changed.wait()
            accepting.cancel_scope.cancel()
        return dict(self._seated)

    async def _accept_loop(
        self, listener: trio.SocketListener, accepting: trio.Nursery, links: trio.Nursery
    ) -> None:
        while True:
            try:
                stream = await listener.accept()
            except OSError as exc:  # out of file descriptors and the like: wait, then go on
                self.observer.rejected("?", f"could not accept a connection ({exc.strerror or exc})")
                await trio.sleep(0.5)
                continue
            if self._pending >= self.limits.pending:
                self.observer.rejected(peer_address(stream), "too many connections at once")
                await trio.aclose_forcefully(stream)
                continue
            self._pending += 1
            accepting.start_soon(self._admit, stream, links)

    async def _admit(self, stream: trio.SocketStream, links: trio.Nursery) -> None:
        """Take one connection through the handshake, hello and ready; never raises."""
        address = peer_address(stream)
        secure: SecureStream | None = None
        seat: int | None = None
        handed_off = False
        try:
            secure = await secure_connect(
                stream, self.identity, initiator=False, handshake_timeout=self.limits.handshake, peer=address
            )
            with trio.fail_after(self.limits.hello):
                hello = wire.decode(await secure.receive(), peer=address)
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
                raise _Refuse("that is the host's own identity")
            if identity in self._seated_identities():
                raise _Refuse("this identity already has a seat at the table")
            seat = self._reserve(identity)
            if seat is None:
                raise _Refuse("the table is full")
            with trio.fail_after(self.limits.hello):
                await secure.send(wire.encode(self.table.welcome(seat)))
                reply = wire.decode(await secure.receive(), peer=address)
            if isinstance(reply, wire.Bye):
                self.observer.rejected(address, f"left before taking a seat: {reply.reason}")
                return
            if not isinstance(reply, wire.Ready):
                raise _Refuse(f"expected ready, not {type(reply).__name__.lower()}")
            joiner = Joiner(seat, reply.name, reply.kind, identity, secure.peer_fingerprint, address)
            link = NetLink(secure, role="host", peer=secure.peer_fingerprint, keepalive=self.keepalive)
            await links.start(link.run)
            handed_off = True  # the link owns the stream now
            del self._reserved[seat]
            self._seated[seat] = (joiner, link)
            links.start_soon(self._watch, seat, link)
            self._broadcast()
            self.observer.joined(joiner, self.lobby())
            self._notify()
        except _Refuse as refusal:
            self.observer.rejected(address, refusal.reason)
            await self._refuse(secure, refusal.reason)
        except trio.TooSlowError:
            self.observer.rejected(address, f"did not answer within {self.limits.hello:g} s")
        except PeerClosed:
            self.observer.rejected(address, "closed the connection")
        except RemoteProtocolError as exc:
            self.observer.rejected(address, exc.reason)
            if secure is not None and not secure.channel.closed:
                await self._refuse(secure, exc.reason)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            self.observer.rejected(address, "lost the connection")
        except FairdealError as exc:
            self.observer.rejected(address, str(exc))
        except Exception as exc:  # the host process never crashes on a peer's account
            self.observer.rejected(address, f"unexpected error ({type(exc).__name__})")
        finally:
            self._pending -= 1
            if seat is not None:
                self._reserved.pop(seat, None)
            if not handed_off:
                await trio.aclose_forcefully(secure if secure is not None else stream)  # type: ignore[arg-type]

    async def _refuse(self, secure: SecureStream | None, reason: str) -> None:
        if secure is None:
            return
        with trio.move_on_after(REFUSE_SEND_LIMIT):
            with contextlib.suppress(
                FairdealError, trio.BrokenResourceError, trio.ClosedResourceError, OSError
            ):
                await secure.send(wire.encode(wire.Refused(wire.clean_text(reason))))

    async def _watch(self, seat: int, link: NetLink) -> None:
        await link.closed.wait()
        self._unseat(seat, link)


__all__ = ["Joiner", "Lobby", "LobbyLimits", "LobbyObserver", "Table", "peer_address"]
