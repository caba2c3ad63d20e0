"""Invite codes: round trips, tolerance of copy-paste noise, damage and other versions recognised
as such, and what the table's secret gives (session id, relay tokens and sides)."""

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
    PUBLIC_RELAY,
    Endpoint,
    Invite,
    InviteError,
    decode_invite,
    fingerprint_bytes,
    fingerprint_text,
    parse_endpoint,
)

FP = Identity.from_seed(b"i" * 32).fingerprint
SECRET = bytes(range(16))
ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"
LAN = (Endpoint("192.168.1.20", 7700),)


def _reencode(payload: bytes, check: bytes | None = None) -> str:
    if check is None:
        check = hashlib.sha256(b"fairdeal/invite/v1\x00" + payload).digest()[:4]
    return PREFIX + base64.b32encode(payload + check).decode().rstrip("=").lower()


def _invite(*direct: Endpoint, relay: Endpoint | None = PUBLIC_RELAY, doors: int = 1) -> Invite:
    return Invite(FP, SECRET, tuple(direct), relay, doors if relay else 0)


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "192.168.1.20", "::1", "2001:db8::7", "example.org", "my-box.lan", "a"]
)
def test_round_trip(host: str) -> None:
    for relay in (None, PUBLIC_RELAY, Endpoint("relay.example.org", 4001), Endpoint("::1", 9)):
        inv = _invite(Endpoint(host, 7700), Endpoint("10.0.0.3", 1), relay=relay, doors=4)
        code = inv.encode()
        assert code.startswith("fd1:") and code == code.lower() and " " not in code
        assert decode_invite(code) == inv


def test_a_relay_only_code_and_the_usual_code_are_short() -> None:
    assert decode_invite(_invite(relay=PUBLIC_RELAY).encode()).direct == ()
    # One LAN address and the public relay: what most hosts hand out.
    assert len(_invite(*LAN, doors=9).encode()) <= 70
    two = _invite(Endpoint("203.0.113.9", 65535), Endpoint("192.168.1.20", 7700), doors=9)
    assert len(two.encode()) <= 84


def test_copy_paste_noise_is_ignored() -> None:
    code = _invite(*LAN).encode()
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
        ("fd1:" + "a" * 500, "too long"),
    ],
)
def test_rejects_what_is_not_a_code(text: str, words: str) -> None:
    with pytest.raises(InviteError, match=words):
        decode_invite(text)


def test_codes_of_other_versions_say_so() -> None:
    # A real code of the first format (address, port, fingerprint, session id): fairdeal 0.1's.
    v1 = "fd1:aech6aaaagojlo7nlvay6qudtfbovvvn7hgcqndtn5e4npyg"
    with pytest.raises(InviteError, match="made by another version of fairdeal") as info:
        decode_invite(v1)
    assert "format 1" in str(info.value) and "format 2" in str(info.value)
    future = _reencode(b"\x03" + _invite(*LAN).payload()[1:])
    with pytest.raises(InviteError, match=r"another version.*format 3"):
        decode_invite(future)


def test_every_single_character_change_is_caught() -> None:
    code = _invite(Endpoint("127.0.0.1", 5555)).encode()
    body = code[len(PREFIX) :]
    for i, c in enumerate(body):
        for other in ALPHABET:
            if other == c:
                continue
            damaged = PREFIX + body[:i] + other + body[i + 1 :]
            with pytest.raises(InviteError):
                decode_invite(damaged)


def test_truncation_and_swaps_are_caught() -> None:
    code = _invite(Endpoint("127.0.0.1", 5555)).encode()
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
    good = _invite(Endpoint("127.0.0.1", 5555), relay=None).payload()
    head = good[:27]  # version, fingerprint, secret
    assert good[27:] == b"\x00\x01\x04\x7f\x00\x00\x01\x15\xb3"  # no relay; one IPv4 address
    cases = {
        "unknown relay kind 7": head + b"\x07\x01\x04\x7f\x00\x00\x01\x15\xb3",
        "0 relay doors": head + b"\x01\x00\x00",
        "10 relay doors": head + b"\x01\x0a\x00",
        "unknown address kind 5": head + b"\x00\x01\x05\x7f\x00\x00\x01\x15\xb3",
        "9 direct addresses": head + b"\x00\x09",
        "extra bytes": good + b"\x00",
        "cut short inside": good[:-1],
        "port 0": head + b"\x00\x01\x04\x7f\x00\x00\x01\x00\x00",
        "bad host name": head + b"\x00\x01\x00\x03a b\x15\xb3",
        "bad host name length": head + b"\x00\x01\x00\x00\x15\xb3",
        "given twice": head + b"\x00\x02" + b"\x04\x7f\x00\x00\x01\x15\xb3" * 2,
        "no address and no relay": head + b"\x00\x00",
    }
    for words, payload in cases.items():
        with pytest.raises(InviteError, match=words):
            decode_invite(_reencode(payload))
    with pytest.raises(InviteError, match="checksum"):
        decode_invite(_reencode(good, b"\x00\x00\x00\x00"))


