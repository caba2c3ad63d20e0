"""Short codes: ``7-brave-otter``, a number and two words a person can read over the phone.

A short code names a nameplate of a rendezvous (mailbox) server of magic-wormhole's kind (the
number) and, with its words, is the password of a SPAKE2 exchange between the host and one
joiner (``docs/protocol.md`` 2.7). What both ends then send each other through the mailbox is
sealed with keys derived from SPAKE2's key: a confirmation each way, then, from the host, the
long invite code (:mod:`.invite`), the real key to the table.

This module is sans-I/O: the codes (:class:`ShortCode`, :func:`new_code`, :func:`parse_short_code`),
the PAKE (:class:`Pake`) and the sealing (:func:`seal`, :func:`unseal`). The mailbox's WebSocket
is :mod:`.mailbox`, the exchanges over it :mod:`.rendezvous`.

Sealing: ChaCha20-Poly1305 of the ``cryptography`` package (already fairdeal's, for Noise), with a
random 12-byte nonce, under a key HKDF-SHA256 derives from SPAKE2's key for one sender and one
phase, so no key seals two kinds of message or both directions.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Final, Literal

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from spake2 import SPAKE2_A, SPAKE2_B

from fairdeal.core.errors import ConfigError

from .errors import NetError
from .wordlist import FIRST, SECOND

APP_ID: Final = "fairdeal.org/fairdeal/v1"
"""fairdeal's application id at a mailbox: its nameplates and mailboxes are apart from any other
application's (magic-wormhole's file transfers included)."""
PUBLIC_MAILBOX: Final = "ws://relay.magic-wormhole.io:4000/v1"
"""The public mailbox server magic-wormhole's own users rely on."""
PAKE_BYTES: Final = 33
"""A SPAKE2 message on Ed25519, as the ``spake2`` package writes it: a side byte and a point."""
NONCE_BYTES: Final = 12
MAX_NAMEPLATE: Final = 9
"""Digits of a nameplate at most (a mailbox allocates the shortest free number: 1, 2, ...)."""
CONFIRM: Final = b"fairdeal/short-code/confirm/v1"
"""What each end seals to prove it holds the same key (the code was the same)."""
WRONG: Final = "the code was wrong or already used"
_KEY_TAG: Final = b"fairdeal/short-code/key/v1\x00"
_ID_HOST: Final = APP_ID.encode() + b"/host"
_ID_JOINER: Final = APP_ID.encode() + b"/joiner"
_SPLIT = re.compile(r"[\s\-]+")
_NAMEPLATE = re.compile(rf"[0-9]{{1,{MAX_NAMEPLATE}}}")
_LOOKS_SHORT = re.compile(r"\s*[0-9]+\s*[\s\-]")

Role = Literal["host", "joiner"]


class ShortCodeError(ConfigError):
    """The text looks like a short code but cannot be one (an unknown word, a part missing)."""


class WrongCode(NetError):
    """The other end did not hold the same code: wrong, already used, or expired."""


@dataclass(frozen=True, slots=True)
class ShortCode:
    """A nameplate (digits) and two words of :mod:`.wordlist`: ``text`` is ``7-brave-otter``."""

    nameplate: str
    first: str
    second: str

    def __post_init__(self) -> None:
        if not _NAMEPLATE.fullmatch(self.nameplate):
            raise ValueError("a nameplate is 1 to 9 digits")
        if self.first not in _FIRST or self.second not in _SECOND:
            raise ValueError("the words of a short code come from its word lists")

    @property
    def text(self) -> str:
        return f"{self.nameplate}-{self.first}-{self.second}"

    def __str__(self) -> str:
        return self.text

    @property
    def password(self) -> bytes:
        """What SPAKE2 runs on: the whole code, its nameplate included."""
        return self.text.encode("ascii")


_FIRST: Final = frozenset(FIRST)
_SECOND: Final = frozenset(SECOND)


def new_code(nameplate: str, token: bytes | None = None) -> ShortCode:
    """A fresh code on ``nameplate``: two words from 16 random bits (``token``, 2 bytes, for tests)."""
    raw = secrets.token_bytes(2) if token is None else token
    if len(raw) != 2:
        raise ValueError("a short code's words come from 2 bytes")
    return ShortCode(nameplate, FIRST[raw[0]], SECOND[raw[1]])


