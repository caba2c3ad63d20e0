"""Signed, hash-chained log entries (envelopes) and their strict wire form.

An envelope is the msgpack array ``[version, game_id, seat, kind, body, anchor_seq, anchor,
anchor_sig, sig, seq, prev, placed]``: first what its author wrote and signed, then where the
host put it and the host's signature of that.

* The author signs ``b"fairdeal/envelope/v3\\0"`` followed by the msgpack of the first eight
  fields: what it wrote and the point of the log it answers — the entry ``anchor_seq`` whose
  hash is ``anchor``, with ``anchor_sig`` the host's placement signature of that entry, copied
  from it (the author's proof of which log it saw).
* The *writing* of an entry, the same wherever it is placed, is the SHA-256 of
  ``b"fairdeal/writing/v1\\0"``, the signed message and ``sig``.
* The host places it: ``seq`` (its position) and ``prev`` (the hash of entry ``seq − 1``). The
  entry's hash is the SHA-256 of ``b"fairdeal/entry/v3\\0"``, the log's game id, ``seq`` (4 bytes,
  big-endian), ``prev`` and the writing; the host signs ``b"fairdeal/placement/v1\\0"``, the game
  id, ``seq`` and that hash (``placed``). So the host's signature covers every entry it ever
  placed, and two of its placements of one ``seq`` with different hashes prove that it forked
  the log.

Receivers refuse an envelope that is not in its canonical form (the one :meth:`Envelope.encode`
writes), so every peer writes the same bytes and a signature is checked over exactly what came.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any

from .._msgpack import pack, strict_unpack
from ..errors import RemoteProtocolError
from ..identity import Identity, verify_signature
from ..text import shows_as_is

FORMAT_VERSION = 3
FIELDS = 12
GAME_ID_BYTES = 16
HASH_BYTES = 32
SIG_BYTES = 64
MAX_ENVELOPE_BYTES = 1 << 20
MAX_KIND = 32
MAX_SEQ = 2**32
GENESIS = bytes(HASH_BYTES)
NO_SIG = bytes(SIG_BYTES)
SIGN_TAG = b"fairdeal/envelope/v3\x00"
WRITING_TAG = b"fairdeal/writing/v1\x00"
HASH_TAG = b"fairdeal/entry/v3\x00"
PLACEMENT_TAG = b"fairdeal/placement/v1\x00"


def unpack(data: bytes, *, who: int | None = None, peer: str | None = None) -> Any:
    """Strict msgpack decoding of an envelope: one object, bounded sizes, no float anywhere (a
    float is no field's type; refused here, whatever its width, it is a damaged entry)."""
    obj = strict_unpack(
        data,
        max_bytes=MAX_ENVELOPE_BYTES,
        max_str=MAX_ENVELOPE_BYTES,
        max_bin=MAX_ENVELOPE_BYTES,
        max_array=1 << 16,
        max_map=1 << 12,
        seat=who,
        peer=peer,
    )
    if _holds_float(obj):
        raise RemoteProtocolError("a float in an entry (no field of any entry is one)", seat=who, peer=peer)
    return obj


def _holds_float(obj: Any) -> bool:
    todo = [obj]
    while todo:
        item = todo.pop()
        if isinstance(item, float):
            return True
        if isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, dict):
            todo.extend(item.values())
    return False


def entry_hash_of(game_id: bytes, seq: int, prev: bytes, writing: bytes) -> bytes:
    """The hash of the entry placed at ``seq`` after ``prev`` with this writing, in ``game_id``'s log."""
    return hashlib.sha256(HASH_TAG + game_id + seq.to_bytes(4, "big") + prev + writing).digest()


def placement_message(game_id: bytes, seq: int, entry_hash: bytes) -> bytes:
    """What the host signs to place the entry with hash ``entry_hash`` at ``seq``."""
    return PLACEMENT_TAG + game_id + seq.to_bytes(4, "big") + entry_hash


def placed_by(host_key: bytes, game_id: bytes, seq: int, entry_hash: bytes, sig: bytes) -> bool:
    """Whether ``sig`` is the host's placement signature of ``entry_hash`` at ``seq``."""
    return verify_signature(host_key, sig, placement_message(game_id, seq, entry_hash))


