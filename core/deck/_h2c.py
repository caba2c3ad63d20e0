"""Hash to secp256k1 as RFC 9380 gives it: the suite ``secp256k1_XMD:SHA-256_SSWU_RO_``.

``hash_to_curve(msg, dst)`` is the random-oracle encoding of RFC 9380 section 3:
``expand_message_xmd`` with SHA-256 (5.3.1) to 2·48 bytes, ``hash_to_field`` to two
elements u0, u1 of GF(p) (5.2), each mapped by the simplified SWU map to the curve E'
isogenous to secp256k1 (6.6.2, Z = −11) and by the 3-isogeny of appendix E.1 to
secp256k1, and the two points added (h_eff = 1: no cofactor to clear). Not constant time:
every input the deck hashes (card names, generator indexes, the game id) is public.

:func:`map_to_curve_sswu` and :func:`iso_map` are the RFC's steps as it writes them, in
plain integer arithmetic, tested against the RFC's vectors (appendix J.8.1 and K.1);
:func:`hash_to_curve` computes the same points faster (:func:`_images`): the isogeny's x
first, libsecp256k1's square root on secp256k1 instead of two in Python on E', and one
batched inversion, about a tenth of the time (the tests check that both agree).
"""

from __future__ import annotations

import hashlib

from . import _secp256k1 as ec

p = ec.P
#: E': y² = x³ + A'·x + B', 3-isogenous to secp256k1 (RFC 9380, 8.7).
A_ISO = 0x3F8731ABDD661ADCA08A5558F0F5D272E953D363CB6F0E5D405447C01A444533
B_ISO = 1771
Z = p - 11
L_FIELD = 48  # bytes per field element: ceil((ceil(log2(p)) + k) / 8) with k = 128

# The 3-isogeny map E' -> E (RFC 9380, appendix E.1): x = x_num/x_den, y = y'·y_num/y_den.
_X_NUM = (
    0x8E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38DAAAAA8C7,
    0x07D3D4C80BC321D5B9F315CEA7FD44C5D595D2FC0BF63B92DFFF1044F17C6581,
    0x534C328D23F234E6E2A413DECA25CAECE4506144037C40314ECBD0B53D9DD262,
    0x8E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38DAAAAA88C,
)
_X_DEN = (
    0xD35771193D94918A9CA34CCBB7B640DD86CD409542F8487D9FE6B745781EB49B,
    0xEDADC6F64383DC1DF7C4B2D51B54225406D36B641F5E41BBC52A56612A8C6D14,
    1,
)
_Y_NUM = (
    0x4BDA12F684BDA12F684BDA12F684BDA12F684BDA12F684BDA12F684B8E38E23C,
    0xC75E0C32D5CB7C0FA9D0A54B12A0A6D5647AB046D686DA6FDFFC90FC201D71A3,
    0x29A6194691F91A73715209EF6512E576722830A201BE2018A765E85A9ECEE931,
    0x2F684BDA12F684BDA12F684BDA12F684BDA12F684BDA12F684BDA12F38E38D84,
)
_Y_DEN = (
    0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFF93B,
    0x7A06534BB8BDB49FD5E9E6632722C2989467C1BFC8E8D978DFB425D2685C2573,
    0x6484AA716545CA2CF3A70C3FA8FE337E0A3D21162F0D6299A7BF8192BFD2A76F,
    1,
)


