"""The group layer: encodings, hash-to-curve, and the two proofs."""

from __future__ import annotations

import os

import nacl.bindings as na
import pytest

from fairdeal.core.cards import standard_52
from fairdeal.core.deck import _group as g


def rand_scalar() -> bytes:
    s = g.scalar_from_bytes_or_none(os.urandom(64))
    assert s is not None
    return s


def test_scalar_canonical_bounds() -> None:
    assert g.is_scalar((g.L - 1).to_bytes(32, "little"))
    assert g.is_scalar(bytes(32))
    assert not g.is_scalar(g.L.to_bytes(32, "little"))
    assert not g.is_scalar(b"\xff" * 32)
    assert not g.is_scalar(bytes(31))
    assert not g.is_scalar(bytearray(32))


def test_points_are_checked() -> None:
    gen = g.base((1).to_bytes(32, "little"))
    assert g.is_point(gen)
    identity = (1).to_bytes(32, "little")
    assert not g.is_point(identity)
    assert not g.is_point(gen[:31])
    assert not g.is_point(gen + b"\x00")
    # a point of order 8 (small subgroup) and a point outside the prime-order subgroup
    small = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
    assert not g.is_point(small)
    assert not g.is_point(na.crypto_core_ed25519_add(gen, small))


def test_card_points_distinct_in_subgroup_and_bound_to_game() -> None:
    names = [c.name for c in standard_52(2)]
    pts = {g.card_point(b"game", n) for n in names}
    assert len(pts) == len(names)
    assert all(g.is_point(p) for p in pts)
    assert g.card_point(b"game", "AS#0") != g.card_point(b"other", "AS#0")
    # never i·G
    assert g.card_point(b"game", "AS#0") != g.base((1).to_bytes(32, "little"))


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
    ct = g.encrypt(m, rand_scalar(), joint)
    ct2 = g.rerandomise(ct[:32], ct[32:], rand_scalar(), joint)
    assert ct2 != ct
    shares = g.add(g.mul(x1, ct2[:32]), g.mul(x2, ct2[:32]))
    assert g.sub(ct2[32:], shares) == m
    # one secret alone is not enough
    assert g.sub(ct2[32:], g.mul(x1, ct2[:32])) != m


def test_schnorr_proof() -> None:
    x = rand_scalar()
    h = g.base(x)
    e, z = g.schnorr_prove(b"game", 1, 3, x, h, b"seed")
    assert g.schnorr_verify(b"game", 1, 3, h, e, z)
    assert not g.schnorr_verify(b"game", 2, 3, h, e, z)  # bound to the seat
    assert not g.schnorr_verify(b"other", 1, 3, h, e, z)  # and to the game
    assert not g.schnorr_verify(b"game", 1, 3, h, e, g.sc_add(z, (1).to_bytes(32, "little")))
    assert not g.schnorr_verify(b"game", 1, 3, h, e, g.L.to_bytes(32, "little"))
    assert not g.schnorr_verify(b"game", 1, 3, h, bytes(32), bytes(32))


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
    assert not g.dleq_verify(b"ctx", h, c1, d, e, g.L.to_bytes(32, "little"))  # not canonical


def test_zero_scalars_are_known_and_never_drawn() -> None:
    assert g.is_zero(bytes(32)) and g.is_zero(g.L.to_bytes(32, "little"))
    assert not g.is_zero((1).to_bytes(32, "little")) and not g.is_zero((g.L - 1).to_bytes(32, "little"))
    assert g.scalar_from_bytes_or_none(bytes(64)) is None
    one = g.scalar_from_bytes_or_none((1).to_bytes(64, "little"))
    assert one == (1).to_bytes(32, "little")


def _plus_l(s: bytes) -> bytes:
    """The same scalar, written non-canonically (s + L still fits 32 bytes)."""
    return (int.from_bytes(s, "little") + g.L).to_bytes(32, "little")


def test_proofs_take_only_canonical_scalars() -> None:
    """A valid proof with a response or challenge written as s + L is refused: no malleability."""
    x = rand_scalar()
    h = g.base(x)
    e, z = g.schnorr_prove(b"game", 1, 3, x, h, b"seed")
    assert g.schnorr_verify(b"game", 1, 3, h, e, z)
    assert not g.schnorr_verify(b"game", 1, 3, h, e, _plus_l(z))
    assert not g.schnorr_verify(b"game", 1, 3, h, _plus_l(e), z)
    c1 = g.base(rand_scalar())
    d = g.mul(x, c1)
    e, z = g.dleq_prove(b"ctx", x, h, c1, d, b"seed")
    assert g.dleq_verify(b"ctx", h, c1, d, e, z)
    assert not g.dleq_verify(b"ctx", h, c1, d, e, _plus_l(z))
    assert not g.dleq_verify(b"ctx", h, c1, d, _plus_l(e), z)


def test_transcripts_refuse_negative_integers() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        g.frame(b"tag", -1)
    assert g.frame(b"tag", 0) != g.frame(b"tag", b"")
