"""A client of a rendezvous (mailbox) server of magic-wormhole's kind, over ``trio-websocket``.

The server's protocol (magic-wormhole-mailbox-server's ``docs/server-protocol.md``): each message
is a JSON object with a ``type``, one WebSocket message each. After the server's ``welcome`` the
client sends ``bind`` (its app id and a random side), then, on one connection, at most one
``allocate`` (answered ``allocated``: a free nameplate), one ``claim`` of a nameplate (``claimed``:
its mailbox id), one ``open`` of that mailbox (every message in it is then delivered as
``message``, with the sender's side, a phase and a hex body, the sender's own included), ``add``
(a message), ``release`` (of the nameplate: ``released``) and ``close`` (of the mailbox, with a
mood: ``closed``). ``ping`` is answered ``pong`` after everything sent before it was handled, so
a ``pong`` after ``open`` means every message the mailbox held has been delivered. The server
answers ``ack`` to each command and ``error`` to a bad one.

Every byte from the server is checked here (:func:`parse`): size, JSON, the shape and types of
each message the client reads; anything else is a :class:`MailboxError` whose text is one line
the person can read, the server's own words cleaned and cut short. Unknown message types are
ignored, as the protocol asks.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Final, Literal, TypeVar
from urllib.parse import urlsplit

import trio
from trio_websocket import ConnectionClosed, HandshakeError, WebSocketConnection, open_websocket_url

from fairdeal import __version__

from .errors import NetError
from .reasons import os_reason

MAX_MESSAGE: Final = 16 * 1024
"""Characters of one message from the server at most (a message of ours is under 2 KiB)."""
MAX_BODY: Final = 4096
"""Bytes of one mailbox message's body at most (hex: twice as many digits)."""
MAX_HELD: Final = 64
"""Messages of other sides a client holds at most (a flood beyond it is a broken mailbox)."""
CONNECT_TIMEOUT: Final = 10.0
ANSWER_TIMEOUT: Final = 10.0
CLOSE_TIMEOUT: Final = 2.0
_TEXT = 120
_PHASE = re.compile(r"[a-z0-9_]{1,32}")
_SIDE = re.compile(r"[0-9a-f]{1,64}")
_NAMEPLATE = re.compile(r"[0-9]{1,9}")
_MAILBOX_ID = re.compile(r"[A-Za-z0-9_\-]{1,64}")
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")

Trouble = Literal["unreachable", "broken", "refused", "closed", "timeout", "crowded"]
Mood = Literal["happy", "lonely", "scary", "errory"]


class MailboxError(NetError):
    """The mailbox could not be used; ``kind`` says how: ``unreachable`` (no WebSocket to it),
    ``broken`` (it sent what its protocol does not allow), ``refused`` (its ``error``), ``closed``
    (it closed the connection), ``timeout`` (no answer in time), ``crowded`` (the nameplate is
    another pair's already)."""

    def __init__(self, kind: Trouble, message: str) -> None:
        super().__init__(message)
        self.kind: Trouble = kind


def clean(text: object) -> str:
    """The server's words as one short printable line (they are the server's, so never trusted)."""
    s = "".join(c if c.isprintable() else " " for c in str(text))[:_TEXT]
    return " ".join(s.split()) or "(no words)"


def check_url(url: str) -> str:
    """``url`` if it is a ``ws://`` or ``wss://`` URL with a host; ValueError otherwise."""
    parts = urlsplit(url.strip()) if isinstance(url, str) else None
    try:
        port_ok = parts is not None and (parts.port is None or 0 < parts.port < 65536)
    except ValueError:
        port_ok = False
    if parts is None or parts.scheme not in ("ws", "wss") or not parts.hostname or not port_ok:
        raise ValueError(f"{url!r} is not a ws:// or wss:// URL")
    return url.strip()


# -- what the server sends ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Welcome:
    error: str | None


@dataclass(frozen=True, slots=True)
class Allocated:
    nameplate: str


@dataclass(frozen=True, slots=True)
class Claimed:
    mailbox: str


@dataclass(frozen=True, slots=True)
class Mail:
    """A message of the mailbox: its sender's side, its phase and its body."""

    side: str
    phase: str
    body: bytes


