"""An independent checker of fairdeal logs, written from ``docs/protocol.md`` alone.

How it was written. Everything below comes from the text of ``docs/protocol.md`` (sections 5,
8, 9, 10 and 15) and from trial against real logs made with ``fairdeal play`` and
``fairdeal.testing``; none of fairdeal's code was read or imported. It uses the standard
library, msgpack, PyNaCl (Ed25519) and btclib-secp256k1 (the group library the document names:
point parsing, sums and multiplications); hashing to the curve (RFC 9380,
``secp256k1_XMD:SHA-256_SSWU_RO_``) is written here from the RFC and checked against its
appendix J.8.1 vectors, and so is the strict reading of an Ed25519 key (8.2). Where the document
was silent or wrong, what a real log showed is what this file does, and each such finding was
written into the document so that the two agree again.

It reads log protocol 4 (hand-overs, 10.4.1; searches for who holds a card, ``deck.find``,
10.4.2) and log protocol 3 by its own rules (no hand-overs: a card one seat held was opened to
the next with that seat's share), envelope format 3.

What it checks, without the game's rules: the file's framing; every envelope's canonical
encoding and fields (a float of either width, an extension type: the envelope does not decode);
every author signature, every placement signature and the hash chain; every anchor (signed by
the host, a point of this log, and a point the obligation can answer: the entry before it, or
for obligations several seats owe at once the entry that made them owed); where the host put an
entry (8.4, check 9a, its two clauses that need no rules: an entry placed twice, an entry placed
after the abort or the last end that answers a point before it: seat 0 is to blame); the header
(strict identity keys, 2..10 seats); every key proof and the joint key; every shuffle pass's
input (round 0 the deck in the canonical order, each card its public encryption; a reshuffle's
listed tokens and face-up cards) and its proof of shuffle; the order of the deck protocol's
obligations (keys, passes in seat order, shares and hand-overs of a reveal once it is under way,
random commitments then reveals, leaving, the final reveal, the ends); every decryption share's
proof, every hand-over (its re-mask's proof, its share's proof, the shares it carries over),
every search's answers (at most one showing, the card it names), the
card every token decodes to once every share of one of its ciphertexts is at hand (a seat that
leaves opens every card it saw), every random choice's commitments and result; the final reveal
(every card a seat saw alone is opened to everyone); every seat's ``end``, all alike; and whether
the log is complete. What it cannot check is what only the rules say: which reveal, reshuffle,
random choice, search or move comes next, whether a move was legal, and whether the ``end``
states the right result; so a log whose ends are not all in is undecided here, even where
``fairdeal verify``, which has the rules, finds the game decided (8.4, "fair"), and where two
seats disagree in a way only the rules settle, this names the later (15).

"Printable" text (section 5) is judged by Unicode 14.0.0's categories. This file asks Python's
``unicodedata`` for them, which is right where ``unicodedata.unidata_version`` is "14.0.0"
(Python 3.11, as on the machine this was written on); on another Python a report says that its
printable checks used another Unicode version. White space is the fixed set of section 5.

Usage: ``python tests/independent/verifier.py [--json] LOG...``. For each file it prints the
verdict (fair, cheating, damaged, undecided, not a log, other version, unreadable), the shuffle
passes checked out of those the file holds, and what failed. Exit status as ``fairdeal
verify``: 0 fair, 1 cheating or damaged, 2 undecided, 3 not a fairdeal log or one of another
envelope format or log protocol, 4 a file that cannot be read (the worst over all files).
"""

from __future__ import annotations

import hashlib
import json
import struct
import sys
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import msgpack
from btclib_secp256k1 import keys as secp
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

# ---------------------------------------------------------------------------------------------
# The group (protocol.md 10, "The group")

P_FIELD = 2**256 - 2**32 - 977
L = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
G = bytes.fromhex("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")


def valid_point(b: Any) -> bool:
    """A 33-byte SEC1 compressed encoding of a point of the curve (never the identity)."""
    return isinstance(b, bytes) and len(b) == 33 and b[0] in (2, 3) and secp.pubkey_verify(b)


def scalar(b: Any) -> int | None:
    """A scalar in [1, L) from 32 big-endian bytes, else None."""
    if not isinstance(b, bytes) or len(b) != 32:
        return None
    v = int.from_bytes(b, "big")
    return v if 0 < v < L else None


def msm(terms: list[tuple[bytes, int]]) -> bytes | None:
    """Σ k·P over valid points; None for the identity. Equal points are folded together."""
    folded: dict[bytes, int] = {}
    for point, k in terms:
        folded[point] = (folded.get(point, 0) + k) % L
    points = [p for p, k in folded.items() if k]
    if not points:
        return None
    out: bytes | None = secp.pubkey_tweak_mul_sum(points, [folded[p].to_bytes(32, "big") for p in points])
    return out


def add(points: list[bytes | None]) -> bytes | None:
    """The sum of points, the identity (None) adding nothing; None if the sum is the identity."""
    present = [p for p in points if p is not None]
    if not present:
        return None
    out: bytes | None = secp.pubkey_sum(present)
    return out


def neg(point: bytes) -> bytes:
    return bytes([point[0] ^ 1]) + point[1:]


def mul_g(k: int) -> bytes:
    out: bytes = secp.pubkey_from_prvkey(k % L)
    return out


# ---------------------------------------------------------------------------------------------
# Hashing to the curve: RFC 9380, suite secp256k1_XMD:SHA-256_SSWU_RO_ (protocol.md 10)

_ISO_A = 0x3F8731ABDD661ADCA08A5558F0F5D272E953D363CB6F0E5D405447C01A444533
_ISO_B = 1771
_Z = P_FIELD - 11
_XNUM = (
    0x8E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38DAAAAA8C7,
    0x07D3D4C80BC321D5B9F315CEA7FD44C5D595D2FC0BF63B92DFFF1044F17C6581,
    0x534C328D23F234E6E2A413DECA25CAECE4506144037C40314ECBD0B53D9DD262,
    0x8E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38E38DAAAAA88C,
)
_XDEN = (
    0xD35771193D94918A9CA34CCBB7B640DD86CD409542F8487D9FE6B745781EB49B,
    0xEDADC6F64383DC1DF7C4B2D51B54225406D36B641F5E41BBC52A56612A8C6D14,
    1,
)
_YNUM = (
    0x4BDA12F684BDA12F684BDA12F684BDA12F684BDA12F684BDA12F684B8E38E23C,
    0xC75E0C32D5CB7C0FA9D0A54B12A0A6D5647AB046D686DA6FDFFC90FC201D71A3,
    0x29A6194691F91A73715209EF6512E576722830A201BE2018A765E85A9ECEE931,
    0x2F684BDA12F684BDA12F684BDA12F684BDA12F684BDA12F684BDA12F38E38D84,
)
_YDEN = (
    0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFF93B,
    0x7A06534BB8BDB49FD5E9E6632722C2989467C1BFC8E8D978DFB425D2685C2573,
    0x6484AA716545CA2CF3A70C3FA8FE337E0A3D21162F0D6299A7BF8192BFD2A76F,
    1,
)


def expand_message_xmd(msg: bytes, dst: bytes, length: int) -> bytes:
    ell = (length + 31) // 32
    dst_prime = dst + bytes([len(dst)])
    b0 = hashlib.sha256(bytes(64) + msg + length.to_bytes(2, "big") + b"\x00" + dst_prime).digest()
    b = hashlib.sha256(b0 + b"\x01" + dst_prime).digest()
    out = b
    for i in range(2, ell + 1):
        b = hashlib.sha256(bytes(x ^ y for x, y in zip(b0, b, strict=True)) + bytes([i]) + dst_prime).digest()
        out += b
    return out[:length]


def _poly(coeffs: tuple[int, ...], x: int) -> int:
    acc = 0
    for c in reversed(coeffs):
        acc = (acc * x + c) % P_FIELD
    return acc


