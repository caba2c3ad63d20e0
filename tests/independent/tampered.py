"""Tampered copies of real logs, and the verdicts of both verifiers side by side.

``python tests/independent/tampered.py ECARTE_LOG SNATCH_LOG TRAFFIC_LOG HEARTS_LOG [OUT_DIR]``
writes every copy of ``CASES`` and prints a table: the case, this verifier's verdict, ``fairdeal
verify``'s. SNATCH_LOG has three seats; TRAFFIC_LOG is a log of four seats of Traffic
(``tests/foundation/traffic.py``, a test game whose moves hand cards over), e.g.
``fairdeal.testing.play_with_protocol(Traffic(), 4, 0).log``, and HEARTS_LOG one of the example
Hearts (``examples/hearts``, whose rules look for who holds the 2♣: ``deck.find``);
``fairdeal verify`` is run where it knows those games (``games_env``). The first group alters
the file in place (the host's placement signature then fails: damage); the second re-signs every
entry after the alteration (``forge.resign``), so that the alteration is its author's and only
the checks behind the signatures can find it; the third re-places an entry its author signed
(``forge.place``), so that where it sits is the host's doing.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import forge
import msgpack
import verifier
from forge import Entry, first, flip

Case = tuple[str, str, Callable[[bytes], bytes]]  # name, base log ("E", "S", "T" or "H"), alteration

# Where the two verdicts differ by design: a verifier without the rules cannot tell that a game
# is decided before every end is in (protocol.md 8.4, "fair"); fairdeal verify, with them, can.
BY_DESIGN = {
    "the last end cut": ("undecided", "fair"),
    "torn last record": ("undecided", "fair"),
    "re-signed: one end dropped": ("undecided", "fair"),
    "re-signed: Snatch! a move changed (rules)": ("fair", "cheating"),
}


def games_env(folder: Path) -> dict[str, str]:
    """An environment in which ``fairdeal verify`` knows the games of logs made in tests: Traffic
    (``tests/foundation/traffic.py``, whose moves hand cards over) and Hearts (the example plugin
    in ``examples/hearts``, whose rules look for who holds the 2♣): a distribution's metadata in
    ``folder`` names them in the ``fairdeal`` entry-point group (as their logs' headers say:
    distribution fairdeal-tests 0)."""
    info = folder / "fairdeal_tests-0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fairdeal-tests\nVersion: 0\n")
    (info / "entry_points.txt").write_text(
        "[fairdeal]\ntraffic = foundation.traffic:Traffic\nhearts = fairdeal_hearts:Hearts\n"
    )
    tests = Path(__file__).resolve().parent.parent
    hearts = tests.parent / "examples" / "hearts"
    path = os.pathsep.join([str(folder), str(tests), str(hearts), os.environ.get("PYTHONPATH", "")])
    return dict(os.environ, PYTHONPATH=path.rstrip(os.pathsep))


def _in_place(change: Callable[[list[Entry]], None]) -> Callable[[bytes], bytes]:
    def apply(data: bytes) -> bytes:
        entries = forge.decode(data)
        change(entries)
        return forge.encode(entries)

    return apply


def _resigned(change: Callable[[list[Entry]], Any]) -> Callable[[bytes], bytes]:
    def apply(data: bytes) -> bytes:
        entries = forge.decode(data)
        out = change(entries)
        return forge.encode(forge.resign(out if out is not None else entries))

    return apply


def _records(change: Callable[[list[bytes]], list[bytes]]) -> Callable[[bytes], bytes]:
    return lambda data: forge.write_records(change(forge.read_records(data)))


def _kind(kind: str, seat: int | None = None) -> Callable[[Entry], bool]:
    return lambda e: e[3] == kind and (seat is None or e[2] == seat)


def _reshuffle(e: Entry) -> bool:
    return e[3] == "deck.shuffle" and e[4]["round"] > 0 and e[4]["inputs"] is not None


def _faceup_reshuffle(e: Entry) -> bool:
    return _reshuffle(e) and any(card is not None for _, card in e[4]["inputs"])


def _private_share(e: Entry) -> bool:
    return e[3] == "deck.shares" and any(row[1] is not None for row in e[4]["shares"])


def _set(path: list[Any], value: Any) -> Callable[[list[Entry]], None]:
    """entries[path[0]]...[path[-1]] = value, path[0] being a finder of the entry."""

    def change(entries: list[Entry]) -> None:
        node: Any = entries[first(entries, path[0])]
        for key in path[1:-1]:
            node = node[key]
        node[path[-1]] = value(node[path[-1]]) if callable(value) else value

    return change


def _swap(path: list[Any], i: int, j: int) -> Callable[[list[Entry]], None]:
    def change(entries: list[Entry]) -> None:
        node: Any = entries[first(entries, path[0])]
        for key in path[1:]:
            node = node[key]
        node[i], node[j] = node[j], node[i]

    return change


def _drop_faceup_name(entries: list[Entry]) -> None:
    inputs = entries[first(entries, _faceup_reshuffle)][4]["inputs"]
    k = next(k for k, item in enumerate(inputs) if item[1] is not None)
    inputs[k] = [inputs[k][0], None]


def _rename_faceup(entries: list[Entry]) -> None:
    inputs = entries[first(entries, _faceup_reshuffle)][4]["inputs"]
    a = next(k for k, item in enumerate(inputs) if item[1] is not None)
    b = next(k for k, item in enumerate(inputs) if item[1] is not None and k > a)
    inputs[a][1] = inputs[b][1]


def _retarget_share(entries: list[Entry]) -> None:
    row = next(r for r in entries[first(entries, _private_share)][4]["shares"] if r[1] is not None)
    row[1] = None


def _drop(pick: Callable[[Entry], bool]) -> Callable[[list[Entry]], list[Entry]]:
    def change(entries: list[Entry]) -> list[Entry]:
        k = first(entries, pick)
        return entries[:k] + entries[k + 1 :]

    return change


def _end_winner(entries: list[Entry]) -> None:
    end = entries[first(entries, _kind("end", 1))]
    end[4]["winner"] = 0 if end[4]["winner"] != 0 else 1


def _reversed(d: dict[str, Any]) -> dict[str, Any]:
    return dict(reversed(list(d.items())))


def _abort_reordered(entries: list[Entry]) -> list[Entry]:
    out = _abort([1])(entries)
    out[-1][4] = _reversed(out[-1][4])
    return out


def _end_reason(entries: list[Entry]) -> None:
    for e in entries:
        if e[3] == "end":
            e[4]["reason"] = "over\u2028and out"


def _after_end(entries: list[Entry]) -> list[Entry]:
    extra = list(entries[first(entries, _kind("end", 0))])
    extra[5] = None
    return [*entries, extra]


def _anchor_back(entries: list[Entry]) -> None:
    k = first(entries, _kind("move"), start=20)
    entries[k][5] = entries[k][9] - 2


def _swap_concurrent(entries: list[Entry]) -> list[Entry]:
    k = first(entries, lambda e: e[3] == "deck.shares" and e[2] == 0, start=9)
    assert (
        entries[k + 1][3] == "deck.shares" and entries[k + 1][2] == 1 and entries[k + 1][5] == entries[k][5]
    )
    a, b = list(entries[k]), list(entries[k + 1])
    b[9], b[5] = 1, 0  # placed first, it answers the entry before it (offset 1)
    a[9], a[5] = 2, 0  # placed second, it answers that same entry (offset 2)
    return [*entries[:k], b, a, *entries[k + 2 :]]


def _wrong_pass_seat(entries: list[Entry]) -> None:
    k = first(entries, _kind("deck.shuffle", 1))
    entries[k][2] = 0


def _repeat_move(entries: list[Entry]) -> list[Entry]:
    k = first(entries, _kind("move"), start=20)
    again = list(entries[k])
    again[5] = None
    return [*entries[: k + 1], again, *entries[k + 1 :]]


def _extra_row(entries: list[Entry]) -> None:
    rows = entries[first(entries, _kind("deck.shares"))][4]["shares"]
    rows.append(list(rows[0]))


def _abort(blame: list[int], evidence_by: int | None = None) -> Callable[[list[Entry]], list[Entry]]:
    """The host aborts after entry 49; with ``evidence_by``, with a second entry of seat 1."""

    def change(entries: list[Entry]) -> list[Entry]:
        prefix = forge.resign(entries[:50])
        body: dict[str, Any] = {"blame": blame, "reason": "testing"}
        if evidence_by is not None:
            k = max(i for i, e in enumerate(prefix) if e[2] == 1 and e[3] == "move")
            other = list(prefix[k])
            other[4] = dict(other[4], move=["refuse" if other[4]["move"][0] != "refuse" else "accept", []])
            body["evidence"] = forge.sign_unplaced(other, forge.signing_keys()[evidence_by])
        abort: Entry = [3, entries[0][1], 0, "abort", body, None, b"", b"", b"", 0, b"", b""]
        return [*prefix, abort]

    return change


def _handover(e: Entry) -> bool:
    """A guest's deck.shares that hands one card over, with two masks or more, answering the entry
    before it (nothing else answers that point)."""
    if e[3] != "deck.shares" or e[2] == 0 or e[5] != e[9] - 1 or e[4]["shares"]:
        return False
    rows = e[4].get("handovers", [])
    return len(rows) == 1 and len(rows[0][3]) >= 2


def _handover_to_another(entries: list[Entry]) -> None:
    e = entries[first(entries, _handover)]
    row = e[4]["handovers"][0]
    row[1] = next(s for s in range(1, 10) if s not in (e[2], row[1]))


def _handover_by_another(entries: list[Entry]) -> None:
    e = entries[first(entries, _handover)]
    e[2] = next(s for s in range(1, 10) if s not in (e[2], e[4]["handovers"][0][1]))


def _handover_in_move(entries: list[Entry]) -> list[Entry]:
    """A guest's move that gives a card away carries the hand-over its next entry made."""
    k = next(
        i
        for i, e in enumerate(entries)
        if e[3] == "move"
        and e[2] != 0
        and e[4]["move"][0] == "give"
        and entries[i + 1][3] == "deck.shares"
        and entries[i + 1][2] == e[2]
    )
    entries[k][4] = dict(entries[k][4], shares={"shares": [], "handovers": entries[k + 1][4]["handovers"]})
    return entries[: k + 1] + entries[k + 2 :]


