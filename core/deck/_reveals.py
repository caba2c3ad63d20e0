"""Reveals: decryption shares with Chaum–Pedersen proofs, and what each seat can decrypt.

To open token t (ciphertext ``c1 || c2``) to seat r, every other active seat publishes
``D_s = x_s·c1`` with a proof that ``log_G(H_s) = log_c1(D_s)``, bound to the game, the
seat, the token, its ciphertext and the purpose (``public`` or ``to seat r``); seat r adds
its own share and reads ``M = c2 − ΣD``. A public reveal asks for every share not yet
published. A share is never owed twice, and a seat that left owes nothing (everyone
computes its shares from its published secret).

The final reveal (:meth:`Reveals.begin_final`) opens to everyone every token, live or
dead, that was opened to one seat and never to everyone: the cards some seat saw that
the others did not. Each such card then only lacks its recipient's share.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import Card
from ..dealer import Reveal
from ..errors import LocalProtocolError, RemoteProtocolError
from . import _group as g
from ._checked import check
from ._common import Context, Obligation
from ._keys import KeyRing
from ._limits import MAX_DECK
from ._messages import ShareProof
from ._shuffles import Shuffles
from ._wire import KIND_FINAL

PUBLIC = "public"  # the purpose bound into a share that opens a card to everyone


def purpose(to: int | None) -> str:
    """The purpose a share's proof is bound to: ``public``, or ``to seat N``."""
    return PUBLIC if to is None else f"to seat {to}"


def share_context(game_id: bytes, seat: int, token: int, ct: bytes, to: int | None) -> bytes:
    """What a share's proof is bound to."""
    return g.frame(b"share", game_id, seat, token, ct, purpose(to))


