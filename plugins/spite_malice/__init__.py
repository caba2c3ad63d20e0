"""Spite & Malice for fairdeal: the plugin module registered under the ``spite-malice`` entry point."""

from __future__ import annotations

from fairdeal import BotSpec, Game, hookimpl

from .bots import Planner
from .rules import MOVE_LIMIT, SpiteMalice
from .state import GameRecord, Phase, SpiteState

__all__ = [
    "MOVE_LIMIT",
    "GameRecord",
    "Phase",
    "Planner",
    "SpiteMalice",
    "SpiteState",
    "fairdeal_bots",
    "fairdeal_games",
]


@hookimpl
def fairdeal_games() -> list[Game]:
    return [SpiteMalice()]


@hookimpl
def fairdeal_bots() -> list[BotSpec]:
    summary = "searches its turn: payoff first, hand flowing, no gifts to the opponent"
    return [BotSpec("spite-malice", "planner", summary, Planner)]
