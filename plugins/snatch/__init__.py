"""Snatch!, the fairdeal game plugin (issue 7): hidden piles, blind turns, snatched trumps.

``rules`` holds the engine, ``state`` the state and its queries, ``trick`` the card order,
``render`` the words and the table view, ``text`` the rules text and ``bots`` the bots.
"""

from __future__ import annotations

from fairdeal import BotSpec, Game, hookimpl

from .bots import NeverSnatch, Shrewd
from .rules import PASS, SNATCH, TURN, SnatchGame
from .state import SnatchState


@hookimpl
def fairdeal_games() -> list[Game]:
    return [SnatchGame()]


@hookimpl
def fairdeal_bots() -> list[BotSpec]:
    return [
        BotSpec("snatch", "shrewd", "snatches when the price leaves it cards and the trick is safe", Shrewd),
        BotSpec("snatch", "never-snatch", "turns its cards and never snatches", NeverSnatch),
    ]


__all__ = [
    "PASS",
    "SNATCH",
    "TURN",
    "NeverSnatch",
    "Shrewd",
    "SnatchGame",
    "SnatchState",
    "fairdeal_bots",
    "fairdeal_games",
]
