"""The state of a Spite & Malice match: the table plus public bookkeeping.

Nothing here names a card: every card lives in the table. A centre stack's value is
its size (see :func:`~.layout.fits`), so what a King stands for is public by construction.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from fairdeal import GameState


class Phase(Enum):
    """Where the match stands."""

    FIRST = "first"  # a game has been dealt; the payoff tops decide who starts
    PLAY = "play"  # turns are being played
    OVER = "over"  # a game has just ended; the match ends or a new deal follows
    DEAL = "deal"  # every card has been gathered and reshuffled into the stock; deal next


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game of the match. ``winner`` is None for a drawn game."""

    number: int
    starter: int
    winner: int | None
    points: int
    reason: str


@dataclass(frozen=True)
class SpiteState(GameState):
    """A match in progress.

    ``filled`` says the opening draw of the current turn is done (a hand of 5 needs none);
    ``moves`` counts the moves of the current game, for the safety limit; ``target`` and
    ``max_games`` are the match options.
    """

    phase: Phase = Phase.FIRST
    turn: int = 0
    filled: bool = False
    starter: int = 0
    game: int = 1
    moves: int = 0
    scores: tuple[int, int] = (0, 0)
    history: tuple[GameRecord, ...] = ()
    target: int = 50
    max_games: int = 100
