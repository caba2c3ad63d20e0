"""The rules API: what a game plugin writes (plugin API 2; see ``docs/plugins.md``).

A game is a deterministic step function over an explicit state. The state's
card part is a :class:`~fairdeal.core.table.Table` (tokens in zones); the rest is
the game's own immutable fields. The core drives it like this::

    state = game.setup(config, table)       # the deck is shuffled into game.deck_zone
    loop:
        core settles the table: reveals owed by visibility, pending shuffles
        step = game.next_step(state)
        Decide(p) -> p picks a move from game.legal_moves(state, p); state = game.apply(state, p, move)
        Auto()    -> state = game.advance(state)
        Chance(n) -> the seats draw v in range(n) jointly; state = game.on_chance(state, v)
        Find(card, zones) -> its holder shows it; state = game.on_found(state, seat or None)
        Over(r)   -> done: r is the Result

Rules of the contract:

* ``setup``, ``apply``, ``advance`` and ``on_chance`` return a new state and never
  change the one they were given (``state.copy()`` first).
* Decisions (``next_step``, the result, the legality of a move) may depend only on
  what the viewer of the state legitimately knows; every seat runs the same rules on
  its own view and must reach the same step. A card the viewer does not know reads
  as None: treat it as "could be anything" (never forbid a move because of it).
* ``legal_moves`` is asked only of the seat to move, and a move is checked (``is_legal``)
  only on that seat's turn: the core makes sure of both. Every seat checks a move on its
  own view, so ``legal_moves`` lists what the cards that view knows allow; a move legal
  only if no other is (``plays or [Move("draw")]``) is then checked against the known
  cards live and against every card by ``fairdeal verify``.
* ``apply`` may read the cards its move brings into view from the mover's own
  knowledge (a card played from a hand): the core reveals them before ``apply``.
  Cards turned up from a hidden pile are known from the next call on.
* Game-specific fields never hold the identity of a card that is not public;
  cards live in the table.
"""

from __future__ import annotations

import inspect
import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from .cards import Card, standard_52
from .errors import PluginError, RemoteProtocolError
from .options import Config, Option, exact_config, make_config
from .table import RuledOut, Table, Visibility, Zone
from .tableview import MoveParts, Seat, TableView, default_parts, default_view
from .text import shows_as_is

#: The version of the plugin API this fairdeal offers. A game states the version it is written
#: to (``Game.api``); a game written to a later one is refused, naming both.
PLUGIN_API = 3
#: The file beside a game's module that holds its rules, when the game does not set ``rules``.
RULES_FILE = "rules.txt"

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
    """How a game (or match) ended. ``winner`` is a seat, or None for a draw / no winner.

    ``scores`` holds one number per seat; ``reason`` says why the game ended and ``standing``
    (optional) how the match stands. Both may name seats as ``seat N``: front ends write the
    seat's name there.
    """

    winner: int | None
    scores: tuple[int, ...]
    reason: str
    standing: str = ""


#: What a seat decides when the game says no more (front ends say it in the reader's language).
TO_PLAY = "to play"


@dataclass(frozen=True, slots=True)
class Decide:
    """Seat ``player`` must choose one of ``legal_moves``; ``what`` it is to do, in words
    after the seat's name (``Bob to play``, ``You to stand or propose an exchange``; two
    steps are equal when the same seat decides, whatever their words)."""

    player: int
    what: str = field(default=TO_PLAY, compare=False)


@dataclass(frozen=True, slots=True)
class Auto:
    """The game goes on by itself: the core calls ``advance``."""


@dataclass(frozen=True, slots=True)
class Chance:
    """A joint random choice in ``range(n)``; the core calls ``on_chance`` with it."""

    n: int
    why: str = ""


@dataclass(frozen=True, slots=True)
class Find:
    """Whoever holds ``card`` in one of the hands ``zones`` shows it to everyone ("the 2♣ leads");
    the core asks every hand's owner at once and calls ``on_found`` with the seat that held it
    (None: nobody did). The card is then public where it lies. ``what`` names the search for the
    seats' status lines ("who holds the 2♣")."""

    card: Card
    zones: tuple[str, ...]
    what: str = ""


