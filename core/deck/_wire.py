"""Wire form of the deck messages: ``(kind, body)`` with msgpack-native bodies.

:func:`decode` checks every type, length, count and bound and that every scalar is
canonical; it does not check that points are on the curve (that costs a
multiplication each): :meth:`DeckSeat.receive` does it once per receiving seat, and
for a shuffle pass the proof's verification does it at no extra cost.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import RemoteProtocolError
from ._group import CT_BYTES, POINT_BYTES, SCALAR_BYTES, is_scalar
from ._limits import MAX_CHOICE, MAX_DECK, MAX_INDEX, MAX_PLAYERS, MAX_ROUNDS
from ._messages import (
    FinalReveal,
    FindClaim,
    Handover,
    InputRef,
    KeyShare,
    Leave,
    Message,
    RandomCommit,
    RandomReveal,
    ShareProof,
    Shares,
    ShufflePass,
)
from ._shuffle_proof import decode_proof, encode_proof

__all__ = [
    "HANDOVER_PROTOCOL",
    "KINDS",
    "KIND_FINAL",
    "KIND_FIND",
    "KIND_KEY",
    "KIND_LEAVE",
    "KIND_RANDOM_COMMIT",
    "KIND_RANDOM_REVEAL",
    "KIND_SHARES",
    "KIND_SHUFFLE",
    "MAX_CHOICE",
    "MAX_DECK",
    "MAX_INDEX",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "PROTOCOL",
    "PROTOCOLS",
    "decode",
    "encode",
]

DIGEST_BYTES = 32
MAX_CARD_NAME = 8  # "10H#1023"

KIND_KEY = "deck.key"
KIND_SHUFFLE = "deck.shuffle"
KIND_SHARES = "deck.shares"
KIND_RANDOM_COMMIT = "deck.random-commit"
KIND_RANDOM_REVEAL = "deck.random-reveal"
KIND_LEAVE = "deck.leave"
KIND_FINAL = "deck.final-reveal"
KIND_FIND = "deck.find"

#: The log protocol this code writes, and the first in which a card one seat alone can open is
#: handed over to another seat (``deck.shares`` then carries ``handovers``; before, the seat
#: published its own share, which opened the card to every reader of the log).
PROTOCOL = 4
HANDOVER_PROTOCOL = 4
#: The log protocols this code reads.
PROTOCOLS = frozenset({3, 4})


def _rows(shares: tuple[ShareProof, ...]) -> list[list[Any]]:
    return [[s.token, s.to, s.share, s.challenge, s.response] for s in shares]


def _handover_rows(handovers: tuple[Handover, ...]) -> list[list[Any]]:
    return [
        [
            h.token,
            h.to,
            h.ciphertext,
            list(h.masks),
            h.challenge,
            h.response,
            h.share.share,
            h.share.challenge,
            h.share.response,
        ]
        for h in handovers
    ]


def encode(msg: Message, protocol: int = PROTOCOL) -> tuple[str, dict[str, Any]]:
    """The wire kind and body of ``msg`` (the sender seat travels in the envelope), in the form of
    log protocol ``protocol``."""
    if isinstance(msg, KeyShare):
        return KIND_KEY, {"public": msg.public, "e": msg.challenge, "z": msg.response}
    if isinstance(msg, ShufflePass):
        inputs = None if msg.inputs is None else [list(i) for i in msg.inputs]
        body = {
            "round": msg.round,
            "inputs": inputs,
            "deck": list(msg.deck),
            "proof": encode_proof(msg.proof),
        }
        return KIND_SHUFFLE, body
    if isinstance(msg, Shares):
        if protocol < HANDOVER_PROTOCOL:
            if msg.handovers:
                raise ValueError(f"log protocol {protocol} has no hand-overs")
            return KIND_SHARES, {"shares": _rows(msg.shares)}
        return KIND_SHARES, {"shares": _rows(msg.shares), "handovers": _handover_rows(msg.handovers)}
    if isinstance(msg, RandomCommit):
        return KIND_RANDOM_COMMIT, {"index": msg.index, "n": msg.n, "commitment": msg.commitment}
    if isinstance(msg, RandomReveal):
        return KIND_RANDOM_REVEAL, {"index": msg.index, "value": msg.value}
    if isinstance(msg, Leave):
        return KIND_LEAVE, {"secret": msg.secret}
    if isinstance(msg, FinalReveal):
        return KIND_FINAL, {"shares": _rows(msg.shares)}
    if isinstance(msg, FindClaim):
        share = None if msg.share is None else _rows((msg.share,))[0]
        return KIND_FIND, {"card": msg.card, "share": share}
    raise TypeError(f"not a deck message: {type(msg).__name__}")


class _Reader:
    """Strict field checks that blame ``seat``."""

    def __init__(self, kind: str, seat: int, protocol: int = PROTOCOL) -> None:
        self.kind = kind
        self.seat = seat
        self.protocol = protocol

    def fail(self, reason: str) -> RemoteProtocolError:
        return RemoteProtocolError(f"malformed {self.kind} message: {reason}", seat=self.seat)

    def fields(self, body: object, names: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise self.fail("body is not a map")
        if tuple(body) != names:
            raise self.fail(f"fields must be exactly {', '.join(names)}, in that order")
        return body

    def integer(self, v: object, hi: int, what: str) -> int:
        if type(v) is not int or not 0 <= v < hi:
            raise self.fail(f"{what} must be an integer in [0, {hi})")
        return v

    def blob(self, v: object, n: int, what: str) -> bytes:
        if type(v) is not bytes or len(v) != n:
            raise self.fail(f"{what} must be {n} bytes")
        return v

    def scalar(self, v: object, what: str) -> bytes:
        self.blob(v, SCALAR_BYTES, what)
        if not is_scalar(v):
            raise self.fail(f"{what} is not a canonical scalar")
        return v  # type: ignore[return-value]

    def seq(self, v: object, lo: int, hi: int, what: str) -> list[Any]:
        if type(v) is not list or not lo <= len(v) <= hi:
            raise self.fail(f"{what} must be a list of {lo} to {hi} items")
        return v

    def shares(self, body: object) -> tuple[ShareProof, ...]:
        return self.share_rows(self.fields(body, ("shares",))["shares"], 1)

    def share_rows(self, rows: object, least: int) -> tuple[ShareProof, ...]:
        out = []
        seen: set[int] = set()
        for item in self.seq(rows, least, MAX_DECK, "shares"):
            row = self.seq(item, 5, 5, "share")
            token = self.integer(row[0], MAX_INDEX, "token")
            if token in seen:
                raise self.fail(f"token {token} appears twice")
            seen.add(token)
            to = None if row[1] is None else self.integer(row[1], MAX_PLAYERS, "share purpose (seat)")
            out.append(
                ShareProof(
                    token,
                    self.blob(row[2], POINT_BYTES, "share"),
                    self.scalar(row[3], "share proof e"),
                    self.scalar(row[4], "share proof z"),
                    to,
                )
            )
        return tuple(out)


def _key(r: _Reader, body: object) -> Message:
    f = r.fields(body, ("public", "e", "z"))
    return KeyShare(
        r.seat, r.blob(f["public"], POINT_BYTES, "public key"), r.scalar(f["e"], "e"), r.scalar(f["z"], "z")
    )


def _shuffle(r: _Reader, body: object) -> Message:
    f = r.fields(body, ("round", "inputs", "deck", "proof"))
    deck = tuple(r.blob(c, CT_BYTES, "ciphertext") for c in r.seq(f["deck"], 1, MAX_DECK, "deck"))
    inputs = None if f["inputs"] is None else _inputs(r, f["inputs"], len(deck))
    # The points of the deck and of the proof are checked by the proof's verification.
    proof = decode_proof(f["proof"], len(deck), r.seat, check_points=False)
    return ShufflePass(r.seat, r.integer(f["round"], MAX_ROUNDS, "round"), deck, proof, inputs)


def _inputs(r: _Reader, v: object, n: int) -> tuple[InputRef, ...]:
    """A first pass's list of the round's inputs: n pairs ``[token or nil, card name or nil]``, not
    both nil (what they must be, the receiving seat's own rules say)."""
    out: list[InputRef] = []
    for item in r.seq(v, n, n, f"inputs (one per card of the deck, {n})"):
        token, card = r.seq(item, 2, 2, "input")
        if token is not None:
            r.integer(token, MAX_INDEX, "input token")
        if card is not None and not (
            type(card) is str and 4 <= len(card) <= MAX_CARD_NAME and card.isascii()
        ):
            raise r.fail("an input's card must be a card's name, such as 10H#1")
        if token is None and card is None:
            raise r.fail("an input is a token, a card, or both")
        out.append((token, card))
    return tuple(out)


def _shares(r: _Reader, body: object) -> Message:
    if r.protocol < HANDOVER_PROTOCOL:
        return Shares(r.seat, r.shares(body))
    f = r.fields(body, ("shares", "handovers"))
    shares = r.share_rows(f["shares"], 0)
    handovers = tuple(_handover(r, row) for row in r.seq(f["handovers"], 0, MAX_DECK, "handovers"))
    if not shares and not handovers:
        raise r.fail("it holds no share and no hand-over")
    tokens = [s.token for s in shares] + [h.token for h in handovers]
    if len(set(tokens)) != len(tokens):
        raise r.fail("a token appears twice")
    return Shares(r.seat, shares, handovers)


def _handover(r: _Reader, item: object) -> Handover:
    row = r.seq(item, 9, 9, "hand-over")
    token = r.integer(row[0], MAX_INDEX, "token")
    to = r.integer(row[1], MAX_PLAYERS, "hand-over's seat")
    masks = tuple(r.blob(m, POINT_BYTES, "mask") for m in r.seq(row[3], 0, MAX_PLAYERS, "masks"))
    share = ShareProof(
        token,
        r.blob(row[6], POINT_BYTES, "share"),
        r.scalar(row[7], "share proof e"),
        r.scalar(row[8], "share proof z"),
        to,
    )
    return Handover(
        token,
        to,
        r.blob(row[2], CT_BYTES, "ciphertext"),
        masks,
        r.scalar(row[4], "hand-over proof e"),
        r.scalar(row[5], "hand-over proof z"),
        share,
    )


def _random_commit(r: _Reader, body: object) -> Message:
    f = r.fields(body, ("index", "n", "commitment"))
    n = r.integer(f["n"], MAX_CHOICE, "n")
    if n < 1:
        raise r.fail("n must be at least 1")
    return RandomCommit(
        r.seat,
        r.integer(f["index"], MAX_INDEX, "index"),
        r.blob(f["commitment"], DIGEST_BYTES, "commitment"),
        n,
    )


def _random_reveal(r: _Reader, body: object) -> Message:
    f = r.fields(body, ("index", "value"))
    return RandomReveal(r.seat, r.integer(f["index"], MAX_INDEX, "index"), r.blob(f["value"], 32, "value"))


def _leave(r: _Reader, body: object) -> Message:
    f = r.fields(body, ("secret",))
    return Leave(r.seat, r.scalar(f["secret"], "secret"))


def _final(r: _Reader, body: object) -> Message:
    return FinalReveal(r.seat, r.shares(body))


def _find(r: _Reader, body: object) -> Message:
    if r.protocol < HANDOVER_PROTOCOL:
        raise r.fail("no such message in log protocol 3")
    f = r.fields(body, ("card", "share"))
    card = f["card"]
    if not (type(card) is str and 4 <= len(card) <= MAX_CARD_NAME and card.isascii()):
        raise r.fail("card must be a card's name, such as 10H#1")
    share = None
    if f["share"] is not None:
        share = r.share_rows([f["share"]], 1)[0]
        if share.to is not None:
            raise r.fail("a card shown to its finders opens to everyone (its purpose is public)")
    return FindClaim(r.seat, card, share)


_DECODERS: dict[str, Callable[[_Reader, object], Message]] = {
    KIND_KEY: _key,
    KIND_SHUFFLE: _shuffle,
    KIND_SHARES: _shares,
    KIND_RANDOM_COMMIT: _random_commit,
    KIND_RANDOM_REVEAL: _random_reveal,
    KIND_LEAVE: _leave,
    KIND_FINAL: _final,
    KIND_FIND: _find,
}

#: Every message kind of the deck protocol.
KINDS: frozenset[str] = frozenset(_DECODERS)


def decode(kind: str, seat: int, body: object, protocol: int = PROTOCOL) -> Message:
    """Parse a message that ``seat`` sent in a log of protocol ``protocol``; any malformation raises
    ``RemoteProtocolError``."""
    if type(seat) is not int or not 0 <= seat < MAX_PLAYERS:
        raise RemoteProtocolError(f"no such seat: {seat!r}", seat=None)
    decoder = _DECODERS.get(kind) if isinstance(kind, str) else None
    if decoder is None:
        raise RemoteProtocolError(f"unknown deck message kind {kind!r}", seat=seat)
    return decoder(_Reader(kind, seat, protocol), body)
