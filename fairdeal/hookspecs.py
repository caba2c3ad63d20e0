"""The hooks a fairdeal plugin may implement. Every hook name starts with ``fairdeal_``.

A plugin is a module (or object) registered through the entry-point group
``fairdeal``; it marks its implementations with :data:`fairdeal.hookimpl`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pluggy

from fairdeal.core.rules import BotSpec, Game

PROJECT = "fairdeal"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def fairdeal_games() -> Sequence[Game[Any]]:
    """Return the games this plugin provides (instances of :class:`fairdeal.Game`)."""
    raise NotImplementedError


@hookspec
def fairdeal_bots() -> Sequence[BotSpec]:
    """Return bot policies, each for one installed game (:class:`fairdeal.BotSpec`).

    A plugin may add bots for games that other plugins provide.
    """
    raise NotImplementedError
