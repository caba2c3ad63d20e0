"""The proof of a shuffle: complete, sound against every cheat we can build, strictly encoded."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from dataclasses import dataclass
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fairdeal.core.deck import _group as g
from fairdeal.core.deck import _h2c
from fairdeal.core.deck import _shuffle_proof as sp
from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError

L = g.L
CTX = sp.proof_context(b"test-game", 1, 0, 1)
FIELD_P = 2**256 - 2**32 - 977
#: 33-byte strings that are no point: the identity (SEC1 has only a 1-byte 00 for it), an x
#: with no point (5³ + 7 is no square mod p), x = p + 1 (x = 1 is on the curve, written
#: non-canonically), a valid x under the uncompressed and the hybrid prefixes.
BAD_POINTS = {
    "identity": bytes(33),
    "off the curve": b"\x02" + (5).to_bytes(32, "big"),
    "x not below p": b"\x02" + (FIELD_P + 1).to_bytes(32, "big"),
    "uncompressed prefix": b"\x04" + g.G[1:],
    "hybrid prefix": b"\x06" + g.G[1:],
}
OFF_CURVE = BAD_POINTS["off the curve"]


# Bytes-level arithmetic for the forger below (integers as scalars mod L).
def _base(x: int) -> bytes:
    return g.base(g.to_scalar(x))


def _mul(x: int, p: bytes) -> bytes:
    return g.mul(g.to_scalar(x), p)


def _add(p: bytes, q: bytes) -> bytes:
    return g.add(p, q)


def _sub(p: bytes, q: bytes) -> bytes:
    return g.sub(p, q)


def _sum(points: Any) -> bytes:
    return g.add_all(list(points))


def scalar(label: object) -> bytes:
    """A deterministic non-zero scalar for ``label``."""
    s = g.scalar_from_bytes_or_none(hashlib.sha512(repr(label).encode()).digest())
    assert s is not None
    return s


def plus(s: bytes, k: int = 1) -> bytes:
    return ((int.from_bytes(s, "big") + k) % L).to_bytes(32, "big")


def reencrypt(joint: bytes, inputs: list[bytes], perm: list[int], scalars: list[bytes]) -> list[bytes]:
    """``out[j] = in[perm[j]] + scalars[j]·(G, joint)``, as a seat's pass does."""
    return [
        g.rerandomise(inputs[p][:33], inputs[p][33:], s, joint) for p, s in zip(perm, scalars, strict=True)
    ]


@dataclass(frozen=True)
class Pass:
    joint: bytes
    inputs: list[bytes]
    outputs: list[bytes]
    perm: list[int]
    scalars: list[bytes]
    points: list[bytes]  # the plaintext of each input

    def prove(self, seed: bytes = b"s" * 32, context: bytes = CTX) -> sp.ShuffleProof:
        return sp.prove_shuffle(context, self.joint, self.inputs, self.outputs, self.perm, self.scalars, seed)

    def verify(self, proof: sp.ShuffleProof, context: bytes = CTX) -> bool:
        return sp.verify_shuffle(context, self.joint, self.inputs, self.outputs, proof)


def make_pass(n: int, seed: int = 0) -> Pass:
    joint = g.base(scalar(("key", seed)))
    points = [g.card_point(b"test-game", f"card{i}") for i in range(n)]
    inputs = [g.encrypt(p, scalar(("in", seed, i)), joint) for i, p in enumerate(points)]
    perm = list(range(n))
    random.Random(seed).shuffle(perm)
    scalars = [scalar(("s", seed, j)) for j in range(n)]
    return Pass(joint, inputs, reencrypt(joint, inputs, perm, scalars), perm, scalars, points)


@pytest.fixture(scope="module")
def honest() -> tuple[Pass, sp.ShuffleProof]:
    p = make_pass(9, seed=7)
    return p, p.prove()


def wire(proof: sp.ShuffleProof, n: int) -> sp.ShuffleProof:
    raw = msgpack.packb(sp.encode_proof(proof), use_bin_type=True)
    return sp.decode_proof(msgpack.unpackb(raw, raw=False), n, seat=3)


# --- completeness ----------------------------------------------------------------------------


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 128), seed=st.integers(0, 2**32))
@example(n=1, seed=0)
@example(n=2, seed=1)
@example(n=128, seed=2)
def test_honest_proofs_verify(n: int, seed: int) -> None:
    p = make_pass(n, seed)
    proof = p.prove(seed=hashlib.sha256(b"%d" % seed).digest())
    assert p.verify(proof)
    assert p.verify(wire(proof, n))


