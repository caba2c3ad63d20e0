"""Every kind of cheating is caught and blamed on the right seat, for the right reason.

A message refused on arrival leaves every receiving seat's state unchanged, and the
honest message still goes through afterwards.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

import pytest

from fairdeal.core.dealer import Reveal
from fairdeal.core.deck import (
    CryptoDealer,
    FinalReveal,
    KeyShare,
    Leave,
    RandomReveal,
    ShareProof,
    Shares,
    ShufflePass,
)
from fairdeal.core.deck import _group as g
from fairdeal.core.deck import _shuffle_proof as sp
from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError
from fairdeal.core.rng import SeededRng

GAME = b"test-game"
ONE = (1).to_bytes(32, "big")
#: Encodings that are no point: x with no y on the curve (x = 5: 5³ + 7 is no square mod p),
#: x at or above p (p + 1; x = 1 is on the curve), the identity's SEC1 encoding padded to
#: 33 bytes, and a valid x with the uncompressed prefix.
NOT_ON_CURVE = b"\x02" + (5).to_bytes(32, "big")
NON_CANONICAL = b"\x02" + (2**256 - 2**32 - 977 + 1).to_bytes(32, "big")
IDENTITY = bytes(33)
WRONG_PREFIX = b"\x04" + g.G[1:]


def rand_scalar() -> bytes:
    s = g.scalar_from_bytes_or_none(os.urandom(64))
    assert s is not None
    return s


def started(kit: Any, players: int = 3, size: int = 32, seed: int = 7) -> tuple[Any, list[int]]:
    t = kit.Table(players, seed)
    t.all(lambda s: s.start(kit.deck_of(size)))
    return t, []


def dealt(kit: Any, players: int = 3) -> tuple[Any, list[int]]:
    """A started game where the last seat's shares for two private cards to seat 0 are due."""
    t = kit.Table(players, seed=7)
    tokens = t.start(kit.deck_of(32))
    t.all(lambda s: s.request([Reveal(tokens[-1], 0), Reveal(tokens[-2], 0)]))
    return t, tokens


def refused_pass(t: Any, cheat: ShufflePass, seat: int, rnd: int = 0) -> None:
    """``cheat`` is refused by every other seat for its proof, naming the seat and the pass."""
    k = len(t.seats[0]._deck.current().passes)
    t.refused_everywhere(cheat, seat, f"the proof of shuffle pass {k} of round {rnd} does not verify")


def forged_pass(t: Any, seat: int, perm: Any, scalars: Any) -> ShufflePass:
    """Seat ``seat``'s pass for any map of inputs to outputs, with a proof made of that very map.

    The prover's algebra runs on the map itself (its own check, that it is a permutation,
    bypassed): the strongest proof a cheat can make for it.
    """
    deck = t.seats[seat]._deck
    rnd = deck.current()
    k = len(rnd.passes)
    joint = t.seats[seat]._keys.joint
    inputs = deck._input(rnd, k)
    outputs = deck.apply(rnd, k, perm, scalars, joint)
    ctx = sp.proof_context(GAME, seat, rnd.index, k)
    s_int = [int.from_bytes(x, "big") for x in scalars]
    proof = sp._prove(ctx, joint, inputs, outputs, list(perm), s_int, g.frame(b"test", b"forger"), 0)
    assert proof is not None
    return ShufflePass(seat, rnd.index, tuple(outputs), proof)


# ---- shuffle cheating: refused at the pass itself ------------------------------------------------


def test_a_stacked_deck_is_refused_at_its_pass(kit: Any) -> None:
    """A pass that puts one card twice (and drops another), with the best proof it can make."""
    t, _ = started(kit)
    t.pump_until_turn(1)
    seat = t.seats[1]
    perm, scalars, _ = seat._deck.secrets(seat.ctx.need_me(), seat._deck.current(), 1)
    stacked = (perm[1], *perm[1:])  # duplicates one card, drops another
    refused_pass(t, forged_pass(t, 1, stacked, scalars), 1)
    # the same forger, given a real permutation, makes a pass every seat accepts
    t.send(forged_pass(t, 1, perm, scalars))
    t.pump()
    assert sorted(t.oracle().values()) == sorted(kit.deck_of(32))


