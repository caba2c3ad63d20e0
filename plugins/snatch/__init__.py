"""Snatch!, the fairdeal game plugin: hidden piles, blind turns, snatched trumps.

The entry point ``snatch`` names :class:`SnatchGame`. ``rules`` holds the engine, ``state`` the
state, its moves and its queries, ``trick`` the card order, ``view`` the words and the table,
``bots`` the bots; ``rules.txt`` holds the rules in English.
"""

from __future__ import annotations

from .bots import NeverSnatch, Shrewd
from .rules import PASS, SNATCH, TURN, SnatchGame
from .state import SnatchState

__all__ = ["PASS", "SNATCH", "TURN", "NeverSnatch", "Shrewd", "SnatchGame", "SnatchState"]
