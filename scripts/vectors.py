"""Write the protocol's test vectors (``tests/vectors/*.json``) from fixed seeds.

    python scripts/vectors.py          # print what would change, exit 1 if anything would
    python scripts/vectors.py --write  # (re)write the files

The vectors pin the bytes of every format in ``docs/protocol.md``: deck proofs and
hashes, envelopes of every kind, link messages. ``tests/vectors/test_vectors.py``
checks the code against them in both directions; an independent implementation can
check itself against the same files. Rewrite them only for a deliberate change of a
format, and say so in the commit.

JSON conventions: a field that holds bytes holds them as lowercase hex; in the decoded
link messages (``fields``), bytes are ``{"bin": "<hex>"}`` to tell them from text.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "tests" / "vectors"
sys.path.insert(0, str(HERE))

from example import worked_example  # noqa: E402 - the worked example, beside this script


def hx(b: bytes) -> str:
    return b.hex()


def jsonable(v: Any) -> Any:
    """Plain JSON of a value made of bytes, str, int, bool, None, lists, tuples, dicts, dataclasses."""
    if isinstance(v, bytes):
        return {"bin": v.hex()}
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {f.name: jsonable(getattr(v, f.name)) for f in dataclasses.fields(v)}
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [jsonable(x) for x in v]
    return v


def seeded(label: str, n: int = 32) -> bytes:
    import hashlib

    return hashlib.shake_256(b"fairdeal/test-vectors/" + label.encode()).digest(n)


# -- the deck's cryptography -----------------------------------------------------------------------------
def deck_vectors() -> dict[str, Any]:
    from fairdeal.core.deck import _group as g
    from fairdeal.core.deck._common import purpose

    game_id = seeded("game-id", 16)
    out: dict[str, Any] = {"game_id": hx(game_id)}
    out["card_points"] = [
        {"name": name, "point": hx(g.card_point(game_id, name))} for name in ("AS#0", "10H#1", "QD#0", "2C#0")
    ]
    keys = []
    for seat, players in ((0, 2), (3, 10)):
        x = g.hash_scalar(b"test-vector-secret", seat)
        seed = seeded(f"key-nonce-{seat}")
        h = g.base(x)
        e, z = g.schnorr_prove(game_id, seat, players, x, h, seed)
        keys.append(
            {"seat": seat, "players": players, "secret": hx(x), "nonce_seed": hx(seed), "public": hx(h),
             "e": hx(e), "z": hx(z)}
        )  # fmt: skip
    out["key_proofs"] = keys
    joint = g.base(g.hash_scalar(b"test-vector-joint"))
    shares = []
    for seat, token, to in ((1, 7, None), (0, 40, 2)):
        x = g.hash_scalar(b"test-vector-secret", seat)
        ct = g.encrypt(g.card_point(game_id, "KS#0"), g.hash_scalar(b"test-vector-t", token), joint)
        seed = seeded(f"share-nonce-{seat}-{token}")
        d = g.mul(x, ct[: g.POINT_BYTES])
        context = g.frame(b"share", game_id, seat, token, ct, purpose(to))
        e, z = g.dleq_prove(context, x, g.base(x), ct[: g.POINT_BYTES], d, seed)
        shares.append(
            {"seat": seat, "token": token, "to": to, "ciphertext": hx(ct), "secret": hx(x),
             "nonce_seed": hx(seed), "context": hx(context), "share": hx(d), "e": hx(e), "z": hx(z)}
        )  # fmt: skip
    out["joint_key"] = hx(joint)
    out["share_proofs"] = shares
    out["handovers"] = [_handover(game_id)]
    choices = []
    for index, n, seats in ((0, 2, (0, 1)), (5, 1000, (0, 2, 3))):
        values = [seeded(f"random-{index}-{s}") for s in seats]
        commits = [
            g.digest(g.TAG_RANDOM_COMMIT, game_id, s, index, n, v) for s, v in zip(seats, values, strict=True)
        ]
        result = _random_result(game_id, index, n, seats, values)
        choices.append(
            {"index": index, "n": n, "seats": list(seats), "values": [hx(v) for v in values],
             "commitments": [hx(c) for c in commits], "result": result}
        )  # fmt: skip
    out["random_choices"] = choices
    out["shuffle_generators"] = [{"index": k, "point": hx(_generator(k))} for k in range(4)]
    out["shuffle_proofs"] = [_shuffle_proof(game_id, joint)]
    return out


def _handover(game_id: bytes) -> dict[str, Any]:
    """Seat 1 of three, the one seat that can open token 9, hands it over to seat 2 (10.4.1): the
    keys are the seats' own, the joint key their sum."""
    from fairdeal.core.deck import _group as g
    from fairdeal.core.deck._common import purpose

    xs = [g.hash_scalar(b"test-vector-secret", seat) for seat in range(3)]
    keys = [g.base(x) for x in xs]
    joint = g.add_all(keys)
    ct = g.encrypt(g.card_point(game_id, "7D#0"), g.hash_scalar(b"test-vector-t", 9), joint)
    s = g.hash_scalar(b"test-vector-handover-mask")
    seed = seeded("handover-nonce")
    c1, c2 = ct[: g.POINT_BYTES], ct[g.POINT_BYTES :]
    new = g.rerandomise(c1, c2, s, joint)
    masks = [g.mul(s, keys[0])]
    bases, images = [g.G, joint, keys[0]], [g.base(s), g.mul(s, joint), *masks]
    context = g.frame(b"handover", game_id, 1, 9, ct, new, 2)
    e, z = g.same_log_prove(context, s, bases, images, seed)
    d = g.mul(xs[1], new[: g.POINT_BYTES])
    share_context = g.frame(b"share", game_id, 1, 9, new, purpose(2))
    se, sz = g.dleq_prove(share_context, xs[1], keys[1], new[: g.POINT_BYTES], d, seed)
    return {
        "seat": 1, "to": 2, "token": 9, "card": "7D#0", "secrets": [hx(x) for x in xs],
        "keys": [hx(k) for k in keys], "joint_key": hx(joint), "ciphertext": hx(ct), "mask_secret": hx(s),
        "nonce_seed": hx(seed), "new_ciphertext": hx(new), "masks": [hx(m) for m in masks],
        "context": hx(context), "e": hx(e), "z": hx(z), "share": hx(d), "share_context": hx(share_context),
        "share_e": hx(se), "share_z": hx(sz),
    }  # fmt: skip


