"""The plugin conformance kit: run it on your game before you publish it.

    from fairdeal.testing import check_game
    def test_my_game_conforms():
        check_game(MyGame(), players=[2, 4], seeds=range(30))

It plays random legal games with the plain dealer and checks, after every event:

* the game declares what it must: rules text, a deck in the canonical order (copy 0
  before copy 1, suits C D H S, each suit's ranks in one order), a hidden deck zone;
* every seat's view, the public view and the all-seeing view agree on what happens
  next (the rules decide only on what everyone can see), and every view accepts the
  moves made (a card it does not know never forbids a move);
* no view holds the identity of a card that seat may not see, in the table or
  elsewhere in the state, or in what ``table_view`` draws;
* ``table_view`` describes the table it was given: every pile's cards are the cards
  of its tokens as that view knows them, no token shows twice, seats are real, and
  every legal move can be picked on the mover's table (its card shows in a pile, its
  target is a pile);
* no move outside ``legal_moves`` is accepted, and ``apply`` leaves its input alone;
* every legal move has words (``describe``, ``narrate``);
* every legal move can be sent as it is (its words are short plain text: no control
  characters, no line breaks);
* the same seed gives the same game, every game ends within ``game.max_moves``,
  and the result is well formed;
* what the game's ``rules_out`` says of hidden cards is true of the real deal, and a world
  sampled from a seat's view (:func:`fairdeal.core.worlds.sample_world`) never contradicts
  that view (:func:`check_world`);
* the search hooks say what they must: ``alike`` gives each legal move one kind, and
  ``outlook`` and ``estimate`` give each seat a chance in [0, 1], summing to at most 1.

:func:`check_bot` checks a bot: its choice depends only on its view (the same view with other
hidden cards behind it, and the same random stream, give the same move), and it is legal.

A failure raises :class:`ConformanceError` saying what, where and with which seed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core.cards import Card
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError
from fairdeal.core.playout import settle as settle_world
from fairdeal.core.replica import NeedReveals, NeedShuffle, Replica
from fairdeal.core.rng import SeededRng
from fairdeal.core.rules import Game, GameState, Move, Over, Policy, RandomPolicy, Result
from fairdeal.core.runner import Event, GameTooLong, Played, play_game
from fairdeal.core.table import EVERYONE, Table, Visibility, Zone
from fairdeal.core.tableview import Seat, TableView
from fairdeal.core.worlds import sample_world


class ConformanceError(AssertionError):
    """The game broke a rule of the rules API."""


@dataclass
class KitReport:
    """What the kit ran: games, moves, and how the games ended."""

    games: int = 0
    moves: int = 0
    longest: int = 0
    winners: dict[int | None, int] = field(default_factory=dict)


def check_game(
    game: Game,
    players: int | Sequence[int] | None = None,
    options: Mapping[str, object] | None = None,
    seeds: Iterable[int] = range(20),
    *,
    policies: Sequence[Policy] | None = None,
) -> KitReport:
    """Run the whole kit on ``game``; raise :class:`ConformanceError` on the first problem."""
    counts = [players] if isinstance(players, int) else list(players or {game.min_players, game.max_players})
    report = KitReport()
    if not game.rules_text().strip():
        raise ConformanceError(f"{game.name}: no rules text (rules.txt beside the module, or rules)")
    for n in counts:
        config = game.config(n, dict(options or {}))
        _check_declarations(game, config, f"{game.name}, {n} players")
        for seed in seeds:
            where = f"{game.name}, {n} players, seed {seed}"
            first = _play_checked(game, config, seed, policies, where)
            again = play_game(
                game, config, PlainDealer(n, SeededRng(seed)), _policies(n, policies), random.Random(seed)
            )
            if again.moves != first.moves or again.result != first.result:
                raise ConformanceError(f"{where}: the same seed gave a different game")
            _check_result(first.result, n, where)
            report.games += 1
            report.moves += len(first.moves)
            report.longest = max(report.longest, len(first.moves))
            report.winners[first.result.winner] = report.winners.get(first.result.winner, 0) + 1
    return report


def _check_declarations(game: Game, config: Any, where: str) -> None:
    """The deck is 1 to 1024 distinct cards, the same ones every time (the deck protocol takes them
    into its first shuffle in the canonical order, :func:`fairdeal.core.cards.canonical`, whatever
    order the game lists them in, so the order is never the game's to rely on), and the deck zone is
    one of the game's HIDDEN zones."""
    from fairdeal.core.cards import canonical
    from fairdeal.core.deck import MAX_DECK

    deck = list(game.deck_for(config))
    if not 1 <= len(deck) <= MAX_DECK or not all(isinstance(c, Card) for c in deck):
        raise ConformanceError(f"{where}: the deck must be 1 to {MAX_DECK} cards")
    if len({c.name for c in deck}) != len(deck):
        raise ConformanceError(f"{where}: the deck has a card twice (copies of a card differ by their copy)")
    if canonical(game.deck_for(config)) != canonical(deck):
        raise ConformanceError(f"{where}: the deck gives other cards when asked again")
    zones = {z.name: z for z in game.zones_for(config)}
    deck_zone = game.deck_zone_for(config)
    if deck_zone not in zones or zones[deck_zone].visibility is not Visibility.HIDDEN:
        raise ConformanceError(f"{where}: the deck zone {deck_zone!r} must be one of its HIDDEN zones")


def _policies(n: int, policies: Sequence[Policy] | None) -> list[Policy]:
    return list(policies) if policies is not None else [RandomPolicy() for _ in range(n)]


def _play_checked(
    game: Game, config: Any, seed: int, policies: Sequence[Policy] | None, where: str
) -> Played:
    n = config.players
    inner = _policies(n, policies)
    wrapped = [_CheckingPolicy(p, seat, where) for seat, p in enumerate(inner)]

    def observe(event: Event, replicas: dict[int | None, Replica]) -> None:
        _check_replicas(game, replicas, f"{where}, after {event.kind}")

    try:
        return play_game(
            game, config, PlainDealer(n, SeededRng(seed)), wrapped, random.Random(seed), observe=observe
        )
    except ConformanceError:
        raise
    except RemoteProtocolError as exc:
        raise ConformanceError(
            f"{where}: a view refused a move its seat could make ({exc}): legal_moves must list what "
            "the cards each view knows allow; a card a view does not know never forbids a move"
        ) from exc
    except Exception as exc:
        raise ConformanceError(f"{where}: {type(exc).__name__}: {exc}") from exc


class _CheckingPolicy:
    """Wraps a policy; checks the decision point before passing it on."""

    def __init__(self, inner: Policy, seat: int, where: str) -> None:
        self.inner, self.seat, self.where = inner, seat, where

    def choose(
        self, game: Game, state: GameState, player: int, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        where = f"{self.where}, seat {player} to move"
        if len(set(moves)) != len(moves):
            raise ConformanceError(f"{where}: legal_moves lists a move twice")
        before = state.copy()
        for move in moves:
            try:
                sent = Move.from_wire(move.to_wire())
            except RemoteProtocolError as e:
                raise ConformanceError(f"{where}: peers would refuse {move!r}: {e.reason}") from None
            if sent != move:
                raise ConformanceError(f"{where}: {move!r} does not arrive as itself ({sent!r})")
            for words in (game.describe(state, player, move), game.narrate(state, player, move, "Bob")):
                if not isinstance(words, str) or not words.strip():
                    raise ConformanceError(f"{where}: {move} has no words ({words!r})")
            if not game.is_legal(state, player, move):
                raise ConformanceError(f"{where}: is_legal refuses {move}, which legal_moves lists")
            game.apply(state, player, move)
            if not _same_state(state, before):
                raise ConformanceError(f"{where}: apply({move}) changed the state it was given")
        for bogus in _bogus_moves(moves):
            try:
                accepted = game.is_legal(state, player, bogus)
            except Exception as exc:
                raise ConformanceError(
                    f"{where}: is_legal({bogus}) raised {type(exc).__name__}: it must "
                    "return False for anything a peer could send"
                ) from exc
            if accepted:
                raise ConformanceError(f"{where}: is_legal accepts {bogus}, which legal_moves does not list")
        _check_pickable(game, state, player, moves, where)
        world = sample_world(state, random.Random(len(moves)))
        check_world(state, world, where)
        _check_search_hooks(game, state, world, player, moves, where)
        return self.inner.choose(game, state, player, list(moves), rng)


def _check_search_hooks(
    game: Game, view: GameState, world: GameState, player: int, moves: Sequence[Move], where: str
) -> None:
    """``alike`` gives every move a kind, the same each time; ``outlook`` and ``estimate`` of a
    settled world are None or a chance in [0, 1] for each seat, summing to at most 1."""
    for move in moves:
        try:
            kind, again = game.alike(view, player, move), game.alike(view, player, move)
            same = kind == again and hash(kind) == hash(again)
        except Exception as exc:
            raise ConformanceError(f"{where}: alike({move}) raised {type(exc).__name__}: {exc}") from exc
        if not same:
            raise ConformanceError(f"{where}: alike({move}) gives another kind each time it is asked")
    settle_world(world.table, random.Random(0))
    n = world.table.players
    for hook in (game.outlook, game.estimate):
        chances = hook(world)
        if chances is None:
            continue
        values = list(chances)
        if len(values) != n or not all(0.0 <= v <= 1.0 for v in values) or sum(values) > 1.0 + 1e-9:
            raise ConformanceError(
                f"{where}: {hook.__name__} says {values!r}: it must give each of the {n} seats a chance "
                "in [0, 1], summing to at most 1"
            )


def _bogus_moves(moves: Sequence[Move]) -> Iterator[Move]:
    legal = set(moves)
    candidates = [Move("no-such-move"), Move("no-such-move", (1, "x"))]
    for m in moves:
        candidates.append(Move(m.action, (*m.args, 0)))
        if m.args:
            candidates.append(Move(m.action, m.args[:-1]))
            bumped = tuple(a + 100_000 if isinstance(a, int) else a + "?" for a in m.args)
            candidates.append(Move(m.action, bumped))
        for i, a in enumerate(m.args):  # what a hostile peer might send: wrong types, negative numbers
            for other in ("x", -1) if isinstance(a, int) else (10**9, ""):
                candidates.append(Move(m.action, (*m.args[:i], other, *m.args[i + 1 :])))
    yield from (c for c in candidates if c not in legal)


def _same_state(a: GameState, b: GameState) -> bool:
    return a.table == b.table and _fields(a) == _fields(b)


def _fields(state: GameState) -> dict[str, Any]:
    return {f.name: getattr(state, f.name) for f in dataclasses.fields(state) if f.name != "table"}


def _check_replicas(game: Game, replicas: dict[int | None, Replica], where: str) -> None:
    public = replicas[None]
    full = replicas.get(EVERYONE)
    expected = _need_key(public.need())
    for viewer, r in replicas.items():
        got = _need_key(r.need())
        if got != expected:
            raise ConformanceError(
                f"{where}: view of {_who(viewer)} says {got}, the public view says "
                f"{expected}: the rules depend on hidden cards"
            )
        if full is not None:
            _check_facts(r.state.table, full.state.table, f"{where}, view of {_who(viewer)}")
        if viewer in (None, EVERYONE):
            continue
        _check_view(
            game, r.state, viewer, full.state.table if full else None, f"{where}, view of seat {viewer}"
        )
    _check_view(game, public.state, None, full.state.table if full else None, f"{where}, public view")


def _check_facts(table: Table, truth: Table, where: str) -> None:
    """What ``rules_out`` recorded holds of the real cards."""
    for fact in table.ruled_out:
        for token in fact.tokens:
            card = truth.card(token) if truth.zone_of(token) is not None else None
            if card in fact.cards:
                raise ConformanceError(
                    f"{where}: rules_out says token {token} is none of some cards; it is {card}"
                )


def check_world(view: GameState, world: GameState, where: str = "") -> None:
    """Raise :class:`ConformanceError` unless ``world`` is a complete world consistent with the seat's
    ``view``: every token has a card, the deck's cards each once, what the view knows unchanged and
    what play ruled out respected, the game's fields the same; masked back to the seat, the view."""
    where = f"{where}, sampled world" if where else "sampled world"
    table, full = view.table, world.table
    if full.viewer != EVERYONE:
        raise ConformanceError(f"{where}: a world's table must be all-seeing")
    cards = [full.card(t) for t in full.all_tokens()]
    if None in cards or sorted(map(str, cards)) != sorted(map(str, table.deck)):
        raise ConformanceError(f"{where}: the world does not hold every card of the deck once")
    for token, card in table.known_cards().items():
        if full.card(token) != card:
            raise ConformanceError(
                f"{where}: token {token} is {card} in the view, {full.card(token)} in the world"
            )
    _check_facts(table, full, where)
    if full.masked(table.viewer) != table:
        raise ConformanceError(f"{where}: the world, as the seat sees it, is not the view")
    if _fields(world) != _fields(view):
        raise ConformanceError(f"{where}: the world changed the game's own fields")


def check_bot(
    game: Game,
    make: Any,
    players: int,
    seeds: Iterable[int] = range(3),
    options: Mapping[str, object] | None = None,
    *,
    others: Any = RandomPolicy,
) -> int:
    """Play games with ``make()`` in seat 0 (``others()`` elsewhere) and check, at each of its
    decisions with a choice, that its move is legal and depends only on its view: on another deal
    consistent with that view (a sampled world, masked back to the seat) and the same random stream,
    it makes the same move. Returns how many decisions were checked."""
    config = game.config(players, dict(options or {}))
    checked = 0
    for seed in seeds:
        bot = _ViewOnly(make(), f"{game.name}, {players} players, seed {seed}")
        policies = [bot, *(others() for _ in range(players - 1))]
        play_game(game, config, PlainDealer(players, SeededRng(seed)), policies, random.Random(seed))
        checked += bot.checked
    return checked


class _ViewOnly:
    """Wraps a bot; at each choice, asks it again on another deal behind the same view."""

    def __init__(self, inner: Policy, where: str) -> None:
        self.inner, self.where, self.checked = inner, where, 0

    def choose(
        self, game: Game, state: GameState, player: int, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        if len(moves) < 2:
            return self.inner.choose(game, state, player, list(moves), rng)
        where = f"{self.where}, decision {self.checked}"
        other = sample_world(state, random.Random(self.checked))
        check_world(state, other, where)
        again = other.copy()
        object.__setattr__(again, "table", other.table.masked(player))
        draw = rng.getrandbits(32)
        move = self.inner.choose(game, state.copy(), player, list(moves), random.Random(draw))
        if move not in moves:
            raise ConformanceError(f"{where}: the bot chose {move}, which is not legal")
        if self.inner.choose(game, again, player, list(moves), random.Random(draw)) != move:
            raise ConformanceError(f"{where}: the bot chose otherwise on the same view of another deal")
        self.checked += 1
        return move


def _need_key(need: object) -> object:
    if isinstance(need, NeedReveals):
        return ("reveals", need.reveals)
    if isinstance(need, NeedShuffle):
        return ("shuffle", need.request)
    if isinstance(need, Over):
        return ("over", need.result)
    return need


def _who(viewer: int | None) -> str:
    return "the public" if viewer is None else "everyone" if viewer == EVERYONE else f"seat {viewer}"


def _check_view(game: Game, state: GameState, viewer: int | None, truth: Table | None, where: str) -> None:
    table = state.table
    allowed: set[Card] = set()
    for token, card in table.known_cards().items():
        if not table.knows(viewer, token):
            raise ConformanceError(f"{where}: knows card token {token} without having been shown it")
        if truth is not None and truth.card(token) != card:
            raise ConformanceError(f"{where}: believes token {token} is {card}, it is {truth.card(token)}")
        allowed.add(card)
    public_cards = {c for t, c in table.known_cards().items() if t in table.public}
    for value in _fields(state).values():
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


def _check_pickable(game: Game, state: GameState, player: int, moves: Sequence[Move], where: str) -> None:
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


def _check_result(result: Result, players: int, where: str) -> None:
    if len(result.scores) != players:
        raise ConformanceError(f"{where}: the result has {len(result.scores)} scores for {players} players")
    if result.winner is not None and not 0 <= result.winner < players:
        raise ConformanceError(f"{where}: the winner {result.winner} is not a seat")
    if not result.reason:
        raise ConformanceError(f"{where}: the result does not say why the game ended")


class _Reached(Exception):
    pass


def random_position(
    game: Game, players: int, seed: int, decisions: int, options: Mapping[str, object] | None = None
) -> tuple[GameState, GameState]:
    """A position of a random game: the view of the seat to decide at its ``decisions``-th decision
    (or the last, if the game ends first) and the real deal then (an all-seeing state)."""
    config = game.config(players, dict(options or {}))
    replicas: dict[int | None, Replica] = {}
    seen: list[tuple[GameState, GameState]] = []

    def observe(event: Event, reps: dict[int | None, Replica]) -> None:
        replicas.update(reps)

    class Stop:
        def choose(
            self, game: Game, state: GameState, player: int, moves: Sequence[Move], rng: random.Random
        ) -> Move:
            seen.append((state, replicas[EVERYONE].state.copy()))
            if len(seen) > decisions:
                raise _Reached
            return moves[rng.randrange(len(moves))]

    dealer = PlainDealer(players, SeededRng(seed))
    with contextlib.suppress(_Reached):
        play_game(game, config, dealer, [Stop()] * players, random.Random(seed), observe=observe)
    return seen[-1]


# -- building scenarios by hand, for rules tests ------------------------------------------------------
def build_table(
    zones: Sequence[Zone],
    players: int,
    contents: Mapping[str, Sequence[Card]],
    viewer: int | None = EVERYONE,
) -> Table:
    """A table holding exactly ``contents`` (zone -> cards, bottom first), as the dealer would
    have dealt it: cards in PUBLIC zones are public, those in OWNER zones known to their owner,
    HIDDEN ones to nobody. ``viewer`` keeps only what it may know (EVERYONE: all)."""
    table = Table(zones, players, EVERYONE, [c for cards in contents.values() for c in cards])
    token = 0
    for zone, cards in contents.items():
        fresh = list(range(token, token + len(cards)))
        token += len(cards)
        table.place(zone, fresh)
        for t, c in zip(fresh, cards, strict=True):
            table._cards[t] = c
    _settle_table(table, random.Random(0))
    return table.masked(viewer)


def settle(state: GameState, seed: int = 0) -> GameState:
    """Perform what an all-seeing table owes (reveals, reshuffles), as a plain dealer would.

    For scenario tests on states whose table is all-seeing (``build_table`` default).
    """
    s = state.copy()
    _settle_table(s.table, random.Random(seed))
    return s


def _settle_table(table: Table, rng: random.Random) -> None:
    if table.viewer != EVERYONE:
        raise ConformanceError("settle needs an all-seeing table (viewer=EVERYONE)")
    try:
        settle_world(table, rng)
    except LocalProtocolError as exc:
        raise ConformanceError(f"the table never settled ({exc})") from None


# -- playing over the real protocol, in one process ---------------------------------------------------
class _Bounded:
    """A bot that stops the game when all the seats together have made ``game.max_moves`` moves."""

    def __init__(self, inner: Policy, game: Game, made: list[int]) -> None:
        self.inner, self.game, self.made = inner, game, made

    def choose(
        self, game: Game, state: GameState, player: int, moves: list[Move], rng: random.Random
    ) -> Move:
        self.made[0] += 1
        if self.made[0] > self.game.max_moves:
            raise GameTooLong(f"{game.name} went past {self.game.max_moves} moves (max_moves): does it end?")
        return self.inner.choose(game, state, player, moves, rng)


@dataclass
class ProtocolGame:
    """A game played by bots over the real protocol in one process, and its log."""

    outcomes: list[Any]
    log: bytes

    @property
    def session(self) -> Any:
        return self.outcomes[0].session

    def verify(self, game: Game) -> Any:
        """What ``fairdeal verify`` says of the log (its ``verdict`` is ``"fair"`` for a fair game)."""
        from fairdeal.core.session.verify import verify_log

        return verify_log(self.log, lambda name: game)


@dataclass
class SeatedGame:
    """A game's header and one session per seat, each with its own identity, all from one seed."""

    header: Any
    sessions: list[Any]
    identities: list[Any]


def seat_sessions(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    *,
    names: Sequence[str] | None = None,
    kinds: Sequence[str] | None = None,
    make_session: Any = None,
) -> SeatedGame:
    """The header of a game for ``players`` seats and a session per seat (seat 0 hosts).

    Identities, the game id and every seat's secrets derive from ``seed``: the same seed
    gives the same game. ``make_session(game, seat, identity, rng)`` builds a seat's session
    (default :class:`~fairdeal.core.session.session.Session`).
    """
    from fairdeal.core.identity import Identity
    from fairdeal.core.session.header import Header, SeatInfo
    from fairdeal.core.session.session import Session

    config = game.config(players, dict(options or {}))
    master = SeededRng(seed)
    ids = [Identity.generate(master.fork(f"identity-{i}")) for i in range(players)]
    names = list(names or [f"Bot {i}" for i in range(players)])
    kinds = list(kinds or ["bot"] * players)
    header = Header(
        master.fork("game-id").bytes(16),
        game.name,
        game.name,
        "fairdeal-tests",
        "0",
        dict(config.options),
        tuple(SeatInfo(names[i], ids[i].public_key, kinds[i]) for i in range(players)),
    )
    make = make_session or Session
    sessions = [make(game, i, ids[i], master.fork(f"seat-{i}")) for i in range(players)]
    return SeatedGame(header, sessions, ids)


def play_with_protocol(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    policies: Sequence[Policy] | None = None,
    make_session: Any = None,
) -> ProtocolGame:
    """Play ``game`` among bots, every seat its own session and keys, over in-memory links.

    Returns every seat's outcome and the log as a file would hold it (seat 0's entries). A game
    that goes past ``game.max_moves`` moves raises :class:`~fairdeal.core.runner.GameTooLong`.
    ``make_session(game, seat, identity, rng)`` builds a seat's session (default
    :class:`~fairdeal.core.session.session.Session`; pass another to test a misbehaving client).
    """
    import trio

    from fairdeal.core.session import EntryAccepted
    from fairdeal.core.session.logfile import MAGIC, record
    from fairdeal.net.driver import BotAgent
    from fairdeal.net.local import play_local

    table = seat_sessions(game, players, seed, options, make_session=make_session)
    header, built = table.header, table.sessions
    made = [0]
    pols = [_Bounded(p, game, made) for p in _policies(players, policies)]
    agents = [BotAgent(pols[i], random.Random(seed * 100 + i)) for i in range(players)]
    log = bytearray(MAGIC)

    def observe(session: Any, events: Sequence[Any]) -> None:
        if session.seat == 0:
            for ev in events:
                if isinstance(ev, EntryAccepted):
                    log.extend(record(ev.data))

    outcomes = trio.run(play_local, header, built, agents, observe)
    if made[0] > game.max_moves:  # the seat that hit the bound gave up; say why, not just "undecided"
        raise GameTooLong(f"{game.name} went past {game.max_moves} moves (max_moves): does it end?")
    return ProtocolGame(outcomes, bytes(log))