def _showing(e: Entry) -> bool:
    return e[3] == "deck.find" and e[4]["share"] is not None


def _placed_twice(pick: Callable[[Entry], bool], start: int = 20) -> Callable[[bytes], bytes]:
    """The host places a guest's entry a second time, right after itself: its author's writing is
    untouched, only where it sits is new. The log ends there."""

    def apply(data: bytes) -> bytes:
        entries = forge.resign(forge.decode(data))
        k = first(entries, pick, start=start)
        return forge.encode(forge.place(entries[: k + 1], entries[k]))

    return apply


def _after_abort(pick: Callable[[Entry], bool], start: int = 20) -> Callable[[bytes], bytes]:
    """The host aborts where a guest's entry was owed, then places that entry, as the guest wrote
    it (answering a point before the abort), after its abort."""

    def apply(data: bytes) -> bytes:
        source = forge.decode(data)
        full = forge.resign(source)
        k = first(full, pick, start=start)
        abort: Entry = [3, source[0][1], 0, "abort", {"blame": [], "reason": "testing"}, None]
        abort += [b"", b"", b"", 0, b"", b""]
        return forge.encode(forge.place(forge.resign([*source[:k], abort]), full[k]))

    return apply


def _second_end_after_the_end(data: bytes) -> bytes:
    """Seat 1 signs a second, different end for the point its end answers, and the host places it
    after the last end: placed late, but its author's equivocation (9.5), not the host's."""
    entries = forge.resign(forge.decode(data))
    other = list(entries[first(entries, _kind("end", 1))])
    other[4] = dict(other[4], reason="another reason")
    other[8] = forge.signing_keys()[1].sign(forge.signed(other)).signature
    return forge.encode(forge.place(entries, other))


