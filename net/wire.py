"""The host-guest link messages that travel inside the secure channel.

Each message is one secure-channel message holding one msgpack map with a ``"type"``
key and exactly the fields of that type (no more, no fewer). Decoding is strict:
every type, length and bound is checked, and anything else raises
:class:`RemoteProtocolError` naming the peer. See ``docs/protocol.md``.

Each message is declared once, below: a frozen dataclass whose every field is annotated
with the kind of value it holds and its limits (``net/_schema.py``), registered under its
tag by :func:`message`; :func:`encode` and :func:`decode` follow from the declarations. A
new message is one more such class.

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
    host -> guest  away     {seat, seconds, resuming}         a seat is away (its link dropped, or it has
                                                      not come back to a resumed game); held that long
    host -> guest  back     {seat}                            it came back
    both           adjourn  {seat, agree}                     a player proposes/agrees (or declines)
    host -> guest  adjourned {entries}                        every player agreed: the game stops here
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, TypeVar

from fairdeal.core import pack, strict_unpack
from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError
from fairdeal.core.session.header import MAX_NAME, MAX_SEATS, MAX_TEXT
from fairdeal.core.text import MAX_REASON, clean_text, shows_as_is

from ._schema import Blob, Check, Flag, Int, Options, Pattern, Records, Schema, Text, schema
from .framing import MAX_APP_MESSAGE
from .invite import SESSION_ID_BYTES

PROTOCOL: Final = 6
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


# -- declaring a message ------------------------------------------------------------------------------
class Message:
    """A link message: one of the classes declared below with :func:`message`."""

    __slots__ = ()


M = TypeVar("M", bound=Message)
_BY_TAG: Final[dict[str, Schema]] = {}
_TAG: Final[dict[type, str]] = {}
_LARGE: Final[set[str]] = set()


def message(tag: str, *, order: Sequence[str] = (), large: bool = False) -> Callable[[type[M]], type[M]]:
    """Register a message class under ``tag``.

    ``order``: the keys on the wire when it is not the order of the fields; ``large``: it may
    exceed :data:`MAX_CONTROL` (only an entry does).
    """

    def register(cls: type[M]) -> type[M]:
        if tag in _BY_TAG or cls in _TAG:
            raise TypeError(f"a second link message {tag!r}")
        _BY_TAG[tag] = schema(cls, order)
        _TAG[cls] = tag
        if large:
            _LARGE.add(tag)
        return cls

    return register


# -- the messages ---------------------------------------------------------------------------------------
# Kinds of field: Int(lo, hi) an integer in [lo, hi) (hi may name another field), Text(n) 1 to n
# printable characters, Pattern(rx), Blob(n) n bytes (Blob(lo, hi): lo to hi), Flag() a boolean,
# Options(n) a game's options, Records(cls, lo, hi, ...) a list of maps of cls's fields.
SESSION: Final = Blob(SESSION_ID_BYTES)
LAST: Final = Blob(HASH_BYTES)
SOFTWARE: Final = Text(MAX_SOFTWARE)
PROTOCOL_NUMBER: Final = Int(1, MAX_COUNTER)
ENTRIES: Final = Int(0, MAX_COUNTER)
SEAT: Final = Int(0, MAX_SEATS)
"""Any seat of the table (0 is the host's)."""
SECONDS: Final = Int(0, MAX_GRACE + 1)
REASON: Final = Text(MAX_REASON)
"""Reasons are shown to people: printable, bounded; a sender cleans them with clean_text."""


@message("hello", order=("protocol", "session", "software"))
@dataclass(frozen=True, slots=True)
class Hello(Message):
    """A joiner's first message: the session id from its invite code."""

    session: Annotated[bytes, SESSION]
    software: Annotated[str, SOFTWARE] = "fairdeal"
    protocol: Annotated[int, PROTOCOL_NUMBER] = PROTOCOL


@message(
    "welcome", order=("protocol", "seat", "players", "game", "distribution", "version", "options", "grace")
)
@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """The host offers seat ``seat`` of a ``players``-seat table of ``game`` with ``options``."""

    seat: Annotated[int, Int(1, "players")]
    players: Annotated[int, Int(2, MAX_SEATS + 1)]
    game: Annotated[str, Pattern(_GAME)]
    distribution: Annotated[str, Text(MAX_TEXT)]
    version: Annotated[str, Text(MAX_TEXT)]
    options: Annotated[Mapping[str, bool | int | str], Options(MAX_OPTIONS)] = field(default_factory=dict)
    grace: Annotated[int, SECONDS] = 120
    protocol: Annotated[int, PROTOCOL_NUMBER] = PROTOCOL


@message("refused")
@dataclass(frozen=True, slots=True)
class Refused(Message):
    """The host will not seat this joiner, and says why."""

    reason: Annotated[str, REASON]


@message("ready")
@dataclass(frozen=True, slots=True)
class Ready(Message):
    """The joiner takes the seat: its display name and what plays it (human, bot, bot:NAME)."""

    name: Annotated[str, Text(MAX_NAME)]
    kind: Annotated[str, Pattern(_KIND)]


@dataclass(frozen=True, slots=True)
class LobbySeat:
    """A filled seat as the lobby shows it."""

    name: Annotated[str, Text(MAX_NAME)]
    fingerprint: Annotated[str, Pattern(_FINGERPRINT)]
    kind: Annotated[str, Pattern(_KIND)]


@message("lobby")
@dataclass(frozen=True, slots=True)
class Lobby(Message):
    """Every seat of the table, ``None`` where nobody sits yet."""

    seats: Annotated[tuple[LobbySeat | None, ...], Records(LobbySeat, 2, MAX_SEATS, "a seat", nil=True)]

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def missing(self) -> int:
        return sum(s is None for s in self.seats)


@message("entry", large=True)
@dataclass(frozen=True, slots=True)
class Entry(Message):
    """One encoded log entry (a signed envelope)."""

    data: Annotated[bytes, Blob(1, MAX_ENTRY)]


@message("ping")
@dataclass(frozen=True, slots=True)
class Ping(Message):
    n: Annotated[int, Int(0, MAX_COUNTER)]


@message("pong")
@dataclass(frozen=True, slots=True)
class Pong(Message):
    n: Annotated[int, Int(0, MAX_COUNTER)]


@message("bye")
@dataclass(frozen=True, slots=True)
class Bye(Message):
    """The sender leaves (the game is over, it gave up, or it drops the peer) and closes next."""

    reason: Annotated[str, REASON]


@message("chat")
@dataclass(frozen=True, slots=True)
class Chat(Message):
    """A line of chat from seat ``seat``: its ``n``-th, signed by that seat's identity key.

    Never part of the game log; the host relays it to the other seats unchanged.
    """

    seat: Annotated[int, SEAT]
    n: Annotated[int, Int(0, MAX_COUNTER)]
    text: Annotated[str, Text(MAX_CHAT)]
    sig: Annotated[bytes, Blob(SIGNATURE_BYTES)]


@message("rejoin", order=("protocol", "session", "software", "seat", "entries", "last"))
@dataclass(frozen=True, slots=True)
class Rejoin(Message):
    """A seat comes back: it holds ``entries`` entries of the log, the last of which hashes to ``last``."""

    session: Annotated[bytes, SESSION]
    seat: Annotated[int, Int(1, MAX_SEATS)]
    entries: Annotated[int, ENTRIES]
    last: Annotated[bytes, LAST] = NO_ENTRY
    software: Annotated[str, SOFTWARE] = "fairdeal"
    protocol: Annotated[int, PROTOCOL_NUMBER] = PROTOCOL


@message("watch", order=("protocol", "session", "software", "entries", "last"))
@dataclass(frozen=True, slots=True)
class Watch(Message):
    """A watcher asks to follow the game; it holds ``entries`` entries already (0: none)."""

    session: Annotated[bytes, SESSION]
    entries: Annotated[int, ENTRIES] = 0
    last: Annotated[bytes, LAST] = NO_ENTRY
    software: Annotated[str, SOFTWARE] = "fairdeal"
    protocol: Annotated[int, PROTOCOL_NUMBER] = PROTOCOL


@message("sync")
@dataclass(frozen=True, slots=True)
class Sync(Message):
    """The host holds ``entries`` entries; those the joiner lacks follow, then the game goes on.

    ``grace``: the seconds the host holds a seat whose link dropped."""

    entries: Annotated[int, ENTRIES]
    grace: Annotated[int, SECONDS]


@message("away")
@dataclass(frozen=True, slots=True)
class Away(Message):
    """Seat ``seat`` is away: the host holds it ``seconds`` more. Its link dropped, or
    (``resuming``) the game was resumed and the seat has not come back to it yet."""

    seat: Annotated[int, SEAT]
    seconds: Annotated[int, SECONDS]
    resuming: Annotated[bool, Flag()] = False


@message("back")
@dataclass(frozen=True, slots=True)
class Back(Message):
    """Seat ``seat`` came back."""

    seat: Annotated[int, SEAT]


@message("adjourn")
@dataclass(frozen=True, slots=True)
class Adjourn(Message):
    """Seat ``seat`` proposes or agrees to stop and go on later (``agree``), or declines."""

    seat: Annotated[int, SEAT]
    agree: Annotated[bool, Flag()]


@message("adjourned")
@dataclass(frozen=True, slots=True)
class Adjourned(Message):
    """Every player agreed: the game stops after ``entries`` entries, to be resumed later."""

    entries: Annotated[int, Int(1, MAX_COUNTER)]


#: Every message by its tag (what ``"type"`` says on the wire), for tools and tests.
MESSAGES: Final[Mapping[str, Schema]] = _BY_TAG
# A large message's map holds its fields and "type": its first byte is a fixmap of that size.
_HEADS: Final = frozenset(bytes([0x80 | (1 + len(_BY_TAG[tag].fields))]) for tag in _LARGE)


# -- encoding -----------------------------------------------------------------------------------------
def encode(msg: Message) -> bytes:
    """The bytes of ``msg``; checked as the receiver will check them (LocalProtocolError if wrong)."""
    tag = _TAG.get(type(msg))
    if tag is None:
        raise LocalProtocolError(f"not a link message: {type(msg).__name__}")
    body = {"type": tag, **_BY_TAG[tag].write(msg)}
    data = pack(body)
    try:
        decoded = decode(data)
    except RemoteProtocolError as exc:
        raise LocalProtocolError(f"refusing to send an invalid {tag} message: {exc.reason}") from None
    if decoded != msg:
        raise LocalProtocolError(f"refusing to send a {tag} message that does not round-trip")
    return data


# -- decoding -----------------------------------------------------------------------------------------
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


def decode(data: bytes, *, peer: str | None = None) -> Message:
    """Parse and strictly check one link message received from ``peer``."""
    if not isinstance(data, bytes | bytearray) or not 1 <= len(data) <= MAX_MESSAGE:
        raise RemoteProtocolError("a link message is 1 byte to 1 MiB", peer=peer)
    if len(data) > MAX_CONTROL and bytes(data[:1]) not in _HEADS:
        # Only an entry (a map of two fields: type and data) may be this large.
        raise RemoteProtocolError(f"a message of {len(data)} bytes that is not an entry", peer=peer)
    obj = _unpack(bytes(data), peer)
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        raise RemoteProtocolError("malformed message: not a map with a type", peer=peer)
    kind = obj.pop("type")
    s = _BY_TAG.get(kind)
    if s is None:
        raise RemoteProtocolError(f"unknown message type {clean_text(kind, 32)!r}", peer=peer)
    c = Check(kind, peer)
    if set(obj) != s.names:
        raise c.fail(f"fields must be exactly {', '.join(sorted(s.names))}")
    if kind not in _LARGE and len(data) > MAX_CONTROL:
        raise c.fail(f"{len(data)} bytes is over the limit of {MAX_CONTROL}")
    msg: Message = s.read(obj, c)
    return msg


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
    "MESSAGES",
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
