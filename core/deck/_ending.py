"""Leaving the game, and the final reveal that ends it.

A seat leaves when its seat's own rules take it out (:meth:`Ending.begin_leave`, a
local call every seat makes at the same point): it then owes its secret key, and
nothing else is owed until it is in. From then on every peer computes its shares.

When the rules end the game (:meth:`Ending.begin_final`, likewise local), every card
that some seat saw and the others did not is opened to everyone: its recipient (the
only seat whose share is missing) publishes its share with a proof, in a
``deck.final-reveal``. Every shuffle was proven as it came, so nothing else is opened:
with the cards of every public reveal, every card any seat ever knew is then known to
all, which is what replaying every move with full knowledge needs.
"""

from __future__ import annotations

from ..dealer import Finding, Verdict
from ..errors import LocalProtocolError, RemoteProtocolError
from ._common import Context, Obligation, purpose
from ._keys import KeyRing
from ._messages import FinalReveal, Leave
from ._reveals import Reveals
from ._shuffles import Shuffles
from ._wire import KIND_LEAVE


class Ending:
    """Who is leaving, and whether the final reveal has begun."""

    __slots__ = ("ctx", "final", "leaving", "opened")

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.leaving: int | None = None  # set by begin_leave(), when the rules take a seat out
        self.final = False  # set by begin_final(), when this seat's own rules end the game
        self.opened: tuple[int, ...] = ()  # the tokens the final reveal opens

    def copy(self) -> Ending:
        new = Ending.__new__(Ending)
        new.ctx = self.ctx
        new.leaving = self.leaving
        new.final = self.final
        new.opened = self.opened
        return new

    def obligations(self) -> list[Obligation]:
        if self.leaving is None:
            return []
        return [Obligation(self.leaving, KIND_LEAVE, "its secret as it leaves the game")]

    # ---- leaving -------------------------------------------------------------------------------

    def begin_leave(self, seat: int, keys: KeyRing) -> None:
        if type(seat) is not int or not 0 <= seat < self.ctx.players or seat in keys.left:
            raise LocalProtocolError(f"seat {seat!r} cannot leave")
        self.leaving = seat

    def leave_message(self) -> Leave:
        me = self.ctx.need_me()
        if self.leaving != me.seat:
            raise LocalProtocolError("this seat is not leaving the game")
        return Leave(me.seat, me.x)

    def receive_leave(self, m: Leave, keys: KeyRing) -> None:
        s = m.seat
        if self.leaving != s:
            raise RemoteProtocolError("leaving the game when the rules do not take it out", seat=s)
        keys.check_secret(s, m.secret)
        keys.left[s] = m.secret
        self.leaving = None
        # A seat leaves only when nothing is owed (begin_leave): no share of it is pending, and no
        # private reveal to it is half done. Every card it alone could open is now open to all
        # (Reveals.opened_by_leaving): what it alone saw is shown, as a departing player's hand.

    # ---- the final reveal ----------------------------------------------------------------------

    def begin_final(self, reveals: Reveals, deck: Shuffles, keys: KeyRing) -> None:
        opened = tuple(reveals.final_tokens())
        reveals.begin_final(deck, keys)
        self.opened = opened
        self.final = True

    def final_message(self, reveals: Reveals, deck: Shuffles, keys: KeyRing) -> FinalReveal:
        me = self.ctx.need_me()
        if not self.final:
            raise LocalProtocolError("the final reveal has not begun")
        shares, handovers = reveals.build(deck, keys)
        assert not handovers, "the final reveal hands nothing over"
        return FinalReveal(me.seat, shares)

    def receive_final(self, m: FinalReveal, reveals: Reveals, deck: Shuffles, keys: KeyRing) -> None:
        s = m.seat
        if not self.final:
            raise RemoteProtocolError("final reveal before the game is over", seat=s)
        for sp in m.shares:
            if sp.to is not None:
                raise RemoteProtocolError(
                    f"share for token {sp.token} is for {purpose(sp.to)}, but the final reveal is public",
                    seat=s,
                )
        reveals.receive(s, m.shares, deck, keys)

    def verdict(self, reveals: Reveals, deck: Shuffles) -> Verdict | None:
        """What the deck says once the final reveal is complete (None before)."""
        if not self.final or reveals.owed:
            return None
        findings = tuple(
            Finding(None, f"token {t}", "decrypted to no card of the deck")
            for t in sorted(reveals.undecodable)
        )
        passes = sum(len(r.passes) for r in deck.rounds)
        rounds, opened = len(deck.rounds), len(self.opened)
        checked = (
            f"{rounds} shuffle round{'s' if rounds != 1 else ''}, {passes} passes, each proven as it came; "
            f"{opened} card{'s' if opened != 1 else ''} opened in the final reveal"
        )
        return Verdict(not findings, findings, checked)
