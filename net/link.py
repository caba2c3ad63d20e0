"""A :class:`~fairdeal.net.driver.Link` over a secure stream, with keepalive.

A :class:`NetLink` runs three tasks (start them with ``nursery.start(link.run)``):

* a reader that decodes every link message, answers pings, hands entries to
  :meth:`NetLink.receive_entry` and other messages (lobby updates) to ``on_control``;
  a peer silent for ``Keepalive.silence`` seconds (15 by default) is dropped;
* a writer that sends queued messages in order, so a sender never waits on a slow
  peer; a peer that takes nothing for ``Keepalive.silence`` seconds is dropped too;
* a pinger that sends a ``ping`` every ``Keepalive.interval`` seconds (5).

Both ends ping, so a live peer is heard at least every ``interval`` seconds, and a link
that dies without a word (Wi-Fi gone: no FIN, no RST) is noticed on both sides within
``silence`` seconds, not after TCP's minutes of retransmission. Between the two, a peer
not heard for ``Keepalive.quiet`` seconds is *quiet* (:meth:`NetLink.present_since` is
None), and when it is heard again, after a gap longer than that, it is present anew from
then; the host's timing of a step no longer pauses for it (:mod:`~fairdeal.net.steps`: a
quiet seat's step runs on).

Any failure — the peer closed, went silent, sent a malformed or unexpected message, sent
too many messages that were ignored or refused (:mod:`~fairdeal.net.flood`; an entry the
host ignores is found by the driver, by what its author wrote, and counted through
:meth:`NetLink.ignored`) — closes the link for good with a reason (:attr:`NetLink.error`);
entries received before it are still delivered, then :meth:`receive_entry` raises
:class:`PeerGone` with that reason. Nothing a peer sends can make these tasks raise.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal

import trio

from fairdeal.core.errors import FairdealError, ProtocolError, RemoteProtocolError

from . import _fault, wire
from ._noise import TAG_LEN
from .driver import PeerGone
from .flood import Flood
from .framing import FRAME_HEADER_LEN, MAX_TRANSPORT_PLAINTEXT, MESSAGE_HEADER_LEN
from .stream import PeerClosed, SecureStream

Role = Literal["host", "guest"]
CLOSED_LOCALLY: Final = "the link was closed"
MAX_QUEUED: Final = 50_000
MAX_BATCH: Final = 64
"""Queued messages sent with one write at most."""
"""Messages waiting to be sent before the peer is taken for one that does not read."""


@dataclass(frozen=True, slots=True)
class Keepalive:
    """Seconds between pings, of silence before a peer is dropped, to flush on close.

    A peer is *quiet* after ``quiet`` seconds without a message (two pings missed, and never
    as long as ``silence``)."""

    interval: float = 5.0
    silence: float = 15.0
    close: float = 5.0

    @classmethod
    def every(cls, interval: float) -> Keepalive:
        """A ping every ``interval`` seconds; a peer silent for three intervals is dropped."""
        return cls(interval=interval, silence=3 * interval, close=max(1.0, min(5.0, interval)))

    @property
    def quiet(self) -> float:
        return min(2 * self.interval, 0.75 * self.silence)


def tcp_size(message: int) -> int:
    """TCP bytes that carry an application message of ``message`` bytes once the handshake is done:
    its 4-byte length, and per Noise transport message (65519 plaintext bytes at most) a 2-byte
    frame length and a 16-byte tag."""
    stream = message + MESSAGE_HEADER_LEN
    chunks = -(-stream // MAX_TRANSPORT_PLAINTEXT)
    return stream + chunks * (FRAME_HEADER_LEN + TAG_LEN)


@dataclass
class LinkStats:
    """Link messages each way by type, their bytes inside the secure channel and on TCP."""

    sent: dict[str, int] = field(default_factory=dict)
    received: dict[str, int] = field(default_factory=dict)
    bytes_sent: int = 0
    bytes_received: int = 0
    tcp_sent: int = 0
    tcp_received: int = 0

    @property
    def messages_sent(self) -> int:
        return sum(self.sent.values())

    @property
    def messages_received(self) -> int:
        return sum(self.received.values())


def _tag(msg: wire.Message) -> str:
    return type(msg).__name__.lower()


def _kind(data: bytes) -> str:
    from fairdeal.core.session.envelope import decode_envelope

    try:
        return decode_envelope(data).kind
    except FairdealError:
        return "?"


class NetLink:
    """One peer's end of a host-guest connection, after the lobby exchange.

    ``role`` is this end's role: a ``host`` end accepts entries only after
    :meth:`start_game` and never lobby updates; a ``guest`` end accepts both. A host end
    with ``writes=False`` is a watcher's: anything it sends but keepalive and ``bye``
    closes it. ``on_adjourn`` gets the ``adjourn`` votes that arrive (a host end: from its
    seat; a guest end: relayed by the host).
    """

    def __init__(
        self,
        stream: SecureStream,
        *,
        role: Role,
        peer: str,
        keepalive: Keepalive | None = None,
        on_control: Callable[[wire.Message], None] | None = None,
        writes: bool = True,
    ) -> None:
        self.stream = stream
        self.role = role
        self.writes = writes
        self.peer = peer
        self.keepalive = keepalive or Keepalive()
        self.on_control = on_control
        #: Called with each chat message that arrives (none set: chat is ignored); False: it was refused.
        self.on_chat: Callable[[wire.Chat], bool | None] | None = None
        self.on_adjourn: Callable[[wire.Adjourn], bool | None] | None = None
        #: Counts what the peer sends that is ignored or refused; past its limit the link is dropped.
        self.flood = Flood()
        #: Called with the one line saying so when the link is dropped for that.
        self.on_flood: Callable[[str], None] | None = None
        self._pongs_due = 0
        self.stats = LinkStats()
        self.error: str | None = None
        #: The peer said ``bye``: it left on purpose (not a dropped connection), with these words.
        self.left = False
        self.said = ""
        self.closed = trio.Event()
        self._game_started = role == "guest"
        self._entries_in, self._entries_out = trio.open_memory_channel[bytes](math.inf)
        self._queue_in, self._queue_out = trio.open_memory_channel[wire.Message](math.inf)
        self._scope: trio.CancelScope | None = None
        self._writer_done = trio.Event()
        self._running = False
        self._pong_queued = False
        self._activity = trio.Event()
        self._pings = 0
        #: When the peer was last heard (any message), and since when without a quiet gap (trio time).
        self.heard_at = trio.current_time()
        self._present_from = self.heard_at

    # -- for the driver ---------------------------------------------------------------------------
    async def send_entry(self, data: bytes) -> None:
        """Queue an entry for the peer; PeerGone if the link is closed."""
        self.send(wire.Entry(data))

    async def receive_entry(self) -> bytes:
        """The next entry from the peer; PeerGone (with the reason) once the link is closed."""
        try:
            return await self._entries_out.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            raise PeerGone(self.error or CLOSED_LOCALLY) from None

    def take_pending(self) -> list[bytes]:
        """The entries received and not yet taken, without waiting (also after the link closed)."""
        out = []
        while True:
            try:
                out.append(self._entries_out.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                return out

    @property
    def ping_interval(self) -> float:
        return self.keepalive.interval

    @property
    def pending(self) -> int:
        """Entries received and not yet taken."""
        return self._entries_out.statistics().current_buffer_used

    def present_since(self) -> float | None:
        """Since when the peer has been heard with no gap longer than ``Keepalive.quiet`` (trio time);
        None while it is quiet now, or once the link is closed."""
        if self.error is not None or trio.current_time() - self.heard_at > self.keepalive.quiet:
            return None
        return self._present_from

    async def wait_activity(self) -> None:
        """Return once an entry is waiting to be taken or the link has closed."""
        while self.error is None and self._entries_out.statistics().current_buffer_used == 0:
            await self._activity.wait()

    # -- control ----------------------------------------------------------------------------------
    def send(self, msg: wire.Message) -> None:
        """Queue any link message; it is sent after those queued before it."""
        if self.error is not None:
            raise PeerGone(self.error)
        if self._queue_in.statistics().current_buffer_used >= MAX_QUEUED:
            self.fail(f"{self.peer} does not read what is sent to it")
            raise PeerGone(self.error or CLOSED_LOCALLY)
        try:
            self._queue_in.send_nowait(msg)
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            raise PeerGone(self.error or CLOSED_LOCALLY) from None

    def start_game(self) -> None:
        """From now on the peer may send entries (host end)."""
        self._game_started = True

    @property
    def alive(self) -> bool:
        return self.error is None

    def fail(self, reason: str) -> None:
        """Close the link at once for ``reason`` (idempotent; the first reason stays)."""
        if self.error is not None:
            return
        self.error = reason
        self._entries_in.close()
        self._queue_in.close()
        if self._scope is not None:
            self._scope.cancel()
        self.closed.set()
        self._activity.set()

    async def aclose(self, reason: str = "goodbye") -> None:
        """Say ``bye`` with ``reason`` after everything queued (waiting at most
        ``Keepalive.close`` seconds), then close."""
        if self.error is None:
            try:
                self.send(wire.Bye(wire.clean_text(reason)))
                self._queue_in.close()
            except PeerGone:
                pass
            if self._running:
                with trio.move_on_after(self.keepalive.close):
                    await self._writer_done.wait()
        self.fail(CLOSED_LOCALLY)
        if not self._running:
            await trio.aclose_forcefully(self.stream)  # type: ignore[arg-type]

    # -- the tasks --------------------------------------------------------------------------------
    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Run the reader, writer and pinger until the link closes; never raises."""
        self._running = True
        with trio.CancelScope() as scope:
            self._scope = scope
            if self.error is not None:
                scope.cancel()
            task_status.started()
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._guard, self._reader)
                nursery.start_soon(self._guard, self._writer)
                nursery.start_soon(self._guard, self._pinger)
        self.fail(CLOSED_LOCALLY)
        await trio.aclose_forcefully(self.stream)  # type: ignore[arg-type]

    async def _guard(self, task: Callable[[], object]) -> None:
        try:
            await task()  # type: ignore[misc]
        except PeerClosed:
            self.fail(f"{self.peer} closed the connection")
        except ProtocolError as exc:
            self.fail(exc.reason)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            self.fail(f"lost the connection to {self.peer}")
        except FairdealError as exc:
            self.fail(str(exc))
        except Exception:  # never let a peer crash the process
            self.fail("an unexpected error in this program on the link")

    async def _reader(self) -> None:
        silence = self.keepalive.silence
        while True:
            with trio.move_on_after(silence) as timer:
                data = await self.stream.receive()
            if timer.cancelled_caught:
                self.fail(f"{self.peer} was silent for {silence:g} s")
                return
            now = trio.current_time()
            if now - self.heard_at > self.keepalive.quiet:
                self._present_from = now  # back from a quiet gap: present anew
            self.heard_at = now
            msg = wire.decode(data, peer=self.peer)
            tag = _tag(msg)
            self.stats.received[tag] = self.stats.received.get(tag, 0) + 1
            self.stats.bytes_received += len(data)
            self.stats.tcp_received += tcp_size(len(data))
            self._dispatch(msg)
            if self.error is not None:
                return

    def _dispatch(self, msg: wire.Message) -> None:
        if not self.writes and isinstance(msg, wire.Entry | wire.Chat | wire.Adjourn):
            raise RemoteProtocolError(f"a watcher cannot send {_tag(msg)} messages", peer=self.peer)
        if isinstance(msg, wire.Entry):
            if not self._game_started:
                raise RemoteProtocolError("sent a log entry before the game started", peer=self.peer)
            if _fault.armed() and self.role == "host":
                _fault.reached("heard", _kind(msg.data))
            self._entries_in.send_nowait(msg.data)
            self._activity.set()
            self._activity = trio.Event()
        elif isinstance(msg, wire.Ping):
            if not self._pong_queued:  # one answer in flight is enough: a ping flood queues nothing
                self._pong_queued = True
                self.send(wire.Pong(msg.n))
            else:
                self.ignored("pings while the answer to one was queued")
        elif isinstance(msg, wire.Pong):
            if self._pongs_due > 0:  # any message shows the peer is alive
                self._pongs_due -= 1
            else:
                self.ignored("pongs to no ping")
        elif isinstance(msg, wire.Bye):
            self.left, self.said = True, msg.reason
            self.fail(f"{self.peer} left: {msg.reason}")
        elif isinstance(msg, wire.Chat):
            if self.on_chat is None or self.on_chat(msg) is False:
                self.ignored("chat lines that were refused")
        elif isinstance(msg, wire.Adjourn) and self._game_started:
            if self.on_adjourn is None or self.on_adjourn(msg) is False:
                self.ignored("votes that changed nothing")
        elif isinstance(msg, wire.Lobby | wire.Away | wire.Back | wire.Adjourned) and self.role == "guest":
            if self.on_control is not None:
                self.on_control(msg)
        else:
            raise RemoteProtocolError(f"unexpected {_tag(msg)} message", peer=self.peer)

    def ignored(self, what: str) -> None:
        """The peer sent a message of no use (``what`` names its kind): counted; past the limit, the
        link is dropped. The host's driver counts here the entries it ignores (through the roster)."""
        if self.error is not None:
            return  # closed already (what it sent before is still being settled): said once
        if self.flood.strike(what):
            reason = self.flood.words(self.peer)
            self.fail(reason)
            if self.on_flood is not None:
                self.on_flood(reason)

    async def _writer(self) -> None:
        try:
            async for first in self._queue_out:
                batch = [first]  # what is queued already goes out in one write
                while len(batch) < MAX_BATCH:
                    try:
                        batch.append(self._queue_out.receive_nowait())
                    except (trio.WouldBlock, trio.EndOfChannel):
                        break
                datas = [wire.encode(msg) for msg in batch]
                with trio.move_on_after(self.keepalive.silence) as timer:
                    await self.stream.send_many(datas)
                if timer.cancelled_caught:
                    self.fail(f"{self.peer} took no data for {self.keepalive.silence:g} s")
                    return
                for msg, data in zip(batch, datas, strict=True):
                    if isinstance(msg, wire.Pong):
                        self._pong_queued = False
                    if _fault.armed() and isinstance(msg, wire.Entry) and self.role == "guest":
                        _fault.reached("sent", _kind(msg.data))
                    tag = _tag(msg)
                    self.stats.sent[tag] = self.stats.sent.get(tag, 0) + 1
                    self.stats.bytes_sent += len(data)
                    self.stats.tcp_sent += tcp_size(len(data))
        finally:
            self._writer_done.set()

    async def _pinger(self) -> None:
        while self.error is None:
            await trio.sleep(self.keepalive.interval)
            self._pings = (self._pings + 1) % wire.MAX_COUNTER
            try:
                self.send(wire.Ping(self._pings))
            except PeerGone:
                return
            self._pongs_due += 1

    def __repr__(self) -> str:
        state = "open" if self.error is None else f"closed: {self.error}"
        return f"NetLink({self.role}, {self.peer}, {state})"


__all__ = ["Keepalive", "LinkStats", "NetLink", "tcp_size"]
