"""``CryptoDealer``: the real deck protocol for every seat of a game, in one process."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..cards import Card
from ..dealer import Dealer, Reveal, Verdict
from ..errors import LocalProtocolError, RemoteProtocolError
from ..rng import Rng
from ._checked import CheckedProofs
from ._messages import Message
from ._seat import DeckSeat
from ._wire import decode, encode


class CryptoDealer(Dealer):
    """A :class:`~fairdeal.core.dealer.Dealer` that runs one :class:`DeckSeat` per seat.

    Every message goes through ``encode`` → ``decode`` → every seat's ``receive``
    (the sender's included), in ``next_sender()`` order. It never knows a card
    itself: ``card()`` is None; reveals return what the audience decrypted. Its
    ``audit`` is the final reveal: every shuffle pass was proven as it came.
    """

    def __init__(self, players: int, game_id: bytes, rng: Rng) -> None:
        self.players = players
        #: Every seat is here: each proof is checked by the first seat that receives it, once.
        self.checked = CheckedProofs()
        self._seats = [
            DeckSeat(game_id, i, players, rng.fork(f"seat-{i}"), self.checked) for i in range(players)
        ]
        self._verdict: Verdict | None = None
        self._pump()

    @property
    def seats(self) -> tuple[DeckSeat, ...]:
        """Each seat's protocol state (for tests and tools)."""
        return tuple(self._seats)

    def _active(self) -> list[DeckSeat]:
        gone = set(self._seats[0].left_seats())
        return [s for s in self._seats if s.seat not in gone]

    def _all(self, call: Callable[[DeckSeat], object]) -> None:
        """Apply a local call on every seat, all or none (on copies first)."""
        new = [s.copy() for s in self._seats]
        for s in new:
            call(s)
        self._seats = new

    def deliver(self, msg: Message) -> None:
        """Send ``msg`` to every seat through the wire encoding."""
        kind, body = encode(msg)
        decoded = decode(kind, msg.seat, body)
        for s in self._seats:
            s.receive(decoded)

    def _pump(self) -> None:
        while (sender := self._seats[0].next_sender()) is not None:
            msg = self._seats[sender].due_message()
            if msg is None:  # pragma: no cover - would be a bug in DeckSeat's obligations
                raise LocalProtocolError(f"seat {sender} must send but has nothing to send")
            self.deliver(msg)

    def start(self, deck: Sequence[Card]) -> list[int]:
        self._all(lambda s: s.start(deck))
        self._pump()
        return self._seats[0].round_tokens()

    def reveal(self, reveals: Sequence[Reveal]) -> dict[int, Card]:
        self._all(lambda s: s.request(reveals))
        self._pump()
        out: dict[int, Card] = {}
        for r in reveals:
            audience = self._active() if r.to is None else [self._seats[r.to]]
            seen = {s.card(r.token) for s in audience}
            if len(seen) != 1 or None in seen:
                raise RemoteProtocolError(f"token {r.token} does not decrypt to one card of the deck")
            card = seen.pop()
            assert card is not None
            out[r.token] = card
        return out

    def reshuffle(self, tokens: Sequence[int], public: Mapping[int, Card]) -> list[int]:
        self._all(lambda s: s.reshuffle(tokens, public))
        self._pump()
        return self._seats[0].round_tokens()

    def random(self, n: int) -> int:
        self._all(lambda s: s.begin_random(n))
        self._pump()
        results = {s.random_result() for s in self._active()}
        if len(results) != 1 or None in results:  # pragma: no cover - the seats share one log
            raise LocalProtocolError("the seats disagree on the random choice")
        result = results.pop()
        assert result is not None
        return result

    def find(self, card: Card, candidates: Mapping[int, Sequence[int]]) -> tuple[int, int] | None:
        self._all(lambda s: s.begin_find(card, candidates))
        self._pump()
        results = {s.found() for s in self._active()}
        if len(results) != 1:  # pragma: no cover - the seats share one log
            raise LocalProtocolError("the seats disagree on who holds the card")
        return results.pop()

    def leave(self, seat: int, shown: Sequence[int] = ()) -> dict[int, Card]:
        if not 0 <= seat < self.players:
            raise LocalProtocolError(f"no seat {seat}")
        self._all(lambda s: s.begin_leave(seat))
        self._pump()
        out: dict[int, Card] = {}
        for t in shown:
            seen = {s.card(t) for s in self._active()}
            if len(seen) != 1 or None in seen:
                raise RemoteProtocolError(
                    f"token {t} does not open to one card of the deck as seat {seat} leaves"
                )
            card = seen.pop()
            assert card is not None
            out[t] = card
        return out

    def audit(self) -> Verdict:
        if self._verdict is None:
            if not self._active():
                raise LocalProtocolError("every seat has left")
            self._all(lambda s: s.begin_final_reveal())
            self._pump()
            active = self._active()
            verdicts = {s.verdict() for s in active}
            verdict = active[0].verdict()
            if verdict is None or len(verdicts) != 1:  # pragma: no cover - the seats share one log
                raise LocalProtocolError("the seats disagree on the audit")
            self._verdict = verdict
        return self._verdict
