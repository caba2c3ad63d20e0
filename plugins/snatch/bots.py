"""Snatch! bots: ``shrewd`` (the default) weighs each snatch; ``never-snatch`` never does.

Turning a card is never a choice, so a bot only ever decides whether to snatch. A snatch
sheds cards (the price is thrown away, bringing you closer to an empty pile) unless the price
takes the whole pile, which puts you out. It also changes trump for the trick on the table,
which matters when somebody's last card lies in it or is still to come: that player wins
unless their last card takes the trick.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from fairdeal import Card, Game, GameState, Move, Suit, snatch_32

from .state import PASS, SNATCH, SnatchState, decks_for, next_after, pile, price, trick_cards, trump_of
from .trick import strongest


class NeverSnatch:
    """Turns its cards and never snatches (the baseline of the bot evaluation)."""

    def choose(
        self, game: Game, state: GameState, player: int, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        return PASS if PASS in moves else moves[0]


@cache
def _deck(players: int) -> tuple[Card, ...]:
    return snatch_32(decks_for(players))


class Shrewd:
    """Snatches when it pays: the price must leave cards in its pile, and the trump change must
    not hand the game to another player whose last card lies in (or is still to come into)
    this trick. Cards still to come are sampled from the cards nobody has seen yet."""

    samples = 32
    margin = 0.0  # how much more likely another player's win now may be before a snatch is refused

    def choose(
        self, game: Game, state: GameState, player: int, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        if SNATCH not in moves or not isinstance(state, SnatchState):
            return moves[0]
        return SNATCH if self.snatch_pays(state, player, rng) else PASS

    def snatch_pays(self, state: SnatchState, player: int, rng: random.Random) -> bool:
        t = state.table
        cards = trick_cards(state)
        if not cards:
            return False
        left = t.size(pile(player))
        if price(state, cards[-1].suit) >= left:
            return False  # the whole pile would go, and this bot with it
        pass_win, snatch_win = self.others_win(state, cards, trump_of(state), cards[-1].suit, rng)
        return snatch_win <= pass_win + self.margin

    def others_win(
        self, state: SnatchState, cards: list[Card], keep: Suit | None, new: Suit, rng: random.Random
    ) -> tuple[float, float]:
        """The chance that another player wins when this trick is judged: (pass, snatch)."""
        t = state.table
        rest: list[int] = []  # who is still to turn a card in this trick, in order
        skip = set(state.order)
        seat = next_after(state, state.order[-1], skip)
        while seat is not None:
            rest.append(seat)
            skip.add(seat)
            seat = next_after(state, seat, skip)
        order = [*state.order, *rest]
        emptied = [p for p in state.order if p not in state.out and t.size(pile(p)) == 0]
        emptied += [p for p in rest if t.size(pile(p)) == 1]
        if not emptied:
            return 0.0, 0.0
        if not rest:
            return self._wins(cards, order, emptied, keep), self._wins(cards, order, emptied, new)
        seen = {c for token, c in t.known_cards().items() if t.is_public(token)}
        unseen = [c for c in _deck(t.players) if c not in seen]
        keep_wins = new_wins = 0.0
        for _ in range(self.samples):
            full = cards + rng.sample(unseen, len(rest))
            keep_wins += self._wins(full, order, emptied, keep)
            new_wins += self._wins(full, order, emptied, new)
        return keep_wins / self.samples, new_wins / self.samples

    @staticmethod
    def _wins(cards: list[Card], order: list[int], emptied: list[int], trump: Suit | None) -> float:
        taker = order[strongest(cards, trump)]
        return 1.0 if any(p != taker for p in emptied) else 0.0