def _guest(kind: str) -> Callable[[Entry], bool]:
    return lambda e: e[3] == kind and e[2] != 0


def _late_share(e: Entry) -> bool:
    """A guest's deck.shares that answers an earlier point than the entry before it."""
    return e[3] == "deck.shares" and e[2] != 0 and e[5] < e[9] - 1


def _noncanonical(data: bytes) -> bytes:
    """Entry 5's round index written as a 2-byte int, signed and placed as such."""
    records = forge.read_records(forge.encode(forge.resign(forge.decode(data))))
    keys = forge.signing_keys()
    entries = forge.decode(forge.write_records(records))
    e = entries[5]
    assert e[3] == "deck.random-commit" and e[4]["index"] == 0
    body = msgpack.packb(e[4], use_bin_type=True).replace(b"\xa5index\x00", b"\xa5index\xcd\x00\x00", 1)
    head = msgpack.packb(e[:4], use_bin_type=True)[1:]
    tail = msgpack.packb(e[5:8], use_bin_type=True)[1:]
    items = b"\x98" + head + body + tail
    signed = b"fairdeal/envelope/v3\x00" + items
    sig = keys[e[2]].sign(signed).signature
    gid = e[1]
    w = hashlib.sha256(b"fairdeal/writing/v1\x00" + signed + sig).digest()
    h = hashlib.sha256(b"fairdeal/entry/v3\x00" + gid + struct.pack(">I", 5) + e[10] + w).digest()
    placed = keys[0].sign(b"fairdeal/placement/v1\x00" + gid + struct.pack(">I", 5) + h).signature
    rest = msgpack.packb([sig, 5, e[10], placed], use_bin_type=True)[1:]
    records[5] = b"\x9c" + items[1:] + rest
    return forge.write_records(records[:6])