def test_identity_permutation_and_one_card() -> None:
    for n in (1, 5):
        p = make_pass(n)
        p = dataclasses.replace(p, perm=list(range(n)))
        p = dataclasses.replace(p, outputs=reencrypt(p.joint, p.inputs, p.perm, p.scalars))
        assert p.verify(p.prove())


def test_the_seats_passes_verify(kit: Any) -> None:
    """Both passes of a real 2-seat round, with DeckSeat's own secrets: the conventions agree.

    Pass 0 re-randomises the public encryptions (G, M + H) of the deck's cards.
    """
    t = kit.Table(2, seed=5)
    t.start(kit.deck_of(32))
    view = t.seats[0]
    rnd = view._deck.rounds[0]
    joint = view._keys.joint
    trivial = [g.trivial(view._deck.points[i.card.name], joint) for i in rnd.inputs]
    decks = [trivial, *(list(p.deck) for p in rnd.passes)]
    for k, seat in enumerate(t.seats):
        perm, scalars, _ = seat._deck.secrets(seat.ctx.need_me(), rnd, k)
        ctx = sp.proof_context(t.game_id, k, 0, k)
        proof = sp.prove_shuffle(ctx, joint, decks[k], decks[k + 1], perm, scalars, b"q" * 32)
        assert sp.verify_shuffle(ctx, joint, decks[k], decks[k + 1], proof)
        assert not sp.verify_shuffle(ctx, joint, decks[1 - k], decks[2 - k], proof)


def test_public_encryptions_mix_with_ciphertexts() -> None:
    """An input may be a card everyone knows, as (G, M + H); a reshuffle mixes them with ciphertexts."""
    p = make_pass(6, seed=4)
    inputs = [g.trivial(m, p.joint) for m in p.points]
    inputs[3] = p.inputs[3]
    outputs = reencrypt(p.joint, inputs, p.perm, p.scalars)
    mixed = dataclasses.replace(p, inputs=inputs, outputs=outputs)
    proof = mixed.prove()
    assert mixed.verify(proof)
    assert mixed.verify(wire(proof, 6))
    # the identity has no encoding: an input written as (identity, M) is no ciphertext at all
    clear = [bytes(33) + m for m in p.points]
    assert not sp.verify_shuffle(CTX, p.joint, clear, outputs, proof)
    # the outputs of another statement do not pass for these
    assert not sp.verify_shuffle(CTX, p.joint, inputs, p.outputs, proof)


# --- soundness probes ------------------------------------------------------------------------


def test_dropped_card(honest: tuple[Pass, sp.ShuffleProof]) -> None:
    p, proof = honest
    assert not sp.verify_shuffle(CTX, p.joint, p.inputs, p.outputs[:-1], proof)
    assert not sp.verify_shuffle(CTX, p.joint, p.inputs[:-1], p.outputs[:-1], proof)
    short = make_pass(8, seed=7)
    assert not short.verify(dataclasses.replace(proof, commitments=proof.commitments[:-1]))


def test_duplicated_card_with_a_consistent_witness() -> None:
    """Outputs that really are the re-encryptions of a map that repeats one input.

    The prover is run on that map itself (bypassing its own check): only the proof that
    the committed matrix is a permutation can catch it.
    """
    p = make_pass(9, seed=3)
    dup = list(p.perm)
    dup[0] = dup[1]
    outputs = reencrypt(p.joint, p.inputs, dup, p.scalars)
    witness = g.frame(b"test", b"seed")
    proof = sp._prove(
        CTX, p.joint, p.inputs, outputs, dup, [int.from_bytes(s, "big") for s in p.scalars], witness, 0
    )
    assert proof is not None
    assert not sp.verify_shuffle(CTX, p.joint, p.inputs, outputs, proof)
    with pytest.raises(LocalProtocolError, match="permutation"):
        sp.prove_shuffle(CTX, p.joint, p.inputs, outputs, dup, p.scalars, b"s" * 32)


Rows = list[dict[int, int]]


