"""Écarté, the French two-player trick game, as a fairdeal plugin.

The entry point ``ecarte`` names :class:`Ecarte`. Modules: :mod:`.model` (zones, card order,
trick rules, state), :mod:`.rules` (the engine), :mod:`.view` (words and the table),
:mod:`.bots` (the classic bot); ``rules.txt`` holds the rules in English.
"""

from __future__ import annotations

from .bots import ClassicBot, jeu_de_regle, strength
from .model import EcarteState, Phase, Rules, beats, deal_points, may_play
from .rules import Ecarte

__all__ = [
    "ClassicBot",
    "Ecarte",
    "EcarteState",
    "Phase",
    "Rules",
    "beats",
    "deal_points",
    "jeu_de_regle",
    "may_play",
    "strength",
]
