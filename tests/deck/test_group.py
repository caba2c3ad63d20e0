"""The group layer: encodings, hash-to-curve (RFC 9380's vectors), the identity, and the two proofs."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from fairdeal.core.cards import standard_52
from fairdeal.core.deck import _group as g
from fairdeal.core.deck import _h2c
from fairdeal.core.deck import _secp256k1 as ec

DATA = Path(__file__).with_name("data")
P = ec.P
#: secp256k1 in affine coordinates, for an independent check of the library's arithmetic.
GX, GY = (
    0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798,
    (0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8),
)


def rand_scalar() -> bytes:
    s = g.scalar_from_bytes_or_none(os.urandom(64))
    assert s is not None
    return s


def affine_mul(k: int, x: int, y: int) -> tuple[int, int] | None:
    """k·(x, y) by double-and-add in affine coordinates (None: the identity): the textbook formulas."""

    def add(a: tuple[int, int] | None, b: tuple[int, int] | None) -> tuple[int, int] | None:
        if a is None or b is None:
            return a or b
        if a[0] == b[0] and (a[1] + b[1]) % P == 0:
            return None
        if a == b:
            lam = 3 * a[0] * a[0] * pow(2 * a[1], -1, P) % P
        else:
            lam = (b[1] - a[1]) * pow(b[0] - a[0], -1, P) % P
        x3 = (lam * lam - a[0] - b[0]) % P
        return x3, (lam * (a[0] - x3) - a[1]) % P

    acc: tuple[int, int] | None = None
    pt: tuple[int, int] | None = (x, y)
    while k:
        if k & 1:
            acc = add(acc, pt)
        pt = add(pt, pt)
        k >>= 1
    return acc


def compressed(xy: tuple[int, int]) -> bytes:
    return bytes([2 + (xy[1] & 1)]) + xy[0].to_bytes(32, "big")


def test_the_library_agrees_with_the_textbook() -> None:
    """base, both multiplications, sums and negation, against affine arithmetic in Python ints."""
    for k in (1, 2, 3, 7, g.L - 1, int.from_bytes(os.urandom(32), "big") % g.L or 5):
        want = affine_mul(k, GX, GY)
        assert want is not None
        assert ec.encode(ec.base(k)) == compressed(want)
        two = affine_mul(2, GX, GY)
        assert two is not None
        want2 = affine_mul(k * 2 % g.L, GX, GY)
        assert want2 is not None
        for mul in (ec.mul, ec.mul_public):
            assert ec.encode(mul(k, ec.parse(compressed(two)))) == compressed(want2)
    assert compressed((GX, GY)) == g.G
    assert g.add(g.G, g.G) == g.base((2).to_bytes(32, "big"))
    assert g.sub(g.base((5).to_bytes(32, "big")), g.G) == g.base((4).to_bytes(32, "big"))


def test_the_identity_is_never_a_value() -> None:
    """libsecp256k1 has no point at infinity: every way to reach it is an error, never a point."""
    five = g.base((5).to_bytes(32, "big"))
    minus_five = g.base((g.L - 5).to_bytes(32, "big"))
    with pytest.raises(g.GroupError):
        g.add(five, minus_five)
    with pytest.raises(g.GroupError):
        g.sub(five, five)
    with pytest.raises(g.GroupError):
        g.base(bytes(32))
    with pytest.raises(g.GroupError):
        g.mul(bytes(32), five)
    with pytest.raises(g.GroupError):
        g.mul_public(g.L.to_bytes(32, "big"), five)  # L ≡ 0
    with pytest.raises(ec.Infinity):
        ec.total([ec.parse(five), ec.parse(minus_five)])
    # a sum may pass through the identity on its way: only the total counts
    assert ec.encode(ec.total([ec.parse(five), ec.parse(minus_five), ec.parse(g.G)])) == g.G
    # the public encryption of a known card has c1 = G, never the identity
    m = g.card_point(b"game", "AS#0")
    assert g.trivial(m, five) == g.G + g.add(m, five)


def test_scalar_canonical_bounds() -> None:
    assert g.is_scalar((g.L - 1).to_bytes(32, "big"))
    assert g.is_scalar(bytes(32))
    assert not g.is_scalar(g.L.to_bytes(32, "big"))
    assert not g.is_scalar(b"\xff" * 32)
    assert not g.is_scalar(bytes(31))
    assert not g.is_scalar(bytearray(32))


@pytest.mark.parametrize(
    "bad",
    [
        bytes(33),  # the identity, padded: SEC1 writes it as one 00 byte, which is not 33 bytes either
        b"\x00",
        b"\x02" + (5).to_bytes(32, "big"),  # 5³ + 7 is no square mod p: no point has x = 5
        b"\x02" + (P + 1).to_bytes(32, "big"),  # x = 1 (on the curve) written as p + 1
        b"\x04" + g.G[1:],  # uncompressed prefix, 33 bytes
        b"\x06" + g.G[1:],  # hybrid prefix
        b"\x05" + g.G[1:],
        g.G[:32],
        g.G + b"\x00",
        g.G.hex().encode()[:33],
    ],
)
def test_points_are_checked(bad: bytes) -> None:
    assert g.is_point(g.G)
    assert not g.is_point(bad)
    assert not g.is_point(bytearray(g.G))
    with pytest.raises(g.GroupError):
        g.point(bad)


def test_the_uncompressed_form_of_a_point_is_refused() -> None:
    """Only one encoding per point: 65-byte forms of G are not points here, though the library parses them."""
    uncompressed = b"\x04" + GX.to_bytes(32, "big") + GY.to_bytes(32, "big")
    assert not g.is_point(uncompressed)
    minus_g = b"\x03" + g.G[1:]  # the other y: −G, another point
    assert g.is_point(minus_g) and minus_g != g.G
    with pytest.raises(g.GroupError):
        g.add(g.G, minus_g)


def test_rfc9380_expand_message_xmd_vectors() -> None:
    data = json.loads((DATA / "rfc9380_expand_message_xmd_sha256.json").read_text())
    dst = data["dst"].encode()
    for t in data["tests"]:
        got = _h2c.expand_message_xmd(t["msg"].encode(), dst, t["len_in_bytes"])
        assert got.hex() == t["uniform_bytes"], t["msg"][:16]


def test_rfc9380_hash_to_curve_vectors() -> None:
    """secp256k1_XMD:SHA-256_SSWU_RO_, every vector of RFC 9380 J.8.1: u, Q0, Q1 and P."""
    data = json.loads((DATA / "rfc9380_secp256k1_sswu_ro.json").read_text())
    dst = data["dst"].encode()
    assert len(data["vectors"]) == 5
    for v in data["vectors"]:
        msg = v["msg"].encode()
        u = _h2c.hash_to_field(msg, dst, 2)
        assert u == [int(x, 16) for x in v["u"]]
        for ui, q in zip(u, (v["Q0"], v["Q1"]), strict=True):
            assert _h2c.iso_map(*_h2c.map_to_curve_sswu(ui)) == (int(q["x"], 16), int(q["y"], 16))
        want = (int(v["P"]["x"], 16), int(v["P"]["y"], 16))
        assert ec.encode(_h2c.hash_to_curve(msg, dst)) == compressed(want)


def _rfc_steps(u: int) -> bytes:
    """The RFC's own steps, as _h2c writes them (checked against the RFC's Q0 and Q1 above)."""
    return ec.encode(ec.from_xy(*_h2c.iso_map(*_h2c.map_to_curve_sswu(u))))


#: u = 0 and u with u² = −1/Z make SSWU's tv zero (its exceptional case); p − 1 is the largest u.
_EXCEPTIONAL_U = (0, _h2c._sqrt(pow(-_h2c.Z, -1, P)), P - 1)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=P - 1))
@example(_EXCEPTIONAL_U[0])
@example(_EXCEPTIONAL_U[1])
@example(P - _EXCEPTIONAL_U[1])
@example(_EXCEPTIONAL_U[2])
def test_the_fast_map_is_the_rfcs(u: int) -> None:
    """hash_to_curve's lift through libsecp256k1 gives the RFC's point for every u, both branches."""
    (fast,) = _h2c._images([u])
    assert ec.encode(fast) == _rfc_steps(u)


def test_the_fast_map_takes_both_branches_and_both_signs() -> None:
    """Over many u, x1 and x2 are both taken, and the lift's y both kept and negated."""
    branches, prefixes = set(), set()
    for u in range(1, 41):
        n, d = _h2c._candidates(u)[0]
        x1 = n * pow(d, -1, P) % P
        branches.add(_h2c._sqrt((pow(x1, 3, P) + _h2c.A_ISO * x1 + _h2c.B_ISO) % P) is not None)
        (pt,) = _h2c._images([u])
        assert ec.encode(pt) == _rfc_steps(u)
        prefixes.add(ec.encode(pt)[0])
    assert branches == {True, False}
    assert prefixes == {2, 3}