def expand_message_xmd(msg: bytes, dst: bytes, length: int) -> bytes:
    """RFC 9380 5.3.1 with SHA-256 (b_in_bytes 32, s_in_bytes 64)."""
    if len(dst) > 255:
        raise ValueError("a domain separation tag is at most 255 bytes")
    ell = -(-length // 32)
    if ell > 255 or length > 65535:
        raise ValueError("too many bytes asked of expand_message_xmd")
    dst_prime = dst + bytes([len(dst)])
    b0 = hashlib.sha256(bytes(64) + msg + length.to_bytes(2, "big") + b"\x00" + dst_prime).digest()
    b = [hashlib.sha256(b0 + b"\x01" + dst_prime).digest()]
    for i in range(2, ell + 1):
        mixed = bytes(x ^ y for x, y in zip(b0, b[-1], strict=True))
        b.append(hashlib.sha256(mixed + bytes([i]) + dst_prime).digest())
    return b"".join(b)[:length]


def hash_to_field(msg: bytes, dst: bytes, count: int) -> list[int]:
    """RFC 9380 5.2 for GF(p), m = 1: ``count`` elements."""
    data = expand_message_xmd(msg, dst, count * L_FIELD)
    return [int.from_bytes(data[i * L_FIELD : (i + 1) * L_FIELD], "big") % p for i in range(count)]


def _sqrt(a: int) -> int | None:
    """A square root of ``a`` in GF(p) (p ≡ 3 mod 4), or None when ``a`` is not a square."""
    r = pow(a, (p + 1) // 4, p)
    return r if r * r % p == a % p else None


def _sgn0(a: int) -> int:
    return a & 1


def map_to_curve_sswu(u: int) -> tuple[int, int]:
    """The simplified SWU map to E' (RFC 9380 6.6.2), in affine coordinates."""
    tv = (Z * Z * pow(u, 4, p) + Z * u * u) % p
    if tv == 0:
        x1 = B_ISO * pow(Z * A_ISO, -1, p) % p
    else:
        x1 = (p - B_ISO) * pow(A_ISO, -1, p) * (1 + pow(tv, -1, p)) % p
    gx1 = (pow(x1, 3, p) + A_ISO * x1 + B_ISO) % p
    y = _sqrt(gx1)
    x = x1
    if y is None:
        x = Z * u * u * x1 % p
        y = _sqrt((pow(x, 3, p) + A_ISO * x + B_ISO) % p)
        assert y is not None  # one of g(x1), g(x2) is a square (RFC 9380 6.6.2)
    if _sgn0(u) != _sgn0(y):
        y = p - y
    return x, y


def _poly(coefficients: tuple[int, ...], x: int) -> int:
    acc = 0
    for c in reversed(coefficients):
        acc = (acc * x + c) % p
    return acc


def iso_map(x: int, y: int) -> tuple[int, int]:
    """The 3-isogeny from E' to secp256k1 (RFC 9380 appendix E.1)."""
    x_den = _poly(_X_DEN, x)
    y_den = _poly(_Y_DEN, x)
    if x_den == 0 or y_den == 0:  # pragma: no cover - the kernel of the isogeny: probability 2**-254
        raise ArithmeticError("the isogeny maps this point to the identity")
    return (
        _poly(_X_NUM, x) * pow(x_den, -1, p) % p,
        y * _poly(_Y_NUM, x) * pow(y_den, -1, p) % p,
    )


def _homogeneous(coefficients: tuple[int, ...], n: int, d_powers: list[int]) -> int:
    """``D^deg · poly(N/D)`` for ``poly`` of ``coefficients`` (lowest first); ``d_powers[i] = D^i``."""
    deg = len(coefficients) - 1
    acc = coefficients[deg]
    for i in range(deg - 1, -1, -1):
        acc = (acc * n + coefficients[i] * d_powers[deg - i]) % p
    return acc


_MINUS_B_OVER_A = (p - B_ISO) * pow(A_ISO, -1, p) % p
_X1_WHEN_TV_IS_ZERO = B_ISO * pow(Z * A_ISO, -1, p) % p


def _candidates(u: int) -> list[tuple[int, int]]:
    """SSWU's two abscissas on E' for ``u`` (6.6.2), x1 then x2, each as a fraction (N, D)."""
    zu2 = Z * u * u % p
    tv = (zu2 * zu2 + zu2) % p
    # x1 = (−B/A)·(1 + 1/tv) = (−B/A)·(tv + 1) / tv, or B/(Z·A) when tv is 0
    x1 = (_MINUS_B_OVER_A * (tv + 1) % p, tv) if tv else (_X1_WHEN_TV_IS_ZERO, 1)
    return [x1, (zu2 * x1[0] % p, x1[1])]  # x2 = Z·u²·x1


def _inverses(values: list[int]) -> list[int] | None:
    """The inverses of ``values`` in GF(p) with one inversion (Montgomery's trick); None if one is 0."""
    prefix = [1]
    for v in values:
        prefix.append(prefix[-1] * v % p)
    if prefix[-1] == 0:
        return None
    inv = pow(prefix[-1], -1, p)
    out = [0] * len(values)
    for i in range(len(values) - 1, -1, -1):
        out[i] = inv * prefix[i] % p
        inv = inv * values[i] % p
    return out


def _images(us: list[int]) -> list[ec.Pt] | None:
    """``iso_map(map_to_curve_sswu(u))`` for each u, as points; None in an exceptional case.

    The isogeny's x of a candidate x' on E' needs no square root, and the identity
    ``E(iso_x(x')) · y_den(x')² = g'(x') · y_num(x')²`` (the isogeny maps E' to E) says that
    ``g'(x')``, E''s right-hand side, is a square exactly when ``iso_x(x')`` is the abscissa
    of a point of secp256k1, whenever ``y_num(x')·y_den(x') ≠ 0``: so libsecp256k1's
    lift of that abscissa decides between x1 and x2 as ``is_square(gx1)`` does, and gives
    y up to its sign. The sign is the RFC's: ``y' = y · y_den / y_num`` must have the
    parity of u (``sgn0(u) == sgn0(y')``). Every denominator is inverted in one batch.
    When one of them is 0 (probability about 2**-250) the caller takes the RFC's path.
    """
    rows = []  # per u and candidate, homogeneous in (N, D): x_num, D·x_den, y_num, y_den
    for u in us:
        for n, d in _candidates(u):
            dp = [1, d, d * d % p, d * d * d % p]
            x_den = _homogeneous(_X_DEN, n, dp)
            y_den = _homogeneous(_Y_DEN, n, dp)
            if y_den == 0:
                return None
            rows.append((_homogeneous(_X_NUM, n, dp), d * x_den % p, _homogeneous(_Y_NUM, n, dp), y_den))
    inverses = _inverses([v for r in rows for v in (r[1], r[2])])
    if inverses is None:
        return None
    out = []
    for i, u in enumerate(us):
        for k in (0, 1):  # x1, then x2 when g(x1) is not a square
            x_num, _, _, y_den = rows[2 * i + k]
            inv_x_den, inv_y_num = inverses[4 * i + 2 * k], inverses[4 * i + 2 * k + 1]
            lifted = ec.lift_x(x_num * inv_x_den % p)
            if lifted is not None:
                break
        else:  # pragma: no cover - one of g(x1), g(x2) is a square (RFC 9380 6.6.2)
            raise AssertionError("neither SSWU candidate is on the curve")
        pt, y = lifted
        if (y * y_den * inv_y_num % p) & 1 != _sgn0(u):
            pt = ec.neg(pt)
        out.append(pt)
    return out


def hash_to_curve(msg: bytes, dst: bytes) -> ec.Pt:
    """``secp256k1_XMD:SHA-256_SSWU_RO_(msg)`` under ``dst`` (RFC 9380 section 3)."""
    us = hash_to_field(msg, dst, 2)
    qs = _images(us)
    if qs is None:  # pragma: no cover - a zero denominator: probability about 2**-250
        qs = [ec.from_xy(*iso_map(*map_to_curve_sswu(u))) for u in us]
    return ec.total(qs)