@dataclass(frozen=True, slots=True)
class Over:
    result: Result


Step = Decide | Auto | Chance | Find | Over


@dataclass(frozen=True, slots=True)
class Verb:
    """A word of a move that changes when the move is told after it was made: ``present`` as
    the player choosing it reads it (``play``), ``past`` as the story tells it (``played``)."""

    present: str
    past: str


#: A move in words: text, cards (None: a card this view does not know, written "a card"), seats
#: (written ``seat N``, which front ends write as the seat's name) and verbs.
MoveWords = tuple[str | Card | Seat | Verb | None, ...]

_NO_SPACE_BEFORE = (",", ".", ":", ";", ")", " ")


def words_text(words: MoveWords, past: bool = False) -> str:
    """A move's words as text, its verbs in the present (or the ``past``), cards as ``7♥``, seats
    as ``seat N`` (the front ends write the seat's name there, as in a result's words)."""
    out = ""
    for w in words:
        if isinstance(w, Verb):
            text = w.past if past else w.present
        elif isinstance(w, Card):
            text = w.text()
        elif isinstance(w, Seat):
            text = f"seat {w.seat}"
        else:
            text = "a card" if w is None else str(w)
        if not text:
            continue
        if out and not out.endswith(("(", " ")) and not text.startswith(_NO_SPACE_BEFORE):
            out += " "
        out += text
    return out


@dataclass(frozen=True, slots=True)
class FaceDown:
    """``count`` face-down cards in a rendered line (plugin API 1: line mode now draws the
    table from :meth:`Game.table_view`, and nothing draws these)."""

    count: int = 1


#: A rendered line of plugin API 1 (``Game.render``), which nothing calls any more.
Segment = str | Card | FaceDown | Seat
Line = tuple[Segment, ...]


@dataclass(frozen=True)
class GameState:
    """Base of every game state: the table plus the game's own (immutable) fields."""

    table: Table

    def copy(self) -> Self:
        """A copy that can be changed without touching this one (the other fields are immutable)."""
        return self.with_table(self.table.copy())

    def with_table(self, table: Table) -> Self:
        """This state with ``table`` instead of its own (shared, not copied)."""
        return self._made({"table": table})

    def but(self, **changes: Any) -> Self:
        """This state with the fields named changed, the table shared unless one is given:
        ``dataclasses.replace(self, **changes)``, several times faster (a search applies rules
        thousands of times a decision). A name that is no field is a ``TypeError``."""
        names = (_SHAPES.get(type(self)) or _shape(type(self)))[0]
        if not changes.keys() <= names:
            raise TypeError(f"{type(self).__name__} has no field {sorted(changes.keys() - names)[0]!r}")
        return self._made(changes)

    def _made(self, changes: dict[str, Any]) -> Self:
        """``dataclasses.replace(self, **changes)``: for a plain state class its fields copied
        without running ``__init__`` (what else its instances hold, such as a
        ``cached_property``'s value, is left to be worked out again); for one with a
        ``__post_init__`` or slots, through ``__init__``."""
        names, rerun = _SHAPES.get(type(self)) or _shape(type(self))
        if rerun:
            return replace(self, **changes)
        new = object.__new__(type(self))
        held = self.__dict__
        # Nothing but the fields (the usual case) is copied whole: faster than field by field.
        new.__dict__.update(held if len(held) == len(names) else {name: held[name] for name in names})
        new.__dict__.update(changes)
        return new


def _shape(cls: type[GameState]) -> tuple[frozenset[str], bool]:
    """A state class's field names, and whether its states are made through ``__init__``: it
    has a ``__post_init__`` to run again, or keeps fields in slots rather than its dict."""
    slotted = any("__slots__" in vars(k) for k in cls.__mro__)
    shape = _SHAPES[cls] = (frozenset(f.name for f in fields(cls)), slotted or hasattr(cls, "__post_init__"))
    return shape


_SHAPES: dict[type[GameState], tuple[frozenset[str], bool]] = {}


S = TypeVar("S", bound=GameState)


class Policy(Protocol):
    """A bot: picks a move from ``moves`` for ``player`` seeing ``state`` (its own view)."""

    def choose(self, game: Game[S], state: S, player: int, moves: list[Move], rng: random.Random) -> Move: ...