def forge(
    p: Pass,
    out_rows: Rows,
    commit_rows: Rows | None = None,
    weight_rows: Rows | None = None,
    outputs: list[bytes] | None = None,
    fake_chain_end: bool = False,
) -> tuple[list[bytes], sp.ShuffleProof]:
    """The prover's algebra run for any matrices: the strongest cheats the algebra allows.

    ``out[j] = Σ_i out_rows[j][i]·in[i] + s_j·(G, H)`` (unless ``outputs`` is given);
    the commitments hold ``commit_rows`` (``c_i = r_i·G + Σ_j commit_rows[j][i]·h_j``,
    default ``out_rows``) and the prover claims ``u'_j = Σ_i weight_rows[j][i]·u_i``
    (default ``commit_rows``); ``fake_chain_end`` ends the chain at x·G + (Π u)·h, as the
    product check wants, whatever u' is. Written from docs/protocol.md 10.7, apart from the
    module's prover: an honest permutation must verify.
    """
    commit_rows = commit_rows or out_rows
    weight_rows = weight_rows or commit_rows
    n, joint, rnd = len(p.inputs), p.joint, random.Random(repr((out_rows, commit_rows, weight_rows)))
    if outputs is None:
        outputs = []
        for j, row in enumerate(out_rows):
            c1 = _sum(_mul(k, p.inputs[i][:33]) for i, k in row.items())
            c2 = _sum(_mul(k, p.inputs[i][33:]) for i, k in row.items())
            s = int.from_bytes(p.scalars[j], "big")
            outputs.append(_add(c1, _base(s)) + _add(c2, _mul(s, joint)))
    h, hs = sp.generator(0), [sp.generator(j + 1) for j in range(n)]
    r, r_hat, w_hat, w_prime = ([rnd.randrange(L) for _ in range(n)] for _ in range(4))
    w1, w2, w3, w4 = (rnd.randrange(L) for _ in range(4))
    c = [_base(r[i]) for i in range(n)]
    for j, row in enumerate(commit_rows):
        for i, k in row.items():
            c[i] = _add(c[i], _mul(k, hs[j]))
    statement = sp._statement(CTX, joint, p.inputs, outputs, c)
    u = sp._challenges(statement, n)
    u_out = [sum(k * u[i] for i, k in row.items()) % L for row in weight_rows]
    chain, prev = [], h
    for k in range(n):
        prev = _add(_base(r_hat[k]), _mul(u_out[k], prev))
        chain.append(prev)
    r_chain = sum(a * b for a, b in zip(r_hat, _suffix_products(u_out), strict=True)) % L
    if fake_chain_end:
        r_chain = rnd.randrange(L)
        prod_u = 1
        for x in u:
            prod_u = prod_u * x % L
        chain[-1] = _add(_base(r_chain), _mul(prod_u, h))
    t = (
        _base(w1),
        _base(w2),
        _add(_base(w3), _sum(_mul(w_prime[j], hs[j]) for j in range(n))),
        _sub(_sum(_mul(w_prime[j], outputs[j][:33]) for j in range(n)), _base(w4)),
        _sub(_sum(_mul(w_prime[j], outputs[j][33:]) for j in range(n)), _mul(w4, joint)),
    )
    t_hat = [_add(_base(w_hat[k]), _mul(w_prime[k], h if k == 0 else chain[k - 1])) for k in range(n)]
    e_bytes = sp._challenge(statement, chain, t, t_hat)
    e = int.from_bytes(e_bytes, "big")
    s_int = [int.from_bytes(x, "big") for x in p.scalars]
    enc = sp._enc
    proof = sp.ShuffleProof(
        tuple(c),
        tuple(chain),
        e_bytes,
        enc(w1 + e * sum(r)),
        enc(w2 + e * r_chain),
        enc(w3 + e * sum(a * b for a, b in zip(r, u, strict=True))),
        enc(w4 + e * sum(a * b for a, b in zip(s_int, u_out, strict=True))),
        tuple(enc(w_hat[k] + e * r_hat[k]) for k in range(n)),
        tuple(enc(w_prime[j] + e * u_out[j]) for j in range(n)),
    )
    return outputs, proof


def _suffix_products(u_out: list[int]) -> list[int]:
    """v_k = u'_{k+1}···u'_{n−1}."""
    v, acc = [0] * len(u_out), 1
    for k in range(len(u_out) - 1, -1, -1):
        v[k], acc = acc, acc * u_out[k] % L
    return v


def test_the_forger_is_a_faithful_prover() -> None:
    p = make_pass(7, seed=12)
    outputs, proof = forge(p, [{i: 1} for i in p.perm])
    assert outputs == p.outputs
    assert p.verify(proof)


