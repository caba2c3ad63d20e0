"""Strict Ed25519 (docs/protocol.md 8.2): identity keys and a signature's R are canonical encodings
of curve points not of small order; S < L; the equation is cofactorless.

The cryptography library (OpenSSL) accepts every key and R these tests forge; libsodium (PyNaCl)
is the independent witness of what a point, and a small-order one, is.
"""

from __future__ import annotations

import hashlib
import os

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from nacl.bindings import (
    crypto_core_ed25519_add,
    crypto_core_ed25519_is_valid_point,
    crypto_scalarmult_ed25519_base_noclamp,
)
from nacl.exceptions import BadSignatureError
from nacl.exceptions import RuntimeError as NaclError
from nacl.signing import VerifyKey

from fairdeal.core.identity import Identity, is_strict_key, key_problem, verify_signature

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
SIGN = 1 << 255


def _enc(y: int, sign: int = 0) -> bytes:
    return (y | sign * SIGN).to_bytes(32, "little")


#: The canonical encodings of the 8 points of small order (the torsion subgroup, cyclic of order 8).
SMALL_ORDER = {
    "identity (order 1)": _enc(1),
    "(0, -1) (order 2)": _enc(P - 1),
    "(+i, 0) (order 4)": _enc(0),
    "(-i, 0) (order 4)": _enc(0, 1),
    "order 8, a": bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
    "order 8, b": bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85"),
    "order 8, c": bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
    "order 8, d": bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"),
}
#: Their other encodings: y + p for y = 0 and 1 (the only y with y + p < 2^255), either sign, and
#: the "negative zero" of the two points with x = 0.
NON_CANONICAL_SMALL = {
    "y = p, sign 0": _enc(P),
    "y = p, sign 1": _enc(P, 1),
    "y = p + 1, sign 0": _enc(P + 1),
    "y = p + 1, sign 1": _enc(P + 1, 1),
    "identity, negative zero": _enc(1, 1),
    "(0, -1), negative zero": _enc(P - 1, 1),
}
BASE = _enc(4 * pow(5, P - 2, P) % P)  # the base point B: y = 4/5, x even


def _real_key() -> tuple[Identity, bytes]:
    me = Identity.from_seed(os.urandom(32))
    return me, me.public_key


def _secret_scalar(me: Identity) -> int:
    h = hashlib.sha512(me.seed()).digest()
    a = bytearray(h[:32])
    a[0] &= 248
    a[31] &= 127
    a[31] |= 64
    return int.from_bytes(a, "little")


def _challenge(r: bytes, key: bytes, message: bytes) -> int:
    return int.from_bytes(hashlib.sha512(r + key + message).digest(), "little") % L