@dataclass(frozen=True, slots=True)
class Envelope:
    """One log entry. ``body`` holds msgpack-native values only.

    The author's part: ``version`` .. ``anchor_sig`` and its signature ``sig``. The host's:
    ``seq``, ``prev`` and ``placed`` (all zero until it places the entry).
    """

    version: int
    game_id: bytes
    seat: int
    kind: str
    body: Any
    anchor_seq: int = 0
    anchor: bytes = GENESIS
    anchor_sig: bytes = NO_SIG
    sig: bytes = NO_SIG
    seq: int = 0
    prev: bytes = GENESIS
    placed: bytes = NO_SIG

    def signed_part(self) -> bytes:
        """The message the author signs."""
        return SIGN_TAG + pack(
            [
                self.version,
                self.game_id,
                self.seat,
                self.kind,
                self.body,
                self.anchor_seq,
                self.anchor,
                self.anchor_sig,
            ]
        )

    def encode(self) -> bytes:
        return pack(
            [
                self.version,
                self.game_id,
                self.seat,
                self.kind,
                self.body,
                self.anchor_seq,
                self.anchor,
                self.anchor_sig,
                self.sig,
                self.seq,
                self.prev,
                self.placed,
            ]
        )

    def signed(self, identity: Identity) -> Envelope:
        """This entry signed by its author."""
        return replace(self, sig=identity.sign(self.signed_part()))

    def writing(self) -> bytes:
        """What the author wrote, as a digest: the same wherever the host placed the entry (the key
        by which a seat's entry for one obligation is found again)."""
        return hashlib.sha256(WRITING_TAG + self.signed_part() + self.sig).digest()

    def same_writing(self, other: Envelope) -> bool:
        """Whether ``other`` is this entry as its author wrote it, wherever the host placed it."""
        return self.signed_part() == other.signed_part() and self.sig == other.sig

    def hash(self, game_id: bytes | None = None) -> bytes:
        """The entry's hash in the log of ``game_id`` (default: its own): the next entry's ``prev``."""
        gid = self.game_id if game_id is None else game_id
        return entry_hash_of(gid, self.seq, self.prev, self.writing())

    def place(self, seq: int, prev: bytes, host: Identity, game_id: bytes | None = None) -> Envelope:
        """The same entry put at ``seq`` after ``prev``, with the host's placement signature."""
        at = replace(self, seq=seq, prev=prev, placed=NO_SIG)
        gid = self.game_id if game_id is None else game_id
        return replace(at, placed=host.sign(placement_message(gid, seq, at.hash(gid))))

    def verify(self, public_key: bytes) -> bool:
        """Whether the author's signature holds under ``public_key``."""
        return verify_signature(public_key, self.sig, self.signed_part())

    def placed_by(self, host_key: bytes, game_id: bytes) -> bool:
        """Whether the host's placement signature holds (in the log of ``game_id``)."""
        return placed_by(host_key, game_id, self.seq, self.hash(game_id), self.placed)

    def answers_by(self, host_key: bytes, game_id: bytes) -> bool:
        """Whether ``anchor_sig`` is the host's placement of ``anchor`` at ``anchor_seq``."""
        return placed_by(host_key, game_id, self.anchor_seq, self.anchor, self.anchor_sig)


def entry_hash(encoded: bytes) -> bytes:
    """The hash of an encoded entry (as placed): what the next entry carries as ``prev``."""
    return decode_envelope(encoded).hash()


def _int(v: object, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < hi


def decode_envelope(data: bytes, *, peer: str | None = None) -> Envelope:
    """Parse an encoded envelope, checking every field's type and size and that it is in its
    canonical form (not the signatures). A refusal names no seat: nobody's signature was checked."""
    obj = unpack(data, peer=peer)
    if isinstance(obj, list) and obj and obj[0] != FORMAT_VERSION:
        raise RemoteProtocolError(f"unsupported format version {obj[0]!r}", peer=peer)
    if not isinstance(obj, list) or len(obj) != FIELDS:
        raise RemoteProtocolError(f"an envelope is a list of {FIELDS} fields", peer=peer)
    version, game_id, seat, kind, body, anchor_seq, anchor, anchor_sig, sig, seq, prev, placed = obj
    checks = [
        (isinstance(game_id, bytes) and len(game_id) == GAME_ID_BYTES, "bad game id"),
        (_int(seat, 64), "bad seat"),
        (shows_as_is(kind, MAX_KIND), "bad kind"),
        (_int(anchor_seq, MAX_SEQ), "bad anchor sequence number"),
        (isinstance(anchor, bytes) and len(anchor) == HASH_BYTES, "bad anchor hash"),
        (isinstance(anchor_sig, bytes) and len(anchor_sig) == SIG_BYTES, "bad anchor signature field"),
        (isinstance(sig, bytes) and len(sig) == SIG_BYTES, "bad signature field"),
        (_int(seq, MAX_SEQ), "bad sequence number"),
        (isinstance(prev, bytes) and len(prev) == HASH_BYTES, "bad previous-entry hash"),
        (isinstance(placed, bytes) and len(placed) == SIG_BYTES, "bad placement signature field"),
    ]
    for ok, reason in checks:
        if not ok:
            raise RemoteProtocolError(reason, peer=peer)
    env = Envelope(version, game_id, seat, kind, body, anchor_seq, anchor, anchor_sig, sig, seq, prev, placed)
    if env.encode() != data:
        raise RemoteProtocolError("not in canonical form (re-encoded, it gives other bytes)", peer=peer)
    return env
