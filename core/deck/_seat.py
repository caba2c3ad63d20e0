"""One seat's sans-I/O state of the deck protocol (:class:`DeckSeat`).

Every seat keeps the same public state (keys, ciphertexts, shares, who owes what)
by applying the same ordered log through :meth:`DeckSeat.receive`; what differs is
its secret key and what it has decrypted. Secrets of a shuffle pass and of a random
contribution are derived from a per-seat secret seed and the public context, so
building a message is a pure function of the state (the session may build one on a
copy and throw it away) and the audit opening can be recomputed at the end.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..cards import Card
from ..dealer import Finding, Reveal, Verdict
from ..errors import LocalProtocolError, RemoteProtocolError
from ..rng import Rng, below
from . import _group as g
from ._messages import (
    KeyShare,
    Leave,
    Message,
    Opening,
    PassOpening,
    RandomCommit,
    RandomReveal,
    ShareProof,
    Shares,
    ShufflePass,
)
from ._wire import (
    KIND_KEY,
    KIND_LEAVE,
    KIND_OPENING,
    KIND_RANDOM_COMMIT,
    KIND_RANDOM_REVEAL,
    KIND_SHARES,
    KIND_SHUFFLE,
    MAX_DECK,
    MAX_INDEX,
    MAX_PLAYERS,
    MAX_ROUNDS,
)

# Obligations are named by the wire kind of the message that meets them.
KEY, PASS, SHARES, COMMIT, REVEAL, LEAVE, OPENING = (
    KIND_KEY,
    KIND_SHUFFLE,
    KIND_SHARES,
    KIND_RANDOM_COMMIT,
    KIND_RANDOM_REVEAL,
    KIND_LEAVE,
    KIND_OPENING,
)
PUBLIC = "public"  # the purpose bound into a share that opens a card to everyone

#: The wire kind of each message type: what an obligation's category is named.
MESSAGE_KIND: dict[type, str] = {
    KeyShare: KEY,
    ShufflePass: PASS,
    Shares: SHARES,
    RandomCommit: COMMIT,
    RandomReveal: REVEAL,
    Leave: LEAVE,
    Opening: OPENING,
}


def _purpose(to: int | None) -> str:
    """The purpose a share's proof is bound to: ``public``, or ``to seat N``."""
    return PUBLIC if to is None else f"to seat {to}"


class _Stream:
    """A deterministic secret byte stream (SHAKE-256 of a key and a counter); an ``Rng``."""

    __slots__ = ("_counter", "_key")

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0

    def bytes(self, n: int) -> bytes:
        out = hashlib.shake_256(self._key + self._counter.to_bytes(8, "big")).digest(n)
        self._counter += 1
        return out

    def fork(self, label: str) -> _Stream:
        return _Stream(hashlib.sha256(self._key + b"/" + label.encode()).digest())


def _draw_scalar(stream: _Stream) -> bytes:
    """A uniform non-zero scalar from ``stream``."""
    while True:
        s = g.scalar_from_bytes_or_none(stream.bytes(64))
        if s is not None:
            return s


@dataclass(frozen=True, slots=True)
class _Me:
    """A seat's identity and secrets; never shown in a repr."""

    seat: int
    x: bytes = field(repr=False)
    seed: bytes = field(repr=False)  # derives every other secret of the seat
    public: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class _Input:
    """One entry of a round's input: an old token's ciphertext, or a public card."""

    token: int | None
    card: Card | None
    ct: bytes = b""


@dataclass(frozen=True, slots=True)
class _Pass:
    seat: int
    deck: tuple[bytes, ...]
    commitment: bytes


@dataclass(frozen=True, slots=True)
class _Round:
    index: int
    inputs: tuple[_Input, ...]
    participants: tuple[int, ...]
    passes: tuple[_Pass, ...] = ()
    first_token: int | None = None  # set when the round is complete

    @property
    def done(self) -> bool:
        return self.first_token is not None


@dataclass(frozen=True, slots=True)
class _Choice:
    index: int
    n: int
    participants: tuple[int, ...]


