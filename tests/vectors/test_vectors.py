"""The code against the protocol's fixed test vectors, in both directions.

Encoding the recorded inputs must give the recorded bytes (so a changed domain tag, field
order or encoding is caught), and the recorded bytes must decode and verify (so what an
independent implementation produces from ``docs/protocol.md`` is accepted). The files
are written by ``scripts/vectors.py``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Any

import msgpack
import pytest

from fairdeal.core.deck import _group as g
from fairdeal.core.identity import Identity
from fairdeal.core.session.envelope import Envelope, decode_envelope, entry_hash
from fairdeal.net import wire
from fairdeal.net.invite import Endpoint, Invite, decode_invite

HERE = Path(__file__).resolve().parent


def load(name: str) -> Any:
    return json.loads((HERE / name).read_text())


def b(text: str) -> bytes:
    return bytes.fromhex(text)


DECK = load("deck.json")
GAME_ID = b(DECK["game_id"])


@pytest.mark.parametrize("case", DECK["card_points"], ids=lambda c: c["name"])
def test_card_points(case: dict[str, Any]) -> None:
    assert g.card_point(GAME_ID, case["name"]) == b(case["point"])
    assert g.is_point(b(case["point"]))


@pytest.mark.parametrize("case", DECK["key_proofs"], ids=lambda c: f"seat-{c['seat']}")
def test_key_proofs(case: dict[str, Any]) -> None:
    x, public, e, z = b(case["secret"]), b(case["public"]), b(case["e"]), b(case["z"])
    assert g.base(x) == public
    assert g.schnorr_prove(GAME_ID, case["seat"], case["players"], x, public, b(case["nonce_seed"])) == (e, z)
    assert g.schnorr_verify(GAME_ID, case["seat"], case["players"], public, e, z)
    assert not g.schnorr_verify(GAME_ID, case["seat"] + 1, case["players"], public, e, z)


@pytest.mark.parametrize("case", DECK["share_proofs"], ids=lambda c: f"token-{c['token']}")
def test_share_proofs(case: dict[str, Any]) -> None:
    from fairdeal.core.deck._reveals import purpose

    x, ct, d, e, z = (b(case[k]) for k in ("secret", "ciphertext", "share", "e", "z"))
    context = g.frame(b"share", GAME_ID, case["seat"], case["token"], ct, purpose(case["to"]))
    assert context == b(case["context"])
    assert g.mul(x, ct[:33]) == d
    assert g.dleq_prove(context, x, g.base(x), ct[:33], d, b(case["nonce_seed"])) == (e, z)
    assert g.dleq_verify(context, g.base(x), ct[:33], d, e, z)
    other = g.frame(b"share", GAME_ID, case["seat"], case["token"], ct, purpose(3))
    assert not g.dleq_verify(other, g.base(x), ct[:33], d, e, z)


@pytest.mark.parametrize("case", DECK["random_choices"], ids=lambda c: f"choice-{c['index']}")
def test_random_choices(case: dict[str, Any]) -> None:
    from fairdeal.core.deck._common import Stream
    from fairdeal.core.rng import below

    parts: list[Any] = []
    for seat, value, commitment in zip(case["seats"], case["values"], case["commitments"], strict=True):
        expected = g.digest(g.TAG_RANDOM_COMMIT, GAME_ID, seat, case["index"], case["n"], b(value))
        assert expected == b(commitment)
        parts += [seat, b(value)]
    key = g.digest(g.TAG_RANDOM_RESULT, GAME_ID, case["index"], case["n"], *parts)
    assert below(Stream(key), case["n"]) == case["result"]


@pytest.mark.parametrize("case", DECK["shuffle_generators"], ids=lambda c: f"gen-{c['index']}")
def test_shuffle_generators(case: dict[str, Any]) -> None:
    from fairdeal.core.deck import _shuffle_proof as sp

    assert sp.generator(case["index"]) == b(case["point"])


@pytest.mark.parametrize("case", DECK["shuffle_proofs"], ids=lambda c: f"pass-{c['round']}-{c['pass']}")
def test_shuffle_proofs(case: dict[str, Any]) -> None:
    from fairdeal.core.deck import _shuffle_proof as sp

    joint = b(DECK["joint_key"])
    context = sp.proof_context(GAME_ID, case["seat"], case["round"], case["pass"])
    assert context == b(case["context"])
    inputs, outputs = [b(c) for c in case["inputs"]], [b(c) for c in case["outputs"]]
    scalars = [b(s) for s in case["scalars"]]
    proof = sp.prove_shuffle(
        context, joint, inputs, outputs, case["permutation"], scalars, b(case["prover_seed"])
    )
    assert msgpack.packb(sp.encode_proof(proof), use_bin_type=True) == b(case["encoded"])
    decoded = sp.decode_proof(msgpack.unpackb(b(case["encoded"]), raw=False), len(inputs), seat=1)
    assert decoded == proof
    assert sp.verify_shuffle(context, joint, inputs, outputs, decoded)
    assert not sp.verify_shuffle(
        sp.proof_context(GAME_ID, 0, case["round"], case["pass"]), joint, inputs, outputs, decoded
    )


@pytest.mark.parametrize("case", load("envelopes.json"), ids=lambda c: c["kind"])
def test_envelopes(case: dict[str, Any]) -> None:
    identity = Identity.from_seed(b(case["identity_seed"]))
    assert identity.public_key == b(case["public_key"])
    body = msgpack.unpackb(b(case["body"]), raw=False)
    place = (case["version"], b(case["game_id"]), case["seq"], b(case["prev"]), b(case["anchor"]))
    env = Envelope(*place, case["seat"], case["kind"], body)
    assert env.signed_part() == b(case["signed_part"])
    signed = env.signed(identity)
    assert signed.sig == b(case["sig"])
    assert signed.encode() == b(case["encoded"])
    assert entry_hash(b(case["encoded"])) == b(case["hash"])
    decoded = decode_envelope(b(case["encoded"]))
    assert decoded == signed and decoded.verify(identity.public_key)
    # The host places an entry: where it puts it changes no signature.
    assert decoded.placed(case["seq"] + 7, bytes(32)).verify(identity.public_key)


def _fields(v: Any) -> Any:
    """JSON fields as Python values: ``{"bin": hex}`` is bytes."""
    if isinstance(v, dict) and set(v) == {"bin"}:
        return b(v["bin"])
    if isinstance(v, dict):
        return {k: _fields(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_fields(x) for x in v]
    return v


def _plain(v: Any) -> Any:
    """A message as plain values: dataclasses as dicts, tuples as lists."""
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {f.name: _plain(getattr(v, f.name)) for f in dataclasses.fields(v)}
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_plain(x) for x in v]
    return v


@pytest.mark.parametrize("case", load("link.json"), ids=lambda c: c["type"])
def test_link_messages(case: dict[str, Any]) -> None:
    msg = wire.decode(b(case["encoded"]))
    assert type(msg).__name__ == case["type"]
    assert _plain(msg) == _fields(case["fields"])  # the bytes decode to these fields ...
    assert wire.encode(msg) == b(case["encoded"])  # ... and these fields encode to these bytes


@pytest.mark.parametrize("case", load("invites.json"), ids=lambda c: c["name"])
def test_invite_codes(case: dict[str, Any]) -> None:
    direct = tuple(Endpoint(h, p) for h, p in case["direct"])
    relay = None if case["relay"] is None else Endpoint(*case["relay"])
    invite = Invite(case["fingerprint"], b(case["secret"]), direct, relay, case["doors"])
    assert invite.payload() == b(case["payload"])
    assert invite.encode() == case["code"]
    assert decode_invite(case["code"]) == invite
    assert decode_invite(case["code"].upper().replace("FD1:", "fd1: ")) == invite  # read as people type it
    assert invite.session == b(case["session"])
    assert [invite.relay_token(d) for d in range(invite.doors)] == case["relay_tokens"]
    assert {r: invite.relay_side(r) for r in ("host", "joiner")} == case["relay_sides"]


def test_a_whole_game() -> None:
    """A short game's log: verify's verdict on it, and the same game played again gives its bytes."""
    from fairdeal import registry
    from fairdeal.core.session.verify import verify_log
    from fairdeal.testing import play_with_protocol

    about = load("game.json")
    data = (HERE / about["log"]).read_bytes()
    assert hashlib.sha256(data).hexdigest() == about["sha256"]
    reg = registry.load()
    report = verify_log(data, reg.game)
    assert report.to_json() == about["verify"] and report.verdict == "fair"
    game, bot = reg.game(about["game"]), reg.bot(about["game"])
    n = about["players"]
    played = play_with_protocol(game, n, about["seed"], about["options"], [bot.make() for _ in range(n)])
    assert played.log == data
