"""Ed25519 identities: the long-term key that signs a player's log entries.

Pure key handling, no files: storing the key is the front end's job.

**Strict Ed25519** (docs/protocol.md 8.2). An identity key, wherever one is read (a header's
seats, the handshake's identity payload), and the R of every signature, must be the canonical
encoding of a point of edwards25519 that is not of small order; a signature's S must be below L.
The equation is then checked by OpenSSL (the ``cryptography`` library), which is cofactorless:
[S]B = R + [k]A, with k = SHA-512(R || A || M) mod L, as the 32 bytes of R against the canonical
encoding of [S]B - [k]A. Without these checks the neutral point as a key, with R = B and S = 1,
"signs" every message: OpenSSL accepts it.

How the checks are made, in pure Python (no library exposes them; libsodium's verify makes the
same ones):

* a key is decoded as RFC 8032 5.1.3 says (y < p, x from the curve equation, no "negative zero":
  x = 0 with the sign bit set) and doubled three times ([8]A must not be the identity). The
  square root costs about 0.1 ms, so the answer is kept per key (there are few keys);
* a signature's R is checked against the list of the 8 canonical encodings of the points of
  small order (:data:`SMALL_ORDER`, which the tests derive from the decoder and the doubling)
  after the same canonicality check, with no square root: whether R is a point at all the
  equation settles, since the encoding it compares R with is always a point's.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .rng import Rng

PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64

_P: Final = 2**255 - 19
"""The field of edwards25519."""
L: Final = 2**252 + 27742317777372353535851937790883648493
"""The order of the base point B: a signature's S is below it."""
_D: Final = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1: Final = pow(2, (_P - 1) // 4, _P)
_SIGN: Final = 1 << 255

SMALL_ORDER: Final = frozenset(
    bytes.fromhex(h)
    for h in (
        "0100000000000000000000000000000000000000000000000000000000000000",  # identity
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # (0, -1), order 2
        "0000000000000000000000000000000000000000000000000000000000000000",  # (i, 0), order 4
        "0000000000000000000000000000000000000000000000000000000000000080",  # (-i, 0), order 4
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    )
)
"""The canonical encodings of the 8 points P with [8]P = identity."""


def _canonical(encoding: bytes) -> bool:
    """Whether a 32-byte point encoding is canonical: y < p, and no "negative zero" (x = 0, which
    is y = 1 or y = p - 1, with the sign bit set)."""
    n = int.from_bytes(encoding, "little")
    y = n & (_SIGN - 1)
    return y < _P and not (n & _SIGN and y in (1, _P - 1))


def _decode(encoding: bytes) -> tuple[int, int] | None:
    """The point (x, y) a canonical encoding names (RFC 8032 5.1.3), or None if none."""
    n = int.from_bytes(encoding, "little")
    y, sign = n & (_SIGN - 1), n >> 255
    u, v = (y * y - 1) % _P, (_D * y * y + 1) % _P
    x = u * pow(v, 3, _P) * pow(u * pow(v, 7, _P), (_P - 5) // 8, _P) % _P
    if v * x * x % _P == (-u) % _P:
        x = x * _SQRT_M1 % _P
    if v * x * x % _P != u:
        return None
    return (_P - x if x and x & 1 != sign else x), y


def _double(x: int, y: int, z: int) -> tuple[int, int, int]:
    """[2](X : Y : Z), projective coordinates of -x^2 + y^2 = 1 + d x^2 y^2 (dbl-2008-bbjlp)."""
    b, c, d = (x + y) * (x + y) % _P, x * x % _P, y * y % _P
    f = (d - c) % _P
    j = (f - 2 * z * z) % _P
    return (b - c - d) * j % _P, f * (-c - d) % _P, f * j % _P


def _small_order(point: tuple[int, int]) -> bool:
    """Whether [8]P is the identity (0 : 1 : 1), i.e. P's order is 1, 2, 4 or 8."""
    x, y, z = point[0], point[1], 1
    for _ in range(3):
        x, y, z = _double(x, y, z)
    return x == 0 and y == z


@lru_cache(maxsize=1024)
def key_problem(public_key: bytes) -> str | None:
    """Why ``public_key`` is not a strict Ed25519 identity key, or None when it is one: 32 bytes,
    canonical, a point of the curve, not of small order (docs/protocol.md 8.2)."""
    if len(public_key) != PUBLIC_KEY_BYTES:
        return "it is not 32 bytes"
    if not _canonical(public_key):
        return "its encoding is not canonical"
    point = _decode(public_key)
    if point is None:
        return "it is not a point of the curve"
    if _small_order(point):
        return "it is a point of small order"
    return None


def is_strict_key(public_key: bytes) -> bool:
    """Whether ``public_key`` is a strict Ed25519 identity key (:func:`key_problem` finds nothing)."""
    return key_problem(public_key) is None


def fingerprint(public_key: bytes) -> str:
    """A short, typeable name of a public key: ``fd1-xxxx-xxxx-xxxx-xxxx``.

    80 bits of SHA-256 over a domain-separated encoding, in lower-case base32.
    """
    if len(public_key) != PUBLIC_KEY_BYTES:
        raise ValueError("an identity public key is 32 bytes")
    digest = hashlib.sha256(b"fairdeal/fingerprint/v1\x00" + public_key).digest()[:10]
    text = base64.b32encode(digest).decode().lower()
    return "fd1-" + "-".join(text[i : i + 4] for i in range(0, 16, 4))


def verify_signature(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """True when ``signature`` is a strict Ed25519 signature of ``message`` by ``public_key``
    (docs/protocol.md 8.2): a strict key, R canonical and not of small order, S < L, and the
    cofactorless equation [S]B = R + [k]A."""
    if len(signature) != SIGNATURE_BYTES or not is_strict_key(public_key):
        return False
    r, s = signature[:32], signature[32:]
    if int.from_bytes(s, "little") >= L or not _canonical(r) or r in SMALL_ORDER:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Identity:
    """A private Ed25519 identity key. ``repr`` never shows the secret."""

    _key: Ed25519PrivateKey

    @staticmethod
    def generate(rng: Rng | None = None) -> Identity:
        if rng is None:
            return Identity(Ed25519PrivateKey.generate())
        return Identity(Ed25519PrivateKey.from_private_bytes(rng.bytes(32)))

    @staticmethod
    def from_seed(seed: bytes) -> Identity:
        return Identity(Ed25519PrivateKey.from_private_bytes(seed))

    def seed(self) -> bytes:
        """The 32-byte secret seed, for storing the key. Keep it secret."""
        from cryptography.hazmat.primitives import serialization

        return self._key.private_bytes(
            serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
        )

    @cached_property
    def public_key(self) -> bytes:
        from cryptography.hazmat.primitives import serialization

        return self._key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)

    @cached_property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def sign(self, message: bytes) -> bytes:
        return self._key.sign(message)

    def __repr__(self) -> str:
        return f"Identity({self.fingerprint})"
