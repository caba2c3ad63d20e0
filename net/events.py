"""What network play reports to the person at this end, as events.

Hosting, joining and watching (:func:`~fairdeal.net.host_game`, :func:`~fairdeal.net.join_game`,
:func:`~fairdeal.net.watch_game`) take one ``report(event)`` callable and hand it, in order, one
frozen dataclass of this module for each thing that happened: no callbacks to override, no
defaults to forget. A front end ``match``es on them; an event it has no ``case`` for is ignored.
A new event is one dataclass here and one ``case`` in each front end.

Events are reported from trio code on the game's thread; a front end must not block in
``report``. Times are in :func:`time.monotonic`'s clock (``until``), as the front ends count down.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from fairdeal.core.session import Event
from fairdeal.core.session.header import Header
from fairdeal.core.session.session import Session

from . import wire

if TYPE_CHECKING:
    from .invite import Invite


def _until(seconds: float) -> float:
    return time.monotonic() + seconds


# -- before the game: hosting ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Joiner:
    """A seated joiner: the identity is the one its handshake proved; name and kind are announced."""

    seat: int
    name: str
    kind: str
    identity: bytes
    fingerprint: str
    address: str

    @property
    def lobby_seat(self) -> wire.LobbySeat:
        return wire.LobbySeat(self.name, self.fingerprint, self.kind)


@dataclass(frozen=True)
class Listening:
    """The host listens on ``bound`` (``host:port`` each) and hands out ``code`` (``invite`` decoded)."""

    code: str
    invite: Invite
    bound: tuple[str, ...]


@dataclass(frozen=True)
class Announced:
    """The game is announced on the local network under ``name``."""

    name: str


@dataclass(frozen=True)
class AnnounceFailed:
    """The game could not be announced on the local network (it goes on without); ``reason`` says why."""

    reason: str


@dataclass(frozen=True)
class RelayStatus:
    """The host's relay doors: every door waits at ``relay`` (``reachable``), or the relay cannot be
    used for now (retried in the background) and ``reason`` says why. Reported once per change."""

    relay: str
    reachable: bool
    reason: str = ""


@dataclass(frozen=True)
class RelayDoorTaken:
    """A connection that is not the host's was paired on a door of ``relay`` (someone else who holds
    the code waits there as the host, or the relay dropped it); the door was opened again at once."""

    relay: str


@dataclass(frozen=True)
class ShortCode:
    """(The host) ``code`` (``7-brave-otter``) is the short code for the next player, open at the
    mailbox ``mailbox``: for one player, once; when it is used, the next one is reported.
    ``first``: the first code of this table (otherwise one before it was used, burned or lost)."""

    code: str
    mailbox: str
    first: bool = False


@dataclass(frozen=True)
class ShortCodeUsed:
    """(The host) the short code ``code`` was claimed by a player: ``handed`` the invite went to
    them; otherwise it is burned, and ``reason`` says why (a wrong guess, a player gone)."""

    code: str
    handed: bool
    reason: str = ""


@dataclass(frozen=True)
class MailboxStatus:
    """(The host) the mailbox of short codes answers again (``reachable``), or cannot be used for
    now (retried in the background; the long code works all the same) and ``reason`` says why."""

    mailbox: str
    reachable: bool
    reason: str = ""


@dataclass(frozen=True)
class Joined:
    """(The host) ``joiner`` took its seat; ``lobby`` is the table now."""

    joiner: Joiner
    lobby: wire.Lobby


@dataclass(frozen=True)
class LeftLobby:
    """(The host) a seated joiner went away before the start (``reason``); its seat is free again."""

    joiner: Joiner
    reason: str
    lobby: wire.Lobby


@dataclass(frozen=True)
class Rejected:
    """(The host) a connection from ``address`` was dropped before it got a seat."""

    address: str
    reason: str


@dataclass(frozen=True)
class RejectedMany:
    """(The host) ``count`` more connections were dropped in the last ``seconds`` without an event
    each; ``reasons`` counts the most frequent reasons (``other reasons`` holds the rest)."""

    count: int
    reasons: Mapping[str, int]
    seconds: float


# -- before the game: joining ------------------------------------------------------------------------
@dataclass(frozen=True)
class HostReached:
    """This end reached the host (``path`` ``direct`` or ``relay``, through ``via``) and the host's
    identity matched the invite."""

    invite: Invite
    path: str
    via: str


@dataclass(frozen=True)
class Seated:
    """This joiner took seat ``welcome.seat`` as ``name`` (a ``kind`` seat)."""

    welcome: wire.Welcome
    name: str
    kind: str


@dataclass(frozen=True)
class LobbyChanged:
    """(A joiner) the host's table before the start: who sits where."""

    lobby: wire.Lobby


