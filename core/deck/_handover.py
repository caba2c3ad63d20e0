"""Hand-overs: a card that one seat alone can open is handed to another seat, and to nobody else.

A card opened to seat m lacks only m's decryption share: every other seat's share of its
ciphertext ``(c1, c2)`` is in the log. Opening it to seat q the way a card from the stock is
opened (every seat but q publishes its share) would publish m's share, the one that kept the
card from every other reader. Instead m, who knows the card, re-masks the ciphertext for q:

* it draws a secret ``s`` and publishes ``(c1', c2') = (c1 + s·G, c2 + s·H)`` (H the joint key);
* for every other active seat i (neither m nor q) it publishes ``T_i = s·H_i``: i's share of the
  new ciphertext is then ``x_i·c1' = x_i·c1 + T_i``, from i's published share of the old one;
* it publishes its own share of the new ciphertext, ``x_m·c1'``, with the usual Chaum–Pedersen
  proof (purpose "to seat q");
* one proof that a single ``s`` is behind ``c1' − c1``, ``c2' − c2`` and every ``T_i``
  (:func:`~._group.same_log_prove`, bases G, H and each H_i), so the new ciphertext is the same
  card.

Now every share of the new ciphertext but q's is known: q opens the card with its own, and
nobody else can (q's share of the new ciphertext is ``x_q·c1 + s·H_q``, and ``s·H_q`` is known
to m alone). The card stays closed to every other seat, watcher and reader of the log, costs no
shuffle, and m's message is all it takes.

Every function here is pure; the caller (:mod:`._reveals`) keeps the state.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import RemoteProtocolError
from . import _group as g
from ._checked import check
from ._common import Context, Me, Stream, draw_scalar, share_context
from ._messages import Handover, ShareProof


def context(game_id: bytes, seat: int, token: int, ct: bytes, new: bytes, to: int) -> bytes:
    """What a hand-over's proof is bound to: the game, its author, the token, both ciphertexts, the
    seat it goes to."""
    return g.frame(b"handover", game_id, seat, token, ct, new, to)


def mask(me: Me, game_id: bytes, token: int, ct: bytes, to: int) -> bytes:
    """The secret ``s`` of ``me``'s hand-over of ``token`` (ciphertext ``ct``) to seat ``to``."""
    key = g.digest(g.TAG_SECRETS, me.seed, "handover", game_id, token, ct, to)
    return draw_scalar(Stream(key))


def build(
    ctx: Context,
    public: dict[int, bytes],
    joint: bytes,
    token: int,
    ct: bytes,
    to: int,
    others: Sequence[int],
) -> Handover:
    """This seat's hand-over of ``token`` to ``to``; ``others``: the active seats but this one and ``to``."""
    me = ctx.need_me()
    s = mask(me, ctx.game_id, token, ct, to)
    c1, c2 = ct[: g.POINT_BYTES], ct[g.POINT_BYTES :]
    new = g.rerandomise(c1, c2, s, joint)
    masks = tuple(g.mul(s, public[i]) for i in others)
    bases = [g.G, joint, *(public[i] for i in others)]
    images = [g.base(s), g.mul(s, joint), *masks]
    proof_ctx = context(ctx.game_id, me.seat, token, ct, new, to)
    e, z = g.same_log_prove(proof_ctx, s, bases, images, me.seed)
    new_c1 = new[: g.POINT_BYTES]
    d = g.mul(me.x, new_c1)
    se, sz = g.dleq_prove(
        share_context(ctx.game_id, me.seat, token, new, to), me.x, me.public, new_c1, d, me.seed
    )
    return Handover(token, to, new, masks, e, z, ShareProof(token, d, se, sz, to))


def verify(
    ctx: Context,
    public: dict[int, bytes],
    joint: bytes,
    seat: int,
    h: Handover,
    ct: bytes,
    others: Sequence[int],
) -> None:
    """Refuse seat ``seat``'s hand-over ``h`` of a token whose ciphertext is ``ct`` unless every part
    of it holds; ``others``: the active seats but ``seat`` and ``h.to``."""

    def refuse(why: str) -> RemoteProtocolError:
        return RemoteProtocolError(f"the hand-over of token {h.token} {why}", seat=seat)

    if len(h.masks) != len(others):
        raise refuse(f"has {len(h.masks)} masks; it needs one for each of seats {list(others)}")
    new_c1, new_c2 = h.ciphertext[: g.POINT_BYTES], h.ciphertext[g.POINT_BYTES :]
    try:
        images = [g.sub(new_c1, ct[: g.POINT_BYTES]), g.sub(new_c2, ct[g.POINT_BYTES :]), *h.masks]
    except g.GroupError:  # a half that is no point, or a ciphertext not changed at all
        raise refuse("does not give a new ciphertext") from None
    bases = [g.G, joint, *(public[i] for i in others)]
    proof_ctx = context(ctx.game_id, seat, h.token, ct, h.ciphertext, h.to)
    parts = (proof_ctx, *bases, *images, h.challenge, h.response)
    if not check(
        ctx.checked, "handover", parts, g.same_log_verify, proof_ctx, bases, images, h.challenge, h.response
    ):
        raise refuse("is not proven to hold the same card (its proof does not verify)")
    sp = h.share
    share_ctx = share_context(ctx.game_id, seat, h.token, h.ciphertext, h.to)
    parts = (share_ctx, public[seat], new_c1, sp.share, sp.challenge, sp.response)
    if not check(ctx.checked, "dleq", parts, g.dleq_verify, *parts):
        raise refuse("carries a share of the new ciphertext whose proof does not verify")