def _generator(k: int) -> bytes:
    from fairdeal.core.deck import _shuffle_proof as sp

    return sp.generator(k)


def _shuffle_proof(game_id: bytes, joint: bytes) -> dict[str, Any]:
    """Pass 1 of round 2 by seat 1 over 3 cards, the first of them a known card, (G, M + H)."""
    from fairdeal.core.deck import _group as g
    from fairdeal.core.deck import _shuffle_proof as sp

    inputs = [
        g.trivial(g.card_point(game_id, "AS#0"), joint),
        g.encrypt(g.card_point(game_id, "10H#1"), g.hash_scalar(b"test-vector-t", 1), joint),
        g.encrypt(g.card_point(game_id, "QD#0"), g.hash_scalar(b"test-vector-t", 2), joint),
    ]
    perm = [2, 0, 1]
    scalars = [g.hash_scalar(b"test-vector-s", j) for j in range(3)]
    outputs = []
    for j, s in enumerate(scalars):
        a, b = inputs[perm[j]][: g.POINT_BYTES], inputs[perm[j]][g.POINT_BYTES :]
        outputs.append(g.rerandomise(a, b, s, joint))
    context = sp.proof_context(game_id, 1, 2, 1)
    seed = seeded("shuffle-seed")
    fields = sp.encode_proof(sp.prove_shuffle(context, joint, inputs, outputs, perm, scalars, seed))
    from fairdeal.core import pack

    return {
        "seat": 1, "round": 2, "pass": 1, "context": hx(context),
        "inputs": [hx(c) for c in inputs], "outputs": [hx(c) for c in outputs],
        "permutation": perm, "scalars": [hx(s) for s in scalars], "prover_seed": hx(seed),
        "proof": {k: hx(v) if isinstance(v, bytes) else [hx(x) for x in v] for k, v in fields.items()},
        "encoded": hx(pack(fields)),
    }  # fmt: skip


def _random_result(game_id: bytes, index: int, n: int, seats: tuple[int, ...], values: list[bytes]) -> int:
    """The result of a joint random choice, as docs/protocol.md 10.5 defines it."""
    from fairdeal.core.deck import _group as g
    from fairdeal.core.deck._common import Stream
    from fairdeal.core.rng import below

    parts: list[Any] = []
    for s, v in zip(seats, values, strict=True):
        parts += [s, v]
    return int(below(Stream(g.digest(g.TAG_RANDOM_RESULT, game_id, index, n, *parts)), n))


