"""A thin trio adapter: run a :class:`SecureChannel` over any ``trio.abc.Stream``."""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable
from typing import Final

import trio

from fairdeal.core.errors import FairdealError, LocalProtocolError, RemoteProtocolError
from fairdeal.core.identity import Identity

from .secure import DEFAULT_PROLOGUE, MessageReceived, SecureChannel

RECEIVE_CHUNK: Final = 65536
FAREWELL_LIMIT: Final = 2.0
"""Seconds a farewell message may take to send before the stream is closed anyway."""


class PeerClosed(FairdealError):
    """The peer closed the connection cleanly, between two messages."""


def said_nothing(seconds: float) -> str:
    """What a joiner says of a listener that took its connection and sent nothing for ``seconds``.

    A fairdeal host answers the joiner's first handshake message at once, so that is another program.
    """
    return f"that is not a fairdeal host: it took the connection and said nothing in {seconds:g} s"


def _peer_name(stream: trio.abc.Stream) -> str | None:
    if not isinstance(stream, trio.SocketStream):
        return None
    try:
        address = stream.socket.getpeername()
    except OSError:
        return None
    if isinstance(address, tuple) and len(address) >= 2:
        return f"{address[0]}:{address[1]}"
    return None


class SecureStream:
    """An authenticated, encrypted message stream; built by :func:`secure_connect`.

    ``send`` may be called from several tasks (a lock keeps messages whole and in
    nonce order); ``receive`` likewise. A protocol error from the peer closes the
    underlying stream and is raised as :class:`RemoteProtocolError`; if
    :attr:`on_receive_error` is set, the message it returns for that error is sent first
    (a last word such as the lobby's ``refused``, at most :data:`FAREWELL_LIMIT` seconds).
    """

    def __init__(self, stream: trio.abc.Stream, channel: SecureChannel, pending: list[bytes]) -> None:
        if not channel.handshake_complete:
            raise ValueError("SecureStream needs a channel whose handshake is complete")
        self._stream = stream
        self._channel = channel
        self._pending: deque[bytes] = deque(pending)
        self._send_lock = trio.Lock()
        self._receive_lock = trio.Lock()
        self._send_broken = False
        self._peer_closed = False
        identity, fp = channel.remote_identity, channel.remote_fingerprint
        assert identity is not None and fp is not None
        self._peer_identity = identity
        self._peer_fingerprint = fp
        self.on_receive_error: FarewellHook | None = None

    @property
    def peer_identity(self) -> bytes:
        """The peer's verified Ed25519 public key."""
        return self._peer_identity

    @property
    def peer_fingerprint(self) -> str:
        return self._peer_fingerprint

    @property
    def channel(self) -> SecureChannel:
        return self._channel

    async def send(self, payload: bytes) -> None:
        """Send one message (1 byte .. 1 MiB)."""
        await self.send_many([payload])

    async def send_many(self, payloads: list[bytes]) -> None:
        """Send messages in order with one write, so that they travel in as few TCP segments as
        possible (a relay that does not disable Nagle's algorithm would delay the later ones)."""
        async with self._send_lock:
            if self._send_broken:
                raise trio.BrokenResourceError("an earlier send was interrupted; the stream is unusable")
            data = b"".join(self._channel.send_message(p) for p in payloads)
            try:
                await self._stream.send_all(data)
            except BaseException:
                # A partial frame may be on the wire: nothing sent after it could be read.
                self._send_broken = True
                raise

    async def receive(self) -> bytes:
        """The next message; :class:`PeerClosed` once the peer has closed cleanly."""
        async with self._receive_lock:
            while not self._pending:
                if self._peer_closed:
                    raise PeerClosed(f"{self._peer_fingerprint} closed the connection")
                data = await self._stream.receive_some(RECEIVE_CHUNK)
                try:
                    if not data:
                        self._channel.receive_eof()
                        self._peer_closed = True
                        continue
                    events = self._channel.receive_data(data)
                except RemoteProtocolError as exc:
                    await self._farewell(exc)
                    await trio.aclose_forcefully(self._stream)
                    raise
                self._pending.extend(e.payload for e in events if isinstance(e, MessageReceived))
            return self._pending.popleft()

    async def _farewell(self, exc: RemoteProtocolError) -> None:
        if self._send_broken or self._send_lock.locked():
            return
        async with self._send_lock:
            await _send_farewell(self._stream, self._channel, exc, self.on_receive_error)

    async def aclose(self) -> None:
        """Close the channel and the underlying stream. Idempotent."""
        self._channel.close()
        await self._stream.aclose()

    async def __aenter__(self) -> SecureStream:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"SecureStream(peer={self._peer_fingerprint})"


