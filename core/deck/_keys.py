"""Keys: every seat's public key with its proof, the joint key, and the secrets of seats that left.

Each seat publishes ``H_s = x_s·G`` with a Schnorr proof of knowledge bound to the game
and the seat, in seat order; the joint key is ``H = ΣH_s``. A seat that leaves the
game publishes ``x_s`` (checked against ``H_s``), after which every peer computes that
seat's decryption shares itself.
"""

from __future__ import annotations

from ..errors import LocalProtocolError, RemoteProtocolError
from . import _group as g
from ._checked import check
from ._common import Context, Obligation
from ._messages import KeyShare
from ._wire import KIND_KEY


class KeyRing:
    """The public keys of one game as one seat sees them."""

    __slots__ = ("_memo", "ctx", "joint", "left", "public")

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.public: dict[int, bytes] = {}
        self.joint: bytes | None = None
        self.left: dict[int, bytes] = {}  # seat -> its published secret
        # Memo of x_s·c1 for this seat and seats that left: a pure function, so copies share it.
        self._memo: dict[tuple[int, bytes], bytes] = {}

    def copy(self) -> KeyRing:
        new = KeyRing.__new__(KeyRing)
        new.ctx = self.ctx
        new.public = dict(self.public)
        new.joint = self.joint
        new.left = dict(self.left)
        new._memo = self._memo
        return new

    @property
    def ready(self) -> bool:
        """Whether every seat's key is in (nothing else may happen before)."""
        return self.joint is not None

    def need_joint(self) -> bytes:
        if self.joint is None:
            raise LocalProtocolError("not every seat's public key is known yet")
        return self.joint

    def active(self) -> list[int]:
        """Seats still in the game, in seat order."""
        return [s for s in range(self.ctx.players) if s not in self.left]

    def obligations(self) -> list[Obligation]:
        return [
            Obligation(s, KIND_KEY, "public key") for s in range(self.ctx.players) if s not in self.public
        ]

    def message(self) -> KeyShare:
        """This seat's public key with its proof of knowledge."""
        me = self.ctx.need_me()
        e, z = g.schnorr_prove(self.ctx.game_id, me.seat, self.ctx.players, me.x, me.public, me.seed)
        return KeyShare(me.seat, me.public, e, z)

    def receive(self, m: KeyShare) -> None:
        s = m.seat
        if s in self.public:
            raise RemoteProtocolError("duplicate public key", seat=s)
        me = self.ctx.me
        if me is not None and s == me.seat:
            if m.public != me.public:
                raise RemoteProtocolError("this is not this seat's public key", seat=s)
        else:
            if not g.is_point(m.public):
                raise RemoteProtocolError("public key is not a valid group element", seat=s)
            ctx = self.ctx
            args = (ctx.game_id, s, ctx.players, m.public, m.challenge, m.response)
            parts = (ctx.game_id, bytes([s, ctx.players]), m.public, m.challenge, m.response)
            if not check(ctx.checked, "key", parts, g.schnorr_verify, *args):
                raise RemoteProtocolError("the proof of knowledge of the secret key does not verify", seat=s)
        joint = None
        if len(self.public) + 1 == self.ctx.players:
            try:
                joint = g.add_all([m.public, *self.public.values()])
            except g.GroupError:  # pragma: no cover - needs the sum of secrets to be 0
                raise RemoteProtocolError("the joint key is degenerate", seat=s) from None
        self.public[s] = m.public
        self.joint = joint

    def check_secret(self, seat: int, secret: bytes) -> None:
        """Refuse ``secret`` unless it is the secret key of ``seat``'s public key."""
        ok = g.is_scalar(secret)
        if ok:
            try:
                ok = g.base(secret) == self.public[seat]
            except g.GroupError:
                ok = False
        if not ok:
            raise RemoteProtocolError("the published secret does not match the seat's public key", seat=seat)

    def share(self, seat: int, c1: bytes) -> bytes | None:
        """``x_seat·c1`` when this seat can compute it (its own, or a seat that left); else None."""
        me = self.ctx.me
        if me is not None and seat == me.seat:
            x = me.x
        elif seat in self.left:
            x = self.left[seat]
        else:
            return None
        key = (seat, c1)
        d = self._memo.get(key)
        if d is None:
            d = self._memo[key] = g.mul(x, c1)
        return d