# -- envelopes ---------------------------------------------------------------------------------------------
def envelope_vectors() -> list[dict[str, Any]]:
    """A short chain of entries: a header by the host, then entries of several kinds by the host
    (seat 0) and a guest (seat 1), each answering an earlier entry and placed by the host.

    Each vector gives every input and output of docs/protocol.md 8.1: the author's signed message,
    its signature, the writing, the entry hash, the placement message and signature, the bytes."""
    from fairdeal.core import pack
    from fairdeal.core.identity import Identity
    from fairdeal.core.session import envelope as ev

    host, guest = Identity.from_seed(seeded("identity")), Identity.from_seed(seeded("identity-guest"))
    game_id = seeded("game-id", 16)
    seats = [{"name": "Host", "identity": host.public_key, "kind": "bot"},
             {"name": "Guest", "identity": guest.public_key, "kind": "bot"}]  # fmt: skip
    header = {"protocol": 3, "game": "ecarte", "plugin": "ecarte", "distribution": "fairdeal", "version": "0",
              "options": {"target": 1}, "seats": seats, "extra": {}}  # fmt: skip
    bodies: list[tuple[int, str, Any]] = [
        (0, "header", header),
        (0, "deck.key", {"public": seeded("p"), "e": bytes(32), "z": bytes(31) + b"\x01"}),
        (1, "deck.random-commit", {"index": 0, "n": 2, "commitment": seeded("c")}),
        (0, "deck.random-commit", {"index": 0, "n": 2, "commitment": seeded("c2")}),
        (1, "move", {"move": ["play", [12, "centre-1"]], "shares": None}),
        (0, "resign", {}),
        (0, "abort", {"blame": [1], "reason": "left the game"}),
        (1, "deck.leave", {"secret": bytes(31) + b"\x02"}),
        (1, "deck.final-reveal", {"shares": [[3, None, seeded("d"), bytes(32), bytes(31) + b"\x03"]]}),
    ]
    out: list[dict[str, Any]] = []
    hashes: list[bytes] = []
    placements: list[bytes] = []
    for seq, (seat, kind, body) in enumerate(bodies):
        if seq == 0:
            point = (0, ev.GENESIS, ev.NO_SIG)
        else:  # the two random commitments are written at once: both answer the entry before the first
            at = seq - 2 if kind == "deck.random-commit" and bodies[seq - 1][1] == kind else seq - 1
            point = (at, hashes[at], placements[at])
        author = host if seat == 0 else guest
        env = ev.Envelope(ev.FORMAT_VERSION, game_id, seat, kind, body, *point).signed(author)
        prev = hashes[-1] if hashes else ev.GENESIS
        placed = env.place(seq, prev, host)
        h = placed.hash()
        encoded = placed.encode()
        out.append(
            {"seat": seat, "author_seed": hx(seeded("identity" if seat == 0 else "identity-guest")),
             "author_key": hx(author.public_key), "host_key": hx(host.public_key),
             "version": ev.FORMAT_VERSION,
             "game_id": hx(game_id), "kind": kind, "body": hx(pack(body)), "anchor_seq": point[0],
             "anchor": hx(point[1]), "anchor_sig": hx(point[2]), "signed_part": hx(env.signed_part()),
             "sig": hx(env.sig), "writing": hx(env.writing()), "seq": seq, "prev": hx(prev), "hash": hx(h),
             "placement_message": hx(ev.placement_message(game_id, seq, h)), "placed": hx(placed.placed),
             "encoded": hx(encoded)}
        )  # fmt: skip
        hashes.append(h)
        placements.append(placed.placed)
    return out


# -- link messages -------------------------------------------------------------------------------------------
def link_vectors() -> list[dict[str, Any]]:
    from fairdeal.net import wire

    messages: list[Any] = [
        wire.Hello(seeded("session", 8), "fairdeal 0.1.0"),
        wire.Welcome(
            1, 2, "ecarte", "fairdeal", "0.1.0", {"target": 5, "penalty": "classic", "trump_when_void": False}
        ),
        wire.Refused("the table is full"),
        wire.Ready("Bob", "bot:classic"),
        wire.Lobby((wire.LobbySeat("Alice", "fd1-aaaa-bbbb-cccc-dddd", "human"), None)),
        wire.Entry(b"\x98\x01"),
        wire.Ping(7),
        wire.Pong(7),
        wire.Bye("the game is over"),
        wire.Rejoin(seeded("session", 8), 2, 41, seeded("last", 32), "fairdeal 0.1.0"),
        wire.Watch(seeded("session", 8), 0, wire.NO_ENTRY, "fairdeal 0.1.0"),
        wire.Sync(57, 120),
        wire.Away(2, 114),
        wire.Away(1, 600, resuming=True),
        wire.Back(2),
        wire.Adjourn(1, True),
        wire.Adjourned(57),
    ]
    return [
        {
            "type": type(m).__name__,
            "fields": jsonable(m),
            "encoded": hx(wire.encode(m)),
        }
        for m in messages
    ]


