"""The rules API: what a game plugin writes.

A game is a deterministic step function over an explicit state. The state's
card part is a :class:`~fairdeal.core.table.Table` (tokens in zones); the rest is
the game's own immutable fields. The core drives it like this::

    state = game.setup(config, table)       # the deck is shuffled into game.deck_zone(config)
    loop:
        core settles the table: reveals owed by visibility, pending shuffles
        step = game.next_step(state)
        Decide(p) -> p picks a move from game.legal_moves(state, p); state = game.apply(state, p, move)
        Auto()    -> state = game.advance(state)
        Chance(n) -> the seats draw v in range(n) jointly; state = game.on_chance(state, v)
        Over(r)   -> done: r is the Result

Rules of the contract:

* ``setup``, ``apply``, ``advance`` and ``on_chance`` return a new state and never
  change the one they were given (``state.copy()`` first).
* Decisions (``next_step``, the result, the legality of a move) may depend only on
  what the viewer of the state legitimately knows; every seat runs the same rules on
  its own view and must reach the same step. A card the viewer does not know reads
  as None: treat it as "could be anything" (never forbid a move because of it).
* ``apply`` may read the cards its move brings into view from the mover's own
  knowledge (a card played from a hand): the core reveals them before ``apply``.
  Cards turned up from a hidden pile are known from the next call on.
* Game-specific fields never hold the identity of a card that is not public;
  cards live in the table.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Generic, Protocol, Self, TypeVar

from .cards import Card
from .errors import RemoteProtocolError
from .options import Config, Option, exact_config, make_config
from .table import Table, Zone
from .tableview import MoveParts, Seat, TableView, default_parts, default_view, view_lines
from .text import shows_as_is

MAX_MOVE_ARGS = 16
MAX_MOVE_TEXT = 64


@dataclass(frozen=True, slots=True)
class Move:
    """A player's choice: an action name and its arguments (tokens, zone names, numbers)."""

    action: str
    args: tuple[int | str, ...] = ()

    def to_wire(self) -> list[object]:
        return [self.action, list(self.args)]

    @staticmethod
    def from_wire(obj: object, seat: int | None = None) -> Move:
        """Decode and strictly validate a move received from a peer."""
        if not (
            isinstance(obj, list) and len(obj) == 2 and isinstance(obj[0], str) and isinstance(obj[1], list)
        ):
            raise RemoteProtocolError("malformed move", seat=seat)
        action, args = obj
        if not 0 < len(action) <= MAX_MOVE_TEXT or len(args) > MAX_MOVE_ARGS:
            raise RemoteProtocolError("move too long", seat=seat)
        if not shows_as_is(action, MAX_MOVE_TEXT):
            raise RemoteProtocolError("a move's action must be plain text", seat=seat)
        for a in args:
            ok = (isinstance(a, int) and not isinstance(a, bool) and -(2**31) <= a < 2**31) or (
                shows_as_is(a, MAX_MOVE_TEXT, empty=True)
            )
            if not ok:
                raise RemoteProtocolError("malformed move argument", seat=seat)
        return Move(action, tuple(args))

    def __str__(self) -> str:
        return " ".join([self.action, *map(str, self.args)])


@dataclass(frozen=True, slots=True)
class Result:
    """How a game (or match) ended. ``winner`` is a seat, or None for a draw / no winner."""

    winner: int | None
    scores: tuple[int, ...]
    reason: str
    standing: str = ""


@dataclass(frozen=True, slots=True)
class Decide:
    """Seat ``player`` must choose one of ``legal_moves``."""

    player: int


@dataclass(frozen=True, slots=True)
class Auto:
    """The game goes on by itself: the core calls ``advance``."""


@dataclass(frozen=True, slots=True)
class Chance:
    """A joint random choice in ``range(n)``; the core calls ``on_chance`` with it."""

    n: int
    why: str = ""


@dataclass(frozen=True, slots=True)
class Over:
    result: Result


Step = Decide | Auto | Chance | Over


@dataclass(frozen=True, slots=True)
class FaceDown:
    """``count`` face-down cards in a rendered line."""

    count: int = 1


#: A rendered line is text, cards, face-down cards and seats (written "You" for the viewer and
#: the seat's name for the others); the front end draws them.
Segment = str | Card | FaceDown | Seat
Line = tuple[Segment, ...]