def test_substituted_card_is_refused(kit: Any) -> None:
    t, _ = started(kit)
    t.pump_until_turn(1)
    honest = t.seats[1].shuffle_message()
    deck = list(honest.deck)
    m = g.card_point(GAME, kit.deck_of(32)[0].name)  # a second copy of a card in the deck
    deck[4] = g.encrypt(m, rand_scalar(), t.seats[1]._keys.joint)
    refused_pass(t, replace(honest, deck=tuple(deck)), 1)
    t.send(honest)
    t.pump()
    assert sorted(t.oracle().values()) == sorted(kit.deck_of(32))


def test_duplicated_card_is_refused(kit: Any) -> None:
    t, _ = started(kit, players=2)
    t.pump_until_turn(1)
    honest = t.seats[1].shuffle_message()
    deck = list(honest.deck)
    deck[7] = deck[3]
    refused_pass(t, replace(honest, deck=tuple(deck)), 1)


def test_card_outside_the_deck_is_refused(kit: Any) -> None:
    t, _ = started(kit)
    t.pump_until_turn(2)
    honest = t.seats[2].shuffle_message()
    deck = list(honest.deck)
    deck[5] = g.encrypt(g.card_point(GAME, "KS#1"), rand_scalar(), t.seats[2]._keys.joint)
    refused_pass(t, replace(honest, deck=tuple(deck)), 2)


def test_first_pass_that_swaps_or_shows_cards_is_refused(kit: Any) -> None:
    """Pass 0 starts from the cards themselves: its proof covers every card's place and disguise."""
    t, _ = started(kit)
    honest = t.seats[0].shuffle_message()
    deck = list(honest.deck)
    refused_pass(t, replace(honest, deck=(deck[1], deck[0], *deck[2:])), 0)
    clear = deck[0][:33] + g.card_point(GAME, "AS#0")
    refused_pass(t, replace(honest, deck=(clear, *deck[1:])), 0)
    t.send(honest)


def test_cheat_in_a_reshuffle_round_is_named_with_its_round(kit: Any) -> None:
    t = kit.Table(3, seed=9)
    tokens = t.start(kit.deck_of(32))
    t.all(lambda s: s.reshuffle(tokens[:10], {}))
    t.pump_until_turn(1)
    honest = t.seats[1].shuffle_message()
    refused_pass(t, replace(honest, deck=(honest.deck[1], honest.deck[0], *honest.deck[2:])), 1, rnd=1)
    t.send(honest)
    t.pump()
    assert len(t.seats[0].round_tokens()) == 10


def test_a_proof_moved_to_another_seat_or_pass_is_refused(kit: Any) -> None:
    t = kit.Table(3, seed=9)
    tokens = t.start(kit.deck_of(32))
    t.all(lambda s: s.reshuffle(tokens[:10], {}))
    t.pump_until_turn(1)
    honest = t.seats[1].shuffle_message()
    t.send(honest)
    # seat 1's pass again, as seat 2's: its proof is bound to seat 1 and pass 1
    refused_pass(t, replace(honest, seat=2), 2, rnd=1)
    # seat 2's own deck with seat 1's proof
    refused_pass(t, replace(t.seats[2].shuffle_message(), proof=honest.proof), 2, rnd=1)
    t.pump()


@pytest.mark.parametrize(
    "bad",
    [NOT_ON_CURVE, NON_CANONICAL, IDENTITY, WRONG_PREFIX, g.card_point(GAME, "AS#0")[:32] + b"\x00"],
    ids=["not-on-curve", "x-not-below-p", "identity", "wrong-prefix", "garbled"],
)
def test_invalid_point_in_a_pass_is_refused(kit: Any, bad: bytes) -> None:
    t, _ = started(kit)
    t.pump_until_turn(1)
    honest = t.seats[1].shuffle_message()
    for half in (0, 1):
        deck = list(honest.deck)
        deck[3] = bad + deck[3][33:] if half == 0 else deck[3][:33] + bad
        refused_pass(t, replace(honest, deck=tuple(deck)), 1)
    for field in ("commitments", "chain"):
        points = list(getattr(honest.proof, field))
        points[2] = bad
        refused_pass(t, replace(honest, proof=replace(honest.proof, **{field: tuple(points)})), 1)
    t.send(honest)


