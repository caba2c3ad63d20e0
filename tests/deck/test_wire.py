"""The wire form: every message round-trips; every malformation is refused, naming the sender."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from fairdeal.core.deck import (
    KINDS,
    FinalReveal,
    Handover,
    KeyShare,
    Leave,
    Message,
    RandomCommit,
    RandomReveal,
    ShareProof,
    Shares,
    ShufflePass,
    ShuffleProof,
    decode,
    encode,
)
from fairdeal.core.deck import _group as g
from fairdeal.core.errors import RemoteProtocolError

P = g.base((5).to_bytes(32, "big"))
S = (7).to_bytes(32, "big")
NONCANONICAL = g.L.to_bytes(32, "big")
PROOF = ShuffleProof((P, P), (P, P), S, S, S, S, S, (S, S), (S, S))

SAMPLES: list[Message] = [
    KeyShare(1, P, S, S),
    ShufflePass(2, 0, (P + P, P + P), PROOF),
    Shares(0, (ShareProof(3, P, S, S), ShareProof(9, P, S, S, 2))),
    Shares(1, (), (Handover(4, 0, P + P, (P, P), S, S, ShareProof(4, P, S, S, 0)),)),
    RandomCommit(1, 4, b"c" * 32, 52),
    RandomReveal(1, 4, b"v" * 32),
    Leave(2, S),
    FinalReveal(0, (ShareProof(3, P, S, S), ShareProof(90, P, S, S))),
]


@pytest.mark.parametrize("msg", SAMPLES, ids=lambda m: type(m).__name__)
def test_round_trip_through_msgpack(msg: Message) -> None:
    kind, body = encode(msg)
    assert kind in KINDS and kind.startswith("deck.")
    raw = msgpack.packb(body, use_bin_type=True)
    assert decode(kind, msg.seat, msgpack.unpackb(raw, raw=False)) == msg


def test_sender_comes_from_envelope() -> None:
    kind, body = encode(KeyShare(1, P, S, S))
    assert decode(kind, 3, body).seat == 3


def refused(kind: str, body: Any, seat: int = 2, word: str = "") -> None:
    with pytest.raises(RemoteProtocolError) as info:
        decode(kind, seat, body)
    assert info.value.seat == seat
    assert word in str(info.value)


def test_unknown_kind_and_bad_seat() -> None:
    refused("deck.nonsense", {}, word="unknown")
    with pytest.raises(RemoteProtocolError):
        decode("deck.key", 10, encode(KeyShare(1, P, S, S))[1])
    with pytest.raises(RemoteProtocolError):
        decode("deck.key", True, encode(KeyShare(1, P, S, S))[1])  # type: ignore[arg-type]


def test_key_fields_are_strict() -> None:
    _, body = encode(KeyShare(1, P, S, S))
    refused("deck.key", [P, S, S], word="map")
    refused("deck.key", {**body, "extra": 1}, word="fields")
    refused("deck.key", {k: v for k, v in body.items() if k != "z"}, word="fields")
    refused("deck.key", dict(reversed(list(body.items()))), word="in that order")  # the order is the form
    refused("deck.key", {**body, "public": P[:31]}, word="33 bytes")
    refused("deck.key", {**body, "public": P.hex()}, word="33 bytes")
    refused("deck.key", {**body, "e": NONCANONICAL}, word="canonical")
    refused("deck.key", {**body, "z": b"\xff" * 32}, word="canonical")


def test_shuffle_fields_are_strict() -> None:
    _, body = encode(SAMPLES[1])
    refused("deck.shuffle", {**body, "round": -1}, word="round")
    refused("deck.shuffle", {**body, "round": True}, word="round")
    refused("deck.shuffle", {**body, "round": 4096}, word="round")
    refused("deck.shuffle", {**body, "deck": []}, word="deck")
    refused("deck.shuffle", {**body, "deck": [P + P] * 1025}, word="deck")
    refused("deck.shuffle", {**body, "deck": [P + P, P]}, word="66 bytes")
    refused("deck.shuffle", {**body, "deck": (P + P,)}, word="deck")
    refused("deck.shuffle", {**body, "commitment": b"c" * 32}, word="fields")  # the old form
    refused("deck.shuffle", {k: v for k, v in body.items() if k != "proof"}, word="fields")
    # the proof is of exactly as many cards as the deck, every scalar canonical
    refused("deck.shuffle", {**body, "deck": [P + P] * 3}, word="shuffle proof: c must be a list of 3")
    proof = body["proof"]
    refused("deck.shuffle", {**body, "proof": {**proof, "e": NONCANONICAL}}, word="shuffle proof: e")
    refused("deck.shuffle", {**body, "proof": [proof]}, word="shuffle proof: not a map")
    refused("deck.shuffle", {**body, "proof": {**proof, "x": 1}}, word="shuffle proof: fields")
    refused("deck.shuffle", {**body, "proof": {"e": proof["e"], **proof}}, word="in that order")
    refused("deck.shuffle", {"deck": body["deck"], **body}, word="in that order")


def test_shares_fields_are_strict() -> None:
    def shares(*rows: Any) -> dict[str, Any]:
        return {"shares": list(rows), "handovers": []}

    refused("deck.shares", shares(), word="no share and no hand-over")
    refused("deck.shares", shares([3, None, P, S, S], [3, None, P, S, S]), word="twice")
    refused("deck.shares", shares([3, None, P, S]), word="share")
    refused("deck.shares", shares([3, P, S, S]), word="share")  # the purpose is missing
    refused("deck.shares", shares([3, None, P, S, NONCANONICAL]), word="canonical")
    refused("deck.shares", shares([3, None, P + b"x", S, S]), word="33 bytes")
    refused("deck.shares", shares([-3, None, P, S, S]), word="token")
    refused("deck.shares", shares([3, 10, P, S, S]), word="purpose")
    refused("deck.shares", shares([3, "everyone", P, S, S]), word="purpose")
    refused("deck.shares", shares([3, True, P, S, S]), word="purpose")
    refused("deck.shares", {"shares": [[3, None, P, S, S]]}, word="handovers")  # log protocol 3's form


def test_handovers_are_strict() -> None:
    row = [3, 1, P + P, [P], S, S, P, S, S]
    assert decode("deck.shares", 2, {"shares": [], "handovers": [row]}) == Shares(
        2, (), (Handover(3, 1, P + P, (P,), S, S, ShareProof(3, P, S, S, 1)),)
    )

    def refused_row(bad: list[Any], word: str) -> None:
        refused("deck.shares", {"shares": [], "handovers": [bad]}, word=word)

    refused_row(row[:8], "hand-over")
    refused_row([3, None, *row[2:]], "hand-over's seat")
    refused_row([3, 1, P, *row[3:]], "66 bytes")
    refused_row([3, 1, P + P, P, *row[4:]], "masks")
    refused_row([3, 1, P + P, [P + b"x"], *row[4:]], "33 bytes")
    refused_row([3, 1, P + P, [P], NONCANONICAL, *row[5:]], "canonical")
    refused_row([*row[:8], NONCANONICAL], "canonical")
    refused("deck.shares", {"shares": [[3, None, P, S, S]], "handovers": [row]}, word="twice")
    refused("deck.shares", {"shares": [], "handovers": [row, row]}, word="twice")


def test_log_protocol_3_reads_and_writes_shares_without_handovers() -> None:
    body = {"shares": [[3, None, P, S, S]]}
    msg = decode("deck.shares", 2, body, protocol=3)
    assert msg == Shares(2, (ShareProof(3, P, S, S, None),))
    assert encode(msg, 3) == ("deck.shares", body)
    with pytest.raises(RemoteProtocolError):
        decode("deck.shares", 2, {"shares": [[3, None, P, S, S]], "handovers": []}, protocol=3)
    with pytest.raises(ValueError):
        encode(Shares(2, (), (Handover(3, 1, P + P, (P,), S, S, ShareProof(3, P, S, S, 1)),)), 3)


def test_leave_and_final_reveal_are_strict() -> None:
    _, body = encode(SAMPLES[6])
    refused("deck.leave", {**body, "secret": NONCANONICAL}, word="canonical")
    refused("deck.leave", {**body, "openings": []}, word="fields")  # the old form
    refused("deck.final-reveal", {"shares": []}, word="shares")
    refused("deck.final-reveal", {"shares": [[3, None, P, S, S], [3, None, P, S, S]]}, word="twice")
    refused("deck.final-reveal", {"shares": [[3, P, S, S]]}, word="share")
    refused("deck.final-reveal", {"shares": [[3, None, P, S, NONCANONICAL]]}, word="canonical")
    refused("deck.opening", {"openings": []}, word="unknown")  # no more openings


def test_random_fields_are_strict() -> None:
    refused("deck.random-commit", {"index": 0, "n": 2, "commitment": b"c"}, word="commitment")
    refused("deck.random-commit", {"index": 0, "commitment": b"c" * 32}, word="fields")
    refused("deck.random-commit", {"index": 0, "n": 0, "commitment": b"c" * 32}, word="at least 1")
    refused("deck.random-commit", {"index": 0, "n": 2**63, "commitment": b"c" * 32}, word="n must")
    refused("deck.random-reveal", {"index": 0, "value": b"v" * 33}, word="value")
    refused("deck.random-reveal", {"index": "0", "value": b"v" * 32}, word="index")


def test_encode_refuses_other_objects() -> None:
    with pytest.raises(TypeError):
        encode(object())  # type: ignore[arg-type]


def test_the_edges_of_seats_choices_and_fields() -> None:
    with pytest.raises(RemoteProtocolError, match="no such seat"):
        decode("deck.key", -1, encode(KeyShare(1, P, S, S))[1])
    one = decode("deck.random-commit", 1, {"index": 0, "n": 1, "commitment": b"c" * 32})
    assert isinstance(one, RandomCommit) and one.n == 1  # a choice among one is still a choice
    refused("deck.random-reveal", {"index": 0, "valeu": b"v" * 32}, word="fields")  # as many, one misspelt
