"""Every kind of cheating is caught and blamed on the right seat, for the right reason.

A message refused on arrival leaves every receiving seat's state unchanged, and the
honest message still goes through afterwards.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Any

import pytest

from fairdeal.core.dealer import Finding, Reveal
from fairdeal.core.deck import (
    CryptoDealer,
    KeyShare,
    Leave,
    Opening,
    PassOpening,
    RandomReveal,
    ShareProof,
    Shares,
    ShufflePass,
)
from fairdeal.core.deck import _group as g
from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError
from fairdeal.core.rng import SeededRng

GAME = b"test-game"
SMALL_ORDER = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
IDENTITY = (1).to_bytes(32, "little")


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


def audit_blames(t: Any, seat: int, where: str, reason: str) -> None:
    t.audit()
    for s in t.seats:
        v = s.verdict()
        assert v is not None and not v.fair
        assert v.findings[0] == Finding(seat, where, v.findings[0].reason)
        assert reason in v.findings[0].reason, v.findings[0].reason
        with pytest.raises(LocalProtocolError):
            s.traced_cards()


# ---- shuffle cheating: caught by the audit -------------------------------------------------------


def test_substituted_card_is_named_by_the_audit(kit: Any) -> None:
    t, _ = started(kit)
    t.pump_until_turn(1)
    honest = t.seats[1].shuffle_message()
    deck = list(honest.deck)
    m = g.card_point(GAME, kit.deck_of(32)[0].name)  # a second copy of a card in the deck
    deck[4] = g.encrypt(m, rand_scalar(), t.seats[1]._joint)
    t.send(replace(honest, deck=tuple(deck)))
    t.pump()
    assert sorted(t.oracle().values()) != sorted(kit.deck_of(32))
    audit_blames(t, 1, "shuffle round 0, pass 1", "1 of 32 cards are not re-encryptions")


def test_duplicated_card_is_named_by_the_audit(kit: Any) -> None:
    t, _ = started(kit, players=2)
    t.pump_until_turn(1)
    honest = t.seats[1].shuffle_message()
    deck = list(honest.deck)
    deck[7] = deck[3]
    t.send(replace(honest, deck=tuple(deck)))
    t.pump()
    audit_blames(t, 1, "shuffle round 0, pass 1", "first at deck position 7")


def test_card_outside_the_deck_is_undecodable_then_named(kit: Any) -> None:
    t, _ = started(kit)
    t.pump_until_turn(2)
    honest = t.seats[2].shuffle_message()
    deck = list(honest.deck)
    deck[5] = g.encrypt(g.card_point(GAME, "KS#1"), rand_scalar(), t.seats[2]._joint)
    t.send(replace(honest, deck=tuple(deck)))
    t.all(lambda s: s.request([Reveal(5, 0)]))
    t.pump()
    assert t.seats[0].card(5) is None and t.seats[0].undecodable() == [5]
    t.audit()
    v = t.seats[0].verdict()
    assert v is not None and not v.fair
    assert v.findings[0].seat == 2 and v.findings[0].where == "shuffle round 0, pass 2"
    assert Finding(None, "token 5", "decrypted to no card of the deck") in v.findings


def test_committed_non_permutation_is_named(kit: Any) -> None:
    t, _ = started(kit)
    t.pump_until_turn(2)
    cheat = t.seats[2]
    rnd = cheat._rounds[-1]
    perm, scalars, salt = cheat._pass_secrets(cheat._me, rnd, 2)
    perm = (perm[1], *perm[1:])  # duplicates one card, drops another
    deck = tuple(c for c in cheat._apply_pass(rnd, 2, perm, scalars) if c is not None)
    t.send(ShufflePass(2, 0, deck, cheat._commitment(2, 0, perm, scalars, salt)))
    t.all(lambda s: s.begin_audit())
    t.pump_until_turn(2)
    t.send(Opening(2, (PassOpening(0, perm, scalars, salt),)))
    t.pump()
    for s in t.seats:
        v = s.verdict()
        assert v is not None
        assert v.findings == (
            Finding(2, "shuffle round 0, pass 2", "the committed permutation duplicates or drops a card"),
        )


def test_opening_that_does_not_match_its_commitment_is_named(kit: Any) -> None:
    t, _ = started(kit, players=2)
    t.pump()
    t.all(lambda s: s.begin_audit())
    t.send(t.seats[0].audit_message())
    honest = t.seats[1].audit_message()
    op = honest.openings[0]
    t.send(replace(honest, openings=(replace(op, salt=bytes(32)),)))
    v = t.seats[0].verdict()
    assert v is not None
    assert v.findings == (Finding(1, "shuffle round 0, pass 1", "the opening does not match the commitment"),)


def test_cheat_in_a_reshuffle_round_is_named_with_its_round(kit: Any) -> None:
    t = kit.Table(3, seed=9)
    tokens = t.start(kit.deck_of(32))
    t.all(lambda s: s.reshuffle(tokens[:10], {}))
    t.pump_until_turn(1)
    honest = t.seats[1].shuffle_message()
    t.send(replace(honest, deck=(honest.deck[1], honest.deck[0], *honest.deck[2:])))
    t.pump()
    audit_blames(t, 1, "shuffle round 1, pass 1", "2 of 10 cards")


def test_opening_must_cover_exactly_the_passes_made(kit: Any) -> None:
    t, _ = started(kit, players=2)
    t.pump()
    t.all(lambda s: s.begin_audit())
    honest = t.seats[1].audit_message()
    t.refused_everywhere(honest, 1, "out of turn")  # seat 0 opens first
    t.send(t.seats[0].audit_message())
    t.refused_everywhere(replace(honest, openings=()), 1, "does not open exactly")
    op = honest.openings[0]
    short = replace(op, permutation=tuple(range(31)), scalars=op.scalars[:-1])
    t.refused_everywhere(replace(honest, openings=(short,)), 1, "does not open exactly")
    t.send(honest)
    t.refused_everywhere(honest, 1, "nothing is owed")


# ---- shuffle passes: refused on arrival ------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [SMALL_ORDER, IDENTITY, b"\xee" * 32, g.card_point(GAME, "AS#0")[:31] + b"\x00"],
    ids=["small-order", "identity", "not-on-curve", "garbled"],
)
def test_invalid_point_in_a_pass_is_refused(kit: Any, bad: bytes) -> None:
    t, _ = started(kit)
    t.pump_until_turn(1)
    honest = t.seats[1].shuffle_message()
    deck = list(honest.deck)
    deck[3] = deck[3][:32] + bad
    t.refused_everywhere(replace(honest, deck=tuple(deck)), 1, "card 3", "not a valid ciphertext")
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
    t.refused_everywhere(replace(honest, deck=honest.deck[:-1]), 1, "31 cards")
    short = list(honest.deck)
    short[0] = short[0][:63]
    t.refused_everywhere(replace(honest, deck=tuple(short)), 1, "64 bytes")
    t.refused_everywhere(replace(honest, deck=tuple(short)), 1, "card 0", direct=True)
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
    t.refused_everywhere(replace(honest, response=g.sc_add(honest.response, IDENTITY)), 1, "proof")
    t.refused_everywhere(replace(honest, public=SMALL_ORDER), 1, "not a valid group element")
    t.refused_everywhere(replace(honest, public=IDENTITY), 1, "not a valid group element")
    # a proof made for another game does not transfer
    other = kit.Table(3, seed=1, game_id=b"other-game", keys=False).seats[1].key_message()
    t.refused_everywhere(other, 1, "proof of knowledge")
    t.refused_everywhere(k0, 0, "out of turn: waiting on seat 1 for public key")  # replayed
    with pytest.raises(LocalProtocolError):
        t.seats[0].start(kit.deck_of(32))  # not every key yet
    t.send(honest)
    t.pump()
    assert t.seats[2].next_sender() is None and len(t.seats[2].public_keys()) == 3


def test_message_before_keys_is_refused(kit: Any) -> None:
    t = kit.Table(2, seed=1, keys=False)
    msg = Shares(1, (ShareProof(0, IDENTITY, IDENTITY, IDENTITY),))
    with pytest.raises(RemoteProtocolError) as info:
        t.seats[0].receive(msg)
    assert info.value.seat == 1 and "public key" in info.value.reason


# ---- shares -----------------------------------------------------------------------------------------


def test_forged_share_and_bad_proof_are_refused(kit: Any) -> None:
    t, tokens = dealt(kit)
    t.refused_everywhere(t.seats[2].shares_message(), 2, "out of turn: waiting on seat 1")
    t.send(t.seats[1].shares_message())
    honest = t.seats[2].shares_message()
    a, b = honest.shares
    forged = replace(a, share=g.add(a.share, g.base(IDENTITY)))
    t.refused_everywhere(replace(honest, shares=(forged, b)), 2, "does not verify")
    t.refused_everywhere(replace(honest, shares=(a, replace(b, response=a.response))), 2, "does not verify")
    t.refused_everywhere(replace(honest, shares=(a, replace(b, share=SMALL_ORDER))), 2, "valid group element")
    # a share of another token relabelled (wrong ciphertext)
    t.refused_everywhere(replace(honest, shares=(replace(a, token=b.token),)), 2, "does not verify")
    # a proof made for another seat's key
    t2, _ = dealt(kit)
    t2.refused_everywhere(replace(t2.seats[2].shares_message(), seat=1), 1, "does not verify")
    t.refused_everywhere(replace(honest, shares=()), 2, "list of 1 to")
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
        Shares(1, (ShareProof(999, IDENTITY, IDENTITY, IDENTITY),)), 1, "token 999, which is no live card"
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
    early = RandomReveal(0, 0, t.seats[0]._random_value(t.seats[0]._me, 0))
    t.refused_everywhere(early, 0, "out of turn")
    early = RandomReveal(1, 0, t.seats[1]._random_value(t.seats[1]._me, 0))
    t.refused_everywhere(early, 1, "out of turn: waiting on seat 1 for commitment")
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
    t.refused_everywhere(replace(honest, secret=g.L.to_bytes(32, "little")), 1, "canonical")
    t.refused_everywhere(replace(honest, openings=()), 1, "does not open exactly")
    t.send(honest)
    t.refused_everywhere(honest, 1, "has left")
    assert t.seats[0].left_seats() == [1]


def test_secrets_never_show(kit: Any) -> None:
    t, _ = started(kit, players=2)
    t.pump()
    t.all(lambda s: s.begin_leave(1))
    seat = t.seats[1]
    scalars = seat.leave_message().openings[0].scalars[:3]
    secrets = [seat._me.x.hex(), seat._me.seed.hex()] + [s.hex() for s in scalars]
    bad = Leave(1, rand_scalar(), seat.leave_message().openings)
    with pytest.raises(RemoteProtocolError) as info:
        t.seats[0].receive(bad)
    texts = [
        repr(seat),
        repr(seat._me),
        str(seat.__dict__.get("_verdict")),
        str(info.value),
        repr(info.value),
    ]
    for text in texts:
        assert not any(s in text for s in secrets)
        assert not any(s[:16] in text for s in secrets)


def test_crypto_dealer_names_a_cheat_in_its_audit() -> None:
    d = CryptoDealer(3, GAME, SeededRng(4))
    real = d.deliver

    def tamper(msg: Any) -> None:
        if isinstance(msg, ShufflePass) and msg.seat == 0:
            msg = replace(msg, deck=(msg.deck[0], *msg.deck[:-1]))
        real(msg)

    d.deliver = tamper  # type: ignore[method-assign]
    from fairdeal.core.cards import ecarte_32

    d.start(ecarte_32())
    d.deliver = real  # type: ignore[method-assign]
    v = d.audit()
    assert not v.fair and v.findings[0].seat == 0 and v.findings[0].where == "shuffle round 0, pass 0"


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
