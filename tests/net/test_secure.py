"""The sans-I/O secure channel: two channels talking through byte pipes, and rogue peers."""

from __future__ import annotations

import hashlib
import os
import random

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.net._noise import HandshakeState
from fairdeal.net.framing import MAX_APP_MESSAGE, FrameDecoder, encode_frame
from fairdeal.net.secure import (
    DEFAULT_PROLOGUE,
    STATIC_KEY_SIGNATURE_PREFIX,
    Event,
    HandshakeComplete,
    MessageReceived,
    SecureChannel,
)

ALICE = Identity.from_seed(b"a" * 32)
BOB = Identity.from_seed(b"b" * 32)
MALLORY = Identity.from_seed(b"m" * 32)


def _deliver(data: bytes, receiver: SecureChannel, rng: random.Random | None = None) -> list[Event]:
    """Feed ``data`` to ``receiver`` in random chunks (or whole)."""
    events: list[Event] = []
    pos = 0
    while pos < len(data):
        step = len(data) if rng is None else rng.choice([1, 2, 3, 7, 100, 5000, 70000])
        events += receiver.receive_data(data[pos : pos + step])
        pos += step
    return events


def _connect(
    rng: random.Random | None = None, **responder_kwargs: object
) -> tuple[SecureChannel, SecureChannel, list[Event], list[Event]]:
    init = SecureChannel(ALICE, True)
    resp = SecureChannel(BOB, False, **responder_kwargs)  # type: ignore[arg-type]
    resp_events = _deliver(init.initiate(), resp, rng)
    assert resp_events == []
    init_events = _deliver(resp.data_to_send(), init, rng)
    resp_events = _deliver(init.data_to_send(), resp, rng)
    return init, resp, init_events, resp_events


def _payloads(events: list[Event]) -> list[bytes]:
    assert all(isinstance(e, MessageReceived) for e in events)
    return [e.payload for e in events if isinstance(e, MessageReceived)]


# -- the happy path ----------------------------------------------------------------------


def test_handshake_reports_verified_identities() -> None:
    init, resp, init_events, resp_events = _connect()
    assert init_events == [HandshakeComplete(BOB.public_key, BOB.fingerprint)]
    assert resp_events == [HandshakeComplete(ALICE.public_key, ALICE.fingerprint)]
    assert init.handshake_complete and resp.handshake_complete
    assert init.remote_identity == BOB.public_key and init.remote_fingerprint == BOB.fingerprint
    assert resp.remote_identity == ALICE.public_key and resp.remote_fingerprint == ALICE.fingerprint
    assert init.handshake_hash == resp.handshake_hash is not None
    assert init.data_to_send() == resp.data_to_send() == b""


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    messages=st.lists(st.tuples(st.booleans(), st.binary(min_size=1, max_size=3000)), max_size=8),
)
def test_random_chunking_both_ways(seed: int, messages: list[tuple[bool, bytes]]) -> None:
    rng = random.Random(seed)
    init, resp, _, _ = _connect(rng)
    for from_initiator, payload in messages:
        sender, receiver = (init, resp) if from_initiator else (resp, init)
        assert _payloads(_deliver(sender.send_message(payload), receiver, rng)) == [payload]
    # Several messages in one delivery come out in order.
    batch = [bytes([i + 1]) * (i * 13 + 1) for i in range(5)]
    wire = b"".join(init.send_message(m) for m in batch)
    assert _payloads(_deliver(wire, resp, rng)) == batch


def test_one_mebibyte_message_round_trip() -> None:
    init, resp, _, _ = _connect()
    message = os.urandom(MAX_APP_MESSAGE)
    assert _payloads(resp.receive_data(init.send_message(message))) == [message]
    assert _payloads(_deliver(resp.send_message(message), init, random.Random(1))) == [message]


def test_transport_in_the_same_chunk_as_message_3() -> None:
    init = SecureChannel(ALICE, True)
    resp = SecureChannel(BOB, False)
    resp.receive_data(init.initiate())
    init.receive_data(resp.data_to_send())
    wire = init.send_message(b"early")  # includes the pending message 3
    assert init.data_to_send() == b""
    events = resp.receive_data(wire)
    assert events == [HandshakeComplete(ALICE.public_key, ALICE.fingerprint), MessageReceived(b"early")]


