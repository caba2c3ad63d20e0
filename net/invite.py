"""Invite codes: how a joiner finds the host and knows it is talking to the right one.

An invite code (format version 2) is ``fd1:`` followed by the lower-case base32 (RFC 4648,
no padding) of::

    version      1 byte = 2
    fingerprint  10 bytes: the host identity's fingerprint (the 80 bits ``fd1-xxxx-...`` spells)
    secret       16 bytes, random per hosted game: the key to the table
    relay        1 byte kind: 0 none | 1 the public relay | 2 a relay address that follows;
                 for kinds 1 and 2: doors (1 byte, 1..9), then for kind 2 an address (below)
    direct       count (1 byte, 0..8), then that many addresses, best first
    checksum     4 bytes: the first 4 bytes of SHA-256(b"fairdeal/invite/v1\\0" + everything above)

    address      4 IPv4 (4 bytes) | 6 IPv6 (16 bytes) | 0 length (1..253) host name; then port (u16be)

The checksum is the same for every format version, so a code of another version is
recognised as such ("made by another version of fairdeal") rather than as damaged.
Decoding ignores case, spaces, tabs, line breaks and dashes after the prefix, so a code
wrapped or split in a chat message still reads.

Everything a joiner proves or derives comes from the secret, each with its own
domain-separated hash (``docs/protocol.md`` 2.2): the session id it sends in ``hello``,
and the relay tokens and sides of the host's doors. A relay operator sees tokens, never
the secret, and one game's tokens say nothing about another's.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import re
from dataclasses import dataclass
from typing import Final, Literal

from fairdeal.core.errors import ConfigError

PREFIX: Final = "fd1:"
VERSION: Final = 2
SECRET_BYTES: Final = 16
SESSION_ID_BYTES: Final = 8
FINGERPRINT_BYTES: Final = 10
CHECKSUM_BYTES: Final = 4
MAX_HOSTNAME: Final = 253
MAX_DIRECT: Final = 8
MAX_DOORS: Final = 9
MAX_CODE_CHARS: Final = 480
_CHECK_TAG: Final = b"fairdeal/invite/v1\x00"
_SESSION_TAG: Final = b"fairdeal/session-id/v2\x00"
_TOKEN_TAG: Final = b"fairdeal/relay-token/v2\x00"
_SIDE_TAG: Final = b"fairdeal/relay-side/v2\x00"
_FINGERPRINT = re.compile(r"^fd1-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOSTNAME = re.compile(rf"^{_LABEL}(?:\.{_LABEL})*\.?$")
_IGNORED = re.compile(r"[\s\-]+")
_KIND_NAME, _KIND_V4, _KIND_V6 = 0, 4, 6
_RELAY_NONE, _RELAY_PUBLIC, _RELAY_GIVEN = 0, 1, 2

Role = Literal["host", "joiner"]


class InviteError(ConfigError):
    """The text is not a valid invite code (wrong prefix, damaged, mistyped, cut short, other version)."""


def fingerprint_bytes(fp: str) -> bytes:
    """The 10 bytes behind a fingerprint ``fd1-xxxx-xxxx-xxxx-xxxx``."""
    if not isinstance(fp, str) or not _FINGERPRINT.fullmatch(fp):
        raise ValueError(f"not an identity fingerprint: {fp!r}")
    return base64.b32decode(fp[4:].replace("-", "").upper())


def fingerprint_text(raw: bytes) -> str:
    """The fingerprint spelling of 10 bytes (the inverse of :func:`fingerprint_bytes`)."""
    if len(raw) != FINGERPRINT_BYTES:
        raise ValueError("a fingerprint is 10 bytes")
    text = base64.b32encode(raw).decode().lower()
    return "fd1-" + "-".join(text[i : i + 4] for i in range(0, 16, 4))


def valid_host(host: str) -> bool:
    """True for an IPv4 or IPv6 address or a DNS host name an invite can carry."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return 0 < len(host) <= MAX_HOSTNAME and host.isascii() and bool(_HOSTNAME.fullmatch(host))


@dataclass(frozen=True, slots=True, order=True)
class Endpoint:
    """A TCP address: an IP address or a host name, and a port."""

    host: str
    port: int

    def __post_init__(self) -> None:
        if not isinstance(self.host, str) or not valid_host(self.host):
            raise ValueError(f"not an address or host name: {self.host!r}")
        if type(self.port) is not int or not 1 <= self.port <= 65535:
            raise ValueError(f"port {self.port!r} is out of range")

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    def encode(self) -> bytes:
        try:
            ip = ipaddress.ip_address(self.host)
        except ValueError:
            name = self.host.encode("ascii")
            address = bytes([_KIND_NAME, len(name)]) + name
        else:
            address = bytes([_KIND_V4 if ip.version == 4 else _KIND_V6]) + ip.packed
        return address + self.port.to_bytes(2, "big")


