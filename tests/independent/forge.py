"""Tampered copies of a fairdeal log, for the independent verifier's tests.

A copy altered in place breaks the host's placement signature of the entry (damage, nobody
named). To reach the checks behind the signatures, ``resign`` puts new identity keys in the
header and signs every entry again as its author and every placement as the host, with the
chain and the anchors recomputed (protocol.md 8.2): a log so re-signed is as valid as the
original, and an alteration made before re-signing is the author's own, as if a player had
written it. ``place`` re-places an entry so signed (its author's part untouched) where the host
chooses: an alteration of where an entry sits is the host's. Like the verifier, this imports
nothing of fairdeal.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable
from typing import Any

import msgpack
from nacl.signing import SigningKey

MAGIC = b"FDLOG1\n"
Entry = list[Any]  # the 12 items of an envelope


def read_records(data: bytes) -> list[bytes]:
    assert data.startswith(MAGIC)
    out, pos = [], len(MAGIC)
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        out.append(data[pos + 4 : pos + 4 + n])
        pos += 4 + n
    return out


def write_records(records: list[bytes]) -> bytes:
    return MAGIC + b"".join(struct.pack(">I", len(r)) + r for r in records)


def decode(data: bytes) -> list[Entry]:
    return [msgpack.unpackb(r, raw=False) for r in read_records(data)]


def encode(entries: list[Entry]) -> bytes:
    return write_records([msgpack.packb(e, use_bin_type=True) for e in entries])


def signed(e: Entry) -> bytes:
    """S (protocol.md 8.2): what the author signs."""
    return b"fairdeal/envelope/v3\x00" + msgpack.packb(e[:8], use_bin_type=True)


def _hash(gid: bytes, e: Entry) -> bytes:
    w = hashlib.sha256(b"fairdeal/writing/v1\x00" + signed(e) + e[8]).digest()
    return hashlib.sha256(b"fairdeal/entry/v3\x00" + gid + struct.pack(">I", e[9]) + e[10] + w).digest()


def _placement(gid: bytes, seq: int, h: bytes) -> bytes:
    return b"fairdeal/placement/v1\x00" + gid + struct.pack(">I", seq) + h


def signing_keys(seed: bytes = b"independent") -> list[SigningKey]:
    """The keys ``resign`` gives seats 0..15."""
    return [SigningKey(hashlib.sha256(seed + bytes([s])).digest()) for s in range(16)]


def sign_unplaced(entry: Entry, key: SigningKey) -> bytes:
    """``entry`` signed by ``key`` as its author sends it: seq 0, prev and placed zero."""
    e = list(entry)
    e[8] = key.sign(signed(e)).signature
    e[9], e[10], e[11] = 0, bytes(32), bytes(64)
    return bytes(msgpack.packb(e, use_bin_type=True))


def resign(
    entries: list[Entry],
    seed: bytes = b"independent",
    seat_keys: list[int] | None = None,
    alter_sig: dict[int, Callable[[bytes], bytes]] | None = None,
    identities: dict[int, bytes] | None = None,
) -> list[Entry]:
    """The same entries under fresh keys: seq renumbered, prev, anchors, sig and placed redone.

    ``seat_keys`` maps seats to keys (two seats may share one); ``alter_sig`` changes the
    author's signature of the entries it names before the host places them; ``identities`` puts
    other identity keys in the header for the seats it names (their entries are still signed
    with the keys ``resign`` gives them). Each entry keeps
    the offset to its anchor as it was in the input (so an entry moved,
    dropped or added keeps answering the same distance back), unless ``e[5]`` was set to
    ``None``, which means "the entry before it".
    """
    keys = signing_keys(seed)
    if seat_keys is not None:  # seat s signs with key seat_keys[s]
        keys = [keys[k] for k in seat_keys]
    alter_sig = alter_sig or {}
    out: list[Entry] = []
    hashes: list[bytes] = []
    placed: list[bytes] = []
    for i, src in enumerate(entries):
        e = list(src)
        if i == 0:
            body = dict(e[4])
            body["seats"] = [dict(s, identity=bytes(keys[n].verify_key)) for n, s in enumerate(body["seats"])]
            for n, key in (identities or {}).items():
                body["seats"][n] = dict(body["seats"][n], identity=key)
            e[4] = body
            e[5], e[6], e[7] = 0, bytes(32), bytes(64)
        else:
            back = 1 if src[5] is None else src[9] - src[5]
            a = max(0, i - back)
            e[5], e[6], e[7] = a, hashes[a], placed[a]
        gid = e[1]
        e[9] = i
        e[10] = hashes[i - 1] if i else bytes(32)
        e[8] = keys[e[2]].sign(signed(e)).signature
        if i in alter_sig:
            e[8] = alter_sig[i](e[8])
        h = _hash(gid, e)
        e[11] = keys[0].sign(_placement(gid, i, h)).signature
        hashes.append(h)
        placed.append(e[11])
        out.append(e)
    return out


def place(entries: list[Entry], entry: Entry, seed: bytes = b"independent") -> list[Entry]:
    """``entries`` (a log re-signed with ``seed``) with ``entry`` placed after them by the host.

    The author's items 0–8 stay exactly as they are (its writing W too): only ``seq``, ``prev``
    and ``placed`` are the host's, as an entry sent to the host is placed (protocol.md 8.2). So
    an entry taken from a log re-signed with the same seed is the author's own signed entry, and
    where it now sits is the host's doing alone.
    """
    host = signing_keys(seed)[0]
    gid = entries[0][1]
    e = list(entry)
    e[9] = len(entries)
    e[10] = _hash(gid, entries[-1])
    e[11] = host.sign(_placement(gid, e[9], _hash(gid, e))).signature
    return [*entries, e]


L = 2**252 + 27742317777372353535851937790883648493  # the order of Ed25519's group


def malleate(sig: bytes) -> bytes:
    """The same Ed25519 signature with S + L: valid to a lax verifier, refused by a strict one."""
    s = int.from_bytes(sig[32:], "little") + L
    return sig[:32] + s.to_bytes(32, "little")


def flip(b: bytes, at: int = 0, bit: int = 0) -> bytes:
    """``b`` with one bit turned over."""
    x = bytearray(b)
    x[at % len(x)] ^= 1 << bit
    return bytes(x)


def first(entries: list[Entry], test: Callable[[Entry], bool], start: int = 0) -> int:
    """The index of the first entry from ``start`` that passes ``test``."""
    return next(i for i, e in enumerate(entries) if i >= start and test(e))