def test_expected_fingerprint_match() -> None:
    init = SecureChannel(ALICE, True, expected_peer_fingerprint=BOB.fingerprint)
    resp = SecureChannel(BOB, False, expected_peer_fingerprint=ALICE.fingerprint)
    resp.receive_data(init.initiate())
    assert init.receive_data(resp.data_to_send())[0] == HandshakeComplete(BOB.public_key, BOB.fingerprint)
    assert resp.receive_data(init.data_to_send())[0] == HandshakeComplete(ALICE.public_key, ALICE.fingerprint)


def test_fixed_keys_give_the_pinned_handshake() -> None:
    # The handshake of docs/protocol.md 4 with fixed keys: its three messages and its hash
    # are pinned, so a change of prologue, payload or pattern cannot pass unnoticed.
    init = SecureChannel(ALICE, True, static_key=b"\x01" * 32, ephemeral=b"\x02" * 32)
    resp = SecureChannel(BOB, False, static_key=b"\x03" * 32, ephemeral=b"\x04" * 32)
    m1 = init.initiate()
    resp.receive_data(m1)
    m2 = resp.data_to_send()
    init.receive_data(m2)
    m3 = init.data_to_send()
    resp.receive_data(m3)
    assert hashlib.sha256(m1 + m2 + m3).hexdigest() == (
        "93403af59795f7b1c701b2767ad708c607c32eb39c0a11eeeaf64dbf9b928fb0"
    )
    assert (
        init.handshake_hash
        == resp.handshake_hash
        == bytes.fromhex("92e3c8534aea6716a3c4eec3ad3e0a7eae932fec2a67a04426bd649ee95b0796")
    )


def test_half_close() -> None:
    init, resp, _, _ = _connect()
    resp.receive_eof()
    assert resp.handshake_complete
    assert _payloads(init.receive_data(resp.send_message(b"bye"))) == [b"bye"]
    with pytest.raises(LocalProtocolError):
        resp.receive_data(b"\x00")


# -- wrong identities --------------------------------------------------------------------


def test_expected_fingerprint_mismatch() -> None:
    init = SecureChannel(ALICE, True, expected_peer_fingerprint=MALLORY.fingerprint)
    resp = SecureChannel(BOB, False)
    resp.receive_data(init.initiate())
    with pytest.raises(RemoteProtocolError, match="host identity does not match the invite"):
        init.receive_data(resp.data_to_send())
    assert init.closed and init.remote_identity is None
    with pytest.raises(LocalProtocolError, match="closed"):
        init.data_to_send()  # message 3 (our identity) was never produced


def test_expected_fingerprint_mismatch_on_the_responder() -> None:
    init = SecureChannel(ALICE, True)
    resp = SecureChannel(BOB, False, expected_peer_fingerprint=MALLORY.fingerprint)
    resp.receive_data(init.initiate())
    init.receive_data(resp.data_to_send())
    with pytest.raises(RemoteProtocolError, match="not the expected one"):
        resp.receive_data(init.data_to_send())
    assert resp.closed and resp.remote_identity is None


def _rogue_payload(identity: Identity, signed_static: bytes, **override: object) -> bytes:
    obj: dict[str, object] = {
        "id": identity.public_key,
        "sig": identity.sign(STATIC_KEY_SIGNATURE_PREFIX + signed_static),
    }
    obj.update(override)
    return msgpack.packb(obj, use_bin_type=True)  # type: ignore[no-any-return]


OTHER_STATIC = os.urandom(32)

