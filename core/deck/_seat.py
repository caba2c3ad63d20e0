"""One seat's sans-I/O state of the deck protocol (:class:`DeckSeat`), composed of its parts.

Every seat keeps the same public state (keys, ciphertexts, shares, who owes what) by
applying the same ordered log through :meth:`DeckSeat.receive`; what differs is its
secret key and what it has decrypted. Each sub-protocol is a part in its own module:
keys (:mod:`._keys`), shuffle rounds (:mod:`._shuffles`), reveals (:mod:`._reveals`),
random choices (:mod:`._random`), leaving and the final reveal (:mod:`._ending`). The
seat makes the local calls, lists the parts' obligations in the order they are met,
and admits a message only when it meets an obligation that may be met now
(:meth:`DeckSeat.acceptable`).

Every secret of a seat derives from its seed and the public context, so building a
message is a pure function of the state (a caller may build one on a copy and throw
it away).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..cards import Card
from ..dealer import Reveal, Verdict
from ..errors import LocalProtocolError, RemoteProtocolError
from ..rng import Rng
from . import _group as g
from . import _handover as handover
from ._checked import CheckedProofs
from ._common import Context, Me, Obligation
from ._ending import Ending
from ._find import Finds
from ._keys import KeyRing
from ._limits import MAX_PLAYERS
from ._messages import (
    FinalReveal,
    FindClaim,
    KeyShare,
    Leave,
    Message,
    RandomCommit,
    RandomReveal,
    Shares,
    ShufflePass,
)
from ._random import RandomChoices
from ._reveals import Reveals
from ._shuffles import RoundRecord, Shuffles
from ._wire import (
    HANDOVER_PROTOCOL,
    KIND_FINAL,
    KIND_FIND,
    KIND_KEY,
    KIND_LEAVE,
    KIND_RANDOM_COMMIT,
    KIND_RANDOM_REVEAL,
    KIND_SHARES,
    KIND_SHUFFLE,
    PROTOCOL,
    PROTOCOLS,
)

#: The kinds of obligation that several seats may meet at once, in any order.
CONCURRENT = frozenset({KIND_KEY, KIND_SHARES, KIND_RANDOM_COMMIT, KIND_RANDOM_REVEAL, KIND_FINAL, KIND_FIND})

#: The wire kind of each message type: what an obligation's kind is named.
MESSAGE_KIND: dict[type, str] = {
    KeyShare: KIND_KEY,
    ShufflePass: KIND_SHUFFLE,
    Shares: KIND_SHARES,
    RandomCommit: KIND_RANDOM_COMMIT,
    RandomReveal: KIND_RANDOM_REVEAL,
    Leave: KIND_LEAVE,
    FinalReveal: KIND_FINAL,
    FindClaim: KIND_FIND,
}


class DeckSeat:
    """One seat's view of the deck protocol for one game. See the package docstring.

    Local calls (``start``, ``reshuffle``, ``request``, ``begin_random``, ``begin_leave``,
    ``begin_final_reveal``) must be made identically on every seat, at the same point of
    the log; ``*_message`` methods build this seat's messages without changing any
    state; only :meth:`receive` applies messages, atomically.
    """

    __slots__ = ("_deck", "_end", "_finds", "_keys", "_random", "_reveals", "ctx")

    def __init__(
        self,
        game_id: bytes,
        seat: int,
        players: int,
        rng: Rng,
        checked: CheckedProofs | None = None,
        protocol: int = PROTOCOL,
    ) -> None:
        """Seat ``seat`` of ``players``; ``checked``: shared with the other seats of this process only;
        ``protocol``: the game's log protocol (one this code reads, :data:`PROTOCOLS`).

        With ``checked`` (local play, every seat in one process), a proof another seat of the
        process has already checked is not checked again (see :mod:`._checked`).
        """
        _check(game_id, seat, players, protocol)
        x = None
        while x is None:
            x = g.scalar_from_bytes_or_none(rng.bytes(64))
        self._build(Context(game_id, players, Me(seat, x, rng.bytes(32), g.base(x)), checked, protocol))

    @classmethod
    def observer(cls, game_id: bytes, players: int, protocol: int = PROTOCOL) -> DeckSeat:
        """A follower of the log with no seat and no secret (``fairdeal verify``).

        It checks every message as a seat does (every shuffle proof, share proof and hand-over),
        and learns the publicly revealed cards. It can send nothing.
        """
        _check(game_id, None, players, protocol)
        new = object.__new__(cls)
        new._build(Context(game_id, players, protocol=protocol))
        return new

    def _build(self, ctx: Context) -> None:
        self.ctx = ctx
        self._keys = KeyRing(ctx)
        self._deck = Shuffles(ctx)
        self._reveals = Reveals(ctx)
        self._random = RandomChoices(ctx)
        self._finds = Finds(ctx)
        self._end = Ending(ctx)

    @property
    def game_id(self) -> bytes:
        return self.ctx.game_id

    @property
    def seat(self) -> int | None:
        """This seat, or None for an observer."""
        return self.ctx.seat

    @property
    def players(self) -> int:
        return self.ctx.players

    @property
    def protocol(self) -> int:
        """The game's log protocol."""
        return self.ctx.protocol

    def __repr__(self) -> str:
        return (
            f"DeckSeat(seat={self.seat}, players={self.players}, keys={len(self._keys.public)}, "
            f"rounds={len(self._deck.rounds)}, live={len(self._deck.live)}, left={sorted(self._keys.left)})"
        )

    def copy(self) -> DeckSeat:
        """An independent copy (each part copies its own state)."""
        new = object.__new__(DeckSeat)
        new.ctx = self.ctx
        new._keys = self._keys.copy()
        new._deck = self._deck.copy()
        new._reveals = self._reveals.copy()
        new._random = self._random.copy()
        new._finds = self._finds.copy()
        new._end = self._end.copy()
        return new

    # ---- preconditions of local calls ----------------------------------------------------------

    def _need_idle(self) -> None:
        self._keys.need_joint()
        if self._deck.current() is not None:
            raise LocalProtocolError("a shuffle round is in progress")
        if self._random.choice is not None:
            raise LocalProtocolError("a joint random choice is in progress")
        if self._finds.search is not None:
            raise LocalProtocolError("a card's holder is being looked for")
        if self._end.leaving is not None:
            raise LocalProtocolError("a seat is leaving the game")
        if self._end.final:
            raise LocalProtocolError("the final reveal has started")

    def _need_active(self) -> Me:
        """This seat's secrets, if it may still send messages."""
        me = self.ctx.need_me()
        if me.seat in self._keys.left:
            raise LocalProtocolError("this seat has left the game")
        return me

    # ---- keys ----------------------------------------------------------------------------------

    def key_message(self) -> KeyShare:
        """This seat's public key with its proof of knowledge."""
        self._need_active()
        return self._keys.message()

    def public_keys(self) -> dict[int, bytes]:
        """The public keys received so far, by seat."""
        return dict(self._keys.public)

    def left_seats(self) -> list[int]:
        """Seats that have left the game for good."""
        return sorted(self._keys.left)

    # ---- shuffle rounds ------------------------------------------------------------------------

    def start(self, deck: Sequence[Card]) -> None:
        """Begin round 0: the deck (bottom card first) is shuffled by every active seat."""
        self._need_idle()
        self._deck.start(deck, self._keys.active(), self._keys.need_joint())

    def reshuffle(self, tokens: Sequence[int], public: Mapping[int, Card]) -> None:
        """Begin a round shuffling ``tokens`` together; ``public`` gives the face-up ones.

        A public card must be known here as that card. Old tokens die at once.
        """
        self._need_idle()
        busy = sorted(self._reveals.busy_tokens() & set(tokens))
        if busy:
            raise LocalProtocolError(f"shares are still owed for token {busy[0]}")
        keys = self._keys
        self._deck.reshuffle(tokens, public, self._reveals.known, keys.active(), keys.need_joint())
        self._reveals.forget(tokens)

    def shuffle_message(self) -> ShufflePass:
        """This seat's proven pass of the round in progress (only when it is its turn)."""
        self._need_active()
        return self._deck.message(self._keys.need_joint(), self._keys.left)

    def round_tokens(self) -> list[int]:
        """The fresh tokens of the last completed round, in deck order (bottom first)."""
        return self._deck.round_tokens()

    def live_tokens(self) -> list[int]:
        """Every token that currently stands for a card."""
        return sorted(self._deck.live)

    def ciphertext(self, token: int) -> bytes | None:
        """The current ciphertext ``c1 || c2`` of a live token."""
        return self._deck.cts[token] if token in self._deck.live else None

    def shuffle_rounds(self) -> list[RoundRecord]:
        """Every shuffle round so far: its size, who has passed (each pass proven) and who was to."""
        return self._deck.records()

    # ---- reveals -------------------------------------------------------------------------------

    def request(self, reveals: Sequence[Reveal]) -> None:
        """Register a reveal batch: every seat that must publish a share now owes it."""
        self._keys.need_joint()
        self._reveals.request(reveals, self._deck, self._keys)

    def owed_shares(self, seat: int | None = None) -> list[int]:
        """Tokens whose share ``seat`` (default: this seat; none for an observer) still owes."""
        return self._reveals.owed_by(self.seat if seat is None else seat)

    def owed_handovers(self, seat: int | None = None) -> list[int]:
        """Tokens that ``seat`` (default: this seat) still owes the hand-over of."""
        return self._reveals.handed_by(self.seat if seat is None else seat)

    def shares_message(self, tokens: Sequence[int] | None = None) -> Shares:
        """This seat's owed shares and hand-overs: all of them, or the shares of ``tokens``."""
        me = self._need_active()
        if self._end.final:
            raise LocalProtocolError("the final reveal has started: its shares go in a final reveal")
        shares, handovers = self._reveals.build(self._deck, self._keys, tokens)
        return Shares(me.seat, shares, handovers)

    def missing_shares(self, token: int) -> list[int]:
        """The active seats whose share of ``token``'s current ciphertext the log does not give: the
        seats that must still take part for the card to open (one: the seat that alone can)."""
        return self._reveals.missing(token, self._keys)

    def handover_mask(self, token: int, ciphertext: bytes, to: int) -> bytes:
        """The secret mask this seat draws to hand ``token`` (``ciphertext``) over to ``to``: this
        seat's own secret, for the conformance kit's check of what each seat can decrypt."""
        return handover.mask(self.ctx.need_me(), self.game_id, token, ciphertext, to)

    def card(self, token: int) -> Card | None:
        """The card behind ``token`` if this seat has decrypted it."""
        return self._reveals.known.get(token)

    def undecodable(self) -> list[int]:
        """Tokens that decrypted to no card of the deck."""
        return sorted(self._reveals.undecodable)

    def revealed_cards(self) -> dict[int, Card]:
        """Every token opened to everyone so far (live or dead), with its card.

        After the final reveal, that is every card any seat ever saw: what a replay of the
        game with full knowledge needs. The same on every seat and on an observer.
        """
        return self._reveals.public_cards()

    # ---- joint random choice -------------------------------------------------------------------

    def begin_random(self, n: int) -> None:
        """Begin a joint random choice in ``range(n)`` among the active seats."""
        self._need_idle()
        self._random.begin(n, self._keys.active())

    def random_commit_message(self) -> RandomCommit:
        self._need_active()
        return self._random.commit_message()

    def random_reveal_message(self) -> RandomReveal:
        self._need_active()
        return self._random.reveal_message()

    def random_result(self) -> int | None:
        """The outcome of the last random choice; None while one is in progress or none was made."""
        return self._random.result()

    # ---- who holds a card ----------------------------------------------------------------------

    def begin_find(self, card: Card, candidates: Mapping[int, Sequence[int]]) -> None:
        """Look for ``card``: every active seat of ``candidates`` (seat -> the tokens of its hands
        where the card may be) shows it if it holds it, or says it does not (log protocol 4)."""
        self._need_idle()
        if self.ctx.protocol < HANDOVER_PROTOCOL:
            raise LocalProtocolError("log protocol 3 cannot look for a card's holder")
        if self._reveals.busy:
            raise LocalProtocolError("shares are still owed")
        for seat, tokens in candidates.items():
            for t in tokens:
                if t not in self._deck.live or self._reveals.missing(t, self._keys) != [seat]:
                    raise LocalProtocolError(f"seat {seat} cannot show token {t}")
        self._finds.begin(card, candidates, self._keys)

    def find_message(self) -> FindClaim:
        """This seat's answer to the search in progress."""
        self._need_active()
        return self._finds.message(self._reveals, self._deck, self._keys)

    def found(self) -> tuple[int, int] | None:
        """The seat that showed the last card looked for, and its token (None: nobody held it, or
        the search is still on)."""
        return self._finds.result()

    def shown(self) -> tuple[int, int] | None:
        """The seat and token that showed the card looked for so far, the search on or over."""
        return self._finds.last

    # ---- leaving and the final reveal ----------------------------------------------------------

    def begin_leave(self, seat: int) -> None:
        """The rules take ``seat`` out of the game: it owes its secret, and nothing else is owed.

        Like every local call, this is made by every seat at the same point of the log,
        from its own copy of the rules; a peer's message never starts it.
        """
        self._need_idle()
        if self._reveals.busy:
            raise LocalProtocolError("shares are still owed")
        self._end.begin_leave(seat, self._keys)

    def leave_message(self) -> Leave:
        """Leave for good: publish this seat's secret key."""
        self._need_active()
        self._keys.need_joint()
        return self._end.leave_message()

    def begin_final_reveal(self) -> None:
        """The rules say the game is over: every card some seat saw alone is to be opened to all.

        Made by every seat when its own replica ends the game; until then no final reveal is
        built here and none is accepted from a peer.
        """
        self._need_idle()
        if self._reveals.busy:
            raise LocalProtocolError("shares are still owed")
        self._end.begin_final(self._reveals, self._deck, self._keys)

    @property
    def final_reveal_begun(self) -> bool:
        """Whether the final reveal has begun (see :meth:`begin_final_reveal`)."""
        return self._end.final

    def final_tokens(self) -> list[int]:
        """The tokens the final reveal opens: seen by one seat, never by all (those so far, before it)."""
        return list(self._end.opened) if self._end.final else self._reveals.final_tokens()

    def final_reveal_message(self) -> FinalReveal:
        """This seat's shares of the final reveal (up to a message's worth)."""
        self._need_active()
        return self._end.final_message(self._reveals, self._deck, self._keys)

    def verdict(self) -> Verdict | None:
        """The deck's verdict once the final reveal is complete; None before."""
        return self._end.verdict(self._reveals, self._deck)

    # ---- obligations ---------------------------------------------------------------------------

    def obligations(self) -> list[Obligation]:
        """Everything owed, in the order it is to be met."""
        if not self._keys.ready:
            return self._keys.obligations()
        leaving = self._end.obligations()
        if leaving:
            return leaving
        return [
            *self._reveals.obligations(KIND_FINAL if self._end.final else KIND_SHARES),
            *self._deck.obligations(self._keys.left),
            *self._random.obligations(),
            *self._finds.obligations(),
        ]

    def acceptable(self) -> tuple[Obligation, ...]:
        """The obligations a message may meet now, in the order a single writer would meet them.

        Obligations that do not depend on one another are met at once, in any order: the
        keys, the shares of one reveal, the random commitments (then the reveals), the final
        reveal. A shuffle pass, which takes the pass before it as its input, and a seat's
        leaving come one at a time. :meth:`receive` refuses any message that meets none of
        them, whatever it holds: what a seat may send is decided by this seat's own state,
        never by what a peer sent.
        """
        owed = self.obligations()
        if not owed or owed[0].kind not in CONCURRENT:
            return tuple(owed[:1])
        run = []
        for o in owed:
            if o.kind != owed[0].kind:
                break
            run.append(o)
        return tuple(run)

    def waiting_on(self) -> list[tuple[int, str]]:
        """Every (seat, what) still owed, in the order they are to be sent."""
        return [(o.seat, o.what) for o in self.obligations()]

    def next_sender(self) -> int | None:
        """The seat that must send next, or None when nothing is owed."""
        first = self.acceptable()
        return first[0].seat if first else None

    def due_message(self) -> Message | None:
        """The message this seat owes now, if it may send it."""
        mine = [o for o in self.acceptable() if o.seat == self.seat]
        if not mine:
            return None
        builders: dict[str, Callable[[], Message]] = {
            KIND_KEY: self.key_message,
            KIND_SHARES: self.shares_message,
            KIND_SHUFFLE: self.shuffle_message,
            KIND_RANDOM_COMMIT: self.random_commit_message,
            KIND_RANDOM_REVEAL: self.random_reveal_message,
            KIND_LEAVE: self.leave_message,
            KIND_FINAL: self.final_reveal_message,
            KIND_FIND: self.find_message,
        }
        return builders[mine[0].kind]()

    # ---- receiving -----------------------------------------------------------------------------

    def receive(self, msg: Message) -> None:
        """Apply ``msg`` sent by ``msg.seat``; atomic: a refused message changes nothing."""
        s = msg.seat
        if type(s) is not int or not 0 <= s < self.players:
            raise RemoteProtocolError(f"no seat {s!r} in this game", seat=None)
        if s in self._keys.left:
            raise RemoteProtocolError("message from a seat that has left the game", seat=s)
        kind = MESSAGE_KIND.get(type(msg))
        if kind is None:
            raise RemoteProtocolError(f"not a deck message: {type(msg).__name__}", seat=s)
        acceptable = self.acceptable()
        if not acceptable:
            raise RemoteProtocolError(f"{kind} when nothing is owed", seat=s)
        if not any(o.seat == s and o.kind == kind for o in acceptable):
            who = " and ".join(f"seat {o.seat}" for o in acceptable)
            raise RemoteProtocolError(
                f"{kind} out of turn: waiting on {who} for {acceptable[0].what}", seat=s
            )
        # Each part checks everything before it changes anything.
        if isinstance(msg, KeyShare):
            self._keys.receive(msg)
        elif isinstance(msg, ShufflePass):
            self._deck.receive(msg, self._keys.need_joint(), self._keys.left)
        elif isinstance(msg, Shares):
            if msg.handovers and self.ctx.protocol < HANDOVER_PROTOCOL:
                raise RemoteProtocolError("a hand-over in a game of log protocol 3", seat=s)
            self._reveals.receive(s, msg.shares, self._deck, self._keys, msg.handovers)
        elif isinstance(msg, RandomCommit):
            self._random.receive_commit(msg)
        elif isinstance(msg, RandomReveal):
            self._random.receive_reveal(msg)
        elif isinstance(msg, FindClaim):
            self._finds.receive(msg, self._reveals, self._deck, self._keys)
        elif isinstance(msg, Leave):
            self._end.receive_leave(msg, self._keys)
            self._reveals.opened_by_leaving(self._deck, self._keys)
        else:
            self._end.receive_final(msg, self._reveals, self._deck, self._keys)


def _check(game_id: bytes, seat: int | None, players: int, protocol: int) -> None:
    if protocol not in PROTOCOLS:
        raise LocalProtocolError(f"log protocol {protocol} is not one this fairdeal reads")
    if not isinstance(game_id, bytes) or not 1 <= len(game_id) <= 256:
        raise LocalProtocolError("a game id is 1 to 256 bytes")
    if not 2 <= players <= MAX_PLAYERS:
        raise LocalProtocolError(f"the deck protocol needs 2 to {MAX_PLAYERS} players")
    if seat is not None and not 0 <= seat < players:
        raise LocalProtocolError(f"no seat {seat} among {players}")
