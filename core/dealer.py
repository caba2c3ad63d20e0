"""The ``Dealer`` interface: who performs the rules API's card effects.

A rules engine never touches a card it may not see. It moves *tokens* (opaque
card handles) between zones and the core asks a dealer to shuffle, to reveal a
token to one seat or to everybody, to shuffle tokens together and to make joint
random choices. :class:`PlainDealer` knows every card (rules tests, bot
self-play, the baseline of benchmarks); the cryptographic dealer in
``fairdeal.core.deck`` performs the same effects with the mental-poker protocol.

Tokens are integers handed out by the dealer, never reused within a game.
Token lists are in deck order: index 0 is the bottom card, the last one the top.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .cards import Card
from .errors import LocalProtocolError
from .rng import Rng, below


@dataclass(frozen=True, slots=True)
class Reveal:
    """Reveal ``token`` to seat ``to``, or to every seat when ``to`` is None."""

    token: int
    to: int | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing found wrong at the end of a game. ``seat`` is to blame (None: cannot tell)."""

    seat: int | None
    where: str
    reason: str
    entry: int | None = None  # the log entry it points at, where there is one

    def __str__(self) -> str:
        who = f"seat {self.seat}" if self.seat is not None else "unknown seat"
        return f"{who} at {self.where}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The end-of-game verdict: ``fair`` when nothing is wrong; else the findings."""

    fair: bool
    findings: tuple[Finding, ...] = field(default_factory=tuple)
    checked: str = ""

    @staticmethod
    def ok(checked: str = "") -> Verdict:
        return Verdict(True, (), checked)


class Dealer(ABC):
    """Performs card effects for every seat of one game, in one process."""

    players: int

    @abstractmethod
    def start(self, deck: Sequence[Card]) -> list[int]:
        """Jointly shuffle ``deck``; return its tokens in the shuffled deck order."""

    @abstractmethod
    def reveal(self, reveals: Sequence[Reveal]) -> dict[int, Card]:
        """Reveal a batch of tokens to their audiences; return each token's card."""

    @abstractmethod
    def reshuffle(self, tokens: Sequence[int], public: Mapping[int, Card]) -> list[int]:
        """Shuffle ``tokens`` together into fresh tokens, returned in deck order.

        ``public`` gives the cards among ``tokens`` that every seat already knows
        (face-up cards); the others are hidden from at least one seat. The old
        tokens are dead afterwards.
        """

    @abstractmethod
    def random(self, n: int) -> int:
        """A joint random choice in ``range(n)`` that no seat can bias."""

    @abstractmethod
    def find(self, card: Card, candidates: Mapping[int, Sequence[int]]) -> tuple[int, int] | None:
        """Whoever of ``candidates`` (seat -> tokens of its hands) holds ``card`` shows it to all:
        return its seat and token, or None when none holds it."""

    @abstractmethod
    def leave(self, seat: int, shown: Sequence[int] = ()) -> dict[int, Card]:
        """``seat`` leaves the game for good; the others go on without it. Its secret opens every card
        ever opened to it: return the cards of ``shown`` (tokens it saw, still on the table)."""

    @abstractmethod
    def audit(self) -> Verdict:
        """End-of-game check: every card any seat saw opened to all, the deck's verdict."""

    def card(self, token: int) -> Card | None:
        """The card behind ``token`` if this dealer knows every card, else None."""
        return None


class PlainDealer(Dealer):
    """A trusted in-process dealer that knows every card. No cryptography."""

    def __init__(self, players: int, rng: Rng) -> None:
        if players < 1:
            raise LocalProtocolError("a game needs at least one player")
        self.players = players
        self._rng = rng
        self._cards: dict[int, Card] = {}
        self._next = 0
        self._left: set[int] = set()

    def _shuffled(self, cards: Sequence[Card]) -> list[int]:
        order = list(cards)
        for i in range(len(order) - 1, 0, -1):  # Fisher-Yates
            j = below(self._rng, i + 1)
            order[i], order[j] = order[j], order[i]
        tokens = []
        for c in order:
            self._cards[self._next] = c
            tokens.append(self._next)
            self._next += 1
        return tokens

    def start(self, deck: Sequence[Card]) -> list[int]:
        return self._shuffled(deck)

    def reveal(self, reveals: Sequence[Reveal]) -> dict[int, Card]:
        out = {}
        for r in reveals:
            if r.token not in self._cards:
                raise LocalProtocolError(f"no such card token {r.token}")
            if r.to is not None and not 0 <= r.to < self.players:
                raise LocalProtocolError(f"no seat {r.to}")
            out[r.token] = self._cards[r.token]
        return out

    def reshuffle(self, tokens: Sequence[int], public: Mapping[int, Card]) -> list[int]:
        cards = []
        for t in tokens:
            if t not in self._cards:
                raise LocalProtocolError(f"no such card token {t}")
            if t in public and public[t] != self._cards[t]:
                raise LocalProtocolError(f"token {t} is not {public[t]}")
            cards.append(self._cards.pop(t))
        return self._shuffled(cards)

    def random(self, n: int) -> int:
        return below(self._rng, n)

    def find(self, card: Card, candidates: Mapping[int, Sequence[int]]) -> tuple[int, int] | None:
        for seat in sorted(candidates):
            for t in candidates[seat]:
                if self._cards.get(t) == card:
                    return seat, t
        return None

    def leave(self, seat: int, shown: Sequence[int] = ()) -> dict[int, Card]:
        self._left.add(seat)
        return {t: self._cards[t] for t in shown}

    def audit(self) -> Verdict:
        return Verdict.ok("plain dealer: nothing to audit")

    def card(self, token: int) -> Card | None:
        return self._cards.get(token)