# name -> function(rogue's real Noise static public key) -> handshake payload
ROGUE_PAYLOADS = {
    "signs another static key": lambda s: _rogue_payload(MALLORY, OTHER_STATIC),
    "swapped identity": lambda s: _rogue_payload(MALLORY, s, id=BOB.public_key),
    "wrong prefix": lambda s: msgpack.packb(
        {"id": MALLORY.public_key, "sig": MALLORY.sign(b"fairdeal-noise-static" + s)}
    ),
    "signature of zeros": lambda s: _rogue_payload(MALLORY, s, sig=bytes(64)),
    "missing sig": lambda s: msgpack.packb({"id": MALLORY.public_key}),
    "extra key": lambda s: _rogue_payload(MALLORY, s, name=b"x"),
    "short id": lambda s: _rogue_payload(MALLORY, s, id=MALLORY.public_key[:31]),
    "long sig": lambda s: _rogue_payload(MALLORY, s, sig=MALLORY.sign(s) + b"\x00"),
    "str sig": lambda s: _rogue_payload(MALLORY, s, sig="x" * 64),
    "list": lambda s: msgpack.packb([MALLORY.public_key, MALLORY.sign(s)]),
    "int keys": lambda s: msgpack.packb({1: MALLORY.public_key, 2: MALLORY.sign(s)}),
    "trailing data": lambda s: _rogue_payload(MALLORY, s) + b"\xc0",
    "not msgpack": lambda s: b"\xc1",
    "empty": lambda s: b"",
}


@pytest.mark.parametrize("case", sorted(ROGUE_PAYLOADS))
def test_rogue_responder_is_refused(case: str) -> None:
    victim = SecureChannel(ALICE, True)
    rogue = HandshakeState(initiator=False, prologue=DEFAULT_PROLOGUE)
    rogue.read_message(FrameDecoder().feed(victim.initiate())[0])
    message2 = rogue.write_message(ROGUE_PAYLOADS[case](rogue.local_static))
    with pytest.raises(RemoteProtocolError, match=r"handshake payload|signature"):
        victim.receive_data(encode_frame(message2))
    assert victim.closed
    with pytest.raises(LocalProtocolError):
        victim.data_to_send()


@pytest.mark.parametrize("case", sorted(ROGUE_PAYLOADS))
def test_rogue_initiator_is_refused(case: str) -> None:
    victim = SecureChannel(BOB, False)
    rogue = HandshakeState(initiator=True, prologue=DEFAULT_PROLOGUE)
    victim.receive_data(encode_frame(rogue.write_message()))
    rogue.read_message(FrameDecoder().feed(victim.data_to_send())[0])
    message3 = rogue.write_message(ROGUE_PAYLOADS[case](rogue.local_static))
    with pytest.raises(RemoteProtocolError, match=r"handshake payload|signature"):
        victim.receive_data(encode_frame(message3))
    assert victim.closed and victim.remote_identity is None


def test_rogue_with_valid_payload_is_accepted() -> None:
    """Control for the rogue tests: the same rogue with an honest payload succeeds."""
    victim = SecureChannel(ALICE, True)
    rogue = HandshakeState(initiator=False, prologue=DEFAULT_PROLOGUE)
    rogue.read_message(FrameDecoder().feed(victim.initiate())[0])
    message2 = rogue.write_message(_rogue_payload(MALLORY, rogue.local_static))
    assert victim.receive_data(encode_frame(message2)) == [
        HandshakeComplete(MALLORY.public_key, MALLORY.fingerprint)
    ]


_P = 2**255 - 19
#: Issue 41: the neutral point as an identity, and the one signature (R = B, S = 1) that "signs"
#: every message under it, a Noise static key included.
NEUTRAL = (1).to_bytes(32, "little")
FORGED = (4 * pow(5, _P - 2, _P) % _P).to_bytes(32, "little") + (1).to_bytes(32, "little")
NOT_STRICT = {
    "the neutral point": (NEUTRAL, "it is a point of small order"),
    "order 2": ((_P - 1).to_bytes(32, "little"), "it is a point of small order"),
    "the neutral point, negative zero": (
        (1 | 1 << 255).to_bytes(32, "little"),
        "its encoding is not canonical",
    ),
    "a y of no point": ((2).to_bytes(32, "little"), "it is not a point of the curve"),
}


