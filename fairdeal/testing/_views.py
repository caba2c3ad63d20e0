"""What a view may hold and show: the checks of a seat's state, of what ``table_view`` draws of it,
of which moves its table lets the mover pick, and of a game's result."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from fairdeal.core.cards import Card
from fairdeal.core.rules import Game, GameState, Move, Result
from fairdeal.core.table import Table
from fairdeal.core.tableview import Seat, TableView
from fairdeal.testing._errors import ConformanceError


def state_fields(state: GameState) -> dict[str, Any]:
    """The state's own fields, the table left out."""
    return {f.name: getattr(state, f.name) for f in dataclasses.fields(state) if f.name != "table"}


def check_view(game: Game, state: GameState, viewer: int | None, truth: Table | None, where: str) -> None:
    """``viewer``'s state knows no card it was not shown (and what it knows is true of
    ``truth``), holds no card but public ones in its own fields, and ``table_view`` draws it
    truly."""
    table = state.table
    allowed: set[Card] = set()
    for token, card in table.known_cards().items():
        if not table.knows(viewer, token):
            raise ConformanceError(f"{where}: knows card token {token} without having been shown it")
        if truth is not None and truth.card(token) != card:
            raise ConformanceError(f"{where}: believes token {token} is {card}, it is {truth.card(token)}")
        allowed.add(card)
    public_cards = {c for t, c in table.known_cards().items() if t in table.public}
    for value in state_fields(state).values():
        for card in _cards_in(value):
            if card not in public_cards:
                raise ConformanceError(
                    f"{where}: the state holds {card} outside the table, and it is not public"
                )
    _check_table_view(game.table_view(state, viewer), table, allowed, where)


def _check_words(words: Any, players: int, allowed: set[Card], where: str) -> None:
    for w in words:
        if isinstance(w, Card) and w not in allowed:
            raise ConformanceError(f"{where}: table_view shows {w}, which this view does not know")
        if isinstance(w, Seat) and not 0 <= w.seat < players:
            raise ConformanceError(f"{where}: table_view names seat {w.seat} of {players}")
        if not isinstance(w, (str, Card, Seat)):
            raise ConformanceError(f"{where}: table_view words hold str, Card, Seat, not {w!r}")


def _check_table_view(view: TableView, table: Table, allowed: set[Card], where: str) -> None:
    """The description shows the table it was given, and nothing this view may not know."""
    where = f"{where}, table_view"
    if not isinstance(view, TableView):
        raise ConformanceError(f"{where}: returned {type(view).__name__}, not a TableView")
    players = table.players
    shown: set[int] = set()
    for words in (*view.facts, view.status):
        _check_words(words, players, allowed, where)
    if view.scores is not None and len(view.scores) != players:
        raise ConformanceError(f"{where}: {len(view.scores)} scores for {players} players")
    if view.turn is not None and not 0 <= view.turn < players:
        raise ConformanceError(f"{where}: the turn of seat {view.turn} of {players}")
    for region in view.regions:
        if region.owner is not None and not 0 <= region.owner < players:
            raise ConformanceError(f"{where}: a region of seat {region.owner} of {players}")
        for note in region.notes:
            _check_words(note, players, allowed, where)
        for pile in region.piles:
            _check_words(pile.note, players, allowed, where)
            if pile.zone is not None and pile.zone not in table.specs:
                raise ConformanceError(f"{where}: pile {pile.label!r} targets no zone ({pile.zone!r})")
            for seat in pile.who:
                if not 0 <= seat < players:
                    raise ConformanceError(f"{where}: pile {pile.label!r} names seat {seat} of {players}")
            for token, card in zip(pile.tokens, pile.cards, strict=True):
                if table.zone_of(token) is None:
                    raise ConformanceError(
                        f"{where}: pile {pile.label!r} shows token {token}, not on the table"
                    )
                if token in shown:
                    raise ConformanceError(f"{where}: token {token} shows twice")
                shown.add(token)
                if card != table.card(token):
                    raise ConformanceError(
                        f"{where}: pile {pile.label!r} shows {card} for token {token}, "
                        f"this view knows {table.card(token)}"
                    )


def check_pickable(game: Game, state: GameState, player: int, moves: Sequence[Move], where: str) -> None:
    """Every legal move can be picked on the mover's table: its card shows, its target is a pile."""
    view = game.table_view(state, player)
    tokens = {t for _, p in view.piles() for t in p.tokens}
    targets = view.targets()
    for move in moves:
        parts = game.move_parts(state, player, move)
        if parts.card is not None and parts.card not in tokens:
            raise ConformanceError(f"{where}: the card of {move} shows in no pile of the mover's table")
        if parts.target is not None and parts.target not in targets:
            raise ConformanceError(f"{where}: the target of {move} is no pile of the mover's table")


def _cards_in(value: Any, depth: int = 0) -> Iterator[Card]:
    if depth > 6:
        return
    if isinstance(value, Card):
        yield value
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from _cards_in(v, depth + 1)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _cards_in(k, depth + 1)
            yield from _cards_in(v, depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _cards_in(getattr(value, f.name), depth + 1)


def check_result(result: Result, players: int, where: str) -> None:
    """A result is well formed: a score for each seat, a winner that is a seat or None, a reason."""
    if len(result.scores) != players:
        raise ConformanceError(f"{where}: the result has {len(result.scores)} scores for {players} players")
    if result.winner is not None and not 0 <= result.winner < players:
        raise ConformanceError(f"{where}: the winner {result.winner} is not a seat")
    if not result.reason:
        raise ConformanceError(f"{where}: the result does not say why the game ended")
