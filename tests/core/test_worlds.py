"""Worlds sampled from a seat's view: consistent with it, whatever the position and the game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairdeal import Card, Game, RandomPolicy, RuledOut, Worlds, sample_world
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import play_game
from fairdeal.core.worlds import deal_unseen, excluded, unseen
from fairdeal.plugins.ecarte import Ecarte
from fairdeal.plugins.snatch import SnatchGame
from fairdeal.plugins.spite_malice import SpiteMalice
from fairdeal.testing import ConformanceError, check_world
from fairdeal.testing import random_position as position


def crazy_eights() -> Game[Any]:
    from fairdeal_crazy_eights import CrazyEights  # type: ignore[import-not-found]

    return CrazyEights()  # type: ignore[no-any-return]


GAMES = [
    ("ecarte", Ecarte, 2),
    ("snatch-2", SnatchGame, 2),
    ("snatch-7", SnatchGame, 7),
    ("spite-malice", SpiteMalice, 2),
]


@pytest.mark.parametrize(("name", "make", "players"), GAMES, ids=[g[0] for g in GAMES])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), decisions=st.integers(0, 120), draw=st.integers(0, 2**32))
def test_a_sampled_world_never_contradicts_the_view(
    name: str, make: Any, players: int, seed: int, decisions: int, draw: int
) -> None:
    view, truth = position(make(), players, seed, decisions)
    world = sample_world(view, random.Random(draw))
    check_world(view, world, name)
    # The real deal is one of the worlds the view allows: what it knows is what the deal holds.
    for token, card in view.table.known_cards().items():
        assert truth.table.card(token) == card
    tokens, cards = unseen(view)
    assert sorted(map(str, cards)) == sorted(str(truth.table.card(t)) for t in tokens)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), decisions=st.integers(0, 80), draw=st.integers(0, 2**32))
def test_crazy_eights_worlds(example_entry_points: Any, seed: int, decisions: int, draw: int) -> None:
    from fairdeal import registry

    game = registry.load(example_entry_points).game("crazy-eights")
    view, _ = position(game, 3, seed, decisions)
    check_world(view, sample_world(view, random.Random(draw)), "crazy-eights")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), decisions=st.integers(8, 60), draw=st.integers(0, 2**32))
def test_worlds_respect_what_play_ruled_out(seed: int, decisions: int, draw: int) -> None:
    """Écarté records who could not follow suit; every world keeps those cards out of that hand."""
    view, truth = position(Ecarte(), 2, seed, decisions)
    limits = excluded(view)
    world = sample_world(view, random.Random(draw))
    for token, cards in limits.items():
        assert world.table.card(token) not in cards
        assert truth.table.card(token) not in cards


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), decisions=st.integers(8, 60), draw=st.integers(0, 2**32))
def test_worlds_read_from_the_view_once_are_sample_worlds(seed: int, decisions: int, draw: int) -> None:
    """A search reads the view once (``Worlds``) and draws on: the same worlds as ``sample_world``
    given the same random stream, each consistent with the view, the view itself untouched."""
    view, _ = position(Ecarte(), 2, seed, decisions)
    before, viewer = dict(view.table.known_cards()), view.table.viewer
    sampler, rng, again = Worlds(view), random.Random(draw), random.Random(draw)
    for _ in range(4):
        world = sampler.sample(rng)
        check_world(view, world, "ecarte")
        assert world.table.known_cards() == sample_world(view, again).table.known_cards()
    assert dict(view.table.known_cards()) == before and view.table.viewer == viewer


def test_writing_a_fact_the_deal_breaks_is_caught() -> None:
    """The kit's check is no formality: a world that breaks a recorded fact is refused."""
    view, _ = position(Ecarte(), 2, 3, 10)
    world = sample_world(view, random.Random(1))
    token = view.table.unknown()[0]
    view.table.rule_out([RuledOut(frozenset({token}), frozenset({world.table.card(token)}))])  # type: ignore[arg-type]
    with pytest.raises(ConformanceError, match="rules_out"):
        check_world(view, world, "ecarte")


def test_a_world_that_changes_a_known_card_is_refused() -> None:
    view, _ = position(SpiteMalice(), 2, 5, 4)
    world = sample_world(view, random.Random(1))
    mine = next(iter(view.table.known_cards()))
    other = next(t for t in world.table.all_tokens() if world.table.card(t) != world.table.card(mine))
    cards = {mine: world.table.card(other), other: world.table.card(mine)}
    broken = world.copy()
    object.__setattr__(
        broken, "table", world.table.completed({k: v for k, v in cards.items() if v is not None})
    )
    with pytest.raises(ConformanceError):
        check_world(view, broken, "spite-malice")


def test_deals_vary_and_follow_the_seed() -> None:
    view, _ = position(Ecarte(), 2, 11, 3)
    deals = [tuple(sorted(deal_unseen(view, random.Random(s)).items())) for s in range(6)]
    assert len(set(deals)) > 1
    assert deals[0] == tuple(sorted(deal_unseen(view, random.Random(0)).items()))


def test_facts_no_deal_satisfies_give_a_random_deal() -> None:
    view, _ = position(Ecarte(), 2, 2, 2)
    tokens, cards = unseen(view)
    everything = frozenset(Card(c.rank, c.suit) for c in cards)
    view.table.rule_out([RuledOut(frozenset(tokens), everything)])
    deal = deal_unseen(view, random.Random(0))
    assert sorted(deal) == tokens and sorted(map(str, deal.values())) == sorted(map(str, cards))


def test_a_random_policy_still_plays_on_views() -> None:
    """Views carry the deck and the facts; a whole random game is unchanged by them."""
    game = Ecarte()
    played = play_game(
        game, game.config(2), PlainDealer(2, SeededRng(4)), [RandomPolicy()] * 2, random.Random(4)
    )
    assert played.replicas[0].state.table.deck == game.deck_for(game.config(2))


def test_ecarte_records_what_a_follower_lacks() -> None:
    """A follower that does not follow suit, or follows low, leaves facts in every view's table."""
    facts = 0
    for seed in range(12):
        for rules in ({}, {"trump_when_void": True}):
            game = Ecarte()
            config = game.config(2, dict(rules))
            played = play_game(
                game, config, PlainDealer(2, SeededRng(seed)), [RandomPolicy()] * 2, random.Random(seed)
            )
            tables = [r.state.table for r in played.replicas.values()]
            assert all(t.ruled_out == tables[0].ruled_out for t in tables)
            facts += len(tables[0].ruled_out)
    assert facts > 0