@pytest.mark.parametrize("case", sorted(NOT_STRICT))
@pytest.mark.parametrize("initiator", [True, False])
def test_an_identity_that_is_not_a_strict_key_is_refused(case: str, initiator: bool) -> None:
    key, words = NOT_STRICT[case]
    payload = msgpack.packb({"id": key, "sig": FORGED}, use_bin_type=True)
    victim = SecureChannel(ALICE, initiator)
    rogue = HandshakeState(initiator=not initiator, prologue=DEFAULT_PROLOGUE)
    if initiator:
        rogue.read_message(FrameDecoder().feed(victim.initiate())[0])
    else:
        victim.receive_data(encode_frame(rogue.write_message()))
        rogue.read_message(FrameDecoder().feed(victim.data_to_send())[0])
    with pytest.raises(RemoteProtocolError, match="'id' is not a strict Ed25519 key: " + words):
        victim.receive_data(encode_frame(rogue.write_message(payload)))
    assert victim.closed and victim.remote_identity is None


def test_relayed_identity_payload_is_refused() -> None:
    """A man in the middle relays Bob's genuine payload: it is bound to Bob's Noise key, not his."""
    bob = SecureChannel(BOB, False)
    mitm_to_bob = HandshakeState(initiator=True, prologue=DEFAULT_PROLOGUE)
    bob.receive_data(encode_frame(mitm_to_bob.write_message()))
    bob_payload = mitm_to_bob.read_message(FrameDecoder().feed(bob.data_to_send())[0])
    alice = SecureChannel(ALICE, True, expected_peer_fingerprint=BOB.fingerprint)
    mitm_to_alice = HandshakeState(initiator=False, prologue=DEFAULT_PROLOGUE)
    mitm_to_alice.read_message(FrameDecoder().feed(alice.initiate())[0])
    with pytest.raises(RemoteProtocolError, match="signature"):
        alice.receive_data(encode_frame(mitm_to_alice.write_message(bob_payload)))


def test_message_1_with_payload_is_refused() -> None:
    resp = SecureChannel(BOB, False)
    rogue = HandshakeState(initiator=True, prologue=DEFAULT_PROLOGUE)
    with pytest.raises(RemoteProtocolError, match="empty payload"):
        resp.receive_data(encode_frame(rogue.write_message(b"hello")))


def test_prologue_mismatch() -> None:
    init = SecureChannel(ALICE, True, prologue=b"fairdeal/v2")
    resp = SecureChannel(BOB, False)
    resp.receive_data(init.initiate())
    with pytest.raises(RemoteProtocolError, match="authentication"):
        init.receive_data(resp.data_to_send())


# -- garbage -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "garbage",
    [
        b"\x00\x00",
        b"\x00\x05hello",
        encode_frame(random.Random(40).randbytes(40)),  # fixed: every pytest worker collects the same ids
        encode_frame(bytes(32)),
        b"GET / HTTP/1.1\r\n",
    ],
)
def test_garbage_before_the_handshake(garbage: bytes) -> None:
    resp = SecureChannel(BOB, False, peer="10.0.0.9:4444")
    try:
        resp.receive_data(garbage)
        resp.receive_eof()
    except RemoteProtocolError as exc:
        assert exc.peer == "10.0.0.9:4444"
        assert "10.0.0.9:4444" in str(exc)
    else:
        pytest.fail("garbage was accepted")
    assert resp.closed


def test_garbage_in_place_of_message_3() -> None:
    init = SecureChannel(ALICE, True)
    resp = SecureChannel(BOB, False)
    resp.receive_data(init.initiate())
    init.receive_data(resp.data_to_send())
    with pytest.raises(RemoteProtocolError):
        resp.receive_data(encode_frame(os.urandom(len(init.data_to_send()) - 2)))


@pytest.mark.parametrize(
    "garbage", [b"\x00\x00", encode_frame(random.Random(100).randbytes(100)), encode_frame(b"x" * 15)]
)
def test_garbage_after_the_handshake(garbage: bytes) -> None:
    init, resp, _, _ = _connect()
    assert _payloads(resp.receive_data(init.send_message(b"fine"))) == [b"fine"]
    with pytest.raises(RemoteProtocolError) as info:
        resp.receive_data(garbage)
    assert info.value.peer == ALICE.fingerprint  # labelled once the peer is known
    assert resp.closed
    with pytest.raises(LocalProtocolError, match="closed"):
        resp.send_message(b"anything")
    with pytest.raises(LocalProtocolError):
        resp.receive_data(init.send_message(b"more"))


