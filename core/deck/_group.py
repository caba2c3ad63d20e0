"""The group: secp256k1 through libsecp256k1 (:mod:`._secp256k1`), hashing and the two proofs.

Points are 33-byte ``bytes``, SEC1 compressed (``02``/``03`` then x big-endian);
scalars are 32-byte big-endian ``bytes`` below the group order ``L`` (secp256k1's n).
The identity (the point at infinity) has no encoding: no point on the wire, in a
message or in a proof is ever the identity, and an operation whose result would be
the identity raises :class:`GroupError` (``docs/protocol.md``, "The identity"). Every
function here is pure. ``*_verify`` return ``False`` rather than raising on any
malformed input, so callers name the culprit themselves.

Multiplications by a secret scalar (keys, nonces, re-encryption) run in constant time;
those of a verifier, whose scalars are public, take libsecp256k1's faster variable-time
path (:func:`mul_public`).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from . import _h2c
from . import _secp256k1 as ec

#: Order of the group (and of the scalar field): secp256k1's n.
L = ec.N
SCALAR_BYTES = 32
POINT_BYTES = ec.POINT_BYTES
#: An ElGamal ciphertext on the wire: ``c1 || c2``.
CT_BYTES = 2 * POINT_BYTES
#: The generator G, encoded.
G = ec.G_BYTES

#: RFC 9380 domain separation tags (the suite is secp256k1_XMD:SHA-256_SSWU_RO_).
DST_CARD = b"fairdeal/deck/card/v2 secp256k1_XMD:SHA-256_SSWU_RO_"
DST_GENERATOR = b"fairdeal/deck/shuffle-generator/v2 secp256k1_XMD:SHA-256_SSWU_RO_"

TAG_CARD = b"fairdeal/deck/card/v2"
TAG_KEY = b"fairdeal/deck/key-pok/v2"
TAG_DLEQ = b"fairdeal/deck/dleq/v2"
TAG_RANDOM_COMMIT = b"fairdeal/deck/random-commit/v1"
TAG_RANDOM_RESULT = b"fairdeal/deck/random-result/v1"
TAG_NONCE = b"fairdeal/deck/nonce/v2"
TAG_SECRETS = b"fairdeal/deck/seat-secrets/v2"
# The proof of a shuffle (``_shuffle_proof``).
TAG_SHUFFLE_GENERATOR = b"fairdeal/deck/shuffle-generator/v2"
TAG_SHUFFLE_STATEMENT = b"fairdeal/deck/shuffle-statement/v2"
TAG_SHUFFLE_U = b"fairdeal/deck/shuffle-u/v2"
TAG_SHUFFLE_CHALLENGE = b"fairdeal/deck/shuffle-challenge/v2"
TAG_SHUFFLE_NONCE = b"fairdeal/deck/shuffle-nonce/v2"
# A hand-over (``_handover``): a card's ciphertext re-masked for its next holder.
TAG_HANDOVER = b"fairdeal/deck/handover/v1"

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


def to_int(s: bytes) -> int:
    return int.from_bytes(s, "big")


def to_scalar(x: int) -> bytes:
    """``x mod L`` as 32 bytes."""
    return (x % L).to_bytes(SCALAR_BYTES, "big")


def hash_int(tag: bytes, *parts: Part) -> int:
    """An integer mod L from SHA-512 of the framed transcript (bias about 2**-256)."""
    return int.from_bytes(hashlib.sha512(frame(tag, *parts)).digest(), "big") % L


def hash_scalar(tag: bytes, *parts: Part) -> bytes:
    """:func:`hash_int` as a scalar."""
    return to_scalar(hash_int(tag, *parts))


def is_scalar(b: object) -> bool:
    """True for a canonical scalar: exactly 32 bytes, big-endian value < L."""
    return type(b) is bytes and len(b) == SCALAR_BYTES and int.from_bytes(b, "big") < L


def is_zero(s: bytes) -> bool:
    return int.from_bytes(s, "big") % L == 0


def is_point(b: object) -> bool:
    """True for the canonical encoding of a point of the group (never the identity)."""
    try:
        ec.parse(b)  # type: ignore[arg-type]
    except ValueError:
        return False
    return True


def point(b: bytes) -> ec.Pt:
    """The parsed point of an encoding; :class:`GroupError` unless it is a canonical point."""
    try:
        return ec.parse(b)
    except ValueError as e:
        raise GroupError("not a point") from e


def scalar_from_bytes_or_none(wide: bytes) -> bytes | None:
    """Reduce 64 uniform bytes to a scalar; None for zero (the caller draws again)."""
    s = int.from_bytes(wide, "big") % L
    return None if s == 0 else to_scalar(s)


def base(s: bytes) -> bytes:
    """``s·G`` (constant time)."""
    try:
        return ec.encode(ec.base(to_int(s)))
    except ec.Infinity as e:
        raise GroupError("no valid result") from e


def mul(s: bytes, p: bytes) -> bytes:
    """``s·P`` in constant time (a secret ``s``)."""
    try:
        return ec.encode(ec.mul(to_int(s), point(p)))
    except ec.Infinity as e:
        raise GroupError("no valid result") from e


def mul_public(s: bytes, p: bytes) -> bytes:
    """``s·P`` for a public ``s`` (variable time)."""
    try:
        return ec.encode(ec.mul_public(to_int(s), point(p)))
    except ec.Infinity as e:
        raise GroupError("no valid result") from e


def add(p: bytes, q: bytes) -> bytes:
    return add_all((p, q))


def add_all(points: tuple[bytes, ...] | list[bytes]) -> bytes:
    """The sum of one or more encoded points; :class:`GroupError` if it is the identity."""
    try:
        return ec.encode(ec.total([point(p) for p in points]))
    except ec.Infinity as e:
        raise GroupError("no valid result") from e


def sub(p: bytes, q: bytes) -> bytes:
    try:
        return ec.encode(ec.total([point(p), ec.neg(point(q))]))
    except ec.Infinity as e:
        raise GroupError("no valid result") from e


def sc_add(a: bytes, b: bytes) -> bytes:
    return to_scalar(to_int(a) + to_int(b))


def sc_mul(a: bytes, b: bytes) -> bytes:
    return to_scalar(to_int(a) * to_int(b))


@lru_cache(maxsize=1024)
def card_point(game_id: bytes, name: str) -> bytes:
    """Hash-to-curve of a card name, bound to the game: nobody knows its discrete log.

    RFC 9380 ``secp256k1_XMD:SHA-256_SSWU_RO_`` of ``frame(TAG_CARD, game_id, name)``
    under :data:`DST_CARD`.
    """
    return ec.encode(_h2c.hash_to_curve(frame(TAG_CARD, game_id, name), DST_CARD))


def nonce(seed: bytes, *context: Part) -> bytes:
    """A deterministic secret nonce (as in EdDSA): unique per statement, never zero."""
    counter = 0
    while True:
        k = hash_scalar(TAG_NONCE, seed, counter, *context)
        if not is_zero(k):
            return k
        counter += 1  # pragma: no cover - probability 2**-256


def trivial(m: bytes, joint: bytes) -> bytes:
    """The public encryption of a card everyone knows: ``(G, M + H)``, randomness 1.

    It stands where a trivial encryption ``(identity, M)`` would, which has no encoding.
    """
    return G + add(m, joint)


def rerandomise(c1: bytes, c2: bytes, s: bytes, joint: bytes) -> bytes:
    """ElGamal re-randomisation ``(c1 + s·G, c2 + s·H)`` as a 66-byte ciphertext."""
    k = to_int(s)
    try:
        a = ec.total([point(c1), ec.base(k)])
        b = ec.total([point(c2), ec.mul(k, point(joint))])
    except ec.Infinity as e:  # pragma: no cover - needs s to cancel a peer's point: 2**-256
        raise GroupError("no valid result") from e
    return ec.encode(a) + ec.encode(b)


def encrypt(m: bytes, t: bytes, joint: bytes) -> bytes:
    """ElGamal encryption ``(t·G, M + t·H)`` as a 66-byte ciphertext."""
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
    """Check a key proof (``e`` and ``z`` in [1, L); ``a = z·G − e·H`` not the identity)."""
    if not (is_scalar(e) and is_scalar(z)):
        return False
    try:
        a = ec.total([ec.base(to_int(z)), ec.neg(ec.mul_public(to_int(e), point(h)))])
    except (GroupError, ec.Infinity):
        return False
    return _key_challenge(game_id, seat, players, h, ec.encode(a)) == e


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
    """Check a share proof: ``e``, ``z`` in [1, L); ``h``, ``c1``, ``d`` points; a, b not the identity."""
    if not (is_scalar(e) and is_scalar(z)):
        return False
    try:
        ei, zi, c = to_int(e), to_int(z), point(c1)
        a = ec.total([ec.base(zi), ec.neg(ec.mul_public(ei, point(h)))])
        b = ec.total([ec.mul_public(zi, c), ec.neg(ec.mul_public(ei, point(d)))])
    except (GroupError, ec.Infinity):
        return False
    return _dleq_challenge(context, h, c1, d, ec.encode(a), ec.encode(b)) == e


# --- One secret exponent over several bases (a hand-over's re-mask) ---------------------------


def _same_log_challenge(
    context: bytes, bases: list[bytes], images: list[bytes], commits: list[bytes]
) -> bytes:
    return hash_scalar(TAG_HANDOVER, context, *bases, *images, *commits)


def same_log_prove(
    context: bytes, s: bytes, bases: list[bytes], images: list[bytes], seed: bytes
) -> tuple[bytes, bytes]:
    """Proof ``(e, z)`` that ``images[i] = s·bases[i]`` for every i, one ``s`` for all.

    The Chaum–Pedersen proof with as many bases as needed: commitments ``A_i = k·bases[i]``,
    ``e = hash(context, bases, images, A)``, ``z = k + e·s``.
    """
    k = nonce(seed, b"same-log", context, *bases)
    commits = [mul(k, b) for b in bases]
    e = _same_log_challenge(context, bases, images, commits)
    return e, sc_add(k, sc_mul(e, s))


def same_log_verify(context: bytes, bases: list[bytes], images: list[bytes], e: bytes, z: bytes) -> bool:
    """Check :func:`same_log_prove`'s proof: ``e``, ``z`` in [1, L); every base and image a point;
    no recomputed commitment ``z·B_i − e·Y_i`` the identity."""
    if not (is_scalar(e) and is_scalar(z)) or not bases or len(bases) != len(images):
        return False
    ei, zi = to_int(e), to_int(z)
    if ei == 0 or zi == 0:
        return False
    try:
        commits = [
            ec.encode(ec.total([ec.mul_public(zi, point(b)), ec.neg(ec.mul_public(ei, point(y)))]))
            for b, y in zip(bases, images, strict=True)
        ]
    except (GroupError, ec.Infinity):
        return False
    return _same_log_challenge(context, bases, images, commits) == e
