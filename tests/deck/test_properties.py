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

SLOW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(players=st.integers(2, 10), size=st.integers(32, 104), seed=st.integers(0, 2**32))
@example(players=2, size=104, seed=1)
@example(players=10, size=32, seed=2)
@example(players=10, size=104, seed=3)
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
        ct = view._cts[tok]
        others = [view._shares[(tok, s)] for s in range(players) if s != seat]
        total = others[0]
        for d in others[1:]:
            total = g.add(total, d)
        assert g.sub(ct[32:], total) not in view._by_point

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


def test_audit_traces_every_token(kit: Any) -> None:
    t = kit.Table(3, seed=11)
    deck = kit.deck_of(40)
    tokens = t.start(deck)
    first = t.oracle()
    t.all(lambda s: s.request([Reveal(tokens[-1], 0), Reveal(tokens[-2], 1), Reveal(tokens[0])]))
    t.pump()
    t.all(lambda s: s.reshuffle(tokens[:8], {tokens[0]: first[tokens[0]]}))
    t.pump()
    second = t.oracle()
    t.all(lambda s: s.begin_random(10))
    t.pump()
    assert all(s.verdict() is None for s in t.seats)
    with pytest.raises(LocalProtocolError):
        t.seats[2].audit_message()  # only once this seat's own rules end the game
    t.all(lambda s: s.begin_audit())
    t.send(t.seats[0].audit_message())
    assert t.seats[0].waiting_on() == [(1, "audit opening"), (2, "audit opening")]
    assert t.seats[0].opened_seats() == [0]
    assert t.seats[0].verdict() is None
    with pytest.raises(LocalProtocolError):
        t.seats[0].traced_cards()
    with pytest.raises(LocalProtocolError):
        t.seats[0].begin_random(2)  # the audit has started
    t.pump()
    for s in t.seats:
        v = s.verdict()
        assert v is not None and v.fair, v
        assert "2 shuffle rounds, 6 passes" in v.checked
        traced = s.traced_cards()
        assert set(traced) == set(range(48))
        assert {k: traced[k] for k in first} == first
        assert {k: traced[k] for k in second} == second
        assert Counter(traced[k] for k in tokens) == Counter(deck)
