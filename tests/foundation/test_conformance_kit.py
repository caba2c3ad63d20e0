"""The conformance kit catches a game whose moves its peers would refuse, before they do."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from fairdeal.core.rules import GameState, Move
from fairdeal.plugins.ecarte import Ecarte
from fairdeal.testing import ConformanceError, check_game


class _Shouting(Ecarte):
    """Écarté whose every move ends its action with a line break (a terminal would act on it)."""

    def legal_moves(self, state: GameState, player: int) -> Sequence[Move]:  # type: ignore[override]
        return [Move(m.action + "\n", m.args) for m in super().legal_moves(state, player)]


def test_a_move_that_cannot_be_sent_as_it_is_fails_the_kit() -> None:
    with pytest.raises(ConformanceError, match="peers would refuse"):
        check_game(_Shouting(), players=[2], seeds=[1])


def test_a_game_that_does_not_end_stops_over_the_protocol_with_a_reason() -> None:
    """A bot that never ends the game would hang a test: past max_moves it stops, and says so."""
    from fairdeal.core.runner import GameTooLong
    from fairdeal.testing import play_with_protocol

    class Endless(Ecarte):
        max_moves = 6

    with pytest.raises(GameTooLong, match="went past 6 moves"):
        play_with_protocol(Endless(), 2, seed=1)
