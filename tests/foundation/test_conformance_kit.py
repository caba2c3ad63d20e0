"""The conformance kit catches a game whose moves its peers would refuse, or whose deck the deck
protocol cannot take, before its peers do."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from fairdeal.core.cards import Card, canonical
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


class _DoubledAce(Ecarte):
    """Écarté with the ace of spades twice (copy 0 both times): two cards no seat can tell apart."""

    def deck(self, config: Any) -> Sequence[Card]:
        cards = list(super().deck(config))
        return [*cards, next(c for c in cards if c.name == "AS#0")]


class _Restless(Ecarte):
    """Écarté whose deck drops a card every other call: a deck that is not the same every time."""

    calls = 0

    def deck(self, config: Any) -> Sequence[Card]:
        _Restless.calls += 1
        cards = list(super().deck(config))
        return cards if _Restless.calls % 2 else cards[1:]


class _Backwards(Ecarte):
    """Écarté listing its deck in reverse: the order is not the game's to choose, so this is fine."""

    def deck(self, config: Any) -> Sequence[Card]:
        return list(reversed(super().deck(config)))


def test_a_deck_with_a_card_twice_or_that_changes_fails_the_kit_and_its_order_does_not_matter() -> None:
    with pytest.raises(ConformanceError, match="gives a card twice"):
        check_game(_DoubledAce(), players=[2], seeds=[1])
    with pytest.raises(ConformanceError, match="other cards when called again"):
        check_game(_Restless(), players=[2], seeds=[1])
    check_game(_Backwards(), players=[2], seeds=[1])
    config = Ecarte().config(2)
    assert canonical(_Backwards().deck(config)) == canonical(Ecarte().deck(config))
