"""Obligations, ordering, local misuse and copies of a DeckSeat."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from fairdeal.core.cards import ecarte_32
from fairdeal.core.dealer import Reveal
from fairdeal.core.deck import DeckSeat, Shares, ShufflePass
from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError
from fairdeal.core.rng import SeededRng


def test_waiting_on_and_next_sender_through_a_game(kit: Any) -> None:
    t = kit.Table(3, seed=1, keys=False)
    view = t.seats[0]
    assert view.waiting_on() == [(0, "public key"), (1, "public key"), (2, "public key")]
    assert [o.seat for o in view.acceptable()] == [0, 1, 2]  # keys come in any order
    t.send(t.seats[1].key_message())
    t.refused_everywhere(t.seats[1].key_message(), 1, "out of turn: waiting on seat 0 and seat 2")
    assert view.next_sender() == 0 and len(view.waiting_on()) == 2
    t.pump()
    assert view.waiting_on() == [] and view.next_sender() is None
    t.all(lambda s: s.start(ecarte_32()))
    assert view.waiting_on() == [(s, "shuffle pass of round 0") for s in range(3)]
    t.send(t.seats[0].shuffle_message())
    assert view.waiting_on() == [(1, "shuffle pass of round 0"), (2, "shuffle pass of round 0")]
    assert t.seats[2].due_message() is None  # passes go strictly in seat order
    t.pump()
    assert view.round_tokens() == list(range(32))
    t.all(lambda s: s.request([Reveal(tok, 1) for tok in range(5)]))
    assert view.waiting_on() == [(0, "shares for 5 cards"), (2, "shares for 5 cards")]
    assert [o.seat for o in view.acceptable()] == [0, 2]  # the shares of one reveal, at once
    t.pump()
    t.all(lambda s: s.begin_random(4))
    assert view.waiting_on() == [(s, "commitment to random choice 0") for s in range(3)]
    assert len(view.acceptable()) == 3
    for seat in (2, 0, 1):
        t.send(t.seats[seat].random_commit_message())
    assert [o.seat for o in view.acceptable()] == [0, 1, 2]  # then every reveal, at once
    t.pump()
    assert view.waiting_on() == []


def test_local_misuse_is_refused(kit: Any) -> None:
    with pytest.raises(LocalProtocolError):
        DeckSeat(b"g", 0, 1, SeededRng(0))
    with pytest.raises(LocalProtocolError):
        DeckSeat(b"g", 11, 11, SeededRng(0))
    with pytest.raises(LocalProtocolError):
        DeckSeat(b"", 0, 2, SeededRng(0))
    t = kit.Table(2, seed=1)
    s = t.seats[0]
    with pytest.raises(LocalProtocolError):
        s.round_tokens()
    with pytest.raises(LocalProtocolError):
        s.reshuffle([0], {})
    with pytest.raises(LocalProtocolError):
        s.start(list(ecarte_32()) * 2)  # duplicate cards
    with pytest.raises(LocalProtocolError):
        s.start([])
    tokens = t.start(ecarte_32())
    with pytest.raises(LocalProtocolError):
        s.start(ecarte_32())
    with pytest.raises(LocalProtocolError):
        s.request([Reveal(99)])
    with pytest.raises(LocalProtocolError):
        s.request([Reveal(0, 5)])
    with pytest.raises(LocalProtocolError):
        s.shares_message()
    with pytest.raises(LocalProtocolError):
        s.random_commit_message()
    with pytest.raises(LocalProtocolError):
        s.begin_random(0)
    with pytest.raises(LocalProtocolError):
        s.reshuffle([tokens[0], tokens[0]], {})
    with pytest.raises(LocalProtocolError):
        s.reshuffle([tokens[0]], {tokens[1]: ecarte_32()[0]})
    with pytest.raises(LocalProtocolError):  # not known here as a face-up card
        s.reshuffle([tokens[0]], {tokens[0]: ecarte_32()[0]})
    t.all(lambda x: x.request([Reveal(tokens[0])]))
    with pytest.raises(LocalProtocolError):  # shares are still owed for it
        s.reshuffle([tokens[0]], {})
    t.pump()
    wrong = next(c for c in ecarte_32() if c != s.card(tokens[0]))
    with pytest.raises(LocalProtocolError):
        s.reshuffle([tokens[0]], {tokens[0]: wrong})
    t.all(lambda x: x.begin_random(3))
    with pytest.raises(LocalProtocolError):
        s.reshuffle([tokens[1]], {})
    with pytest.raises(LocalProtocolError):
        s.final_reveal_message()
    with pytest.raises(LocalProtocolError):
        s.random_reveal_message()  # not every seat has committed


def test_copy_is_independent_and_messages_are_pure(kit: Any) -> None:
    t = kit.Table(2, seed=3)
    t.all(lambda s: s.start(ecarte_32()))
    s0 = t.seats[0]
    first = s0.shuffle_message()
    assert s0.shuffle_message() == first  # building a message changes nothing
    trial = s0.copy()
    trial.receive(kit.wire(first))
    assert trial.waiting_on() == [(1, "shuffle pass of round 0")]
    assert s0.waiting_on() == [(0, "shuffle pass of round 0"), (1, "shuffle pass of round 0")]
    t.pump()
    t.all(lambda s: s.request([Reveal(0, 0), Reveal(1)]))
    t.send(t.seats[0].shares_message())  # seat 0 first: its share of card 1
    trial = t.seats[1].copy()
    msg = t.seats[1].shares_message()
    trial.receive(msg)
    assert trial.owed_shares() == [] and t.seats[1].owed_shares() == [0, 1]
    t.pump()
    assert t.seats[0].card(0) is not None and t.seats[1].card(0) is None


def test_own_messages_are_applied_without_checks_but_must_be_its_own(kit: Any) -> None:
    t = kit.Table(2, seed=3, keys=False)
    k1 = t.seats[1].key_message()
    with pytest.raises(RemoteProtocolError) as info:
        t.seats[0].receive(replace(k1, seat=0))
    assert info.value.seat == 0


def test_one_shares_message_per_seat_per_batch(kit: Any) -> None:
    t = kit.Table(3, seed=4)
    tokens = t.start(ecarte_32())
    t.all(lambda s: s.request([Reveal(tok, tok % 3) for tok in tokens[:9]] + [Reveal(tokens[9])]))
    before = len(t.sent)
    t.pump()
    sent = t.sent[before:]
    assert [type(m) for m in sent] == [Shares, Shares, Shares]
    assert sorted(len(m.shares) for m in sent if isinstance(m, Shares)) == [7, 7, 7]
    assert not any(isinstance(m, ShufflePass) for m in sent)


def test_an_observer_checks_everything_and_learns_every_card_seen(kit: Any) -> None:
    t = kit.Table(3, seed=12, keys=False)
    watcher = DeckSeat.observer(t.game_id, 3)
    t.observers.append(watcher)
    assert watcher.seat is None and "seat=None" in repr(watcher)
    t.pump()
    tokens = t.start(ecarte_32())
    t.all(lambda s: s.request([Reveal(tokens[-1], 0), Reveal(tokens[-2], 1), Reveal(tokens[0])]))
    t.pump_until_turn(1)
    honest = t.seats[1].shares_message()
    forged = replace(honest.shares[0], share=honest.shares[1].share)
    t.refused_everywhere(replace(honest, shares=(forged, *honest.shares[1:])), 1, "does not verify")
    t.pump()
    assert watcher.card(tokens[0]) == t.seats[2].card(tokens[0]) is not None
    assert watcher.card(tokens[-1]) is None and watcher.card(tokens[-2]) is None
    assert watcher.waiting_on() == t.seats[0].waiting_on() == []
    builders = (
        watcher.key_message,
        watcher.shares_message,
        watcher.final_reveal_message,
        watcher.leave_message,
    )
    for build in builders:
        with pytest.raises(LocalProtocolError):
            build()
    assert watcher.revealed_cards() == {tokens[0]: t.seats[2].card(tokens[0])}
    t.final_reveal()
    v = watcher.verdict()
    assert v is not None and v.fair
    known = watcher.revealed_cards()
    assert known == t.seats[0].revealed_cards() == t.seats[1].revealed_cards()
    # the private cards are open to all now; the stock, which nobody saw, stays closed
    assert known[tokens[-1]] == t.seats[0].card(tokens[-1]) and known[tokens[-2]] == t.seats[1].card(
        tokens[-2]
    )
    assert set(known) == {tokens[0], tokens[-1], tokens[-2]}


def test_what_the_rules_may_ask_of_the_deck_and_no_more(kit: Any) -> None:
    """The local rules' requests at their edges: a deck of 1 card up to the limit, distinct cards,
    reshuffles of live distinct tokens, random choices among 1 to 2**63 - 1."""
    from fairdeal.core.cards import standard_52
    from fairdeal.core.deck._limits import MAX_CHOICE
    from fairdeal.core.errors import LocalProtocolError

    one = kit.Table(2, seed=4)
    assert len(one.start([standard_52()[0]])) == 1
    for deck in ([], [standard_52()[0]] * 2):
        with pytest.raises(LocalProtocolError):
            kit.Table(2, seed=4).seats[0].start(deck)
    t = kit.Table(2, seed=5)
    tokens = t.start(kit.deck_of(32))
    seat = t.seats[0]
    for bad in ([], [tokens[0], tokens[0]], [max(tokens) + 1]):
        with pytest.raises(LocalProtocolError):
            seat.copy().reshuffle(bad, {})
    t.all(lambda s: s.reshuffle([tokens[0]], {}))  # one card is a deck too
    t.pump()
    with pytest.raises(LocalProtocolError, match="no live card token"):
        seat.copy().reshuffle([tokens[0]], {})  # that token died in the reshuffle
    for n in (0, MAX_CHOICE):
        with pytest.raises(LocalProtocolError):
            seat.copy().begin_random(n)
    assert seat.random_result() is None  # no choice made yet
    t.all(lambda s: s.begin_random(1))
    t.pump()
    assert all(s.random_result() == 0 for s in t.seats)
    t.all(lambda s: s.begin_random(6))
    assert all(s.random_result() is None for s in t.seats)  # not the last one while the next runs
    t.pump()
    assert all(s.random_result() in range(6) for s in t.seats)


def test_the_deck_limit_is_inclusive(kit: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from fairdeal.core.deck import _shuffles

    monkeypatch.setattr(_shuffles, "MAX_DECK", 32)  # the real limit is 1024 cards
    t = kit.Table(2, seed=6)
    with pytest.raises(LocalProtocolError, match="1 to 32 cards"):
        t.seats[0].copy().start(kit.deck_of(33))
    tokens = t.start(kit.deck_of(32))
    t.all(lambda s: s.reshuffle(tokens, {}))
    t.pump()
    assert len(t.seats[0].round_tokens()) == 32