@dataclass(frozen=True, slots=True)
class Pong:
    ping: int


@dataclass(frozen=True, slots=True)
class Refused:
    error: str


@dataclass(frozen=True, slots=True)
class Done:
    """``released``, ``closed`` or ``ack``: ``what`` says which."""

    what: str


@dataclass(frozen=True, slots=True)
class Other:
    """A message type this client does not read (ignored, as the protocol asks)."""

    type: str


ServerMessage = Welcome | Allocated | Claimed | Mail | Pong | Refused | Done | Other
_M = TypeVar("_M", Welcome, Allocated, Claimed)


def _broken(why: str) -> MailboxError:
    return MailboxError("broken", f"the mailbox sent what its protocol does not allow ({why})")


def _field(obj: dict[str, object], key: str, pattern: re.Pattern[str], what: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise _broken(f"a {obj['type']} without a valid {what}")
    return value


def parse(raw: str | bytes) -> ServerMessage:
    """One message from the server, checked; :class:`MailboxError` (``broken``) if it is not one."""
    if len(raw) > MAX_MESSAGE:
        raise _broken(f"a message of {len(raw)} characters")
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):
        raise _broken("a message that is not JSON") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        raise _broken("a message that is not an object with a type")
    kind = obj["type"]
    if kind == "welcome":
        inner = obj.get("welcome", {})
        if not isinstance(inner, dict):
            raise _broken("a welcome that is not an object")
        error = inner.get("error")
        return Welcome(None if error is None else clean(error))
    if kind == "allocated":
        return Allocated(_field(obj, "nameplate", _NAMEPLATE, "nameplate"))
    if kind == "claimed":
        return Claimed(_field(obj, "mailbox", _MAILBOX_ID, "mailbox id"))
    if kind == "message":
        return _mail(obj)
    if kind == "pong":
        ping = obj.get("pong")
        if type(ping) is not int:
            raise _broken("a pong without its number")
        return Pong(ping)
    if kind == "error":
        return Refused(clean(obj.get("error", "")))
    if kind in ("released", "closed", "ack"):
        return Done(kind)
    return Other(clean(kind))


def _mail(obj: dict[str, object]) -> Mail:
    side = _field(obj, "side", _SIDE, "side")
    phase = _field(obj, "phase", _PHASE, "phase")
    body = obj.get("body")
    if not isinstance(body, str) or len(body) > 2 * MAX_BODY or not _HEX.fullmatch(body):
        raise _broken("a message whose body is not hex, or too long")
    return Mail(side, phase, bytes.fromhex(body))


