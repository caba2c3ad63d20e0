from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.cards import standard_52
from fairdeal.core.dealer import Reveal
from fairdeal.core.errors import LocalProtocolError
from fairdeal.core.table import EVERYONE, Table, Visibility, Zone

ZONES = [
    Zone("deck", Visibility.HIDDEN),
    Zone("hand0", Visibility.OWNER, 0),
    Zone("hand1", Visibility.OWNER, 1),
    Zone("pile", Visibility.PUBLIC),
    Zone("stock", Visibility.HIDDEN),
]


def fresh(viewer: int | None = None, n: int = 10) -> Table:
    t = Table(ZONES, 2, viewer)
    t.place("deck", list(range(n)))
    return t


def test_deal_order_and_requirements() -> None:
    t = fresh()
    assert t.requirements() == []  # a hidden deck owes nothing
    dealt = t.deal("deck", "hand1", 3)
    assert dealt == [9, 8, 7]
    assert t.tokens("hand1") == (9, 8, 7)
    assert t.requirements() == [Reveal(7, 1), Reveal(8, 1), Reveal(9, 1)]
    t.deal("deck", "pile")
    assert Reveal(6, None) in t.requirements()


def test_learning_satisfies_requirements_and_respects_audience() -> None:
    cards = standard_52()
    t = fresh(viewer=0)
    t.deal("deck", "hand1", 1)
    t.learn(Reveal(9, 1), None)  # seat 0 is not the audience: it learns the fact, not the card
    assert t.requirements() == []
    assert t.card(9) is None and t.knows(1, 9) and not t.knows(0, 9)
    t.move(9, "pile")  # played face up: now everyone must learn it
    assert t.requirements() == [Reveal(9, None)]
    t.learn(Reveal(9, None), cards[9])
    assert t.card(9) == cards[9] and t.is_public(9)


def test_flip_in_hidden_zone_needs_public_reveal() -> None:
    t = fresh()
    t.deal("deck", "stock", 2)
    t.flip(t.top("stock"))  # type: ignore[arg-type]
    assert t.requirements() == [Reveal(8, None)]


def test_masking_keeps_only_what_viewer_may_know() -> None:
    cards = standard_52()
    t = fresh(viewer=EVERYONE)
    for tok in range(10):
        t._cards[tok] = cards[tok]
    t.deal("deck", "hand0", 2)
    for r in t.requirements():
        t.learn(r, cards[r.token])
    t.deal("deck", "pile", 1)
    for r in t.requirements():
        t.learn(r, cards[r.token])
    seat0, seat1, public = t.masked(0), t.masked(1), t.masked(None)
    assert set(seat0.known_cards()) == {9, 8, 7}
    assert set(seat1.known_cards()) == {7}
    assert set(public.known_cards()) == {7}


def test_copy_is_independent() -> None:
    t = fresh()
    u = t.copy()
    u.deal("deck", "pile", 2)
    assert t.size("deck") == 10 and u.size("deck") == 8
    assert t != u


def test_shuffle_together_and_replace() -> None:
    t = fresh()
    t.deal("deck", "pile", 3)
    for r in t.requirements():
        t.learn(r, standard_52()[r.token])
    t.shuffle_together(["pile", "deck"], "deck")
    (req,) = t.pending_shuffles()
    assert sorted(req.tokens) == list(range(10)) and t.size("pile") == 0
    t.replace_shuffled(req, list(range(100, 110)))
    assert t.tokens("deck") == tuple(range(100, 110))
    assert t.public == set() and t.known_cards() == {}
    assert t.settled()


def test_shuffle_errors() -> None:
    t = fresh()
    with pytest.raises(LocalProtocolError, match="not a hidden zone"):
        t.shuffle_together(["deck"], "pile")
    t.deal("deck", "stock", 1)
    with pytest.raises(LocalProtocolError, match="not empty"):
        t.shuffle_together(["deck"], "stock")
    t.shuffle_together(["deck"], "deck")
    (req,) = t.pending_shuffles()
    with pytest.raises(LocalProtocolError, match="keep the number"):
        t.replace_shuffled(req, [1])


def test_bad_operations() -> None:
    t = fresh()
    with pytest.raises(LocalProtocolError, match="no zone"):
        t.size("nowhere")
    with pytest.raises(LocalProtocolError, match="cannot deal 11"):
        t.deal("deck", "pile", 11)
    with pytest.raises(LocalProtocolError):
        t.move(999, "pile")
    with pytest.raises(LocalProtocolError):
        t.place("pile", [3])
    with pytest.raises(ValueError):
        Zone("h", Visibility.OWNER)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["deck", "hand0", "hand1", "pile", "stock"]),
            st.sampled_from(["deck", "hand0", "hand1", "pile", "stock"]),
        ),
        max_size=40,
    )
)
def test_moves_conserve_tokens(moves: list[tuple[str, str]]) -> None:
    t = fresh(n=20)
    for src, dst in moves:
        if t.size(src):
            t.deal(src, dst)
    seen = [tok for z in ("deck", "hand0", "hand1", "pile", "stock") for tok in t.tokens(z)]
    assert sorted(seen) == list(range(20))
    for tok in seen:
        assert t.tokens(t.zone_of(tok)).count(tok) == 1  # type: ignore[arg-type]