@dataclass(frozen=True)
class Bot:
    """A bot a game ships (``Game.bots``): its name, one line on how it plays, and how to make
    one (a class, or any function of no arguments that returns a :class:`Policy`)."""

    name: str
    summary: str
    make: Callable[[], Policy]


@dataclass(frozen=True)
class BotSpec:
    """A named bot policy for one game, registered through the ``fairdeal_bots`` hook."""

    game: str
    name: str
    summary: str
    make: Callable[[], Policy]


@dataclass(frozen=True)
class Search:
    """A game's budget for the ``expert`` bot (``Game.search``).

    ``playouts``: playouts per decision (each a candidate move played on in one sampled world).
    ``horizon``: None, each playout goes to the end of the game (or to :meth:`Game.outlook`);
    a number, the playout stops at the first state :meth:`Game.estimate` judges once it has
    played that many moves — a game too long to play out at every decision.
    ``doubt``: 0, the move with the best mean is played; more, the game's own bot's choice is
    played unless another beat it by more than that many standard errors, world by world (for a
    game whose playouts are noisy next to what tells its moves apart). Doubt weighs the flat
    search's paired playouts: a search with doubt is flat, whatever ``tree`` says.
    ``tree``: True, a tree search (:mod:`fairdeal.core.tree`: information-set MCTS, each playout
    one walk down a tree of both seats' later choices); False, a flat one (each candidate move
    played out in the same worlds, successive halving; :mod:`fairdeal.core.search`); None (the
    default), chosen by what plays the playouts (:meth:`flat_with`): the tree when they are
    random moves (a game with no bot of its own), the flat search when a bot plays them — a
    step better than that bot, which the tree's first choices, made with few visits, often are
    not.
    """

    playouts: int = 240
    horizon: int | None = None
    doubt: float = 0.0
    tree: bool | None = None

    def flat_with(self, rollout: object) -> bool:
        """Whether the expert searches flat when ``rollout`` plays its playouts: asked to
        (``tree=False``), with doubt, or left to choose (``tree=None``) with a bot playing them
        rather than random moves."""
        if self.tree is False or self.doubt > 0:
            return True
        return self.tree is None and not isinstance(rollout, RandomPolicy)

    def __post_init__(self) -> None:
        if self.playouts < 1 or (self.horizon is not None and self.horizon < 1) or self.doubt < 0:
            raise ValueError(
                "a search needs at least one playout, a horizon of a move or more and a doubt of 0 "
                f"or more: {self!r}"
            )


