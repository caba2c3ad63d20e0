"""The plugin host: discovers game and bot plugins through the ``fairdeal`` entry points.

An entry point names a :class:`~fairdeal.core.rules.Game` subclass (the game, with the bots
it declares), or a module or object holding hook implementations (``fairdeal_games``,
``fairdeal_bots``). A plugin that fails to import, implements an unknown hook or registers
something invalid costs one warning naming it and the reason; every other game keeps
working. ``FAIRDEAL_DISABLE_PLUGINS=name,...`` blocks plugins by entry-point or
distribution name.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import pluggy

from fairdeal import hookspecs
from fairdeal.core.errors import ConfigError
from fairdeal.core.options import Option
from fairdeal.core.rules import PLUGIN_API, RULES_FILE, Bot, BotSpec, Game, random_bot
from fairdeal.core.search import EXPERT, expert_bot

GROUP = "fairdeal"
DISABLE_ENV = "FAIRDEAL_DISABLE_PLUGINS"
_NAME = re.compile(r"^[a-z][a-z0-9-]{0,31}$")
MAX_PLAYERS = 10


@dataclass(frozen=True)
class GameEntry:
    """An installed game and where it comes from."""

    game: Game
    plugin: str
    distribution: str
    version: str


@dataclass
class Registry:
    """Installed games and bots, and the warnings their loading produced."""

    games: dict[str, GameEntry] = field(default_factory=dict)
    bots: dict[str, dict[str, BotSpec]] = field(default_factory=dict)
    default_bots: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def entry(self, name: str) -> GameEntry:
        """The game called ``name``, or a ConfigError listing the installed ones."""
        try:
            return self.games[name]
        except KeyError:
            installed = ", ".join(sorted(self.games)) or "none"
            raise ConfigError(f"unknown game {name!r}; installed games: {installed}") from None

    def game(self, name: str) -> Game:
        return self.entry(name).game

    def bot(self, game: str, name: str | None = None) -> BotSpec:
        """A bot for ``game``: ``name``, or the game's default when None."""
        g = self.game(game)
        bots = self.bots.get(game, {})
        wanted = name or self.default_bots.get(game, g.bot_name())
        if wanted not in bots:
            valid = ", ".join(sorted(bots)) or "none"
            raise ConfigError(f"no bot {wanted!r} for {game}; its bots: {valid}")
        return bots[wanted]


def validate_game(game: object) -> list[str]:
    """What is wrong with a registered game object (empty when nothing)."""
    if not isinstance(game, Game):
        return [f"{game!r} is not a fairdeal.Game"]
    problems = []
    name = getattr(game, "name", None)
    api = getattr(game, "api", None)
    if not isinstance(api, int) or isinstance(api, bool) or api < 1:
        return [f"game {name!r} states plugin API {api!r}: set api = {PLUGIN_API}"]
    if api > PLUGIN_API:
        return [
            f"game {name!r} is written to plugin API {api}, and this fairdeal offers API {PLUGIN_API}: "
            "upgrade fairdeal"
        ]
    if not isinstance(name, str) or not _NAME.match(name):
        problems.append(f"game name {name!r} must be lower-case letters, digits and dashes")
    for attr in ("title", "summary"):
        if not isinstance(getattr(game, attr, None), str):
            problems.append(f"game {name!r} has no {attr}")
    lo, hi = getattr(game, "min_players", None), getattr(game, "max_players", None)
    if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi <= MAX_PLAYERS):
        problems.append(f"game {name!r} has bad player counts {lo!r}..{hi!r} (1 to {MAX_PLAYERS})")
    opts = getattr(game, "options", ())
    if not all(isinstance(o, Option) for o in opts):
        problems.append(f"game {name!r} has options that are not fairdeal.Option")
    elif len({o.name for o in opts}) != len(opts):
        problems.append(f"game {name!r} declares an option twice")
    if getattr(game, "zones", None) is None:
        problems.append(f"game {name!r} declares no zones: add zones(self, config) or zones = (...)")
    bots = getattr(game, "bots", ())
    if not isinstance(bots, tuple) or not all(isinstance(b, Bot) and callable(b.make) for b in bots):
        problems.append(f"game {name!r}: bots must be a tuple of fairdeal.Bot")
    if not problems and not game.rules_text().strip():
        module = getattr(sys.modules.get(type(game).__module__), "__file__", None) or type(game).__module__
        problems.append(
            f"game {name!r} has no rules: write them in {RULES_FILE} beside {module}, or set rules"
        )
    return problems


class _GameClass:
    """The plugin an entry point naming a Game subclass stands for: that game, made once."""

    def __init__(self, cls: type[Game]) -> None:
        self.cls = cls

    @hookspecs.hookimpl
    def fairdeal_games(self) -> list[Game]:
        return [self.cls()]