def test_pass_out_of_turn_wrong_round_wrong_size_replayed(kit: Any) -> None:
    t, _ = started(kit)
    early = t.seats[1].copy()
    t.pump_until_turn(1)
    honest = t.seats[1].shuffle_message()
    with pytest.raises(LocalProtocolError):
        early.shuffle_message()  # not its turn yet: it cannot even build one
    t.refused_everywhere(replace(honest, seat=2), 2, "out of turn")
    t.refused_everywhere(replace(honest, round=1), 1, "round 1")
    t.refused_everywhere(replace(honest, deck=honest.deck[:-1]), 1, "31 cards", direct=True)
    t.refused_everywhere(replace(honest, deck=honest.deck[:-1]), 1, "list of 31 items")  # its proof is of 32
    short = list(honest.deck)
    short[0] = short[0][:63]
    t.refused_everywhere(replace(honest, deck=tuple(short)), 1, "66 bytes")
    t.refused_everywhere(replace(honest, deck=tuple(short)), 1, "does not verify", direct=True)
    t.send(honest)
    t.refused_everywhere(honest, 1, "out of turn")  # replayed
    t.pump()
    t.refused_everywhere(honest, 1, "nothing is owed")


# ---- keys ---------------------------------------------------------------------------------------------


def test_rogue_key_and_bad_proofs_are_refused(kit: Any) -> None:
    t = kit.Table(3, seed=1, keys=False)
    k0 = t.seats[0].key_message()
    t.send(k0)
    honest = t.seats[1].key_message()
    # rogue key H1 = r·G - H0 (so the joint key would be r·G), with no way to prove it
    rogue = g.sub(g.base(rand_scalar()), k0.public)
    t.refused_everywhere(replace(honest, public=rogue), 1, "proof of knowledge")
    t.refused_everywhere(KeyShare(1, k0.public, k0.challenge, k0.response), 1, "proof of knowledge")
    t.refused_everywhere(replace(honest, response=g.sc_add(honest.response, ONE)), 1, "proof")
    for bad in (NOT_ON_CURVE, NON_CANONICAL, IDENTITY, WRONG_PREFIX):
        t.refused_everywhere(replace(honest, public=bad), 1, "not a valid group element")
    # a proof made for another game does not transfer
    other = kit.Table(3, seed=1, game_id=b"other-game", keys=False).seats[1].key_message()
    t.refused_everywhere(other, 1, "proof of knowledge")
    t.refused_everywhere(k0, 0, "out of turn: waiting on seat 1 and seat 2 for public key")  # replayed
    with pytest.raises(LocalProtocolError):
        t.seats[0].start(kit.deck_of(32))  # not every key yet
    t.send(honest)
    t.pump()
    assert t.seats[2].next_sender() is None and len(t.seats[2].public_keys()) == 3


def test_message_before_keys_is_refused(kit: Any) -> None:
    t = kit.Table(2, seed=1, keys=False)
    msg = Shares(1, (ShareProof(0, g.G, ONE, ONE),))
    with pytest.raises(RemoteProtocolError) as info:
        t.seats[0].receive(msg)
    assert info.value.seat == 1 and "public key" in info.value.reason


# ---- shares -----------------------------------------------------------------------------------------


