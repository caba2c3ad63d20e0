"""Properties of the honest protocol over 2..10 seats and 32..104 cards."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fairdeal.core.dealer import Reveal
from fairdeal.core.deck import _group as g
from fairdeal.core.errors import LocalProtocolError

# Every pass is proven and checked by every other seat: a 10-seat, 104-card round is 90 checks.
SLOW = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@SLOW
@given(players=st.integers(2, 10), size=st.integers(32, 104), seed=st.integers(0, 2**32))
@example(players=2, size=104, seed=1)
@example(players=10, size=32, seed=2)
@example(players=6, size=104, seed=3)
def test_deal_reveal_reshuffle(kit: Any, players: int, size: int, seed: int) -> None:
    t = kit.Table(players, seed)
    deck = kit.deck_of(size)
    tokens = t.start(deck)
    assert tokens == list(range(size))
    truth = t.oracle()
    assert Counter(truth.values()) == Counter(deck)  # the shuffled deck is exactly the deck

    # one private card to each seat, in one batch: one message per seat
    hands = {s: tokens[-1 - s] for s in range(players)}
    t.all(lambda s: s.request([Reveal(tok, seat) for seat, tok in hands.items()]))
    sent = len(t.sent)
    t.pump()
    assert len(t.sent) - sent == players
    view = t.seats[0]
    for seat, tok in hands.items():
        assert t.seats[seat].card(tok) == truth[tok]
        assert all(o.card(tok) is None for o in t.seats if o.seat != seat)
        # every share but the owner's is public, and together they open nothing
        ct = view._deck.cts[tok]
        others = [view._reveals.shares[(tok, s)] for s in range(players) if s != seat]
        total = others[0]
        for d in others[1:]:
            total = g.add(total, d)
        assert g.sub(ct[33:], total) not in view._deck.by_point

    # public reveal of a held card (its owner's share only) and of a hidden one (every share)
    held, hidden = hands[0], tokens[0]
    t.all(lambda s: s.request([Reveal(held), Reveal(hidden)]))
    assert view.waiting_on() == [(0, "shares for 2 cards")] + [
        (s, "shares for 1 card") for s in range(1, players)
    ]
    t.pump()
    for s in t.seats:
        assert s.card(held) == truth[held] and s.card(hidden) == truth[hidden]

    # reshuffle ten cards, one of them face up
    group = tokens[:10]
    t.all(lambda s: s.reshuffle(group, {hidden: truth[hidden]}))
    t.pump()
    fresh = view.round_tokens()
    assert fresh == list(range(size, size + 10))
    after = t.oracle()
    assert Counter(after[f] for f in fresh) == Counter(truth[o] for o in group)
    assert all(s.round_tokens() == fresh for s in t.seats)
    with pytest.raises(LocalProtocolError):
        view.request([Reveal(group[1])])  # old tokens are dead


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 10), n=st.integers(1, 10**9), seed=st.integers(0, 2**32))
def test_joint_random_in_range(kit: Any, players: int, n: int, seed: int) -> None:
    t = kit.Table(players, seed)
    for _ in range(2):
        t.all(lambda s: s.begin_random(n))
        assert t.seats[0].random_result() is None
        t.pump()
        results = {s.random_result() for s in t.seats}
        assert len(results) == 1
        r = results.pop()
        assert r is not None and 0 <= r < n


def test_joint_random_is_spread(kit: Any) -> None:
    t = kit.Table(2, seed=3)
    counts: Counter[int | None] = Counter()
    for _ in range(300):
        t.all(lambda s: s.begin_random(3))
        t.pump()
        counts[t.seats[1].random_result()] += 1
    assert set(counts) == {0, 1, 2}
    assert all(60 <= c <= 140 for c in counts.values()), counts


def test_seeded_games_are_reproducible_and_games_differ(kit: Any) -> None:
    a, b, c = kit.Table(2, seed=5), kit.Table(2, seed=5), kit.Table(2, seed=6)
    for t in (a, b, c):
        t.start(kit.deck_of(32))
    assert a.oracle() == b.oracle()
    assert a.oracle() != c.oracle()


def test_the_final_reveal_opens_every_card_a_seat_saw_alone(kit: Any) -> None:
    t = kit.Table(3, seed=11)
    deck = kit.deck_of(40)
    tokens = t.start(deck)
    first = t.oracle()
    t.all(lambda s: s.request([Reveal(tokens[-1], 0), Reveal(tokens[-2], 1), Reveal(tokens[0])]))
    t.pump()
    # seat 0's private card goes back into a reshuffle, face down: it dies unseen by the others
    t.all(lambda s: s.reshuffle([*tokens[:8], tokens[-1]], {tokens[0]: first[tokens[0]]}))
    t.pump()
    t.all(lambda s: s.begin_random(10))
    t.pump()
    assert all(s.verdict() is None for s in t.seats)
    with pytest.raises(LocalProtocolError):
        t.seats[2].final_reveal_message()  # only once this seat's own rules end the game
    assert t.seats[2].final_tokens() == [tokens[-2], tokens[-1]]
    t.all(lambda s: s.begin_final_reveal())
    # each card lacks only its recipient's share; seat 2 saw nothing alone and owes nothing
    assert t.seats[2].waiting_on() == [(0, "final reveal of 1 card"), (1, "final reveal of 1 card")]
    t.send(t.seats[0].final_reveal_message())
    assert t.seats[2].waiting_on() == [(1, "final reveal of 1 card")]
    assert t.seats[0].verdict() is None
    with pytest.raises(LocalProtocolError):
        t.seats[0].begin_random(2)  # the final reveal has started
    with pytest.raises(LocalProtocolError):
        t.seats[1].shares_message()  # its shares go in its final reveal
    t.pump()
    for s in t.seats:
        v = s.verdict()
        assert v is not None and v.fair, v
        assert "2 shuffle rounds, 6 passes, each proven as it came" in v.checked
        assert "2 cards opened in the final reveal" in v.checked
        known = s.revealed_cards()
        assert known == {k: first[k] for k in (tokens[0], tokens[-1], tokens[-2])}
