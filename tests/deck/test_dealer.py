"""The same behavioural tests of the ``Dealer`` interface, for PlainDealer and CryptoDealer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from fairdeal.core.cards import Card, ecarte_32, snatch_32
from fairdeal.core.dealer import Dealer, PlainDealer, Reveal
from fairdeal.core.deck import CryptoDealer
from fairdeal.core.errors import LocalProtocolError
from fairdeal.core.rng import SeededRng

Factory = Callable[[int, int], Dealer]


def plain(players: int, seed: int) -> Dealer:
    return PlainDealer(players, SeededRng(seed))


def crypto(players: int, seed: int) -> Dealer:
    return CryptoDealer(players, b"dealer-test", SeededRng(seed))


@pytest.fixture(params=[plain, crypto], ids=["plain", "crypto"])
def make(request: pytest.FixtureRequest) -> Factory:
    return request.param  # type: ignore[no-any-return]


def reveal_all(d: Dealer, tokens: list[int]) -> list[Card]:
    got = d.reveal([Reveal(t) for t in tokens])
    assert set(got) == set(tokens)
    return [got[t] for t in tokens]


def test_start_gives_a_shuffled_deck_of_fresh_tokens(make: Factory) -> None:
    d = make(3, 1)
    deck = ecarte_32()
    tokens = d.start(deck)
    assert len(tokens) == 32 and len(set(tokens)) == 32
    cards = reveal_all(d, tokens)
    assert Counter(cards) == Counter(deck)
    assert cards != list(deck)  # shuffled (fails with probability 1/32!)


def test_private_and_public_reveals(make: Factory) -> None:
    d = make(2, 2)
    tokens = d.start(snatch_32())
    hand = d.reveal([Reveal(tokens[-1], 0), Reveal(tokens[-2], 1)])
    assert set(hand) == {tokens[-1], tokens[-2]}
    again = d.reveal([Reveal(tokens[-1])])  # the held card, face up
    assert again[tokens[-1]] == hand[tokens[-1]]
    assert d.reveal([Reveal(tokens[-1])]) == again  # nothing owed twice
    with pytest.raises(LocalProtocolError):
        d.reveal([Reveal(10_000)])
    with pytest.raises(LocalProtocolError):
        d.reveal([Reveal(tokens[0], 7)])


def test_reshuffle_keeps_the_cards_and_kills_old_tokens(make: Factory) -> None:
    d = make(3, 3)
    tokens = d.start(ecarte_32())
    face_up = d.reveal([Reveal(tokens[0]), Reveal(tokens[1])])
    group = tokens[:12]
    before = Counter(reveal_all(d, group[2:])) + Counter(face_up.values())
    fresh = d.reshuffle(group, face_up)
    assert len(fresh) == 12 and not set(fresh) & set(tokens)
    assert Counter(reveal_all(d, fresh)) == before
    with pytest.raises(LocalProtocolError):
        d.reveal([Reveal(group[5])])
    with pytest.raises(LocalProtocolError):
        d.reshuffle([tokens[20]], {tokens[20]: face_up[tokens[0]]})  # not that card


def test_random_choices_are_in_range(make: Factory) -> None:
    d = make(3, 4)
    assert d.random(1) == 0
    seen = {d.random(4) for _ in range(40)}
    assert seen == {0, 1, 2, 3}


def test_leave_then_go_on_and_audit(make: Factory) -> None:
    d = make(3, 5)
    tokens = d.start(ecarte_32())
    d.reveal([Reveal(tokens[-1], 0), Reveal(tokens[-2], 1)])
    d.leave(2)
    assert d.reveal([Reveal(tokens[-3], 1)])[tokens[-3]] is not None
    fresh = d.reshuffle(tokens[:10], {})
    assert len(fresh) == 10
    assert 0 <= d.random(6) < 6
    v = d.audit()
    assert v.fair, v
    assert d.audit() == v


def test_crypto_dealer_knows_no_card() -> None:
    d = CryptoDealer(2, b"g", SeededRng(6))
    tokens = d.start(ecarte_32())
    assert d.card(tokens[0]) is None
    assert PlainDealer(2, SeededRng(6)).card(0) is None