FarewellHook = Callable[[RemoteProtocolError], bytes | None]


async def _send_farewell(
    stream: trio.abc.Stream, channel: SecureChannel, exc: RemoteProtocolError, hook: FarewellHook | None
) -> None:
    """Send the hook's last message for ``exc``, if the channel still allows one (bounded in time)."""
    payload = hook(exc) if hook is not None else None
    if payload is None:
        return
    try:
        data = channel.farewell(payload)
    except LocalProtocolError:
        return
    with (
        trio.move_on_after(FAREWELL_LIMIT),
        contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError),
    ):
        await stream.send_all(data)


async def secure_connect(
    stream: trio.abc.Stream,
    identity: Identity,
    *,
    initiator: bool,
    expected_peer_fingerprint: str | None = None,
    handshake_timeout: float = 10,
    prologue: bytes = DEFAULT_PROLOGUE,
    peer: str | None = None,
    on_receive_error: FarewellHook | None = None,
    on_heard: Callable[[], None] | None = None,
) -> SecureStream:
    """Run the handshake on ``stream`` and return the secure stream.

    The whole handshake must finish within ``handshake_timeout`` seconds. On any
    failure ``stream`` is closed and the error raised (RemoteProtocolError for the
    peer's fault, including a timeout). ``on_receive_error`` becomes the stream's
    :attr:`SecureStream.on_receive_error`; it also applies when bytes that arrived with
    the last handshake message break the channel at once. ``on_heard`` is called once,
    when the peer's first bytes arrive.
    """
    label = peer if peer is not None else _peer_name(stream)
    channel = SecureChannel(identity, initiator, prologue, expected_peer_fingerprint, peer=label)
    pending: list[bytes] = []
    heard = False
    try:
        with trio.fail_after(handshake_timeout):
            if initiator:
                await stream.send_all(channel.initiate())
            while not channel.handshake_complete:
                data = await stream.receive_some(RECEIVE_CHUNK)
                if data and not heard:
                    heard = True
                    if on_heard is not None:
                        on_heard()
                if not data:
                    channel.receive_eof()  # raises: the handshake is not complete
                    raise AssertionError("unreachable")  # pragma: no cover
                events = channel.receive_data(data)
                out = channel.data_to_send()
                if out:
                    await stream.send_all(out)
                pending.extend(e.payload for e in events if isinstance(e, MessageReceived))
    except trio.TooSlowError:
        channel.close()
        await trio.aclose_forcefully(stream)
        if initiator and not heard:  # a fairdeal host answers the first message at once
            raise RemoteProtocolError(said_nothing(handshake_timeout), peer=label) from None
        raise RemoteProtocolError(
            f"handshake did not finish within {handshake_timeout:g} s", peer=label
        ) from None
    except RemoteProtocolError as exc:
        # Data that came with the last handshake message may break the channel just after it opened.
        await _send_farewell(stream, channel, exc, on_receive_error)
        channel.close()
        await trio.aclose_forcefully(stream)
        raise
    except BaseException:
        channel.close()
        await trio.aclose_forcefully(stream)
        raise
    secure = SecureStream(stream, channel, pending)
    secure.on_receive_error = on_receive_error
    return secure