def test_the_fast_map_needs_no_denominator_to_be_zero() -> None:
    """A zero in the batch of inversions is reported, not divided by (the caller takes the RFC's path)."""
    assert _h2c._inverses([3, 0, 5]) is None
    assert _h2c._inverses([3, 5]) == [pow(3, -1, P), pow(5, -1, P)]


def test_expand_message_refuses_what_the_rfc_refuses() -> None:
    with pytest.raises(ValueError):
        _h2c.expand_message_xmd(b"", b"x" * 256, 32)
    with pytest.raises(ValueError):
        _h2c.expand_message_xmd(b"", b"x", 256 * 32)


def test_card_points_distinct_and_bound_to_game() -> None:
    names = [c.name for c in standard_52(2)]
    pts = {g.card_point(b"game", n) for n in names}
    assert len(pts) == len(names)
    assert all(g.is_point(p) for p in pts)
    assert g.card_point(b"game", "AS#0") != g.card_point(b"other", "AS#0")
    assert g.card_point(b"game", "AS#0") != g.G
    # exactly RFC 9380's hash of the framed name, under the deck's own tag
    framed = g.frame(g.TAG_CARD, b"game", "AS#0")
    assert g.card_point(b"game", "AS#0") == ec.encode(_h2c.hash_to_curve(framed, g.DST_CARD))