class Reveals:
    """Owed and published shares, and the cards this seat has decrypted."""

    __slots__ = ("audience", "ctx", "known", "mine", "owed", "shares", "undecodable")

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        # (token, seat) -> whom it is owed to (a seat, or None: everyone); the first is bound
        # into its proof.
        self.owed: dict[tuple[int, int], tuple[int | None, ...]] = {}
        self.shares: dict[tuple[int, int], bytes] = {}  # (token, seat) -> published share
        self.audience: dict[int, frozenset[int | None]] = {}  # token -> every `to` it was opened to
        self.mine: set[int] = set()  # tokens this seat is to decrypt and has not yet
        self.known: dict[int, Card] = {}
        self.undecodable: set[int] = set()

    def copy(self) -> Reveals:
        new = Reveals.__new__(Reveals)
        new.ctx = self.ctx
        new.owed = dict(self.owed)
        new.shares = dict(self.shares)
        new.audience = dict(self.audience)
        new.mine = set(self.mine)
        new.known = dict(self.known)
        new.undecodable = set(self.undecodable)
        return new

    def obligations(self, kind: str) -> list[Obligation]:
        """Every seat that owes shares, in seat order (``kind``: shares, or the final reveal)."""
        counts: dict[int, int] = {}
        for _, s in self.owed:
            counts[s] = counts.get(s, 0) + 1
        out = []
        for s in sorted(counts):
            n = counts[s]
            cards = f"{n} card{'s' if n != 1 else ''}"
            what = f"final reveal of {cards}" if kind == KIND_FINAL else f"shares for {cards}"
            out.append(Obligation(s, kind, what))
        return out

    def owed_by(self, seat: int | None) -> list[int]:
        return sorted(t for t, s in self.owed if s == seat)

    def public_cards(self) -> dict[int, Card]:
        """Every token opened to everyone, with its card (if it decrypted to one)."""
        return {
            t: c for t, who in self.audience.items() if None in who and (c := self.known.get(t)) is not None
        }

    # ---- asking for shares ---------------------------------------------------------------------

    def request(self, reveals: Sequence[Reveal], deck: Shuffles, keys: KeyRing) -> None:
        """Register a reveal batch of live tokens: every seat that must publish a share now owes it."""
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
            for s in keys.active():
                key = (r.token, s)
                if s != r.to and key not in self.shares and r.to not in self.owed.get(key, ()):
                    self.owed[key] = (*self.owed.get(key, ()), r.to)
            self.audience[r.token] = self.audience.get(r.token, frozenset()) | {r.to}
            if (r.to is None or r.to == me) and r.token not in self.known:
                self.mine.add(r.token)

    def final_tokens(self) -> list[int]:
        """Tokens (live or dead) opened to some seat and never to everyone, in order."""
        return sorted(t for t, who in self.audience.items() if None not in who)

    def begin_final(self, deck: Shuffles, keys: KeyRing) -> None:
        """The final reveal: open :meth:`final_tokens` to everyone (each lacks one share at most)."""
        if self.owed:
            raise LocalProtocolError("shares are still owed")
        tokens = self.final_tokens()
        self._register([Reveal(t, None) for t in tokens], keys)
        self.decrypt(tokens, deck, keys)

    def forget(self, tokens: Iterable[int]) -> None:
        """``tokens`` died in a reshuffle: this seat no longer waits to decrypt them."""
        self.mine.difference_update(tokens)

    # ---- this seat's shares --------------------------------------------------------------------

    def build(
        self, deck: Shuffles, keys: KeyRing, tokens: Sequence[int] | None = None
    ) -> tuple[ShareProof, ...]:
        """This seat's owed shares with proofs: all (at most a message's worth), or those of ``tokens``."""
        me = self.ctx.need_me()
        owed = self.owed_by(me.seat)[:MAX_DECK]
        if tokens is not None:
            want = list(dict.fromkeys(tokens))
            for t in want:
                if (t, me.seat) not in self.owed:
                    raise LocalProtocolError(f"this seat owes no share for token {t}")
            owed = want
        if not owed:
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
        return tuple(out)

    # ---- shares arrive -------------------------------------------------------------------------

    def receive(self, s: int, shares: Sequence[ShareProof], deck: Shuffles, keys: KeyRing) -> None:
        """Check and apply seat ``s``'s shares; atomic: a refused one changes nothing."""
        if not shares:
            raise RemoteProtocolError("an empty shares message", seat=s)
        if len({sp.token for sp in shares}) != len(shares):
            raise RemoteProtocolError("a token appears twice in one shares message", seat=s)
        for sp in shares:
            t = sp.token
            owed_to = self.owed.get((t, s))
            if owed_to is None:
                if (t, s) in self.shares:
                    raise RemoteProtocolError(f"share for token {t} was already published", seat=s)
                if t not in deck.cts:
                    raise RemoteProtocolError(f"share for token {t}, which is no card of the game", seat=s)
                raise RemoteProtocolError(
                    f"share for token {t} is not owed: seat {s} may not open it", seat=s
                )
            if sp.to != owed_to[0]:
                raise RemoteProtocolError(
                    f"share for token {t} is for {purpose(sp.to)}, but it is owed {purpose(owed_to[0])}",
                    seat=s,
                )
            if s == self.ctx.seat:
                continue
            ct = deck.cts[t]
            ctx = share_context(self.ctx.game_id, s, t, ct, owed_to[0])
            # dleq_verify multiplies the share, which checks it is a valid point.
            h, c1 = keys.public[s], ct[: g.POINT_BYTES]
            parts = (ctx, h, c1, sp.share, sp.challenge, sp.response)
            if not check(self.ctx.checked, "dleq", parts, g.dleq_verify, *parts):
                if not g.is_point(sp.share):
                    raise RemoteProtocolError(f"share for token {t} is not a valid group element", seat=s)
                raise RemoteProtocolError(f"the proof of the share for token {t} does not verify", seat=s)
        for sp in shares:
            self.shares[(sp.token, s)] = sp.share
            del self.owed[(sp.token, s)]
        self.decrypt((sp.token for sp in shares), deck, keys)

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
