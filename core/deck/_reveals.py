"""Reveals: decryption shares with Chaum–Pedersen proofs, hand-overs, and what each seat can decrypt.

To open token t (ciphertext ``c1 || c2``) to seat r, every other active seat publishes
``D_s = x_s·c1`` with a proof that ``log_G(H_s) = log_c1(D_s)``, bound to the game, the
seat, the token, its ciphertext and the purpose (``public`` or ``to seat r``); seat r adds
its own share and reads ``M = c2 − ΣD``. A public reveal asks for every share not yet
published. A share is never owed twice, and a seat that left owes nothing (everyone
computes its shares from its published secret).

A card that one seat m alone can open (every share but m's is published) and that is to be
opened to another seat q is not opened with m's share, which would open it to every reader of
the log: m hands it over (:mod:`._handover`), and from then on q's share is the one missing
(log protocol 4; before, m published its share).

``shares`` holds every seat's share of each token's *current* ciphertext that the log gives
(published, or worked out from a hand-over's masks); ``cts`` in :class:`~._shuffles.Shuffles`
holds the current ciphertexts.

The final reveal (:meth:`Reveals.begin_final`) opens to everyone every token, live or
dead, that was opened to one seat and never to everyone: the cards some seat saw that
the others did not. Each such card then only lacks one share: its last recipient's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import Card
from ..dealer import Reveal
from ..errors import LocalProtocolError, RemoteProtocolError
from . import _group as g
from . import _handover as handover
from ._checked import check
from ._common import Context, Obligation, purpose, share_context
from ._keys import KeyRing
from ._limits import MAX_DECK
from ._messages import Handover, ShareProof
from ._shuffles import Shuffles
from ._wire import HANDOVER_PROTOCOL, KIND_FINAL


class Reveals:
    """Owed and published shares, owed hand-overs, and the cards this seat has decrypted."""

    __slots__ = ("audience", "ctx", "handing", "history", "known", "mine", "owed", "shares", "undecodable")

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        # (token, seat) -> whom it is owed to (a seat, or None: everyone); the first is bound
        # into its proof.
        self.owed: dict[tuple[int, int], tuple[int | None, ...]] = {}
        # (token, seat) -> the seat that ``seat`` owes the hand-over of ``token`` to.
        self.handing: dict[tuple[int, int], int] = {}
        self.shares: dict[tuple[int, int], bytes] = {}  # (token, seat) -> share of its current ciphertext
        # token -> each ciphertext it had before a hand-over, with the shares of it the log gives:
        # the secret of a seat that leaves opens the one it alone could open.
        self.history: dict[int, tuple[tuple[bytes, dict[int, bytes]], ...]] = {}
        self.audience: dict[int, frozenset[int | None]] = {}  # token -> every `to` it was opened to
        self.mine: set[int] = set()  # tokens this seat is to decrypt and has not yet
        self.known: dict[int, Card] = {}
        self.undecodable: set[int] = set()

    def copy(self) -> Reveals:
        new = Reveals.__new__(Reveals)
        new.ctx = self.ctx
        new.owed = dict(self.owed)
        new.handing = dict(self.handing)
        new.shares = dict(self.shares)
        new.history = dict(self.history)
        new.audience = dict(self.audience)
        new.mine = set(self.mine)
        new.known = dict(self.known)
        new.undecodable = set(self.undecodable)
        return new

    @property
    def busy(self) -> bool:
        """Whether a share or a hand-over is still owed."""
        return bool(self.owed or self.handing)

    def busy_tokens(self) -> set[int]:
        return {t for t, _ in self.owed} | {t for t, _ in self.handing}

    def obligations(self, kind: str) -> list[Obligation]:
        """Every seat that owes shares or hand-overs, in seat order (``kind``: shares, or the final
        reveal). A seat meets all it owes in one message."""
        shares: dict[int, int] = {}
        handovers: dict[int, int] = {}
        for _, s in self.owed:
            shares[s] = shares.get(s, 0) + 1
        for _, s in self.handing:
            handovers[s] = handovers.get(s, 0) + 1
        out = []
        for s in sorted(shares.keys() | handovers.keys()):
            words = []
            if s in shares:
                cards = _cards(shares[s])
                words.append(f"final reveal of {cards}" if kind == KIND_FINAL else f"shares for {cards}")
            if s in handovers:
                words.append(f"the hand-over of {_cards(handovers[s])}")
            out.append(Obligation(s, kind, " and ".join(words)))
        return out

    def owed_by(self, seat: int | None) -> list[int]:
        return sorted(t for t, s in self.owed if s == seat)

    def handed_by(self, seat: int | None) -> list[int]:
        return sorted(t for t, s in self.handing if s == seat)

    def public_cards(self) -> dict[int, Card]:
        """Every token opened to everyone, with its card (if it decrypted to one)."""
        return {
            t: c for t, who in self.audience.items() if None in who and (c := self.known.get(t)) is not None
        }

    def missing(self, token: int, keys: KeyRing) -> list[int]:
        """The active seats whose share of ``token``'s current ciphertext the log does not give."""
        return [s for s in keys.active() if (token, s) not in self.shares]

    # ---- asking for shares ---------------------------------------------------------------------

    def request(self, reveals: Sequence[Reveal], deck: Shuffles, keys: KeyRing) -> None:
        """Register a reveal batch of live tokens: every seat that must publish a share now owes it,
        and the seat that alone can open a card to be opened to another owes its hand-over."""
        rs = list(reveals)
        for r in rs:
            if r.token not in deck.live:
                raise LocalProtocolError(f"no live card token {r.token}")
            if r.to is not None and not (0 <= r.to < self.ctx.players and r.to not in keys.left):
                raise LocalProtocolError(f"cannot reveal to seat {r.to}")
        self._register(rs, keys)
        self.decrypt((r.token for r in rs), deck, keys)

    def _register(self, rs: Sequence[Reveal], keys: KeyRing) -> None:
        me = self.ctx.seat
        for r in rs:
            holder = self._holder(r, keys)
            if holder is not None and r.to is not None:
                self.handing[(r.token, holder)] = r.to
            else:
                for s in keys.active():
                    key = (r.token, s)
                    if s != r.to and key not in self.shares and r.to not in self.owed.get(key, ()):
                        self.owed[key] = (*self.owed.get(key, ()), r.to)
            self.audience[r.token] = self.audience.get(r.token, frozenset()) | {r.to}
            if (r.to is None or r.to == me) and r.token not in self.known:
                self.mine.add(r.token)

    def _holder(self, r: Reveal, keys: KeyRing) -> int | None:
        """The seat that hands ``r``'s card over to ``r.to``: the one seat that alone can open it,
        when that is another seat (log protocol 4 on). None: shares open it."""
        if r.to is None or self.ctx.protocol < HANDOVER_PROTOCOL:
            return None
        missing = self.missing(r.token, keys)
        return missing[0] if len(missing) == 1 and missing[0] != r.to else None

    def final_tokens(self) -> list[int]:
        """Tokens (live or dead) opened to some seat and never to everyone, in order."""
        return sorted(t for t, who in self.audience.items() if None not in who)

    def begin_final(self, deck: Shuffles, keys: KeyRing) -> None:
        """The final reveal: open :meth:`final_tokens` to everyone (each lacks one share at most)."""
        if self.busy:
            raise LocalProtocolError("shares are still owed")
        tokens = self.final_tokens()
        self._register([Reveal(t, None) for t in tokens], keys)
        self.decrypt(tokens, deck, keys)

    def forget(self, tokens: Iterable[int]) -> None:
        """``tokens`` died in a reshuffle: this seat no longer waits to decrypt them."""
        self.mine.difference_update(tokens)

    def opened_by_leaving(self, deck: Shuffles, keys: KeyRing) -> list[int]:
        """After a seat left (its secret is public): the tokens (live or dead) that one of their
        ciphertexts now opens to everyone — every card that seat was ever opened to. Each is marked
        public and decrypted here."""
        opened = []
        for t, who in sorted(self.audience.items()):
            if None in who:
                continue
            now = (deck.cts[t], {s: d for (tok, s), d in self.shares.items() if tok == t})
            for ct, shares in (now, *self.history.get(t, ())):
                card = self._open(ct, shares, deck, keys)
                if card is not None:
                    opened.append(t)
                    self.audience[t] = who | {None}
                    self.mine.discard(t)
                    self.known[t] = card
                    break
        return opened

    def _open(self, ct: bytes, shares: dict[int, bytes], deck: Shuffles, keys: KeyRing) -> Card | None:
        """The card behind ``ct`` when every seat's share is published or computable by everyone."""
        c1 = ct[: g.POINT_BYTES]
        parts = []
        for s in range(self.ctx.players):
            d = shares.get(s)
            if d is None and s in keys.left:
                d = keys.share(s, c1)
            if d is None:
                return None
            parts.append(d)
        try:
            return deck.by_point.get(g.sub(ct[g.POINT_BYTES :], g.add_all(parts)))
        except g.GroupError:
            return None

    # ---- this seat's shares and hand-overs -----------------------------------------------------

    def build(
        self, deck: Shuffles, keys: KeyRing, tokens: Sequence[int] | None = None
    ) -> tuple[tuple[ShareProof, ...], tuple[Handover, ...]]:
        """This seat's owed shares with proofs and its owed hand-overs: all (at most a message's
        worth), or the shares of ``tokens``."""
        me = self.ctx.need_me()
        owed = self.owed_by(me.seat)[:MAX_DECK]
        handed = self.handed_by(me.seat)[: MAX_DECK - len(owed)]
        if tokens is not None:
            want = list(dict.fromkeys(tokens))
            for t in want:
                if (t, me.seat) not in self.owed:
                    raise LocalProtocolError(f"this seat owes no share for token {t}")
            owed, handed = want, []
        if not owed and not handed:
            raise LocalProtocolError("this seat owes no shares")
        out = []
        for t in owed:
            ct = deck.cts[t]
            c1 = ct[: g.POINT_BYTES]
            d = keys.share(me.seat, c1)
            assert d is not None
            to = self.owed[(t, me.seat)][0]
            ctx = share_context(self.ctx.game_id, me.seat, t, ct, to)
            e, z = g.dleq_prove(ctx, me.x, me.public, c1, d, me.seed)
            out.append(ShareProof(t, d, e, z, to))
        joint = keys.need_joint()
        hand = []
        for t in handed:
            to = self.handing[(t, me.seat)]
            others = self._others(t, me.seat, to, keys)
            hand.append(handover.build(self.ctx, keys.public, joint, t, deck.cts[t], to, others))
        return tuple(out), tuple(hand)

    def _others(self, token: int, holder: int, to: int, keys: KeyRing) -> list[int]:
        """The seats whose masks a hand-over of ``token`` from ``holder`` to ``to`` carries."""
        return [s for s in keys.active() if s not in (holder, to)]

    # ---- shares and hand-overs arrive ----------------------------------------------------------

    def receive(
        self,
        s: int,
        shares: Sequence[ShareProof],
        deck: Shuffles,
        keys: KeyRing,
        handovers: Sequence[Handover] = (),
    ) -> None:
        """Check and apply seat ``s``'s shares and hand-overs; atomic: a refused one changes nothing."""
        if not shares and not handovers:
            raise RemoteProtocolError("an empty shares message", seat=s)
        tokens = [sp.token for sp in shares] + [h.token for h in handovers]
        if len(set(tokens)) != len(tokens):
            raise RemoteProtocolError("a token appears twice in one shares message", seat=s)
        for sp in shares:
            self._check_share(s, sp, deck, keys)
        derived = [self._check_handover(s, h, deck, keys) for h in handovers]
        for sp in shares:
            self.shares[(sp.token, s)] = sp.share
            del self.owed[(sp.token, s)]
        for h, new_shares in zip(handovers, derived, strict=True):
            old = {
                seat: d for seat in range(self.ctx.players) if (d := self.shares.pop((h.token, seat), None))
            }
            self.history[h.token] = ((deck.cts[h.token], old), *self.history.get(h.token, ()))
            deck.cts[h.token] = h.ciphertext
            self.shares.update(new_shares)
            del self.handing[(h.token, s)]
        self.decrypt(tokens, deck, keys)

    def _check_share(self, s: int, sp: ShareProof, deck: Shuffles, keys: KeyRing) -> None:
        t = sp.token
        owed_to = self.owed.get((t, s))
        if owed_to is None:
            if (t, s) in self.shares:
                raise RemoteProtocolError(f"share for token {t} was already published", seat=s)
            if t not in deck.cts:
                raise RemoteProtocolError(f"share for token {t}, which is no card of the game", seat=s)
            raise RemoteProtocolError(f"share for token {t} is not owed: seat {s} may not open it", seat=s)
        if sp.to != owed_to[0]:
            raise RemoteProtocolError(
                f"share for token {t} is for {purpose(sp.to)}, but it is owed {purpose(owed_to[0])}",
                seat=s,
            )
        if s == self.ctx.seat:
            return
        ct = deck.cts[t]
        ctx = share_context(self.ctx.game_id, s, t, ct, owed_to[0])
        # dleq_verify multiplies the share, which checks it is a valid point.
        h, c1 = keys.public[s], ct[: g.POINT_BYTES]
        parts = (ctx, h, c1, sp.share, sp.challenge, sp.response)
        if not check(self.ctx.checked, "dleq", parts, g.dleq_verify, *parts):
            if not g.is_point(sp.share):
                raise RemoteProtocolError(f"share for token {t} is not a valid group element", seat=s)
            raise RemoteProtocolError(f"the proof of the share for token {t} does not verify", seat=s)

    def _check_handover(
        self, s: int, h: Handover, deck: Shuffles, keys: KeyRing
    ) -> dict[tuple[int, int], bytes]:
        """Check seat ``s``'s hand-over ``h``; return the shares of the new ciphertext the log gives."""
        t = h.token
        to = self.handing.get((t, s))
        if to is None:
            raise RemoteProtocolError(
                f"hand-over of token {t} is not owed: seat {s} may not hand it over", seat=s
            )
        if h.to != to:
            raise RemoteProtocolError(
                f"hand-over of token {t} to seat {h.to}, but it is owed to seat {to}", seat=s
            )
        others = self._others(t, s, to, keys)
        if s != self.ctx.seat:
            handover.verify(self.ctx, keys.public, keys.need_joint(), s, h, deck.cts[t], others)
        new = {(t, s): h.share.share}
        for seat, mask in zip(others, h.masks, strict=True):
            old = self.shares.get((t, seat))
            if old is None:  # pragma: no cover - a hand-over is owed only when every other share is in
                raise LocalProtocolError(f"no share of seat {seat} for token {t} to carry over")
            try:
                new[(t, seat)] = g.add(old, mask)
            except g.GroupError:  # the mask cancels the old share: no valid new share
                raise RemoteProtocolError(
                    f"the hand-over of token {t} gives no share for seat {seat}", seat=s
                ) from None
        return new

    def decrypt(self, tokens: Iterable[int], deck: Shuffles, keys: KeyRing) -> None:
        """Decrypt each of ``tokens`` this seat is to read, once every share is at hand."""
        for t in tokens:
            if t not in self.mine:
                continue
            ct = deck.cts[t]
            c1 = ct[: g.POINT_BYTES]
            parts = []
            for s in range(self.ctx.players):
                d = self.shares.get((t, s))
                if d is None:
                    d = keys.share(s, c1)
                if d is None:
                    break
                parts.append(d)
            else:
                try:
                    m = g.sub(ct[g.POINT_BYTES :], g.add_all(parts))
                except g.GroupError:  # the shares cancel or equal c2: no card
                    m = b""
                card = deck.by_point.get(m)
                self.mine.discard(t)
                if card is None:
                    self.undecodable.add(t)
                else:
                    self.known[t] = card


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"
