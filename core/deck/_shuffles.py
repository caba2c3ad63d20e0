"""Shuffle rounds: every active seat in turn permutes and re-encrypts the deck, and proves it.

A round has n inputs: the game's deck (round 0) or the tokens the rules reshuffle,
each either still encrypted (its ciphertext) or a card every seat knows, which enters
as its public encryption ``(G, M + H)`` (randomness 1). Pass k of the round maps its
input deck (the round's inputs, or pass k−1's output) to
``out[j] = in[π(j)] + s_j·(G, H)`` with a secret permutation π and secret non-zero
scalars s_j, and carries a zero-knowledge proof of exactly that
(:mod:`._shuffle_proof`), bound to the game, the seat, the round and the pass. Every
peer checks the proof when the pass arrives; the seat's own pass needs no check.
When the last pass is in, its deck positions become the round's fresh tokens.

A pass's secrets are derived from the seat's seed and the pass's input, so building
the message is a pure function of the state: the last one built is kept (copies share
it), since the seat that owes a pass may be asked for it more than once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from ..cards import Card, canonical
from ..errors import LocalProtocolError, RemoteProtocolError
from ..rng import below
from . import _group as g
from ._checked import check
from ._common import Context, Me, Obligation, Stream, draw_scalar
from ._limits import MAX_DECK, MAX_ROUNDS
from ._messages import ShufflePass
from ._shuffle_proof import proof_context, proof_parts, prove_shuffle, verify_shuffle
from ._wire import KIND_SHUFFLE


@dataclass(frozen=True, slots=True)
class Input:
    """One entry of a round's input: an old token's ciphertext, or a card every seat knows."""

    token: int | None
    card: Card | None
    ct: bytes  # the token's ciphertext, or the card's public encryption (G, M + H)


@dataclass(frozen=True, slots=True)
class Pass:
    seat: int
    deck: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class Round:
    index: int
    inputs: tuple[Input, ...]
    participants: tuple[int, ...]
    passes: tuple[Pass, ...] = ()
    first_token: int | None = None  # set when the round is complete

    @property
    def done(self) -> bool:
        return self.first_token is not None


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """What a round was, for a report: its index, its size, who passed and who was to."""

    index: int
    cards: int
    passed: tuple[int, ...]
    participants: tuple[int, ...]
    done: bool


class Shuffles:
    """The shuffle rounds of one game, the tokens they made, and every ciphertext ever dealt."""

    __slots__ = ("_built", "by_point", "cts", "ctx", "live", "next_token", "points", "rounds")

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.points: dict[str, bytes] = {}  # card name -> point; fixed by start()
        self.by_point: dict[bytes, Card] = {}
        self.rounds: list[Round] = []
        self.next_token = 0
        self.cts: dict[int, bytes] = {}  # every token ever made -> its ciphertext
        self.live: set[int] = set()  # tokens that stand for a card now
        self._built: dict[bytes, ShufflePass] = {}  # this seat's last pass, by its secrets' key

    def copy(self) -> Shuffles:
        new = Shuffles.__new__(Shuffles)
        new.ctx = self.ctx
        new.points, new.by_point, new._built = self.points, self.by_point, self._built  # never change
        new.rounds = list(self.rounds)
        new.next_token = self.next_token
        new.cts = dict(self.cts)
        new.live = set(self.live)
        return new

    # ---- reading -------------------------------------------------------------------------------

    def current(self) -> Round | None:
        """The round in progress, if any."""
        if self.rounds and not self.rounds[-1].done:
            return self.rounds[-1]
        return None

    def remaining(self, rnd: Round, left: Mapping[int, object]) -> list[int]:
        """The seats still to pass in ``rnd``, in order."""
        last = rnd.passes[-1].seat if rnd.passes else -1
        return [s for s in rnd.participants if s > last and s not in left]

    def obligations(self, left: Mapping[int, object]) -> list[Obligation]:
        rnd = self.current()
        if rnd is None:
            return []
        what = f"shuffle pass of round {rnd.index}"
        return [Obligation(s, KIND_SHUFFLE, what) for s in self.remaining(rnd, left)]

    def round_tokens(self) -> list[int]:
        """The fresh tokens of the last completed round, in deck order (bottom first)."""
        if self.current() is not None or not self.rounds:
            raise LocalProtocolError("no completed shuffle round")
        first = self.rounds[-1].first_token
        assert first is not None
        return list(range(first, first + len(self.rounds[-1].inputs)))

    def records(self) -> list[RoundRecord]:
        return [
            RoundRecord(r.index, len(r.inputs), tuple(p.seat for p in r.passes), r.participants, r.done)
            for r in self.rounds
        ]

    # ---- local calls ---------------------------------------------------------------------------

    def start(self, deck: Sequence[Card], participants: Sequence[int], joint: bytes) -> None:
        """Begin round 0 under the joint key on the cards of ``deck``, put in the canonical order
        (:func:`canonical`)."""
        if self.rounds:
            raise LocalProtocolError("the deck was already started")
        self._room()
        cards = list(deck)
        if not 1 <= len(cards) <= MAX_DECK:
            raise LocalProtocolError(f"a deck has 1 to {MAX_DECK} cards")
        if not all(isinstance(c, Card) for c in cards):
            raise LocalProtocolError("a deck holds Card values")
        cards = list(canonical(cards))  # the protocol's one order, whatever order the rules gave
        points = {c.name: g.card_point(self.ctx.game_id, c.name) for c in cards}
        by_point = {p: c for c in cards for p in (points[c.name],)}
        if len(points) != len(cards) or len(by_point) != len(cards):
            raise LocalProtocolError("every card of the deck must be distinct")
        self.points, self.by_point = points, by_point
        self._begin(tuple(Input(None, c, g.trivial(points[c.name], joint)) for c in cards), participants)

    def reshuffle(
        self,
        tokens: Sequence[int],
        public: Mapping[int, Card],
        known: Mapping[int, Card],
        participants: Sequence[int],
        joint: bytes,
    ) -> None:
        """Begin a round shuffling live ``tokens`` together; ``public`` gives the face-up ones.

        A face-up card enters as its trivial encryption; this seat must know it as that card
        (``known``). The old tokens die at once.
        """
        if not self.rounds:
            raise LocalProtocolError("the deck has not been started")
        self._room()
        toks = list(tokens)
        if not 1 <= len(toks) <= MAX_DECK or len(set(toks)) != len(toks):
            raise LocalProtocolError(f"reshuffle 1 to {MAX_DECK} distinct tokens")
        for t in toks:
            if t not in self.live:
                raise LocalProtocolError(f"no live card token {t}")
        for t in public:
            if t not in toks:
                raise LocalProtocolError(f"public token {t} is not among the reshuffled tokens")
        inputs = []
        for t in toks:
            card = public.get(t)
            if card is None:
                inputs.append(Input(t, None, self.cts[t]))
                continue
            if known.get(t) != card:
                raise LocalProtocolError(f"token {t} is not known here to be {card.name}")
            inputs.append(Input(t, card, g.trivial(self.points[card.name], joint)))
        self.live.difference_update(toks)
        self._begin(tuple(inputs), participants)

    def _room(self) -> None:
        if len(self.rounds) >= MAX_ROUNDS:
            raise LocalProtocolError("too many shuffle rounds in one game")

    def _begin(self, inputs: tuple[Input, ...], participants: Sequence[int]) -> None:
        self.rounds.append(Round(len(self.rounds), inputs, tuple(participants)))

    # ---- this seat's pass ----------------------------------------------------------------------

    def _input(self, rnd: Round, k: int) -> Sequence[bytes]:
        return [i.ct for i in rnd.inputs] if k == 0 else rnd.passes[k - 1].deck

    def _secrets_key(self, me: Me, rnd: Round, k: int) -> bytes:
        h = hashlib.sha256()
        for ct in self._input(rnd, k):
            h.update(ct)
        return g.digest(g.TAG_SECRETS, me.seed, "shuffle", self.ctx.game_id, rnd.index, k, h.digest())

    def secrets(self, me: Me, rnd: Round, k: int) -> tuple[tuple[int, ...], tuple[bytes, ...], bytes]:
        """This seat's permutation, scalars and proof seed for pass ``k`` of ``rnd``."""
        stream = Stream(self._secrets_key(me, rnd, k))
        n = len(rnd.inputs)
        perm = list(range(n))
        for i in range(n - 1, 0, -1):  # Fisher-Yates, unbiased
            j = below(stream, i + 1)
            perm[i], perm[j] = perm[j], perm[i]
        scalars = tuple(draw_scalar(stream) for _ in range(n))
        return tuple(perm), scalars, stream.bytes(32)

    def apply(
        self, rnd: Round, k: int, perm: Sequence[int], scalars: Sequence[bytes], joint: bytes
    ) -> list[bytes]:
        """The deck pass ``k`` outputs for this permutation and these scalars."""
        src = self._input(rnd, k)
        out = []
        for j, s in enumerate(scalars):
            ct = src[perm[j]]
            out.append(g.rerandomise(ct[: g.POINT_BYTES], ct[g.POINT_BYTES :], s, joint))
        return out

    def message(self, joint: bytes, left: Mapping[int, object]) -> ShufflePass:
        """This seat's pass of the round in progress (only when it is its turn)."""
        me = self.ctx.need_me()
        rnd = self.current()
        if rnd is None:
            raise LocalProtocolError("no shuffle round in progress")
        nxt = self.remaining(rnd, left)
        if not nxt or nxt[0] != me.seat:
            raise LocalProtocolError("it is not this seat's turn to shuffle")
        k = len(rnd.passes)
        key = self._secrets_key(me, rnd, k)
        built = self._built.get(key)
        if built is None:
            perm, scalars, seed = self.secrets(me, rnd, k)
            deck = self.apply(rnd, k, perm, scalars, joint)
            context = proof_context(self.ctx.game_id, me.seat, rnd.index, k)
            proof = prove_shuffle(context, joint, self._input(rnd, k), deck, perm, scalars, seed)
            built = ShufflePass(me.seat, rnd.index, tuple(deck), proof, _listed(rnd) if k == 0 else None)
            self._built.clear()  # only the pass owed now is asked for again
            self._built[key] = built
        return built

    # ---- a pass arrives ------------------------------------------------------------------------

    def receive(self, m: ShufflePass, joint: bytes, left: Mapping[int, object]) -> None:
        s = m.seat
        rnd = self.current()
        if rnd is None:
            raise RemoteProtocolError("shuffle pass when no shuffle round is in progress", seat=s)
        if m.round != rnd.index:
            raise RemoteProtocolError(f"shuffle pass for round {m.round}, not {rnd.index}", seat=s)
        nxt = self.remaining(rnd, left)
        if not nxt or nxt[0] != s:
            raise RemoteProtocolError("shuffle pass out of turn", seat=s)
        n = len(rnd.inputs)
        if len(m.deck) != n:
            raise RemoteProtocolError(f"shuffle pass has {len(m.deck)} cards, not {n}", seat=s)
        k = len(rnd.passes)
        if k == 0 and m.inputs != _listed(rnd):
            raise RemoteProtocolError(
                f"the inputs shuffle pass 0 of round {rnd.index} lists are not the ones the rules shuffle",
                seat=s,
            )
        if k > 0 and m.inputs is not None:
            raise RemoteProtocolError(
                f"shuffle pass {k} lists inputs: only a round's first pass does", seat=s
            )
        # The proof's check also checks every point of the new deck and of the proof.
        if s != self.ctx.seat:
            context = proof_context(self.ctx.game_id, s, rnd.index, k)
            inputs = self._input(rnd, k)
            parts = (context, joint, n.to_bytes(4, "big"), *inputs, *m.deck, *proof_parts(m.proof))
            args = (context, joint, inputs, m.deck, m.proof)
            if not check(self.ctx.checked, "shuffle", parts, verify_shuffle, *args):
                raise RemoteProtocolError(
                    f"the proof of shuffle pass {k} of round {rnd.index} does not verify", seat=s
                )
        rnd = replace(rnd, passes=(*rnd.passes, Pass(s, tuple(m.deck))))
        if not self.remaining(rnd, left):
            first = self.next_token
            rnd = replace(rnd, first_token=first)
            for j, ct in enumerate(rnd.passes[-1].deck):
                self.cts[first + j] = ct
                self.live.add(first + j)
            self.next_token = first + n
        self.rounds[-1] = rnd


def _listed(rnd: Round) -> tuple[tuple[int | None, str | None], ...]:
    """The round's inputs as its first pass lists them: each one's token (None in round 0) and, for
    a card that comes in as its trivial encryption, the card's name."""
    return tuple((i.token, None if i.card is None else i.card.name) for i in rnd.inputs)