class DeckSeat:
    """One seat's view of the deck protocol for one game. See the package docstring.

    Local calls (``start``, ``reshuffle``, ``request``, ``begin_random``) must be made
    identically on every seat, at the same point of the log; ``*_message`` methods
    build this seat's messages without changing any state; only :meth:`receive`
    applies messages, atomically.
    """

    seat: int | None  # None for an observer
    _me: _Me | None  # None for an observer

    def __init__(self, game_id: bytes, seat: int, players: int, rng: Rng) -> None:
        self._init(game_id, seat, players)
        x = None
        while x is None:
            x = g.scalar_from_bytes_or_none(rng.bytes(64))
        self._me = _Me(seat, x, rng.bytes(32), g.base(x))

    @classmethod
    def observer(cls, game_id: bytes, players: int) -> DeckSeat:
        """A follower of the log with no seat and no secret (``fairdeal verify``).

        It checks every message as a seat does, learns the publicly revealed cards,
        runs the audit and, when it is fair, traces every token. It can send nothing.
        """
        new = object.__new__(cls)
        new._init(game_id, None, players)
        return new

    def _init(self, game_id: bytes, seat: int | None, players: int) -> None:
        if not isinstance(game_id, bytes) or not 1 <= len(game_id) <= 256:
            raise LocalProtocolError("a game id is 1 to 256 bytes")
        if not 2 <= players <= MAX_PLAYERS:
            raise LocalProtocolError(f"the deck protocol needs 2 to {MAX_PLAYERS} players")
        if seat is not None and not 0 <= seat < players:
            raise LocalProtocolError(f"no seat {seat} among {players}")
        self.game_id = game_id
        self.seat = seat
        self.players = players
        self._keys: dict[int, bytes] = {}
        self._joint: bytes | None = None
        self._left: dict[int, bytes] = {}  # seat -> its published secret
        self._points: dict[str, bytes] = {}  # card name -> point; fixed by start()
        self._by_point: dict[bytes, Card] = {}
        self._rounds: list[_Round] = []
        self._next_token = 0
        self._cts: dict[int, bytes] = {}  # live token -> ciphertext
        # (token, seat) -> whom it is owed to (a seat, or None: everyone); the first is bound
        # into its proof.
        self._owed: dict[tuple[int, int], tuple[int | None, ...]] = {}
        self._shares: dict[tuple[int, int], bytes] = {}  # (token, seat) -> published share
        self._mine: set[int] = set()  # tokens this seat is to decrypt and has not yet
        self._known: dict[int, Card] = {}
        self._undecodable: set[int] = set()
        self._choice: _Choice | None = None
        self._commits: dict[int, bytes] = {}
        self._reveals: dict[int, bytes] = {}
        self._results: list[int] = []
        self._openings: dict[int, tuple[PassOpening, ...]] = {}
        self._opened: set[int] = set()
        self._auditing = False  # set by begin_audit(), when this seat's own rules end the game
        self._leaving: int | None = None  # set by begin_leave(), when the rules take a seat out
        self._verdict: Verdict | None = None
        # Memo of x_s·c1 for this seat and seats that left: a pure function, so copies share it.
        self._memo: dict[tuple[int, bytes], bytes] = {}
        self._me = None

    def __repr__(self) -> str:
        return (
            f"DeckSeat(seat={self.seat}, players={self.players}, keys={len(self._keys)}, "
            f"rounds={len(self._rounds)}, live={len(self._cts)}, left={sorted(self._left)})"
        )

    def copy(self) -> DeckSeat:
        """An independent copy (containers copied one level; their values are immutable)."""
        new = object.__new__(DeckSeat)
        shared = ("_memo", "_points", "_by_point")
        for k, v in self.__dict__.items():
            if k not in shared and isinstance(v, dict | list | set):
                v = v.copy()
            new.__dict__[k] = v
        return new

    # ---- small helpers ------------------------------------------------------------------

    def _active(self) -> list[int]:
        return [s for s in range(self.players) if s not in self._left]

    def _round(self) -> _Round | None:
        """The shuffle round in progress, if any."""
        if self._rounds and not self._rounds[-1].done:
            return self._rounds[-1]
        return None

    def _remaining_passers(self, rnd: _Round) -> list[int]:
        last = rnd.passes[-1].seat if rnd.passes else -1
        return [s for s in rnd.participants if s > last and s not in self._left]

    def _need_keys(self) -> bytes:
        if self._joint is None:
            raise LocalProtocolError("not every seat's public key is known yet")
        return self._joint

    def _need_idle(self) -> None:
        self._need_keys()
        if self._round() is not None:
            raise LocalProtocolError("a shuffle round is in progress")
        if self._choice is not None:
            raise LocalProtocolError("a joint random choice is in progress")
        if self._leaving is not None:
            raise LocalProtocolError("a seat is leaving the game")
        if self._auditing:
            raise LocalProtocolError("the audit has started")

    def _need_active(self) -> _Me:
        """This seat's secrets, if it may still send messages."""
        if self._me is None:
            raise LocalProtocolError("an observer sends no messages")
        if self._me.seat in self._left:
            raise LocalProtocolError("this seat has left the game")
        return self._me

    def _share_context(self, seat: int, token: int, ct: bytes, to: int | None) -> bytes:
        return g.frame(b"share", self.game_id, seat, token, ct, _purpose(to))

    def _share_of(self, seat: int, x: bytes, c1: bytes) -> bytes:
        key = (seat, c1)
        d = self._memo.get(key)
        if d is None:
            d = self._memo[key] = g.mul(x, c1)
        return d

    # ---- keys ------------------------------------------------------------------------------

    def key_message(self) -> KeyShare:
        """This seat's public key with its proof of knowledge."""
        me = self._need_active()
        e, z = g.schnorr_prove(self.game_id, me.seat, self.players, me.x, me.public, me.seed)
        return KeyShare(me.seat, me.public, e, z)

    def left_seats(self) -> list[int]:
        """Seats that have left the game for good."""
        return sorted(self._left)

    def opened_seats(self) -> list[int]:
        """Seats whose audit opening is in (a seat that left opened its passes in its Leave)."""
        return sorted(self._opened)

    def public_keys(self) -> dict[int, bytes]:
        """The public keys received so far, by seat."""
        return dict(self._keys)

    # ---- shuffle rounds -------------------------------------------------------------------

    def start(self, deck: Sequence[Card]) -> None:
        """Begin round 0: the public encryption of ``deck`` (bottom card first) is shuffled by all."""
        self._need_idle()
        if self._rounds:
            raise LocalProtocolError("the deck was already started")
        cards = list(deck)
        if not 1 <= len(cards) <= MAX_DECK:
            raise LocalProtocolError(f"a deck has 1 to {MAX_DECK} cards")
        if not all(isinstance(c, Card) for c in cards):
            raise LocalProtocolError("a deck holds Card values")
        points = {c.name: g.card_point(self.game_id, c.name) for c in cards}
        by_point = {p: c for c in cards for p in (points[c.name],)}
        if len(points) != len(cards) or len(by_point) != len(cards):
            raise LocalProtocolError("every card of the deck must be distinct")
        self._points, self._by_point = points, by_point
        self._begin_round(tuple(_Input(None, c) for c in cards))

    def reshuffle(self, tokens: Sequence[int], public: Mapping[int, Card]) -> None:
        """Begin a round shuffling ``tokens`` together; ``public`` gives the face-up ones.

        A public card is re-encrypted from its card with public randomness; this seat
        must know it already as that card. Old tokens die at once.
        """
        self._need_idle()
        if not self._rounds:
            raise LocalProtocolError("the deck has not been started")
        toks = list(tokens)
        if not 1 <= len(toks) <= MAX_DECK or len(set(toks)) != len(toks):
            raise LocalProtocolError(f"reshuffle 1 to {MAX_DECK} distinct tokens")
        for t in toks:
            if t not in self._cts:
                raise LocalProtocolError(f"no live card token {t}")
        for t in public:
            if t not in toks:
                raise LocalProtocolError(f"public token {t} is not among the reshuffled tokens")
        busy = sorted({t for t, _ in self._owed if t in set(toks)})
        if busy:
            raise LocalProtocolError(f"shares are still owed for token {busy[0]}")
        inputs = []
        for t in toks:
            card = public.get(t)
            if card is None:
                inputs.append(_Input(t, None, self._cts[t]))
                continue
            if self._known.get(t) != card:
                raise LocalProtocolError(f"token {t} is not known here to be {card.name}")
            inputs.append(_Input(t, card))
        for t in toks:
            del self._cts[t]
            self._mine.discard(t)
        self._begin_round(tuple(inputs))

    def _begin_round(self, inputs: tuple[_Input, ...]) -> None:
        if len(self._rounds) >= MAX_ROUNDS:
            raise LocalProtocolError("too many shuffle rounds in one game")
        self._rounds.append(_Round(len(self._rounds), inputs, tuple(self._active())))

    def _pass_input(self, rnd: _Round, k: int) -> Sequence[_Input | bytes]:
        return rnd.inputs if k == 0 else rnd.passes[k - 1].deck

    def _pass_secrets(self, me: _Me, rnd: _Round, k: int) -> tuple[tuple[int, ...], tuple[bytes, ...], bytes]:
        """This seat's permutation, scalars and salt for pass ``k`` of ``rnd``."""
        h = hashlib.sha256()
        for item in self._pass_input(rnd, k):
            if isinstance(item, bytes):
                data = item
            else:
                data = item.ct if item.card is None else item.card.name.encode()
            h.update(len(data).to_bytes(2, "big") + data)
        stream = _Stream(g.digest(g.TAG_SECRETS, me.seed, "shuffle", self.game_id, rnd.index, k, h.digest()))
        n = len(rnd.inputs)
        perm = list(range(n))
        for i in range(n - 1, 0, -1):  # Fisher-Yates, unbiased
            j = below(stream, i + 1)
            perm[i], perm[j] = perm[j], perm[i]
        scalars = []
        for j in range(n):
            while True:
                s = _draw_scalar(stream)
                item = rnd.inputs[perm[j]]
                if k > 0 or item.card is None:
                    break
                r = g.public_randomness(self.game_id, rnd.index, perm[j])
                if not g.is_zero(g.sc_add(r, s)):
                    break
            scalars.append(s)
        return tuple(perm), tuple(scalars), stream.bytes(32)

    def _apply_pass(
        self, rnd: _Round, k: int, perm: Sequence[int], scalars: Sequence[bytes]
    ) -> list[bytes | None]:
        """The deck pass ``k`` must output for this opening (None where no valid result)."""
        joint = self._need_keys()
        src = self._pass_input(rnd, k)
        out: list[bytes | None] = []
        for j, s in enumerate(scalars):
            item = src[perm[j]]
            try:
                if isinstance(item, bytes):
                    out.append(g.rerandomise(item[:32], item[32:], s, joint))
                elif item.card is None:
                    out.append(g.rerandomise(item.ct[:32], item.ct[32:], s, joint))
                else:
                    # The input is the public encryption (r·G, M + r·H); re-randomised by s it
                    # is the encryption with r + s, computed at once.
                    r = g.public_randomness(self.game_id, rnd.index, perm[j])
                    out.append(g.encrypt(self._points[item.card.name], g.sc_add(r, s), joint))
            except g.GroupError:
                out.append(None)
        return out

    def _commitment(
        self, seat: int, round_index: int, perm: Sequence[int], scalars: Sequence[bytes], salt: bytes
    ) -> bytes:
        return g.digest(
            g.TAG_SHUFFLE_COMMIT,
            self.game_id,
            seat,
            round_index,
            len(perm),
            b"".join(p.to_bytes(4, "big") for p in perm),
            b"".join(scalars),
            salt,
        )

    def shuffle_message(self) -> ShufflePass:
        """This seat's pass of the round in progress (only when it is its turn)."""
        me = self._need_active()
        rnd = self._round()
        if rnd is None:
            raise LocalProtocolError("no shuffle round in progress")
        nxt = self._remaining_passers(rnd)
        if not nxt or nxt[0] != me.seat:
            raise LocalProtocolError("it is not this seat's turn to shuffle")
        k = len(rnd.passes)
        perm, scalars, salt = self._pass_secrets(me, rnd, k)
        deck = self._apply_pass(rnd, k, perm, scalars)
        if any(c is None for c in deck):  # pragma: no cover - probability about 2**-250
            raise LocalProtocolError("degenerate re-randomisation; cannot happen")
        return ShufflePass(
            me.seat,
            rnd.index,
            tuple(c for c in deck if c is not None),
            self._commitment(me.seat, rnd.index, perm, scalars, salt),
        )

    def round_tokens(self) -> list[int]:
        """The fresh tokens of the last completed round, in deck order (bottom first)."""
        if self._round() is not None or not self._rounds:
            raise LocalProtocolError("no completed shuffle round")
        rnd = self._rounds[-1]
        assert rnd.first_token is not None
        return list(range(rnd.first_token, rnd.first_token + len(rnd.inputs)))

    def live_tokens(self) -> list[int]:
        """Every token that currently stands for a card."""
        return sorted(self._cts)

    def ciphertext(self, token: int) -> bytes | None:
        """The current ciphertext ``c1 || c2`` of a live token."""
        return self._cts.get(token)

    # ---- reveals -----------------------------------------------------------------------

    def request(self, reveals: Sequence[Reveal]) -> None:
        """Register a reveal batch: every seat that must publish a share now owes it."""
        self._need_keys()
        rs = list(reveals)
        for r in rs:
            if r.token not in self._cts:
                raise LocalProtocolError(f"no live card token {r.token}")
            if r.to is not None and not (0 <= r.to < self.players and r.to not in self._left):
                raise LocalProtocolError(f"cannot reveal to seat {r.to}")
        for r in rs:
            for s in self._active():
                key = (r.token, s)
                if s != r.to and key not in self._shares and r.to not in self._owed.get(key, ()):
                    self._owed[key] = (*self._owed.get(key, ()), r.to)
            if (r.to is None or r.to == self.seat) and r.token not in self._known:
                self._mine.add(r.token)
        self._decrypt(r.token for r in rs)

    def owed_shares(self, seat: int | None = None) -> list[int]:
        """Tokens whose share ``seat`` (default: this seat; none for an observer) still owes."""
        who = self.seat if seat is None else seat
        return sorted(t for t, s in self._owed if s == who)

    def shares_message(self, tokens: Sequence[int] | None = None) -> Shares:
        """This seat's owed shares: all of them, or those of ``tokens``."""
        me = self._need_active()
        owed = self.owed_shares()
        if tokens is not None:
            want = list(dict.fromkeys(tokens))
            for t in want:
                if (t, me.seat) not in self._owed:
                    raise LocalProtocolError(f"this seat owes no share for token {t}")
            owed = want
        if not owed:
            raise LocalProtocolError("this seat owes no shares")
        out = []
        for t in owed:
            ct = self._cts[t]
            c1 = ct[:32]
            d = self._share_of(me.seat, me.x, c1)
            to = self._owed[(t, me.seat)][0]
            ctx = self._share_context(me.seat, t, ct, to)
            e, z = g.dleq_prove(ctx, me.x, me.public, c1, d, me.seed)
            out.append(ShareProof(t, d, e, z, to))
        return Shares(me.seat, tuple(out))

    def card(self, token: int) -> Card | None:
        """The card behind ``token`` if this seat has decrypted it."""
        return self._known.get(token)

    def undecodable(self) -> list[int]:
        """Tokens that decrypted to no card of the deck (a shuffle was cheated)."""
        return sorted(self._undecodable)

    def _decrypt(self, tokens: Iterable[int]) -> None:
        for t in tokens:
            if t not in self._mine:
                continue
            ct = self._cts[t]
            c1 = ct[:32]
            parts = []
            for s in range(self.players):
                if self._me is not None and s == self._me.seat:
                    parts.append(self._share_of(s, self._me.x, c1))
                elif (t, s) in self._shares:
                    parts.append(self._shares[(t, s)])
                elif s in self._left:
                    parts.append(self._share_of(s, self._left[s], c1))
                else:
                    break
            else:
                total = parts[0]
                for d in parts[1:]:
                    total = g.add(total, d)
                card = self._by_point.get(g.sub(ct[32:], total))
                self._mine.discard(t)
                if card is None:
                    self._undecodable.add(t)
                else:
                    self._known[t] = card

    # ---- joint random choice -----------------------------------------------------------------

    def begin_random(self, n: int) -> None:
        """Begin a joint random choice in ``range(n)`` among the active seats."""
        self._need_idle()
        if type(n) is not int or not 1 <= n < 2**63:
            raise LocalProtocolError("a random choice is in range(n) for 1 <= n < 2**63")
        if len(self._results) >= MAX_INDEX:
            raise LocalProtocolError("too many random choices")
        self._choice = _Choice(len(self._results), n, tuple(self._active()))

    def _random_value(self, me: _Me, index: int) -> bytes:
        return g.digest(g.TAG_SECRETS, me.seed, "random", self.game_id, index)

    def _random_commitment(self, seat: int, choice: _Choice, value: bytes) -> bytes:
        return g.digest(g.TAG_RANDOM_COMMIT, self.game_id, seat, choice.index, choice.n, value)

    def _my_choice(self) -> tuple[_Me, _Choice]:
        me = self._need_active()
        c = self._choice
        if c is None:
            raise LocalProtocolError("no random choice in progress")
        if me.seat not in c.participants:
            raise LocalProtocolError("this seat takes no part in this random choice")
        return me, c

    def random_commit_message(self) -> RandomCommit:
        """Commit to this seat's contribution to the random choice in progress."""
        me, c = self._my_choice()
        value = self._random_value(me, c.index)
        return RandomCommit(me.seat, c.index, self._random_commitment(me.seat, c, value), c.n)

    def random_reveal_message(self) -> RandomReveal:
        """Reveal the contribution, once every seat has committed."""
        me, c = self._my_choice()
        if any(s not in self._commits for s in c.participants):
            raise LocalProtocolError("not every seat has committed yet")
        return RandomReveal(me.seat, c.index, self._random_value(me, c.index))

    def random_result(self) -> int | None:
        """The outcome of the last random choice; None while one is in progress or none was made."""
        if self._choice is not None or not self._results:
            return None
        return self._results[-1]

    def _finish_choice_if_complete(self) -> None:
        c = self._choice
        if c is None or any(s not in self._reveals for s in c.participants):
            return
        parts: list[g.Part] = []
        for s in c.participants:
            parts += [s, self._reveals[s]]
        stream = _Stream(g.digest(g.TAG_RANDOM_RESULT, self.game_id, c.index, c.n, *parts))
        self._results.append(below(stream, c.n))
        self._choice = None
        self._commits = {}
        self._reveals = {}

    # ---- leaving and the audit --------------------------------------------------------------

    def _own_openings(self, me: _Me) -> tuple[PassOpening, ...]:
        out = []
        for rnd in self._rounds:
            for k, p in enumerate(rnd.passes):
                if p.seat == me.seat:
                    perm, scalars, salt = self._pass_secrets(me, rnd, k)
                    out.append(PassOpening(rnd.index, perm, scalars, salt))
        return tuple(out)

    def begin_leave(self, seat: int) -> None:
        """The rules take ``seat`` out of the game: it owes its secret, and nothing else is owed.

        Like every local call, this is made by every seat at the same point of the log,
        from its own copy of the rules; a peer's message never starts it.
        """
        self._need_idle()
        if self._owed:
            raise LocalProtocolError("shares are still owed")
        if type(seat) is not int or not 0 <= seat < self.players or seat in self._left:
            raise LocalProtocolError(f"seat {seat!r} cannot leave")
        self._leaving = seat

    def begin_audit(self) -> None:
        """The rules say the game is over: every active seat now owes its audit opening.

        Made by every seat when its own replica ends the game; until then no opening is
        built here and none is accepted from a peer.
        """
        self._need_idle()
        if self._owed:
            raise LocalProtocolError("shares are still owed")
        self._auditing = True

    @property
    def auditing(self) -> bool:
        """Whether the audit has begun (see :meth:`begin_audit`)."""
        return self._auditing

    def leave_message(self) -> Leave:
        """Leave for good: publish this seat's secret key and its pass openings."""
        me = self._need_active()
        self._need_keys()
        if self._leaving != me.seat:
            raise LocalProtocolError("this seat is not leaving the game")
        return Leave(me.seat, me.x, self._own_openings(me))

    def audit_message(self) -> Opening:
        """End of game: open every pass this seat made."""
        me = self._need_active()
        self._need_keys()
        if not self._auditing:
            raise LocalProtocolError("the audit has not begun")
        if me.seat in self._opened:
            raise LocalProtocolError("this seat has already opened its passes")
        return Opening(me.seat, self._own_openings(me))

    def verdict(self) -> Verdict | None:
        """The audit's verdict once every seat's opening is in; None before."""
        if self._verdict is None:
            if self._joint is None or any(s not in self._opened for s in self._active()):
                return None
            self._verdict = self._audit()
        return self._verdict

    def traced_cards(self) -> dict[int, Card]:
        """Every token of the game and its card; only after a complete, fair audit."""
        v = self.verdict()
        if v is None:
            raise LocalProtocolError("the audit is not complete")
        if not v.fair:
            raise LocalProtocolError("the audit found cheating; the cards cannot be traced")
        return self._trace()

    def _opening_index(self) -> dict[tuple[int, int], PassOpening]:
        return {(s, o.round): o for s, ops in self._openings.items() for o in ops}

    def _audit(self) -> Verdict:
        findings = []
        index = self._opening_index()
        passes = replayed = 0
        for rnd in self._rounds:
            n = len(rnd.inputs)
            for k, p in enumerate(rnd.passes):
                passes += 1
                where = f"shuffle round {rnd.index}, pass {k}"
                op = index.get((p.seat, rnd.index))
                if op is None or len(op.permutation) != n or len(op.scalars) != n:
                    findings.append(Finding(p.seat, where, "no opening of this pass"))
                    continue
                if self._commitment(p.seat, rnd.index, op.permutation, op.scalars, op.salt) != p.commitment:
                    findings.append(Finding(p.seat, where, "the opening does not match the commitment"))
                    continue
                if sorted(op.permutation) != list(range(n)):
                    findings.append(
                        Finding(p.seat, where, "the committed permutation duplicates or drops a card")
                    )
                    continue
                expected = self._apply_pass(rnd, k, op.permutation, op.scalars)
                replayed += n
                bad = [j for j in range(n) if expected[j] != p.deck[j]]
                if bad:
                    findings.append(
                        Finding(
                            p.seat,
                            where,
                            f"{len(bad)} of {n} cards are not re-encryptions of the committed inputs "
                            f"(first at deck position {bad[0]})",
                        )
                    )
        if not findings:
            traced = self._trace()
            for t, c in sorted(self._known.items()):
                if traced[t] != c:
                    findings.append(
                        Finding(None, f"token {t}", "decrypted card differs from its traced card")
                    )
        for t in sorted(self._undecodable):
            findings.append(Finding(None, f"token {t}", "decrypted to no card of the deck"))
        checked = f"{len(self._rounds)} shuffle rounds, {passes} passes, {replayed} re-encryptions replayed"
        return Verdict(not findings, tuple(findings), checked)

    def _trace(self) -> dict[int, Card]:
        index = self._opening_index()
        cards: dict[int, Card] = {}
        for rnd in self._rounds:
            if rnd.first_token is None:
                continue
            perms = [index[(p.seat, rnd.index)].permutation for p in reversed(rnd.passes)]
            for j in range(len(rnd.inputs)):
                i = j
                for perm in perms:
                    i = perm[i]
                item = rnd.inputs[i]
                if item.card is not None:
                    cards[rnd.first_token + j] = item.card
                else:
                    assert item.token is not None
                    cards[rnd.first_token + j] = cards[item.token]
        return cards

    # ---- obligations ---------------------------------------------------------------------------

    def _obligations(self) -> list[tuple[int, str, str]]:
        """(seat, category, description) of everything owed, in sending order."""
        if self._joint is None:
            return [(s, KEY, "public key") for s in range(self.players) if s not in self._keys]
        if self._leaving is not None:
            return [(self._leaving, LEAVE, "its secret as it leaves the game")]
        out: list[tuple[int, str, str]] = []
        counts: dict[int, int] = {}
        for _, s in self._owed:
            counts[s] = counts.get(s, 0) + 1
        for s in sorted(counts):
            n = counts[s]
            out.append((s, SHARES, f"shares for {n} card{'s' if n != 1 else ''}"))
        rnd = self._round()
        if rnd is not None:
            out += [(s, PASS, f"shuffle pass of round {rnd.index}") for s in self._remaining_passers(rnd)]
        c = self._choice
        if c is not None:
            missing = [s for s in c.participants if s not in self._commits]
            if missing:
                out += [(s, COMMIT, f"commitment to random choice {c.index}") for s in missing]
            else:
                out += [
                    (s, REVEAL, f"reveal of random choice {c.index}")
                    for s in c.participants
                    if s not in self._reveals
                ]
        if self._auditing:
            out += [(s, OPENING, "audit opening") for s in self._active() if s not in self._opened]
        return out

    def waiting_on(self) -> list[tuple[int, str]]:
        """Every (seat, what) still owed, in the order they are to be sent."""
        return [(s, what) for s, _, what in self._obligations()]

    def next_sender(self) -> int | None:
        """The seat that must send next, or None when nothing is owed."""
        obs = self._obligations()
        return obs[0][0] if obs else None

    def expected(self) -> tuple[int, str, str] | None:
        """The one message that may come next: (seat, message kind, description), or None.

        :meth:`receive` refuses every other message, whatever it holds: what a seat may
        send is decided by this seat's own state, never by what a peer chose to send.
        """
        obs = self._obligations()
        if not obs:
            return None
        seat, category, what = obs[0]
        return seat, category, what

    def due_message(self) -> Message | None:
        """The message this seat owes first, if it may send it now."""
        first = self._obligations()[:1]
        if not first or first[0][0] != self.seat:
            return None
        category = first[0][1]
        if category == KEY:
            return self.key_message()
        if category == SHARES:
            return self.shares_message()
        if category == PASS:
            return self.shuffle_message()
        if category == COMMIT:
            return self.random_commit_message()
        if category == REVEAL:
            return self.random_reveal_message()
        if category == LEAVE:
            return self.leave_message()
        return self.audit_message()

    # ---- receiving -------------------------------------------------------------------------------

    def receive(self, msg: Message) -> None:
        """Apply ``msg`` sent by ``msg.seat``; atomic: a refused message changes nothing."""
        s = msg.seat
        if type(s) is not int or not 0 <= s < self.players:
            raise RemoteProtocolError(f"no seat {s!r} in this game", seat=None)
        if s in self._left:
            raise RemoteProtocolError("message from a seat that has left the game", seat=s)
        kind = MESSAGE_KIND.get(type(msg))
        if kind is None:
            raise RemoteProtocolError(f"not a deck message: {type(msg).__name__}", seat=s)
        expected = self.expected()
        if expected is None:
            raise RemoteProtocolError(f"{kind} when nothing is owed", seat=s)
        if (s, kind) != expected[:2]:
            owner, _, what = expected
            raise RemoteProtocolError(f"{kind} out of turn: waiting on seat {owner} for {what}", seat=s)
        if isinstance(msg, KeyShare):
            self._on_key(msg)
        elif self._joint is None:
            raise RemoteProtocolError("message before every public key is known", seat=s)
        elif isinstance(msg, ShufflePass):
            self._on_pass(msg)
        elif isinstance(msg, Shares):
            self._on_shares(msg)
        elif isinstance(msg, RandomCommit):
            self._on_commit(msg)
        elif isinstance(msg, RandomReveal):
            self._on_reveal(msg)
        elif isinstance(msg, Leave):
            self._on_leave(msg)
        elif isinstance(msg, Opening):
            self._on_opening(msg)
        else:
            raise RemoteProtocolError(f"not a deck message: {type(msg).__name__}", seat=s)

    def _on_key(self, m: KeyShare) -> None:
        s = m.seat
        if s in self._keys:
            raise RemoteProtocolError("duplicate public key", seat=s)
        if self._me is not None and s == self._me.seat:
            if m.public != self._me.public:
                raise RemoteProtocolError("this is not this seat's public key", seat=s)
        else:
            if not g.is_point(m.public):
                raise RemoteProtocolError("public key is not a valid group element", seat=s)
            if not g.schnorr_verify(self.game_id, s, self.players, m.public, m.challenge, m.response):
                raise RemoteProtocolError("the proof of knowledge of the secret key does not verify", seat=s)
        joint = None
        if len(self._keys) + 1 == self.players:
            joint = m.public
            for k in self._keys.values():
                joint = g.add(joint, k)
            if not g.is_point(joint):  # pragma: no cover - needs the sum of secrets to be 0
                raise RemoteProtocolError("the joint key is degenerate", seat=s)
        self._keys[s] = m.public
        self._joint = joint

    def _on_pass(self, m: ShufflePass) -> None:
        s = m.seat
        rnd = self._round()
        if rnd is None:
            raise RemoteProtocolError("shuffle pass when no shuffle round is in progress", seat=s)
        if m.round != rnd.index:
            raise RemoteProtocolError(f"shuffle pass for round {m.round}, not {rnd.index}", seat=s)
        nxt = self._remaining_passers(rnd)
        if not nxt or nxt[0] != s:
            raise RemoteProtocolError("shuffle pass out of turn", seat=s)
        n = len(rnd.inputs)
        if len(m.deck) != n:
            raise RemoteProtocolError(f"shuffle pass has {len(m.deck)} cards, not {n}", seat=s)
        if not (isinstance(m.commitment, bytes) and len(m.commitment) == 32):
            raise RemoteProtocolError("shuffle commitment must be 32 bytes", seat=s)
        if s != self.seat:
            for j, ct in enumerate(m.deck):
                if not (isinstance(ct, bytes) and len(ct) == g.CT_BYTES) or not (
                    g.is_point(ct[:32]) and g.is_point(ct[32:])
                ):
                    raise RemoteProtocolError(
                        f"card {j} of the shuffle pass is not a valid ciphertext", seat=s
                    )
        rnd = replace(rnd, passes=(*rnd.passes, _Pass(s, tuple(m.deck), m.commitment)))
        self._rounds[-1] = rnd
        self._finish_round_if_complete()

    def _finish_round_if_complete(self) -> None:
        rnd = self._round()
        if rnd is None or not rnd.passes or self._remaining_passers(rnd):
            return
        first = self._next_token
        self._rounds[-1] = replace(rnd, first_token=first)
        for j, ct in enumerate(rnd.passes[-1].deck):
            self._cts[first + j] = ct
        self._next_token = first + len(rnd.inputs)

    def _on_shares(self, m: Shares) -> None:
        s = m.seat
        if not m.shares:
            raise RemoteProtocolError("an empty shares message", seat=s)
        if len({sp.token for sp in m.shares}) != len(m.shares):
            raise RemoteProtocolError("a token appears twice in one shares message", seat=s)
        for sp in m.shares:
            t = sp.token
            owed_to = self._owed.get((t, s))
            if owed_to is None:
                if (t, s) in self._shares:
                    raise RemoteProtocolError(f"share for token {t} was already published", seat=s)
                if t not in self._cts:
                    raise RemoteProtocolError(f"share for token {t}, which is no live card", seat=s)
                raise RemoteProtocolError(
                    f"share for token {t} is not owed: seat {s} may not open it", seat=s
                )
            if sp.to != owed_to[0]:
                raise RemoteProtocolError(
                    f"share for token {t} is for {_purpose(sp.to)}, but it is owed {_purpose(owed_to[0])}",
                    seat=s,
                )
            if s == self.seat:
                continue
            ct = self._cts[t]
            if not g.is_point(sp.share):
                raise RemoteProtocolError(f"share for token {t} is not a valid group element", seat=s)
            ctx = self._share_context(s, t, ct, owed_to[0])
            if not g.dleq_verify(ctx, self._keys[s], ct[:32], sp.share, sp.challenge, sp.response):
                raise RemoteProtocolError(f"the proof of the share for token {t} does not verify", seat=s)
        for sp in m.shares:
            self._shares[(sp.token, s)] = sp.share
            del self._owed[(sp.token, s)]
        self._decrypt(sp.token for sp in m.shares)

    def _on_commit(self, m: RandomCommit) -> None:
        s = m.seat
        c = self._choice
        if c is None or m.index != c.index:
            raise RemoteProtocolError(
                f"commitment to random choice {m.index}, which is not in progress", seat=s
            )
        if s not in c.participants:
            raise RemoteProtocolError("seat takes no part in this random choice", seat=s)
        if s in self._commits:
            raise RemoteProtocolError("duplicate random commitment", seat=s)
        if m.n != c.n:
            raise RemoteProtocolError(f"commitment to a choice in range({m.n}), not range({c.n})", seat=s)
        if not (isinstance(m.commitment, bytes) and len(m.commitment) == 32):
            raise RemoteProtocolError("random commitment must be 32 bytes", seat=s)
        self._commits[s] = m.commitment

    def _on_reveal(self, m: RandomReveal) -> None:
        s = m.seat
        c = self._choice
        if c is None or m.index != c.index:
            raise RemoteProtocolError(f"reveal of random choice {m.index}, which is not in progress", seat=s)
        if s not in c.participants:
            raise RemoteProtocolError("seat takes no part in this random choice", seat=s)
        if any(p not in self._commits for p in c.participants):
            raise RemoteProtocolError("random reveal before every seat has committed", seat=s)
        if s in self._reveals:
            raise RemoteProtocolError("duplicate random reveal", seat=s)
        if not isinstance(m.value, bytes) or self._random_commitment(s, c, m.value) != self._commits[s]:
            raise RemoteProtocolError("random reveal does not match its commitment", seat=s)
        self._reveals[s] = m.value
        self._finish_choice_if_complete()

    def _check_openings(self, s: int, openings: tuple[PassOpening, ...], what: str) -> None:
        expected = [(rnd.index, len(rnd.inputs)) for rnd in self._rounds for p in rnd.passes if p.seat == s]
        got = [(o.round, len(o.permutation)) for o in openings]
        if got != expected or any(len(o.scalars) != len(o.permutation) for o in openings):
            raise RemoteProtocolError(
                f"{what} does not open exactly the shuffle passes the seat made", seat=s
            )

    def _on_leave(self, m: Leave) -> None:
        s = m.seat
        if self._leaving != s:
            raise RemoteProtocolError("leaving the game when the rules do not take it out", seat=s)
        ok = g.is_scalar(m.secret)
        if ok:
            try:
                ok = g.base(m.secret) == self._keys[s]
            except g.GroupError:
                ok = False
        if not ok:
            raise RemoteProtocolError("the published secret does not match the seat's public key", seat=s)
        self._check_openings(s, m.openings, "leave")
        self._left[s] = m.secret
        self._openings[s] = m.openings
        self._leaving = None
        # A seat leaves only when nothing is owed (begin_leave): no share of it is pending,
        # and no private reveal to it is half done that its public secret would open to all.

    def _on_opening(self, m: Opening) -> None:
        s = m.seat
        if not self._auditing:
            raise RemoteProtocolError("audit opening before the game is over", seat=s)
        if s in self._opened:
            raise RemoteProtocolError("duplicate audit opening", seat=s)
        self._check_openings(s, m.openings, "audit opening")
        self._opened.add(s)
        self._openings[s] = m.openings
