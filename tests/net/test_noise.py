"""Noise XX: public test vectors, interop with the `noiseprotocol` package, misuse and tampering."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from noise.connection import Keypair, NoiseConnection

from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError
from fairdeal.net._noise import (
    MAX_MESSAGE_LEN,
    MAX_NONCE,
    CipherState,
    HandshakeState,
    HashName,
    parse_protocol_name,
    protocol_name,
)

VECTORS = Path(__file__).resolve().parents[2] / ".." / "shared" / "vectors" / "noise-xx-vectors.json"
HASHES: list[HashName] = ["SHA256", "BLAKE2b"]


def _load_vectors() -> list[dict[str, Any]]:
    if not VECTORS.is_file():
        pytest.skip(f"Noise test vectors not found at {VECTORS}")
    data = json.loads(VECTORS.read_text())
    wanted = []
    for vector in data["vectors"]:
        try:
            parse_protocol_name(vector["protocol_name"])
        except ValueError:
            continue
        wanted.append(vector)
    if not wanted:
        pytest.skip("no XX 25519 ChaChaPoly SHA256/BLAKE2b vectors in the file")
    return wanted


def _pair(hash_name: HashName = "SHA256", prologue: bytes = b"p") -> tuple[HandshakeState, HandshakeState]:
    return (
        HandshakeState(initiator=True, hash_name=hash_name, prologue=prologue),
        HandshakeState(initiator=False, hash_name=hash_name, prologue=prologue),
    )


def _handshake(init: HandshakeState, resp: HandshakeState) -> None:
    resp.read_message(init.write_message(b""))
    init.read_message(resp.write_message(b"r"))
    resp.read_message(init.write_message(b"i"))


def _pub(key: bytes) -> bytes:
    return X25519PrivateKey.from_private_bytes(key).public_key().public_bytes_raw()


# -- vectors ---------------------------------------------------------------------------


def test_vectors() -> None:
    checked = set()
    for vector in _load_vectors():
        x = bytes.fromhex
        hash_name = parse_protocol_name(vector["protocol_name"])
        init = HandshakeState(
            initiator=True,
            hash_name=hash_name,
            prologue=x(vector["init_prologue"]),
            static_key=x(vector["init_static"]),
            ephemeral=x(vector["init_ephemeral"]),
        )
        resp = HandshakeState(
            initiator=False,
            hash_name=hash_name,
            prologue=x(vector["resp_prologue"]),
            static_key=x(vector["resp_static"]),
            ephemeral=x(vector["resp_ephemeral"]),
        )
        assert len(vector["messages"]) >= 3
        for i, message in enumerate(vector["messages"]):
            payload, expected = x(message["payload"]), x(message["ciphertext"])
            sender, receiver = (init, resp) if i % 2 == 0 else (resp, init)
            if i < 3:
                assert not sender.is_complete
                ciphertext = sender.write_message(payload)
                assert ciphertext == expected, f"{hash_name} handshake message {i + 1}"
                assert receiver.read_message(ciphertext) == payload
            else:
                ciphertext = sender.send_cipher.encrypt_with_ad(b"", payload)
                assert ciphertext == expected, f"{hash_name} transport message {i + 1}"
                assert receiver.receive_cipher.decrypt_with_ad(b"", ciphertext) == payload
        assert init.is_complete and resp.is_complete
        assert init.handshake_hash == resp.handshake_hash == x(vector["handshake_hash"])
        assert init.remote_static == _pub(x(vector["resp_static"]))
        assert resp.remote_static == _pub(x(vector["init_static"]))
        checked.add(hash_name)
    assert checked  # at least one vector really ran


# -- interop with noiseprotocol --------------------------------------------------------


def _theirs(hash_name: HashName, initiator: bool, static: bytes, prologue: bytes) -> NoiseConnection:
    conn = NoiseConnection.from_name(protocol_name(hash_name).encode())
    if initiator:
        conn.set_as_initiator()
    else:
        conn.set_as_responder()
    conn.set_keypair_from_private_bytes(Keypair.STATIC, static)
    conn.set_prologue(prologue)
    conn.start_handshake()
    return conn


@pytest.mark.parametrize("hash_name", HASHES)
@pytest.mark.parametrize("we_initiate", [True, False], ids=["we-initiate", "we-respond"])
def test_interop_with_noiseprotocol(hash_name: HashName, we_initiate: bool) -> None:
    prologue = b"interop prologue"
    our_static, their_static = os.urandom(32), os.urandom(32)
    ours = HandshakeState(
        initiator=we_initiate, hash_name=hash_name, prologue=prologue, static_key=our_static
    )
    theirs = _theirs(hash_name, not we_initiate, their_static, prologue)
    payloads = [b"first", b"second payload", b"third" * 50]
    for i, payload in enumerate(payloads):
        if (i % 2 == 0) == we_initiate:
            assert theirs.read_message(ours.write_message(payload)) == payload
        else:
            assert ours.read_message(bytes(theirs.write_message(payload))) == payload
    assert ours.is_complete and theirs.handshake_finished
    assert ours.handshake_hash == theirs.get_handshake_hash()
    assert ours.remote_static == _pub(their_static)
    for n in range(5):
        message = os.urandom(n * 37 + 1)
        assert theirs.decrypt(ours.send_cipher.encrypt_with_ad(b"", message)) == message
        assert ours.receive_cipher.decrypt_with_ad(b"", theirs.encrypt(message)) == message
    big = os.urandom(MAX_MESSAGE_LEN - 16)
    assert theirs.decrypt(ours.send_cipher.encrypt_with_ad(b"", big)) == big
    # Rekey follows the spec too.
    ours.send_cipher.rekey()
    theirs.rekey_inbound_cipher()
    assert theirs.decrypt(ours.send_cipher.encrypt_with_ad(b"", b"after rekey")) == b"after rekey"


def test_ciphers_are_paired_by_role() -> None:
    init, resp = _pair()
    _handshake(init, resp)
    assert init.cipher_states == (init.send_cipher, init.receive_cipher)
    assert resp.cipher_states == (resp.receive_cipher, resp.send_cipher)
    assert resp.receive_cipher.decrypt_with_ad(b"", init.send_cipher.encrypt_with_ad(b"", b"a")) == b"a"
    assert init.receive_cipher.decrypt_with_ad(b"", resp.send_cipher.encrypt_with_ad(b"", b"b")) == b"b"


def test_prologue_mismatch_fails() -> None:
    init = HandshakeState(initiator=True, prologue=b"one")
    resp = HandshakeState(initiator=False, prologue=b"two")
    resp.read_message(init.write_message())
    with pytest.raises(RemoteProtocolError, match="handshake message 2"):
        init.read_message(resp.write_message())


def test_hash_mismatch_fails() -> None:
    init = HandshakeState(initiator=True, hash_name="SHA256")
    resp = HandshakeState(initiator=False, hash_name="BLAKE2b")
    resp.read_message(init.write_message())
    with pytest.raises(RemoteProtocolError):
        init.read_message(resp.write_message())


# -- tampering -------------------------------------------------------------------------


@pytest.mark.parametrize("step", [1, 2])
def test_tampered_handshake_message(step: int) -> None:
    init, resp = _pair()
    resp.read_message(init.write_message())
    message2 = resp.write_message(b"payload")
    if step == 1:
        bad = bytearray(message2)
        bad[40] ^= 1  # inside the encrypted static key
        with pytest.raises(RemoteProtocolError, match="authentication"):
            init.read_message(bytes(bad))
        with pytest.raises(LocalProtocolError, match="failed earlier"):
            init.write_message()
        return
    init.read_message(message2)
    message3 = bytearray(init.write_message(b"x"))
    message3[-1] ^= 0x80  # the payload tag
    with pytest.raises(RemoteProtocolError):
        resp.read_message(bytes(message3))
    assert not resp.is_complete


def test_tampered_ephemeral_breaks_the_handshake() -> None:
    init, resp = _pair()
    message1 = bytearray(init.write_message())
    message1[0] ^= 1
    resp.read_message(bytes(message1))  # not authenticated yet...
    with pytest.raises(RemoteProtocolError):
        init.read_message(resp.write_message())  # ...but the transcripts now differ


def test_tampered_transport_message_keeps_the_nonce() -> None:
    init, resp = _pair()
    _handshake(init, resp)
    good = init.send_cipher.encrypt_with_ad(b"", b"hello")
    bad = bytearray(good)
    bad[0] ^= 1
    with pytest.raises(RemoteProtocolError, match="authentication"):
        resp.receive_cipher.decrypt_with_ad(b"", bytes(bad))
    assert resp.receive_cipher.nonce == 0
    assert resp.receive_cipher.decrypt_with_ad(b"", good) == b"hello"


def test_reordered_and_replayed_transport_messages_fail() -> None:
    init, resp = _pair()
    _handshake(init, resp)
    first = init.send_cipher.encrypt_with_ad(b"", b"1")
    second = init.send_cipher.encrypt_with_ad(b"", b"2")
    with pytest.raises(RemoteProtocolError):
        resp.receive_cipher.decrypt_with_ad(b"", second)
    assert resp.receive_cipher.decrypt_with_ad(b"", first) == b"1"
    with pytest.raises(RemoteProtocolError):
        resp.receive_cipher.decrypt_with_ad(b"", first)


@pytest.mark.parametrize(
    ("step", "length"),
    [(1, 31), (1, 0), (2, 32 + 48 + 15), (2, 31), (3, 48 + 15), (1, MAX_MESSAGE_LEN + 1)],
)
def test_short_or_long_handshake_messages(step: int, length: int) -> None:
    init, resp = _pair()
    if step >= 2:
        resp.read_message(init.write_message())
    if step == 3:
        init.read_message(resp.write_message())
    receiver = {1: resp, 2: init, 3: resp}[step]
    with pytest.raises(RemoteProtocolError, match=r"too (short|long)"):
        receiver.read_message(os.urandom(length))


def test_short_transport_message() -> None:
    init, resp = _pair()
    _handshake(init, resp)
    with pytest.raises(RemoteProtocolError, match="shorter"):
        resp.receive_cipher.decrypt_with_ad(b"", b"\x00" * 15)
    with pytest.raises(RemoteProtocolError, match="exceeds"):
        resp.receive_cipher.decrypt_with_ad(b"", b"\x00" * (MAX_MESSAGE_LEN + 1))


def test_low_order_ephemeral_is_refused() -> None:
    resp = HandshakeState(initiator=False)
    resp.read_message(bytes(32))  # the all-zero point, payload empty
    with pytest.raises(RemoteProtocolError, match="invalid X25519"):
        resp.write_message()
    with pytest.raises(LocalProtocolError):
        resp.write_message()


# -- misuse ----------------------------------------------------------------------------


def test_order_misuse() -> None:
    init, resp = _pair()
    with pytest.raises(LocalProtocolError):
        resp.write_message()
    with pytest.raises(LocalProtocolError):
        init.read_message(bytes(32))
    with pytest.raises(LocalProtocolError, match="not complete"):
        _ = init.send_cipher
    message1 = init.write_message()
    with pytest.raises(LocalProtocolError):
        init.write_message()
    resp.read_message(message1)
    with pytest.raises(LocalProtocolError):
        resp.read_message(message1)
    init.read_message(resp.write_message())
    resp.read_message(init.write_message())
    for hs in (init, resp):
        assert hs.is_complete and not hs.is_my_turn
        with pytest.raises(LocalProtocolError, match="already complete"):
            hs.write_message()
        with pytest.raises(LocalProtocolError, match="already complete"):
            hs.read_message(b"x" * 64)


def test_oversized_payload_is_refused_without_breaking_the_handshake() -> None:
    init, resp = _pair()
    with pytest.raises(LocalProtocolError, match="too large"):
        init.write_message(b"x" * (MAX_MESSAGE_LEN - 31))
    message1 = init.write_message(b"x" * (MAX_MESSAGE_LEN - 32))
    assert len(message1) == MAX_MESSAGE_LEN
    resp.read_message(message1)
    with pytest.raises(LocalProtocolError, match="too large"):
        resp.write_message(b"x" * (MAX_MESSAGE_LEN - 32 - 48 - 16 + 1))
    init.read_message(resp.write_message(b"x" * (MAX_MESSAGE_LEN - 32 - 48 - 16)))


def test_nonce_exhaustion() -> None:
    sender, receiver = CipherState(bytes(32)), CipherState(bytes(32))
    sender.set_nonce(MAX_NONCE - 1)
    receiver.set_nonce(MAX_NONCE - 1)
    assert receiver.decrypt_with_ad(b"ad", sender.encrypt_with_ad(b"ad", b"last")) == b"last"
    assert sender.nonce == MAX_NONCE
    with pytest.raises(LocalProtocolError, match="nonce exhausted"):
        sender.encrypt_with_ad(b"", b"one too many")
    with pytest.raises(RemoteProtocolError):
        receiver.decrypt_with_ad(b"", b"\x00" * 20)
    with pytest.raises(LocalProtocolError):
        sender.set_nonce(MAX_NONCE + 1)


def test_nonce_layout_is_little_endian_after_four_zero_bytes() -> None:
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    key = os.urandom(32)
    cs = CipherState(key)
    cs.set_nonce(0x0102030405060708)
    expected = ChaCha20Poly1305(key).encrypt(bytes(4) + bytes(range(8, 0, -1)), b"m", b"a")
    assert cs.encrypt_with_ad(b"a", b"m") == expected


def test_unkeyed_cipher_passes_through() -> None:
    cs = CipherState()
    assert not cs.has_key()
    assert cs.encrypt_with_ad(b"ad", b"plain") == b"plain"
    assert cs.decrypt_with_ad(b"ad", b"plain") == b"plain"
    with pytest.raises(LocalProtocolError):
        cs.rekey()


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        protocol_name("SHA512")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        parse_protocol_name("Noise_NN_25519_ChaChaPoly_SHA256")
    with pytest.raises(LocalProtocolError):
        HandshakeState(initiator=True, static_key=b"short")
    with pytest.raises(LocalProtocolError):
        CipherState(b"short")


def test_no_key_material_in_reprs_or_errors() -> None:
    static, ephemeral = os.urandom(32), os.urandom(32)
    init = HandshakeState(initiator=True, static_key=static, ephemeral=ephemeral)
    resp = HandshakeState(initiator=False)
    resp.read_message(init.write_message())
    message2 = bytearray(resp.write_message())
    message2[-1] ^= 1
    with pytest.raises(RemoteProtocolError) as info:
        init.read_message(bytes(message2))
    texts = [repr(init), repr(init._ss), repr(init._ss.cipher), str(info.value)]
    secrets = [static, ephemeral, _pub(static), init._ss._ck, init.handshake_hash]
    for text in texts:
        for secret in secrets:
            assert secret.hex() not in text and repr(secret) not in text
