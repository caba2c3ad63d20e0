"""The worked example of ``docs/protocol.md``: a short real log, dissected (``tests/vectors/example.md``).

``worked_example(log)`` writes, from the bytes of ``tests/vectors/game.fdlog``, a Markdown text
that takes the log apart as section 15 of the protocol says a verifier does: every entry, and
for a chosen few every field, every hash input and every signature, byte for byte. Every
```` ```hex NAME ```` block in it is checked against the log by ``tests/vectors/test_vectors.py``
with the standard library, msgpack and PyNaCl only, following the document's formulas; and the
file must be exactly what this function writes, so it cannot go stale.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import msgpack

FIELDS = ("version", "game_id", "seat", "kind", "body", "anchor_seq", "anchor", "anchor_sig", "sig", "seq",
          "prev", "placed")  # fmt: skip
WHOLE = 1200  # envelopes up to this many bytes are shown whole


def _hex(data: bytes, width: int = 32) -> str:
    """Hex, ``width`` bytes a line, in pairs."""
    lines = [data[i : i + width].hex(" ") for i in range(0, len(data), width)]
    return "\n".join(lines) if lines else ""


def _block(name: str, data: bytes) -> str:
    return f"```hex {name}\n{_hex(data)}\n```\n"


def _items(envelope: bytes) -> list[tuple[int, int]]:
    """The byte range of each of the envelope's 12 items."""
    u = msgpack.Unpacker(raw=False)
    u.feed(envelope)
    assert u.read_array_header() == len(FIELDS)
    out = []
    for _ in FIELDS:
        start = u.tell()
        u.skip()
        out.append((start, u.tell()))
    return out


def _short(v: Any) -> str:
    """A decoded value in a few words: bytes as their length and first bytes."""
    if isinstance(v, bytes):
        head = v[:8].hex()
        return f"{len(v)} bytes {head}{'…' if len(v) > 8 else ''}"
    if isinstance(v, list):
        return f"array of {len(v)}"
    if isinstance(v, dict):
        return "map of " + ", ".join(f"`{k}`" for k in v)
    return json.dumps(v, ensure_ascii=False)


def _plain(v: Any) -> Any:
    """A body as JSON: bytes as hex strings."""
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


