"""Spite & Malice for fairdeal: the entry point ``spite-malice`` names :class:`SpiteMalice`.

Modules: :mod:`.layout` (zones and the building rule), :mod:`.state`, :mod:`.rules` (the
engine), :mod:`.view` (words and the table), :mod:`.bots` (the planner); ``rules.txt``
holds the rules in English.
"""

from __future__ import annotations

from .bots import Planner
from .rules import MOVE_LIMIT, SpiteMalice
from .state import GameRecord, Phase, SpiteState

__all__ = ["MOVE_LIMIT", "GameRecord", "Phase", "Planner", "SpiteMalice", "SpiteState"]
