"""Finding who holds a card: its holder shows it to everyone, every other candidate says it does not.

The rules ask "whoever holds the 2♣ leads" (log protocol 4): every seat that may hold the card —
the owners of the hands it could be in — answers at once, with no one's key press. The seat that
holds it opens it to everyone with its own decryption share of that card's token (it alone can:
the card is in its hand), which every peer checks: the token is one of its hand's, and it opens
to that very card. A seat that does not hold it says so; that claim is checked at the end of the
game, when every card any seat saw is known (a false one names its seat, like a renege).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..cards import Card
from ..errors import LocalProtocolError, RemoteProtocolError
from . import _group as g
from ._checked import check
from ._common import Context, Obligation, share_context
from ._keys import KeyRing
from ._messages import FindClaim, ShareProof
from ._reveals import Reveals
from ._shuffles import Shuffles
from ._wire import KIND_FIND


@dataclass(frozen=True, slots=True)
class Search:
    """A card being looked for, and the tokens each candidate seat holds where it may be."""

    card: Card
    candidates: Mapping[int, tuple[int, ...]]


class Finds:
    """The search in progress, its claims, and the result of the last one."""

    __slots__ = ("claims", "ctx", "last", "search")

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.search: Search | None = None
        self.claims: dict[int, int | None] = {}  # seat -> the token it showed, or None: not held
        self.last: tuple[int, int] | None = None  # (seat, token) of the last search's holder

    def copy(self) -> Finds:
        new = Finds.__new__(Finds)
        new.ctx = self.ctx
        new.search = self.search
        new.claims = dict(self.claims)
        new.last = self.last
        return new

    def obligations(self) -> list[Obligation]:
        s = self.search
        if s is None:
            return []
        what = f"whether it holds {s.card}"
        return [Obligation(seat, KIND_FIND, what) for seat in sorted(s.candidates) if seat not in self.claims]

    def begin(self, card: Card, candidates: Mapping[int, Sequence[int]], keys: KeyRing) -> None:
        """Look for ``card`` among ``candidates`` (seat -> the tokens of its hands where it may be)."""
        active = set(keys.active())
        cands = {s: tuple(ts) for s, ts in candidates.items() if ts and s in active}
        self.search, self.claims, self.last = Search(card, cands), {}, None
        if not cands:
            self.search = None

    def message(self, reveals: Reveals, deck: Shuffles, keys: KeyRing) -> FindClaim:
        """This seat's answer: its share of the card's token, if it holds the card."""
        me = self.ctx.need_me()
        s = self.search
        if s is None or me.seat not in s.candidates or me.seat in self.claims:
            raise LocalProtocolError("this seat owes no answer to a search")
        held = next((t for t in s.candidates[me.seat] if reveals.known.get(t) == s.card), None)
        if held is None:
            return FindClaim(me.seat, s.card.name, None)
        ct = deck.cts[held]
        c1 = ct[: g.POINT_BYTES]
        d = keys.share(me.seat, c1)
        assert d is not None
        e, z = g.dleq_prove(
            share_context(self.ctx.game_id, me.seat, held, ct, None), me.x, me.public, c1, d, me.seed
        )
        return FindClaim(me.seat, s.card.name, ShareProof(held, d, e, z, None))

    def receive(self, m: FindClaim, reveals: Reveals, deck: Shuffles, keys: KeyRing) -> None:
        """Check and apply a candidate's answer; atomic."""
        seat, s = m.seat, self.search
        if s is None or seat not in s.candidates or seat in self.claims:
            raise RemoteProtocolError("an answer to a search it owes no answer to", seat=seat)
        if m.card != s.card.name:
            raise RemoteProtocolError(
                f"an answer about {m.card}, while {s.card.name} is looked for", seat=seat
            )
        sp = m.share
        if sp is not None:
            self._check_shown(seat, sp, s, reveals, deck, keys)
            reveals.shares[(sp.token, seat)] = sp.share
            reveals.audience[sp.token] = reveals.audience.get(sp.token, frozenset()) | {None}
            if sp.token not in reveals.known:
                reveals.mine.add(sp.token)
            reveals.decrypt([sp.token], deck, keys)
            self.last = (seat, sp.token)
        self.claims[seat] = None if sp is None else sp.token
        if all(c in self.claims for c in s.candidates):
            self.search = None

    def _check_shown(
        self, seat: int, sp: ShareProof, s: Search, reveals: Reveals, deck: Shuffles, keys: KeyRing
    ) -> None:
        t = sp.token
        if t not in s.candidates[seat] or sp.to is not None:
            raise RemoteProtocolError(f"shows token {t}, which is not one of its hand's", seat=seat)
        if reveals.missing(t, keys) != [seat]:
            raise RemoteProtocolError(f"shows token {t}, which it alone cannot open", seat=seat)
        ct = deck.cts[t]
        c1 = ct[: g.POINT_BYTES]
        ctx = share_context(self.ctx.game_id, seat, t, ct, None)
        parts = (ctx, keys.public[seat], c1, sp.share, sp.challenge, sp.response)
        if seat != self.ctx.seat and not check(self.ctx.checked, "dleq", parts, g.dleq_verify, *parts):
            raise RemoteProtocolError(f"the proof of the share for token {t} does not verify", seat=seat)
        shares = [
            sp.share if p == seat else reveals.shares.get((t, p)) or keys.share(p, c1)
            for p in range(self.ctx.players)
        ]
        try:
            point = g.sub(ct[g.POINT_BYTES :], g.add_all([d for d in shares if d is not None]))
        except g.GroupError:  # the share is no point, or the shares cancel: no card
            point = b""
        if deck.by_point.get(point) != s.card:
            raise RemoteProtocolError(f"shows token {t}, which is not {s.card.name}", seat=seat)

    def result(self) -> tuple[int, int] | None:
        """The holder of the last search's card and its token; None when nobody showed it (or one
        is in progress)."""
        return None if self.search is not None else self.last