# -- the game ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Started:
    """Every seat is filled: the game begins (``header`` is the log's first entry; ``seat`` this end's)."""

    header: Header
    seat: int


@dataclass(frozen=True)
class Resumed:
    """The game goes on from a log of ``entries`` entries: a resumed seat, or a watcher (``seat`` None)."""

    header: Header
    seat: int | None
    entries: int


@dataclass(frozen=True)
class TableReady:
    """The game runs: ``say(text)`` sends a line of chat, ``vote(True)`` proposes (or agrees) to
    adjourn and ``vote(False)`` declines; each returns False when it could not be sent.
    ``leave()`` (on the trio side) stops this end's game on purpose, with a goodbye that tells the
    others so: the host's guests stop and keep their seats, to go on when it resumes; a seat that
    leaves ends the game for everyone, its abort naming it. None where there is nobody to tell."""

    say: Callable[[str], bool]
    vote: Callable[[bool], bool]
    leave: Callable[[], None] | None = None


@dataclass(frozen=True)
class Applied:
    """Entries were accepted into ``session`` (moves, game over, audit, abort: ``events``).
    ``replayed``: read back from this seat's own log as it resumes — the story so far, nothing
    new (told entry by entry, before :class:`Resumed`)."""

    session: Session
    events: Sequence[Event]
    replayed: bool = False


@dataclass(frozen=True)
class ChatLine:
    """A line of chat from seat ``seat``, checked (``fingerprint`` is the seat's, from the header)."""

    seat: int
    name: str
    fingerprint: str
    text: str


@dataclass(frozen=True)
class Away:
    """Seat ``seat``'s link dropped: it is held ``seconds`` more, until ``until`` (monotonic clock).
    ``resuming``: (the host) the game was just resumed and the seat has not come back to it yet."""

    seat: int
    name: str
    seconds: float
    until: float
    resuming: bool = False

    @classmethod
    def now(cls, seat: int, name: str, seconds: float, *, resuming: bool = False) -> Away:
        return cls(seat, name, seconds, _until(seconds), resuming)


@dataclass(frozen=True)
class Back:
    """Seat ``seat`` came back; the game goes on."""

    seat: int
    name: str


@dataclass(frozen=True)
class HostLost:
    """This joiner's link to the host dropped (``reason``, as the link says it): it tries to reach
    the host again for ``seconds``, until ``until`` (monotonic clock)."""

    reason: str
    seconds: float
    until: float

    @classmethod
    def now(cls, reason: str, seconds: float) -> HostLost:
        return cls(reason, seconds, _until(seconds))


@dataclass(frozen=True)
class HostBack:
    """This joiner reached the host again (``path``, ``via``); it holds ``entries`` entries."""

    path: str
    via: str
    entries: int


@dataclass(frozen=True)
class HostLeft:
    """The host said goodbye before the end: its person stopped it on purpose (no network failure).
    This joiner stops too; a seat may go on if the host resumes the game, a watcher (``watching``)
    may watch again."""

    watching: bool = False


@dataclass(frozen=True)
class ReachingHost:
    """(A resumed seat) this end tries to reach the host, which may not be running yet (it goes on
    with ``fairdeal resume`` too), for ``seconds``, until ``until`` (monotonic clock)."""

    seconds: float
    until: float

    @classmethod
    def now(cls, seconds: float) -> ReachingHost:
        return cls(seconds, _until(seconds))


@dataclass(frozen=True)
class HostBusy:
    """(A watcher) the host is busy catching up other watchers: this end asks again in ``seconds``,
    at ``until`` (monotonic clock)."""

    seconds: float
    until: float

    @classmethod
    def now(cls, seconds: float) -> HostBusy:
        return cls(seconds, _until(seconds))


@dataclass(frozen=True)
class Refused:
    """(A joiner or a watcher) the host would not let this end in, or back, and said why
    (``reason``, its words): nothing more comes from it. :class:`GameEnded` follows when a game
    was under way."""

    reason: str


@dataclass(frozen=True)
class NotStartedYet:
    """(A watcher) the host has not started the game: this watcher asks again every ``every``
    seconds until ``until`` (monotonic clock)."""

    every: float
    seconds: float
    until: float

    @classmethod
    def now(cls, every: float, seconds: float) -> NotStartedYet:
        return cls(every, seconds, _until(seconds))


@dataclass(frozen=True)
class WatcherCame:
    """(The host) a watcher came in: ``watchers`` follow the game now."""

    watchers: int


