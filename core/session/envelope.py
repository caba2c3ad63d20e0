"""Signed, hash-chained log entries (envelopes) and their strict wire form.

An envelope is msgpack ``[version, game_id, seq, prev, anchor, seat, kind, body, sig]``.
The author signs ``b"fairdeal/envelope/v2\\0"`` followed by the msgpack of
``[version, game_id, anchor, seat, kind, body]``: what it wrote and the point of the
log it answers (``anchor``, the hash of the entry that made this entry owed), not
where the host puts it. ``seq`` and ``prev`` place the entry in the log: the entry's
hash, which the next entry carries as ``prev``, is SHA-256 over
``b"fairdeal/entry/v1\\0"`` and the whole encoded envelope, so the chain still fixes
the order. An entry that only one seat may write at that point answers the entry
before it (``anchor == prev``); entries that several seats owe at once share the
anchor of the entry that made them owed, and the host puts them in the order they
arrive.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any

from .._msgpack import pack, strict_unpack
from ..errors import RemoteProtocolError
from ..identity import Identity, verify_signature
from ..text import shows_as_is

FORMAT_VERSION = 2
GAME_ID_BYTES = 16
HASH_BYTES = 32
MAX_ENVELOPE_BYTES = 1 << 20
MAX_KIND = 32
GENESIS = bytes(HASH_BYTES)
_SIGN_TAG = b"fairdeal/envelope/v2\x00"
_HASH_TAG = b"fairdeal/entry/v1\x00"


def unpack(data: bytes, *, who: int | None = None, peer: str | None = None) -> Any:
    """Strict msgpack decoding of an envelope: one object, bounded sizes."""
    return strict_unpack(
        data,
        max_bytes=MAX_ENVELOPE_BYTES,
        max_str=MAX_ENVELOPE_BYTES,
        max_bin=MAX_ENVELOPE_BYTES,
        max_array=1 << 16,
        max_map=1 << 12,
        seat=who,
        peer=peer,
    )


@dataclass(frozen=True, slots=True)
class Envelope:
    """One log entry. ``body`` holds msgpack-native values only."""

    version: int
    game_id: bytes
    seq: int
    prev: bytes
    anchor: bytes
    seat: int
    kind: str
    body: Any
    sig: bytes = b""

    def signed_part(self) -> bytes:
        return _SIGN_TAG + pack([self.version, self.game_id, self.anchor, self.seat, self.kind, self.body])

    def encode(self) -> bytes:
        return pack(
            [
                self.version,
                self.game_id,
                self.seq,
                self.prev,
                self.anchor,
                self.seat,
                self.kind,
                self.body,
                self.sig,
            ]
        )

    def signed(self, identity: Identity) -> Envelope:
        return replace(self, sig=identity.sign(self.signed_part()))

    def placed(self, seq: int, prev: bytes) -> Envelope:
        """The same entry put at ``seq`` after ``prev`` (the host places it; the signature holds)."""
        return replace(self, seq=seq, prev=prev)

    def writing(self) -> bytes:
        """A digest of what the author signed and its signature: the same wherever the host placed
        the entry (the key by which a seat's entry for one obligation is found again)."""
        return hashlib.sha256(self.signed_part() + self.sig).digest()

    def same_writing(self, other: Envelope) -> bool:
        """Whether ``other`` is this entry as its author wrote it, wherever the host placed it."""
        return self.signed_part() == other.signed_part() and self.sig == other.sig

    def verify(self, public_key: bytes) -> bool:
        return verify_signature(public_key, self.sig, self.signed_part())


def entry_hash(encoded: bytes) -> bytes:
    return hashlib.sha256(_HASH_TAG + encoded).digest()


def decode_envelope(data: bytes, *, peer: str | None = None) -> Envelope:
    """Parse an encoded envelope, checking every field's type and size (not the signature)."""
    obj = unpack(data, peer=peer)
    if isinstance(obj, list) and obj and obj[0] != FORMAT_VERSION:
        raise RemoteProtocolError(f"unsupported format version {obj[0]!r}", peer=peer)
    if not isinstance(obj, list) or len(obj) != 9:
        raise RemoteProtocolError("an envelope is a list of 9 fields", peer=peer)
    version, game_id, seq, prev, anchor, seat, kind, body, sig = obj
    seat_ok = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < 64
    who = seat if seat_ok else None
    checks = [
        (isinstance(version, int) and version == FORMAT_VERSION, f"unsupported format version {version!r}"),
        (isinstance(game_id, bytes) and len(game_id) == GAME_ID_BYTES, "bad game id"),
        (isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq < 2**32, "bad sequence number"),
        (isinstance(prev, bytes) and len(prev) == HASH_BYTES, "bad previous-entry hash"),
        (isinstance(anchor, bytes) and len(anchor) == HASH_BYTES, "bad anchor hash"),
        (seat_ok, "bad seat"),
        (shows_as_is(kind, MAX_KIND), "bad kind"),
        (isinstance(sig, bytes) and len(sig) == 64, "bad signature field"),
    ]
    for ok, reason in checks:
        if not ok:
            raise RemoteProtocolError(reason, seat=who, peer=peer)
    return Envelope(version, game_id, seq, prev, anchor, seat, kind, body, sig)