CASES: list[Case] = [
    # -- altered in place: the placement signature fails --------------------------------------
    ("proof bit (in place)", "E", _in_place(_set([_kind("deck.shuffle", 1), 4, "proof", "s_hat", 5], flip))),
    ("share bit (in place)", "E", _in_place(_set([_kind("deck.shares"), 4, "shares", 0, 2], flip))),
    ("author signature bit", "E", _in_place(_set([_kind("move"), 8], flip))),
    ("placement signature bit", "E", _in_place(_set([_kind("deck.random-reveal"), 11], flip))),
    ("two entries reordered", "E", _records(lambda r: [*r[:30], r[31], r[30], *r[32:]])),
    ("an entry dropped", "E", _records(lambda r: r[:40] + r[41:])),
    ("an entry repeated", "E", _records(lambda r: r[:50] + r[49:])),
    ("a move changed (in place)", "E", _in_place(_set([_kind("move"), 4, "move", 0], "play"))),
    ("the last end cut", "E", _records(lambda r: r[:-1])),
    ("a pass's inputs swapped (in place)", "E", _in_place(_swap([_reshuffle, 4, "inputs"], 0, 1))),
    ("header name changed", "E", _in_place(_set([_kind("header"), 4, "seats", 1, "name"], "Mallory"))),
    ("prev bit", "E", _in_place(_set([_kind("move"), 10], flip))),
    ("anchor_sig bit", "E", _in_place(_set([_kind("move"), 7], flip))),
    ("torn last record", "E", lambda d: d[:-7]),
    ("magic line damaged", "E", lambda d: b"FDLOG2\n" + d[7:]),
    # -- re-signed: the alteration is its author's --------------------------------------------
    (
        "re-signed: round-0 proof s_hat bit",
        "E",
        _resigned(_set([_kind("deck.shuffle", 0), 4, "proof", "s_hat", 3], flip)),
    ),
    (
        "re-signed: pass proof e bit",
        "E",
        _resigned(_set([_kind("deck.shuffle", 1), 4, "proof", "e"], lambda b: flip(b, 31))),
    ),
    (
        "re-signed: two output ciphertexts swapped",
        "E",
        _resigned(_swap([_kind("deck.shuffle", 1), 4, "deck"], 0, 1)),
    ),
    ("re-signed: reshuffle inputs swapped", "E", _resigned(_swap([_reshuffle, 4, "inputs"], 0, 1))),
    (
        "re-signed: round 0 not in canonical order",
        "E",
        _resigned(_swap([_kind("deck.shuffle", 0), 4, "inputs"], 0, 1)),
    ),
    ("re-signed: face-up input renamed", "E", _resigned(_rename_faceup)),
    ("re-signed: face-up input listed as hidden", "E", _resigned(_drop_faceup_name)),
    ("re-signed: an input token dropped", "E", _resigned(_set([_reshuffle, 4, "inputs"], lambda x: x[:-1]))),
    (
        "re-signed: share point bit",
        "E",
        _resigned(_set([_private_share, 4, "shares", 1, 2], lambda b: flip(b, 5))),
    ),
    ("re-signed: share opened to another purpose", "E", _resigned(_retarget_share)),
    (
        "re-signed: key proof z bit",
        "E",
        _resigned(_set([_kind("deck.key", 1), 4, "z"], lambda b: flip(b, 31))),
    ),
    (
        "re-signed: random value changed",
        "E",
        _resigned(_set([_kind("deck.random-reveal", 1), 4, "value"], flip)),
    ),
    ("re-signed: random range changed", "E", _resigned(_set([_kind("deck.random-commit", 1), 4, "n"], 3))),
    ("re-signed: one end's winner changed", "E", _resigned(_end_winner)),
    ("re-signed: a final reveal dropped", "E", _resigned(_drop(_kind("deck.final-reveal", 1)))),
    ("re-signed: a move answering two back", "E", _resigned(_anchor_back)),
    ("re-signed: an entry after the end", "E", _resigned(_after_end)),
    ("re-signed: one end dropped", "E", _resigned(_drop(_kind("end", 1)))),
    ("re-signed: a pass by the wrong seat", "E", _resigned(_wrong_pass_seat)),
    ("re-signed: a move repeated", "E", _resigned(_repeat_move)),
    ("re-signed: a share row repeated", "E", _resigned(_extra_row)),
    (
        "re-signed: Snatch! pass proof s_prime bit",
        "S",
        _resigned(_set([_kind("deck.shuffle", 2), 4, "proof", "s_prime", 0], flip)),
    ),
    ("re-signed: Snatch! a seat's share dropped", "S", _resigned(_drop(_kind("deck.shares", 2)))),
    ("re-signed: the host aborts, blaming seat 1", "E", _resigned(_abort([1]))),
    ("re-signed: an abort proving seat 1 signed twice", "E", _resigned(_abort([1], evidence_by=1))),
    ("re-signed: an abort whose evidence seat 1 did not sign", "E", _resigned(_abort([1], evidence_by=0))),
    ("a record of length 0 after the end", "E", lambda d: d + bytes(4)),
    ("a record longer than 1 MiB after the end", "E", lambda d: d + b"\x00\x10\x00\x01" + bytes(64)),
    ("the magic line and no entry", "E", lambda d: d[:7]),
    (
        "re-signed: an author signature with S + L",
        "E",
        lambda d: forge.encode(forge.resign(forge.decode(d), alter_sig={30: forge.malleate})),
    ),
    (
        "re-signed: two seats with one identity",
        "E",
        lambda d: forge.encode(forge.resign(forge.decode(d), seat_keys=[0, 0])),
    ),
    (
        "re-signed: options not sorted",
        "E",
        _resigned(_set([_kind("header"), 4, "options"], lambda o: dict(reversed(list(o.items()))))),
    ),
    ("re-signed: an int not in its shortest form", "E", _noncanonical),
    ("re-signed: the header's fields reordered", "E", _resigned(_set([_kind("header"), 4], _reversed))),
    (
        "re-signed: a seat's fields reordered",
        "E",
        _resigned(_set([_kind("header"), 4, "seats", 1], _reversed)),
    ),
    ("re-signed: a key's fields reordered", "E", _resigned(_set([_kind("deck.key", 1), 4], _reversed))),
    (
        "re-signed: a proof's fields reordered",
        "E",
        _resigned(_set([_kind("deck.shuffle", 1), 4, "proof"], _reversed)),
    ),
    ("re-signed: a move's fields reordered", "E", _resigned(_set([_kind("move"), 4], _reversed))),
    ("re-signed: an abort's fields reordered", "E", _resigned(_abort_reordered)),
    (
        "re-signed: extra not sorted",
        "E",
        _resigned(_set([_kind("header"), 4, "extra"], {"b": "1", "a": "2"})),
    ),
    (
        "re-signed: a seat's name ends in a space",
        "E",
        _resigned(_set([_kind("header"), 4, "seats", 1, "name"], "Bot ")),
    ),
    (
        "re-signed: a bidi override in a name",
        "E",
        _resigned(_set([_kind("header"), 4, "seats", 1, "name"], "B\u202eot")),
    ),
    ("re-signed: a line separator in an end's reason", "E", _resigned(_end_reason)),
    # -- hand-overs (log protocol 4), in a Traffic log of four seats: each alteration is its author's
    ("re-signed: hand-over mask bit", "T", _resigned(_set([_handover, 4, "handovers", 0, 3, 0], flip))),
    (
        "re-signed: hand-over new ciphertext bit",
        "T",
        _resigned(_set([_handover, 4, "handovers", 0, 2], lambda b: flip(b, 40))),
    ),
    ("re-signed: hand-over share bit", "T", _resigned(_set([_handover, 4, "handovers", 0, 6], flip))),
    (
        "re-signed: hand-over share proof bit",
        "T",
        _resigned(_set([_handover, 4, "handovers", 0, 8], lambda b: flip(b, 31))),
    ),
    ("re-signed: hand-over to another seat", "T", _resigned(_handover_to_another)),
    ("re-signed: hand-over masks swapped", "T", _resigned(_swap([_handover, 4, "handovers", 0, 3], 0, 1))),
    (
        "re-signed: hand-over proof z bit",
        "T",
        _resigned(_set([_handover, 4, "handovers", 0, 5], lambda b: flip(b, 31))),
    ),
    ("re-signed: a hand-over by a seat that is not the holder", "T", _resigned(_handover_by_another)),
    ("re-signed: hand-over carried by a move", "T", _resigned(_handover_in_move)),
    (
        "re-signed: hand-over body with no row",
        "T",
        _resigned(_set([_handover, 4], {"shares": [], "handovers": []})),
    ),
    (
        "re-signed: hand-over body of protocol 3's shape",
        "T",
        _resigned(_set([_handover, 4], lambda b: {"shares": b["shares"]})),
    ),
    # -- searches for who holds a card (deck.find, 10.4.2), in a log of Hearts
    ("re-signed: find showing opened to a seat", "H", _resigned(_set([_showing, 4, "share", 1], 0))),
    ("re-signed: find showing share bit", "H", _resigned(_set([_showing, 4, "share", 2], flip))),
    (
        "re-signed: find showing proof bit",
        "H",
        _resigned(_set([_showing, 4, "share", 4], lambda b: flip(b, 31))),
    ),
    # -- where the host put an entry (8.4, check 9a): seat 0 is to blame, not the author ----------
    ("re-placed: a guest's move placed twice", "T", _placed_twice(_guest("move"))),
    ("re-placed: a guest's concurrent shares placed twice", "E", _placed_twice(_late_share, start=9)),
    ("re-placed: a guest's move placed after an abort", "T", _after_abort(_guest("move"))),
    ("re-placed: a guest's concurrent shares placed after an abort", "E", _after_abort(_late_share, start=9)),
    ("re-placed: a guest's second, different end after the last end", "E", _second_end_after_the_end),
    # -- valid alterations: both must accept ------------------------------------------------------
    ("re-signed: nothing changed", "E", _resigned(lambda e: None)),
    ("re-signed: two concurrent shares swapped", "E", _resigned(_swap_concurrent)),
    # -- what only the rules can see ------------------------------------------------------------
    (
        "re-signed: Snatch! a move changed (rules)",
        "S",
        _resigned(_set([_kind("move"), 4, "move", 0], lambda a: "snatch" if a == "turn" else "turn")),
    ),
]