def _is_square(v: int) -> bool:
    return v == 0 or pow(v, (P_FIELD - 1) // 2, P_FIELD) == 1


def _sqrt(v: int) -> int:
    return pow(v, (P_FIELD + 1) // 4, P_FIELD)


def map_to_curve(u: int) -> tuple[int, int]:
    """Simplified SWU onto the isogenous curve E', then the 3-isogeny to secp256k1 (affine)."""
    p, a, b, z = P_FIELD, _ISO_A, _ISO_B, _Z
    tv = (z * z * pow(u, 4, p) + z * u * u) % p
    # inv0(0) = 0 gives the exceptional case of 6.6.2, x1 = B / (Z·A)
    x1 = b * pow(z * a, -1, p) % p if tv == 0 else -b * pow(a, -1, p) * (1 + pow(tv, -1, p)) % p
    gx1 = (x1**3 + a * x1 + b) % p
    if _is_square(gx1):
        x, y = x1, _sqrt(gx1)
    else:
        x = z * u * u * x1 % p
        y = _sqrt((x**3 + a * x + b) % p)
    if (u & 1) != (y & 1):
        y = (-y) % p
    xn, xd = _poly(_XNUM, x), _poly(_XDEN, x)
    yn, yd = _poly(_YNUM, x), _poly(_YDEN, x)
    return xn * pow(xd, -1, p) % p, y * yn * pow(yd, -1, p) % p


def _encode_affine(x: int, y: int) -> bytes:
    return bytes([2 + (y & 1)]) + x.to_bytes(32, "big")


def hash_to_curve(msg: bytes, dst: bytes) -> bytes:
    uniform = expand_message_xmd(msg, dst, 96)
    u0 = int.from_bytes(uniform[:48], "big") % P_FIELD
    u1 = int.from_bytes(uniform[48:], "big") % P_FIELD
    q0 = _encode_affine(*map_to_curve(u0))
    q1 = _encode_affine(*map_to_curve(u1))
    out = add([q0, q1])
    if out is None:  # probability 2^-256
        raise ValueError("hash_to_curve gave the identity")
    return out


# ---------------------------------------------------------------------------------------------
# Transcript framing (protocol.md 10.1)

T_CARD = b"fairdeal/deck/card/v2"
T_KEY = b"fairdeal/deck/key-pok/v2"
T_DLEQ = b"fairdeal/deck/dleq/v2"
T_COMMIT = b"fairdeal/deck/random-commit/v1"
T_RESULT = b"fairdeal/deck/random-result/v1"
T_GEN = b"fairdeal/deck/shuffle-generator/v2"
T_STATEMENT = b"fairdeal/deck/shuffle-statement/v2"
T_U = b"fairdeal/deck/shuffle-u/v2"
T_CHALLENGE = b"fairdeal/deck/shuffle-challenge/v2"
T_HANDOVER = b"fairdeal/deck/handover/v1"
DST_CARD = b"fairdeal/deck/card/v2 secp256k1_XMD:SHA-256_SSWU_RO_"
DST_GEN = b"fairdeal/deck/shuffle-generator/v2 secp256k1_XMD:SHA-256_SSWU_RO_"


def frame(tag: bytes, *parts: int | bytes | str) -> bytes:
    out = [len(tag).to_bytes(2, "big"), tag]
    for part in parts:
        if isinstance(part, bool):
            raise TypeError("no bool parts")
        if isinstance(part, int):
            out.append(b"i" + part.to_bytes(8, "big"))
        elif isinstance(part, bytes):
            out.append(b"b" + len(part).to_bytes(4, "big") + part)
        else:
            raw = part.encode()
            out.append(b"s" + len(raw).to_bytes(4, "big") + raw)
    return b"".join(out)


def digest(tag: bytes, *parts: int | bytes | str) -> bytes:
    return hashlib.sha256(frame(tag, *parts)).digest()


def hash_scalar(tag: bytes, *parts: int | bytes | str) -> int:
    return int.from_bytes(hashlib.sha512(frame(tag, *parts)).digest(), "big") % L


_GENERATORS: list[bytes] = []


def generator(k: int) -> bytes:
    while len(_GENERATORS) <= k:
        _GENERATORS.append(hash_to_curve(frame(T_GEN, len(_GENERATORS)), DST_GEN))
    return _GENERATORS[k]


# ---------------------------------------------------------------------------------------------
# The proofs (protocol.md 10.2, 10.4, 10.7)


def check_key_proof(game_id: bytes, seat: int, players: int, public: bytes, e: int, z: int) -> bool:
    a = msm([(G, z), (public, L - e)])
    return a is not None and hash_scalar(T_KEY, game_id, seat, players, public, a) == e


def check_share_proof(
    game_id: bytes, seat: int, token: int, ct: bytes, purpose: str, h_s: bytes, d: bytes, e: int, z: int
) -> bool:
    c1 = ct[:33]
    context = frame(b"share", game_id, seat, token, ct, purpose)
    a = msm([(G, z), (h_s, L - e)])
    b = msm([(c1, z), (d, L - e)])
    if a is None or b is None:
        return False
    return hash_scalar(T_DLEQ, context, h_s, c1, d, a, b) == e


def check_handover_proof(
    game_id: bytes,
    holder: int,
    token: int,
    to: int,
    ct: bytes,
    new_ct: bytes,
    joint: bytes,
    masked_keys: list[bytes],
    masks: list[bytes],
    e: int,
    z: int,
) -> bool:
    """10.4.1: one s behind c1' − c1 = s·G, c2' − c2 = s·H and every mask T_i = s·H_i."""
    y0 = add([new_ct[:33], neg(ct[:33])])
    y1 = add([new_ct[33:], neg(ct[33:])])
    if y0 is None or y1 is None:
        return False
    bases = [G, joint, *masked_keys]
    ys = [y0, y1, *masks]
    commitments = [msm([(b, z), (y, L - e)]) for b, y in zip(bases, ys, strict=True)]
    if any(a is None for a in commitments):
        return False
    context = frame(b"handover", game_id, holder, token, ct, new_ct, to)
    return hash_scalar(T_HANDOVER, context, *bases, *ys, *commitments) == e  # type: ignore[arg-type]


def check_shuffle_proof(
    context: bytes, joint: bytes, inputs: list[bytes], outputs: list[bytes], proof: Any
) -> str | None:
    """None if the proof of 10.7 holds, else why not."""
    n = len(inputs)
    if not 1 <= n <= 1024 or len(outputs) != n:
        return f"a deck of {len(outputs)} for {n} inputs"
    if not isinstance(proof, dict) or list(proof) != ["c", "c_hat", "e", "s", "s_hat", "s_prime"]:
        return "the proof is not a map of c, c_hat, e, s, s_hat, s_prime"
    c, c_hat, s_hat, s_prime, s_list = (proof[k] for k in ("c", "c_hat", "s_hat", "s_prime", "s"))
    for name, value in (("c", c), ("c_hat", c_hat), ("s_hat", s_hat), ("s_prime", s_prime)):
        if not isinstance(value, list) or len(value) != n:
            return f"proof field {name} is not a list of {n}"
    if not isinstance(s_list, list) or len(s_list) != 4:
        return "proof field s is not a list of 4"
    e = scalar(proof["e"])
    s = [scalar(x) for x in s_list]
    sh = [scalar(x) for x in s_hat]
    sp = [scalar(x) for x in s_prime]
    if e is None or None in s or None in sh or None in sp:
        return "a scalar of the proof is zero, out of range or not 32 bytes"
    for ct in inputs + outputs:
        if not (isinstance(ct, bytes) and len(ct) == 66 and valid_point(ct[:33]) and valid_point(ct[33:])):
            return "a ciphertext half is not a valid point"
    if not all(valid_point(x) for x in c) or not all(valid_point(x) for x in c_hat):
        return "a commitment of the proof is not a valid point"
    s1, s2, s3, s4 = (int(x) for x in s)  # type: ignore[arg-type]
    shv = [int(x) for x in sh]  # type: ignore[arg-type]
    spv = [int(x) for x in sp]  # type: ignore[arg-type]
    h = generator(0)
    hs = [generator(j + 1) for j in range(n)]
    d = digest(T_STATEMENT, context, joint, n, b"".join(inputs), b"".join(outputs), b"".join(c))
    u = [hash_scalar(T_U, d, i) for i in range(n)]
    prod_u = 1
    for ui in u:
        prod_u = prod_u * ui % L
    me = L - e
    # t_1 = s_1·G − e·c̄, c̄ = Σ c_i − Σ h_j
    t1 = msm([(G, s1)] + [(ci, me) for ci in c] + [(hj, e) for hj in hs])
    # t_2 = s_2·G − e·ĉ, ĉ = ĉ_{n−1} − (Π u_i)·h
    t2 = msm([(G, s2), (c_hat[-1], me), (h, e * prod_u)])
    # t_3 = s_3·G + Σ s'_j·h_j − e·Σ u_i·c_i
    t3 = msm([(G, s3)] + [(hs[j], spv[j]) for j in range(n)] + [(c[i], me * u[i]) for i in range(n)])
    # t_41 = Σ s'_j·a'_j − s_4·G − e·Σ u_i·a_i ; t_42 likewise with the second halves and H
    t41 = msm(
        [(outputs[j][:33], spv[j]) for j in range(n)]
        + [(G, L - s4)]
        + [(inputs[i][:33], me * u[i]) for i in range(n)]
    )
    t42 = msm(
        [(outputs[j][33:], spv[j]) for j in range(n)]
        + [(joint, L - s4)]
        + [(inputs[i][33:], me * u[i]) for i in range(n)]
    )
    t_hat: list[bytes | None] = []
    prev = h
    for k in range(n):
        t_hat.append(msm([(G, shv[k]), (prev, spv[k]), (c_hat[k], me)]))
        prev = c_hat[k]
    ts = [t1, t2, t3, t41, t42]
    if any(t is None for t in ts) or any(t is None for t in t_hat):
        return "a recomputed commitment is the identity"
    e2 = hash_scalar(T_CHALLENGE, d, b"".join(c_hat), *ts, b"".join(t_hat))  # type: ignore[arg-type]
    if e2 != e:
        return "the challenge does not match: the proof is false"
    return None


# ---------------------------------------------------------------------------------------------
# Encodings (protocol.md 8.1, 8.2, 9)


class Refused(Exception):
    """A check failed: `verdict` is damaged or cheating, `seat` the one to blame (cheating)."""

    def __init__(self, verdict: str, reason: str, seat: int | None = None) -> None:
        super().__init__(reason)
        self.verdict = verdict
        self.reason = reason
        self.seat = seat


# Section 5: white space is this fixed set, whatever a Python's own str.isspace says.
WHITE_SPACE = frozenset(
    [chr(c) for c in range(0x09, 0x0E)]
    + [chr(c) for c in range(0x1C, 0x20)]
    + ["\u0020", "\u0085", "\u00a0", "\u1680"]
    + [chr(c) for c in range(0x2000, 0x200B)]
    + ["\u2028", "\u2029", "\u202f", "\u205f", "\u3000"]
)
# Section 5: the categories are Unicode 14.0.0's; Python's unicodedata is that version on 3.11.
UNICODE_VERSION = "14.0.0"


def printable(text: Any, lo: int = 1, hi: int = 200) -> bool:
    """Text of lo..hi characters, none of category C, Zl or Zp, no white space at either end."""
    if not isinstance(text, str) or not lo <= len(text) <= hi:
        return False
    if text == "":
        return True
    if text[0] in WHITE_SPACE or text[-1] in WHITE_SPACE:
        return False
    return all(
        unicodedata.category(ch)[0] != "C" and unicodedata.category(ch) not in ("Zl", "Zp") for ch in text
    )


def is_int(v: Any, lo: int, hi: int) -> bool:
    return type(v) is int and lo <= v <= hi


def _plain(value: Any, depth: int = 0) -> bool:
    """No floats, no ext types, map keys text, within the size limits of 8.1."""
    if depth > 32:
        return False
    if value is None or isinstance(value, bool | int | str | bytes):
        return True
    if isinstance(value, list):
        return len(value) <= 65536 and all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return (
            len(value) <= 4096
            and all(isinstance(k, str) for k in value)
            and all(_plain(v, depth + 1) for v in value.values())
        )
    return False


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError("an extension type")


def decode_canonical(raw: bytes) -> Any:
    obj = msgpack.unpackb(raw, raw=False, use_list=True, strict_map_key=False, ext_hook=_no_ext)
    if not _plain(obj):
        raise ValueError("a float, an extension type, a key that is not text, or over a limit")
    if msgpack.packb(obj, use_bin_type=True) != raw:
        raise ValueError("not in canonical form")
    return obj


@dataclass
class Envelope:
    raw: bytes
    version: int
    game_id: bytes
    seat: int
    kind: str
    body: Any
    anchor_seq: int
    anchor: bytes
    anchor_sig: bytes
    sig: bytes
    seq: int
    prev: bytes
    placed: bytes

    @property
    def signed(self) -> bytes:
        """S: the tag and the canonical encoding of items 0–7."""
        items = [self.version, self.game_id, self.seat, self.kind, self.body]
        items += [self.anchor_seq, self.anchor, self.anchor_sig]
        return b"fairdeal/envelope/v3\x00" + msgpack.packb(items, use_bin_type=True)

    @property
    def writing(self) -> bytes:
        return hashlib.sha256(b"fairdeal/writing/v1\x00" + self.signed + self.sig).digest()


def decode_envelope(raw: bytes) -> Envelope:
    obj = decode_canonical(raw)
    if not isinstance(obj, list) or len(obj) != 12:
        raise ValueError("not an array of 12")
    v, gid, seat, kind, body, aseq, anchor, asig, sig, seq, prev, placed = obj
    if not is_int(v, 0, 2**63):
        raise ValueError("version is not an int")
    if v != 3:
        raise ValueError(f"envelope format {v}, not 3")
    checks = [
        isinstance(gid, bytes) and len(gid) == 16,
        is_int(seat, 0, 63),
        printable(kind, 1, 32),
        is_int(aseq, 0, 2**32 - 1),
        isinstance(anchor, bytes) and len(anchor) == 32,
        isinstance(asig, bytes) and len(asig) == 64,
        isinstance(sig, bytes) and len(sig) == 64,
        is_int(seq, 0, 2**32 - 1),
        isinstance(prev, bytes) and len(prev) == 32,
        isinstance(placed, bytes) and len(placed) == 64,
    ]
    if not all(checks):
        raise ValueError("a field of the envelope has the wrong type or size")
    return Envelope(raw, v, gid, seat, kind, body, aseq, anchor, asig, sig, seq, prev, placed)


def entry_hash(game_id: bytes, env: Envelope) -> bytes:
    return hashlib.sha256(
        b"fairdeal/entry/v3\x00" + game_id + struct.pack(">I", env.seq) + env.prev + env.writing
    ).digest()


def placement(game_id: bytes, seq: int, h: bytes) -> bytes:
    return b"fairdeal/placement/v1\x00" + game_id + struct.pack(">I", seq) + h


_ED_P = 2**255 - 19
_ED_D = -121665 * pow(121666, -1, _ED_P) % _ED_P
_ED_I = pow(2, (_ED_P - 1) // 4, _ED_P)  # a square root of −1


def _ed_add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """The (complete) addition law of edwards25519, −x² + y² = 1 + d·x²·y², in affine form."""
    (x1, y1), (x2, y2) = a, b
    t = _ED_D * x1 * x2 * y1 * y2 % _ED_P
    x3 = (x1 * y2 + y1 * x2) * pow(1 + t, -1, _ED_P) % _ED_P
    y3 = (y1 * y2 + x1 * x2) * pow(1 - t, -1, _ED_P) % _ED_P
    return x3, y3


def strict_key(key: Any) -> bool:
    """8.2 (a): a canonical encoding (y < p, no "negative zero") of a point not of small order."""
    if not isinstance(key, bytes) or len(key) != 32:
        return False
    y = int.from_bytes(key, "little") & (2**255 - 1)
    sign = key[31] >> 7
    if y >= _ED_P:
        return False
    u, v = (y * y - 1) % _ED_P, (_ED_D * y * y + 1) % _ED_P
    x = u * pow(v, 3, _ED_P) * pow(u * pow(v, 7, _ED_P), (_ED_P - 5) // 8, _ED_P) % _ED_P
    if v * x * x % _ED_P == (-u) % _ED_P:
        x = x * _ED_I % _ED_P
    if v * x * x % _ED_P != u:
        return False  # no point has this y
    if x == 0 and sign:
        return False  # "negative zero"
    if (x & 1) != sign:
        x = _ED_P - x
    point = (x, y)
    for _ in range(3):
        point = _ed_add(point, point)
    return point != (0, 1)  # [8]A is the identity exactly when A is of small order


def ed25519_ok(key: bytes, msg: bytes, sig: bytes) -> bool:
    try:
        VerifyKey(key).verify(msg, sig)
    except (BadSignatureError, ValueError, TypeError):
        return False
    return True


RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["C", "D", "H", "S"]


def card_order(name: Any) -> tuple[int, int, int] | None:
    """(copy, suit, rank) of a card name RANK SUIT "#" COPY, the canonical order of 10.3."""
    if not isinstance(name, str) or "#" not in name:
        return None
    face, _, copy = name.partition("#")
    if not copy.isdigit() or (copy != "0" and copy.startswith("0")) or len(face) < 2:
        return None
    rank, suit = face[:-1], face[-1]
    if rank not in RANKS or suit not in SUITS:
        return None
    return int(copy), SUITS.index(suit), RANKS.index(rank)


# ---------------------------------------------------------------------------------------------
# The log


# The kinds several seats may owe at once (9.8); every other kind answers the entry before it.
CONCURRENT = {
    "deck.key",
    "deck.shares",
    "deck.final-reveal",
    "deck.random-commit",
    "deck.random-reveal",
    "deck.find",
    "end",
}


@dataclass
class Round:
    index: int
    participants: list[int]
    deck: list[bytes]
    passes: int = 0


@dataclass
class Choice:
    index: int
    n: int
    participants: list[int]
    commits: dict[int, bytes] = field(default_factory=dict)
    values: dict[int, bytes] = field(default_factory=dict)


@dataclass
class Search:
    """A search for who holds a card (10.4.2): the point its answers answer, the card, who answered."""

    anchor: int
    card: str
    answered: set[int] = field(default_factory=set)
    shown: int | None = None  # the seat that showed it


@dataclass
class Report:
    path: str
    verdict: str = "fair"
    reason: str = ""
    seat: int | None = None
    entry: int | None = None
    entries: int = 0
    passes_total: int = 0
    passes_checked: int = 0
    rounds_complete: int = 0
    shares_checked: int = 0
    handovers_checked: int = 0
    finds_checked: int = 0
    cards_decoded: int = 0
    choices: list[int] = field(default_factory=list)
    not_checked: list[str] = field(default_factory=list)
    complete: bool = False
    game: str = ""
    protocol: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


class Verifier:
    def __init__(self, report: Report) -> None:
        self.r = report
        self.hashes: list[bytes] = []
        self.envs: list[Envelope] = []
        self.host_key = b""
        self.game_id = b""
        self.players = 0
        self.identities: list[bytes] = []
        self.keys: dict[int, bytes] = {}
        self.joint: bytes | None = None
        self.left: dict[int, int] = {}
        self.last_by_seat: dict[int, int] = {}
        self.protocol = 0
        self.ct: dict[int, bytes] = {}  # token -> its current ciphertext
        self.old: dict[int, list[tuple[bytes, dict[int, bytes]]]] = {}  # the ones a hand-over replaced
        self.live: set[int] = set()
        self.next_token = 0
        self.rounds_done = 0
        self.round: Round | None = None
        self.card_points: dict[bytes, str] = {}
        self.name_points: dict[str, bytes] = {}
        self.shares: dict[int, dict[int, bytes]] = {}  # token -> seat -> its share of ct[token]
        self.private_to: dict[int, set[int]] = {}  # token -> seats it was opened to alone
        self.card: dict[int, str] = {}
        self.opened_publicly: set[int] = set()  # tokens with a share of purpose public
        self.pending: dict[tuple[int, int | None], set[int]] = {}  # reveal -> seats still owing
        self.reveal_anchor = 0  # the point the reveals under way answer
        self.writings: dict[bytes, int] = {}  # W -> the entry that holds it
        self.ended_at = 0  # the abort, or the last end
        self.choices_done = 0
        self.choice: Choice | None = None
        self.search: Search | None = None
        self.final_begun = False
        self.ends: dict[int, Any] = {}
        self.over = False

    # -- helpers -------------------------------------------------------------------------------

    def active(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.left]

    def fail(self, reason: str, seat: int) -> Refused:
        return Refused("cheating", reason, seat)

    def ciphertexts(self, token: int) -> list[tuple[bytes, dict[int, bytes]]]:
        """Every ciphertext token had, with the shares of it the log gives; the current one last."""
        return [*self.old.get(token, []), (self.ct[token], self.shares.setdefault(token, {}))]

    def lacking(self, token: int) -> list[int]:
        """The active seats without their share of the token's current ciphertext."""
        return [s for s in self.active() if s not in self.shares.get(token, {})]

    def opens(self, shares: dict[int, bytes]) -> bool:
        return all(s in shares or s in self.left for s in range(self.players))

    def known(self, token: int) -> bool:
        """Known to everyone: every share of one of its ciphertexts is at hand (10.4, 10.6)."""
        return token in self.ct and any(self.opens(sh) for _, sh in self.ciphertexts(token))

    def nothing_owed(self) -> bool:
        return (
            len(self.keys) == self.players
            and self.round is None
            and self.choice is None
            and not any(self.pending.values())
            and not self.final_begun
        )

    def final_owed(self) -> dict[int, set[int]]:
        """Token -> seats that owe its share in the final reveal (10.6).

        Every token opened to one seat and not known to everyone (a seat that left opened every
        card it saw, 10.6): each active seat without its share of the current ciphertext owes.
        """
        out: dict[int, set[int]] = {}
        for t, seats in self.private_to.items():
            if seats and not self.known(t):
                out[t] = set(self.lacking(t))
        return out

    # -- reading -------------------------------------------------------------------------------

    def run(self, data: bytes) -> None:
        if unicodedata.unidata_version != UNICODE_VERSION:
            self.r.not_checked.append(
                f"printable text was judged by Unicode {unicodedata.unidata_version}, "
                f"not {UNICODE_VERSION} as section 5 says"
            )
        if not data.startswith(b"FDLOG1\n"):
            self.r.verdict = "not a log"
            self.r.reason = "not a fairdeal log"
            return
        records: list[bytes] = []
        pos = 7
        torn = None
        while pos < len(data):
            if len(data) - pos < 4:
                torn = "a torn last record (its length cut)"
                break
            (length,) = struct.unpack(">I", data[pos : pos + 4])
            if not 1 <= length <= 1_048_576:
                # What a crash can leave (a length never written whole, zeros): the log ends here.
                torn = f"entry {len(records)} has an impossible length ({length})"
                break
            if len(data) - pos - 4 < length:
                torn = "a torn last record"
                break
            records.append(data[pos + 4 : pos + 4 + length])
            pos += 4 + length
        self.r.entries = len(records)
        for raw in records:
            try:
                env = decode_canonical(raw)
                if isinstance(env, list) and len(env) == 12 and env[3] == "deck.shuffle":
                    self.r.passes_total += 1
            except Exception:
                pass
        try:
            for i, raw in enumerate(records):
                self.r.entry = i
                self.entry(i, raw)
            self.r.entry = None
        except Refused as refused:
            self.r.verdict = refused.verdict
            self.r.reason = refused.reason
            self.r.seat = refused.seat
            left = self.r.passes_total - self.r.passes_checked
            if left and refused.verdict in ("cheating", "damaged"):
                self.r.not_checked.append(
                    f"{left} shuffle pass(es) at or after entry {self.r.entry}: the log is refused there, "
                    "so what they shuffle is not established"
                )
            return
        if not records:
            self.r.verdict, self.r.reason = "undecided", "the log is empty" + (f": {torn}" if torn else "")
            return
        if torn and self.over:
            # Nothing follows the abort or the last end: bytes after them cannot undo the game (8.3).
            note = f"bytes after the last record (entry {len(records) - 1}) are not read: {torn}"
            self.r.reason = f"{self.r.reason}; {note}" if self.r.reason else note
        elif torn:
            self.r.verdict, self.r.reason = "undecided", f"cut short after entry {len(records) - 1}: {torn}"
        elif not self.over:
            self.r.verdict = "undecided"
            self.r.reason = self.why_not_over()
        if self.round is not None:
            self.r.not_checked.append(
                f"round {self.round.index} stops after {self.round.passes} of its "
                f"{len(self.round.participants)} passes (every pass it holds is checked)"
            )

    def why_not_over(self) -> str:
        last = self.envs[-1]
        if self.final_begun and self.final_owed():
            return f"cut short after entry {last.seq}: the final reveal is not complete"
        if self.ends:
            missing = [s for s in self.active() if s not in self.ends]
            return f"cut short after entry {last.seq}: the end of seat(s) {missing} is missing"
        return f"cut short after entry {last.seq} ({last.kind}): the game has no end"

    # -- one entry (8.4's checks, in order) ----------------------------------------------------

    def entry(self, i: int, raw: bytes) -> None:
        if i == 0:
            self.other_version(raw)
        try:
            env = decode_envelope(raw)
        except Exception as exc:
            raise Refused("damaged", f"entry {i} does not decode: {exc}") from None
        if i == 0:
            self.header(env)
            return
        gid = self.game_id
        h = entry_hash(gid, env)
        if not ed25519_ok(self.host_key, placement(gid, env.seq, h), env.placed):
            raise Refused("damaged", f"entry {i}: placed is not the host's signature")
        if env.seq != i:
            raise Refused(
                "damaged", f"entry {i}: out of place (seq {env.seq}): an entry is missing, repeated or moved"
            )
        if env.prev != self.hashes[i - 1]:
            raise self.fail(f"entry {i}: prev is not the hash of entry {i - 1}: the host forked the log", 0)
        if env.game_id != gid or env.seat >= self.players:
            raise self.fail(f"entry {i}: another game's or no seat's entry, placed by the host", 0)
        if not ed25519_ok(self.identities[env.seat], env.signed, env.sig):
            raise self.fail(f"entry {i}: the host placed an entry seat {env.seat} did not sign", 0)
        if not ed25519_ok(self.host_key, placement(gid, env.anchor_seq, env.anchor), env.anchor_sig):
            raise self.fail(f"entry {i}: anchor_sig is not the host's placement of its anchor", env.seat)
        if env.anchor_seq >= env.seq:
            raise self.fail(f"entry {i}: placed before the point it answers", 0)
        if env.anchor != self.hashes[env.anchor_seq]:
            raise self.fail(
                f"entry {i}: its anchor is not this log's entry {env.anchor_seq}: the host forked", 0
            )
        self.hashes.append(h)
        self.envs.append(env)
        self.placement_check(env)
        self.check_anchor(env)
        self.apply(env)
        self.last_by_seat[env.seat] = env.seq

    def placement_check(self, env: Envelope) -> None:
        """Check 9a of 8.4, the two clauses that need no rules: where the host put the entry.

        An entry that is owed where it is placed is neither; an entry of the same writing as one
        the log holds is never owed (its seat owes one entry per point) and neither is anything
        after the entry that ended the game, so these come first. What the author answered after
        the game ended (the abort or the last end, or later) is its own doing (check 9b), and so
        is a second, different entry for a point the log holds one of its author's for (9.5).
        """
        i, w = env.seq, env.writing
        if w in self.writings:
            raise self.fail(
                f"entry {i}: the host placed seat {env.seat}'s entry {self.writings[w]} again "
                "(the same writing W): where an entry sits is the host's",
                0,
            )
        self.writings[w] = i
        if self.over:
            ended = self.envs[self.ended_at]
            what = "abort" if ended.kind == "abort" else "last end"
            twice = [
                e.seq
                for e in self.envs[1:i]
                if e.seat == env.seat and e.anchor_seq == env.anchor_seq and e.writing != w
            ]
            if twice:
                # The author signed a second, different entry for a point where the log holds one
                # of its own: its equivocation (9.5), wherever the host put it.
                raise self.fail(
                    f"entry {i}: seat {env.seat} signed it and entry {twice[0]} for one point (entry "
                    f"{env.anchor_seq}); the host placed it after the {what} (entry {self.ended_at})",
                    env.seat,
                )
            if env.anchor_seq < self.ended_at:
                raise self.fail(
                    f"entry {i}: the host placed seat {env.seat}'s entry, which answers entry "
                    f"{env.anchor_seq}, after the {what} (entry {self.ended_at})",
                    0,
                )
            raise self.fail(
                f"entry {i}: seat {env.seat} answered the {what} (entry {self.ended_at}) or later, "
                "after which nothing is owed",
                env.seat,
            )

    def other_version(self, raw: bytes) -> None:
        """A log of another envelope format or log protocol is not read (exit 3, 8.4)."""
        try:
            obj = msgpack.unpackb(raw, raw=False, strict_map_key=False)
        except Exception:
            return
        if not isinstance(obj, list) or len(obj) != 12:
            return
        version, body = obj[0], obj[4]
        if type(version) is not int or version != 3:
            raise Refused("other version", f"envelope format {version!r}: this verifier reads format 3")
        protocol = body.get("protocol") if isinstance(body, dict) else None
        if type(protocol) is int and protocol not in (3, 4):
            raise Refused("other version", f"log protocol {protocol}: this verifier reads protocols 3 and 4")

    def header(self, env: Envelope) -> None:
        body = env.body
        if not isinstance(body, dict) or not isinstance(body.get("seats"), list) or not body["seats"]:
            raise Refused("damaged", "entry 0 is not a header naming the host's key")
        seat0 = body["seats"][0]
        key = seat0.get("identity") if isinstance(seat0, dict) else None
        if not isinstance(key, bytes) or len(key) != 32:
            raise Refused("damaged", "entry 0 is not a header naming the host's key")
        if not strict_key(key):
            # 8.2: under a key that is not strict there is no signature at all (check 2).
            raise Refused("damaged", "entry 0: the host's key is not a strict Ed25519 key: nothing is signed")
        self.host_key, self.game_id = seat0["identity"], env.game_id
        h = entry_hash(env.game_id, env)
        if not ed25519_ok(self.host_key, env.signed, env.sig):
            raise Refused("damaged", "entry 0: the header's sig is not its host's")
        if not ed25519_ok(self.host_key, placement(env.game_id, 0, h), env.placed):
            raise Refused("damaged", "entry 0: the header's placed is not its host's")
        zero = (env.anchor_seq, env.anchor, env.anchor_sig, env.seq, env.prev)
        if env.kind != "header" or env.seat != 0 or zero != (0, bytes(32), bytes(64), 0, bytes(32)):
            raise Refused("damaged", "entry 0 is not a header of seat 0 at the start of the log")
        self.hashes.append(h)
        self.envs.append(env)
        bad = self.header_fields(body)
        if bad:
            raise self.fail(f"entry 0: the header {bad}", 0)
        self.players = len(body["seats"])
        self.identities = [s["identity"] for s in body["seats"]]
        self.r.game = body["game"]
        self.protocol = self.r.protocol = body["protocol"]

    @staticmethod
    def header_fields(body: dict[str, Any]) -> str | None:
        order = ["protocol", "game", "plugin", "distribution", "version", "options", "seats", "extra"]
        if list(body) != order:
            return "does not have exactly the fields of 9.1 in their order"
        if type(body["protocol"]) is not int or body["protocol"] not in (3, 4):
            return f"is of log protocol {body['protocol']!r}, not 3 or 4"
        for k in ("game", "plugin", "distribution", "version"):
            if not printable(body[k]):
                return f"field {k} is not printable text of 1..200"
        opts, extra, seats = body["options"], body["extra"], body["seats"]
        if not isinstance(opts, dict) or len(opts) > 64 or list(opts) != sorted(opts):
            return "options are not a sorted map of at most 64"
        for k, v in opts.items():
            ok_v = (type(v) is bool) or is_int(v, -(2**63), 2**63 - 1) or printable(v, 0, 200)
            if not printable(k, 1, 40) or not ok_v:
                return f"option {k!r} is malformed"
        if not isinstance(extra, dict) or len(extra) > 16 or list(extra) != sorted(extra):
            return "extra is not a sorted map of at most 16"
        if not all(printable(k, 1, 40) and printable(v, 0, 200) for k, v in extra.items()):
            return "extra is malformed"
        if not 2 <= len(seats) <= 10:
            return "does not have 2..10 seats"
        for s in seats:
            if not isinstance(s, dict) or list(s) != ["name", "identity", "kind"]:
                return "has a seat that is not a map of name, identity, kind"
            if not printable(s["name"], 1, 40) or not printable(s["kind"], 1, 40):
                return "has a seat whose name or kind is not printable"
            if not strict_key(s["identity"]):
                return "has a seat whose identity is not a strict Ed25519 key (8.2)"
        if len({s["identity"] for s in seats}) != len(seats):
            return "has two seats with one identity"
        return None

    # -- check 9: owed now, answering the point it is owed at ------------------------------------

    def check_anchor(self, env: Envelope) -> None:
        """The rules-free part of 8.2: the entry before it, or the start of a batch of its kind."""
        a, seq, seat = env.anchor_seq, env.seq, env.seat
        own = self.last_by_seat.get(seat, -1)
        if a < own:
            raise self.fail(f"entry {seq}: answers entry {a}, before its own entry {own}", seat)
        if env.kind == "deck.key":
            if a != 0:
                raise self.fail(f"entry {seq}: a key that answers entry {a}, not the header", seat)
            return
        if env.kind not in CONCURRENT or env.kind == "abort":
            if a != seq - 1:
                raise self.fail(f"entry {seq}: a {env.kind} answering entry {a}, not the one before it", seat)
            return
        for b in self.envs[a + 1 : seq]:
            if b.kind != env.kind or b.seat == seat:
                raise self.fail(
                    f"entry {seq}: answers entry {a}, but {b.kind} of seat {b.seat} came between",
                    seat,
                )

    def apply(self, env: Envelope) -> None:
        kind, seat, body, seq = env.kind, env.seat, env.body, env.seq
        handler = {
            "deck.key": self.on_key,
            "deck.shuffle": self.on_shuffle,
            "deck.shares": self.on_shares,
            "deck.final-reveal": self.on_final,
            "deck.random-commit": self.on_commit,
            "deck.random-reveal": self.on_reveal,
            "deck.leave": self.on_leave,
            "deck.find": self.on_find,
            "move": self.on_move,
            "resign": self.on_resign,
            "abort": self.on_abort,
            "end": self.on_end,
        }.get(kind)
        if handler is None or (kind == "deck.find" and self.protocol < 4):
            raise self.fail(f"entry {seq}: unknown kind {kind!r}", seat)
        if kind != "deck.find":
            # Without the rules a search's candidates are unknown: it ends when anything else comes.
            self.search = None
        if kind != "abort":
            if len(self.keys) < self.players and kind != "deck.key":
                raise self.fail(f"entry {seq}: a {kind} before every seat's key", seat)
            if seat in self.left:
                raise self.fail(f"entry {seq}: seat {seat} left the game and owes nothing", seat)
        handler(env, seat, body, seq)

    def fields(self, env: Envelope, names: list[str]) -> dict[str, Any]:
        if not isinstance(env.body, dict) or list(env.body) != names:
            raise self.fail(f"entry {env.seq}: a {env.kind} body is not a map of exactly {names}", env.seat)
        return env.body

    def on_key(self, env: Envelope, seat: int, body: Any, seq: int) -> None:
        b = self.fields(env, ["public", "e", "z"])
        if seat in self.keys:
            raise self.fail(f"entry {seq}: a second key of seat {seat}", seat)
        e, z = scalar(b["e"]), scalar(b["z"])
        if not valid_point(b["public"]) or e is None or z is None:
            raise self.fail(f"entry {seq}: a key that is no point, or a proof scalar out of range", seat)
        if not check_key_proof(self.game_id, seat, self.players, b["public"], e, z):
            raise self.fail(f"entry {seq}: the key proof of seat {seat} is false", seat)
        self.keys[seat] = b["public"]
        if len(self.keys) == self.players:
            self.joint = add([self.keys[s] for s in range(self.players)])
            if self.joint is None:
                raise self.fail(f"entry {seq}: the joint key is the identity", seat)

    def public_encryption(self, name: str) -> bytes:
        assert self.joint is not None
        c2 = add([self.name_points[name], self.joint])
        if c2 is None:
            raise ValueError("M + H is the identity")
        return G + c2

    def on_shuffle(self, env: Envelope, seat: int, body: Any, seq: int) -> None:
        b = self.fields(env, ["round", "inputs", "deck", "proof"])
        r, inputs, deck = b["round"], b["inputs"], b["deck"]
        if self.round is None:
            if not self.nothing_owed():
                raise self.fail(f"entry {seq}: a new shuffle round while something else is owed", seat)
            if not is_int(r, 0, 4095) or r != self.rounds_done:
                raise self.fail(f"entry {seq}: round {r}, but the next round is {self.rounds_done}", seat)
            participants = self.active()
            if seat != participants[0]:
                raise self.fail(f"entry {seq}: round {r}'s first pass is seat {participants[0]}'s", seat)
            self.round = Round(r, participants, self.round_inputs(env, r, inputs))
        else:
            rd = self.round
            if r != rd.index:
                raise self.fail(f"entry {seq}: round {r} while round {rd.index} is in progress", seat)
            if inputs is not None:
                raise self.fail(f"entry {seq}: a later pass of round {r} lists inputs", seat)
            if seat != rd.participants[rd.passes]:
                owner = rd.participants[rd.passes]
                raise self.fail(f"entry {seq}: pass {rd.passes} of round {r} is seat {owner}'s", seat)
        rd = self.round
        if not isinstance(deck, list) or len(deck) != len(rd.deck):
            raise self.fail(f"entry {seq}: a deck of the wrong size", seat)
        assert self.joint is not None
        context = frame(b"shuffle-pass", self.game_id, seat, r, rd.passes)
        why = check_shuffle_proof(context, self.joint, rd.deck, deck, b["proof"])
        if why is not None:
            raise self.fail(f"entry {seq}: pass {rd.passes} of round {r} by seat {seat}: {why}", seat)
        self.r.passes_checked += 1
        rd.deck = list(deck)
        rd.passes += 1
        if rd.passes == len(rd.participants):
            for j, ct in enumerate(rd.deck):
                self.ct[self.next_token + j] = ct
                self.live.add(self.next_token + j)
            self.next_token += len(rd.deck)
            self.rounds_done += 1
            self.r.rounds_complete += 1
            self.round = None

    def round_inputs(self, env: Envelope, r: int, inputs: Any) -> list[bytes]:
        seat, seq = env.seat, env.seq
        if not isinstance(inputs, list) or not 1 <= len(inputs) <= 1024:
            raise self.fail(f"entry {seq}: round {r}'s first pass does not list 1..1024 inputs", seat)
        out: list[bytes] = []
        if r == 0:
            orders = []
            for item in inputs:
                if not isinstance(item, list) or len(item) != 2 or item[0] is not None:
                    raise self.fail(f"entry {seq}: a round-0 input that is not [nil, card]", seat)
                o = card_order(item[1])
                if o is None:
                    raise self.fail(f"entry {seq}: {item[1]!r} is not a card's name", seat)
                orders.append(o)
            names = [item[1] for item in inputs]
            if len(set(names)) != len(names):
                raise self.fail(f"entry {seq}: a card listed twice in round 0", seat)
            if orders != sorted(orders):
                raise self.fail(f"entry {seq}: round 0's cards are not in the canonical order", seat)
            for name in names:
                point = hash_to_curve(frame(T_CARD, self.game_id, name), DST_CARD)
                self.name_points[name] = point
                self.card_points[point] = name
                out.append(self.public_encryption(name))
            return out
        seen: set[int] = set()
        for item in inputs:
            if not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int:
                raise self.fail(f"entry {seq}: a reshuffle input that is not [token, card or nil]", seat)
            t, name = item
            if t not in self.live or t in seen:
                raise self.fail(f"entry {seq}: token {t} is not live, or listed twice", seat)
            seen.add(t)
            if name is None:
                # Protocol 4: every card known to everyone is listed with its name, opened by public
                # shares or by a seat that left (10.6). Protocol 3: one opened by public shares (a
                # card handed on there put every share in the log with private purposes).
                if self.known(t) and (self.protocol >= 4 or t in self.opened_publicly):
                    raise self.fail(
                        f"entry {seq}: token {t}, known to everyone, is listed without its card", seat
                    )
                out.append(self.ct[t])
            elif self.card.get(t) == name:
                out.append(self.public_encryption(name))
            else:
                raise self.fail(
                    f"entry {seq}: token {t} listed as {name!r}, not as the card it opened to", seat
                )
        self.live -= seen
        return out

    def check_rows(self, env: Envelope, rows: Any, public_only: bool) -> list[tuple[int, int | None]]:
        """Check every share row's form and proof and record it; return the reveals it serves.

        ``rows`` is a list already (its length is the caller's to check); tokens are distinct
        over the whole body (the caller's too).
        """
        seat, seq = env.seat, env.seq
        served = []
        points: dict[int, bytes] = {}
        for row in rows:
            if not isinstance(row, list) or len(row) != 5:
                raise self.fail(f"entry {seq}: a share row that is not [token, to, share, e, z]", seat)
            t, to, d, e_b, z_b = row
            if type(t) is not int or t not in self.ct:
                raise self.fail(f"entry {seq}: token {t!r} does not exist", seat)
            bad_to = public_only or type(to) is not int or not 0 <= to < self.players or to == seat
            if to is not None and bad_to:
                raise self.fail(f"entry {seq}: share of token {t} opens to {to!r}", seat)
            if seat in self.shares.get(t, {}):
                raise self.fail(
                    f"entry {seq}: seat {seat} already has its share of token {t}'s ciphertext in the log",
                    seat,
                )
            if to is not None and (t, to) not in self.pending and self.protocol >= 4:
                # 10.4: shares open a card to one seat only when nobody can read it; a card that
                # one seat alone can open is handed over by it (10.4.1), never opened by its share.
                lacking = self.lacking(t)
                if lacking != self.active():
                    raise self.fail(
                        f"entry {seq}: seat {seat} opens token {t} to seat {to} with shares, but only "
                        f"seat(s) {lacking} lack theirs: such a card is handed over (10.4)",
                        seat,
                    )
            e, z = scalar(e_b), scalar(z_b)
            if not valid_point(d) or e is None or z is None:
                raise self.fail(f"entry {seq}: share of token {t}: no point, or a scalar out of range", seat)
            purpose = "public" if to is None else f"to seat {to}"
            if not check_share_proof(self.game_id, seat, t, self.ct[t], purpose, self.keys[seat], d, e, z):
                raise self.fail(
                    f"entry {seq}: seat {seat}'s share proof of token {t} ({purpose}) is false", seat
                )
            self.r.shares_checked += 1
            served.append((t, to))
            points[t] = d
        for t, to in served:
            self.shares.setdefault(t, {})[seat] = points[t]
            if to is not None:
                self.private_to.setdefault(t, set()).add(to)
            else:
                self.opened_publicly.add(t)
        for t, _ in served:
            self.decode(t, env)
        return served

    def check_handovers(self, env: Envelope, rows: list[Any]) -> list[tuple[int, int]]:
        """Check every hand-over row (10.4.1) and apply it; return the (token, to) it serves."""
        m, seq = env.seat, env.seq
        done: list[tuple[int, int]] = []
        for row in rows:
            if not isinstance(row, list) or len(row) != 9:
                raise self.fail(
                    f"entry {seq}: a hand-over row that is not [token, to, ciphertext, masks, e, z, "
                    "share, share_e, share_z]",
                    m,
                )
            t, r, new_ct, masks, e_b, z_b, d, se_b, sz_b = row
            if type(t) is not int or t not in self.live:
                raise self.fail(f"entry {seq}: a hand-over of token {t!r}, which is not live", m)
            if type(r) is not int or r == m or r not in self.active():
                raise self.fail(f"entry {seq}: a hand-over of token {t} to {r!r}, not another active seat", m)
            lacking = self.lacking(t)
            if lacking != [m]:
                raise self.fail(
                    f"entry {seq}: seat {m} hands token {t} over, but the seat(s) without their share "
                    f"of its ciphertext are {lacking}: only the one seat that alone can open it may",
                    m,
                )
            masked = [i for i in self.active() if i not in (m, r)]
            if not isinstance(masks, list) or len(masks) != len(masked):
                raise self.fail(
                    f"entry {seq}: the hand-over of token {t} has no list of {len(masked)} masks "
                    f"(seats {masked})",
                    m,
                )
            halves_ok = isinstance(new_ct, bytes) and len(new_ct) == 66
            halves_ok = halves_ok and valid_point(new_ct[:33]) and valid_point(new_ct[33:])
            if not halves_ok or not all(valid_point(x) for x in masks) or not valid_point(d):
                raise self.fail(f"entry {seq}: the hand-over of token {t}: a point that is not valid", m)
            e, z, se, sz = scalar(e_b), scalar(z_b), scalar(se_b), scalar(sz_b)
            if e is None or z is None or se is None or sz is None:
                raise self.fail(f"entry {seq}: the hand-over of token {t}: a scalar out of range", m)
            old_ct, old_shares = self.ct[t], self.shares.setdefault(t, {})
            assert self.joint is not None
            masked_keys = [self.keys[i] for i in masked]
            if not check_handover_proof(
                self.game_id, m, t, r, old_ct, new_ct, self.joint, masked_keys, masks, e, z
            ):
                raise self.fail(
                    f"entry {seq}: seat {m}'s hand-over proof of token {t} to seat {r} is false", m
                )
            purpose = f"to seat {r}"
            if not check_share_proof(self.game_id, m, t, new_ct, purpose, self.keys[m], d, se, sz):
                raise self.fail(
                    f"entry {seq}: seat {m}'s share of token {t}'s new ciphertext ({purpose}) is false", m
                )
            carried: dict[int, bytes] = {m: d}
            for i, mask in zip(masked, masks, strict=True):
                share = add([old_shares[i], mask])
                if share is None:
                    raise self.fail(
                        f"entry {seq}: the hand-over of token {t} carries seat {i}'s share to nothing", m
                    )
                carried[i] = share
            self.old.setdefault(t, []).append((old_ct, old_shares))
            self.ct[t], self.shares[t] = new_ct, carried
            self.private_to.setdefault(t, set()).add(r)
            self.r.handovers_checked += 1
            done.append((t, r))
        return done

    def decode(self, t: int, env: Envelope) -> None:
        """Once every share of one of t's ciphertexts is at hand, the card is known (10.4)."""
        if t in self.card:
            return
        for ct, shares in self.ciphertexts(t):
            if not self.opens(shares):
                continue
            c1 = ct[:33]
            ds = [shares[s] if s in shares else msm([(c1, self.left[s])]) for s in range(self.players)]
            m = add([ct[33:], *(neg(d) for d in ds if d is not None)])
            if m is None or m not in self.card_points:
                raise self.fail(f"entry {env.seq}: token {t} opens to no card of the deck", env.seat)
            self.card[t] = self.card_points[m]
            self.r.cards_decoded += 1
            return

    def update_pending(self, served: list[tuple[int, int | None]], seat: int) -> None:
        """Section 15, a reveal under way: its first row says whom it opens t to; it is owed then by
        every active seat without its share of ct[t] (but the recipient), until each has sent it."""
        for t, to in served:
            key = (t, to)
            if key not in self.pending:
                self.pending[key] = {s for s in self.lacking(t) if s != to}
            self.pending[key].discard(seat)
            if not self.pending[key]:
                del self.pending[key]

    def owing_seats(self) -> set[int]:
        return set().union(*self.pending.values()) if self.pending else set()

    def shares_body(self, env: Envelope, body: Any, in_move: bool = False) -> tuple[list[Any], list[Any]]:
        """A deck.shares body (9.4): its share rows and its hand-over rows, their sizes checked."""
        seq, seat = env.seq, env.seat
        names = ["shares", "handovers"] if self.protocol >= 4 else ["shares"]
        if not isinstance(body, dict) or list(body) != names:
            where = "a move's shares" if in_move else "a deck.shares body"
            raise self.fail(f"entry {seq}: {where} is not a map of exactly {names}", seat)
        rows, handovers = body["shares"], body.get("handovers", [])
        if not isinstance(rows, list) or not isinstance(handovers, list):
            raise self.fail(f"entry {seq}: shares and hand-overs that are not arrays", seat)
        if len(rows) > 1024 or len(handovers) > 1024 or (not rows and not handovers):
            raise self.fail(f"entry {seq}: no row at all, or over 1024 in an array", seat)
        if in_move and handovers:
            raise self.fail(f"entry {seq}: a move's shares with hand-overs", seat)
        tokens = [row[0] for row in [*rows, *handovers] if isinstance(row, list) and row]
        if len(tokens) != len(set(map(repr, tokens))):
            raise self.fail(f"entry {seq}: a token twice in one body", seat)
        return rows, handovers

    def on_shares(self, env: Envelope, seat: int, body: Any, seq: int) -> None:
        rows, handovers = self.shares_body(env, body)
        if self.final_begun:
            raise self.fail(f"entry {seq}: deck.shares during the final reveal", seat)
        if self.round is not None or self.choice is not None:
            raise self.fail(f"entry {seq}: deck.shares while a shuffle or random choice is in progress", seat)
        mine = {k for k, v in self.pending.items() if seat in v}
        if self.pending and env.anchor_seq != self.reveal_anchor:
            # While a reveal is under way, every deck.shares answers the point its first entry
            # answered (8.2: an obligation still owed keeps its anchor): what the reveal asks of a
            # seat, or that seat's own part of the same step (a hand-over, shares of other tokens).
            raise self.fail(
                f"entry {seq}: deck.shares of seat {seat} answering entry {env.anchor_seq}, while "
                f"reveals that answer entry {self.reveal_anchor} are under way (owed by seats "
                f"{sorted(self.owing_seats())})",
                seat,
            )
        if not self.pending:
            self.reveal_anchor = env.anchor_seq
        served = self.check_rows(env, rows, public_only=False)
        self.check_handovers(env, handovers)
        missing = mine - set(served)
        if missing:
            # A seat sends all it owes of a reveal in one entry (9.4).
            raise self.fail(
                f"entry {seq}: seat {seat} leaves its share(s) of {sorted(missing, key=repr)} owed: "
                "a seat sends all it owes of a reveal in one entry",
                seat,
            )
        self.update_pending(served, seat)

    def on_move(self, env: Envelope, seat: int, body: Any, seq: int) -> None:
        b = self.fields(env, ["move", "shares"])
        if not self.nothing_owed():
            raise self.fail(f"entry {seq}: a move while the deck protocol owes an entry", seat)
        mv = b["move"]
        ok = isinstance(mv, list) and len(mv) == 2 and printable(mv[0], 1, 64) and isinstance(mv[1], list)
        if ok:
            args = mv[1]
            ok = len(args) <= 16 and all(is_int(a, -(2**31), 2**31 - 1) or printable(a, 0, 64) for a in args)
        if not ok:
            raise self.fail(f"entry {seq}: a move that is not [action, args]", seat)
        if b["shares"] is not None:
            rows, _ = self.shares_body(env, b["shares"], in_move=True)
            for row in rows:
                t = row[0] if isinstance(row, list) and row else None
                # 9.2: a card that lies in a zone, is not public, and its mover alone can open.
                mine = type(t) is int and t in self.live and not self.known(t) and self.lacking(t) == [seat]
                if type(t) is int and t in self.ct and not mine:
                    raise self.fail(
                        f"entry {seq}: the move reveals token {t}, which is not a card its mover "
                        "alone can open",
                        seat,
                    )
            served = self.check_rows(env, rows, public_only=True)
            self.update_pending(served, seat)
            if self.owing_seats():
                raise self.fail(f"entry {seq}: a move's shares leave a reveal owed", seat)

    def on_resign(self, env: Envelope, seat: int, body: Any, seq: int) -> None:
        if body != {}:
            raise self.fail(f"entry {seq}: a resign body that is not {{}}", seat)
        if not self.nothing_owed():
            raise self.fail(f"entry {seq}: a resignation while the deck protocol owes an entry", seat)

    def on_final(self, env: Envelope, seat: int, body: Any, seq: int) -> None:
        b = self.fields(env, ["shares"])
        if not self.final_begun:
            if not self.nothing_owed():
                raise self.fail(f"entry {seq}: the final reveal begins while something else is owed", seat)
            self.final_begun = True
        owed = self.final_owed()
        rows = b["shares"]
        if not isinstance(rows, list) or not 1 <= len(rows) <= 1024:
            raise self.fail(f"entry {seq}: not 1..1024 share rows", seat)
        tokens = [row[0] for row in rows if isinstance(row, list) and row]
        if len(tokens) != len(set(map(repr, tokens))):
            raise self.fail(f"entry {seq}: a token twice in one body", seat)
        for row in rows:
            t = row[0] if isinstance(row, list) and row else None
            if t not in owed or seat not in owed[t]:
                raise self.fail(
                    f"entry {seq}: a final-reveal share of token {t!r} seat {seat} does not owe", seat
                )
        self.check_rows(env, rows, public_only=True)

    def on_commit(self, env: Envelope, seat: int, body: Any, seq: int) -> None:
        b = self.fields(env, ["index", "n", "commitment"])
        i, n, c = b["index"], b["n"], b["commitment"]
        if self.choice is None:
            if not self.nothing_owed():
                raise self.fail(f"entry {seq}: a random choice begins while something else is owed", seat)
            if not is_int(n, 1, 2**63 - 1):
                raise self.fail(f"entry {seq}: a random choice of range {n!r}", seat)
            self.choice = Choice(self.choices_done, n, self.active())
        ch = self.choice
        if ch.values:
            raise self.fail(f"entry {seq}: a commitment after the reveals began", seat)
        if i != ch.index or n != ch.n or type(i) is not int:
            raise self.fail(
                f"entry {seq}: a commitment to choice {i!r} of {n!r}; owed: {ch.index} of {ch.n}", seat
            )
        if seat not in ch.participants or seat in ch.commits:
            raise self.fail(f"entry {seq}: seat {seat} does not owe a commitment to choice {i}", seat)
        if not isinstance(c, bytes) or len(c) != 32:
            raise self.fail(f"entry {seq}: a commitment that is not 32 bytes", seat)
        ch.commits[seat] = c

    def on_reveal(self, env: Envelope, seat: int, body: Any, seq: int) -> None:
        b = self.fields(env, ["index", "value"])
        ch = self.choice
        if ch is None or len(ch.commits) < len(ch.participants):
            raise self.fail(f"entry {seq}: a random reveal before every commitment is in", seat)
        if b["index"] != ch.index or type(b["index"]) is not int:
            raise self.fail(f"entry {seq}: a reveal of choice {b['index']!r}, not {ch.index}", seat)
        if seat not in ch.participants or seat in ch.values:
            raise self.fail(f"entry {seq}: seat {seat} does not owe a reveal of choice {ch.index}", seat)
        v = b["value"]
        if not isinstance(v, bytes) or len(v) != 32:
            raise self.fail(f"entry {seq}: a value that is not 32 bytes", seat)
        if digest(T_COMMIT, self.game_id, seat, ch.index, ch.n, v) != ch.commits[seat]:
            raise self.fail(f"entry {seq}: seat {seat}'s value does not open its commitment", seat)
        ch.values[seat] = v
        if len(ch.values) == len(ch.participants):
            parts: list[int | bytes] = []
            for s in sorted(ch.participants):
                parts += [s, ch.values[s]]
            key = digest(T_RESULT, self.game_id, ch.index, ch.n, *parts)
            self.r.choices.append(random_below(key, ch.n))
            self.choices_done += 1
            self.choice = None

    def on_find(self, env: Envelope, seat: int, body: Any, seq: int) -> None:
        """10.4.2: a candidate's answer to a search for who holds a card."""
        b = self.fields(env, ["card", "share"])
        card, row = b["card"], b["share"]
        if self.search is None or env.anchor_seq != self.search.anchor:
            if not self.nothing_owed():
                raise self.fail(f"entry {seq}: a search for a card begins while something else is owed", seat)
            if not printable(card, 1, 200) or card_order(card) is None:
                raise self.fail(f"entry {seq}: a search for {card!r}, which is not a card's name", seat)
            self.search = Search(env.anchor_seq, card)
        search = self.search
        if card != search.card:
            raise self.fail(f"entry {seq}: an answer about {card!r} in a search for {search.card!r}", seat)
        if seat in search.answered:
            raise self.fail(f"entry {seq}: seat {seat} answers the search for {card} twice", seat)
        search.answered.add(seat)
        self.r.finds_checked += 1
        if row is None:
            return
        if not isinstance(row, list) or len(row) != 5 or row[1] is not None:
            raise self.fail(f"entry {seq}: a showing that is not one row [token, nil, share, e, z]", seat)
        if search.shown is not None:
            raise self.fail(f"entry {seq}: seat {search.shown} showed {card} already in this search", seat)
        t = row[0]
        if type(t) is not int or t not in self.live or self.known(t) or self.lacking(t) != [seat]:
            raise self.fail(
                f"entry {seq}: seat {seat} shows token {t!r}, which is not a live card it alone can open",
                seat,
            )
        self.check_rows(env, [row], public_only=True)
        if self.card.get(t) != card:
            raise self.fail(f"entry {seq}: seat {seat} shows {self.card.get(t)} for {card}", seat)
        search.shown = seat

    def on_leave(self, env: Envelope, seat: int, body: Any, seq: int) -> None:
        b = self.fields(env, ["secret"])
        if not self.nothing_owed():
            raise self.fail(f"entry {seq}: a seat leaves while something else is owed", seat)
        x = scalar(b["secret"])
        if x is None or mul_g(x) != self.keys[seat]:
            raise self.fail(f"entry {seq}: seat {seat}'s secret is not its key's", seat)
        self.left[seat] = x
        # 10.6: its secret opens every ciphertext whose other shares are in the log.
        for t in list(self.ct):
            self.decode(t, env)

    def on_abort(self, env: Envelope, seat: int, body: Any, seq: int) -> None:
        if seat != 0:
            raise self.fail(f"entry {seq}: an abort by seat {seat}, not the host", seat)
        shapes = (["blame", "reason"], ["blame", "reason", "evidence"])
        if not isinstance(body, dict) or list(body) not in shapes:
            raise self.fail(f"entry {seq}: an abort body that is not blame, reason[, evidence]", 0)
        blame, reason = body["blame"], body["reason"]
        if (
            not isinstance(blame, list)
            or not all(is_int(s, 0, self.players - 1) for s in blame)
            or len(set(blame)) != len(blame)
        ):
            raise self.fail(f"entry {seq}: the abort's blame is not a list of distinct seats", 0)
        if not printable(reason, 0, 200):
            raise self.fail(f"entry {seq}: the abort's reason is not printable", 0)
        self.over, self.ended_at = True, seq
        self.r.complete = True
        if "evidence" in body:
            why = self.evidence(body["evidence"], blame)
            if why:
                raise self.fail(f"entry {seq}: the abort's evidence proves nothing: {why}", 0)
            self.r.reason = (
                f"seat {blame[0]} signed entry {self.r.entry} and another entry for its obligation "
                f"(the evidence of the abort, entry {seq})"
            )
            raise Refused("cheating", self.r.reason, blame[0])
        self.r.verdict = "undecided"
        self.r.reason = f"aborted at entry {seq}: the host blames seats {blame} ({reason})"

    def evidence(self, raw: Any, blame: list[int]) -> str | None:
        if len(blame) != 1 or not isinstance(raw, bytes):
            return "not one blamed seat and one envelope"
        try:
            ev = decode_envelope(raw)
        except Exception as exc:
            return f"it does not decode: {exc}"
        if ev.game_id != self.game_id or ev.seat != blame[0]:
            return "another game's, or not the blamed seat's"
        if not ed25519_ok(self.identities[ev.seat], ev.signed, ev.sig):
            return "its author did not sign it"
        for e in self.envs:
            same_point = e.seat == ev.seat and (e.anchor_seq, e.anchor) == (ev.anchor_seq, ev.anchor)
            if same_point and e.writing != ev.writing:
                self.r.entry = e.seq  # the entry it signed twice; the other is the evidence
                return None
        return "the log holds no other entry of that seat for that obligation"

    def on_end(self, env: Envelope, seat: int, body: Any, seq: int) -> None:
        b = self.fields(env, ["winner", "scores", "reason"])
        if not self.ends:
            idle = self.round is None and self.choice is None and not self.owing_seats()
            if not idle or len(self.keys) < self.players:
                raise self.fail(f"entry {seq}: an end while the deck protocol owes an entry", seat)
            if self.final_owed():
                raise self.fail(f"entry {seq}: an end before the final reveal is complete", seat)
        w, scores = b["winner"], b["scores"]
        ok = (w is None or is_int(w, 0, self.players - 1)) and isinstance(scores, list)
        ok = ok and len(scores) == self.players and all(is_int(x, -(2**63), 2**63 - 1) for x in scores)
        if not ok or not printable(b["reason"], 0, 200):
            raise self.fail(f"entry {seq}: an end that is not winner, scores (one per seat), reason", seat)
        if seat in self.ends:
            raise self.fail(f"entry {seq}: a second end of seat {seat}", seat)
        if self.ends and body != next(iter(self.ends.values())):
            first = next(iter(self.ends))
            raise self.fail(
                f"entry {seq}: seat {seat}'s end differs from seat {first}'s: one of them states a result "
                "the rules do not give (without them, the later is named: protocol.md 15)",
                seat,
            )
        self.ends[seat] = body
        if set(self.ends) == set(self.active()):
            self.over, self.ended_at = True, seq
            self.r.complete = True


def random_below(key: bytes, n: int) -> int:
    """below(stream, n) of 10.5 over the stream keyed with K."""
    m = (n.bit_length() + 7) // 8 + 8
    limit = (256**m // n) * n
    j = 0
    while True:
        v = int.from_bytes(hashlib.shake_256(key + j.to_bytes(8, "big")).digest(m), "big")
        j += 1
        if v < limit:
            return v % n


def verify_file(path: str) -> Report:
    report = Report(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        # Missing, unreadable, a folder: nothing was checked (exit 4).
        report.verdict, report.reason = "unreadable", f"cannot read {path}: {exc.strerror or exc}"
        return report
    Verifier(report).run(data)
    return report


EXIT = {
    "fair": 0,
    "cheating": 1,
    "damaged": 1,
    "undecided": 2,
    "not a log": 3,
    "other version": 3,
    "unreadable": 4,
}


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    paths = [a for a in argv if a != "--json"]
    if not paths:
        print(__doc__.split("\n\n")[-1] if __doc__ else "usage: verifier.py [--json] LOG...", file=sys.stderr)
        return 3
    worst = 0
    for path in paths:
        rep = verify_file(path)
        worst = max(worst, EXIT[rep.verdict])
        if as_json:
            print(json.dumps(rep.as_dict()))
            continue
        line = f"{path}: {rep.verdict}"
        if rep.verdict == "cheating":
            line += f" (seat {rep.seat})"
        if rep.reason:
            line += f": {rep.reason}"
        print(line)
        print(
            f"  {rep.game or '?'}, {rep.entries} entries; shuffle passes checked {rep.passes_checked} / "
            f"{rep.passes_total}, rounds complete {rep.rounds_complete}; share proofs {rep.shares_checked}, "
            f"hand-overs {rep.handovers_checked}, search answers {rep.finds_checked}, "
            f"cards decoded {rep.cards_decoded}, random choices {rep.choices}"
        )
        for item in rep.not_checked:
            print(f"  not checked: {item}")
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
