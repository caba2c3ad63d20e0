"""The host's seats over time: links that drop and come back, watchers, and the log they catch up on.

:class:`Roster` is what :func:`~fairdeal.net.driver.run_host` sequences with. It keeps
every entry of the log (the *backlog*), the current link of each guest seat, and the
watchers. Everything a guest link reports goes to one inbox, in order: an entry
(:class:`Heard`), a dropped link (:class:`Gone`), a seat back (:class:`Back`), a seat whose
grace period ran out (:class:`Expired`), every player's agreement to adjourn
(:class:`AdjournAgreed`).

A seat whose link drops is *away*: with a grace period the host holds it (and the game
goes on as long as it does not wait on that seat); :meth:`Roster.attach` takes it back
on a new link once the seat has proved who it is, after sending it every entry it
lacks; after the grace period :class:`Expired` ends the game. A watcher gets the same
catch-up (:meth:`Roster.watch`) and every entry after it, and can never write one.

Entries are handed out exactly once and in order: :meth:`publish` appends to the backlog
and takes the links to send to in the same step, and a link joins the roster only once
its catch-up reaches the end of the backlog, in one step too.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol

import trio

from fairdeal.core.errors import FairdealError, RemoteProtocolError
from fairdeal.core.session.envelope import GENESIS, decode_envelope, entry_hash
from fairdeal.core.session.header import Header

from ._links import Heartbeat, Link, PeerGone

NO_GRACE: Final = 0.0
SENT_AGAIN: Final = "copies of an entry it had sent already"
AFTER_END: Final = "entries after the end of the game"
_BROKEN = (PeerGone, FairdealError, trio.BrokenResourceError, trio.ClosedResourceError)


@dataclass(frozen=True, slots=True)
class Heard:
    """Seat ``seat`` sent ``data`` on ``link`` (None: an entry the host held back, to go in seat order)."""

    seat: int
    link: Link | None
    data: bytes


@dataclass(frozen=True, slots=True)
class Gone:
    """The link of seat ``seat`` closed (``reason``); ``left``: the seat said goodbye (it left on
    purpose, so it is not held), in the words ``said``."""

    seat: int
    link: Link
    reason: str
    left: bool = False
    said: str = ""


@dataclass(frozen=True, slots=True)
class Back:
    """Seat ``seat`` came back on a new link."""

    seat: int


@dataclass(frozen=True, slots=True)
class Expired:
    """Seat ``seat`` did not come back within the grace period."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class AdjournAgreed:
    """Every player agreed to stop and go on later."""


Item = Heard | Gone | Back | Expired | AdjournAgreed


@dataclass(frozen=True, slots=True)
class Presence:
    """What the host knows of a seat's link for timing what the seat owes: when it was last ``heard``,
    whether entries of its wait to be settled (``pending``), and how often to look again while
    waiting on it (``poll``)."""

    heard: float
    pending: bool
    poll: float


#: A link with no heartbeat (in memory): always there, its entries in the inbox as they come.
_ALWAYS = Presence(math.inf, False, math.inf)


class RosterEvents(Protocol):
    def away(self, seat: int, seconds: float, reason: str) -> None:
        """Seat ``seat``'s link dropped: it is held ``seconds`` more."""

    def back(self, seat: int) -> None:
        """Seat ``seat`` is back."""

    def watcher_left(self, watchers: int) -> None:
        """A watcher went away while the game goes on: ``watchers`` follow it now."""


class _Away:
    """A seat held away until ``deadline``; ``resuming``: not back since the game was resumed;
    ``over`` is set when the seat is back (what waits for the deadline stops then)."""

    __slots__ = ("deadline", "over", "reason", "resuming")

    def __init__(self, deadline: float, reason: str, resuming: bool = False) -> None:
        self.deadline, self.reason, self.resuming = deadline, reason, resuming
        self.over = trio.Event()


