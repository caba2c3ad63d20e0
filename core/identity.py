"""Ed25519 identities: the long-term key that signs a player's log entries.

Pure key handling, no files: storing the key is the front end's job.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from functools import cached_property

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .rng import Rng

PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64


def fingerprint(public_key: bytes) -> str:
    """A short, typeable name of a public key: ``fd1-xxxx-xxxx-xxxx-xxxx``.

    80 bits of SHA-256 over a domain-separated encoding, in lower-case base32.
    """
    if len(public_key) != PUBLIC_KEY_BYTES:
        raise ValueError("an identity public key is 32 bytes")
    digest = hashlib.sha256(b"fairdeal/fingerprint/v1\x00" + public_key).digest()[:10]
    text = base64.b32encode(digest).decode().lower()
    return "fd1-" + "-".join(text[i : i + 4] for i in range(0, 16, 4))


def verify_signature(public_key: bytes, signature: bytes, message: bytes) -> bool:
    """True when ``signature`` is a valid Ed25519 signature of ``message``."""
    if len(public_key) != PUBLIC_KEY_BYTES or len(signature) != SIGNATURE_BYTES:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Identity:
    """A private Ed25519 identity key. ``repr`` never shows the secret."""

    _key: Ed25519PrivateKey

    @staticmethod
    def generate(rng: Rng | None = None) -> Identity:
        if rng is None:
            return Identity(Ed25519PrivateKey.generate())
        return Identity(Ed25519PrivateKey.from_private_bytes(rng.bytes(32)))

    @staticmethod
    def from_seed(seed: bytes) -> Identity:
        return Identity(Ed25519PrivateKey.from_private_bytes(seed))

    def seed(self) -> bytes:
        """The 32-byte secret seed, for storing the key. Keep it secret."""
        from cryptography.hazmat.primitives import serialization

        return self._key.private_bytes(
            serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
        )

    @cached_property
    def public_key(self) -> bytes:
        from cryptography.hazmat.primitives import serialization

        return self._key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)

    @cached_property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def sign(self, message: bytes) -> bytes:
        return self._key.sign(message)

    def __repr__(self) -> str:
        return f"Identity({self.fingerprint})"