# -- invite codes ------------------------------------------------------------------------------------------
def invite_vectors() -> list[dict[str, Any]]:
    from fairdeal.net.invite import PUBLIC_RELAY, Endpoint, Invite

    fp = "fd1-xpwv-2qmp-ikbz-sqxk"
    secret = seeded("table-secret", 16)
    cases = [
        ("ipv4, no relay", Invite(fp, secret, (Endpoint("192.168.1.20", 7700),))),
        ("ipv6, no relay", Invite(fp, secret, (Endpoint("2001:db8::7", 443),))),
        ("host name, no relay", Invite(fp, secret, (Endpoint("cards.example.org", 7700),))),
        ("public relay only", Invite(fp, secret, (), PUBLIC_RELAY, 3)),
        (
            "two addresses and a given relay",
            Invite(
                fp,
                secret,
                (Endpoint("10.0.0.2", 7700), Endpoint("203.0.113.9", 7700)),
                Endpoint("relay.example.net", 4001),
                9,
            ),
        ),
    ]
    out = []
    for name, invite in cases:
        out.append(
            {"name": name, "fingerprint": fp, "secret": hx(secret),
             "direct": [[e.host, e.port] for e in invite.direct],
             "relay": None if invite.relay is None else [invite.relay.host, invite.relay.port],
             "doors": invite.doors, "payload": hx(invite.payload()), "code": invite.encode(),
             "session": hx(invite.session),
             "relay_tokens": [invite.relay_token(d) for d in range(invite.doors)],
             "relay_sides": {"host": invite.relay_side("host"), "joiner": invite.relay_side("joiner")}}
        )  # fmt: skip
    return out


# -- a whole game -----------------------------------------------------------------------------------------
GAME = {"game": "ecarte", "players": 2, "seed": 3, "options": {"target": 2}}  # two deals: a reshuffle


def game_vector() -> tuple[bytes, dict[str, Any]]:
    """A short whole game (its log file) and what ``fairdeal verify`` says of it."""
    from fairdeal import registry
    from fairdeal.core.session.verify import verify_log
    from fairdeal.testing import play_with_protocol

    reg = registry.load()
    game = reg.game(str(GAME["game"]))
    bot = reg.bot(str(GAME["game"]))
    options: dict[str, object] = dict(GAME["options"])  # type: ignore[call-overload]
    players, seed = int(GAME["players"]), int(GAME["seed"])  # type: ignore[call-overload]
    played = play_with_protocol(game, players, seed, options, [bot.make() for _ in range(players)])
    report = verify_log(played.log, reg.game)
    about = {
        **GAME,
        "policies": bot.name,
        "log": "game.fdlog",
        "sha256": hashlib.sha256(played.log).hexdigest(),
        "verify": report.to_json(),
    }
    return played.log, about


def build() -> dict[str, bytes]:
    """Every file of the vectors, by name, as its bytes."""
    log, about = game_vector()
    files: dict[str, Any] = {
        "invites.json": invite_vectors(),
        "deck.json": deck_vectors(),
        "envelopes.json": envelope_vectors(),
        "link.json": link_vectors(),
        "game.json": about,
    }
    out = {
        name: (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode() for name, data in files.items()
    }
    out["game.fdlog"] = log
    out["example.md"] = worked_example(log, about).encode()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the files (else compare)")
    args = parser.parse_args(argv)
    changed = []
    for name, data in build().items():
        path = OUT / name
        if not path.exists() or path.read_bytes() != data:
            changed.append(name)
            if args.write:
                OUT.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
    verb = "wrote" if args.write else "would change"
    print(f"{verb}: {', '.join(changed)}" if changed else "the vectors are up to date")
    return 1 if changed and not args.write else 0


if __name__ == "__main__":
    sys.exit(main())
