"""Invite codes: how a joiner finds the host and knows it is talking to the right one.

An invite code is ``fd1:`` followed by the lower-case base32 (RFC 4648, no padding) of::

    version (1 byte, = 1)
    address kind (1 byte): 4 = IPv4 (4 bytes follow), 6 = IPv6 (16 bytes follow),
                           0 = host name (1 length byte 1..253, then that many ASCII bytes)
    port (2 bytes, big-endian, 1..65535)
    host fingerprint (10 bytes: the 80 bits that ``fd1-xxxx-xxxx-xxxx-xxxx`` spells in base32)
    session id (8 bytes, random per hosted game)
    checksum (4 bytes): the first 4 bytes of SHA-256(b"fairdeal/invite/v1\\0" + everything above)

The checksum makes a damaged or mistyped code fail as such, rather than sending the
joiner to a wrong address. Decoding ignores case, spaces, tabs, line breaks and dashes
after the prefix, so a code wrapped or split in a chat message still reads.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import re
from dataclasses import dataclass
from typing import Final

from fairdeal.core.errors import ConfigError

PREFIX: Final = "fd1:"
VERSION: Final = 1
SESSION_ID_BYTES: Final = 8
FINGERPRINT_BYTES: Final = 10
CHECKSUM_BYTES: Final = 4
MAX_HOSTNAME: Final = 253
_CHECK_TAG: Final = b"fairdeal/invite/v1\x00"
_FINGERPRINT = re.compile(r"^fd1-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOSTNAME = re.compile(rf"^{_LABEL}(?:\.{_LABEL})*\.?$")
_IGNORED = re.compile(r"[\s\-]+")
_KIND_NAME, _KIND_V4, _KIND_V6 = 0, 4, 6


class InviteError(ConfigError):
    """The text is not a valid invite code (wrong prefix, damaged, mistyped, cut short)."""


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


def _checksum(payload: bytes) -> bytes:
    return hashlib.sha256(_CHECK_TAG + payload).digest()[:CHECKSUM_BYTES]


@dataclass(frozen=True, slots=True)
class Invite:
    """Where the host listens, who it is (its identity fingerprint) and which game (session id)."""

    host: str
    port: int
    fingerprint: str
    session: bytes

    def __post_init__(self) -> None:
        if not valid_host(self.host):
            raise ValueError(f"not an address or host name: {self.host!r}")
        if not 1 <= self.port <= 65535:
            raise ValueError(f"port {self.port} is out of range")
        fingerprint_bytes(self.fingerprint)
        if len(self.session) != SESSION_ID_BYTES:
            raise ValueError(f"a session id is {SESSION_ID_BYTES} bytes")

    def payload(self) -> bytes:
        """The bytes the code spells, checksum excluded."""
        try:
            ip = ipaddress.ip_address(self.host)
        except ValueError:
            name = self.host.encode("ascii")
            address = bytes([_KIND_NAME, len(name)]) + name
        else:
            address = bytes([_KIND_V4 if ip.version == 4 else _KIND_V6]) + ip.packed
        return (
            bytes([VERSION])
            + address
            + self.port.to_bytes(2, "big")
            + fingerprint_bytes(self.fingerprint)
            + self.session
        )

    def encode(self) -> str:
        """The code to hand out: ``fd1:`` and base32 of payload and checksum."""
        payload = self.payload()
        text = base64.b32encode(payload + _checksum(payload)).decode("ascii").rstrip("=").lower()
        return PREFIX + text

    @property
    def address(self) -> str:
        """``host:port`` (``[v6]:port`` for IPv6), for messages."""
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def decode_invite(code: str) -> Invite:
    """Parse an invite code; :class:`InviteError` says what is wrong with it."""
    if not isinstance(code, str):
        raise InviteError("an invite code is text")
    text = code.strip()
    if text[: len(PREFIX)].lower() != PREFIX:
        raise InviteError(f"not an invite code: a fairdeal invite code starts with {PREFIX}")
    body = _IGNORED.sub("", text[len(PREFIX) :]).upper()
    if len(body) > 200:
        raise InviteError("the invite code is too long to be one")
    bad = sorted({c for c in body if c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"})
    if bad:
        shown = "".join(c if c.isprintable() else "?" for c in bad[:5]).lower()
        raise InviteError(f"the invite code is mistyped: it holds characters no code has ({shown})")
    try:
        raw = base64.b32decode(body + "=" * (-len(body) % 8))
    except (binascii.Error, ValueError):
        raise InviteError("the invite code is damaged or cut short (its length is impossible)") from None
    if len(raw) < 1 + CHECKSUM_BYTES:
        raise InviteError("the invite code is cut short")
    payload, check = raw[:-CHECKSUM_BYTES], raw[-CHECKSUM_BYTES:]
    if _checksum(payload) != check:
        raise InviteError("the invite code is damaged or mistyped (its checksum does not match)")
    return _parse_payload(payload)


def _parse_payload(p: bytes) -> Invite:
    if p[0] != VERSION:
        raise InviteError(f"the invite code is of version {p[0]}, which this fairdeal does not read")
    pos = 1

    def take(n: int) -> bytes:
        nonlocal pos
        if pos + n > len(p):
            raise InviteError("the invite code is malformed (cut short inside)")
        out = p[pos : pos + n]
        pos += n
        return out

    kind = take(1)[0]
    if kind == _KIND_V4:
        host = str(ipaddress.IPv4Address(take(4)))
    elif kind == _KIND_V6:
        host = str(ipaddress.IPv6Address(take(16)))
    elif kind == _KIND_NAME:
        size = take(1)[0]
        if not 1 <= size <= MAX_HOSTNAME:
            raise InviteError("the invite code is malformed (bad host name length)")
        try:
            host = take(size).decode("ascii")
        except UnicodeDecodeError:
            raise InviteError("the invite code is malformed (bad host name)") from None
        if not valid_host(host):
            raise InviteError("the invite code is malformed (bad host name)")
    else:
        raise InviteError(f"the invite code is malformed (unknown address kind {kind})")
    port = int.from_bytes(take(2), "big")
    fp = fingerprint_text(take(FINGERPRINT_BYTES))
    session = take(SESSION_ID_BYTES)
    if pos != len(p):
        raise InviteError("the invite code is malformed (extra bytes)")
    if port == 0:
        raise InviteError("the invite code is malformed (port 0)")
    return Invite(host, port, fp, session)


__all__ = [
    "PREFIX",
    "SESSION_ID_BYTES",
    "Invite",
    "InviteError",
    "decode_invite",
    "fingerprint_bytes",
    "fingerprint_text",
    "valid_host",
]