def worked_example(log: bytes, about: dict[str, Any]) -> str:
    """The dissection of ``log`` (the game of ``about``: game, players, seed, options)."""
    from fairdeal import registry
    from fairdeal.core.deck import _group as g
    from fairdeal.core.deck._reveals import share_context
    from fairdeal.core.deck._shuffle_proof import proof_context
    from fairdeal.core.session import envelope as ev
    from fairdeal.core.session.logfile import MAGIC, parse_log
    from fairdeal.core.session.session import Session
    from fairdeal.core.session.verify import verify_log

    reg = registry.load()
    entries = parse_log(log).entries
    envs = [ev.decode_envelope(e) for e in entries]
    header = envs[0].body
    gid = envs[0].game_id
    keys = [s["identity"] for s in header["seats"]]
    # Replay as a verifier does, keeping what each entry needs explained.
    observer = Session(reg.game(header["game"]), None)
    states: list[Any] = []
    for e in entries:
        observer.receive(e)
        states.append(observer.deck.copy() if observer.seq > 1 else None)
    hashes = observer.hashes
    report = verify_log(log, reg.game)

    out: list[str] = []
    w = out.append
    w("# A worked example: a real log, dissected\n")
    w(
        "This file is written by `scripts/vectors.py` from `game.fdlog` (a whole game of "
        f"{header['game']} between {about['players']} bots, seed {about['seed']}, options "
        f"`{json.dumps(about['options'])}`) and follows `docs/protocol.md` section 15 through it. "
        "Every ```` ```hex NAME ```` block below is checked against the log's bytes by "
        "`tests/vectors/test_vectors.py`, with the standard library, msgpack and PyNaCl only, "
        "following the document's formulas; the file itself must be what the script writes, so it "
        "changes with the format and never goes stale. Hex is grouped in bytes, 32 to a line.\n"
    )
    w("## The file\n")
    w(
        f"{len(log)} bytes, SHA-256 `{hashlib.sha256(log).hexdigest()}`: the magic line "
        f"`{MAGIC.hex(' ')}` (`FDLOG1\\n`), then {len(entries)} records, each a 4-byte big-endian "
        "length and an envelope (8.3). `anchor` is the entry each one answers (8.2); `H` its hash.\n"
    )
    w("| # | at byte | length | seat | kind | answers | H |")
    w("|---|---|---|---|---|---|---|")
    pos = len(MAGIC)
    for i, (data, env) in enumerate(zip(entries, envs, strict=True)):
        answers = "—" if i == 0 else str(env.anchor_seq)
        w(f"| {i} | {pos} | {len(data)} | {env.seat} | `{env.kind}` | {answers} | `{hashes[i].hex()}` |")
        pos += 4 + len(data)
    w("")
    w("## The keys\n")
    w(
        f"The game id `G` and the identity keys come from the header (entry 0): `G` = `{gid.hex()}`; "
        + "; ".join(f"seat {s} (`{header['seats'][s]['name']}`) `{k.hex()}`" for s, k in enumerate(keys))
        + ". Seat 0 is the host: its key `K` checks every `placed` and every `anchor_sig`.\n"
    )
    w(_block("G", gid))
    for s, k in enumerate(keys):
        w(_block(f"key-{s}", k))

    def first(kind: str, *, after: int = 0, seat: int | None = None, where: Any = None) -> int:
        return next(
            i
            for i, e in enumerate(envs)
            if i >= after
            and e.kind == kind
            and (seat is None or e.seat == seat)
            and (where is None or where(e))
        )

    shown = [0, 1, 2, first("deck.shuffle"), first("deck.random-commit"), first("deck.random-reveal"),
             first("deck.shares"), first("move")]  # fmt: skip
    reshuffle = next(
        (i for i, e in enumerate(envs) if e.kind == "deck.shuffle" and e.body["round"] > 0), None
    )
    if reshuffle is not None:
        shown.append(reshuffle)
    if any(e.kind == "deck.final-reveal" for e in envs):
        shown.append(first("deck.final-reveal"))
    shown += [i for i, e in enumerate(envs) if e.kind == "end"]
    for i in shown:
        w(_entry(i, entries[i], envs[i], hashes, keys, gid, envs, states))
        w(_meaning(i, envs[i], envs, states, gid, g, share_context, proof_context))
    w("## What `fairdeal verify` says of it\n")
    w("```json\n" + json.dumps(report.to_json(), indent=1, ensure_ascii=False) + "\n```\n")
    return "\n".join(out)


