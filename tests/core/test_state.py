"""GameState.but: a state with some fields changed, as dataclasses.replace gives it."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairdeal import Game, GameState
from fairdeal.plugins.ecarte import Ecarte
from fairdeal.plugins.snatch import SnatchGame
from fairdeal.plugins.spite_malice import SpiteMalice
from fairdeal.testing import random_position

GAMES: list[tuple[str, type[Game[Any]]]] = [
    ("ecarte", Ecarte),
    ("snatch", SnatchGame),
    ("spite-malice", SpiteMalice),
]


@pytest.mark.parametrize(("name", "make"), GAMES, ids=[g[0] for g in GAMES])
@given(seed=st.integers(0, 10_000), decisions=st.integers(0, 40), data=st.data())
def test_but_is_replace_sharing_the_table(
    name: str, make: type[Game[Any]], seed: int, decisions: int, data: Any
) -> None:
    state, _ = random_position(make(), 2, seed, decisions)
    fields = [f.name for f in dataclasses.fields(state) if f.name != "table"]
    chosen = data.draw(st.lists(st.sampled_from(fields), unique=True, max_size=3))
    # Another value of the right type: the value a field has in a state made without arguments
    # would do, but states need a table, so the fields trade values with a second position.
    other, _ = random_position(make(), 2, seed + 1, decisions + 3)
    changes = {f: getattr(other, f) for f in chosen}
    before = dict(vars(state))

    got = state.but(**changes)

    assert got == dataclasses.replace(state, **changes)
    assert type(got) is type(state)
    assert got.table is state.table  # shared, as replace shares it
    assert vars(state) == before  # the state it was made from is unchanged


def test_but_refuses_a_name_that_is_no_field() -> None:
    state, _ = random_position(SnatchGame(), 2, 1, 3)
    with pytest.raises(TypeError, match="SnatchState has no field 'trumps'"):
        state.but(trumps=None)


def test_but_with_a_table_uses_that_table() -> None:
    state, _ = random_position(SnatchGame(), 2, 1, 3)
    table = state.table.copy()
    assert state.but(table=table).table is table


@dataclass(frozen=True)
class Cached(GameState):
    points: int = 0

    @cached_property
    def doubled(self) -> int:
        return 2 * self.points


@dataclass(frozen=True)
class Derived(GameState):
    points: int = 0
    halves: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "halves", 2 * self.points)


def test_a_value_worked_out_from_the_fields_is_worked_out_again() -> None:
    table = random_position(SnatchGame(), 2, 1, 3)[0].table
    cached = Cached(table, 1)
    assert cached.doubled == 2  # now held in the instance
    assert cached.but(points=5).doubled == 10
    assert cached.copy().doubled == 2 and cached.with_table(table.copy()).but(points=3).doubled == 6
    derived = Derived(table, 1)
    assert derived.but(points=5).halves == 10  # __post_init__ ran again
    assert derived.copy().halves == 2 and derived.copy().table is not table


@dataclass(frozen=True, slots=True)
class Slotted(GameState):
    points: int = 0


def test_a_state_whose_fields_are_in_slots_keeps_them() -> None:
    table = random_position(SnatchGame(), 2, 1, 3)[0].table
    state = Slotted(table, 4)
    assert state.copy().points == 4 and state.but(points=6).points == 6
    assert state.copy().table is not table and state.with_table(table).points == 4
