"""The lobby's terms: what the host offers a joiner (:class:`TableOffer`), the limits connections
are admitted under (:class:`LobbyLimits`), the callables the lobby takes connections from and
hands late joiners to (:data:`Offer`, :data:`Source`, :data:`Late`), and the refusals other
modules recognise by their words."""

from __future__ import annotations

import math
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

import trio

from . import wire
from .link import NetLink
from .watchgate import CatchUpLimits

TABLE_FULL: Final = "the table is full"
OWN_IDENTITY: Final = "that is the host's own identity (join with another profile: --profile NAME)"

Offer = Callable[[trio.abc.Stream, str], None]
Admit = Callable[[int], str | None]
"""Charges a watcher's catch-up of so many bytes to the budgets it draws on (:mod:`.watchgate`),
or says why it may not start now."""
Late = Callable[[wire.Rejoin | wire.Watch, bytes, NetLink, Admit], Awaitable[str | None]]
"""Takes a late joiner's link (a seat coming back, or a watcher) given its first message, proved
identity and what admits a watcher's catch-up; returns a refusal instead when it may not come in."""
Source = Callable[[Offer], Awaitable[None]]
"""A source of connections (the relay doors): runs until cancelled, offering each connection."""


@dataclass(frozen=True, slots=True)
class LobbyLimits:
    """Deadlines (seconds), connections admitted at once, how many drops are shown one by one, and
    the budgets of watchers' catch-ups."""

    first_message: float = 5.0
    handshake: float = 10.0
    hello: float = 10.0
    pending: int = 64
    report_burst: int = 10
    report_window: float = 10.0
    catch_ups: CatchUpLimits = field(default_factory=CatchUpLimits)


@dataclass(frozen=True, slots=True)
class TableOffer:
    """What the host offers: the game, its plugin, options and the number of seats."""

    game: str
    distribution: str
    version: str
    options: Mapping[str, bool | int | str]
    players: int
    grace: int = 120
    watchers: bool = True  # whether watchers may follow the game once it runs

    def welcome(self, seat: int) -> wire.Welcome:
        return wire.Welcome(
            seat, self.players, self.game, self.distribution, self.version, dict(self.options), self.grace
        )


#: What a watcher hears from a host that lets no watcher in (``host --watchers 0``).
NO_WATCHERS = "this host does not allow watchers"
#: What a watcher hears before the game begins.
NOT_YET_WATCHED = "the game has not started yet: watch again once it has begun"
#: What a watcher hears when its catch-up would go over the host's budgets (:func:`busy`).
WATCHERS_BUSY = "the host is busy catching up other watchers"
_BUSY_FOR = re.compile(re.escape(WATCHERS_BUSY) + r": watch again in (\d+) s")


def busy(seconds: float) -> str:
    """The refusal of a watcher whose catch-up may start in ``seconds``."""
    return f"{WATCHERS_BUSY}: watch again in {max(1, math.ceil(seconds))} s"


def busy_for(refusal: str) -> float | None:
    """The seconds a :func:`busy` refusal says to wait (None: it is another refusal)."""
    m = _BUSY_FOR.search(refusal)
    return float(m.group(1)) if m else None


__all__ = [
    "NOT_YET_WATCHED",
    "NO_WATCHERS",
    "OWN_IDENTITY",
    "TABLE_FULL",
    "WATCHERS_BUSY",
    "Admit",
    "Late",
    "LobbyLimits",
    "Offer",
    "Source",
    "TableOffer",
    "busy",
    "busy_for",
]
