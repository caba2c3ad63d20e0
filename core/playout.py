"""Playing a world on: the rules run on an all-seeing state, with no dealer and no protocol.

A world (:func:`fairdeal.core.worlds.sample_world`) knows every card, so what the table owes
is performed at once (:func:`settle`: reveals from the cards it holds, reshuffles from
``rng``), joint random choices are drawn from ``rng``, and each seat's decision is made by a
policy on that seat's own view of the world (``table.masked(seat)``), as it would be at a
real table. :func:`playout` goes on to the end of the game, or to the first state the game's
:meth:`~fairdeal.core.rules.Game.outlook` can judge (or, past a horizon, the first its
:meth:`~fairdeal.core.rules.Game.estimate` guesses), and says what each seat got.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .dealer import Reveal
from .errors import LocalProtocolError
from .rules import Auto, Chance, Decide, Find, Game, Over, Policy, RandomPolicy, Result, S
from .table import EVERYONE, Table


def settle(table: Table, rng: random.Random) -> None:
    """Perform what an all-seeing ``table`` owes, in place: reveals, then reshuffles (fresh
    tokens above every token the table holds, the cards in an order drawn from ``rng``)."""
    if table.viewer != EVERYONE:
        raise LocalProtocolError("only an all-seeing table (a world) settles by itself")
    for _ in range(1_000):
        reqs = table.requirements()
        if reqs:
            for r in reqs:
                table.learn(r, table.card(r.token))
            continue
        shuffles = table.pending_shuffles()
        if not shuffles:
            return
        req = shuffles[0]
        cards = [table.card(t) for t in req.tokens]
        rng.shuffle(cards)
        start = max(table.all_tokens(), default=-1) + 1
        fresh = list(range(start, start + len(cards)))
        table.replace_shuffled(req, fresh, {t: c for t, c in zip(fresh, cards, strict=True) if c is not None})
    raise LocalProtocolError("a world's table never settled")


def found(game: Game[S], state: S, step: Find) -> S:
    """An all-seeing ``state`` after ``step``: its card's holder shows it (public), or nobody held it."""
    table = state.table
    for seat, tokens in table.hands(step.zones).items():
        for t in tokens:
            if table.card(t) == step.card:
                table.learn(Reveal(t, None), step.card)  # a world changes in place
                return game.on_found(state, seat)
    return game.on_found(state, None)


def seat_view(state: S, seat: int) -> S:
    """``seat``'s view of an all-seeing ``state``: what a policy deciding for it may see."""
    return state.with_table(state.table.masked(seat))


def score(result: Result, seat: int) -> float:
    """What a finished game is worth to ``seat``: 1 a win, 0 a loss, 1/2 a game nobody won."""
    if result.winner is None:
        return 0.5
    return 1.0 if result.winner == seat else 0.0


def playout(
    game: Game[S],
    world: S,
    policies: Sequence[Policy],
    rng: random.Random,
    *,
    max_moves: int | None = None,
    judge: bool = True,
    horizon: int | None = None,
) -> tuple[float, ...]:
    """Play ``world`` (all-seeing; changed in place and after) on to the end: each seat's share
    of the win (:func:`score`), or the game's ``outlook`` at the first state it can judge
    (``judge``), or, once ``horizon`` moves are played, its ``estimate`` at the first state it
    guesses. Past ``max_moves`` moves (default ``game.max_moves``) the game counts as
    nobody's."""
    n = world.table.players
    limit = game.max_moves if max_moves is None else max_moves
    judged = judge and type(game).outlook is not Game.outlook
    state = world
    moves = 0

    def judged_now(s: S) -> Sequence[float] | None:
        if judged and (chances := game.outlook(s)) is not None:
            return chances
        return game.estimate(s) if horizon is not None and moves >= horizon else None

    while True:
        state, step = to_decision(game, state, rng, judged_now)
        if not isinstance(step, Decide):
            return step
        p = step.player
        options = list(game.legal_moves(state, p))
        if not options:
            raise LocalProtocolError(f"{game.name}: seat {p} must move but has no legal move")
        policy = policies[p]
        if len(options) == 1:
            move = options[0]
        elif isinstance(policy, RandomPolicy):  # it reads nothing: no view to make
            move = options[rng.randrange(len(options))]
        else:
            move = policy.choose(game, seat_view(state, p), p, options, rng)
        state = game.apply(state, p, move)
        moves += 1
        if moves > limit:
            return (0.5,) * n


def to_decision(
    game: Game[S], state: S, rng: random.Random, judge: Callable[[S], Sequence[float] | None]
) -> tuple[S, Decide | tuple[float, ...]]:
    """Play an all-seeing ``state`` on through what no seat decides (reveals and reshuffles,
    joint random choices, automatic steps) to the next decision: that state and its step; or,
    at the end or at the first settled state ``judge`` values, that state and each seat's share."""
    while True:
        settle(state.table, rng)
        value = judge(state)
        if value is not None:
            return state, tuple(value)
        step = game.next_step(state)
        if isinstance(step, Decide):
            return state, step
        if isinstance(step, Auto):
            state = game.advance(state)
        elif isinstance(step, Chance):
            state = game.on_chance(state, rng.randrange(step.n))
        elif isinstance(step, Find):
            state = found(game, state, step)
        elif isinstance(step, Over):
            return state, tuple(score(step.result, p) for p in range(state.table.players))
        else:  # pragma: no cover - exhaustive
            raise LocalProtocolError(f"unknown step {step!r}")


__all__ = ["found", "playout", "score", "seat_view", "settle", "to_decision"]