def _entry(
    i: int, data: bytes, env: Any, hashes: Any, keys: list[bytes], gid: bytes, envs: list[Any], states: Any
) -> str:
    """Entry ``i`` field by field, with its signed message, writing, hash and placement."""
    from fairdeal.core.session import envelope as ev

    out: list[str] = []
    w = out.append
    w(f"## Entry {i}: `{env.kind}` by seat {env.seat}\n")
    items = _items(data)
    body_start, body_end = items[4]
    if len(data) <= WHOLE:
        length = len(data).to_bytes(4, "big").hex(" ")
        w(f"The whole envelope, {len(data)} bytes (record length `{length}`):\n")
        w(_block(f"e{i}.envelope", data))
    else:
        w(
            f"The envelope is {len(data)} bytes; its body ({body_end - body_start} bytes, SHA-256 "
            f"`{hashlib.sha256(data[body_start:body_end]).hexdigest()}`) is left out here: the bytes before "
            "it and after it are\n"
        )
        w(_block(f"e{i}.head", data[:body_start]))
        w(_block(f"e{i}.tail", data[body_end:]))
    w("| item | field | bytes | value |")
    w("|---|---|---|---|")
    w(f"| — | (array of 12) | 0..1 | `{data[:1].hex()}` |")
    for n, ((a, b), name) in enumerate(zip(items, FIELDS, strict=True)):
        raw = data[a:b]
        shown = raw.hex(" ") if len(raw) <= 12 else f"{raw[:6].hex(' ')} … ({len(raw)} bytes)"
        w(f"| {n} | `{name}` | {a}..{b} | `{shown}` = {_short(getattr(env, name))} |")
    w("")
    signed = env.signed_part()
    if len(signed) <= WHOLE:
        w('The author\'s signed message `S` = `"fairdeal/envelope/v3" 00` ‖ `98` ‖ items 0–7 as they are:\n')
        w(_block(f"e{i}.S", signed))
    else:
        w(
            f'The author\'s signed message `S` = `"fairdeal/envelope/v3" 00` ‖ `98` ‖ items 0–7 as they are: '
            f"{len(signed)} bytes, SHA-256 `{hashlib.sha256(signed).hexdigest()}`.\n"
        )
    w(f"`sig` is seat {env.seat}'s Ed25519 signature of `S` under `key-{env.seat}`:\n")
    w(_block(f"e{i}.sig", env.sig))
    w('The writing `W` = SHA-256(`"fairdeal/writing/v1" 00` ‖ `S` ‖ `sig`):\n')
    w(_block(f"e{i}.W", env.writing()))
    pre = ev.HASH_TAG + gid + env.seq.to_bytes(4, "big") + env.prev + env.writing()
    w('The entry\'s hash `H` = SHA-256 of `"fairdeal/entry/v3" 00` ‖ `G` ‖ `u32be(seq)` ‖ `prev` ‖ `W`:\n')
    w(_block(f"e{i}.Hin", pre))
    w(_block(f"e{i}.H", hashes[i]))
    w('The host signs the placement `P` = `"fairdeal/placement/v1" 00` ‖ `G` ‖ `u32be(seq)` ‖ `H`:\n')
    w(_block(f"e{i}.P", ev.placement_message(gid, env.seq, hashes[i])))
    w("`placed`, the host's Ed25519 signature of `P` under `key-0`:\n")
    w(_block(f"e{i}.placed", env.placed))
    if i == 0:
        w("The header answers nothing: its anchor fields are zero, and so is its `prev`.\n")
    else:
        w(
            f"It follows entry {i - 1} (`prev` is its `H`) and answers entry {env.anchor_seq}: `anchor` is "
            f"entry {env.anchor_seq}'s `H`, and `anchor_sig` its `placed`, which the host signed over "
            f"`P` of entry {env.anchor_seq}.\n"
        )
    return "\n".join(out)


def _meaning(
    i: int,
    env: Any,
    envs: list[Any],
    states: list[Any],
    gid: bytes,
    g: Any,
    share_context: Any,
    proof_context: Any,
) -> str:
    """What entry ``i``'s body says and what a verifier computes from it."""
    out: list[str] = []
    w = out.append
    body = env.body
    if env.kind == "header":
        w("The body, decoded (bytes as hex); its fields come in this order, `options` sorted (9.1):\n")
        w("```json\n" + json.dumps(_plain(body), indent=1, ensure_ascii=False) + "\n```\n")
    elif env.kind == "deck.key":
        w(
            f"Seat {env.seat}'s deck key `public` = H_{env.seat} with its Schnorr proof `(e, z)` (10.2): "
            f"`e` = hash_scalar(key-pok, G, {env.seat}, players, H_{env.seat}, z·G − e·H_{env.seat}).\n"
        )
    elif env.kind == "deck.shuffle":
        rnd, k = body["round"], _pass_index(i, envs)
        ctx = proof_context(gid, env.seat, rnd, k)
        framed = f'frame("shuffle-pass", G, {env.seat}, {rnd}, {k})'
        w(f"Pass {k} of round {rnd}. Its proof's context `C` = {framed}:\n")
        w(_block(f"e{i}.context", ctx))
        if body["inputs"] is not None:
            w(_inputs(i, body["inputs"], envs, states, gid, g))
        n, size = len(body["deck"]), len(body["deck"][0])
        w(
            f"`deck`: {n} ciphertexts of {size} bytes; `proof`: `c`, `c_hat` ({n} points each), `e`, `s` "
            "(4 scalars), `s_hat`, `s_prime` (10.7). The first output ciphertext:\n"
        )
        w(_block(f"e{i}.deck0", body["deck"][0]))
    elif env.kind in ("deck.shares", "deck.final-reveal"):
        token, to = body["shares"][0][:2]
        deck = states[i - 1]
        ct = deck._deck.cts[token]
        purpose = "public" if to is None else f"to seat {to}"
        w(
            f"{len(body['shares'])} share(s). The first, of token {token} (purpose `{purpose}`), proves "
            f"log_G(H_{env.seat}) = log_c1(share) (10.4) with the context "
            f'`C` = frame("share", G, {env.seat}, {token}, ct, "{purpose}"), `ct` the token\'s ciphertext:\n'
        )
        w(_block(f"e{i}.ct", ct))
        w(_block(f"e{i}.context", share_context(gid, env.seat, token, ct, to)))
    elif env.kind == "deck.random-commit":
        w(
            f"Commitment of seat {env.seat} to random choice {body['index']} in range({body['n']}) (10.5): "
            f"digest(random-commit, G, {env.seat}, {body['index']}, {body['n']}, v), v revealed later.\n"
        )
    elif env.kind == "deck.random-reveal":
        c = next(e for e in envs if e.kind == "deck.random-commit" and e.seat == env.seat
                 and e.body["index"] == body["index"])  # fmt: skip
        framed = g.frame(g.TAG_RANDOM_COMMIT, gid, env.seat, body["index"], c.body["n"], body["value"])
        w(
            f"Seat {env.seat} reveals v; its commitment is SHA-256 of frame(random-commit, G, {env.seat}, "
            f"{body['index']}, {c.body['n']}, v):\n"
        )
        w(_block(f"e{i}.commit-frame", framed))
        w(_block(f"e{i}.commitment", c.body["commitment"]))
    elif env.kind == "move":
        w(f"The move `{json.dumps(body['move'])}`; its meaning is the game's (9.2).\n")
    elif env.kind == "end":
        w("The result, as every seat's rules found it (9.7):\n")
        w("```json\n" + json.dumps(body, ensure_ascii=False) + "\n```\n")
    return "\n".join(out)