@dataclass(frozen=True)
class GameState:
    """Base of every game state: the table plus the game's own (immutable) fields."""

    table: Table

    def copy(self) -> Self:
        """A copy that can be changed without touching this one (the other fields are immutable)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)  # faster than dataclasses.replace, which re-runs __init__
        object.__setattr__(new, "table", self.table.copy())
        return new

    def with_table(self, table: Table) -> Self:
        return replace(self, table=table)


S = TypeVar("S", bound=GameState)


class Game(ABC, Generic[S]):
    """A card game's rules. Subclass it, fill in the class attributes and methods."""

    name: ClassVar[str]  # command-line name, e.g. "spite-malice"
    title: ClassVar[str]  # display name, e.g. "Spite & Malice"
    summary: ClassVar[str]  # one line for `fairdeal games`
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    default_bot: ClassVar[str] = "random"
    #: A bound on the moves of one game (conformance kit, runners).
    max_moves: ClassVar[int] = 10_000

    def config(self, players: int, raw: dict[str, object] | None = None) -> Config:
        """Validate a player count and raw option values into a Config."""
        return make_config(self.name, self.options, players, self.min_players, self.max_players, raw)

    def exact_config(self, players: int, values: Mapping[str, object]) -> Config:
        """Check a configuration a peer sent: every option, each exactly typed (no parsing)."""
        return exact_config(self.name, self.options, players, self.min_players, self.max_players, values)

    @abstractmethod
    def rules_text(self) -> str:
        """The rules in plain English, options included."""

    @abstractmethod
    def deck(self, config: Config) -> Sequence[Card]:
        """Every card of the game."""

    @abstractmethod
    def zones(self, config: Config) -> Sequence[Zone]:
        """Every zone of the table."""

    def deck_zone(self, config: Config) -> str:
        """The HIDDEN zone that receives the freshly shuffled deck."""
        return "deck"

    @abstractmethod
    def setup(self, config: Config, table: Table) -> S:
        """The initial state; ``table`` holds the shuffled deck in ``deck_zone``."""

    @abstractmethod
    def next_step(self, state: S) -> Step:
        """What happens next. Pure; depends only on what every seat knows."""

    @abstractmethod
    def legal_moves(self, state: S, player: int) -> Sequence[Move]:
        """Every move ``player`` may make now, as far as ``state`` lets one tell."""

    def is_legal(self, state: S, player: int, move: Move) -> bool:
        """Whether ``move`` is allowed. Override when listing every move is costly."""
        return move in self.legal_moves(state, player)

    @abstractmethod
    def apply(self, state: S, player: int, move: Move) -> S:
        """The state after ``player`` makes ``move`` (assumed legal)."""

    def advance(self, state: S) -> S:
        """The state after an ``Auto`` step."""
        raise NotImplementedError(f"{self.name} returned Auto but does not implement advance")

    def on_chance(self, state: S, value: int) -> S:
        """The state after a joint random choice."""
        raise NotImplementedError(f"{self.name} returned Chance but does not implement on_chance")

    def departed(self, state: S) -> frozenset[int]:
        """Seats that have left the game for good (they play no more)."""
        return frozenset()

    def describe(self, state: S, player: int, move: Move) -> str:
        """The move in words, for the player choosing it: ``play 7♥ onto centre 2``."""
        return str(move)

    def narrate(self, state: S, player: int, move: Move, name: str) -> str:
        """The move in words, after it was made: ``Bob played 7♥ onto centre 2``.

        ``state`` is the narrating seat's own view just before the move, with the cards
        the move shows already known; the text is shown to that seat only, so it may
        name cards that seat knows. Unknown cards read as None.
        """
        return f"{name}: {self.describe(state, player, move)}"

    def table_view(self, state: S, viewer: int | None) -> TableView:
        """The table as ``viewer`` sees it, as regions of piles (see :mod:`fairdeal.core.tableview`).

        The full-screen table is drawn from this. The default shows every zone: a region per
        seat with the zones it owns, the rest in the middle. Only cards ``viewer`` knows may show.
        """
        return default_view(state.table, viewer)

    def move_parts(self, state: S, player: int, move: Move) -> MoveParts:
        """What ``move`` takes and where it goes on the table, so a player can pick it there.

        The default: the card is the first argument that is a token on the table, the target
        the first argument that names a zone, the verb the action. A move with neither is a
        button labelled with :meth:`describe`.
        """
        return default_parts(state.table, move.args, move.action)

    def render(self, state: S, viewer: int | None) -> Sequence[Line]:
        """The table as ``viewer`` sees it, as lines of text and cards (line mode).

        The default writes out :meth:`table_view`.
        """
        return [tuple(line) for line in view_lines(self.table_view(state, viewer))]


class Policy(Protocol):
    """A bot: picks a move from ``moves`` for ``player`` seeing ``state`` (its own view)."""

    def choose(
        self, game: Game[S], state: S, player: int, moves: Sequence[Move], rng: random.Random
    ) -> Move: ...


@dataclass(frozen=True)
class BotSpec:
    """A named bot policy for one game, registered through the ``fairdeal_bots`` hook."""

    game: str
    name: str
    summary: str
    make: Callable[[], Policy]


class RandomPolicy:
    """A uniformly random legal player; every game has it, as ``random``."""

    def choose(self, game: Game[S], state: S, player: int, moves: Sequence[Move], rng: random.Random) -> Move:
        return moves[rng.randrange(len(moves))]


def random_bot(game: str) -> BotSpec:
    return BotSpec(game, "random", "a uniformly random legal player", RandomPolicy)
