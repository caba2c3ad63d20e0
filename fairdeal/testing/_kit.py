"""The conformance checks: a game (:func:`check_game`), a world sampled from a view
(:func:`check_world`) and a bot (:func:`check_bot`)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core.cards import Card
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.playout import settle as settle_world
from fairdeal.core.replica import NeedReveals, NeedShuffle, Replica
from fairdeal.core.rng import SeededRng
from fairdeal.core.rules import Game, GameState, Move, Over, Policy, RandomPolicy
from fairdeal.core.runner import Event, Played, play_game
from fairdeal.core.table import EVERYONE, Table, Visibility
from fairdeal.core.worlds import sample_world
from fairdeal.testing._errors import ConformanceError
from fairdeal.testing._views import check_pickable, check_result, check_view, state_fields


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
                game, config, PlainDealer(n, SeededRng(seed)), seat_policies(n, policies), random.Random(seed)
            )
            if again.moves != first.moves or again.result != first.result:
                raise ConformanceError(f"{where}: the same seed gave a different game")
            check_result(first.result, n, where)
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


def seat_policies(n: int, policies: Sequence[Policy] | None) -> list[Policy]:
    """The bots given, or a random one for each of ``n`` seats."""
    return list(policies) if policies is not None else [RandomPolicy() for _ in range(n)]


def _play_checked(
    game: Game, config: Any, seed: int, policies: Sequence[Policy] | None, where: str
) -> Played:
    n = config.players
    inner = seat_policies(n, policies)
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
        raise ConformanceError(f"{where}: {type(exc).__name__}: {exc}{_hint(exc)}") from exc


def _hint(exc: Exception) -> str:
    """What a rule of the guide says about an error a game's code raised, where one fits."""
    if isinstance(exc, AttributeError | TypeError) and "NoneType" in str(exc):
        return (
            " (a card this view does not know reads as None: read a card only once it is shown — "
            "apply may read the cards its own move shows, a card turned up from a hidden pile is "
            "known from the next call on — and treat None as 'could be anything' elsewhere)"
        )
    return ""


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
        check_pickable(game, state, player, moves, where)
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
    return a.table == b.table and state_fields(a) == state_fields(b)


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
        check_view(
            game, r.state, viewer, full.state.table if full else None, f"{where}, view of seat {viewer}"
        )
    check_view(game, public.state, None, full.state.table if full else None, f"{where}, public view")


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
    if state_fields(world) != state_fields(view):
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