class Game(ABC, Generic[S]):
    """A card game's rules. Subclass it, fill in the class attributes and methods.

    Data is declared as class attributes: ``deck``, ``zones`` and ``deck_zone`` may each be
    the value itself or a method of the configuration (when it depends on the players or
    the options); the core reads them through :meth:`deck_for`, :meth:`zones_for` and
    :meth:`deck_zone_for`.
    """

    name: ClassVar[str]  # command-line name, e.g. "spite-malice"
    title: ClassVar[str]  # display name, e.g. "Spite & Malice"; default: the name, "Crazy Eights"
    summary: ClassVar[str]  # one line for `fairdeal games`
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: The plugin API this game is written to (a game that states none is of API 1).
    api: ClassVar[int] = 1
    options: ClassVar[tuple[Option, ...]] = ()
    #: Every card, distinct, in any order (the deck protocol takes them in the canonical order,
    #: :func:`~fairdeal.core.cards.canonical`): a sequence of cards, or a method
    #: ``deck(self, config)``. Default: one 52-card deck.
    deck: ClassVar[Any] = standard_52()
    #: Every zone of the table: a sequence, or a method ``zones(self, config)``.
    zones: ClassVar[Any]
    #: The HIDDEN zone that receives the freshly shuffled deck (or a method of the config); None:
    #: the zone named ``deck`` if there is one, else the first HIDDEN zone no seat owns.
    deck_zone: ClassVar[Any] = None
    #: The rules in plain English, options included; None: the file ``rules.txt`` beside the
    #: module that defines the game. Translations are files beside it, ``rules.de.txt``,
    #: ``rules.ru.txt``, ... (:meth:`rules_text`).
    rules: ClassVar[str | None] = None
    #: The game's own words in other languages: a ``fairdeal.Catalog`` of gettext catalogs beside
    #: its package (docs/plugins.md, "Your game in other languages"). Front ends say its options'
    #: help and its results through it; its code says the rest itself (``catalog.gettext``).
    catalog: ClassVar[Any] = None
    #: The bots this game ships; every game also has ``random``.
    bots: ClassVar[tuple[Bot, ...]] = ()
    #: The bot ``--seat bot`` plays: a bot of ``bots``, one another plugin registers for this
    #: game, or ``random``. None: the first of ``bots``, else ``random``.
    default_bot: ClassVar[str | None] = None
    #: A bound on the moves of one game (conformance kit, runners).
    max_moves: ClassVar[int] = 10_000
    #: How the ``expert`` (search) bot spends its thought on this game (:class:`Search`).
    search: ClassVar[Search] = Search()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = getattr(cls, "name", None)
        if getattr(cls, "title", None) is None and isinstance(name, str):
            cls.title = name.replace("-", " ").title()

    # -- declarations, as the core reads them ------------------------------------------------------
    def config(self, players: int, raw: dict[str, object] | None = None) -> Config:
        """Validate a player count and raw option values into a Config."""
        return make_config(self.name, self.options, players, self.min_players, self.max_players, raw)

    def exact_config(self, players: int, values: Mapping[str, object]) -> Config:
        """Check a configuration a peer sent: every option, each exactly typed (no parsing)."""
        return exact_config(self.name, self.options, players, self.min_players, self.max_players, values)

    def deck_for(self, config: Config) -> tuple[Card, ...]:
        """Every card of the game for ``config``, in the deck's order."""
        return tuple(self._declared("deck", config))

    def zones_for(self, config: Config) -> tuple[Zone, ...]:
        """Every zone of the table for ``config``."""
        return tuple(self._declared("zones", config))

    def deck_zone_for(self, config: Config) -> str:
        """The zone that receives the freshly shuffled deck."""
        if self.deck_zone is not None:
            return str(self._declared("deck_zone", config))
        zones = self.zones_for(config)
        if any(z.name == "deck" for z in zones):
            return "deck"
        hidden = [z.name for z in zones if z.visibility is Visibility.HIDDEN and z.owner is None]
        if not hidden:
            raise PluginError(f"game {self.name!r} has no HIDDEN zone that no seat owns to take the deck")
        return hidden[0]

    def _declared(self, what: str, config: Config) -> Any:
        value = getattr(self, what, None)
        if value is None:
            raise PluginError(f"game {self.name!r} declares no {what}")
        return value(config) if callable(value) else value

    def rules_text(self, lang: str | None = None) -> str:
        """The rules in the language ``lang`` (``de``, ``ru``, ...; None or ``en``: English): the file
        ``rules.LANG.txt`` beside the game's module (or beside the module of the game it subclasses),
        else, as in English, ``rules`` or ``rules.txt``. Front ends call it through :func:`rules_in`,
        which also asks games written before it took a language."""
        if lang and lang != "en":
            translated = _read_rules(rules_path(type(self), lang))
            if translated:
                return translated
        if isinstance(self.rules, str):
            return self.rules
        return _read_rules(rules_path(type(self)))

    def bot_name(self) -> str:
        """The name of the bot ``--seat bot`` plays."""
        if self.default_bot:
            return self.default_bot
        return self.bots[0].name if self.bots else "random"

    # -- the engine --------------------------------------------------------------------------------
    @abstractmethod
    def setup(self, config: Config, table: Table) -> S:
        """The initial state; ``table`` holds the shuffled deck in the deck zone."""

    @abstractmethod
    def next_step(self, state: S) -> Step:
        """What happens next. Pure; depends only on what every seat knows."""

    @abstractmethod
    def legal_moves(self, state: S, player: int) -> Sequence[Move]:
        """Every move ``player``, the seat to move, may make now, as far as ``state`` lets one tell.

        Asked only on ``player``'s turn. ``state`` may be any seat's view: list what the cards
        it knows allow (``table.known``); a card it does not know never forbids a move.
        """

    def is_legal(self, state: S, player: int, move: Move) -> bool:
        """Whether ``move`` is allowed, asked only on ``player``'s turn (default: it is one of
        ``legal_moves``). Override only when listing every move is costly."""
        return move in self.legal_moves(state, player)

    def allows(self, state: S, player: int, move: Move) -> bool:
        """Whether ``player`` may make ``move`` now, as every seat judges it: it is that seat's
        turn (the table settled, :meth:`next_step` says ``Decide(player)``) and :meth:`is_legal`."""
        step = self.next_step(state) if state.table.settled() else None
        return isinstance(step, Decide) and step.player == player and self.is_legal(state, player, move)

    @abstractmethod
    def apply(self, state: S, player: int, move: Move) -> S:
        """The state after ``player`` makes ``move`` (assumed legal)."""

    def advance(self, state: S) -> S:
        """The state after an ``Auto`` step."""
        raise NotImplementedError(f"{self.name} returned Auto but does not implement advance")

    def on_chance(self, state: S, value: int) -> S:
        """The state after a joint random choice."""
        raise NotImplementedError(f"{self.name} returned Chance but does not implement on_chance")

    def on_found(self, state: S, seat: int | None) -> S:
        """The state after a ``Find``: ``seat`` held the card (now public in its hand), or nobody did."""
        raise NotImplementedError(f"{self.name} returned Find but does not implement on_found")

    def departed(self, state: S) -> frozenset[int]:
        """Seats that have left the game for good (they play no more)."""
        return frozenset()

    # -- what bots may infer (optional) --------------------------------------------------------------
    def rules_out(self, state: S, player: int, move: Move) -> Sequence[RuledOut]:
        """What ``move`` shows about cards nobody sees, judged on ``state`` just before it (the cards
        the move shows known): ``RuledOut(tokens, cards)``, none of those tokens is any of those
        cards (a seat that does not follow suit holds no card of the suit led). Default: nothing.

        Every view must give the same facts, from public knowledge only, and each must be true of
        every deal; the core records them in the table (``table.ruled_out``) and samples worlds
        that respect them (:func:`fairdeal.core.worlds.sample_world`).
        """
        return ()

    def outlook(self, state: S) -> Sequence[float] | None:
        """Each seat's chance of winning from ``state`` (an all-seeing, settled state), when the
        game can tell it without playing on; None (the default): play on. A search bot's playouts
        stop at the first state that has one (Écarté: a deal is over, the match score says the
        rest), which makes them shorter and less noisy."""
        return None

    def estimate(self, state: S) -> Sequence[float] | None:
        """Each seat's chance of winning from ``state`` (all-seeing, settled), guessed rather
        than known: asked only of a playout past its horizon (``search.horizon``), which stops at
        the first state that has one. None (the default): play on."""
        return None

    def alike(self, state: S, player: int, move: Move) -> Hashable:
        """What ``move`` does, as far as winning goes: moves alike on ``state`` (the mover's
        view) lead to positions worth the same (two cards of one rank where suits do not
        matter), and the search bot tries one of them. Default: the move itself."""
        return move

    # -- words ---------------------------------------------------------------------------------------
    def words(self, state: S, player: int, move: Move) -> MoveWords:
        """The move in words, its verbs as :class:`Verb`: ``(Verb("play", "played"), card)``.

        :meth:`describe` writes them for the player choosing (``play 7♥``), :meth:`narrate`
        for the story (``Bob played 7♥``, ``You played 7♥``). ``state`` is the view of the
        seat reading them; a card it does not know may be None (``a card``); a ``Seat(n)``
        names another seat (``ask Bob for sevens``).
        """
        return (str(move),)

    def describe(self, state: S, player: int, move: Move) -> str:
        """The move in words, for the player choosing it: ``play 7♥ onto centre 2``."""
        return words_text(self.words(state, player, move))

    def narrate(self, state: S, player: int, move: Move, name: str) -> str:
        """The move in words, after it was made: ``Bob played 7♥ onto centre 2``.

        ``state`` is the narrating seat's own view just before the move, with the cards
        the move shows already known; the text is shown to that seat only, so it may
        name cards that seat knows. The mover reads it in the second person (``You played``).
        """
        if type(self).words is Game.words:  # a game of plugin API 1, with describe of its own
            return f"{name}: {self.describe(state, player, move)}"
        who = "You" if state.table.viewer == player else name
        return f"{who} {words_text(self.words(state, player, move), past=True)}"

    def remarks(self, before: S, after: S) -> Sequence[MoveWords]:
        """What the game itself did from ``before`` to ``after`` (one seat's view before and after
        one entry) that no move's narration tells, each in words for the story: a point the deal
        scored (``(Seat(1), "scored 1 point for the turned-up King")``). Told in the past tense;
        a seat as :class:`Seat` (the reader's own is written "You"); only what ``after``'s viewer
        may know. Default: nothing."""
        return ()

    # -- the table -----------------------------------------------------------------------------------
    def view(self, state: S, viewer: int | None) -> TableView:
        """The table as ``viewer`` sees it, as regions of piles (see :mod:`fairdeal.core.tableview`).

        The default shows every zone (:meth:`TableView.of`): a region per seat with the zones
        it owns, the rest in the middle. Whose turn it is and what the game waits for come from
        :meth:`next_step` unless the view sets them. Only cards ``viewer`` knows may show.
        """
        return default_view(state.table, viewer)

    def table_view(self, state: S, viewer: int | None) -> TableView:
        """The table every front end draws: :meth:`view`, with ``turn`` and ``status`` from
        :meth:`next_step` where the view leaves them out."""
        view = self.view(state, viewer)
        if self.catalog is not None:  # the zones' titles, declared once, said in the reader's language
            view = view.labels_said(self.catalog.gettext)
        if view.turn is not None and view.status:
            return view
        step = self.next_step(state) if state.table.settled() else None
        if not isinstance(step, Decide):
            return view
        return replace(
            view,
            turn=step.player if view.turn is None else view.turn,
            status=view.status or (Seat(step.player), step.what),
        )

    def move_parts(self, state: S, player: int, move: Move) -> MoveParts:
        """What ``move`` takes and where it goes on the table, so a player can pick it there.

        The default: the card is the first argument that is a token on the table, the target
        the first argument that names a zone, the verb the action. A move with neither is a
        button labelled with :meth:`describe`.
        """
        return default_parts(state.table, move.args, move.action)


