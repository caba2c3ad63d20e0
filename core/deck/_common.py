"""What the parts of a seat share: the game's context, obligations, and secret streams.

A :class:`~fairdeal.core.deck.DeckSeat` is made of one part per sub-protocol (keys,
shuffle rounds, reveals, random choices, leaving and the final reveal). Each part
keeps its own state, says what it is owed (:class:`Obligation`), builds this seat's
messages and checks a peer's; the seat composes them and decides which obligation
comes first. Each part is given what it needs of the others at each call, so each
can be read, copied and tested on its own.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from ..errors import LocalProtocolError
from . import _group as g
from ._checked import CheckedProofs


@dataclass(frozen=True, slots=True)
class Me:
    """A seat's identity and secrets; never shown in a repr."""

    seat: int
    x: bytes = field(repr=False)
    seed: bytes = field(repr=False)  # derives every other secret of the seat
    public: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class Context:
    """What never changes during a game: its id, its number of seats, and this seat (if any)."""

    game_id: bytes
    players: int
    me: Me | None = None
    #: Proofs already checked by another seat of this process (local play); None: check all.
    checked: CheckedProofs | None = None
    #: The log protocol of the game (docs/protocol.md): from 4 on, a card one seat alone can
    #: open is handed over to the next seat rather than opened with that seat's share.
    protocol: int = 4

    @property
    def seat(self) -> int | None:
        return None if self.me is None else self.me.seat

    def need_me(self) -> Me:
        if self.me is None:
            raise LocalProtocolError("an observer sends no messages")
        return self.me


@dataclass(frozen=True, slots=True)
class Obligation:
    """Seat ``seat`` owes a message of wire kind ``kind``: ``what``, in words."""

    seat: int
    kind: str
    what: str


class Stream:
    """A deterministic secret byte stream (SHAKE-256 of a key and a counter); an ``Rng``."""

    __slots__ = ("_counter", "_key")

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0

    def bytes(self, n: int) -> bytes:
        out = hashlib.shake_256(self._key + self._counter.to_bytes(8, "big")).digest(n)
        self._counter += 1
        return out

    def fork(self, label: str) -> Stream:
        return Stream(hashlib.sha256(self._key + b"/" + label.encode()).digest())


PUBLIC = "public"  # the purpose bound into a share that opens a card to everyone


def purpose(to: int | None) -> str:
    """The purpose a share's proof is bound to: ``public``, or ``to seat N``."""
    return PUBLIC if to is None else f"to seat {to}"


def share_context(game_id: bytes, seat: int, token: int, ct: bytes, to: int | None) -> bytes:
    """What a share's proof is bound to (docs/protocol.md 10.4)."""
    return g.frame(b"share", game_id, seat, token, ct, purpose(to))


def draw_scalar(stream: Stream) -> bytes:
    """A uniform non-zero scalar from ``stream``."""
    while True:
        s = g.scalar_from_bytes_or_none(stream.bytes(64))
        if s is not None:
            return s
