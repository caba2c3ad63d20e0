"""High card, a plugin written to plugin API 1 (the guide before API 2), kept as it was written.

Every player is dealt one card; in seat order each turns it face up; the highest rank wins.
It uses what that guide taught: the two hooks, ``rules_text()``, ``deck(config)``,
``zones(config)`` and ``deck_zone(config)`` as methods, a turn guard in ``legal_moves``, its
own ``describe`` and ``narrate``, a line-mode ``render`` with ``FaceDown`` and ``Line``, and a
``table_view``. Loaded by name in the tests, never installed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from fairdeal import (
    BotSpec,
    Card,
    Config,
    Decide,
    FaceDown,
    Game,
    GameState,
    Line,
    Move,
    Over,
    Pile,
    Region,
    Result,
    Seat,
    Spread,
    Step,
    Table,
    TableView,
    Visibility,
    Zone,
    hookimpl,
    standard_52,
)


def hand(p: int) -> str:
    return f"hand{p}"


@dataclass(frozen=True)
class HighState(GameState):
    turn: int = 0


class HighCard(Game[HighState]):
    name = "high-card"
    title = "High Card"
    summary = "One card each; the highest wins."
    min_players = 2
    max_players = 6
    default_bot = "first"

    def rules_text(self) -> str:
        return "High card: one card each, turned up in seat order; the highest rank wins.\n"

    def deck(self, config: Config) -> Sequence[Card]:
        return standard_52()

    def zones(self, config: Config) -> Sequence[Zone]:
        hands = [Zone(hand(p), Visibility.OWNER, p, "hand") for p in range(config.players)]
        return [*hands, Zone("deck", Visibility.HIDDEN), Zone("shown", Visibility.PUBLIC, title="shown")]

    def deck_zone(self, config: Config) -> str:
        return "deck"

    def setup(self, config: Config, table: Table) -> HighState:
        for p in range(config.players):
            table.deal("deck", hand(p))
        return HighState(table)

    def next_step(self, state: HighState) -> Step:
        if state.turn == state.table.players:
            cards = [c for c in state.table.cards("shown") if c is not None]
            best = max(range(len(cards)), key=lambda i: cards[i].rank)
            return Over(
                Result(best, tuple(int(i == best) for i in range(len(cards))), f"seat {best} is highest")
            )
        return Decide(state.turn)

    def legal_moves(self, state: HighState, player: int) -> Sequence[Move]:
        step = self.next_step(state)
        if not isinstance(step, Decide) or step.player != player:
            return []
        return [Move("show", (tok,)) for tok in state.table.tokens(hand(player))]

    def apply(self, state: HighState, player: int, move: Move) -> HighState:
        s = state.copy()
        s.table.move(int(move.args[0]), "shown")
        return replace(s, turn=s.turn + 1)

    def describe(self, state: HighState, player: int, move: Move) -> str:
        card = state.table.card(int(move.args[0]))
        return f"show {card.text() if card else 'your card'}"

    def narrate(self, state: HighState, player: int, move: Move, name: str) -> str:
        card = state.table.card(int(move.args[0]))
        return f"{name} showed {card.text() if card else 'a card'}"

    def table_view(self, state: HighState, viewer: int | None) -> TableView:
        t = state.table
        regions = [Region(None, (Pile.of(t, "shown", "Shown", spread=Spread.FANNED),))]
        regions += [Region(p, (Pile.of(t, hand(p), "Hand", spread=Spread.FANNED),)) for p in range(t.players)]
        return TableView(tuple(regions), turn=state.turn if state.turn < t.players else None)

    def render(self, state: HighState, viewer: int | None) -> Sequence[Line]:
        t = state.table
        lines: list[Line] = [("Shown:", *[c for c in t.cards("shown") if c])]
        for p in range(t.players):
            mine = [c for c in t.cards(hand(p)) if c]
            lines.append((Seat(p), ":", *mine) if p == viewer else (Seat(p), ":", FaceDown(t.size(hand(p)))))
        return lines


class First:
    def choose(
        self, game: Game, state: GameState, player: int, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        return moves[0]


@hookimpl
def fairdeal_games() -> list[Game]:
    return [HighCard()]


@hookimpl
def fairdeal_bots() -> list[BotSpec]:
    return [BotSpec("high-card", "first", "shows its card", First)]
