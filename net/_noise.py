"""Noise_XX_25519_ChaChaPoly_{SHA256,BLAKE2b} (Noise Protocol Framework rev 34), sans-I/O.

Only what fairdeal needs: the XX pattern, X25519, ChaCha20-Poly1305 and SHA-256 or
BLAKE2b, built on ``cryptography`` and ``hashlib``. Names follow the specification
(CipherState, SymmetricState, HandshakeState).

Errors: anything a peer sent wrong raises :class:`RemoteProtocolError`, calling things
in the wrong order raises :class:`LocalProtocolError`. A handshake that failed half-way
is unusable afterwards. No message or ``repr`` ever contains key material.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Final, Literal, NoReturn

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError

HashName = Literal["SHA256", "BLAKE2b"]

MAX_MESSAGE_LEN: Final = 65535
"""Largest Noise message (handshake or transport), in bytes."""
TAG_LEN: Final = 16
DH_LEN: Final = 32
KEY_LEN: Final = 32
MAX_NONCE: Final = 2**64 - 1
"""Reserved by the specification: a nonce that may never be used."""


# Noise hash name -> hashlib name (hashlib's blake2b defaults to the 64-byte digest Noise wants).
_HASHES: Final[dict[str, str]] = {"SHA256": "sha256", "BLAKE2b": "blake2b"}
_PATTERN_PREFIX: Final = "Noise_XX_25519_ChaChaPoly_"
# XX:  -> e   <- e, ee, s, es   -> s, se
_XX: Final = (("e",), ("e", "ee", "s", "es"), ("s", "se"))
_DH_TOKENS: Final = frozenset({"ee", "es", "se", "ss"})

KeyInput = X25519PrivateKey | bytes | None


def protocol_name(hash_name: HashName) -> str:
    """The full Noise protocol name for ``hash_name``."""
    if hash_name not in _HASHES:
        raise ValueError(f"unsupported Noise hash {hash_name!r}")
    return _PATTERN_PREFIX + hash_name


def parse_protocol_name(name: str) -> HashName:
    """The hash of a supported protocol name; ValueError for anything else."""
    if name == _PATTERN_PREFIX + "SHA256":
        return "SHA256"
    if name == _PATTERN_PREFIX + "BLAKE2b":
        return "BLAKE2b"
    raise ValueError(f"unsupported Noise protocol {name!r}")


def _chacha_nonce(n: int) -> bytes:
    return b"\x00\x00\x00\x00" + n.to_bytes(8, "little")


class CipherState:
    """A key ``k`` (possibly empty) and a 64-bit counter nonce ``n``.

    With no key, encryption and decryption return the input unchanged (spec 5.1).
    A failed decryption does not advance the nonce.
    """

    __slots__ = ("_aead", "_n")

    def __init__(self, key: bytes | None = None) -> None:
        self._aead: ChaCha20Poly1305 | None = None
        self._n = 0
        if key is not None:
            self.initialize_key(key)

    def initialize_key(self, key: bytes) -> None:
        if len(key) != KEY_LEN:
            raise LocalProtocolError("a cipher key is 32 bytes")
        self._aead = ChaCha20Poly1305(key)
        self._n = 0

    def has_key(self) -> bool:
        return self._aead is not None

    @property
    def nonce(self) -> int:
        """The nonce the next encryption or decryption will use."""
        return self._n

    def set_nonce(self, nonce: int) -> None:
        if not 0 <= nonce <= MAX_NONCE:
            raise LocalProtocolError("a nonce is an unsigned 64-bit integer")
        self._n = nonce

    def encrypt_with_ad(self, ad: bytes, plaintext: bytes) -> bytes:
        if self._aead is None:
            return bytes(plaintext)
        if len(plaintext) + TAG_LEN > MAX_MESSAGE_LEN:
            raise LocalProtocolError(f"plaintext of {len(plaintext)} bytes does not fit one Noise message")
        if self._n >= MAX_NONCE:
            raise LocalProtocolError("nonce exhausted: this session cannot send any more messages")
        out = self._aead.encrypt(_chacha_nonce(self._n), bytes(plaintext), bytes(ad))
        self._n += 1
        return out

    def decrypt_with_ad(self, ad: bytes, ciphertext: bytes) -> bytes:
        if self._aead is None:
            return bytes(ciphertext)
        if len(ciphertext) > MAX_MESSAGE_LEN:
            raise RemoteProtocolError(f"Noise message of {len(ciphertext)} bytes exceeds {MAX_MESSAGE_LEN}")
        if len(ciphertext) < TAG_LEN:
            raise RemoteProtocolError("encrypted message is shorter than its authentication tag")
        if self._n >= MAX_NONCE:
            raise RemoteProtocolError("peer exceeded the number of messages a session allows")
        try:
            out = self._aead.decrypt(_chacha_nonce(self._n), bytes(ciphertext), bytes(ad))
        except InvalidTag:
            raise RemoteProtocolError(
                "message failed authentication (tampered, reordered, or keys/prologue differ)"
            ) from None
        self._n += 1
        return out

    def rekey(self) -> None:
        """Replace the key by REKEY(k) (spec 4.2); the nonce is kept."""
        if self._aead is None:
            raise LocalProtocolError("cannot rekey a cipher that has no key")
        new_key = self._aead.encrypt(_chacha_nonce(MAX_NONCE), bytes(KEY_LEN), b"")[:KEY_LEN]
        self._aead = ChaCha20Poly1305(new_key)

    def __repr__(self) -> str:
        return f"CipherState(keyed={self.has_key()}, nonce={self._n})"


class SymmetricState:
    """Chaining key ``ck``, handshake hash ``h`` and the handshake CipherState (spec 5.2)."""

    __slots__ = ("_ck", "_h", "_hash", "_hashlen", "cipher")

    def __init__(self, name: str) -> None:
        self._hash = _HASHES[parse_protocol_name(name)]
        self._hashlen = hashlib.new(self._hash).digest_size
        raw = name.encode("ascii")
        self._h = raw.ljust(self._hashlen, b"\x00") if len(raw) <= self._hashlen else self._digest(raw)
        self._ck = self._h
        self.cipher = CipherState()

    def _digest(self, data: bytes) -> bytes:
        return hashlib.new(self._hash, data).digest()

    def _hmac(self, key: bytes, data: bytes) -> bytes:
        return hmac.digest(key, data, self._hash)

    def _hkdf(self, ikm: bytes, outputs: int) -> list[bytes]:
        temp_key = self._hmac(self._ck, ikm)
        out: list[bytes] = []
        prev = b""
        for i in range(1, outputs + 1):
            prev = self._hmac(temp_key, prev + bytes([i]))
            out.append(prev)
        return out

    @property
    def handshake_hash(self) -> bytes:
        return self._h

    def mix_key(self, ikm: bytes) -> None:
        self._ck, temp_k = self._hkdf(ikm, 2)
        self.cipher.initialize_key(temp_k[:KEY_LEN])

    def mix_hash(self, data: bytes) -> None:
        self._h = self._digest(self._h + data)

    def encrypt_and_hash(self, plaintext: bytes) -> bytes:
        ciphertext = self.cipher.encrypt_with_ad(self._h, plaintext)
        self.mix_hash(ciphertext)
        return ciphertext

    def decrypt_and_hash(self, ciphertext: bytes) -> bytes:
        plaintext = self.cipher.decrypt_with_ad(self._h, ciphertext)
        self.mix_hash(ciphertext)
        return plaintext

    def split(self) -> tuple[CipherState, CipherState]:
        """The transport ciphers: the initiator sends with the first."""
        k1, k2 = self._hkdf(b"", 2)
        return CipherState(k1[:KEY_LEN]), CipherState(k2[:KEY_LEN])

    def __repr__(self) -> str:
        return f"SymmetricState(hashlen={self._hashlen}, cipher={self.cipher!r})"


def _private_key(key: KeyInput) -> X25519PrivateKey:
    if key is None:
        return X25519PrivateKey.generate()
    if isinstance(key, X25519PrivateKey):
        return key
    if len(key) != DH_LEN:
        raise LocalProtocolError("an X25519 private key is 32 bytes")
    return X25519PrivateKey.from_private_bytes(bytes(key))


def _public_bytes(key: X25519PrivateKey) -> bytes:
    return key.public_key().public_bytes_raw()


def _dh(private: X25519PrivateKey, public: bytes) -> bytes:
    # Only remote keys can be bad: cryptography refuses low-order points (all-zero output).
    try:
        return private.exchange(X25519PublicKey.from_public_bytes(public))
    except ValueError:
        raise RemoteProtocolError("peer sent an invalid X25519 public key") from None


def _overhead(tokens: tuple[str, ...], has_key: bool) -> int:
    """Bytes a handshake message adds around its payload."""
    size = 0
    for token in tokens:
        if token == "e":
            size += DH_LEN
        elif token == "s":
            size += DH_LEN + (TAG_LEN if has_key else 0)
        elif token in _DH_TOKENS:
            has_key = True
    return size + (TAG_LEN if has_key else 0)


class HandshakeState:
    """One side of a Noise XX handshake.

    Call :meth:`write_message` and :meth:`read_message` in turn (the initiator writes
    first); after the third message :attr:`is_complete` is true and the transport
    ciphers are available. ``static_key`` defaults to a fresh key; ``ephemeral`` is
    for test vectors only — reusing an ephemeral key destroys security.
    """

    __slots__ = ("_ciphers", "_e", "_failed", "_index", "_initiator", "_name", "_re", "_rs", "_s", "_ss")

    def __init__(
        self,
        *,
        initiator: bool,
        hash_name: HashName = "SHA256",
        prologue: bytes = b"",
        static_key: KeyInput = None,
        ephemeral: KeyInput = None,
    ) -> None:
        self._initiator = initiator
        self._name = protocol_name(hash_name)
        self._ss = SymmetricState(self._name)
        self._ss.mix_hash(bytes(prologue))
        self._s = _private_key(static_key)
        self._e: X25519PrivateKey | None = None if ephemeral is None else _private_key(ephemeral)
        self._rs: bytes | None = None
        self._re: bytes | None = None
        self._index = 0
        self._failed = False
        self._ciphers: tuple[CipherState, CipherState] | None = None

    # -- state -------------------------------------------------------------------------

    @property
    def initiator(self) -> bool:
        return self._initiator

    @property
    def protocol_name(self) -> str:
        return self._name

    @property
    def is_complete(self) -> bool:
        return self._ciphers is not None

    @property
    def is_my_turn(self) -> bool:
        """True when the next step is :meth:`write_message`."""
        return not self.is_complete and (self._index % 2 == 0) == self._initiator

    @property
    def local_static(self) -> bytes:
        """Our static public key."""
        return _public_bytes(self._s)

    @property
    def remote_static(self) -> bytes | None:
        """The peer's static public key (32 bytes), once received."""
        return self._rs

    @property
    def handshake_hash(self) -> bytes:
        """``h``: final (and equal on both sides) once the handshake is complete."""
        return self._ss.handshake_hash

    @property
    def cipher_states(self) -> tuple[CipherState, CipherState]:
        """The split transport ciphers ``(c1, c2)``; the initiator sends with ``c1``."""
        if self._ciphers is None:
            raise LocalProtocolError("the handshake is not complete")
        return self._ciphers

    @property
    def send_cipher(self) -> CipherState:
        c1, c2 = self.cipher_states
        return c1 if self._initiator else c2

    @property
    def receive_cipher(self) -> CipherState:
        c1, c2 = self.cipher_states
        return c2 if self._initiator else c1

    # -- messages ----------------------------------------------------------------------

    def _check_step(self, writing: bool) -> tuple[str, ...]:
        if self._failed:
            raise LocalProtocolError("the handshake failed earlier and cannot continue")
        if self.is_complete:
            raise LocalProtocolError("the handshake is already complete")
        if self.is_my_turn != writing:
            raise LocalProtocolError(
                "it is our turn to write a handshake message" if self.is_my_turn else "expected to read first"
            )
        return _XX[self._index]

    def _abort(self, exc: BaseException) -> NoReturn:
        self._failed = True
        raise exc

    def _finish_message(self) -> None:
        self._index += 1
        if self._index == len(_XX):
            self._ciphers = self._ss.split()

    def _mix_dh(self, token: str) -> None:
        # es: DH(initiator's e, responder's s); se: DH(initiator's s, responder's e).
        assert self._e is not None and self._re is not None
        if token == "ee":
            self._ss.mix_key(_dh(self._e, self._re))
        elif token == "es":
            if self._initiator:
                assert self._rs is not None
                self._ss.mix_key(_dh(self._e, self._rs))
            else:
                self._ss.mix_key(_dh(self._s, self._re))
        elif token == "se":
            if self._initiator:
                self._ss.mix_key(_dh(self._s, self._re))
            else:
                assert self._rs is not None
                self._ss.mix_key(_dh(self._e, self._rs))
        else:  # pragma: no cover - XX has no other DH token
            raise AssertionError(token)

    def write_message(self, payload: bytes = b"") -> bytes:
        """The next handshake message, carrying ``payload`` (encrypted once a key exists)."""
        tokens = self._check_step(writing=True)
        size = _overhead(tokens, self._ss.cipher.has_key()) + len(payload)
        if size > MAX_MESSAGE_LEN:
            raise LocalProtocolError(f"handshake payload of {len(payload)} bytes is too large")
        try:
            out = bytearray()
            for token in tokens:
                if token == "e":
                    if self._e is None:
                        self._e = X25519PrivateKey.generate()
                    e_pub = _public_bytes(self._e)
                    out += e_pub
                    self._ss.mix_hash(e_pub)
                elif token == "s":
                    out += self._ss.encrypt_and_hash(_public_bytes(self._s))
                else:
                    self._mix_dh(token)
            out += self._ss.encrypt_and_hash(bytes(payload))
        except BaseException as exc:
            self._abort(exc)
        self._finish_message()
        return bytes(out)

    def read_message(self, message: bytes) -> bytes:
        """Process the peer's next handshake message and return its payload."""
        tokens = self._check_step(writing=False)
        if len(message) > MAX_MESSAGE_LEN:
            self._abort(RemoteProtocolError(f"handshake message of {len(message)} bytes is too long"))
        if len(message) < _overhead(tokens, self._ss.cipher.has_key()):
            self._abort(RemoteProtocolError(f"handshake message {self._index + 1} is too short"))
        view = memoryview(bytes(message))
        pos = 0
        try:
            for token in tokens:
                if token == "e":
                    self._re = bytes(view[pos : pos + DH_LEN])
                    pos += DH_LEN
                    self._ss.mix_hash(self._re)
                elif token == "s":
                    size = DH_LEN + (TAG_LEN if self._ss.cipher.has_key() else 0)
                    self._rs = self._ss.decrypt_and_hash(bytes(view[pos : pos + size]))
                    pos += size
                else:
                    self._mix_dh(token)
            payload = self._ss.decrypt_and_hash(bytes(view[pos:]))
        except RemoteProtocolError as exc:
            self._abort(RemoteProtocolError(f"handshake message {self._index + 1}: {exc.reason}"))
        except BaseException as exc:
            self._abort(exc)
        self._finish_message()
        return payload

    def __repr__(self) -> str:
        role = "initiator" if self._initiator else "responder"
        return f"HandshakeState({self._name}, {role}, message={self._index}, complete={self.is_complete})"
