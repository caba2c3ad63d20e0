"""The host-guest link messages that travel inside the secure channel.

Each message is one secure-channel message holding one msgpack map with a ``"type"``
key and exactly the fields of that type (no more, no fewer). Decoding is strict:
every type, length and bound is checked, and anything else raises
:class:`RemoteProtocolError` naming the peer. See ``docs/protocol.md``.

    guest -> host  hello    {protocol, session, software}     first message of a joiner
    host -> guest  welcome  {protocol, seat, players, game, distribution, version, options}
    host -> guest  refused  {reason}                          then the host closes
    guest -> host  ready    {name, kind}                      takes the offered seat
    host -> guest  lobby    {seats}                           who sits where, on every change
    both           entry    {data}                            one encoded log entry (envelope)
    both           ping     {n} / pong {n}                    keepalive
    both           bye      {reason}                          leaving; the sender closes next
    both           chat     {seat, n, text, sig}              a line to the table (signed by its seat)

A game that survives a drop (see ``docs/protocol.md``, "Coming back"):

    guest -> host  rejoin   {protocol, session, software, seat, entries, last}   instead of hello
    guest -> host  watch    {protocol, session, software, entries, last}         instead of hello
    host -> guest  sync     {entries, grace}                  then the entries after the joiner's
    host -> guest  away     {seat, seconds}                   a seat's link dropped; held that long
    host -> guest  back     {seat}                            it came back
    both           adjourn  {seat, agree}                     a player proposes/agrees (or declines)
    host -> guest  adjourned {entries}                        every player agreed: the game stops here
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from fairdeal.core._msgpack import pack, strict_unpack
from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError
from fairdeal.core.session.header import MAX_NAME, MAX_SEATS, MAX_TEXT
from fairdeal.core.text import MAX_REASON, clean_text, shows_as_is

from .framing import MAX_APP_MESSAGE
from .invite import SESSION_ID_BYTES

PROTOCOL: Final = 4
MAX_MESSAGE: Final = MAX_APP_MESSAGE
"""Largest link message (the secure channel's limit)."""
MAX_CONTROL: Final = 16 * 1024
"""Largest message of any type but ``entry``."""
ENTRY_OVERHEAD: Final = 32
MAX_ENTRY: Final = MAX_MESSAGE - ENTRY_OVERHEAD
"""Largest log entry a link carries (the ``entry`` wrapper takes at most 32 bytes)."""
MAX_SOFTWARE: Final = 64
MAX_OPTIONS: Final = 64
MAX_COUNTER: Final = 2**32
MAX_GRACE: Final = 7 * 24 * 3600
"""Seconds a host may hold a dropped seat (a week: an adjourned game is resumed, not held)."""
HASH_BYTES: Final = 32
NO_ENTRY: Final = bytes(HASH_BYTES)
"""The ``last`` of a joiner that holds no entry yet."""
MAX_CHAT: Final = 300
"""Characters of one chat message."""
SIGNATURE_BYTES: Final = 64
_FINGERPRINT = re.compile(r"fd1-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}")
_KIND = re.compile(r"human|bot(:[A-Za-z0-9_.-]{1,36})?")
_GAME = re.compile(r"[a-z][a-z0-9-]{0,31}")


# -- messages -----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Hello:
    """A joiner's first message: the session id from its invite code."""

    session: bytes
    software: str = "fairdeal"
    protocol: int = PROTOCOL


@dataclass(frozen=True, slots=True)
class Welcome:
    """The host offers seat ``seat`` of a ``players``-seat table of ``game`` with ``options``."""

    seat: int
    players: int
    game: str
    distribution: str
    version: str
    options: Mapping[str, bool | int | str] = field(default_factory=dict)
    grace: int = 120
    protocol: int = PROTOCOL


@dataclass(frozen=True, slots=True)
class Refused:
    """The host will not seat this joiner, and says why."""

    reason: str


@dataclass(frozen=True, slots=True)
class Ready:
    """The joiner takes the seat: its display name and what plays it (human, bot, bot:NAME)."""

    name: str
    kind: str


@dataclass(frozen=True, slots=True)
class LobbySeat:
    """A filled seat as the lobby shows it."""

    name: str
    fingerprint: str
    kind: str


@dataclass(frozen=True, slots=True)
class Lobby:
    """Every seat of the table, ``None`` where nobody sits yet."""

    seats: tuple[LobbySeat | None, ...]

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def missing(self) -> int:
        return sum(s is None for s in self.seats)


@dataclass(frozen=True, slots=True)
class Entry:
    """One encoded log entry (a signed envelope)."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Ping:
    n: int


@dataclass(frozen=True, slots=True)
class Pong:
    n: int


@dataclass(frozen=True, slots=True)
class Bye:
    """The sender leaves (the game is over, it gave up, or it drops the peer) and closes next."""

    reason: str


@dataclass(frozen=True, slots=True)
class Chat:
    """A line of chat from seat ``seat``: its ``n``-th, signed by that seat's identity key.

    Never part of the game log; the host relays it to the other seats unchanged.
    """

    seat: int
    n: int
    text: str
    sig: bytes


@dataclass(frozen=True, slots=True)
class Rejoin:
    """A seat comes back: it holds ``entries`` entries of the log, the last of which hashes to ``last``."""

    session: bytes
    seat: int
    entries: int
    last: bytes = NO_ENTRY
    software: str = "fairdeal"
    protocol: int = PROTOCOL


@dataclass(frozen=True, slots=True)
class Watch:
    """A watcher asks to follow the game; it holds ``entries`` entries already (0: none)."""

    session: bytes
    entries: int = 0
    last: bytes = NO_ENTRY
    software: str = "fairdeal"
    protocol: int = PROTOCOL


@dataclass(frozen=True, slots=True)
class Sync:
    """The host holds ``entries`` entries; those the joiner lacks follow, then the game goes on.

    ``grace``: the seconds the host holds a seat whose link dropped."""

    entries: int
    grace: int


@dataclass(frozen=True, slots=True)
class Away:
    """Seat ``seat``'s link dropped: the host holds the seat ``seconds`` more."""

    seat: int
    seconds: int


@dataclass(frozen=True, slots=True)
class Back:
    """Seat ``seat`` came back."""

    seat: int


@dataclass(frozen=True, slots=True)
class Adjourn:
    """Seat ``seat`` proposes or agrees to stop and go on later (``agree``), or declines."""

    seat: int
    agree: bool


@dataclass(frozen=True, slots=True)
class Adjourned:
    """Every player agreed: the game stops after ``entries`` entries, to be resumed later."""

    entries: int


Message = (
    Hello
    | Welcome
    | Refused
    | Ready
    | Lobby
    | Entry
    | Ping
    | Pong
    | Bye
    | Chat
    | Rejoin
    | Watch
    | Sync
    | Away
    | Back
    | Adjourn
    | Adjourned
)

_TAGS: Final[dict[type, str]] = {
    Hello: "hello",
    Welcome: "welcome",
    Refused: "refused",
    Ready: "ready",
    Lobby: "lobby",
    Entry: "entry",
    Ping: "ping",
    Pong: "pong",
    Bye: "bye",
    Chat: "chat",
    Rejoin: "rejoin",
    Watch: "watch",
    Sync: "sync",
    Away: "away",
    Back: "back",
    Adjourn: "adjourn",
    Adjourned: "adjourned",
}


# -- encoding -----------------------------------------------------------------------------------------
def _fields(msg: Message) -> dict[str, Any]:
    if isinstance(msg, Hello):
        return {"protocol": msg.protocol, "session": msg.session, "software": msg.software}
    if isinstance(msg, Welcome):
        return {
            "protocol": msg.protocol,
            "seat": msg.seat,
            "players": msg.players,
            "game": msg.game,
            "distribution": msg.distribution,
            "version": msg.version,
            "options": dict(sorted(msg.options.items())),
            "grace": msg.grace,
        }
    if isinstance(msg, Refused | Bye):
        return {"reason": msg.reason}
    if isinstance(msg, Ready):
        return {"name": msg.name, "kind": msg.kind}
    if isinstance(msg, Lobby):
        return {
            "seats": [
                None if s is None else {"name": s.name, "fingerprint": s.fingerprint, "kind": s.kind}
                for s in msg.seats
            ]
        }
    if isinstance(msg, Entry):
        return {"data": msg.data}
    if isinstance(msg, Ping | Pong):
        return {"n": msg.n}
    if isinstance(msg, Chat):
        return {"seat": msg.seat, "n": msg.n, "text": msg.text, "sig": msg.sig}
    if isinstance(msg, Rejoin):
        return {
            "protocol": msg.protocol,
            "session": msg.session,
            "software": msg.software,
            "seat": msg.seat,
            "entries": msg.entries,
            "last": msg.last,
        }
    if isinstance(msg, Watch):
        return {
            "protocol": msg.protocol,
            "session": msg.session,
            "software": msg.software,
            "entries": msg.entries,
            "last": msg.last,
        }
    if isinstance(msg, Sync):
        return {"entries": msg.entries, "grace": msg.grace}
    if isinstance(msg, Away):
        return {"seat": msg.seat, "seconds": msg.seconds}
    if isinstance(msg, Back):
        return {"seat": msg.seat}
    if isinstance(msg, Adjourn):
        return {"seat": msg.seat, "agree": msg.agree}
    if isinstance(msg, Adjourned):
        return {"entries": msg.entries}
    raise LocalProtocolError(f"not a link message: {type(msg).__name__}")


def encode(msg: Message) -> bytes:
    """The bytes of ``msg``; checked as the receiver will check them (LocalProtocolError if wrong)."""
    body = {"type": _TAGS[type(msg)], **_fields(msg)}
    data = pack(body)
    try:
        decoded = decode(data)
    except RemoteProtocolError as exc:
        raise LocalProtocolError(
            f"refusing to send an invalid {body['type']} message: {exc.reason}"
        ) from None
    if decoded != msg:
        raise LocalProtocolError(f"refusing to send a {body['type']} message that does not round-trip")
    return data


# -- decoding -----------------------------------------------------------------------------------------
class _Check:
    """Field checks that blame the peer."""

    def __init__(self, kind: str, peer: str | None) -> None:
        self.kind, self.peer = kind, peer

    def fail(self, reason: str) -> RemoteProtocolError:
        return RemoteProtocolError(f"malformed {self.kind} message: {reason}", peer=self.peer)

    def integer(self, v: object, lo: int, hi: int, what: str) -> int:
        if type(v) is not int or not lo <= v < hi:
            raise self.fail(f"{what} must be an integer in [{lo}, {hi})")
        return v

    def text(self, v: object, limit: int, what: str) -> str:
        if not shows_as_is(v, limit):
            raise self.fail(f"{what} must be 1 to {limit} printable characters without surrounding spaces")
        return v  # type: ignore[return-value]

    def pattern(self, v: object, rx: re.Pattern[str], what: str) -> str:
        if not isinstance(v, str) or not rx.fullmatch(v):
            raise self.fail(f"{what} is not valid")
        return v

    def reason(self, v: object) -> str:
        # Reasons are shown to people: printable, bounded; a sender cleans them with clean_text.
        return self.text(v, MAX_REASON, "reason")

    def options(self, v: object) -> dict[str, bool | int | str]:
        if not isinstance(v, dict) or len(v) > MAX_OPTIONS:
            raise self.fail(f"options must be a map of at most {MAX_OPTIONS} entries")
        for k, x in v.items():
            if not shows_as_is(k, MAX_NAME):
                raise self.fail("an option name must be short plain text")
            ok = isinstance(x, bool) or (type(x) is int and -(2**63) <= x < 2**63)
            ok = ok or shows_as_is(x, MAX_TEXT, empty=True)
            if not ok:
                raise self.fail(f"option {k!r} must be a boolean, an integer or short plain text")
        return dict(v)


def _unpack(data: bytes, peer: str | None) -> Any:
    return strict_unpack(
        data,
        max_bytes=MAX_MESSAGE,
        max_str=MAX_CONTROL,
        max_bin=MAX_MESSAGE,
        max_array=256,
        max_map=MAX_OPTIONS + 8,
        peer=peer,
    )


_FIELDS: Final[dict[str, frozenset[str]]] = {
    "hello": frozenset({"protocol", "session", "software"}),
    "welcome": frozenset(
        {"protocol", "seat", "players", "game", "distribution", "version", "options", "grace"}
    ),
    "refused": frozenset({"reason"}),
    "ready": frozenset({"name", "kind"}),
    "lobby": frozenset({"seats"}),
    "entry": frozenset({"data"}),
    "ping": frozenset({"n"}),
    "pong": frozenset({"n"}),
    "bye": frozenset({"reason"}),
    "chat": frozenset({"seat", "n", "text", "sig"}),
    "rejoin": frozenset({"protocol", "session", "software", "seat", "entries", "last"}),
    "watch": frozenset({"protocol", "session", "software", "entries", "last"}),
    "sync": frozenset({"entries", "grace"}),
    "away": frozenset({"seat", "seconds"}),
    "back": frozenset({"seat"}),
    "adjourn": frozenset({"seat", "agree"}),
    "adjourned": frozenset({"entries"}),
}


def decode(data: bytes, *, peer: str | None = None) -> Message:
    """Parse and strictly check one link message received from ``peer``."""
    if not isinstance(data, bytes | bytearray) or not 1 <= len(data) <= MAX_MESSAGE:
        raise RemoteProtocolError("a link message is 1 byte to 1 MiB", peer=peer)
    if len(data) > MAX_CONTROL and data[:1] != b"\x82":
        # Only an entry (a map of two fields: type and data) may be this large.
        raise RemoteProtocolError(f"a message of {len(data)} bytes that is not an entry", peer=peer)
    obj = _unpack(bytes(data), peer)
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        raise RemoteProtocolError("malformed message: not a map with a type", peer=peer)
    kind = obj.pop("type")
    names = _FIELDS.get(kind)
    if names is None:
        raise RemoteProtocolError(f"unknown message type {clean_text(kind, 32)!r}", peer=peer)
    c = _Check(kind, peer)
    if set(obj) != names:
        raise c.fail(f"fields must be exactly {', '.join(sorted(names))}")
    if kind != "entry" and len(data) > MAX_CONTROL:
        raise c.fail(f"{len(data)} bytes is over the limit of {MAX_CONTROL}")
    if kind == "hello":
        return Hello(
            session=_session(c, obj["session"]),
            software=c.text(obj["software"], MAX_SOFTWARE, "software"),
            protocol=c.integer(obj["protocol"], 1, MAX_COUNTER, "protocol"),
        )
    if kind == "welcome":
        players = c.integer(obj["players"], 2, MAX_SEATS + 1, "players")
        return Welcome(
            seat=c.integer(obj["seat"], 1, players, "seat"),
            players=players,
            game=c.pattern(obj["game"], _GAME, "game"),
            distribution=c.text(obj["distribution"], MAX_TEXT, "distribution"),
            version=c.text(obj["version"], MAX_TEXT, "version"),
            options=c.options(obj["options"]),
            grace=c.integer(obj["grace"], 0, MAX_GRACE + 1, "grace"),
            protocol=c.integer(obj["protocol"], 1, MAX_COUNTER, "protocol"),
        )
    if kind == "refused":
        return Refused(c.reason(obj["reason"]))
    if kind == "bye":
        return Bye(c.reason(obj["reason"]))
    if kind == "ready":
        return Ready(c.text(obj["name"], MAX_NAME, "name"), c.pattern(obj["kind"], _KIND, "kind"))
    if kind == "lobby":
        return Lobby(_seats(c, obj["seats"]))
    if kind == "entry":
        d = obj["data"]
        if not isinstance(d, bytes) or not 1 <= len(d) <= MAX_ENTRY:
            raise c.fail(f"data must be 1 to {MAX_ENTRY} bytes")
        return Entry(d)
    if kind == "chat":
        sig = obj["sig"]
        if not isinstance(sig, bytes) or len(sig) != SIGNATURE_BYTES:
            raise c.fail(f"sig must be {SIGNATURE_BYTES} bytes")
        return Chat(
            seat=c.integer(obj["seat"], 0, MAX_SEATS, "seat"),
            n=c.integer(obj["n"], 0, MAX_COUNTER, "n"),
            text=c.text(obj["text"], MAX_CHAT, "text"),
            sig=sig,
        )
    if kind == "rejoin":
        return Rejoin(
            session=_session(c, obj["session"]),
            seat=c.integer(obj["seat"], 1, MAX_SEATS, "seat"),
            entries=c.integer(obj["entries"], 0, MAX_COUNTER, "entries"),
            last=_hash(c, obj["last"]),
            software=c.text(obj["software"], MAX_SOFTWARE, "software"),
            protocol=c.integer(obj["protocol"], 1, MAX_COUNTER, "protocol"),
        )
    if kind == "watch":
        return Watch(
            session=_session(c, obj["session"]),
            entries=c.integer(obj["entries"], 0, MAX_COUNTER, "entries"),
            last=_hash(c, obj["last"]),
            software=c.text(obj["software"], MAX_SOFTWARE, "software"),
            protocol=c.integer(obj["protocol"], 1, MAX_COUNTER, "protocol"),
        )
    if kind == "sync":
        return Sync(
            c.integer(obj["entries"], 0, MAX_COUNTER, "entries"),
            c.integer(obj["grace"], 0, MAX_GRACE + 1, "grace"),
        )
    if kind == "away":
        return Away(
            c.integer(obj["seat"], 0, MAX_SEATS, "seat"),
            c.integer(obj["seconds"], 0, MAX_GRACE + 1, "seconds"),
        )
    if kind == "back":
        return Back(c.integer(obj["seat"], 0, MAX_SEATS, "seat"))
    if kind == "adjourn":
        agree = obj["agree"]
        if not isinstance(agree, bool):
            raise c.fail("agree must be true or false")
        return Adjourn(c.integer(obj["seat"], 0, MAX_SEATS, "seat"), agree)
    if kind == "adjourned":
        return Adjourned(c.integer(obj["entries"], 1, MAX_COUNTER, "entries"))
    n = c.integer(obj["n"], 0, MAX_COUNTER, "n")
    return Ping(n) if kind == "ping" else Pong(n)


def _session(c: _Check, v: object) -> bytes:
    if not isinstance(v, bytes) or len(v) != SESSION_ID_BYTES:
        raise c.fail(f"session must be {SESSION_ID_BYTES} bytes")
    return v


def _hash(c: _Check, v: object) -> bytes:
    if not isinstance(v, bytes) or len(v) != HASH_BYTES:
        raise c.fail(f"last must be {HASH_BYTES} bytes")
    return v


def _seats(c: _Check, v: object) -> tuple[LobbySeat | None, ...]:
    if not isinstance(v, list) or not 2 <= len(v) <= MAX_SEATS:
        raise c.fail(f"seats must be a list of 2 to {MAX_SEATS}")
    out: list[LobbySeat | None] = []
    for s in v:
        if s is None:
            out.append(None)
            continue
        if not isinstance(s, dict) or set(s) != {"name", "fingerprint", "kind"}:
            raise c.fail("a seat is nil or a map of name, fingerprint and kind")
        out.append(
            LobbySeat(
                c.text(s["name"], MAX_NAME, "name"),
                c.pattern(s["fingerprint"], _FINGERPRINT, "fingerprint"),
                c.pattern(s["kind"], _KIND, "kind"),
            )
        )
    return tuple(out)


def valid_kind(kind: str) -> bool:
    """True for a seat kind a ``ready`` message may announce."""
    return bool(_KIND.fullmatch(kind))


def valid_name(name: str) -> bool:
    """True for a display name a ``ready`` message may carry."""
    return shows_as_is(name, MAX_NAME)


__all__ = [
    "MAX_CONTROL",
    "MAX_ENTRY",
    "MAX_GRACE",
    "MAX_MESSAGE",
    "NO_ENTRY",
    "PROTOCOL",
    "Adjourn",
    "Adjourned",
    "Away",
    "Back",
    "Bye",
    "Chat",
    "Entry",
    "Hello",
    "Lobby",
    "LobbySeat",
    "Message",
    "Ping",
    "Pong",
    "Ready",
    "Refused",
    "Rejoin",
    "Sync",
    "Watch",
    "Welcome",
    "clean_text",
    "decode",
    "encode",
    "valid_kind",
    "valid_name",
]
