"""A client of magic-wormhole's transit relay: ask it to glue this connection to another one.

The relay protocol (the ``magic-wormhole-transit-relay`` server): the client opens a TCP
connection and sends ``please relay TOKEN for side SIDE\\n`` (TOKEN 64 hex digits, SIDE
16); it must send nothing more until the relay answers. The relay answers ``ok\\n`` once
a second connection with the same token and a *different* side has arrived, and from then
on forwards every byte between the two. Two connections with the same token and the same
side are never paired with each other; when one of them is paired, the relay closes the
others (this is how joiners racing for one door learn that they lost it). A malformed
request is answered ``bad handshake\\n``, data sent too early ``impatient\\n``; then the
relay closes. The relay never times a waiting connection out.

:func:`relay_connect` does the client's part and returns a stream that carries the
peer's bytes, the first of which may have arrived together with ``ok``.
"""

from __future__ import annotations

import contextlib
import re
import socket
from collections.abc import Callable
from typing import Final

import trio

from .errors import RelayError
from .invite import Endpoint
from .reasons import os_reason

OK: Final = b"ok\n"
_QUICKACK: Final = getattr(socket, "TCP_QUICKACK", None)
MAX_ANSWER: Final = 64
"""Longest line the relay may answer before ``ok`` (its own are 14 bytes at most)."""
_TOKEN = re.compile(r"[0-9a-f]{64}")
_SIDE = re.compile(r"[0-9a-f]{16}")


def request_line(token: str, side: str) -> bytes:
    """The line that asks the relay to pair this connection."""
    if not _TOKEN.fullmatch(token) or not _SIDE.fullmatch(side):
        raise ValueError("a relay token is 64 hex digits and a side 16")
    return f"please relay {token} for side {side}\n".encode("ascii")


class PrefixedStream(trio.abc.Stream):
    """A stream that first returns bytes already read from it (what came with ``ok``)."""

    def __init__(self, stream: trio.SocketStream, prefix: bytes) -> None:
        self.stream = stream
        self._prefix = prefix

    @property
    def socket(self) -> trio.socket.SocketType:
        return self.stream.socket

    async def send_all(self, data: bytes | bytearray | memoryview) -> None:
        await self.stream.send_all(data)

    async def wait_send_all_might_not_block(self) -> None:
        await self.stream.wait_send_all_might_not_block()

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        if self._prefix:
            n = len(self._prefix) if max_bytes is None else max_bytes
            out, self._prefix = self._prefix[:n], self._prefix[n:]
            await trio.lowlevel.checkpoint()
            return out
        data = await self.stream.receive_some(max_bytes)
        _quick_ack(self.stream)
        return data

    async def aclose(self) -> None:
        await self.stream.aclose()


def _quick_ack(stream: trio.SocketStream) -> None:
    """Acknowledge at once what comes next (Linux; the kernel turns this off again by itself).

    The relay does not disable Nagle's algorithm: it holds back a message while the one
    before is unacknowledged, and a receiver that delays its acknowledgements (40 ms on
    Linux) would stall every other message.
    """
    if _QUICKACK is not None:
        with contextlib.suppress(OSError):
            stream.socket.setsockopt(socket.IPPROTO_TCP, _QUICKACK, 1)


def _shown(data: bytes) -> str:
    text = data.split(b"\n", 1)[0].decode("ascii", "replace")
    clean = "".join(c if c.isprintable() else "?" for c in text)[:40]
    return clean or "an empty line"


def _answer(data: bytes, relay: Endpoint) -> bytes | None:
    """The bytes after ``ok``, or None while more must be read; RelayError if it is not ``ok``."""
    if data.startswith(OK):
        return data[len(OK) :]
    if OK.startswith(data):
        return None
    if b"\n" in data:
        return _refusal(data, relay)
    if len(data) >= MAX_ANSWER or not re.fullmatch(rb"[a-z ]+", data):
        raise RelayError("garbage", f"the relay at {relay} answered something that is not its protocol")
    return None


def _refusal(data: bytes, relay: Endpoint) -> bytes:
    line = data.split(b"\n", 1)[0]
    if re.fullmatch(rb"[a-z ]{1,40}", line):
        raise RelayError("refused", f"the relay at {relay} refused the request ({_shown(line)})")
    raise RelayError("garbage", f"the relay at {relay} answered something that is not its protocol")


async def relay_connect(
    relay: Endpoint,
    token: str,
    side: str,
    *,
    connect_timeout: float = 10.0,
    pair_timeout: float = float("inf"),
    on_waiting: Callable[[], None] | None = None,
) -> PrefixedStream:
    """Connect to ``relay``, ask it to pair this connection under ``token``, wait for ``ok``.

    ``on_waiting`` is called once the request is sent (the relay is reachable). Raises
    :class:`RelayError` for every way this can fail; the connection is then closed.
    """
    line = request_line(token, side)
    try:
        with trio.fail_after(connect_timeout):
            stream = await trio.open_tcp_stream(relay.host, relay.port)
    except trio.TooSlowError:
        raise RelayError(
            "unreachable", f"the relay at {relay} did not answer within {connect_timeout:g} s"
        ) from None
    except OSError as exc:
        raise RelayError("unreachable", f"cannot reach the relay at {relay}: {os_reason(exc)}") from None
    try:
        stream.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        await stream.send_all(line)
        if on_waiting is not None:
            on_waiting()
        data = b""
        with trio.fail_after(pair_timeout):
            while True:
                chunk = await stream.receive_some(MAX_ANSWER)
                if not chunk:
                    raise RelayError("closed", f"the relay at {relay} closed the connection before pairing")
                data += chunk
                rest = _answer(data, relay)
                if rest is not None:
                    return PrefixedStream(stream, rest)
    except trio.TooSlowError:
        await trio.aclose_forcefully(stream)
        raise RelayError("timeout", f"no pairing at the relay at {relay} within {pair_timeout:g} s") from None
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
        await trio.aclose_forcefully(stream)
        raise RelayError(
            "closed", f"lost the connection to the relay at {relay} ({os_reason(exc)})"
        ) from None
    except BaseException:
        await trio.aclose_forcefully(stream)
        raise


__all__ = ["OK", "PrefixedStream", "relay_connect", "request_line"]
