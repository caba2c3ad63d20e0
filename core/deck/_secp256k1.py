"""The group arithmetic: secp256k1 through libsecp256k1 (``btclib-secp256k1``'s bundled build).

Points here are libsecp256k1's parsed ``secp256k1_pubkey`` objects (:data:`Pt`), which
are never the point at infinity: libsecp256k1 has no representation for it, so every
operation whose result would be the identity raises :class:`Infinity` instead (the
callers decide what that means; see ``docs/protocol.md``, "The identity"). Scalars are
Python ints in ``[1, N)`` (a zero scalar has no product here either).

Every point from outside enters through :func:`parse`, which takes only the 33-byte
SEC1 compressed encoding (``02``/``03`` then x, x < p, on the curve: libsecp256k1's
``secp256k1_ec_pubkey_parse``); secp256k1 has cofactor 1, so a point on the curve is
in the group. :func:`encode` gives the same 33 bytes back, so an encoding is canonical.

Two multiplications: :func:`mul` is libsecp256k1's constant-time ``secp256k1_ecmult_const``
(through ``secp256k1_ecdh`` with a hash function that copies the point out, compiled
into the binding) and is for secret scalars; :func:`mul_public` is the faster
variable-time ``secp256k1_ecmult`` and is only for public scalars (a verifier's).
:func:`base` (``secp256k1_ec_pubkey_create``) is constant time. No I/O, no state but
libsecp256k1's randomised context, made by the binding when it is imported, and the
cache of :func:`parse`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from btclib_secp256k1 import ffi, lib
from btclib_secp256k1.context import ctx

#: The field prime and the group order.
P = 2**256 - 2**32 - 977
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
#: The generator, compressed.
G_BYTES = bytes.fromhex("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")
POINT_BYTES = 33

#: A parsed point (a ``secp256k1_pubkey *``).
Pt = Any

_COMPRESSED = 0x0102  # SECP256K1_EC_COMPRESSED
_UNCOMPRESSED = 0x0002  # SECP256K1_EC_UNCOMPRESSED
_XY = lib.btclib_secp256k1_ecdh_hash_function_xy


class Infinity(ArithmeticError):
    """The result is the point at infinity, or a scalar is zero: no point of this module."""


def parse(data: bytes) -> Pt:
    """The point of a 33-byte compressed encoding; ``ValueError`` for anything else.

    The same bytes give the same object (the last few thousand points parsed are kept: a
    pass's outputs are the next pass's inputs, and a parse is a square root), so no caller
    may ever change a point in place; every function here writes its result to a new one.
    """
    if type(data) is not bytes or len(data) != POINT_BYTES or data[0] not in (2, 3):
        raise ValueError("not a compressed point")
    pt = _parsed(data)
    if pt is None:
        raise ValueError("not a point of secp256k1")
    return pt


@lru_cache(maxsize=8192)
def _parsed(data: bytes) -> Pt | None:
    pt = ffi.new("secp256k1_pubkey *")
    return pt if lib.secp256k1_ec_pubkey_parse(ctx, pt, data, POINT_BYTES) else None


def encode(pt: Pt) -> bytes:
    """The 33-byte compressed encoding of ``pt``."""
    out = ffi.new("unsigned char[33]")
    size = ffi.new("size_t *", POINT_BYTES)
    lib.secp256k1_ec_pubkey_serialize(ctx, out, size, pt, _COMPRESSED)
    return bytes(ffi.buffer(out, POINT_BYTES))


def _scalar(k: int) -> bytes:
    k %= N
    if k == 0:
        raise Infinity("zero scalar")
    return k.to_bytes(32, "big")


def base(k: int) -> Pt:
    """``k·G``, in constant time."""
    pt = ffi.new("secp256k1_pubkey *")
    if not lib.secp256k1_ec_pubkey_create(ctx, pt, _scalar(k)):  # pragma: no cover - k is in [1, N)
        raise Infinity("no product")
    return pt


def mul(k: int, pt: Pt) -> Pt:
    """``k·pt`` in constant time (for a secret ``k``)."""
    xy = ffi.new("unsigned char[64]")
    if not lib.secp256k1_ecdh(ctx, xy, pt, _scalar(k), _XY, ffi.NULL):  # pragma: no cover - k is in [1, N)
        raise Infinity("no product")
    out = ffi.new("secp256k1_pubkey *")
    if not lib.secp256k1_ec_pubkey_parse(ctx, out, b"\x04" + bytes(ffi.buffer(xy, 64)), 65):
        raise AssertionError("libsecp256k1 gave a point that does not parse")  # pragma: no cover
    return out


def mul_public(k: int, pt: Pt) -> Pt:
    """``k·pt``, variable time: only for a public ``k`` (a verifier's)."""
    out = ffi.new("secp256k1_pubkey *")
    out[0] = pt[0]
    if not lib.secp256k1_ec_pubkey_tweak_mul(ctx, out, _scalar(k)):  # pragma: no cover - k is in [1, N)
        raise Infinity("no product")
    return out


def total(points: Sequence[Pt]) -> Pt:
    """The sum of one or more points (any partial sum may be the identity; the total may not)."""
    out = ffi.new("secp256k1_pubkey *")
    if not lib.secp256k1_ec_pubkey_combine(ctx, out, list(points), len(points)):
        raise Infinity("the sum is the identity")
    return out


def neg(pt: Pt) -> Pt:
    """``−pt``."""
    out = ffi.new("secp256k1_pubkey *")
    out[0] = pt[0]
    lib.secp256k1_ec_pubkey_negate(ctx, out)
    return out


def equal(a: Pt, b: Pt) -> bool:
    return bool(lib.secp256k1_ec_pubkey_cmp(ctx, a, b) == 0)


def from_xy(x: int, y: int) -> Pt:
    """The point of affine coordinates (x, y); ``ValueError`` if it is not on the curve."""
    pt = ffi.new("secp256k1_pubkey *")
    data = b"\x04" + x.to_bytes(32, "big") + y.to_bytes(32, "big")
    if not 0 <= x < P or not 0 <= y < P or not lib.secp256k1_ec_pubkey_parse(ctx, pt, data, 65):
        raise ValueError("not a point of secp256k1")
    return pt


def lift_x(x: int) -> tuple[Pt, int] | None:
    """The point (x, y) with y even, and that y; None when no point of the curve has abscissa x.

    libsecp256k1's square root (``secp256k1_ec_pubkey_parse`` of ``02 || x``), so it is also
    the fast test of whether x³ + 7 is a square in GF(p).
    """
    pt = ffi.new("secp256k1_pubkey *")
    if not 0 <= x < P or not lib.secp256k1_ec_pubkey_parse(ctx, pt, b"\x02" + x.to_bytes(32, "big"), 33):
        return None
    out = ffi.new("unsigned char[65]")
    size = ffi.new("size_t *", 65)
    lib.secp256k1_ec_pubkey_serialize(ctx, out, size, pt, _UNCOMPRESSED)
    return pt, int.from_bytes(ffi.buffer(out, 65)[33:], "big")