def test_forged_cards_from_combinations() -> None:
    """Outputs in_0, in_1 − in_0, in_2 + in_0, ...: committed matrix B = I + N with row 0 = e0 + e1 − e2.

    B's rows sum to 1 and the outputs are exactly B^-T applied to the inputs, so every
    equation holds but the product one (Π (B·u)_j ≠ Π u_i): it alone sees the two forged cards.
    """
    p = make_pass(7, seed=13)
    ident: Rows = [{j: 1} for j in range(7)]
    b_rows = [dict(r) for r in ident]
    b_rows[0] = {0: 1, 1: 1, 2: L - 1}
    a_rows = [dict(r) for r in ident]  # A = B^-T = I − N^T
    a_rows[1] = {1: 1, 0: L - 1}
    a_rows[2] = {2: 1, 0: 1}
    outputs, proof = forge(p, a_rows, commit_rows=b_rows)
    assert not sp.verify_shuffle(CTX, p.joint, p.inputs, outputs, proof)


def test_forged_cards_with_a_chain_that_ends_right() -> None:
    """The same forgery, its chain ending where the product check wants: the chain's links see it."""
    p = make_pass(7, seed=13)
    ident: Rows = [{j: 1} for j in range(7)]
    b_rows = [dict(r) for r in ident]
    b_rows[0] = {0: 1, 1: 1, 2: L - 1}
    a_rows = [dict(r) for r in ident]
    a_rows[1] = {1: 1, 0: L - 1}
    a_rows[2] = {2: 1, 0: 1}
    outputs, proof = forge(p, a_rows, commit_rows=b_rows, fake_chain_end=True)
    assert not sp.verify_shuffle(CTX, p.joint, p.inputs, outputs, proof)


def test_forged_cards_scaled_with_product_one() -> None:
    """Committed B = diag(2, 1/2, 1, ...), outputs in_0/2 and 2·in_1: only the row sums see it."""
    p = make_pass(7, seed=14)
    half = pow(2, -1, L)
    b_rows: Rows = [{j: 1} for j in range(7)]
    a_rows: Rows = [{j: 1} for j in range(7)]
    b_rows[0], b_rows[1] = {0: 2}, {1: half}
    a_rows[0], a_rows[1] = {0: half}, {1: 2}
    outputs, proof = forge(p, a_rows, commit_rows=b_rows)
    assert not sp.verify_shuffle(CTX, p.joint, p.inputs, outputs, proof)


def test_commitment_to_another_permutation() -> None:
    """A valid shuffle by π whose commitments hold σ ≠ π: the commitments bind the permutation."""
    p = make_pass(7, seed=15)
    pi: Rows = [{i: 1} for i in p.perm]
    sigma: Rows = [{i: 1} for i in p.perm[1:] + p.perm[:1]]
    outputs, proof = forge(p, pi, commit_rows=sigma, weight_rows=pi)
    assert outputs == p.outputs
    assert not p.verify(proof)


def test_one_c1_or_c2_altered() -> None:
    """A pass that is honest but for one half of one ciphertext."""
    p = make_pass(7, seed=16)
    nudge = g.base(scalar("nudge"))
    for half in (0, 1):
        outputs = list(p.outputs)
        pts = [outputs[3][:33], outputs[3][33:]]
        pts[half] = g.add(pts[half], nudge)
        outputs[3] = pts[0] + pts[1]
        _, proof = forge(p, [{i: 1} for i in p.perm], outputs=outputs)
        assert not sp.verify_shuffle(CTX, p.joint, p.inputs, outputs, proof)
        cheat = dataclasses.replace(p, outputs=outputs)
        assert not cheat.verify(cheat.prove())


def test_duplicated_card_with_the_honest_witness() -> None:
    p = make_pass(9, seed=4)
    outputs = list(p.outputs)
    outputs[2] = g.rerandomise(p.inputs[p.perm[5]][:33], p.inputs[p.perm[5]][33:], scalar("dup"), p.joint)
    cheat = dataclasses.replace(p, outputs=outputs)
    assert not cheat.verify(cheat.prove())


def test_substituted_card() -> None:
    p = make_pass(9, seed=5)
    other = g.card_point(b"test-game", "the ace up a sleeve")
    outputs = list(p.outputs)
    j = 4
    # the same randomness, another plaintext: the best a cheat can hope for
    outputs[j] = outputs[j][:33] + g.add(g.sub(outputs[j][33:], p.points[p.perm[j]]), other)
    cheat = dataclasses.replace(p, outputs=outputs)
    assert not cheat.verify(cheat.prove())


def test_card_reencrypted_under_another_key() -> None:
    p = make_pass(9, seed=6)
    other_key = g.base(scalar("other key"))
    outputs = list(p.outputs)
    src = p.inputs[p.perm[3]]
    outputs[3] = g.rerandomise(src[:33], src[33:], p.scalars[3], other_key)
    cheat = dataclasses.replace(p, outputs=outputs)
    assert not cheat.verify(cheat.prove())
    # and the whole pass under another key
    cheat = dataclasses.replace(p, outputs=reencrypt(other_key, p.inputs, p.perm, p.scalars))
    assert not cheat.verify(cheat.prove())