def test_replayed_transport_frame_is_refused() -> None:
    init, resp, _, _ = _connect()
    wire = init.send_message(b"once")
    resp.receive_data(wire)
    with pytest.raises(RemoteProtocolError, match="authentication"):
        resp.receive_data(wire)


def test_empty_transport_message_is_refused() -> None:
    init, resp, _, _ = _connect()
    assert init._send_cipher is not None
    with pytest.raises(RemoteProtocolError, match="empty transport"):
        resp.receive_data(encode_frame(init._send_cipher.encrypt_with_ad(b"", b"")))


def test_eof_mid_message_and_mid_handshake() -> None:
    init, resp, _, _ = _connect()
    wire = init.send_message(b"x" * 100_000)
    resp.receive_data(wire[:70_000])
    with pytest.raises(RemoteProtocolError, match="middle"):
        resp.receive_eof()
    init = SecureChannel(ALICE, True)
    init.initiate()
    with pytest.raises(RemoteProtocolError, match="during the handshake"):
        init.receive_eof()


# -- limits and misuse ---------------------------------------------------------------------


def test_oversize_message_is_refused_both_ways() -> None:
    init, resp, _, _ = _connect()
    with pytest.raises(LocalProtocolError):
        init.send_message(b"x" * (MAX_APP_MESSAGE + 1))
    assert init.closed
    # A peer with a looser limit: refused as soon as the length header arrives.
    init = SecureChannel(ALICE, True, max_message_size=2 * MAX_APP_MESSAGE)
    resp = SecureChannel(BOB, False)
    resp.receive_data(init.initiate())
    init.receive_data(resp.data_to_send())
    resp.receive_data(init.data_to_send())
    wire = init.send_message(b"x" * (MAX_APP_MESSAGE + 1))
    first_frame_len = 2 + int.from_bytes(wire[:2], "big")
    with pytest.raises(RemoteProtocolError, match="exceeds the limit"):
        resp.receive_data(wire[:first_frame_len])


def test_api_misuse() -> None:
    with pytest.raises(LocalProtocolError, match="only the initiator"):
        SecureChannel(BOB, False).initiate()
    with pytest.raises(LocalProtocolError, match="initiate"):
        SecureChannel(ALICE, True).receive_data(b"\x00")
    init = SecureChannel(ALICE, True)
    init.initiate()
    with pytest.raises(LocalProtocolError, match="already"):
        init.initiate()
    with pytest.raises(LocalProtocolError, match="closed"):
        init.initiate()
    with pytest.raises(LocalProtocolError, match="before the handshake"):
        SecureChannel(ALICE, True).send_message(b"x")
    init, _resp, _, _ = _connect()
    with pytest.raises(LocalProtocolError):
        init.send_message(b"")
    init.close()
    init.close()
    with pytest.raises(LocalProtocolError):
        init.send_message(b"x")


def test_repr_shows_no_keys() -> None:
    static = os.urandom(32)
    init = SecureChannel(ALICE, True, static_key=static)
    text = repr(init)
    assert static.hex() not in text and ALICE.seed().hex() not in text
    assert "initiator" in text


def test_a_peer_that_greets_with_something_else_is_refused_at_once() -> None:
    """An HTTP or SSH server's first bytes read as a frame of thousands: not fairdeal, said at once."""
    from fairdeal.core.identity import Identity
    from fairdeal.net.secure import SecureChannel

    joiner = SecureChannel(Identity.generate(), True)
    joiner.initiate()
    with pytest.raises(RemoteProtocolError, match="that is not a fairdeal host"):
        joiner.receive_data(b"HTTP/1.1 400 Bad Request\r\n\r\n")
    host = SecureChannel(Identity.generate(), False)
    with pytest.raises(RemoteProtocolError, match="that is not a fairdeal client"):
        host.receive_data(b"SSH-2.0-OpenSSH_9.6\r\n")