def rules_path(cls: type, lang: str | None = None) -> Path | None:
    """Where the rules file of the game class ``cls`` is: ``rules.txt`` (``rules.LANG.txt`` for a
    language ``lang``) beside its module, or beside the module of the class it is made from (a game
    changed by subclassing it keeps its rules); None when there is none."""
    name = RULES_FILE if not lang or lang == "en" else f"rules.{lang}.txt"
    for klass in cls.__mro__:
        if klass is Game:
            break
        file = getattr(sys.modules.get(klass.__module__), "__file__", None)
        if file and (path := Path(file).with_name(name)).is_file():
            return path
    return None


def _read_rules(path: Path | None) -> str:
    """The text of a rules file; "" when there is none or it cannot be read (the registry and the kit
    say so)."""
    try:
        return path.read_text(encoding="utf-8") if path is not None else ""
    except OSError:
        return ""


def rules_in(game: Game[Any], lang: str | None) -> str:
    """``game``'s rules in ``lang`` where it has them, else in English. A game that overrides
    ``rules_text`` without a language (plugin API 1 and 2) is asked in English."""
    try:
        takes_lang = bool(inspect.signature(game.rules_text).parameters)
    except (TypeError, ValueError):
        takes_lang = False
    return game.rules_text(lang) if takes_lang else game.rules_text()


class RandomPolicy:
    """A uniformly random legal player; every game has it, as ``random``."""

    def choose(self, game: Game[S], state: S, player: int, moves: Sequence[Move], rng: random.Random) -> Move:
        return moves[rng.randrange(len(moves))]


def random_bot(game: str) -> BotSpec:
    return BotSpec(game, "random", "a uniformly random legal player", RandomPolicy)