PUBLIC_RELAY: Final = Endpoint("transit.magic-wormhole.io", 4001)
"""The transit relay magic-wormhole's own users rely on (``tcp:transit.magic-wormhole.io:4001``)."""


def parse_endpoint(text: str) -> Endpoint:
    """``tcp:HOST:PORT``, ``HOST:PORT`` or ``[IPv6]:PORT`` as an :class:`Endpoint` (ValueError if not)."""
    t = text.strip()
    if t.lower().startswith("tcp:"):
        t = t[4:]
    m = re.fullmatch(r"\[([0-9A-Fa-f:.]+)\]:([0-9]{1,5})", t) or re.fullmatch(r"([^:\[\]]+):([0-9]{1,5})", t)
    if m is None:
        raise ValueError(f"{text!r} is not tcp:HOST:PORT")
    return Endpoint(m.group(1), int(m.group(2)))


def _digest(tag: bytes, *parts: bytes) -> bytes:
    return hashlib.sha256(tag + b"".join(parts)).digest()


def _checksum(payload: bytes) -> bytes:
    return _digest(_CHECK_TAG, payload)[:CHECKSUM_BYTES]


@dataclass(frozen=True, slots=True)
class Invite:
    """Who the host is, the table's secret, and where to find the host: direct addresses and a relay.

    ``doors`` is the number of relay doors (waiting relay connections) the host keeps open;
    it is 0 exactly when there is no relay.
    """

    fingerprint: str
    secret: bytes
    direct: tuple[Endpoint, ...] = ()
    relay: Endpoint | None = None
    doors: int = 0

    def __post_init__(self) -> None:
        fingerprint_bytes(self.fingerprint)
        if not isinstance(self.secret, bytes) or len(self.secret) != SECRET_BYTES:
            raise ValueError(f"a table secret is {SECRET_BYTES} bytes")
        if len(self.direct) > MAX_DIRECT or len(set(self.direct)) != len(self.direct):
            raise ValueError(f"at most {MAX_DIRECT} distinct direct addresses")
        if not all(isinstance(e, Endpoint) for e in self.direct):
            raise ValueError("direct addresses are endpoints")
        if self.relay is None:
            if self.doors != 0:
                raise ValueError("relay doors without a relay")
            if not self.direct:
                raise ValueError("an invite needs a direct address or a relay")
        elif not 1 <= self.doors <= MAX_DOORS:
            raise ValueError(f"a relay has 1 to {MAX_DOORS} doors")

    # -- what the secret gives ---------------------------------------------------------------------
    @property
    def session(self) -> bytes:
        """The session id a joiner sends in ``hello`` (8 bytes derived from the secret)."""
        return _digest(_SESSION_TAG, self.secret)[:SESSION_ID_BYTES]

    def relay_token(self, door: int) -> str:
        """The relay token of door ``door`` (64 hex digits)."""
        if not 0 <= door < max(self.doors, 1):
            raise ValueError(f"no door {door}")
        return _digest(_TOKEN_TAG, self.secret, bytes([door])).hex()

    def relay_side(self, role: Role) -> str:
        """The relay side of the host or of every joiner (16 hex digits)."""
        return _digest(_SIDE_TAG, self.secret, role.encode("ascii")).hex()[:16]

    # -- the code ----------------------------------------------------------------------------------
    def payload(self) -> bytes:
        """The bytes the code spells, checksum excluded."""
        if self.relay is None:
            relay = bytes([_RELAY_NONE])
        elif self.relay == PUBLIC_RELAY:
            relay = bytes([_RELAY_PUBLIC, self.doors])
        else:
            relay = bytes([_RELAY_GIVEN, self.doors]) + self.relay.encode()
        direct = bytes([len(self.direct)]) + b"".join(e.encode() for e in self.direct)
        return bytes([VERSION]) + fingerprint_bytes(self.fingerprint) + self.secret + relay + direct

    def encode(self) -> str:
        """The code to hand out: ``fd1:`` and base32 of payload and checksum."""
        payload = self.payload()
        text = base64.b32encode(payload + _checksum(payload)).decode("ascii").rstrip("=").lower()
        if len(text) > MAX_CODE_CHARS:
            raise ValueError("too many or too long addresses for one invite code")
        return PREFIX + text

    @property
    def address(self) -> str:
        """Where the code points, for messages: the direct addresses, then the relay."""
        parts = [str(e) for e in self.direct]
        if self.relay is not None:
            parts.append(f"relay {self.relay}")
        return ", ".join(parts)