def test_frame_is_unambiguous() -> None:
    assert g.frame(b"t", b"ab", b"c") != g.frame(b"t", b"a", b"bc")
    assert g.frame(b"t", 1) != g.frame(b"t", b"\x00" * 7 + b"\x01")
    assert g.frame(b"t", "a") != g.frame(b"t", b"a")
    with pytest.raises(TypeError):
        g.frame(b"t", True)


def test_elgamal_rerandomise_then_decrypt() -> None:
    x1, x2 = rand_scalar(), rand_scalar()
    joint = g.add(g.base(x1), g.base(x2))
    m = g.card_point(b"game", "QH#0")
    for ct in (g.encrypt(m, rand_scalar(), joint), g.trivial(m, joint)):
        ct2 = g.rerandomise(ct[:33], ct[33:], rand_scalar(), joint)
        assert ct2 != ct and len(ct2) == g.CT_BYTES
        shares = g.add(g.mul(x1, ct2[:33]), g.mul(x2, ct2[:33]))
        assert g.sub(ct2[33:], shares) == m
        # one secret alone is not enough
        assert g.sub(ct2[33:], g.mul(x1, ct2[:33])) != m


def test_constant_and_variable_time_multiplications_agree() -> None:
    for _ in range(5):
        k, p = rand_scalar(), g.base(rand_scalar())
        assert g.mul(k, p) == g.mul_public(k, p)