def test_wrong_permutation_or_scalar() -> None:
    p = make_pass(9, seed=8)
    swapped = list(p.perm)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not p.verify(dataclasses.replace(p, perm=swapped).prove())
    scalars = list(p.scalars)
    scalars[6] = plus(scalars[6])
    assert not p.verify(dataclasses.replace(p, scalars=scalars).prove())


@pytest.mark.parametrize(
    "context",
    [
        sp.proof_context(b"other-game", 1, 0, 1),
        sp.proof_context(b"test-game", 2, 0, 1),
        sp.proof_context(b"test-game", 1, 1, 1),
        sp.proof_context(b"test-game", 1, 0, 0),
        b"",
    ],
    ids=["game", "seat", "round", "pass", "empty"],
)
def test_proof_bound_to_its_context(honest: tuple[Pass, sp.ShuffleProof], context: bytes) -> None:
    p, proof = honest
    assert p.verify(proof)
    assert not p.verify(proof, context=context)


def test_proof_bound_to_its_statement(honest: tuple[Pass, sp.ShuffleProof]) -> None:
    p, proof = honest
    other = make_pass(9, seed=99)
    assert not other.verify(proof)
    assert not sp.verify_shuffle(CTX, p.joint, other.inputs, p.outputs, proof)
    assert not sp.verify_shuffle(CTX, p.joint, p.inputs, other.outputs, proof)
    assert not sp.verify_shuffle(CTX, other.joint, p.inputs, p.outputs, proof)
    swapped = list(p.outputs)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not sp.verify_shuffle(CTX, p.joint, p.inputs, swapped, proof)
    # the outputs as inputs and back: a shuffle the other way round is another statement
    assert not sp.verify_shuffle(CTX, p.joint, p.outputs, p.inputs, proof)


VECTOR_FIELDS = ("commitments", "chain", "s_hat", "s_prime")
SCALAR_FIELDS = ("challenge", "s1", "s2", "s3", "s4")


def _tampered(proof: sp.ShuffleProof, name: str, index: int) -> sp.ShuffleProof:
    value = getattr(proof, name)
    if name in SCALAR_FIELDS:
        return dataclasses.replace(proof, **{name: plus(value)})
    items = list(value)
    if name in ("commitments", "chain"):
        items[index] = g.add(items[index], g.base(scalar("nudge")))
    else:
        items[index] = plus(items[index])
    return dataclasses.replace(proof, **{name: tuple(items)})


@pytest.mark.parametrize("index", [0, -1])
@pytest.mark.parametrize("name", VECTOR_FIELDS + SCALAR_FIELDS)
def test_any_tampered_element_is_refused(honest: tuple[Pass, sp.ShuffleProof], name: str, index: int) -> None:
    p, proof = honest
    bad = _tampered(proof, name, index)
    assert bad != proof
    assert not p.verify(bad)
    assert not p.verify(wire(bad, 9))


def test_swapped_proof_elements_are_refused(honest: tuple[Pass, sp.ShuffleProof]) -> None:
    p, proof = honest
    for name in VECTOR_FIELDS:
        items = list(getattr(proof, name))
        items[0], items[1] = items[1], items[0]
        assert not p.verify(dataclasses.replace(proof, **{name: tuple(items)}))