def decode_invite(code: str) -> Invite:
    """Parse an invite code; :class:`InviteError` says what is wrong with it."""
    if not isinstance(code, str):
        raise InviteError("an invite code is text")
    text = code.strip()
    if text[: len(PREFIX)].lower() != PREFIX:
        raise InviteError(f"not an invite code: a fairdeal invite code starts with {PREFIX}")
    body = _IGNORED.sub("", text[len(PREFIX) :]).upper()
    if len(body) > MAX_CODE_CHARS:
        raise InviteError("the invite code is too long to be one")
    bad = sorted({c for c in body if c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"})
    if bad:
        shown = "".join(c if c.isprintable() else "?" for c in bad[:5]).lower()
        raise InviteError(f"the invite code is mistyped: it holds characters no code has ({shown})")
    try:
        raw = base64.b32decode(body + "=" * (-len(body) % 8))
    except (binascii.Error, ValueError):
        raise InviteError("the invite code is damaged or cut short (its length is impossible)") from None
    if base64.b32encode(raw).decode("ascii").rstrip("=") != body:
        # The last character's unused bits are not zero: a typo there changes no byte.
        raise InviteError("the invite code is damaged or mistyped (its last character is impossible)")
    if len(raw) < 1 + CHECKSUM_BYTES:
        raise InviteError("the invite code is cut short")
    payload, check = raw[:-CHECKSUM_BYTES], raw[-CHECKSUM_BYTES:]
    if _checksum(payload) != check:
        raise InviteError("the invite code is damaged or mistyped (its checksum does not match)")
    return _parse_payload(payload)


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise InviteError("the invite code is malformed (cut short inside)")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def byte(self) -> int:
        return self.take(1)[0]

    def endpoint(self) -> Endpoint:
        kind = self.byte()
        if kind == _KIND_V4:
            host = str(ipaddress.IPv4Address(self.take(4)))
        elif kind == _KIND_V6:
            host = str(ipaddress.IPv6Address(self.take(16)))
        elif kind == _KIND_NAME:
            size = self.byte()
            if not 1 <= size <= MAX_HOSTNAME:
                raise InviteError("the invite code is malformed (bad host name length)")
            try:
                host = self.take(size).decode("ascii")
            except UnicodeDecodeError:
                raise InviteError("the invite code is malformed (bad host name)") from None
            if not valid_host(host):
                raise InviteError("the invite code is malformed (bad host name)")
        else:
            raise InviteError(f"the invite code is malformed (unknown address kind {kind})")
        port = int.from_bytes(self.take(2), "big")
        if port == 0:
            raise InviteError("the invite code is malformed (port 0)")
        return Endpoint(host, port)


def _parse_payload(p: bytes) -> Invite:
    if p[0] != VERSION:
        raise InviteError(
            f"this invite code was made by another version of fairdeal (code format {p[0]}; this "
            f"fairdeal reads format {VERSION}): the host and every player need the same version"
        )
    r = _Reader(p)
    r.byte()
    fp = fingerprint_text(r.take(FINGERPRINT_BYTES))
    secret = r.take(SECRET_BYTES)
    kind = r.byte()
    relay: Endpoint | None = None
    doors = 0
    if kind in (_RELAY_PUBLIC, _RELAY_GIVEN):
        doors = r.byte()
        if not 1 <= doors <= MAX_DOORS:
            raise InviteError(f"the invite code is malformed ({doors} relay doors)")
        relay = PUBLIC_RELAY if kind == _RELAY_PUBLIC else r.endpoint()
    elif kind != _RELAY_NONE:
        raise InviteError(f"the invite code is malformed (unknown relay kind {kind})")
    count = r.byte()
    if count > MAX_DIRECT:
        raise InviteError(f"the invite code is malformed ({count} direct addresses)")
    direct = tuple(r.endpoint() for _ in range(count))
    if r.pos != len(p):
        raise InviteError("the invite code is malformed (extra bytes)")
    if len(set(direct)) != len(direct):
        raise InviteError("the invite code is malformed (an address given twice)")
    if relay is None and not direct:
        raise InviteError("the invite code is malformed (no address and no relay)")
    return Invite(fp, secret, direct, relay, doors)


__all__ = [
    "MAX_DIRECT",
    "MAX_DOORS",
    "PREFIX",
    "PUBLIC_RELAY",
    "SECRET_BYTES",
    "SESSION_ID_BYTES",
    "Endpoint",
    "Invite",
    "InviteError",
    "decode_invite",
    "fingerprint_bytes",
    "fingerprint_text",
    "parse_endpoint",
    "valid_host",
]