def _disabled(value: str | None) -> set[str]:
    return {x.strip() for x in (value or "").split(",") if x.strip()}


def discover() -> list[metadata.EntryPoint]:
    return list(metadata.entry_points(group=GROUP))


def load(
    entry_points: Iterable[metadata.EntryPoint] | None = None,
    *,
    disabled: Iterable[str] | None = None,
    plugins: Sequence[tuple[str, Any]] = (),
) -> Registry:
    """Load every plugin of the ``fairdeal`` group (or the given entry points / objects)."""
    reg = Registry()
    blocked = set(disabled) if disabled is not None else _disabled(os.environ.get(DISABLE_ENV))
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    origin: dict[str, tuple[str, str]] = {}

    def register(name: str, obj: Any, dist: str, version: str) -> None:
        try:
            pm.register(obj, name=name)
        except Exception as exc:  # a bad hookimpl signature, a duplicate name
            reg.warnings.append(f"plugin {name!r} ({dist}) was not loaded: {exc}")
            return
        try:
            pm.check_pending()
        except pluggy.PluginValidationError as exc:
            pm.unregister(obj)
            reg.warnings.append(f"plugin {name!r} ({dist}) was not loaded: {exc}")
            return
        origin[name] = (dist, version)

    for ep in entry_points if entry_points is not None else discover():
        dist = ep.dist.name if ep.dist is not None else "unknown distribution"
        version = ep.dist.version if ep.dist is not None else "0"
        if ep.name in blocked or dist in blocked:
            continue
        try:
            obj = ep.load()
        except Exception as exc:
            reg.warnings.append(f"plugin {ep.name!r} ({dist}) failed to import: {type(exc).__name__}: {exc}")
            continue
        register(
            ep.name,
            _GameClass(obj) if isinstance(obj, type) and issubclass(obj, Game) else obj,
            dist,
            version,
        )
    for name, obj in plugins:
        if name not in blocked:
            register(name, obj, "local", "0")

    for impl in pm.hook.fairdeal_games.get_hookimpls():  # in registration order
        dist, version = origin[impl.plugin_name]
        for game in _call(reg, impl, "games"):
            problems = validate_game(game)
            if problems:
                reg.warnings.append(f"plugin {impl.plugin_name!r} registered an invalid game: {problems[0]}")
                continue
            if game.name in reg.games:
                other = reg.games[game.name].plugin
                reg.warnings.append(
                    f"plugin {impl.plugin_name!r}: game {game.name!r} is already provided "
                    f"by {other!r}; ignored"
                )
                continue
            reg.games[game.name] = GameEntry(game, impl.plugin_name, dist, version)
            reg.bots[game.name] = {"random": random_bot(game.name)}
            for bot in game.bots:
                _add_bot(reg, impl.plugin_name, BotSpec(game.name, bot.name, bot.summary, bot.make))

    for impl in pm.hook.fairdeal_bots.get_hookimpls():
        for spec in _call(reg, impl, "bots"):
            _add_bot(reg, impl.plugin_name, spec)

    for name, entry in reg.games.items():
        wanted = entry.game.bot_name()
        reg.default_bots[name] = wanted
        if wanted not in reg.bots[name]:
            reg.warnings.append(
                f"game {name!r}: its default bot {wanted!r} is not registered; using 'random'"
            )
            reg.default_bots[name] = "random"
    for name, bots in reg.bots.items():  # every game has the search bot, its playouts by the default
        if EXPERT not in bots:
            bots[EXPERT] = expert_bot(name, bots[reg.default_bots[name]])
    return reg


def _add_bot(reg: Registry, plugin: str, spec: object) -> None:
    if not isinstance(spec, BotSpec) or not callable(getattr(spec, "make", None)):
        reg.warnings.append(f"plugin {plugin!r} registered an invalid bot: {spec!r}")
    elif spec.game not in reg.games:
        reg.warnings.append(
            f"plugin {plugin!r}: bot {spec.name!r} is for {spec.game!r}, which is not installed; ignored"
        )
    elif not _NAME.match(spec.name) or spec.name in reg.bots[spec.game]:
        reg.warnings.append(
            f"plugin {plugin!r}: bot name {spec.name!r} for {spec.game} is invalid or taken; ignored"
        )
    else:
        reg.bots[spec.game][spec.name] = spec


def _call(reg: Registry, impl: Any, what: str) -> list[Any]:
    try:
        result = impl.function()
        return list(result or ())
    except Exception as exc:
        reg.warnings.append(
            f"plugin {impl.plugin_name!r} failed to list its {what}: {type(exc).__name__}: {exc}"
        )
        return []
