"""Pure trick logic of Snatch!: card strength, the strongest and the weakest card of a trick.

Everything here works on plain card sequences in the order they were played, so the rules
engine, the renderer and the bots share one definition of "stronger".
"""

from __future__ import annotations

from collections.abc import Sequence

from fairdeal import ACE, JACK, QUEEN, Card, Suit

#: Rank strength, weakest first: 2 7 8 9 10 J Q A.
RANKS: tuple[int, ...] = (2, 7, 8, 9, 10, JACK, QUEEN, ACE)
STRENGTH: dict[int, int] = {rank: i for i, rank in enumerate(RANKS)}


def power(card: Card, trump: Suit | None) -> tuple[bool, int]:
    """How strong ``card`` is under ``trump``, ignoring play order (bigger is stronger)."""
    return card.suit is trump, STRENGTH[card.rank]


def strongest(cards: Sequence[Card], trump: Suit | None) -> int:
    """Index of the card that takes the trick: the highest power, the earliest on a tie."""
    best = 0
    best_power = power(cards[0], trump)
    for i in range(1, len(cards)):
        p = power(cards[i], trump)
        if p > best_power:  # strictly: an equal card played later is weaker
            best, best_power = i, p
    return best


def weakest(cards: Sequence[Card], trump: Suit | None) -> int:
    """Index of the weakest card: the lowest power, the latest on a tie."""
    worst = 0
    worst_power = power(cards[0], trump)
    for i in range(1, len(cards)):
        p = power(cards[i], trump)
        if p <= worst_power:
            worst, worst_power = i, p
    return worst


def may_snatch(cards: Sequence[Card], trump: Suit | None) -> bool:
    """Whether the last card of ``cards`` (just turned) may snatch: the weakest, and no trump.

    A lone card is the weakest; a card equal to an earlier one is weaker than it.
    """
    if not cards:
        return False
    last = cards[-1]
    return last.suit is not trump and weakest(cards, trump) == len(cards) - 1