def _openssl_accepts(key: bytes, signature: bytes, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(signature, message)
    except Exception:
        return False
    return True


@pytest.mark.parametrize("name", sorted(SMALL_ORDER))
def test_the_eight_points_of_small_order_are_refused_as_keys(name: str) -> None:
    key = SMALL_ORDER[name]
    assert not crypto_core_ed25519_is_valid_point(key)  # libsodium: not a valid point either
    crypto_core_ed25519_add(key, BASE)  # ... but a point of the curve: it decodes
    assert key_problem(key) == "it is a point of small order"
    assert not is_strict_key(key)


def test_the_eight_are_eight_different_points() -> None:
    assert len(set(SMALL_ORDER.values())) == 8


@pytest.mark.parametrize("name", sorted(NON_CANONICAL_SMALL))
def test_the_other_encodings_of_small_order_points_are_refused(name: str) -> None:
    key = NON_CANONICAL_SMALL[name]
    assert key_problem(key) == "its encoding is not canonical"


@pytest.mark.parametrize("y", [P, P + 2, P + 5, 2**255 - 1])
def test_an_encoding_of_y_past_p_is_refused_whatever_the_point(y: int) -> None:
    for sign in (0, 1):
        assert key_problem(_enc(y, sign)) == "its encoding is not canonical"


def test_a_y_with_no_point_is_refused() -> None:
    key = _enc(2)  # x^2 = (y^2 - 1) / (d y^2 + 1) has no root for y = 2
    with pytest.raises(NaclError):
        crypto_core_ed25519_add(key, BASE)
    assert key_problem(key) == "it is not a point of the curve"


def test_decoding_agrees_with_libsodium_on_random_encodings() -> None:
    for _ in range(200):
        key = bytearray(os.urandom(32))
        key[31] &= 0x7F  # y < 2^255 - 19 but for 19 values in 2^255
        try:
            crypto_core_ed25519_add(bytes(key), BASE)
            on_curve = True
        except NaclError:
            on_curve = False
        assert (key_problem(bytes(key)) != "it is not a point of the curve") == on_curve


def test_real_keys_are_strict() -> None:
    for _ in range(20):
        _, key = _real_key()
        assert key_problem(key) is None and is_strict_key(key)
    assert is_strict_key(BASE)


def test_a_point_of_mixed_order_is_not_of_small_order() -> None:
    """Exactly [8]P ≠ identity: a real key plus a point of order 8 has order 8L, and is taken."""
    _, key = _real_key()
    mixed = crypto_core_ed25519_add(key, SMALL_ORDER["order 8, a"])
    assert not crypto_core_ed25519_is_valid_point(mixed)  # libsodium's stricter check: not prime order
    assert key_problem(mixed) is None


def test_a_key_of_another_length_is_refused() -> None:
    _, key = _real_key()
    assert key_problem(key[:31]) == "it is not 32 bytes"
    assert key_problem(key + b"\x00") == "it is not 32 bytes"


# -- signatures ------------------------------------------------------------------------------------
def test_the_neutral_key_with_one_signature_of_everything_is_refused() -> None:
    """The attack of issue 41: with the identity as its key, R = B and S = 1 "sign" every message."""
    forged = BASE + (1).to_bytes(32, "little")
    for message in (b"one entry", b"another entry", b""):
        assert _openssl_accepts(SMALL_ORDER["identity (order 1)"], forged, message)
        assert not verify_signature(SMALL_ORDER["identity (order 1)"], forged, message)


def test_a_signature_whose_r_is_of_small_order_is_refused() -> None:
    """R = the identity and S = k·a: [S]B = R + [k]A holds, cofactorless, for the real key A."""
    me, key = _real_key()
    message = b"fairdeal"
    r = SMALL_ORDER["identity (order 1)"]
    s = _challenge(r, key, message) * _secret_scalar(me) % L
    signature = r + s.to_bytes(32, "little")
    assert _openssl_accepts(key, signature, message)
    assert not verify_signature(key, signature, message)


def test_a_signature_whose_r_is_not_canonical_is_refused() -> None:
    me, key = _real_key()
    message = b"fairdeal"
    r = NON_CANONICAL_SMALL["y = p + 1, sign 0"]  # the identity once more, written y = p + 1
    s = _challenge(r, key, message) * _secret_scalar(me) % L
    assert not verify_signature(key, r + s.to_bytes(32, "little"), message)


def test_s_must_be_below_l() -> None:
    me, key = _real_key()
    signature = me.sign(b"m")
    s = int.from_bytes(signature[32:], "little")
    assert verify_signature(key, signature, b"m")
    assert not verify_signature(key, signature[:32] + (s + L).to_bytes(32, "little"), b"m")


def test_an_honest_signature_verifies_and_a_changed_one_does_not() -> None:
    me, key = _real_key()
    signature = me.sign(b"entry")
    assert verify_signature(key, signature, b"entry")
    assert not verify_signature(key, signature, b"entrY")
    assert not verify_signature(key, signature[:-1], b"entry")


def test_the_list_of_small_order_encodings_is_the_eight_the_doubling_finds() -> None:
    """What R is checked against (no square root) is what a key's decoding and doubling refuse."""
    from fairdeal.core import identity

    assert frozenset(SMALL_ORDER.values()) == identity.SMALL_ORDER


def _mixed_order_signature(message_ok: bool) -> tuple[bytes, bytes, bytes]:
    """A key of order 8L (a real key A' plus T of order 8) and a signature by it: S = r + k·a', which
    meets the cofactorless equation exactly when [k]T is the identity (8 divides k), and the
    cofactored one ([8][S]B = [8]R + [8][k]A) always. Returns (key, signature, message)."""
    me, real = _real_key()
    key = crypto_core_ed25519_add(real, SMALL_ORDER["order 8, a"])
    r = int.from_bytes(os.urandom(64), "little") % L
    big_r = crypto_scalarmult_ed25519_base_noclamp(r.to_bytes(32, "little"))
    for n in range(1000):
        message = b"message %d" % n
        k = _challenge(big_r, key, message)
        if (k % 8 == 0) == message_ok:
            s = (r + k * _secret_scalar(me)) % L
            return key, big_r + s.to_bytes(32, "little"), message
    raise AssertionError("no message found")


@pytest.mark.parametrize("holds", [True, False])
def test_the_equation_is_cofactorless(holds: bool) -> None:
    """Under a key of mixed order a signature that meets only the cofactored equation is refused;
    libsodium (crypto_sign_verify_detached, PyNaCl's VerifyKey) decides the same."""
    key, signature, message = _mixed_order_signature(holds)
    assert verify_signature(key, signature, message) is holds
    assert _libsodium_accepts(key, signature, message) is holds


def _libsodium_accepts(key: bytes, signature: bytes, message: bytes) -> bool:
    try:
        VerifyKey(key).verify(message, signature)
    except BadSignatureError:
        return False
    return True


def test_libsodium_refuses_what_is_refused_here() -> None:
    """The independent verifier (tests/independent, PyNaCl) and this one agree on the forgeries."""
    forged = BASE + (1).to_bytes(32, "little")
    for key in SMALL_ORDER.values():
        assert not _libsodium_accepts(key, forged, b"entry") and not verify_signature(key, forged, b"entry")
    me, key = _real_key()
    r = SMALL_ORDER["identity (order 1)"]
    small_r = r + (_challenge(r, key, b"m") * _secret_scalar(me) % L).to_bytes(32, "little")
    assert not _libsodium_accepts(key, small_r, b"m") and not verify_signature(key, small_r, b"m")
    honest = me.sign(b"m")
    assert _libsodium_accepts(key, honest, b"m") and verify_signature(key, honest, b"m")
