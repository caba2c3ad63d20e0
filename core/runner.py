"""Play a whole game in one process through a :class:`~fairdeal.core.dealer.Dealer`.

Every seat, the public and (with an all-knowing dealer) an all-seeing observer
keep their own :class:`~fairdeal.core.replica.Replica`; bots decide on their own
seat's view. Used for rules tests, bot evaluation, the conformance kit and as
the baseline the cryptographic protocol is measured against. It is not the
network session: no envelopes, no signatures, no log.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .dealer import Dealer, Reveal, Verdict
from .errors import FairdealError, LocalProtocolError
from .options import Config
from .replica import NeedReveals, NeedShuffle, Replica
from .rules import Auto, Chance, Decide, Find, Game, Move, Over, Policy, Result
from .table import EVERYONE


class GameTooLong(FairdealError):
    """A game went past its bound on moves: a rules bug."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for observers: ``kind`` is reveal, shuffle, move, chance, find (its
    holder in ``player``, the card in ``value``) or auto."""

    kind: str
    player: int | None = None
    move: Move | None = None
    value: object = None


@dataclass
class Played:
    """The outcome of :func:`play_game`."""

    result: Result
    moves: list[tuple[int, Move]]
    events: list[Event]
    verdict: Verdict
    replicas: dict[int | None, Replica[Any]] = field(repr=False, default_factory=dict)


Observer = Callable[[Event, dict[int | None, Replica[Any]]], None]


def play_game(
    game: Game[Any],
    config: Config,
    dealer: Dealer,
    policies: Sequence[Policy],
    rng: random.Random,
    *,
    max_moves: int | None = None,
    observe: Observer | None = None,
) -> Played:
    """Play ``game`` to the end; ``policies[p]`` decides for seat p on p's own view."""
    n = config.players
    if len(policies) != n:
        raise LocalProtocolError(f"{n} players need {n} policies, not {len(policies)}")
    tokens = dealer.start(game.deck_for(config))
    omniscient = all(dealer.card(t) is not None for t in tokens)
    viewers: list[int | None] = [*range(n), None]
    if omniscient:
        viewers.append(EVERYONE)
    full_cards = {t: c for t in tokens if (c := dealer.card(t)) is not None}
    replicas: dict[int | None, Replica[Any]] = {
        v: Replica.start(game, config, tokens, v, full_cards if v == EVERYONE else None) for v in viewers
    }
    public = replicas[None]
    events: list[Event] = []
    moves: list[tuple[int, Move]] = []
    departed: set[int] = set()
    limit = max_moves if max_moves is not None else game.max_moves

    def emit(ev: Event) -> None:
        events.append(ev)
        if observe is not None:
            observe(ev, replicas)

    def reveal(reveals: Sequence[Reveal]) -> None:
        cards = dealer.reveal(reveals)
        for r in replicas.values():
            r.learn(reveals, cards)
        emit(Event("reveal", value=tuple(reveals)))

    steps = 0
    while True:
        steps += 1
        if steps > 100 * (limit + 1):
            raise GameTooLong(f"{game.name} went past {100 * (limit + 1)} steps")
        need = public.need()
        if isinstance(need, NeedReveals):
            reveal(need.reveals)
        elif isinstance(need, NeedShuffle):
            fresh = dealer.reshuffle(need.request.tokens, need.public)
            cards = {t: c for t in fresh if (c := dealer.card(t)) is not None}
            for r in replicas.values():
                r.shuffled(need.request, fresh, cards)
            emit(Event("shuffle", value=len(fresh)))
        elif isinstance(need, Decide):
            p = need.player
            mine = replicas[p]
            options = game.legal_moves(mine.state, p)
            if not options:
                raise LocalProtocolError(f"{game.name}: seat {p} must move but has no legal move")
            move = policies[p].choose(game, mine.state.copy(), p, list(options), rng)
            mine.check_move(p, move, remote=False)
            shown = mine.move_reveals(p, move)
            if shown:
                reveal([Reveal(t, None) for t in shown])
            for r in replicas.values():
                r.check_move(p, move)
                r.apply(p, move, shown)
            moves.append((p, move))
            emit(Event("move", p, move))
            if len(moves) > limit:
                raise GameTooLong(f"{game.name} went past {limit} moves")
        elif isinstance(need, Auto):
            for r in replicas.values():
                r.auto()
            emit(Event("auto"))
        elif isinstance(need, Chance):
            value = dealer.random(need.n)
            for r in replicas.values():
                r.chance(value)
            emit(Event("chance", value=value))
        elif isinstance(need, Find):
            holding = public.table.shown_in(need.card, need.zones)  # known to all: nobody is asked
            if holding is None:
                holder = dealer.find(need.card, public.table.hands(need.zones))
                if holder is not None:
                    reveal([Reveal(holder[1], None)])
                holding = None if holder is None else holder[0]
            for r in replicas.values():
                r.found(holding)
            emit(Event("find", holding, value=need.card))
        elif isinstance(need, Over):
            return Played(need.result, moves, events, dealer.audit(), replicas)
        else:  # pragma: no cover - exhaustive
            raise LocalProtocolError(f"unknown step {need!r}")
        for seat in sorted(game.departed(public.state) - departed):
            departed.add(seat)
            leaving = public.table.shown_by_leaving(seat)
            cards = dealer.leave(seat, [r.token for r in leaving])
            if leaving:
                for r in replicas.values():
                    r.learn(leaving, cards)