@dataclass(frozen=True)
class WatcherWaiting:
    """(The host) a watcher (``fingerprint``, from ``address``) came before the start: it is told to
    wait, and asks again every few seconds until the game begins. Reported once per watcher."""

    fingerprint: str
    address: str


@dataclass(frozen=True)
class WatcherLeft:
    """(The host) a watcher went away: ``watchers`` follow the game now."""

    watchers: int


@dataclass(frozen=True)
class AdjournVote:
    """Seat ``seat`` proposed or agreed to adjourn (``agree``), or declined; ``missing``: the names of
    those who have not agreed yet."""

    seat: int
    name: str
    agree: bool
    missing: tuple[str, ...]


@dataclass(frozen=True)
class Adjourned:
    """Every player agreed: the game stops after ``entries`` entries, to be resumed later."""

    entries: int


@dataclass(frozen=True)
class LinkFlooded:
    """(The host) seat ``seat``'s link sent too many messages that were ignored or refused
    (``reason`` says what): it was dropped."""

    seat: int
    name: str
    reason: str


Ending = Literal["finished", "adjourned", "aborted", "left", "host left", "host lost", "refused", "stopped"]
"""How a game ended for this end:

- ``finished``: every seat signed the result;
- ``adjourned``: every player agreed to stop, to go on later;
- ``aborted``: the host ended the game with an abort entry blaming ``GameEnded.blamed``;
- ``left``: this end's own person left it on purpose (:attr:`TableReady.leave`), the others told;
- ``host left``: (a joiner) the host's person stopped it on purpose;
- ``host lost``: (a joiner) the host could not be reached again within the grace period;
- ``refused``: this end refused what it was sent (or the host would not take it back);
- ``stopped``: this end's own person or program stopped it before the end.
"""


@dataclass(frozen=True)
class GameEnded:
    """The game is over for this end, and why (``how``); ``reason`` in words where there is one (an
    abort's, or the error that stopped this end); ``blamed``: the seats an abort names.
    ``resumable``: this seat keeps what it needs to go on later (``fairdeal resume``)."""

    how: Ending
    reason: str | None = None
    blamed: tuple[int, ...] = ()
    resumable: bool = False

    @classmethod
    def of(
        cls,
        session: Session,
        error: str | None,
        adjourned: bool,
        how: Ending = "stopped",
        *,
        resumable: bool = False,
    ) -> GameEnded:
        """How ``session``'s game ended: adjourned, aborted (blaming whom), finished, else ``how``;
        ``resumable`` counts only for a game not over."""
        if adjourned:
            return cls("adjourned", resumable=resumable)
        aborted = session.aborted
        if aborted is not None:
            return cls("aborted", aborted.reason, aborted.blamed)
        if session.finished:
            return cls("finished")
        return cls(how, error, resumable=resumable)


NetEvent = (
    Listening
    | Announced
    | AnnounceFailed
    | RelayStatus
    | RelayDoorTaken
    | ShortCode
    | ShortCodeUsed
    | MailboxStatus
    | Joined
    | LeftLobby
    | Rejected
    | RejectedMany
    | HostReached
    | Seated
    | LobbyChanged
    | Started
    | Resumed
    | TableReady
    | Applied
    | ChatLine
    | Away
    | Back
    | HostLost
    | HostBack
    | HostLeft
    | ReachingHost
    | HostBusy
    | Refused
    | NotStartedYet
    | WatcherCame
    | WatcherLeft
    | WatcherWaiting
    | AdjournVote
    | Adjourned
    | LinkFlooded
    | GameEnded
)
"""Every event network play reports."""

Report = Callable[[NetEvent], None]
"""Where a front end takes the events of network play."""


def ignore(event: NetEvent) -> None:
    """A report that shows nothing (benchmarks, bots with nobody watching)."""


__all__ = [
    "AdjournVote",
    "Adjourned",
    "AnnounceFailed",
    "Announced",
    "Applied",
    "Away",
    "Back",
    "ChatLine",
    "Ending",
    "GameEnded",
    "HostBack",
    "HostBusy",
    "HostLeft",
    "HostLost",
    "HostReached",
    "Joined",
    "Joiner",
    "LeftLobby",
    "LinkFlooded",
    "Listening",
    "LobbyChanged",
    "MailboxStatus",
    "NetEvent",
    "NotStartedYet",
    "ReachingHost",
    "Refused",
    "Rejected",
    "RejectedMany",
    "RelayDoorTaken",
    "RelayStatus",
    "Report",
    "Resumed",
    "Seated",
    "ShortCode",
    "ShortCodeUsed",
    "Started",
    "TableReady",
    "WatcherCame",
    "WatcherLeft",
    "WatcherWaiting",
    "ignore",
]
