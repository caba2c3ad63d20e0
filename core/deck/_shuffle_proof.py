"""Zero-knowledge proof that a shuffle pass permutes and re-encrypts its input: pure functions.

The proof of a shuffle of Terelius and Wikström ("Proofs of Restricted Shuffles",
AFRICACRYPT 2010, LNCS 6055), in the optimised ElGamal form that Haenni, Locher, Koenig
and Dubuis give step by step as GenShuffleProof and CheckShuffleProof in "Pseudo-Code
Algorithms for Verifiable Re-encryption Mix-Nets" (FC 2017 Workshops, LNCS 10323): the
proof Verificatum implements, in the form CHVote specifies. Here it is written additively over secp256k1
(order L), with the deck's ElGamal ``(c1, c2) = (t·G, M + t·H)``,
responses ``s = ω + e·w`` (the sign of the house's Schnorr proofs) and Fiat–Shamir in
the compact form: the proof carries the challenge ``e`` and the verifier recomputes
every prover commitment ``t`` and hashes. ``docs/protocol.md`` (10.7) specifies every
element, hash input and its order.

Statement: ``outputs[j] = inputs[π(j)] + s_j·(G, H)`` for some permutation π of 0..n−1
and scalars s_j, under the joint key H. An input may be the public encryption
``(G, M + H)`` of a card everyone knows (:func:`~._group.trivial`); no point anywhere
is the identity, which has no encoding (``docs/protocol.md``, "The identity"): a
recomputed commitment that would be the identity, or a zero response, makes a proof
invalid, and the prover draws again when it meets one (probability about 2**-256).
:func:`prove_shuffle` makes the proof from (π, s); :func:`verify_shuffle` checks it and
never raises on hostile input. ``context`` must bind the game id, the seat, the round
and the pass (:func:`proof_context`). Cost: the prover 5n variable-base and 3n
fixed-base scalar multiplications, all in constant time, the verifier 8n and n, in
variable time (its scalars are public); one variable-base fewer per card on each side
for an input whose c1 is G, whose products are folded into the one multiple of G.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from ..errors import LocalProtocolError, RemoteProtocolError
from . import _group as g
from . import _h2c
from . import _secp256k1 as ec
from ._limits import MAX_DECK

L = g.L
#: Prover attempts before giving up (each fails with probability about 2**-250).
_ATTEMPTS = 4


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """A proof for an n-card pass; points 33-byte encodings, scalars 32 bytes in [1, L).

    ``commitments[i]`` commits to where input i went; ``chain`` is the commitment chain
    ĉ_1..ĉ_n; ``challenge`` is e; ``s1``..``s4``, ``s_hat`` (n) and ``s_prime`` (n)
    are the responses.
    """

    commitments: tuple[bytes, ...]
    chain: tuple[bytes, ...]
    challenge: bytes
    s1: bytes
    s2: bytes
    s3: bytes
    s4: bytes
    s_hat: tuple[bytes, ...]
    s_prime: tuple[bytes, ...]


class _Invalid(Exception):
    """The proof does not hold (a bad point, an identity, or an equation fails)."""


_G = ec.parse(g.G)


def _int(b: bytes) -> int:
    return int.from_bytes(b, "big")


def _enc(x: int) -> bytes:
    return (x % L).to_bytes(32, "big")


def _combination(
    terms: Sequence[tuple[int, ec.Pt | None]], mul: Callable[[int, ec.Pt], ec.Pt], g_coefficient: int = 0
) -> ec.Pt:
    """``g_coefficient·G + Σ k·P`` over ``terms``; raises ``ec.Infinity`` if it is the identity.

    A term whose coefficient is 0 mod L or whose point is None (an identity computed on
    the way) adds nothing; G's multiple is one constant-time base multiplication.
    """
    points = [mul(k % L, pt) for k, pt in terms if pt is not None and k % L]
    if g_coefficient % L:
        points.append(ec.base(g_coefficient % L))
    if not points:
        raise ec.Infinity("an empty sum")
    return ec.total(points)


def _sum_or_none(points: Sequence[ec.Pt]) -> ec.Pt | None:
    """The sum of ``points``, or None when it is the identity (an intermediate value)."""
    try:
        return ec.total(points)
    except ec.Infinity:
        return None


# --- public parameters and hashes ----------------------------------------------------------


@cache
def _generator(k: int) -> ec.Pt:
    return _h2c.hash_to_curve(g.frame(g.TAG_SHUFFLE_GENERATOR, k), g.DST_GENERATOR)


def generator(k: int) -> bytes:
    """Independent generator number ``k``: hash-to-curve, so nobody knows a discrete log.

    ``generator(0)`` starts the commitment chain; ``generator(j + 1)`` commits deck position j.
    RFC 9380 ``secp256k1_XMD:SHA-256_SSWU_RO_`` of ``frame(TAG_SHUFFLE_GENERATOR, k)``
    under ``DST_GENERATOR``.
    """
    return ec.encode(_generator(k))


@lru_cache(maxsize=64)
def _generator_sum(n: int) -> ec.Pt:
    """``generator(1) + ... + generator(n)``."""
    return ec.total([_generator(j + 1) for j in range(n)])


def proof_context(game_id: bytes, seat: int, round_index: int, pass_index: int) -> bytes:
    """The context a deck shuffle pass binds its proof to."""
    return g.frame(b"shuffle-pass", game_id, seat, round_index, pass_index)


def _statement(
    context: bytes,
    joint: bytes,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    commitments: Sequence[bytes],
) -> bytes:
    return g.digest(
        g.TAG_SHUFFLE_STATEMENT,
        context,
        joint,
        len(inputs),
        b"".join(inputs),
        b"".join(outputs),
        b"".join(commitments),
    )


def _challenges(statement: bytes, n: int) -> list[int]:
    return [g.hash_int(g.TAG_SHUFFLE_U, statement, i) for i in range(n)]


def _challenge(statement: bytes, chain: Sequence[bytes], t: Sequence[bytes], t_hat: Sequence[bytes]) -> bytes:
    return g.hash_scalar(g.TAG_SHUFFLE_CHALLENGE, statement, b"".join(chain), *t, b"".join(t_hat))


# --- the prover ------------------------------------------------------------------------------


def _check_cts(cts: Sequence[bytes], what: str) -> None:
    if not all(type(c) is bytes and len(c) == g.CT_BYTES for c in cts):
        raise LocalProtocolError(f"every {what} ciphertext is {g.CT_BYTES} bytes")


def prove_shuffle(
    context: bytes,
    joint_key: bytes,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    permutation: Sequence[int],
    scalars: Sequence[bytes],
    seed: bytes,
) -> ShuffleProof:
    """Prove that ``outputs[j] = inputs[permutation[j]] + scalars[j]·(G, joint_key)``.

    ``seed`` (32 or more secret bytes) and the whole statement and witness derive the
    prover's randomness, as EdDSA derives its nonce: the same call gives the same proof,
    another seed another proof. The outputs are not recomputed: if they are not that
    pass, the proof simply does not verify.
    """
    n = len(inputs)
    if not 1 <= n <= MAX_DECK or len(outputs) != n or len(permutation) != n or len(scalars) != n:
        raise LocalProtocolError(
            f"a shuffle proof needs 1 to {MAX_DECK} inputs, outputs, scalars and positions"
        )
    _check_cts(inputs, "input")
    _check_cts(outputs, "output")
    if not all(type(p) is int for p in permutation) or sorted(permutation) != list(range(n)):
        raise LocalProtocolError("the permutation must hold each of 0..n-1 once")
    if not all(g.is_scalar(s) for s in scalars):
        raise LocalProtocolError("re-encryption scalars must be canonical")
    if not g.is_point(joint_key) or type(context) is not bytes:
        raise LocalProtocolError("a shuffle proof needs a context and a valid joint key")
    if type(seed) is not bytes or len(seed) < 32:
        raise LocalProtocolError("the prover's seed is 32 or more bytes")
    perm = list(permutation)
    witness = g.frame(
        g.TAG_SHUFFLE_NONCE,
        seed,
        context,
        joint_key,
        n,
        b"".join(inputs),
        b"".join(outputs),
        b"".join(p.to_bytes(4, "big") for p in perm),
        b"".join(scalars),
    )
    for attempt in range(_ATTEMPTS):
        proof = _prove(
            context, joint_key, inputs, outputs, perm, [_int(s) for s in scalars], witness, attempt
        )
        if proof is not None:
            return proof
    raise LocalProtocolError("no shuffle proof could be made")  # pragma: no cover - about 2**-1000


def _prove(
    context: bytes,
    joint_key: bytes,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    perm: list[int],
    s: list[int],
    witness: bytes,
    attempt: int,
) -> ShuffleProof | None:
    """One attempt; None when an identity or a zero response came out (never in practice)."""
    try:
        return _attempt(context, joint_key, inputs, outputs, perm, s, witness, attempt)
    except ec.Infinity:  # pragma: no cover - about 2**-250
        return None


def _attempt(
    context: bytes,
    joint_key: bytes,
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    perm: list[int],
    s: list[int],
    witness: bytes,
    attempt: int,
) -> ShuffleProof | None:
    n = len(inputs)
    key = hashlib.sha512(witness + attempt.to_bytes(4, "big")).digest()
    stream = hashlib.shake_256(key).digest(64 * (4 * n + 4))
    rand = [_int(stream[64 * k : 64 * k + 64]) % L for k in range(4 * n + 4)]
    r, r_hat, w_hat, w_prime = (rand[k * n : (k + 1) * n] for k in range(4))
    w1, w2, w3, w4 = rand[4 * n :]
    h = _generator(0)
    hs = [_generator(j + 1) for j in range(n)]
    joint = ec.parse(joint_key)
    # Every multiplication here is by a secret (or by a public scalar chosen by the secret
    # permutation), so every one is constant time: ec.mul, ec.base.
    mul = ec.mul

    # Commitment to the permutation matrix, column by column: c_i = r_i·G + Σ_{π(j)=i} h_j.
    where = [0] * n
    for j, i in enumerate(perm):
        where[i] = j
    commitments = [ec.encode(ec.total([ec.base(r[i]), hs[where[i]]])) for i in range(n)]
    statement = _statement(context, joint_key, inputs, outputs, commitments)
    u = _challenges(statement, n)
    u_out = [u[i] for i in perm]  # u'_j = u_{π(j)}

    # Commitment chain ĉ_k = r̂_k·G + u'_k·ĉ_{k−1}, starting from ĉ_{−1} = h.
    chain_pts = []
    prev = h
    for k in range(n):
        prev = _combination([(u_out[k], prev)], mul, r_hat[k])
        chain_pts.append(prev)
    chain = [ec.encode(c) for c in chain_pts]

    t1 = ec.base(w1)
    t2 = ec.base(w2)
    t3 = _combination([(w_prime[j], hs[j]) for j in range(n)], mul, w3)
    # Σ ω'_j·out_j, from the inputs: out_j = in_π(j) + s_j·(G, H), so the sum is
    # Σ ω'_j·in_π(j) + (Σ ω'_j·s_j)·(G, H). An input's c1 that is G joins G's coefficient.
    ws = sum(a * b for a, b in zip(w_prime, s, strict=True)) % L
    g_coefficient = ws - w4
    terms1: list[tuple[int, ec.Pt | None]] = []
    terms2: list[tuple[int, ec.Pt | None]] = [(ws - w4, joint)]
    for j in range(n):
        ct = inputs[perm[j]]
        if ct[:33] == g.G:
            g_coefficient += w_prime[j]
        else:
            terms1.append((w_prime[j], ec.parse(ct[:33])))
        terms2.append((w_prime[j], ec.parse(ct[33:])))
    t41 = _combination(terms1, mul, g_coefficient)
    t42 = _combination(terms2, mul)
    t_hat = [_combination([(w_prime[k], h if k == 0 else chain_pts[k - 1])], mul, w_hat[k]) for k in range(n)]
    ts = [ec.encode(t) for t in (t1, t2, t3, t41, t42)]
    e_bytes = _challenge(statement, chain, ts, [ec.encode(t) for t in t_hat])
    e = _int(e_bytes)

    # v_k = u'_{k+1}···u'_{n−1}: the weight of r̂_k in ĉ_{n−1} = (Σ r̂_k·v_k)·G + (Π u)·h.
    v = [0] * n
    acc = 1
    for k in range(n - 1, -1, -1):
        v[k] = acc
        acc = acc * u_out[k] % L
    r_bar = sum(r) % L
    r_chain = sum(a * b for a, b in zip(r_hat, v, strict=True)) % L
    r_tilde = sum(a * b for a, b in zip(r, u, strict=True)) % L
    r_prime = sum(a * b for a, b in zip(s, u_out, strict=True)) % L
    responses = [
        w1 + e * r_bar,
        w2 + e * r_chain,
        w3 + e * r_tilde,
        w4 + e * r_prime,
        *(w_hat[k] + e * r_hat[k] for k in range(n)),
        *(w_prime[j] + e * u_out[j] for j in range(n)),
    ]
    if e == 0 or any(x % L == 0 for x in responses):  # pragma: no cover - about 2**-250
        return None
    enc = [_enc(x) for x in responses]
    return ShuffleProof(
        commitments=tuple(commitments),
        chain=tuple(chain),
        challenge=e_bytes,
        s1=enc[0],
        s2=enc[1],
        s3=enc[2],
        s4=enc[3],
        s_hat=tuple(enc[4 : 4 + n]),
        s_prime=tuple(enc[4 + n :]),
    )


# --- the verifier ----------------------------------------------------------------------------


def verify_shuffle(
    context: bytes, joint_key: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], proof: ShuffleProof
) -> bool:
    """True when ``proof`` shows ``outputs`` to be a permutation and re-encryption of ``inputs``.

    Checks everything it relies on (sizes, every scalar in [1, L), every point of the
    proof, the key and both decks canonical points of the group) and that no recomputed
    commitment is the identity; any malformation is ``False``, never an exception.
    """
    try:
        return _verify(context, joint_key, inputs, outputs, proof)
    except (_Invalid, ValueError, ec.Infinity):
        return False


def _well_formed(
    context: object, joint: object, inputs: Sequence[object], outputs: Sequence[object], proof: object
) -> bool:
    n = len(inputs)
    if type(context) is not bytes or type(joint) is not bytes or not 1 <= n <= MAX_DECK or len(outputs) != n:
        return False
    if not all(type(c) is bytes and len(c) == g.CT_BYTES for c in (*inputs, *outputs)):
        return False
    if not isinstance(proof, ShuffleProof):
        return False
    vectors = (proof.commitments, proof.chain, proof.s_hat, proof.s_prime)
    if not all(type(v) is tuple and len(v) == n for v in vectors):
        return False
    points = (*proof.commitments, *proof.chain)
    if not all(type(p) is bytes and len(p) == g.POINT_BYTES for p in points):
        return False
    scalars = (proof.challenge, proof.s1, proof.s2, proof.s3, proof.s4, *proof.s_hat, *proof.s_prime)
    return all(g.is_scalar(s) and not g.is_zero(s) for s in scalars)


def _verify(
    context: bytes, joint_key: bytes, inputs: Sequence[bytes], outputs: Sequence[bytes], proof: ShuffleProof
) -> bool:
    if not _well_formed(context, joint_key, inputs, outputs, proof):
        return False
    n = len(inputs)
    parse, mul = ec.parse, ec.mul_public  # ValueError for a bad point; public scalars only
    h = _generator(0)
    hs = [_generator(j + 1) for j in range(n)]
    joint = parse(joint_key)
    c = [parse(x) for x in proof.commitments]
    chain = [parse(x) for x in proof.chain]
    out1 = [parse(ct[:33]) for ct in outputs]
    out2 = [parse(ct[33:]) for ct in outputs]
    in2 = [parse(ct[33:]) for ct in inputs]
    trivial = [ct[:33] == g.G for ct in inputs]
    in1 = [None if t else parse(ct[:33]) for t, ct in zip(trivial, inputs, strict=True)]

    statement = _statement(context, joint_key, inputs, outputs, proof.commitments)
    u = _challenges(statement, n)
    e = _int(proof.challenge)
    s1, s2, s3, s4 = (_int(x) for x in (proof.s1, proof.s2, proof.s3, proof.s4))
    s_hat = [_int(x) for x in proof.s_hat]
    s_prime = [_int(x) for x in proof.s_prime]
    w = [-e * ui % L for ui in u]  # −e·u_i: the challenge folded into each weight

    prod_u = 1
    for ui in u:
        prod_u = prod_u * ui % L
    # t1 = s1·G − e·c̄ with c̄ = Σ c_i − Σ h_j; t2 = s2·G − e·ĉ with ĉ = ĉ_n − (Π u)·h.
    c_bar = _sum_or_none([*c, ec.neg(_generator_sum(n))])
    t1 = _combination([(-e, c_bar)], mul, s1)
    t2 = _combination([(e * prod_u, h), (-e, chain[-1])], mul, s2)
    t3 = _combination([*zip(s_prime, hs, strict=True), *zip(w, c, strict=True)], mul, s3)
    g_coefficient = -s4 + sum(wi for wi, t in zip(w, trivial, strict=True) if t)
    t41 = _combination(
        [*zip(s_prime, out1, strict=True), *((wi, a) for wi, a in zip(w, in1, strict=True) if a is not None)],
        mul,
        g_coefficient,
    )
    t42 = _combination([*zip(s_prime, out2, strict=True), *zip(w, in2, strict=True), (-s4, joint)], mul)
    t_hat = [
        _combination([(s_prime[k], h if k == 0 else chain[k - 1]), (-e, chain[k])], mul, s_hat[k])
        for k in range(n)
    ]
    ts = [ec.encode(t) for t in (t1, t2, t3, t41, t42)]
    return _challenge(statement, proof.chain, ts, [ec.encode(t) for t in t_hat]) == proof.challenge


def proof_parts(proof: ShuffleProof) -> tuple[bytes, ...]:
    """Every byte of ``proof``, field by field (its list lengths follow from the deck's)."""
    return (
        *proof.commitments,
        *proof.chain,
        proof.challenge,
        proof.s1,
        proof.s2,
        proof.s3,
        proof.s4,
        *proof.s_hat,
        *proof.s_prime,
    )


# --- wire form -----------------------------------------------------------------------------

_FIELDS = ("c", "c_hat", "e", "s", "s_hat", "s_prime")


def encode_proof(proof: ShuffleProof) -> dict[str, Any]:
    """The proof as msgpack-native values: a map of byte strings and lists of them."""
    return {
        "c": list(proof.commitments),
        "c_hat": list(proof.chain),
        "e": proof.challenge,
        "s": [proof.s1, proof.s2, proof.s3, proof.s4],
        "s_hat": list(proof.s_hat),
        "s_prime": list(proof.s_prime),
    }


def decode_proof(value: object, n: int, seat: int | None, *, check_points: bool = True) -> ShuffleProof:
    """Parse the proof of an ``n``-card pass sent by ``seat``; strict.

    Exactly the fields of :func:`encode_proof`, every list of its exact length, every
    scalar canonical and not zero, every point a canonical compressed point of
    secp256k1. Anything else raises ``RemoteProtocolError`` naming ``seat``.
    :func:`verify_shuffle` parses every point again, so a caller that always verifies
    what it decodes may pass ``check_points=False`` (saving 2n parses, each a square
    root); every other check stays.
    """

    def fail(reason: str) -> RemoteProtocolError:
        return RemoteProtocolError(f"malformed shuffle proof: {reason}", seat=seat)

    if type(n) is not int or not 1 <= n <= MAX_DECK:
        raise LocalProtocolError(f"a shuffle proof covers 1 to {MAX_DECK} cards")
    if type(value) is not dict:
        raise fail("not a map")
    if tuple(value) != _FIELDS:
        raise fail(f"fields must be exactly {', '.join(_FIELDS)}, in that order")

    def items(name: str, count: int) -> list[Any]:
        v = value[name]
        if type(v) is not list or len(v) != count:
            raise fail(f"{name} must be a list of {count} items")
        return v

    def point(v: object, what: str) -> bytes:
        if type(v) is not bytes or len(v) != g.POINT_BYTES:
            raise fail(f"{what} must be {g.POINT_BYTES} bytes")
        if check_points and not g.is_point(v):
            raise fail(f"{what} is not a valid point")
        return v

    def scalar(v: object, what: str) -> bytes:
        if type(v) is not bytes or len(v) != g.SCALAR_BYTES:
            raise fail(f"{what} must be {g.SCALAR_BYTES} bytes")
        if not g.is_scalar(v):
            raise fail(f"{what} is not a canonical scalar")
        if g.is_zero(v):
            raise fail(f"{what} is zero")
        return v

    commitments = tuple(point(p, f"c[{i}]") for i, p in enumerate(items("c", n)))
    chain = tuple(point(p, f"c_hat[{i}]") for i, p in enumerate(items("c_hat", n)))
    s1, s2, s3, s4 = (scalar(x, f"s[{i}]") for i, x in enumerate(items("s", 4)))
    return ShuffleProof(
        commitments=commitments,
        chain=chain,
        challenge=scalar(value["e"], "e"),
        s1=s1,
        s2=s2,
        s3=s3,
        s4=s4,
        s_hat=tuple(scalar(x, f"s_hat[{i}]") for i, x in enumerate(items("s_hat", n))),
        s_prime=tuple(scalar(x, f"s_prime[{i}]") for i, x in enumerate(items("s_prime", n))),
    )
