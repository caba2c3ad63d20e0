"""The group: the prime-order subgroup of Ed25519 through libsodium, hashing and the two proofs.

Points and scalars are 32-byte ``bytes`` in libsodium's encodings (points compressed,
scalars little-endian). Every function here is pure. ``*_verify`` return ``False``
rather than raising on any malformed input, so callers name the culprit themselves.
"""

from __future__ import annotations

import hashlib

import nacl.bindings as na
from nacl.exceptions import CryptoError

#: Order of the prime-order subgroup (and of the scalar field).
L = 2**252 + 27742317777372353535851937790883648493
SCALAR_BYTES = 32
POINT_BYTES = 32
#: An ElGamal ciphertext on the wire: ``c1 || c2``.
CT_BYTES = 2 * POINT_BYTES

TAG_CARD = b"fairdeal/deck/card/v1"
TAG_KEY = b"fairdeal/deck/key-pok/v1"
TAG_DLEQ = b"fairdeal/deck/dleq/v1"
TAG_RANDOM_COMMIT = b"fairdeal/deck/random-commit/v1"
TAG_RANDOM_RESULT = b"fairdeal/deck/random-result/v1"
TAG_NONCE = b"fairdeal/deck/nonce/v1"
TAG_SECRETS = b"fairdeal/deck/seat-secrets/v1"
# The proof of a shuffle (``_shuffle_proof``).
TAG_SHUFFLE_GENERATOR = b"fairdeal/deck/shuffle-generator/v1"
TAG_SHUFFLE_STATEMENT = b"fairdeal/deck/shuffle-statement/v1"
TAG_SHUFFLE_U = b"fairdeal/deck/shuffle-u/v1"
TAG_SHUFFLE_CHALLENGE = b"fairdeal/deck/shuffle-challenge/v1"
TAG_SHUFFLE_NONCE = b"fairdeal/deck/shuffle-nonce/v1"

Part = bytes | int | str


class GroupError(Exception):
    """A group operation had no valid result (identity, zero scalar, bad encoding)."""


def frame(tag: bytes, *parts: Part) -> bytes:
    """An unambiguous encoding of ``tag`` and ``parts`` (typed and length-prefixed)."""
    out = [len(tag).to_bytes(2, "big"), tag]
    for p in parts:
        if isinstance(p, bool):  # bool is an int; refuse rather than guess
            raise TypeError("bool is not a transcript part")
        if isinstance(p, int):
            if p < 0:
                raise ValueError("transcript integers are non-negative")
            out += [b"i", p.to_bytes(8, "big")]
        else:
            data = p.encode() if isinstance(p, str) else p
            out += [b"s" if isinstance(p, str) else b"b", len(data).to_bytes(4, "big"), data]
    return b"".join(out)


def digest(tag: bytes, *parts: Part) -> bytes:
    """SHA-256 of the framed transcript (commitments)."""
    return hashlib.sha256(frame(tag, *parts)).digest()


def hash_scalar(tag: bytes, *parts: Part) -> bytes:
    """A scalar from SHA-512 of the framed transcript, reduced mod L (negligible bias)."""
    return na.crypto_core_ed25519_scalar_reduce(hashlib.sha512(frame(tag, *parts)).digest())


def is_scalar(b: object) -> bool:
    """True for a canonical scalar: exactly 32 bytes, little-endian value < L."""
    return isinstance(b, bytes) and len(b) == SCALAR_BYTES and int.from_bytes(b, "little") < L


def is_zero(s: bytes) -> bool:
    return int.from_bytes(s, "little") % L == 0


def is_point(b: object) -> bool:
    """True for a valid point of the prime-order subgroup (not the identity)."""
    return isinstance(b, bytes) and len(b) == POINT_BYTES and bool(na.crypto_core_ed25519_is_valid_point(b))


def scalar_from_bytes_or_none(wide: bytes) -> bytes | None:
    """Reduce 64 uniform bytes to a scalar; None for zero (the caller draws again)."""
    s = na.crypto_core_ed25519_scalar_reduce(wide)
    return None if is_zero(s) else s


def base(s: bytes) -> bytes:
    """``s·G``."""
    try:
        return na.crypto_scalarmult_ed25519_base_noclamp(s)
    except CryptoError as e:
        raise GroupError("no valid result") from e