def looks_short(text: str) -> bool:
    """True when ``text`` starts as a short code does (digits, then a dash or a space)."""
    return isinstance(text, str) and bool(_LOOKS_SHORT.match(text))


def parse_short_code(text: str) -> ShortCode:
    """``7-brave-otter`` (any case; spaces or dashes between the parts) as a :class:`ShortCode`;
    :class:`ShortCodeError` says what is wrong. Costs no guess: nothing is sent."""
    parts = [p for p in _SPLIT.split(text.strip().lower()) if p] if isinstance(text, str) else []
    if len(parts) != 3 or not _NAMEPLATE.fullmatch(parts[0]):
        raise ShortCodeError("a short code is a number and two words, such as 7-brave-otter")
    nameplate, first, second = parts
    for word, words, where in ((first, _FIRST, "first"), (second, _SECOND, "second")):
        if word not in words:
            shown = word[:20] if word.isascii() and word.isalpha() else "?"
            raise ShortCodeError(f"{shown!r} is not a word of short codes ({where} word): it is mistyped")
    return ShortCode(nameplate.lstrip("0") or "0", first, second)


class Pake:
    """One end's SPAKE2 on a short code: the host is side A, the joiner side B (each bound to
    fairdeal's app id). :meth:`message` is what goes to the other end, :meth:`finish` takes the
    other end's and gives the shared key (never shown, never logged)."""

    def __init__(self, role: Role, code: ShortCode) -> None:
        self.role = role
        kind = SPAKE2_A if role == "host" else SPAKE2_B
        self._spake = kind(code.password, idA=_ID_HOST, idB=_ID_JOINER)
        self.message: bytes = self._spake.start()

    def finish(self, theirs: bytes) -> bytes:
        """The shared key from the other end's message; :class:`WrongCode` when it is not one
        (wrong size, not a point, the wrong side's: a hostile or broken peer)."""
        if not isinstance(theirs, bytes) or len(theirs) != PAKE_BYTES:
            raise WrongCode(f"{WRONG} (the other end's key exchange was malformed)")
        try:
            key = self._spake.finish(theirs)
        except Exception:  # the package's own parser of hostile bytes: any failure is a bad message
            raise WrongCode(f"{WRONG} (the other end's key exchange was malformed)") from None
        if not isinstance(key, bytes) or len(key) != 32:
            raise WrongCode(f"{WRONG} (the key exchange gave no key)")
        return key


def phase_key(key: bytes, sender: Role, phase: str) -> bytes:
    """The 32-byte key that seals what ``sender`` sends in ``phase``."""
    info = _KEY_TAG + sender.encode("ascii") + b"\x00" + phase.encode("ascii")
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(key)


def seal(key: bytes, sender: Role, phase: str, plaintext: bytes, nonce: bytes | None = None) -> bytes:
    """``nonce || ChaCha20-Poly1305(plaintext)`` under ``sender``'s key for ``phase``."""
    n = secrets.token_bytes(NONCE_BYTES) if nonce is None else nonce
    if len(n) != NONCE_BYTES:
        raise ValueError("a nonce is 12 bytes")
    return n + ChaCha20Poly1305(phase_key(key, sender, phase)).encrypt(n, plaintext, phase.encode("ascii"))


def unseal(key: bytes, sender: Role, phase: str, body: bytes) -> bytes:
    """What :func:`seal` sealed; :class:`WrongCode` when it does not open (another key: the code
    was not the same; or the bytes were changed on the way)."""
    if not isinstance(body, bytes) or len(body) < NONCE_BYTES + 16:
        raise WrongCode(f"{WRONG} (a sealed message was cut short)")
    aead = ChaCha20Poly1305(phase_key(key, sender, phase))
    try:
        return aead.decrypt(body[:NONCE_BYTES], body[NONCE_BYTES:], phase.encode("ascii"))
    except InvalidTag:
        raise WrongCode(WRONG) from None


__all__ = [
    "APP_ID",
    "CONFIRM",
    "PAKE_BYTES",
    "PUBLIC_MAILBOX",
    "WRONG",
    "Pake",
    "Role",
    "ShortCode",
    "ShortCodeError",
    "WrongCode",
    "looks_short",
    "new_code",
    "parse_short_code",
    "phase_key",
    "seal",
    "unseal",
]
