"""Worlds: complete deals consistent with what one seat knows.

A seat's view of a game (its :class:`~fairdeal.core.rules.GameState`, as a replica or a bot
holds it) knows where every token lies, the cards it has been shown and where they went, and
what play has shown about the others (``table.ruled_out``, from the game's
:meth:`~fairdeal.core.rules.Game.rules_out`). A *world* is that view completed: every token
it does not know given a card, drawn at random from the cards it has not seen
(``table.deck`` less what it knows), in the places where those tokens lie — so every zone
keeps its size — and never a card play has ruled out for a token. A world's table is
all-seeing (``viewer`` :data:`~fairdeal.core.table.EVERYONE`): the rules can be played on it
to the end, as a search bot does.

Only the view is read: the sampler never sees the true state, so nothing a world holds can
tell a seat more than it knows.
"""

from __future__ import annotations

import random
from typing import Generic

from .cards import Card
from .errors import LocalProtocolError
from .rules import S

#: Draws of the constrained cards tried before the facts of ``ruled_out`` are given up.
TRIES = 50


def _order(card: Card) -> tuple[int, str, int]:
    return (card.copy, card.suit.value, card.rank)


def unseen(state: S) -> tuple[list[int], list[Card]]:
    """The tokens this view does not know (in token order) and the cards they may be (the deck
    less every card it knows, in the canonical order): as many of one as of the other."""
    table = state.table
    tokens = table.unknown()
    known = set(table.known_cards().values())
    cards = sorted((c for c in table.deck if c not in known), key=_order)
    if len(cards) != len(tokens):
        raise LocalProtocolError(
            f"the view does not know {len(tokens)} cards but {len(cards)} of its deck are unseen "
            "(a table made without its deck?)"
        )
    return tokens, cards


def excluded(state: S) -> dict[int, frozenset[Card]]:
    """For each token this view does not know, the cards play has ruled out for it."""
    table = state.table
    out: dict[int, frozenset[Card]] = {}
    for fact in table.ruled_out:
        for token in fact.tokens:
            if table.zone_of(token) is not None and table.card(token) is None:
                out[token] = out.get(token, frozenset()) | fact.cards
    return out


class Worlds(Generic[S]):
    """The worlds of one view, drawn one after another: :func:`sample_world` with the view read
    once (a search draws hundreds of worlds from the view of one decision). The view must not
    change while worlds are drawn from it."""

    def __init__(self, state: S) -> None:
        self.state = state
        self.tokens, self.cards = unseen(state)
        limits = excluded(state)
        # What each narrowed token may not be, as positions in ``cards``: ints hash faster than cards.
        self._banned = {
            t: frozenset(i for i, c in enumerate(self.cards) if c in out) for t, out in limits.items()
        }
        free = len(self.cards)
        self._narrowed = sorted(self._banned, key=lambda t: (free - len(self._banned[t]), t))
        self._free = [t for t in self.tokens if t not in self._banned]  # dealt after the narrowed

    def deal(self, rng: random.Random) -> dict[int, Card]:
        """A card for every token the view does not know: the unseen cards dealt at random, the
        tokens with ruled-out cards first (the most narrowed first), each from what it may be.

        When no deal satisfies every fact (a game whose ``rules_out`` said something untrue), the
        facts are dropped rather than fail: the deal is then simply random.
        """
        tokens, cards = self.tokens, self.cards
        if self._narrowed:
            for _ in range(TRIES):
                left = self._narrowed_deal(rng)
                if left is not None:
                    deal, rest = left
                    rng.shuffle(rest)
                    dealt = {t: cards[i] for t, i in deal.items()}
                    dealt.update(zip(self._free, (cards[i] for i in rest), strict=True))
                    return dealt
        pool = list(cards)
        rng.shuffle(pool)
        return dict(zip(tokens, pool, strict=True))

    def _narrowed_deal(self, rng: random.Random) -> tuple[dict[int, int], list[int]] | None:
        """The narrowed tokens dealt (positions in ``cards``) and the positions left, or None."""
        left = list(range(len(self.cards)))
        deal: dict[int, int] = {}
        for token in self._narrowed:
            banned = self._banned[token]
            allowed = [j for j, i in enumerate(left) if i not in banned]
            if not allowed:
                return None
            deal[token] = left.pop(allowed[rng.randrange(len(allowed))])
        return deal, left

    def sample(self, rng: random.Random) -> S:
        """A complete world consistent with the view: a copy whose table is all-seeing, with the
        cards the view does not know dealt by :meth:`deal`."""
        return self.state.with_table(self.state.table.completed(self.deal(rng)))


def deal_unseen(state: S, rng: random.Random) -> dict[int, Card]:
    """A card for every token the view ``state`` does not know (:meth:`Worlds.deal`)."""
    return Worlds(state).deal(rng)


def sample_world(state: S, rng: random.Random) -> S:
    """A complete world consistent with the view ``state``: a copy whose table is all-seeing,
    with the cards this view does not know dealt by :func:`deal_unseen`. Masked back to the
    view's seat (``table.masked(viewer)``) it is the view again."""
    return Worlds(state).sample(rng)


__all__ = ["TRIES", "Worlds", "deal_unseen", "excluded", "sample_world", "unseen"]
