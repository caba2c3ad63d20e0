"""Seat kinds on the command line (``human``, ``bot``, ``bot:NAME``) and the agents behind them."""

from __future__ import annotations

import contextlib
import getpass
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass

from fairdeal.core.errors import ConfigError
from fairdeal.core.rng import Rng, python_random
from fairdeal.core.session.header import MAX_NAME
from fairdeal.core.text import clean_text
from fairdeal.i18n import gettext as _
from fairdeal.net.driver import Agent, BotAgent
from fairdeal.registry import Registry


@dataclass(frozen=True)
class SeatKind:
    """``human``, or a bot with its policy name (None: the game's default bot)."""

    human: bool
    bot: str | None = None

    @property
    def label(self) -> str:
        return "human" if self.human else f"bot:{self.bot}"


def parse_seat(text: str, game: str, registry: Registry) -> SeatKind:
    """Parse one ``--seat`` value; unknown kinds and bots are ConfigErrors."""
    value = text.strip()
    if value == "human":
        return SeatKind(True)
    if value == "bot":
        return SeatKind(False, registry.bot(game).name)
    if value.startswith("bot:") and value[4:]:
        return SeatKind(False, registry.bot(game, value[4:]).name)
    raise ConfigError(_("a seat is human, bot or bot:NAME, not {text}").format(text=repr(text)))


def parse_seats(values: Sequence[str], game: str, registry: Registry, *, fill_to: int) -> list[SeatKind]:
    """The seats of a local game: as given, filled with default bots up to ``fill_to``.

    With no ``--seat`` at all, the terminal's player takes seat 0.
    """
    seats = [parse_seat(v, game, registry) for v in values] or [SeatKind(True)]
    if sum(s.human for s in seats) > 1:
        raise ConfigError(_("at most one seat can be human (this terminal)"))
    default = registry.bot(game).name
    while len(seats) < fill_to:
        seats.append(SeatKind(False, default))
    return seats


def bot_agent(kind: SeatKind, game: str, registry: Registry, rng: Rng | None) -> Agent:
    """The agent playing a bot seat; ``rng`` seeds its choices (None: unpredictable)."""
    spec = registry.bot(game, kind.bot)
    chooser = python_random(rng) if rng is not None else random.Random(os.urandom(16))
    return BotAgent(spec.make(), chooser)


def table_name(given: str | None) -> str:
    """The name this person plays under: ``given`` (``--name``), else ``FAIRDEAL_NAME``, else the
    name kept in the profile, else, the first time, the profile's own name in a named profile
    (``--profile ann`` plays as ``Ann``) or the system user's name (``Player`` if there is none that
    shows).

    A name given with ``--name``, or found the first time from the system, is kept in the
    profile (:func:`~fairdeal.storage.save_name`): the next game uses it without asking.
    """
    from fairdeal import storage

    name = _shown(given)
    if name is not None:
        if name != storage.load_name():
            with contextlib.suppress(OSError):  # a profile that cannot be written still plays
                storage.save_name(name)
        return name
    name = _shown(os.environ.get("FAIRDEAL_NAME"))
    if name is not None:
        return name
    name = _shown(storage.load_name())
    if name is not None:
        return name
    named = storage.profile()
    name = (named[:1].upper() + named[1:] if named else None) or _shown(_system_user()) or "Player"
    with contextlib.suppress(OSError):
        storage.save_name(name)
    return name


def _system_user() -> str | None:
    try:
        return getpass.getuser()
    except (KeyError, OSError, ImportError):  # no login name and no entry in the password database
        return None


def _shown(name: str | None) -> str | None:
    """``name`` as it can show at the table (printable, one line, at most 40 characters), or None."""
    if name is None:
        return None
    text = clean_text(name, MAX_NAME)
    return text if text != "-" or name.strip() == "-" else None