def _pass_index(i: int, envs: list[Any]) -> int:
    k, j = 0, i - 1
    while j > 0 and envs[j].kind == "deck.shuffle" and envs[j].body["round"] == envs[i].body["round"]:
        k, j = k + 1, j - 1
    return k


def _inputs(i: int, listed: list[Any], envs: list[Any], states: list[Any], gid: bytes, g: Any) -> str:
    """A first pass's ``inputs``, each with the ciphertext a verifier takes for it (10.3)."""
    out: list[str] = []
    w = out.append
    w(f"It is its round's first pass, so it lists the round's {len(listed)} inputs (9.4), bottom first:\n")
    w("| position | input | enters as |")
    w("|---|---|---|")
    deck = states[i - 1]
    made = _token_origins(envs[:i])
    for j, (token, card) in enumerate(listed):
        if token is None:
            w(f"| {j} | card `{card}` | its public encryption G ‖ (M(`{card}`) + H) |")
        elif card is None:
            entry, at = made[token]
            ct = deck._deck.cts[token][:8].hex()
            w(f"| {j} | token {token} | its ciphertext `{ct}…`: position {at} of entry {entry}'s `deck` |")
        else:
            w(f"| {j} | token {token}, face up: `{card}` | the public encryption of `{card}` (token {token} "
              f"was opened to all as it) |")  # fmt: skip
    w("")
    face = next((c for t, c in listed if c is not None), None)
    if face is not None:
        c = face
        joint = deck._keys.need_joint()
        w(
            f"For example `{c}`: its card point M (10.3), the joint key H, and its public encryption "
            "G ‖ (M + H):\n"
        )
        w(_block(f"e{i}.card-point", g.card_point(gid, c)))
        w(_block(f"e{i}.joint-key", joint))
        w(_block(f"e{i}.public-encryption", g.trivial(g.card_point(gid, c), joint)))
    return "\n".join(out)


def _token_origins(envs: list[Any]) -> dict[int, tuple[int, int]]:
    """For every token made so far: the entry of its round's last pass and its position there."""
    out: dict[int, tuple[int, int]] = {}
    nxt = 0
    for i, e in enumerate(envs):
        if e.kind != "deck.shuffle":
            continue
        after = envs[i + 1] if i + 1 < len(envs) else None
        if after is not None and after.kind == "deck.shuffle" and after.body["round"] == e.body["round"]:
            continue  # not the round's last pass
        for j in range(len(e.body["deck"])):
            out[nxt + j] = (i, j)
        nxt += len(e.body["deck"])
    return out