def test_forged_share_and_bad_proof_are_refused(kit: Any) -> None:
    t, tokens = dealt(kit)
    first = t.seats[1].shares_message()
    t.send(first)
    t.refused_everywhere(first, 1, "out of turn: waiting on seat 2")  # twice
    honest = t.seats[2].shares_message()
    a, b = honest.shares
    forged = replace(a, share=g.add(a.share, g.base(ONE)))
    t.refused_everywhere(replace(honest, shares=(forged, b)), 2, "does not verify")
    t.refused_everywhere(replace(honest, shares=(a, replace(b, response=a.response))), 2, "does not verify")
    for bad in (NOT_ON_CURVE, NON_CANONICAL, IDENTITY, WRONG_PREFIX):
        t.refused_everywhere(replace(honest, shares=(a, replace(b, share=bad))), 2, "valid group element")
    # a share of another token relabelled (wrong ciphertext)
    t.refused_everywhere(replace(honest, shares=(replace(a, token=b.token),)), 2, "does not verify")
    # a proof made for another seat's key
    t2, _ = dealt(kit)
    t2.refused_everywhere(replace(t2.seats[2].shares_message(), seat=1), 1, "does not verify")
    t.refused_everywhere(replace(honest, shares=()), 2, "no share and no hand-over")
    t.refused_everywhere(replace(honest, shares=()), 2, "empty", direct=True)
    t.refused_everywhere(replace(honest, shares=(a, a)), 2, "twice")
    t.refused_everywhere(replace(honest, shares=(a, a)), 2, "twice", direct=True)
    t.send(honest)
    t.refused_everywhere(honest, 2, "nothing is owed")  # replayed
    t.pump()
    assert t.seats[0].card(tokens[-1]) is not None


def test_share_nobody_asked_for_is_refused(kit: Any) -> None:
    t, tokens = dealt(kit)
    stock = tokens[0]
    # a well-formed share with a valid proof, for a card seat 1 has no right to open
    rogue = t.seats[1].copy()
    rogue.request([Reveal(stock)])
    t.refused_everywhere(rogue.shares_message([stock]), 1, f"token {stock} is not owed")
    # its own private card: the owner never owes a share for it
    rogue = t.seats[0].copy()
    rogue.request([Reveal(tokens[-1])])
    t.refused_everywhere(rogue.shares_message([tokens[-1]]), 0, "out of turn")
    t.refused_everywhere(
        Shares(1, (ShareProof(999, g.G, ONE, ONE),)),
        1,
        "token 999, which is no card of the game",
    )
    t.pump()
    with pytest.raises(LocalProtocolError):
        t.seats[1].shares_message([stock])


def test_shares_for_part_of_a_batch(kit: Any) -> None:
    t, tokens = dealt(kit)
    one = t.seats[1].shares_message([tokens[-2]])
    assert [s.token for s in one.shares] == [tokens[-2]]
    t.send(one)
    assert (1, "shares for 1 card") in t.seats[0].waiting_on()
    t.pump()
    assert t.seats[0].card(tokens[-2]) is not None


def test_refused_batch_changes_nothing_then_good_batch_passes(kit: Any) -> None:
    t, _ = dealt(kit)
    t.pump_until_turn(1)
    honest = t.seats[1].shares_message()
    a, b = honest.shares
    bad = replace(honest, shares=(a, replace(b, challenge=a.challenge)))
    t.refused_everywhere(bad, 1, f"token {b.token}")
    t.send(honest)
    assert all((1, "shares") not in w for w in t.seats[0].waiting_on())


# ---- random choices ------------------------------------------------------------------------------------


def test_random_commit_reveal_order_and_replays(kit: Any) -> None:
    t = kit.Table(3, seed=2)
    t.all(lambda s: s.begin_random(52))
    c0 = t.seats[0].random_commit_message()
    t.send(c0)
    t.refused_everywhere(c0, 0, "out of turn")  # replayed
    t.refused_everywhere(replace(t.seats[1].random_commit_message(), index=1), 1, "not in progress")
    early = RandomReveal(0, 0, t.seats[0]._random.value(t.seats[0].ctx.need_me(), 0))
    t.refused_everywhere(early, 0, "out of turn")
    early = RandomReveal(1, 0, t.seats[1]._random.value(t.seats[1].ctx.need_me(), 0))
    t.refused_everywhere(early, 1, "out of turn: waiting on seat 1 and seat 2 for commitment")
    t.pump_until_turn(0)
    assert t.seats[0].waiting_on() == [(s, "reveal of random choice 0") for s in range(3)]
    honest = t.seats[0].random_reveal_message()
    t.refused_everywhere(replace(honest, value=bytes(32)), 0, "does not match its commitment")
    t.send(honest)
    t.refused_everywhere(honest, 0, "out of turn")  # replayed
    t.pump()
    t.refused_everywhere(honest, 0, "nothing is owed")