def mul(s: bytes, p: bytes) -> bytes:
    """``s·P`` for a point of the subgroup."""
    try:
        return na.crypto_scalarmult_ed25519_noclamp(s, p)
    except CryptoError as e:
        raise GroupError("no valid result") from e


def add(p: bytes, q: bytes) -> bytes:
    return na.crypto_core_ed25519_add(p, q)


def sub(p: bytes, q: bytes) -> bytes:
    return na.crypto_core_ed25519_sub(p, q)


def sc_add(a: bytes, b: bytes) -> bytes:
    return na.crypto_core_ed25519_scalar_add(a, b)


def sc_mul(a: bytes, b: bytes) -> bytes:
    return na.crypto_core_ed25519_scalar_mul(a, b)


def card_point(game_id: bytes, name: str) -> bytes:
    """Hash-to-curve of a card name, bound to the game: nobody knows its discrete log."""
    u = hashlib.sha256(frame(TAG_CARD, game_id, name)).digest()
    return na.crypto_core_ed25519_from_uniform(u)


def nonce(seed: bytes, *context: Part) -> bytes:
    """A deterministic secret nonce (as in EdDSA): unique per statement, never zero."""
    counter = 0
    while True:
        k = hash_scalar(TAG_NONCE, seed, counter, *context)
        if not is_zero(k):
            return k
        counter += 1  # pragma: no cover - probability 2**-252


def rerandomise(c1: bytes, c2: bytes, s: bytes, joint: bytes) -> bytes:
    """ElGamal re-randomisation ``(c1 + s·G, c2 + s·H)`` as a 64-byte ciphertext."""
    return add(c1, base(s)) + add(c2, mul(s, joint))


def encrypt(m: bytes, t: bytes, joint: bytes) -> bytes:
    """ElGamal encryption ``(t·G, M + t·H)`` as a 64-byte ciphertext."""
    return base(t) + add(m, mul(t, joint))


# --- Schnorr proof of knowledge of x with H = x·G ------------------------------------------


def _key_challenge(game_id: bytes, seat: int, players: int, h: bytes, a: bytes) -> bytes:
    return hash_scalar(TAG_KEY, game_id, seat, players, h, a)


def schnorr_prove(
    game_id: bytes, seat: int, players: int, x: bytes, h: bytes, seed: bytes
) -> tuple[bytes, bytes]:
    """Proof ``(e, z)`` that the prover knows ``x`` with ``h = x·G``, bound to game and seat."""
    k = nonce(seed, b"key", game_id, seat, players, h)
    e = _key_challenge(game_id, seat, players, h, base(k))
    return e, sc_add(k, sc_mul(e, x))


def schnorr_verify(game_id: bytes, seat: int, players: int, h: bytes, e: bytes, z: bytes) -> bool:
    """Check a key proof. ``h`` must already be a valid point."""
    if not (is_scalar(e) and is_scalar(z)):
        return False
    try:
        a = sub(base(z), mul(e, h))
    except GroupError:
        return False
    return _key_challenge(game_id, seat, players, h, a) == e


# --- Chaum–Pedersen proof that log_G(H_s) == log_c1(D) -----------------------------------------


def _dleq_challenge(context: bytes, h: bytes, c1: bytes, d: bytes, a: bytes, b: bytes) -> bytes:
    return hash_scalar(TAG_DLEQ, context, h, c1, d, a, b)


def dleq_prove(context: bytes, x: bytes, h: bytes, c1: bytes, d: bytes, seed: bytes) -> tuple[bytes, bytes]:
    """Proof ``(e, z)`` that ``d = x·c1`` for the ``x`` of ``h = x·G``.

    ``context`` frames the game id, seat, token, ciphertext and purpose.
    """
    k = nonce(seed, b"dleq", context, c1)
    e = _dleq_challenge(context, h, c1, d, base(k), mul(k, c1))
    return e, sc_add(k, sc_mul(e, x))


def dleq_verify(context: bytes, h: bytes, c1: bytes, d: bytes, e: bytes, z: bytes) -> bool:
    """Check a share proof. ``h``, ``c1`` and ``d`` must already be valid points."""
    if not (is_scalar(e) and is_scalar(z)):
        return False
    try:
        a = sub(base(z), mul(e, h))
        b = sub(mul(z, c1), mul(e, d))
    except GroupError:
        return False
    return _dleq_challenge(context, h, c1, d, a, b) == e
