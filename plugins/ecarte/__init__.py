"""Écarté, the French two-player trick game, as a fairdeal plugin.

Modules: :mod:`.model` (zones, card order, trick rules, state), :mod:`.rules` (the
engine), :mod:`.render` (words and the table), :mod:`.text` (the rules in English)
and :mod:`.bots` (the classic bot). This module holds the two hook implementations.
"""

from __future__ import annotations

from fairdeal import BotSpec, Game, hookimpl

from .bots import ClassicBot, jeu_de_regle, strength
from .model import EcarteState, Phase, Rules, beats, deal_points, may_play
from .rules import Ecarte
from .text import RULES


@hookimpl
def fairdeal_games() -> list[Game]:
    return [Ecarte()]


@hookimpl
def fairdeal_bots() -> list[BotSpec]:
    return [BotSpec("ecarte", "classic", "the textbook player: jeux de règle, guarded suits", ClassicBot)]


__all__ = [
    "RULES",
    "ClassicBot",
    "Ecarte",
    "EcarteState",
    "Phase",
    "Rules",
    "beats",
    "deal_points",
    "fairdeal_bots",
    "fairdeal_games",
    "jeu_de_regle",
    "may_play",
    "strength",
]