def test_schnorr_proof() -> None:
    x = rand_scalar()
    h = g.base(x)
    e, z = g.schnorr_prove(b"game", 1, 3, x, h, b"seed")
    assert g.schnorr_verify(b"game", 1, 3, h, e, z)
    assert not g.schnorr_verify(b"game", 2, 3, h, e, z)  # bound to the seat
    assert not g.schnorr_verify(b"other", 1, 3, h, e, z)  # and to the game
    assert not g.schnorr_verify(b"game", 1, 3, h, e, g.sc_add(z, (1).to_bytes(32, "big")))
    assert not g.schnorr_verify(b"game", 1, 3, h, e, g.L.to_bytes(32, "big"))
    assert not g.schnorr_verify(b"game", 1, 3, h, bytes(32), bytes(32))
    assert not g.schnorr_verify(b"game", 1, 3, bytes(33), e, z)


def test_dleq_proof() -> None:
    x = rand_scalar()
    h = g.base(x)
    c1 = g.base(rand_scalar())
    d = g.mul(x, c1)
    e, z = g.dleq_prove(b"ctx", x, h, c1, d, b"seed")
    assert g.dleq_verify(b"ctx", h, c1, d, e, z)
    assert not g.dleq_verify(b"other ctx", h, c1, d, e, z)
    assert not g.dleq_verify(b"ctx", h, c1, g.add(d, c1), e, z)  # forged share
    other_c1 = g.base(rand_scalar())
    assert not g.dleq_verify(b"ctx", h, other_c1, d, e, z)  # wrong ciphertext
    # a share made with another secret does not verify against h
    y = rand_scalar()
    e2, z2 = g.dleq_prove(b"ctx", y, h, c1, g.mul(y, c1), b"seed")
    assert not g.dleq_verify(b"ctx", h, c1, g.mul(y, c1), e2, z2)


def test_a_share_proof_with_a_zero_response_is_refused_not_a_crash() -> None:
    """z = 0 makes z·c1 the identity, which the group refuses: the proof is false, never true."""
    x = rand_scalar()
    h = g.base(x)
    c1 = g.base(rand_scalar())
    d = g.mul(x, c1)
    e, _ = g.dleq_prove(b"ctx", x, h, c1, d, b"seed")
    assert not g.dleq_verify(b"ctx", h, c1, d, e, bytes(32))
    assert not g.dleq_verify(b"ctx", h, c1, d, bytes(32), bytes(32))
    assert not g.dleq_verify(b"ctx", h, c1, d, e, g.L.to_bytes(32, "big"))  # not canonical


def test_zero_scalars_are_known_and_never_drawn() -> None:
    assert g.is_zero(bytes(32)) and g.is_zero(g.L.to_bytes(32, "big"))
    assert not g.is_zero((1).to_bytes(32, "big")) and not g.is_zero((g.L - 1).to_bytes(32, "big"))
    assert g.scalar_from_bytes_or_none(bytes(64)) is None
    one = g.scalar_from_bytes_or_none((1).to_bytes(64, "big"))
    assert one == (1).to_bytes(32, "big")


def test_proofs_take_only_canonical_scalars() -> None:
    """A response or challenge written as s + L (it fits 32 bytes for s < 2**256 − L) is refused."""
    x = rand_scalar()
    h = g.base(x)
    e, z = g.schnorr_prove(b"game", 1, 3, x, h, b"seed")
    assert g.schnorr_verify(b"game", 1, 3, h, e, z)
    for small in (1, 12345, 2**256 - g.L - 1):
        written = (small + g.L).to_bytes(32, "big")
        assert not g.is_scalar(written)
        assert not g.schnorr_verify(b"game", 1, 3, h, e, written)
        assert not g.schnorr_verify(b"game", 1, 3, h, written, z)
        assert not g.dleq_verify(b"ctx", h, g.G, h, written, z)


def test_transcripts_refuse_negative_integers() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        g.frame(b"tag", -1)
    assert g.frame(b"tag", 0) != g.frame(b"tag", b"")