def _close(link: Link, reason: str) -> None:
    fail = getattr(link, "fail", None)
    if fail is not None:
        fail(reason)


async def _hang_up(link: Link, reason: str) -> None:
    aclose = getattr(link, "aclose", None)
    if aclose is None:
        return
    with contextlib.suppress(*_BROKEN):
        await (aclose(reason) if isinstance(link, Heartbeat) else aclose())


class Roster:
    """The host's guest links by seat, its watchers, and the backlog of entries (see the module)."""

    def __init__(
        self,
        links: Mapping[int, Link],
        *,
        grace: float = NO_GRACE,
        watchers: int = 0,
        backlog: list[bytes] | None = None,
        observer: RosterEvents | None = None,
    ) -> None:
        self.links: dict[int, Link] = dict(links)
        self.grace = grace
        self.max_watchers = watchers
        self.backlog: list[bytes] = []
        self._bytes = [0]  # the bytes of the backlog's first n entries, at n
        #: (seat, anchor) -> (sequence number, what it signed) of every entry in the backlog.
        self.written: dict[tuple[int, bytes], tuple[int, bytes]] = {}
        for data in backlog or ():
            self._append(data)
        self.observer = observer
        self.watchers: set[Link] = set()
        self.away: dict[int, _Away] = {}
        self._send, self.inbox = trio.open_memory_channel[Item](math.inf)
        self._nursery: trio.Nursery | None = None
        self.closed = False

    # -- running ----------------------------------------------------------------------------------
    @contextlib.contextmanager
    def running(self, nursery: trio.Nursery) -> Iterator[None]:
        """Hear the links (those given and those attached later) in ``nursery`` for the block.

        Use it inside the nursery's block: as the block ends, however it ends, the roster stops
        before the nursery winds down, so a link that comes after is kept, unheard until the roster
        runs again (see :meth:`linger`), never handed to a nursery closed to new tasks.
        """
        self._nursery = nursery
        for seat, link in self.links.items():
            nursery.start_soon(self._pump, seat, link)
        for seat, away in self.away.items():
            nursery.start_soon(self._expire, seat, away)
        try:
            yield
        finally:
            self._nursery = None

    async def _pump(self, seat: int, link: Link) -> None:
        while True:
            try:
                data = await link.receive_entry()
            except _BROKEN as exc:
                left, said = bool(getattr(link, "left", False)), str(getattr(link, "said", ""))
                self._send.send_nowait(Gone(seat, link, str(exc), left, said))
                return
            self._send.send_nowait(Heard(seat, link, data))

    async def _expire(self, seat: int, away: _Away) -> None:
        with trio.move_on_at(away.deadline):
            await away.over.wait()  # back before the deadline: no task is left for this absence
        if self.away.get(seat) is away:
            self._send.send_nowait(Expired(seat, away.reason))

    async def _watch(self, link: Link) -> None:
        """A watcher writes nothing: whatever it sends, or its leaving, ends its place."""
        with contextlib.suppress(*_BROKEN):
            await link.receive_entry()
            _close(link, "a watcher cannot write entries")
        self.watchers.discard(link)
        if self.observer is not None and not self.closed:
            self.observer.watcher_left(len(self.watchers))

    # -- the log ----------------------------------------------------------------------------------
    def _append(self, data: bytes) -> None:
        env = decode_envelope(data)
        self.written[(env.seat, env.anchor)] = (len(self.backlog), env.writing())
        self.backlog.append(data)
        self._bytes.append(self._bytes[-1] + len(data))

    def catch_up_bytes(self, entries: int) -> int:
        """The bytes of the entries after the first ``entries`` (what a catch-up from there sends)."""
        return self._bytes[-1] - self._bytes[min(entries, len(self.backlog))]

    async def publish(self, data: bytes) -> None:
        """Append an accepted entry and send it to every guest and watcher that is here."""
        self._append(data)
        targets = [*self.links.values(), *self.watchers]  # taken in the same step as the append
        for link in targets:
            # A broken link is noticed by its pump (a watcher's by its watch).
            with contextlib.suppress(*_BROKEN):
                await link.send_entry(data)

    def ignored(self, link: Link | None, what: str) -> None:
        """The host ignored an entry that came on ``link`` (``what`` names its kind): counted against
        the link's flood budget, where the link keeps one (past it, the link is dropped)."""
        count = getattr(link, "ignored", None)
        if count is not None:
            count(what)

    def close(self) -> None:
        """Nobody is taken back or let in any more (the game is over, or adjourned)."""
        self.closed = True

    def refusal(self, entries: int, last: bytes) -> str | None:
        """Why a peer that holds ``entries`` entries, the last hashing to ``last``, cannot catch up."""
        if self.closed or not self.backlog:
            return "the game is not going on (it is over, or not running yet)"
        if entries > len(self.backlog):
            return (
                f"you hold {entries} entries and the host {len(self.backlog)}: "
                "your log is not this game's, or the host lost entries"
            )
        held = GENESIS if entries == 0 else entry_hash(self.backlog[entries - 1])
        if last != held:
            return f"your log differs from the host's at entry {entries - 1}: it is not this game's log"
        return None

    async def _catch_up(self, link: Link, entries: int, greet: Callable[[int], None] | None) -> None:
        if greet is not None:
            greet(len(self.backlog))  # "the host holds N entries": in the same step as the catch-up's start
        i = entries
        while i < len(self.backlog):  # the backlog may grow meanwhile: sent up to its very end
            await link.send_entry(self.backlog[i])
            i += 1

    # -- seats ------------------------------------------------------------------------------------
    def is_away(self, seat: int) -> bool:
        return seat in self.away

    def presence(self, seat: int) -> Presence:
        """How seat ``seat``'s current link is heard (see :class:`Presence`); any entry already in the
        inbox counts as pending for every seat, as it may be this one's."""
        link = self.links.get(seat)
        waiting = self.inbox.statistics().current_buffer_used > 0
        if not isinstance(link, Heartbeat):
            return replace(_ALWAYS, pending=waiting)
        poll = max(0.05, link.ping_interval / 4)
        return Presence(link.heard_at, waiting or link.pending > 0, poll)

    def drop(self, seat: int, link: Link, reason: str) -> bool:
        """``link`` of ``seat`` closed. True when it was the seat's current link (now away)."""
        if self.links.get(seat) is not link:
            return False
        del self.links[seat]
        if self.grace > 0:
            away = _Away(trio.current_time() + self.grace, reason)
            self.away[seat] = away
            if self._nursery is not None:
                self._nursery.start_soon(self._expire, seat, away)
            if self.observer is not None:
                self.observer.away(seat, self.grace, reason)
        return True

    def hold(self, seats: list[int], reason: str) -> None:
        """Start with ``seats`` away (a resumed host waits for every guest to come back)."""
        for seat in seats:
            self.away[seat] = _Away(trio.current_time() + self.grace, reason, resuming=True)

    async def attach(
        self, seat: int, link: Link, entries: int, last: bytes, greet: Callable[[int], None] | None = None
    ) -> str | None:
        """Take ``seat`` back on ``link`` (its identity proved by the caller): send it the entries after
        its ``entries``, then everything new. Returns a refusal instead when its log does not fit.
        ``greet(n)`` is called first, with the number of entries the host holds then."""
        why = self.refusal(entries, last)
        if why is not None:
            return why
        old = self.links.pop(seat, None)
        if old is not None:  # a link the host still thought alive: the newer connection wins
            _close(old, "replaced by a newer connection of the same seat")
        await self._catch_up(link, entries, greet)
        if self.closed:
            return "the game is over"
        self.links[seat] = link  # in the same step as the catch-up's last check: nothing missed
        away = self.away.pop(seat, None)
        if self._nursery is not None:  # else it is heard when the roster runs again
            self._nursery.start_soon(self._pump, seat, link)
        if away is not None:
            away.over.set()
            self._send.send_nowait(Back(seat))
            if self.observer is not None:
                self.observer.back(seat)
        return None

    async def watch(
        self,
        link: Link,
        entries: int,
        last: bytes,
        greet: Callable[[int], None] | None = None,
        admit: Callable[[int], str | None] | None = None,
    ) -> str | None:
        """Let a watcher follow the game from its ``entries`` on; a refusal when it may not. ``admit``
        is asked last, with the bytes of the catch-up: its refusal stands too."""
        if self.max_watchers <= 0:
            return "this table takes no watchers"
        if len(self.watchers) >= self.max_watchers:
            return f"this table has its {self.max_watchers} watchers already"
        why = self.refusal(entries, last)
        if why is None and admit is not None:
            why = admit(self.catch_up_bytes(entries))
        if why is not None:
            return why
        await self._catch_up(link, entries, greet)
        if self.closed:
            return "the game is over"
        self.watchers.add(link)
        if self._nursery is not None:
            self._nursery.start_soon(self._watch, link)
        return None

    def adjourn(self) -> None:
        """Every player agreed to adjourn: the host stops at the next entry."""
        self._send.send_nowait(AdjournAgreed())

    async def linger(self, limit: float) -> None:
        """After the game's end, until every guest has said goodbye (``limit`` seconds at most): a seat
        whose link dropped before it had the last entries is held, and may come back for them."""
        with trio.move_on_after(limit):
            async with trio.open_nursery() as nursery:
                with self.running(nursery):
                    while self.links or self.away:
                        self._settle_late(await self.inbox.receive())
                nursery.cancel_scope.cancel()

    def _settle_late(self, item: Item) -> None:
        if isinstance(item, Gone) and self.links.get(item.seat) is item.link:
            if item.left or not self.drop(item.seat, item.link, item.reason) or self.grace <= 0:
                self.links.pop(item.seat, None)  # it has all it needs (or is not held)
        elif isinstance(item, Expired):
            self.away.pop(item.seat, None)
        elif isinstance(item, Heard):
            self.ignored(item.link, AFTER_END)

    async def hang_up(self, reason: str) -> None:
        """Close every guest's and watcher's link, in-memory ones too, saying ``reason`` where a link
        says goodbye in words: nothing more will come."""
        async with trio.open_nursery() as nursery:
            for link in [*self.links.values(), *self.watchers]:
                nursery.start_soon(_hang_up, link, reason)

    def close_all(self, reason: str) -> None:
        for link in [*self.links.values(), *self.watchers]:
            _close(link, reason)


# -- entries that come late ---------------------------------------------------------------------------


def stale(roster: Roster, header: Header, seat: int, data: bytes) -> tuple[str, Any] | None:
    """What an entry of ``seat`` for an obligation the log already holds an entry of ``seat``'s
    for (the same anchor) is, if it is one:

    * ``("again", None)``: the very entry the log holds (sent again after a drop; the host
      may have placed it elsewhere): nothing to do, it is never applied twice;
    * ``("equivocation", reason)``: another entry, signed by ``seat``, for that obligation;
    * None: not a late entry (or not one these rules settle): the session judges it.
    """
    try:
        env = decode_envelope(data)
    except RemoteProtocolError:
        return None
    held = roster.written.get((seat, env.anchor))
    if held is None or env.seat != seat:
        return None
    if held[1] == env.writing():
        return ("again", None)
    if env.game_id == header.game_id and env.verify(header.seats[seat].identity):
        return ("equivocation", f"signed two different entries for entry {held[0]}")
    return None


__all__ = [
    "AFTER_END",
    "SENT_AGAIN",
    "AdjournAgreed",
    "Back",
    "Expired",
    "Gone",
    "Heard",
    "Item",
    "Presence",
    "Roster",
    "RosterEvents",
    "stale",
]
