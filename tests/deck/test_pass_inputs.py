"""The first pass of every shuffle round says what the round shuffles, so the log describes itself.

Round 0 takes the game's cards in the one canonical order (copy, suit C D H S, rank A..K),
whatever order the rules list them in; a reshuffle takes the live tokens the rules name, in their
order, each as its ciphertext or, face up, as a named card's trivial encryption. The round's
first pass lists exactly that (``inputs``), and every seat refuses a list that is not what its own
rules say, naming the pass's author: a seat that lists a hidden card as a face-up one of its
choosing would bring that card into the deck. Later passes list nothing.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from fairdeal.core.cards import Card, Suit, canonical, canonical_key, standard_52
from fairdeal.core.dealer import Reveal


def test_round_zero_lists_the_cards_in_the_canonical_order_whatever_the_rules_order(kit: Any) -> None:
    cards = kit.deck_of(40)
    shuffled = list(cards)
    random.Random(3).shuffle(shuffled)
    t = kit.Table(2, seed=5)
    t.all(lambda s: s.start(shuffled))
    first = t.seats[0].shuffle_message()
    assert first.inputs == tuple((None, c.name) for c in canonical(cards))
    assert [c.name for c in canonical(cards)][:3] == ["AC#0", "2C#0", "3C#0"]
    t.send(first)
    assert t.seats[1].shuffle_message().inputs is None  # pass 1 takes pass 0's deck


def test_the_canonical_order_is_copy_then_suit_then_rank() -> None:
    deck = canonical(standard_52(2))
    assert deck[0] == Card(1, Suit.CLUBS, 0) and deck[12] == Card(13, Suit.CLUBS, 0)
    assert deck[13] == Card(1, Suit.DIAMONDS, 0) and deck[51] == Card(13, Suit.SPADES, 0)
    assert deck[52] == Card(1, Suit.CLUBS, 1)
    assert [canonical_key(c) for c in deck] == sorted(canonical_key(c) for c in deck)


def _reshuffling(kit: Any) -> tuple[Any, list[int], dict[int, Card]]:
    """A started game in which two cards were opened to everyone, then a reshuffle of six tokens,
    two of them those face-up cards."""
    t = kit.Table(3, seed=7)
    tokens = t.start(kit.deck_of(32))
    up = tokens[:2]
    t.all(lambda s: s.request([Reveal(x, None) for x in up]))
    t.pump()
    face = {x: t.seats[0].card(x) for x in up}
    chosen = [tokens[5], up[0], tokens[7], tokens[8], up[1], tokens[9]]
    t.all(lambda s: s.reshuffle(chosen, face))
    return t, chosen, face


def test_a_reshuffle_lists_its_tokens_and_the_face_up_cards(kit: Any) -> None:
    t, chosen, face = _reshuffling(kit)
    first = t.seats[0].shuffle_message()
    assert first.inputs == tuple((x, face[x].name if x in face else None) for x in chosen)
    t.send(first)
    t.pump()
    assert sorted(t.oracle().values()) == sorted(kit.deck_of(32))


def test_a_first_pass_that_lists_other_inputs_is_refused_naming_its_author(kit: Any) -> None:
    t, chosen, _ = _reshuffling(kit)
    honest = t.seats[0].shuffle_message()
    assert honest.inputs is not None
    hidden = chosen[0]
    lies = {
        "a hidden card listed face up, as a card of the author's choosing": tuple(
            (x, "AS#0" if x == hidden else c) for x, c in honest.inputs
        ),
        "a face-up card listed as another card": tuple(
            (x, "KH#0" if c is not None else None) for x, c in honest.inputs
        ),
        "two tokens swapped": (honest.inputs[1], honest.inputs[0], *honest.inputs[2:]),
        "nothing listed": None,
    }
    for lie in lies.values():
        t.refused_everywhere(replace(honest, inputs=lie), 0, "not the ones the rules shuffle")
    t.send(honest)
    later = t.seats[1].shuffle_message()
    t.refused_everywhere(replace(later, inputs=honest.inputs), 1, "only a round's first pass does")