# ---- leaving -----------------------------------------------------------------------------------------------


def test_bad_leave_secret_is_refused(kit: Any) -> None:
    t, _ = started(kit)
    t.pump()
    t.all(lambda s: s.begin_leave(1))
    honest = t.seats[1].leave_message()
    t.refused_everywhere(replace(honest, secret=rand_scalar()), 1, "does not match the seat's public key")
    t.refused_everywhere(replace(honest, secret=bytes(32)), 1, "does not match")
    t.refused_everywhere(replace(honest, secret=g.L.to_bytes(32, "big")), 1, "canonical")
    t.send(honest)
    t.refused_everywhere(honest, 1, "has left")
    assert t.seats[0].left_seats() == [1]


def test_secrets_never_show(kit: Any) -> None:
    t, _ = started(kit, players=2)
    t.pump()
    t.all(lambda s: s.begin_leave(1))
    seat = t.seats[1]
    me = seat.ctx.need_me()
    _, scalars, seed = seat._deck.secrets(me, seat._deck.rounds[0], 1)
    secrets = [me.x.hex(), me.seed.hex(), seed.hex()] + [s.hex() for s in scalars[:3]]
    bad = Leave(1, rand_scalar())
    with pytest.raises(RemoteProtocolError) as info:
        t.seats[0].receive(bad)
    texts = [
        repr(seat),
        repr(me),
        repr(seat.ctx),
        str(seat.verdict()),
        str(info.value),
        repr(info.value),
    ]
    for text in texts:
        assert not any(s in text for s in secrets)
        assert not any(s[:16] in text for s in secrets)


def test_crypto_dealer_refuses_a_cheating_pass() -> None:
    d = CryptoDealer(3, GAME, SeededRng(4))
    real = d.deliver

    def tamper(msg: Any) -> None:
        if isinstance(msg, ShufflePass) and msg.seat == 0:
            msg = replace(msg, deck=(msg.deck[0], *msg.deck[:-1]))
        real(msg)

    d.deliver = tamper  # type: ignore[method-assign]
    from fairdeal.core.cards import ecarte_32

    with pytest.raises(RemoteProtocolError) as info:
        d.start(ecarte_32())
    assert info.value.seat == 0 and "shuffle pass 0 of round 0 does not verify" in info.value.reason


# ---- the final reveal ----------------------------------------------------------------------------------


def test_the_final_reveal_is_owed_only_once_the_game_is_over(kit: Any) -> None:
    t, tokens = dealt(kit)
    t.pump()
    # what seat 0's final reveal would be, built on a copy that began it on its own
    early = t.seats[0].copy()
    early.begin_final_reveal()
    msg = early.final_reveal_message()
    assert [sp.token for sp in msg.shares] == sorted(tokens[-2:])
    t.refused_everywhere(msg, 0, "deck.final-reveal when nothing is owed")
    t.all(lambda s: s.request([Reveal(tokens[0], 1)]))
    t.refused_everywhere(msg, 0, "deck.final-reveal out of turn: waiting on seat 0 and seat 2 for shares")
    t.pump()
    t.all(lambda s: s.begin_final_reveal())
    # only seat 0 (cards 30, 31) and seat 1 (card 0) saw cards alone; seat 2 owes nothing
    assert t.seats[2].waiting_on() == [(0, "final reveal of 2 cards"), (1, "final reveal of 1 card")]
    second = t.seats[1].final_reveal_message()
    t.send(second)  # the holders open their cards in any order
    t.refused_everywhere(second, 1, "out of turn: waiting on seat 0")
    t.send(msg)
    t.pump()
    assert all(s.verdict() is not None for s in t.seats)