# -- the connection ----------------------------------------------------------------------------------
class Mailbox:
    """One WebSocket to a mailbox server, bound to an app id and this end's ``side``.

    Calls wait for their answer (:data:`ANSWER_TIMEOUT`); messages of the other side that come
    meanwhile are held, the first of each phase, for :meth:`receive` and :meth:`held`.
    """

    def __init__(self, ws: WebSocketConnection, url: str, side: str, app_id: str) -> None:
        self.ws, self.url, self.side, self.app_id = ws, url, side, app_id
        self._held: dict[str, bytes] = {}
        self._seen = 0
        self._pings = 0

    async def _send(self, kind: str, **fields: object) -> None:
        try:
            await self.ws.send_message(json.dumps({"type": kind, **fields}))
        except ConnectionClosed:
            raise MailboxError("closed", "the mailbox closed the connection") from None

    async def _next(self) -> ServerMessage:
        try:
            raw = await self.ws.get_message()
        except ConnectionClosed:
            raise MailboxError("closed", "the mailbox closed the connection") from None
        msg = parse(raw)
        if isinstance(msg, Refused):
            if msg.error == "crowded":
                raise MailboxError("crowded", "the code's nameplate is in use by others")
            raise MailboxError("refused", f"the mailbox refused: {msg.error}")
        if isinstance(msg, Mail) and msg.side != self.side:
            self._seen += 1
            if self._seen > MAX_HELD:
                raise _broken(f"more than {MAX_HELD} messages from the other side")
            self._held.setdefault(msg.phase, msg.body)
        return msg

    async def _answer(self, kind: type[_M]) -> _M:
        timeout = ANSWER_TIMEOUT
        with trio.move_on_after(timeout):
            while True:
                msg = await self._next()
                if isinstance(msg, kind):
                    return msg
        raise MailboxError("timeout", f"the mailbox did not answer within {timeout:g} s")

    async def welcome(self) -> None:
        msg = await self._answer(Welcome)
        if msg.error is not None:
            raise MailboxError("refused", f"the mailbox refuses clients: {msg.error}")
        await self._send("bind", appid=self.app_id, side=self.side, client_version=["fairdeal", __version__])

    async def allocate(self) -> str:
        """A free nameplate, claimed for this side."""
        await self._send("allocate")
        return (await self._answer(Allocated)).nameplate

    async def claim(self, nameplate: str) -> str:
        """The mailbox id behind ``nameplate`` (made if nobody holds it)."""
        await self._send("claim", nameplate=nameplate)
        return (await self._answer(Claimed)).mailbox

    async def open(self, mailbox: str) -> None:
        await self._send("open", mailbox=mailbox)

    async def add(self, phase: str, body: bytes) -> None:
        await self._send("add", phase=phase, body=body.hex())

    async def ping(self) -> None:
        """Wait until the server has handled everything sent before (and delivered what it held)."""
        self._pings += 1
        await self._send("ping", ping=self._pings)
        timeout = ANSWER_TIMEOUT
        with trio.move_on_after(timeout):
            while True:
                msg = await self._next()
                if isinstance(msg, Pong) and msg.ping == self._pings:
                    return
        raise MailboxError("timeout", f"the mailbox did not answer within {timeout:g} s")

    def held(self, phase: str) -> bytes | None:
        """The other side's message of ``phase`` if it came already."""
        return self._held.get(phase)

    async def receive(self, phase: str) -> bytes:
        """The other side's message of ``phase``, waiting for it as long as the caller lets it."""
        while phase not in self._held:
            await self._next()
        return self._held[phase]

    async def leave(self, nameplate: str | None, mailbox: str | None, mood: Mood) -> None:
        """Release the nameplate and close the mailbox (best effort, :data:`CLOSE_TIMEOUT`; never
        raises). No answer is awaited: the server handles them before the WebSocket's close."""
        with trio.move_on_after(CLOSE_TIMEOUT):
            try:
                if nameplate is not None:
                    await self._send("release", nameplate=nameplate)
                if mailbox is not None:
                    await self._send("close", mailbox=mailbox, mood=mood)
            except MailboxError:
                pass


@asynccontextmanager
async def open_mailbox(
    url: str, app_id: str, *, connect_timeout: float = CONNECT_TIMEOUT
) -> AsyncIterator[Mailbox]:
    """A :class:`Mailbox` at ``url``, welcomed and bound to ``app_id`` under a new random side.

    Raises :class:`MailboxError` (``unreachable``) when the WebSocket cannot be opened."""
    side = secrets.token_hex(8)
    entered = False
    try:
        async with open_websocket_url(
            url,
            max_message_size=MAX_MESSAGE,
            connect_timeout=connect_timeout,
            disconnect_timeout=CLOSE_TIMEOUT,
        ) as ws:
            box = Mailbox(ws, url, side, app_id)
            await box.welcome()
            entered = True
            yield box
    except HandshakeError as exc:
        if entered:  # closing the WebSocket failed after the work: the connection broke
            raise MailboxError("closed", "the connection to the mailbox broke") from None
        raise MailboxError("unreachable", f"the mailbox {url} cannot be reached ({_why(exc)})") from None
    except OSError as exc:
        raise MailboxError("unreachable", f"the mailbox {url} cannot be reached ({os_reason(exc)})") from None


def _why(exc: HandshakeError) -> str:
    cause = exc.__cause__
    if isinstance(cause, OSError):
        return os_reason(cause)
    name = type(exc).__name__
    if name == "ConnectionTimeout":
        return "no answer in time"
    if name == "ConnectionRejected":
        return "it refused the WebSocket: is that a mailbox's URL?"
    return "its WebSocket handshake failed"


__all__ = [
    "Mail",
    "Mailbox",
    "MailboxError",
    "Mood",
    "ServerMessage",
    "check_url",
    "clean",
    "open_mailbox",
    "parse",
]
