"""The code against the protocol's fixed test vectors, in both directions.

Encoding the recorded inputs must give the recorded bytes (so a changed domain tag, field
order or encoding is caught), and the recorded bytes must decode and verify (so what an
independent implementation produces from ``docs/protocol.md`` is accepted). The files
are written by ``scripts/vectors.py``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import itertools
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgpack
import pytest

from fairdeal.core.deck import _group as g
from fairdeal.core.identity import Identity
from fairdeal.core.session.envelope import Envelope, decode_envelope, entry_hash, placed_by, placement_message
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
    from fairdeal.core.deck._common import purpose

    x, ct, d, e, z = (b(case[k]) for k in ("secret", "ciphertext", "share", "e", "z"))
    context = g.frame(b"share", GAME_ID, case["seat"], case["token"], ct, purpose(case["to"]))
    assert context == b(case["context"])
    assert g.mul(x, ct[:33]) == d
    assert g.dleq_prove(context, x, g.base(x), ct[:33], d, b(case["nonce_seed"])) == (e, z)
    assert g.dleq_verify(context, g.base(x), ct[:33], d, e, z)
    other = g.frame(b"share", GAME_ID, case["seat"], case["token"], ct, purpose(3))
    assert not g.dleq_verify(other, g.base(x), ct[:33], d, e, z)


@pytest.mark.parametrize("case", DECK["handovers"], ids=lambda c: f"token-{c['token']}")
def test_handovers(case: dict[str, Any]) -> None:
    """The re-mask, its masks and proof, and the share of the new ciphertext (10.4.1); opened with
    the masked seats' old shares carried over and the recipient's own share, it is the same card."""
    xs, keys = [b(x) for x in case["secrets"]], [b(k) for k in case["keys"]]
    joint, ct, new, s = (
        b(case["joint_key"]),
        b(case["ciphertext"]),
        b(case["new_ciphertext"]),
        b(case["mask_secret"]),
    )
    m, r = case["seat"], case["to"]
    assert g.add_all(keys) == joint and g.rerandomise(ct[:33], ct[33:], s, joint) == new
    masked = [i for i in range(3) if i not in (m, r)]
    masks = [b(x) for x in case["masks"]]
    assert masks == [g.mul(s, keys[i]) for i in masked]
    context = g.frame(b"handover", GAME_ID, m, case["token"], ct, new, r)
    assert context == b(case["context"])
    bases = [g.G, joint, *(keys[i] for i in masked)]
    images = [g.sub(new[:33], ct[:33]), g.sub(new[33:], ct[33:]), *masks]
    e, z = b(case["e"]), b(case["z"])
    assert g.same_log_prove(context, s, bases, images, b(case["nonce_seed"])) == (e, z)
    assert g.same_log_verify(context, bases, images, e, z)
    assert not g.same_log_verify(context, bases, [images[0], images[0], *masks], e, z)
    share = b(case["share"])
    assert share == g.mul(xs[m], new[:33])
    assert g.dleq_verify(
        b(case["share_context"]), keys[m], new[:33], share, b(case["share_e"]), b(case["share_z"])
    )
    # the recipient opens the card: masked seats' old shares plus their masks, the holder's new
    # share, its own
    carried = [g.add(g.mul(xs[i], ct[:33]), mask) for i, mask in zip(masked, masks, strict=True)]
    opened = g.sub(new[33:], g.add_all([*carried, share, g.mul(xs[r], new[:33])]))
    assert opened == g.card_point(GAME_ID, case["card"])


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


@pytest.mark.parametrize("case", load("envelopes.json"), ids=lambda c: f"{c['seq']}-{c['kind']}")
def test_envelopes(case: dict[str, Any]) -> None:
    author = Identity.from_seed(b(case["author_seed"]))
    assert author.public_key == b(case["author_key"])
    body = msgpack.unpackb(b(case["body"]), raw=False)
    point = (case["anchor_seq"], b(case["anchor"]), b(case["anchor_sig"]))
    env = Envelope(case["version"], b(case["game_id"]), case["seat"], case["kind"], body, *point)
    assert env.signed_part() == b(case["signed_part"])
    signed = env.signed(author)
    assert signed.sig == b(case["sig"])
    assert signed.writing() == b(case["writing"])
    decoded = decode_envelope(b(case["encoded"]))
    assert decoded.encode() == b(case["encoded"]) and decoded.same_writing(signed)
    assert (decoded.seq, decoded.prev) == (case["seq"], b(case["prev"]))
    assert entry_hash(b(case["encoded"])) == decoded.hash() == b(case["hash"])
    assert placement_message(b(case["game_id"]), case["seq"], b(case["hash"])) == b(case["placement_message"])
    assert decoded.placed == b(case["placed"])
    assert decoded.verify(author.public_key) and decoded.placed_by(b(case["host_key"]), b(case["game_id"]))
    # Where the host puts an entry changes nothing its author signed, and its placement covers it.
    moved = replace(decoded, seq=case["seq"] + 7)
    assert moved.verify(author.public_key) and not moved.placed_by(b(case["host_key"]), b(case["game_id"]))


def test_envelopes_chain_and_answer_earlier_entries() -> None:
    cases = load("envelopes.json")
    host = b(cases[0]["host_key"])
    for prev, case in itertools.pairwise(cases):
        assert b(case["prev"]) == b(prev["hash"])
        answered = cases[case["anchor_seq"]]
        assert b(case["anchor"]) == b(answered["hash"]) and b(case["anchor_sig"]) == b(answered["placed"])
        assert placed_by(
            host, b(case["game_id"]), case["anchor_seq"], b(case["anchor"]), b(case["anchor_sig"])
        )


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


# -- the worked example (example.md): the document's formulas against the real bytes --------------------
ROOT = HERE.parents[1]


def _blocks(text: str) -> dict[str, bytes]:
    """Every ```hex NAME block of the example, as bytes."""
    found = re.findall(r"```hex (\S+)\n(.*?)```", text, flags=re.DOTALL)
    blocks = {name: bytes.fromhex("".join(body.split())) for name, body in found}
    assert len(blocks) == len(found), "two blocks share a name"
    return blocks


def _frame(tag: bytes, *parts: bytes | int | str) -> bytes:
    """docs/protocol.md 10.1, written from the text."""
    out = len(tag).to_bytes(2, "big") + tag
    for p in parts:
        if isinstance(p, int):
            out += b"i" + p.to_bytes(8, "big")
        else:
            data = p.encode() if isinstance(p, str) else p
            out += (b"s" if isinstance(p, str) else b"b") + len(data).to_bytes(4, "big") + data
    return out


def _items(envelope: bytes) -> list[tuple[int, int]]:
    u = msgpack.Unpacker(raw=False)
    u.feed(envelope)
    assert u.read_array_header() == 12
    spans = []
    for _ in range(12):
        start = u.tell()
        u.skip()
        spans.append((start, u.tell()))
    return spans


def test_the_worked_example_is_what_the_script_writes_of_the_log() -> None:
    spec = importlib.util.spec_from_file_location("example", ROOT / "scripts" / "example.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    log = (HERE / "game.fdlog").read_bytes()
    assert module.worked_example(log, load("game.json")) == (HERE / "example.md").read_text()


def test_the_worked_example_checks_out_by_the_documents_formulas_alone() -> None:
    """Every hash, signature and framed input the example shows, recomputed from game.fdlog with
    hashlib, msgpack and PyNaCl only, as docs/protocol.md 8.2 and 10.1 say."""
    from nacl.signing import VerifyKey

    blocks = _blocks((HERE / "example.md").read_text())
    log = (HERE / "game.fdlog").read_bytes()
    assert log[:7] == b"FDLOG1\n"
    records, pos = [], 7
    while pos < len(log):
        n = int.from_bytes(log[pos : pos + 4], "big")
        records.append(log[pos + 4 : pos + 4 + n])
        pos += 4 + n
    assert pos == len(log)
    fields = [msgpack.unpackb(r, raw=False) for r in records]
    header = fields[0][4]
    gid, keys = fields[0][1], [s["identity"] for s in header["seats"]]
    assert blocks["G"] == gid and all(blocks[f"key-{s}"] == k for s, k in enumerate(keys))
    hashes: list[bytes] = []
    placements: list[bytes] = []
    for i, (data, f) in enumerate(zip(records, fields, strict=True)):
        seat, anchor_seq, anchor, anchor_sig, sig, seq, prev, placed = f[2], *f[5:]
        spans = _items(data)
        signed = b"fairdeal/envelope/v3\x00" + b"\x98" + data[spans[0][0] : spans[7][1]]
        assert msgpack.packb(f[:8], use_bin_type=True) == b"\x98" + data[spans[0][0] : spans[7][1]]
        VerifyKey(keys[seat]).verify(signed, sig)
        writing = hashlib.sha256(b"fairdeal/writing/v1\x00" + signed + sig).digest()
        pre = b"fairdeal/entry/v3\x00" + gid + seq.to_bytes(4, "big") + prev + writing
        h = hashlib.sha256(pre).digest()
        placement = b"fairdeal/placement/v1\x00" + gid + seq.to_bytes(4, "big") + h
        VerifyKey(keys[0]).verify(placement, placed)
        assert seq == i and prev == (hashes[-1] if hashes else bytes(32))
        if i:  # the anchor: a point of this log, with the host's own placement of it
            assert anchor_seq < i and anchor == hashes[anchor_seq] and anchor_sig == placements[anchor_seq]
        else:
            assert (anchor_seq, anchor, anchor_sig) == (0, bytes(32), bytes(64))
        hashes.append(h)
        placements.append(placed)
        shown = {k.split(".", 1)[1]: v for k, v in blocks.items() if k.startswith(f"e{i}.")}
        if not shown:
            continue
        body = f[4]
        expected = {
            "S": signed,
            "sig": sig,
            "W": writing,
            "Hin": pre,
            "H": h,
            "P": placement,
            "placed": placed,
        }
        for name, value in expected.items():
            assert shown.get(name, value) == value, (i, name)
        assert shown.get("envelope", data) == data
        assert data.startswith(shown.get("head", b"")) and data.endswith(shown.get("tail", b""))
        if f[3] == "deck.shuffle":
            k = sum(1 for g in fields[:i] if g[3] == "deck.shuffle" and g[4]["round"] == body["round"])
            assert shown["context"] == _frame(b"shuffle-pass", gid, seat, body["round"], k)
            assert shown["deck0"] == body["deck"][0]
        if f[3] in ("deck.shares", "deck.final-reveal"):
            token, to = body["shares"][0][:2]
            purpose = "public" if to is None else f"to seat {to}"
            assert shown["context"] == _frame(b"share", gid, seat, token, shown["ct"], purpose)
        if f[3] == "deck.random-reveal":
            framed = shown["commit-frame"]
            commit = next(
                g[4]
                for g in fields
                if g[3] == "deck.random-commit" and (g[2], g[4]["index"]) == (seat, body["index"])
            )
            tag = b"fairdeal/deck/random-commit/v1"
            assert framed == _frame(tag, gid, seat, body["index"], commit["n"], body["value"])
            assert hashlib.sha256(framed).digest() == shown["commitment"] == commit["commitment"]
    assert sum(1 for name in blocks if name.endswith(".placed")) >= 8  # the example shows enough