def fairdeal_verdict(fairdeal: str, path: Path, env: dict[str, str] | None = None) -> str:
    out = subprocess.run(
        [fairdeal, "verify", "--json", str(path)], capture_output=True, text=True, check=False, env=env
    )
    try:
        report = json.loads(out.stdout)
    except ValueError:
        return f"exit {out.returncode}"
    if out.returncode in (3, 4):
        label = {3: "not a log", 4: "unreadable"}[out.returncode]
        return f"{report['verdict'] or label}: {report.get('error') or report['findings'][0]['reason']}"
    verdict = str(report["verdict"])
    if verdict == "cheating":
        finding = report["findings"][0]
        verdict += f" (seat {finding['seat']}, entry {finding['entry']}): {finding['reason']}"
    return verdict


def main(argv: list[str]) -> int:
    bases = {k: Path(path).read_bytes() for k, path in zip("ESTH", argv[:4], strict=True)}
    outdir = Path(argv[4] if len(argv) > 4 else "tampered")
    outdir.mkdir(parents=True, exist_ok=True)
    fairdeal = str(Path(sys.executable).parent / "fairdeal")
    env = games_env(outdir / "plugin")
    print("| # | copy | this verifier | fairdeal verify | same |")
    print("|---|---|---|---|---|")
    for n, (name, base, alter) in enumerate(CASES, 1):
        path = outdir / f"{n:02d}.fdlog"
        path.write_bytes(alter(bases[base]))
        mine = verifier.verify_file(str(path))
        ours = mine.verdict
        if mine.verdict == "cheating":
            ours += f" (seat {mine.seat}, entry {mine.entry})"
        if mine.reason:
            ours += f": {mine.reason}"
        theirs = fairdeal_verdict(fairdeal, path, env)
        agree = "yes" if theirs.split(":")[0] == ours.split(":")[0] else "NO"
        if BY_DESIGN.get(name) == (mine.verdict, theirs.split(":")[0].split(" (")[0]):
            agree = "by design"
        print(f"| {n} | {name} | {ours.replace('|', '/')} | {theirs.replace('|', '/')} | {agree} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