def test_a_bad_final_reveal_is_refused(kit: Any) -> None:
    t, tokens = dealt(kit)
    t.pump()
    t.all(lambda s: s.begin_final_reveal())
    honest = t.seats[0].final_reveal_message()
    a, b = honest.shares
    t.refused_everywhere(replace(honest, shares=(replace(a, share=b.share), b)), 0, "does not verify")
    t.refused_everywhere(replace(honest, shares=(replace(a, to=0), b)), 0, "but the final reveal is public")
    # a card nobody saw is not opened: it would take every seat's share
    rogue = t.seats[0].copy()
    rogue._reveals.owed[(tokens[0], 0)] = (None,)
    stock = replace(honest, shares=(*rogue._reveals.build(rogue._deck, rogue._keys, [tokens[0]])[0],))
    t.refused_everywhere(stock, 0, f"share for token {tokens[0]} is not owed")
    t.refused_everywhere(Shares(0, honest.shares), 0, "deck.shares out of turn")
    t.refused_everywhere(FinalReveal(1, honest.shares), 1, "out of turn")
    t.send(replace(honest, shares=(b,)))  # a part of it is fine; the rest is still owed
    assert t.seats[1].waiting_on() == [(0, "final reveal of 1 card")]
    t.send(replace(honest, shares=(a,)))
    v = t.seats[1].verdict()
    assert v is not None and v.fair
    assert t.seats[1].revealed_cards() == {tok: t.seats[0].card(tok) for tok in tokens[-2:]}


# ---- what an entry says about itself must be what is owed --------------------------------------------------


def test_a_share_must_name_the_purpose_it_is_owed_for(kit: Any) -> None:
    t, _ = dealt(kit)  # private cards to seat 0: shares "to seat 0"
    honest = t.seats[1].shares_message()
    assert {sp.to for sp in honest.shares} == {0}
    for to in (None, 2):
        lie = replace(honest, shares=tuple(replace(sp, to=to) for sp in honest.shares))
        t.refused_everywhere(lie, 1, "but it is owed to seat 0")
    t.send(honest)


def test_a_random_commitment_must_name_the_range_of_the_choice(kit: Any) -> None:
    t = kit.Table(2, seed=2)
    t.all(lambda s: s.begin_random(52))
    honest = t.seats[0].random_commit_message()
    assert honest.n == 52
    t.refused_everywhere(replace(honest, n=51), 0, "range(51), not range(52)")
    t.send(honest)


def test_a_card_asked_for_twice_is_opened_in_the_order_asked(kit: Any) -> None:
    """Seat 1 sees a card, then it goes face up: each seat's shares come for the first purpose first."""
    t, tokens = dealt(kit)
    t.pump()
    card = tokens[0]
    t.all(lambda s: s.request([Reveal(card, 1)]))
    t.all(lambda s: s.request([Reveal(card, None)]))
    owing = t.seats[0].next_sender()
    assert owing is not None
    ahead = t.seats[owing].copy()
    ahead._reveals.owed[(card, owing)] = (None,)  # its public share, built before the private one
    public_first = replace(t.seats[owing].due_message(), shares=tuple(
        ahead._reveals.build(ahead._deck, ahead._keys, [card])[0]))  # fmt: skip
    t.refused_everywhere(public_first, owing, f"share for token {card} is for", "but it is owed")
    t.pump()
    assert all(s.card(card) is not None for s in t.seats)


def test_a_card_is_revealed_only_to_a_seat_of_the_table(kit: Any) -> None:
    from fairdeal.core.errors import LocalProtocolError

    t, tokens = dealt(kit)
    for to in (-1, 3):
        with pytest.raises(LocalProtocolError):
            t.seats[0].request([Reveal(tokens[0], to)])
    t.seats[0].request([Reveal(tokens[0], 2)])  # the last seat
