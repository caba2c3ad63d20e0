"""Properties over every built-in game: any seed and player count conforms, terminates and reproduces."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairdeal import registry
from fairdeal.testing import check_game

SHORT = {"spite-malice": {"target": 1, "max_games": 1}, "ecarte": {"target": 2}}


def builtin(name: str) -> Any:
    reg = registry.load()
    if name not in reg.games:
        pytest.fail(f"built-in game {name} is not installed: {reg.warnings}")
    return reg.game(name)


@pytest.mark.parametrize("name", ["spite-malice", "ecarte", "snatch"])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_seed_conforms(name: str, data: st.DataObject) -> None:
    game = builtin(name)
    players = data.draw(st.integers(game.min_players, min(game.max_players, 6)), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    report = check_game(game, players=players, options=SHORT.get(name), seeds=[seed])
    assert report.games == 1 and report.moves > 0