@settings(max_examples=40, deadline=None)
@given(field=st.sampled_from(VECTOR_FIELDS + SCALAR_FIELDS), index=st.integers(0, 8), bit=st.integers(0, 255))
def test_any_flipped_bit_is_refused(
    honest: tuple[Pass, sp.ShuffleProof], field: str, index: int, bit: int
) -> None:
    p, proof = honest
    value = getattr(proof, field)
    old = value if field in SCALAR_FIELDS else value[index]
    new = bytearray(old)
    new[bit // 8] ^= 1 << (bit % 8)
    if field in SCALAR_FIELDS:
        bad = dataclasses.replace(proof, **{field: bytes(new)})
    else:
        bad = dataclasses.replace(proof, **{field: (*value[:index], bytes(new), *value[index + 1 :])})
    assert not p.verify(bad)
    try:
        decoded = wire(bad, 9)
    except RemoteProtocolError as e:
        assert e.seat == 3
    else:
        assert not p.verify(decoded)


def test_noncanonical_scalars_are_refused(honest: tuple[Pass, sp.ShuffleProof]) -> None:
    """The same residue plus L: a malleated proof must not verify."""
    p, proof = honest
    for name in (*SCALAR_FIELDS, "s_hat", "s_prime"):
        value = getattr(proof, name)
        old = value if name in SCALAR_FIELDS else value[0]
        big = int.from_bytes(old, "big") + L
        if big >= 2**256:  # pragma: no cover - a scalar this high is rare
            continue
        enc = big.to_bytes(32, "big")
        bad = dataclasses.replace(proof, **{name: enc if name in SCALAR_FIELDS else (enc, *value[1:])})
        assert not p.verify(bad), name
        with pytest.raises(RemoteProtocolError, match="canonical"):
            sp.decode_proof(sp.encode_proof(bad), 9, seat=3)


@pytest.mark.parametrize("kind", BAD_POINTS)
@pytest.mark.parametrize("name", ["commitments", "chain"])
def test_invalid_proof_points_are_refused(honest: tuple[Pass, sp.ShuffleProof], name: str, kind: str) -> None:
    p, proof = honest
    for index in (0, 4, -1):
        items = list(getattr(proof, name))
        items[index] = BAD_POINTS[kind]
        bad = dataclasses.replace(proof, **{name: tuple(items)})
        assert not p.verify(bad)
        with pytest.raises(RemoteProtocolError, match="not a valid point") as info:
            sp.decode_proof(sp.encode_proof(bad), 9, seat=3)
        assert info.value.seat == 3
        # without the decoder's point checks, the verifier still refuses it
        assert not p.verify(sp.decode_proof(sp.encode_proof(bad), 9, seat=3, check_points=False))


@pytest.mark.parametrize("kind", BAD_POINTS)
def test_invalid_statement_points_are_refused(honest: tuple[Pass, sp.ShuffleProof], kind: str) -> None:
    p, proof = honest
    bad = BAD_POINTS[kind]
    assert not sp.verify_shuffle(CTX, bad, p.inputs, p.outputs, proof)
    for deck in ("inputs", "outputs"):
        for half in (0, 1):
            cts = list(getattr(p, deck))
            cts[2] = bad + cts[2][33:] if half == 0 else cts[2][:33] + bad
            assert not sp.verify_shuffle(
                CTX, p.joint, *((cts, p.outputs) if deck == "inputs" else (p.inputs, cts)), proof
            )


def test_zero_responses_are_refused(honest: tuple[Pass, sp.ShuffleProof]) -> None:
    """A zero response would make a product the identity: no proof has one (docs/protocol.md)."""
    p, proof = honest
    zero = bytes(32)
    for name in (*SCALAR_FIELDS, "s_hat", "s_prime"):
        value = getattr(proof, name)
        bad = dataclasses.replace(proof, **{name: zero if name in SCALAR_FIELDS else (zero, *value[1:])})
        assert not p.verify(bad), name
        with pytest.raises(RemoteProtocolError, match="zero"):
            sp.decode_proof(sp.encode_proof(bad), 9, seat=3)
    # and a bad point is refused whatever the scalars
    chain = list(proof.chain)
    chain[0] = OFF_CURVE
    assert not p.verify(dataclasses.replace(proof, chain=tuple(chain)))


def test_a_commitment_that_sums_to_the_identity_is_refused_not_a_crash(
    honest: tuple[Pass, sp.ShuffleProof],
) -> None:
    """Commitments chosen so that Σ c_i = Σ h_j: c̄ is the identity, and t1 = s1·G; still false."""
    p, proof = honest
    n = len(p.inputs)
    gen_sum = _sum(sp.generator(j + 1) for j in range(n))
    rest = _sum(proof.commitments[1:])
    first = _sub(gen_sum, rest)
    bad = dataclasses.replace(proof, commitments=(first, *proof.commitments[1:]))
    assert not p.verify(bad)


def test_wrong_shapes_are_false_not_errors(honest: tuple[Pass, sp.ShuffleProof]) -> None:
    p, proof = honest
    assert not sp.verify_shuffle(CTX, p.joint, [], [], proof)
    assert not sp.verify_shuffle(CTX, p.joint[:31], p.inputs, p.outputs, proof)
    assert not sp.verify_shuffle("ctx", p.joint, p.inputs, p.outputs, proof)  # type: ignore[arg-type]
    assert not sp.verify_shuffle(CTX, p.joint, [c[:65] for c in p.inputs], p.outputs, proof)
    assert not sp.verify_shuffle(CTX, p.joint, p.inputs, p.outputs, sp.encode_proof(proof))  # type: ignore[arg-type]
    for name in VECTOR_FIELDS:
        value = getattr(proof, name)
        assert not p.verify(dataclasses.replace(proof, **{name: value[:-1]}))
        assert not p.verify(dataclasses.replace(proof, **{name: (*value, value[0])}))
        assert not p.verify(dataclasses.replace(proof, **{name: list(value)}))
        assert not p.verify(dataclasses.replace(proof, **{name: (value[0][:31], *value[1:])}))
    for name in SCALAR_FIELDS:
        assert not p.verify(dataclasses.replace(proof, **{name: getattr(proof, name)[:31]}))
        assert not p.verify(dataclasses.replace(proof, **{name: None}))


# --- randomness ------------------------------------------------------------------------------


def test_fresh_randomness_fresh_proof(honest: tuple[Pass, sp.ShuffleProof]) -> None:
    p, proof = honest
    again = p.prove(seed=b"s" * 32)
    assert again == proof  # deterministic in its seed and statement
    other = p.prove(seed=b"t" * 32)
    assert p.verify(other)
    for name in VECTOR_FIELDS:
        assert set(getattr(other, name)).isdisjoint(getattr(proof, name)), name
    for name in SCALAR_FIELDS:
        assert getattr(other, name) != getattr(proof, name), name


def test_prover_refuses_a_bad_witness() -> None:
    p = make_pass(5, seed=11)

    def refused(**change: Any) -> None:
        args: dict[str, Any] = {
            "context": CTX,
            "joint_key": p.joint,
            "inputs": p.inputs,
            "outputs": p.outputs,
            "permutation": p.perm,
            "scalars": p.scalars,
            "seed": b"s" * 32,
        }
        args.update(change)
        with pytest.raises(LocalProtocolError):
            sp.prove_shuffle(**args)

    refused(inputs=[], outputs=[], permutation=[], scalars=[])
    refused(outputs=p.outputs[:-1])
    refused(permutation=p.perm[:-1])
    refused(permutation=[0, 1, 2, 3, 5])
    refused(permutation=[0, 1, 2, 3, 3])
    refused(permutation=[0, 1, 2, 3, 4.0])
    refused(permutation=[0, 1, 2, 3, True])
    refused(scalars=[*p.scalars[:-1], L.to_bytes(32, "big")])
    refused(scalars=p.scalars[:-1])
    refused(inputs=[c[:65] for c in p.inputs])
    refused(outputs=[*p.outputs[:-1], "x" * 66])
    refused(joint_key=OFF_CURVE)
    refused(context="ctx")
    refused(seed=b"short")


# --- public parameters -----------------------------------------------------------------------


def test_generators_are_valid_distinct_and_fixed() -> None:
    gens = [sp.generator(k) for k in range(sp.MAX_DECK + 1)]
    assert all(g.is_point(p) for p in gens)
    assert len(set(gens)) == len(gens)
    assert g.G not in gens
    first = _h2c.hash_to_curve(g.frame(g.TAG_SHUFFLE_GENERATOR, 0), g.DST_GENERATOR)
    assert gens[0] == _h2c.ec.encode(first)


def test_contexts_are_distinct() -> None:
    contexts = {
        sp.proof_context(game, seat, rnd, k)
        for game in (b"a", b"b")
        for seat in range(3)
        for rnd in range(3)
        for k in range(3)
    }
    assert len(contexts) == 2 * 27


# --- wire form -------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 52])
def test_encoding_round_trips(n: int) -> None:
    p = make_pass(n, seed=n)
    proof = p.prove()
    assert wire(proof, n) == proof
    body = sp.encode_proof(proof)
    assert sorted(body) == ["c", "c_hat", "e", "s", "s_hat", "s_prime"]
    raw = sum(len(b) for v in body.values() for b in (v if isinstance(v, list) else [v]))
    assert raw == 2 * n * 33 + (2 * n + 5) * 32


def _malformed(body: dict[str, Any], n: int = 9, word: str = "") -> None:
    with pytest.raises(RemoteProtocolError, match=word) as info:
        sp.decode_proof(body, n, seat=4)
    assert info.value.seat == 4
    assert "malformed shuffle proof" in str(info.value)


def test_decoding_refuses_every_malformed_shape(honest: tuple[Pass, sp.ShuffleProof]) -> None:
    _, proof = honest
    good = sp.encode_proof(proof)
    assert sp.decode_proof(good, 9, seat=4) == proof
    _malformed([], word="map")  # type: ignore[arg-type]
    _malformed(good, n=8, word="list of 8")
    _malformed(good, n=10, word="list of 10")
    _malformed({**good, "extra": b""}, word="fields")
    _malformed({k: v for k, v in good.items() if k != "s"}, word="fields")
    _malformed({**{k: v for k, v in good.items() if k != "s"}, "t": good["s"]}, word="fields")
    for name in ("c", "c_hat", "s_hat", "s_prime", "s"):
        items = good[name]
        _malformed({**good, name: items[:-1]}, word=name)
        _malformed({**good, name: [*items, items[0]]}, word=name)
        _malformed({**good, name: tuple(items)}, word=name)
        _malformed({**good, name: b"".join(items)}, word=name)
        size = f"{33 if name in ('c', 'c_hat') else 32} bytes"
        _malformed({**good, name: [items[0][:31], *items[1:]]}, word=size)
        _malformed({**good, name: [items[0] + b"\0", *items[1:]]}, word=size)
        _malformed({**good, name: [bytearray(items[0]), *items[1:]]}, word=size)
        _malformed({**good, name: [items[0].hex()[:33], *items[1:]]}, word=size)
        _malformed({**good, name: [None, *items[1:]]}, word=size)
    _malformed({**good, "e": good["e"][:31]}, word="32 bytes")
    _malformed({**good, "e": [good["e"]]}, word="32 bytes")
    _malformed({**good, "e": L.to_bytes(32, "big")}, word="canonical")
    _malformed({**good, "s": [b"\xff" * 32, *good["s"][1:]]}, word="canonical")
    with pytest.raises(LocalProtocolError):
        sp.decode_proof(good, 0, seat=4)


def test_known_answer() -> None:
    """The proof of a fixed pass with a fixed seed, byte for byte: the format does not drift."""
    proof = make_pass(3, seed=1).prove()
    raw = msgpack.packb(sp.encode_proof(proof), use_bin_type=True)
    assert (
        hashlib.sha256(raw).hexdigest() == "85da047a88fe0a6a268aa0a1f7c5505b41af5e7ad80f1261396bce98c27bb2f5"
    )


def test_ciphertexts_of_another_type_are_false(honest: tuple[Pass, sp.ShuffleProof]) -> None:
    p, proof = honest
    assert p.verify(proof)
    assert not sp.verify_shuffle(CTX, p.joint, [bytearray(c) for c in p.inputs], p.outputs, proof)  # type: ignore[misc]
    assert not sp.verify_shuffle(CTX, p.joint, p.inputs, [bytearray(c) for c in p.outputs], proof)  # type: ignore[misc]


def test_a_proof_covers_up_to_the_largest_deck() -> None:
    from fairdeal.core.deck._limits import MAX_DECK

    point, scalar = g.base((5).to_bytes(32, "big")), (7).to_bytes(32, "big")

    def encoded(n: int) -> dict[str, Any]:
        return {"c": [point] * n, "c_hat": [point] * n, "e": scalar, "s": [scalar] * 4,
                "s_hat": [scalar] * n, "s_prime": [scalar] * n}  # fmt: skip

    assert len(sp.decode_proof(encoded(MAX_DECK), MAX_DECK, seat=1, check_points=False).chain) == MAX_DECK
    with pytest.raises(LocalProtocolError, match=f"1 to {MAX_DECK} cards"):
        sp.decode_proof(encoded(MAX_DECK + 1), MAX_DECK + 1, seat=1, check_points=False)


def test_the_deck_limit_is_inclusive_for_prover_and_verifier(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the limit set to 4 (the real one is 1024 cards), 4 cards prove and verify, 5 do not."""
    monkeypatch.setattr(sp, "MAX_DECK", 4)
    p = make_pass(4, seed=3)
    assert p.verify(p.prove())
    five = make_pass(5, seed=3)
    with pytest.raises(LocalProtocolError, match="1 to 4 inputs"):
        five.prove()
    monkeypatch.setattr(sp, "MAX_DECK", 5)
    proof = five.prove()
    monkeypatch.setattr(sp, "MAX_DECK", 4)
    assert not five.verify(proof)


def test_an_empty_deck_and_proof_are_false_not_errors(honest: tuple[Pass, sp.ShuffleProof]) -> None:
    p, proof = honest
    empty = dataclasses.replace(proof, commitments=(), chain=(), s_hat=(), s_prime=())
    assert not sp.verify_shuffle(CTX, p.joint, [], [], empty)


def test_the_provers_seed_is_at_least_32_bytes() -> None:
    p = make_pass(3, seed=5)
    assert p.verify(p.prove(seed=b"s" * 32))
    with pytest.raises(LocalProtocolError, match="32 or more bytes"):
        p.prove(seed=b"s" * 31)
