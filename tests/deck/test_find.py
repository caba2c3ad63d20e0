"""Finding who holds a card (docs/protocol.md 10.4.2): the holder shows it, the others say no.

Every candidate answers at once; the holder's answer opens the card to everyone with its own
share, checked there and then (one of its hand's tokens, and that very card). A false "I do not
hold it" is found at the end, with every card known, naming its seat.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from fairdeal.core.dealer import Reveal
from fairdeal.core.deck import DeckSeat, FindClaim, ShareProof
from fairdeal.core.deck import _group as g
from fairdeal.core.deck._common import share_context


def _dealt(kit: SimpleNamespace) -> tuple[Any, dict[int, tuple[int, ...]], dict[int, Any]]:
    """Three seats, four cards dealt to each: seat -> its tokens, and every token's card."""
    t = kit.Table(3, seed=2, keys=False)
    t.observers.append(DeckSeat.observer(t.game_id, 3))
    t.pump()
    tokens = t.start(kit.deck_of(32))
    hands = {s: tuple(tokens[4 * s : 4 * s + 4]) for s in range(3)}
    t.all(lambda d: d.request([Reveal(tok, s) for s, toks in hands.items() for tok in toks]))
    t.pump()
    return t, hands, t.oracle()


def test_the_holder_shows_the_card_and_the_others_say_no(kit: SimpleNamespace) -> None:
    t, hands, cards = _dealt(kit)
    holder, token = 1, hands[1][2]
    card = cards[token]
    t.all(lambda d: d.begin_find(card, hands))
    assert sorted(seat for seat, _ in t.seats[0].waiting_on()) == [0, 1, 2]
    t.pump()
    assert {d.found() for d in [*t.seats, *t.observers]} == {(holder, token)}
    assert {d.card(token) for d in [*t.seats, *t.observers]} == {card}
    assert all(d.card(hands[1][0]) is None for d in (t.seats[0], t.seats[2], *t.observers))


def test_nobody_holds_a_card_not_dealt(kit: SimpleNamespace) -> None:
    t, hands, cards = _dealt(kit)
    missing = next(
        c
        for c in kit.deck_of(32)
        if c not in cards.values() or c not in [cards[x] for h in hands.values() for x in h]
    )
    t.all(lambda d: d.begin_find(missing, hands))
    t.pump()
    assert {d.found() for d in [*t.seats, *t.observers]} == {None}


def test_a_false_or_foreign_showing_is_refused_naming_its_author(kit: SimpleNamespace) -> None:
    t, hands, cards = _dealt(kit)
    token = hands[1][0]
    card = cards[token]
    t.all(lambda d: d.begin_find(card, hands))
    honest = t.seats[1].find_message()
    assert honest.share is not None and honest.share.token == token
    wrong = replace(honest, share=replace(honest.share, token=hands[1][1]))  # another of its cards
    t.refused_everywhere(wrong, 1, "does not verify")
    t.refused_everywhere(replace(honest, card="KS#1"), 1, "while")
    stolen = replace(honest, share=replace(honest.share, token=hands[2][0]))
    t.refused_everywhere(stolen, 1, "not one of its hand's")
    t.refused_everywhere(FindClaim(0, card.name, honest.share), 0, "not one of its hand's")
    t.send(honest)
    t.refused_everywhere(honest, 1, "out of turn")


def test_a_seat_that_shows_a_card_that_is_not_the_one_looked_for_is_refused(kit: SimpleNamespace) -> None:
    t, hands, cards = _dealt(kit)
    looked_for = cards[hands[2][0]]
    t.all(lambda d: d.begin_find(looked_for, hands))
    seat = t.seats[1]  # it shows one of its own cards, correctly proven, but not the card looked for
    me = seat.ctx.need_me()
    tok = hands[1][0]
    ct = seat.ciphertext(tok)
    assert ct is not None
    d = g.mul(me.x, ct[:33])
    e, z = g.dleq_prove(share_context(seat.game_id, 1, tok, ct, None), me.x, me.public, ct[:33], d, me.seed)
    bluff = FindClaim(1, looked_for.name, ShareProof(tok, d, e, z, None))
    t.refused_everywhere(bluff, 1, f"which is not {looked_for.name}")
