"""A seat that leaves publishes its secret; the others go on without it and see nothing new."""

from __future__ import annotations

from typing import Any

import pytest

from fairdeal.core.dealer import Reveal
from fairdeal.core.deck import _group as g
from fairdeal.core.errors import LocalProtocolError


def opens_without_owner(t: Any, token: int, owner: int) -> bool:
    """Can the others open ``token`` from every public share and every published secret?"""
    view = t.seats[0]
    ct = view._cts[token]
    parts = []
    for s in range(len(t.seats)):
        if s == owner:
            continue
        if (token, s) in view._shares:
            parts.append(view._shares[(token, s)])
        elif s in view._left:
            parts.append(g.mul(view._left[s], ct[:32]))
        else:
            return False
    total = parts[0]
    for d in parts[1:]:
        total = g.add(total, d)
    return g.sub(ct[32:], total) in view._by_point


def test_game_goes_on_without_a_leaver(kit: Any) -> None:
    t = kit.Table(4, seed=21)
    deck = kit.deck_of(36)
    tokens = t.start(deck)
    truth = t.oracle()
    hands = {s: [tokens[-1 - s], tokens[-5 - s]] for s in range(4)}
    t.all(lambda s: s.request([Reveal(tok, seat) for seat, toks in hands.items() for tok in toks]))
    t.pump()
    t.send(t.seats[2].leave_message())
    assert all(s.left_seats() == [2] for s in t.seats)

    # nobody can open another active seat's hand, nor a hidden card
    for seat in (0, 1, 3):
        for tok in hands[seat]:
            assert not opens_without_owner(t, tok, seat)
            assert all(o.card(tok) is None for o in t.seats if o.seat != seat)
    assert not opens_without_owner(t, tokens[0], 0)
    assert t.seats[0].card(tokens[0]) is None

    # reveals: the leaver never owes; it can still follow the public state
    t.all(lambda s: s.request([Reveal(tokens[0]), Reveal(tokens[1], 3)]))
    assert t.seats[0].waiting_on() == [
        (0, "shares for 2 cards"),
        (1, "shares for 2 cards"),
        (3, "shares for 1 card"),
    ]
    t.pump()
    assert all(s.card(tokens[0]) == truth[tokens[0]] for s in t.seats)
    assert t.seats[3].card(tokens[1]) == truth[tokens[1]] and t.seats[0].card(tokens[1]) is None
    with pytest.raises(LocalProtocolError):
        t.seats[0].request([Reveal(tokens[2], 2)])
    with pytest.raises(LocalProtocolError):
        t.seats[2].shares_message()

    # later shuffles and random choices go on without it
    t.all(lambda s: s.reshuffle(tokens[:12], {tokens[0]: truth[tokens[0]]}))
    assert [s for s, _ in t.seats[0].waiting_on()] == [0, 1, 3]
    t.pump()
    fresh = t.seats[0].round_tokens()
    after = t.oracle()
    assert sorted(after[f] for f in fresh) == sorted(truth[o] for o in tokens[:12])
    t.all(lambda s: s.begin_random(7))
    assert [s for s, _ in t.seats[0].waiting_on()] == [0, 1, 3]
    t.pump()
    assert t.seats[1].random_result() is not None

    # the audit uses the leaver's openings from its Leave
    t.audit()
    for s in (0, 1, 3):
        v = t.seats[s].verdict()
        assert v is not None and v.fair, v
        traced = t.seats[s].traced_cards()
        assert {k: traced[k] for k in after} == after


def test_leaving_before_its_pass_and_as_the_last_passer(kit: Any) -> None:
    t = kit.Table(4, seed=5)
    tokens = t.start(kit.deck_of(32))
    t.all(lambda s: s.reshuffle(tokens[:16], {}))
    t.pump_until_turn(1)
    t.send(t.seats[1].leave_message())
    assert t.seats[0].next_sender() == 2
    t.pump_until_turn(3)
    t.send(t.seats[3].leave_message())  # the round completes without its pass
    assert t.seats[0].next_sender() is None
    fresh = t.seats[0].round_tokens()
    assert len(fresh) == 16 and set(fresh) <= set(t.oracle())
    t.audit()
    v = t.seats[0].verdict()
    assert v is not None and v.fair, v


def test_owed_private_shares_to_a_leaver_are_dropped(kit: Any) -> None:
    t = kit.Table(3, seed=8)
    tokens = t.start(kit.deck_of(32))
    t.all(lambda s: s.request([Reveal(tokens[-1], 2), Reveal(tokens[-2])]))
    t.send(t.seats[0].shares_message())  # seat 0 already shared both
    t.send(t.seats[2].leave_message())
    # seat 1 no longer owes the share that, with seat 2's secret, would open tokens[-1] to all
    assert t.seats[0].waiting_on() == [(1, "shares for 1 card")]
    t.pump()
    assert not opens_without_owner(t, tokens[-1], 1)
    truth = t.oracle()
    assert t.seats[0].card(tokens[-2]) == truth[tokens[-2]]


def test_leaving_during_a_random_choice(kit: Any) -> None:
    t = kit.Table(3, seed=8)
    t.all(lambda s: s.begin_random(1000))
    t.send(t.seats[0].random_commit_message())
    t.send(t.seats[1].random_commit_message())
    t.send(t.seats[2].random_commit_message())
    t.send(t.seats[0].random_reveal_message())
    t.send(t.seats[1].leave_message())
    assert t.seats[0].waiting_on() == [(2, "reveal of random choice 0")]
    t.pump()
    r = t.seats[0].random_result()
    assert r is not None and 0 <= r < 1000
    assert t.seats[1].random_result() == r


def test_leave_after_opening_is_refused(kit: Any) -> None:
    t = kit.Table(3, seed=8)
    t.start(kit.deck_of(32))
    t.send(t.seats[1].audit_message())
    with pytest.raises(LocalProtocolError):
        t.seats[1].leave_message()
    honest = t.seats[2].leave_message()
    t.send(honest)
    t.pump()
    v = t.seats[0].verdict()
    assert v is not None and v.fair
