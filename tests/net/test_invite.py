"""Invite codes: round trips, tolerance of copy-paste noise, and damage recognised as such."""

from __future__ import annotations

import base64
import contextlib
import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.identity import Identity
from fairdeal.net.invite import (
    PREFIX,
    Invite,
    InviteError,
    decode_invite,
    fingerprint_bytes,
    fingerprint_text,
)

FP = Identity.from_seed(b"i" * 32).fingerprint
SESSION = bytes(range(8))
ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"


def _reencode(payload: bytes, check: bytes | None = None) -> str:
    if check is None:
        check = hashlib.sha256(b"fairdeal/invite/v1\x00" + payload).digest()[:4]
    return PREFIX + base64.b32encode(payload + check).decode().rstrip("=").lower()


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "192.168.1.20", "::1", "2001:db8::7", "example.org", "my-box.lan", "a"]
)
def test_round_trip(host: str) -> None:
    inv = Invite(host, 7700, FP, SESSION)
    code = inv.encode()
    assert code.startswith("fd1:") and code == code.lower() and " " not in code
    assert decode_invite(code) == inv


def test_ipv4_code_is_short() -> None:
    assert len(Invite("203.0.113.9", 65535, FP, SESSION).encode()) <= 56


def test_copy_paste_noise_is_ignored() -> None:
    code = Invite("10.0.0.2", 4000, FP, SESSION).encode()
    body = code[len(PREFIX) :]
    noisy = "  FD1:" + "-".join(body[i : i + 6] for i in range(0, len(body), 6)).upper() + "\n"
    assert decode_invite(noisy) == decode_invite(code)
    assert decode_invite(PREFIX + body[:20] + "\n  " + body[20:]) == decode_invite(code)


def test_fingerprint_bytes_round_trip() -> None:
    assert fingerprint_text(fingerprint_bytes(FP)) == FP
    with pytest.raises(ValueError):
        fingerprint_bytes("fd1-xxxx")
    with pytest.raises(ValueError):
        fingerprint_bytes(FP + "\n")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "starts with fd1:"),
        ("hello", "starts with fd1:"),
        ("fd2:aaaa", "starts with fd1:"),
        ("fd1:", "cut short"),
        ("fd1:a", "length is impossible"),
        ("fd1:abc!defg", "characters no code has"),
        ("fd1:" + "a" * 300, "too long"),
    ],
)
def test_rejects_what_is_not_a_code(text: str, words: str) -> None:
    with pytest.raises(InviteError, match=words):
        decode_invite(text)


def test_every_single_character_change_is_caught() -> None:
    code = Invite("127.0.0.1", 5555, FP, SESSION).encode()
    body = code[len(PREFIX) :]
    for i, c in enumerate(body):
        for other in ALPHABET:
            if other == c:
                continue
            damaged = PREFIX + body[:i] + other + body[i + 1 :]
            with pytest.raises(InviteError):
                decode_invite(damaged)


def test_truncation_and_swaps_are_caught() -> None:
    code = Invite("127.0.0.1", 5555, FP, SESSION).encode()
    for n in range(len(PREFIX), len(code)):
        with pytest.raises(InviteError):
            decode_invite(code[:n])
    body = code[len(PREFIX) :]
    for i in range(len(body) - 1):
        if body[i] != body[i + 1]:
            swapped = body[:i] + body[i + 1] + body[i] + body[i + 2 :]
            with pytest.raises(InviteError, match=r"damaged or mistyped|impossible|malformed"):
                decode_invite(PREFIX + swapped)


def test_well_formed_but_wrong_payloads() -> None:
    good = Invite("127.0.0.1", 5555, FP, SESSION).payload()
    with pytest.raises(InviteError, match="version 2"):
        decode_invite(_reencode(b"\x02" + good[1:]))
    with pytest.raises(InviteError, match="unknown address kind"):
        decode_invite(_reencode(good[:1] + b"\x05" + good[2:]))
    with pytest.raises(InviteError, match="extra bytes"):
        decode_invite(_reencode(good + b"\x00"))
    with pytest.raises(InviteError, match="cut short inside"):
        decode_invite(_reencode(good[:-1]))
    port0 = good[:6] + b"\x00\x00" + good[8:]
    with pytest.raises(InviteError, match="port 0"):
        decode_invite(_reencode(port0))
    bad_name = b"\x01\x00\x03a b" + good[6:]
    with pytest.raises(InviteError, match="bad host name"):
        decode_invite(_reencode(bad_name))
    with pytest.raises(InviteError, match="checksum"):
        decode_invite(_reencode(good, b"\x00\x00\x00\x00"))


def test_invalid_invites_cannot_be_built() -> None:
    with pytest.raises(ValueError):
        Invite("not a host!", 1, FP, SESSION)
    with pytest.raises(ValueError):
        Invite("127.0.0.1", 0, FP, SESSION)
    with pytest.raises(ValueError):
        Invite("127.0.0.1", 1, "fd1-bad", SESSION)
    with pytest.raises(ValueError):
        Invite("127.0.0.1", 1, FP, b"short")


@settings(max_examples=200, deadline=None)
@given(
    v4=st.ip_addresses(v=4),
    port=st.integers(1, 65535),
    session=st.binary(min_size=8, max_size=8),
    fp=st.binary(min_size=10, max_size=10),
)
def test_any_ipv4_invite_round_trips(v4: object, port: int, session: bytes, fp: bytes) -> None:
    inv = Invite(str(v4), port, fingerprint_text(fp), session)
    assert decode_invite(inv.encode()) == inv


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_decoding_any_text_fails_only_with_invite_error(text: str) -> None:
    with contextlib.suppress(InviteError):
        decode_invite(PREFIX + text)
