"""A seat that leaves publishes its secret; the others go on without it and see nothing new."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from fairdeal.core.dealer import Reveal
from fairdeal.core.deck import Leave
from fairdeal.core.deck import _group as g
from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError


def opens_without_owner(t: Any, token: int, owner: int) -> bool:
    """Can the others open ``token`` from every public share and every published secret?"""
    view = t.seats[0]
    ct = view._deck.cts[token]
    parts = []
    for s in range(len(t.seats)):
        if s == owner:
            continue
        if (token, s) in view._reveals.shares:
            parts.append(view._reveals.shares[(token, s)])
        elif s in view._keys.left:
            parts.append(g.mul(view._keys.left[s], ct[:33]))
        else:
            return False
    total = parts[0]
    for d in parts[1:]:
        total = g.add(total, d)
    return g.sub(ct[33:], total) in view._deck.by_point


def test_game_goes_on_without_a_leaver(kit: Any) -> None:
    t = kit.Table(4, seed=21)
    deck = kit.deck_of(36)
    tokens = t.start(deck)
    truth = t.oracle()
    hands = {s: [tokens[-1 - s], tokens[-5 - s]] for s in range(4)}
    t.all(lambda s: s.request([Reveal(tok, seat) for seat, toks in hands.items() for tok in toks]))
    t.pump()
    t.leave(2)
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

    # the final reveal opens every private card: the leaver's from its secret, with no message
    before = len(t.sent)
    t.final_reveal()
    assert sorted(m.seat for m in t.sent[before:]) == [0, 1, 3]
    for s in (0, 1, 3):
        v = t.seats[s].verdict()
        assert v is not None and v.fair, v
        known = t.seats[s].revealed_cards()
        assert {k: known[k] for k in hands[2]} == {k: truth[k] for k in hands[2]}
        assert {k: known[k] for k in (*hands[0], *hands[1], *hands[3])} == {
            k: truth[k] for k in (*hands[0], *hands[1], *hands[3])
        }
        assert known[tokens[0]] == truth[tokens[0]] and known[tokens[1]] == truth[tokens[1]]


def _leave_refused_now(t: Any, seat: int) -> None:
    """Nobody's rules may take ``seat`` out now, and its Leave is refused, blaming it."""
    before = [s.waiting_on() for s in t.seats]
    for s in t.seats:
        with pytest.raises(LocalProtocolError):
            s.begin_leave(seat)
    with pytest.raises(LocalProtocolError):
        t.seats[seat].leave_message()
    forged = Leave(seat, t.seats[seat].ctx.need_me().x)
    t.refused_everywhere(forged, seat, "out of turn")
    assert [s.waiting_on() for s in t.seats] == before


def test_a_seat_cannot_leave_in_the_middle_of_a_shuffle_round(kit: Any) -> None:
    t = kit.Table(4, seed=5)
    tokens = t.start(kit.deck_of(32))
    t.all(lambda s: s.reshuffle(tokens[:16], {}))
    t.pump_until_turn(1)
    _leave_refused_now(t, 1)
    _leave_refused_now(t, 3)
    t.pump()
    t.leave(3)  # once the round is complete, the rules may take it out
    assert t.seats[0].left_seats() == [3]


def test_a_seat_cannot_leave_while_shares_are_owed(kit: Any) -> None:
    t = kit.Table(3, seed=8)
    tokens = t.start(kit.deck_of(32))
    t.all(lambda s: s.request([Reveal(tokens[-1], 2), Reveal(tokens[-2])]))
    t.send(t.seats[0].shares_message())
    _leave_refused_now(t, 2)
    t.pump()
    truth = t.oracle()
    assert t.seats[2].card(tokens[-1]) == truth[tokens[-1]]
    assert t.seats[0].card(tokens[-2]) == truth[tokens[-2]]


def test_a_seat_cannot_leave_during_a_random_choice(kit: Any) -> None:
    t = kit.Table(3, seed=8)
    t.all(lambda s: s.begin_random(1000))
    t.send(t.seats[0].random_commit_message())
    _leave_refused_now(t, 1)
    t.pump()
    r = t.seats[0].random_result()
    assert r is not None and 0 <= r < 1000


def test_no_seat_leaves_once_the_final_reveal_has_begun(kit: Any) -> None:
    t = kit.Table(3, seed=8)
    tokens = t.start(kit.deck_of(32))
    t.all(lambda s: s.request([Reveal(tokens[-1 - s], s) for s in range(3)]))
    t.pump()
    t.all(lambda s: s.begin_final_reveal())
    t.send(t.seats[0].final_reveal_message())
    _leave_refused_now(t, 1)
    t.pump()
    v = t.seats[0].verdict()
    assert v is not None and v.fair


def test_only_the_seat_the_rules_take_out_may_leave(kit: Any) -> None:
    t = kit.Table(3, seed=8)
    t.start(kit.deck_of(32))
    t.all(lambda s: s.begin_leave(1))
    assert t.seats[0].waiting_on() == [(1, "its secret as it leaves the game")]
    with pytest.raises(LocalProtocolError):
        t.seats[2].leave_message()
    t.refused_everywhere(Leave(2, t.seats[2].ctx.need_me().x), 2, "out of turn")
    t.send(t.seats[1].leave_message())
    assert t.seats[0].left_seats() == [1] and t.seats[0].waiting_on() == []


def test_the_deck_takes_only_seats_of_its_table(kit: Any) -> None:
    from fairdeal.core.deck import DeckSeat
    from fairdeal.core.deck._limits import MAX_PLAYERS
    from fairdeal.core.rng import SeededRng

    rng = SeededRng(1)
    DeckSeat(b"g", 0, 2, rng)
    DeckSeat(b"g" * 256, MAX_PLAYERS - 1, MAX_PLAYERS, rng)
    for game_id, seat, players in ((b"", 0, 2), (b"g" * 257, 0, 2), (b"g", 0, 1), (b"g", 0, MAX_PLAYERS + 1),
                                   (b"g", -1, 2), (b"g", 2, 2)):  # fmt: skip
        with pytest.raises(LocalProtocolError):
            DeckSeat(game_id, seat, players, rng)
    t = kit.Table(3, seed=2)
    honest = t.seats[1].copy()
    for s in (-1, 3, "1"):
        msg = replace(t.sent[0], seat=s)  # seat 0's key, claimed by no seat of the table
        with pytest.raises(RemoteProtocolError, match="no seat"):
            honest.receive(msg)


def test_who_may_leave_and_when_the_deck_has_its_verdict(kit: Any) -> None:
    t = kit.Table(3, seed=3)
    t.start(kit.deck_of(32))
    for seat in (-1, 3):
        with pytest.raises(LocalProtocolError, match="cannot leave"):
            t.seats[0].copy().begin_leave(seat)
    t.seats[1].copy().begin_leave(0)  # the first seat may leave like any other
    t.leave(2)
    with pytest.raises(LocalProtocolError, match="cannot leave"):
        t.seats[0].copy().begin_leave(2)  # not twice
    done = kit.Table(2, seed=4)
    tokens = done.start(kit.deck_of(32))
    done.all(lambda s: s.request([Reveal(tokens[0], 0)]))  # seat 0 sees a card alone
    done.pump()
    assert all(s.verdict() is None for s in done.seats)
    done.all(lambda s: s.begin_final_reveal())
    assert all(s.verdict() is None for s in done.seats)  # begun, not yet complete
    done.pump()
    assert all(s.verdict() is not None for s in done.seats)