def test_invalid_invites_cannot_be_built() -> None:
    with pytest.raises(ValueError):
        Endpoint("not a host!", 1)
    with pytest.raises(ValueError):
        Endpoint("127.0.0.1", 0)
    with pytest.raises(ValueError):
        Invite("fd1-bad", SECRET, LAN)
    with pytest.raises(ValueError):
        Invite(FP, b"short", LAN)
    with pytest.raises(ValueError, match="needs a direct address or a relay"):
        Invite(FP, SECRET)
    with pytest.raises(ValueError, match="doors"):
        Invite(FP, SECRET, LAN, PUBLIC_RELAY, 0)
    with pytest.raises(ValueError, match="doors"):
        Invite(FP, SECRET, LAN, None, 2)
    with pytest.raises(ValueError):
        Invite(FP, SECRET, LAN * 2)
    with pytest.raises(ValueError):
        Invite(FP, SECRET, tuple(Endpoint("10.0.0.1", p) for p in range(1, 10)))


def test_relay_endpoints_parse() -> None:
    assert parse_endpoint("tcp:transit.magic-wormhole.io:4001") == PUBLIC_RELAY
    assert parse_endpoint(" 127.0.0.1:9 ") == Endpoint("127.0.0.1", 9)
    assert parse_endpoint("tcp:[::1]:4001") == Endpoint("::1", 4001)
    assert str(Endpoint("::1", 4001)) == "[::1]:4001"
    for bad in (
        "",
        "tcp:",
        "host",
        "host:",
        "host:0",
        "host:70000",
        "a b:1",
        "tcp:host:1:2",
        "[::1]",
        "host:\u0664\u0660\u0660\u0661",
        "[::1]:\uff19",
    ):  # ports in ASCII digits only
        with pytest.raises(ValueError):
            parse_endpoint(bad)


def test_what_the_secret_gives_is_domain_separated_and_per_game() -> None:
    inv = _invite(*LAN, doors=9)
    other = Invite(FP, bytes(16), LAN, PUBLIC_RELAY, 9)
    tokens = [inv.relay_token(d) for d in range(9)]
    assert all(len(t) == 64 and int(t, 16) >= 0 for t in tokens) and len(set(tokens)) == 9
    assert not set(tokens) & {other.relay_token(d) for d in range(9)}
    sides = {inv.relay_side("host"), inv.relay_side("joiner")}
    assert len(sides) == 2 and all(len(s) == 16 for s in sides)
    assert len(inv.session) == 8 and inv.session != other.session
    # Nothing the relay sees (tokens, sides) is the session id or the secret, or a prefix of them.
    for t in [*tokens, *sides]:
        assert inv.session.hex() not in t and SECRET.hex()[:16] not in t
    assert inv.session == hashlib.sha256(b"fairdeal/session-id/v2\x00" + SECRET).digest()[:8]
    with pytest.raises(ValueError):
        inv.relay_token(9)


@settings(max_examples=200, deadline=None)
@given(
    hosts=st.lists(st.ip_addresses(v=4), min_size=0, max_size=4, unique=True),
    port=st.integers(1, 65535),
    secret=st.binary(min_size=16, max_size=16),
    fp=st.binary(min_size=10, max_size=10),
    doors=st.integers(0, 9),
)
def test_any_invite_round_trips(hosts: list[object], port: int, secret: bytes, fp: bytes, doors: int) -> None:
    direct = tuple(Endpoint(str(h), port) for h in hosts)
    relay = PUBLIC_RELAY if doors else None
    if not direct and relay is None:
        return
    inv = Invite(fingerprint_text(fp), secret, direct, relay, doors)
    assert decode_invite(inv.encode()) == inv


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_decoding_any_text_fails_only_with_invite_error(text: str) -> None:
    with contextlib.suppress(InviteError):
        decode_invite(PREFIX + text)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=120))
def test_decoding_any_checked_payload_fails_only_with_invite_error(payload: bytes) -> None:
    with contextlib.suppress(InviteError):
        decode_invite(_reencode(b"\x02" + payload))
