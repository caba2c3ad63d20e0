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

    deck = (*Ecarte.deck, next(c for c in Ecarte.deck if c.name == "AS#0"))


class _Restless(Ecarte):
    """Écarté whose deck drops a card every other call: a deck that is not the same every time."""

    calls = 0

    def deck(self, config: Any) -> Sequence[Card]:  # a method of the config: asked each time
        _Restless.calls += 1
        cards = list(Ecarte.deck)
        return cards if _Restless.calls % 2 else cards[1:]


class _Backwards(Ecarte):
    """Écarté listing its deck in reverse: the order is not the game's to choose, so this is fine."""

    deck = tuple(reversed(Ecarte.deck))


def test_a_deck_with_a_card_twice_or_that_changes_fails_the_kit_and_its_order_does_not_matter() -> None:
    with pytest.raises(ConformanceError, match="has a card twice"):
        check_game(_DoubledAce(), players=[2], seeds=[1])
    with pytest.raises(ConformanceError, match="other cards when asked again"):
        check_game(_Restless(), players=[2], seeds=[1])
    check_game(_Backwards(), players=[2], seeds=[1])
    config = Ecarte().config(2)
    assert canonical(_Backwards().deck_for(config)) == canonical(Ecarte().deck_for(config))


def test_a_game_that_does_not_end_stops_over_the_protocol_with_a_reason() -> None:
    """A bot that never ends the game would hang a test: past max_moves it stops, and says so."""
    from fairdeal.core.runner import GameTooLong
    from fairdeal.testing import play_with_protocol

    class Endless(Ecarte):
        max_moves = 6

    with pytest.raises(GameTooLong, match="went past 6 moves"):
        play_with_protocol(Endless(), 2, seed=1)


class _Boastful(Ecarte):
    """Écarté whose guess gives both seats a sure win."""

    def estimate(self, state: GameState) -> Sequence[float] | None:
        return (1.0, 1.0)


class _Fickle(Ecarte):
    """Écarté whose moves are of a new kind each time they are asked about."""

    asked = 0

    def alike(self, state: GameState, player: int, move: Move) -> object:
        _Fickle.asked += 1
        return (move, _Fickle.asked)


def test_search_hooks_that_say_nonsense_fail_the_kit() -> None:
    with pytest.raises(ConformanceError, match=r"estimate says \[1.0, 1.0\]"):
        check_game(_Boastful(), players=[2], seeds=[1])
    with pytest.raises(ConformanceError, match="another kind each time"):
        check_game(_Fickle(), players=[2], seeds=[1])


def test_a_card_read_before_it_is_shown_is_named_with_the_rule() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        from traffic import Traffic
    finally:
        sys.path.pop(0)

    class ReadsTooEarly(Traffic):
        name = "reads-too-early"

        def apply(self, state: Any, player: int, move: Any) -> Any:
            if move.action == "draw":
                state.table.top_card("stock").rank  # noqa: B018 - the card is not shown yet
            return super().apply(state, player, move)

    with pytest.raises(ConformanceError, match=r"reads as None: read a card only once it is shown"):
        check_game(ReadsTooEarly(), 2, seeds=range(5))
