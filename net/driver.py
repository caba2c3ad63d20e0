"""Drive sessions over links: the host sequences, every seat checks and answers.

The host runs :func:`run_host`: it keeps the host seat's own session, which checks
every entry before it becomes part of the game; accepted entries go to every
guest (their own included). A guest runs :func:`run_guest`: it applies what the
host sends and answers with what its seat owes. Only one seat may write at a
time (the session says who), so there is no race and the log is the same for all.

Links are anything with ``send_entry``/``receive_entry`` (in-memory channels for
local play, Noise streams over TCP for network play).
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import trio

from fairdeal.core.errors import FairdealError, LocalProtocolError, RemoteProtocolError
from fairdeal.core.rules import Game, GameState, Move, Policy
from fairdeal.core.search import Searching
from fairdeal.core.session import Event, Waiting
from fairdeal.core.session.header import Header
from fairdeal.core.session.session import Session

from ._links import Link, PeerGone
from .roster import SENT_AGAIN, AdjournAgreed, Back, Expired, Gone, Heard, Item, Roster, stale
from .steps import Steps

#: What an agent returns to resign instead of moving.
RESIGN = None


class Agent(Protocol):
    """Makes a seat's decisions: a bot policy or a person at the terminal."""

    async def decide(self, session: Session, moves: list[Move]) -> Move | None: ...


#: The longest a searching bot thinks about one move, in seconds, whatever its budget.
THINK = 10.0


class BotAgent:
    """Plays a bot policy on the seat's own view. A policy that searches (``Searching``) thinks
    in a worker thread, at most ``think`` seconds, so the table goes on drawing and answering
    meanwhile (:func:`think`)."""

    def __init__(self, policy: Policy, rng: random.Random, think: float = THINK) -> None:
        self.policy, self.rng, self.think = policy, rng, think

    async def decide(self, session: Session, moves: list[Move]) -> Move | None:
        view = session.view()
        assert view is not None and session.seat is not None
        if isinstance(self.policy, Searching):
            return await think(self.policy, session.game, view, session.seat, moves, self.rng, self.think)
        return self.policy.choose(session.game, view, session.seat, moves, self.rng)


async def think(
    policy: Searching,
    game: Game[GameState],
    view: GameState,
    seat: int,
    moves: list[Move],
    rng: random.Random,
    seconds: float = THINK,
) -> Move:
    """``policy.search`` in a worker thread, off the event loop, stopped after ``seconds``.

    Cancelled (the game ended, the seat left), it returns at once and the search stops at its
    next check: the thread is told through the ``stop`` it asks between playouts, never left
    running. ``view`` is the seat's own copy: nothing else is shared with the thread.
    """
    stopped = threading.Event()
    deadline = time.monotonic() + seconds

    def stop() -> bool:
        return stopped.is_set() or time.monotonic() >= deadline

    try:
        return await trio.to_thread.run_sync(
            policy.search, game, view, seat, moves, rng, stop, abandon_on_cancel=True
        )
    finally:
        stopped.set()


OnAccepted = Callable[[Session, Sequence[Event]], None]
"""What a driver calls with each accepted entry's events (the log is written there)."""


@dataclass
class Timeouts:
    """Seconds the host waits for an obligation, for a move (inf: forever)."""

    obligation: float = 30.0
    move: float = math.inf


@dataclass
class SeatOutcome:
    """How a seat's game went: its session, why it ended early (if it did), every event;
    ``adjourned`` when every player agreed to stop and go on later."""

    session: Session
    error: str | None = None
    events: list[Event] = field(default_factory=list)
    adjourned: bool = False


LEAVING = "leaving"
"""What a seat says when it leaves the game on purpose (its person stopped it)."""


def _left(gone: Gone) -> str:
    """The abort's reason for a seat that left: its own words when they say more than that it left."""
    if gone.left:
        said = gone.said.strip()
        return "left the game" if said in ("", LEAVING) else f"left the game ({said})"
    return f"left the game ({gone.reason})" if gone.reason else "left the game"


def stalled(session: Session) -> str:
    """Why a game that is not over cannot go on when no seat owes an entry (the session refuses any,
    an abort too): the drivers stop with it as their error."""
    if len(session.departed) == session.header.players:
        return "every seat has left the game: nobody is left to sign its end"
    return "the game cannot go on: no seat owes an entry and the game is not over"


async def _produce(session: Session, agent: Agent) -> bytes | None:
    """The entry this seat must write now, if any (its obligation may be one of several)."""
    data = session.due()
    if data is not None:
        return data
    mine = next((w for w in session.owing() if w.seat == session.seat), None)
    if mine is None or not mine.decision:
        return None
    moves = session.legal_moves()
    move = await agent.decide(session, moves)
    if move is RESIGN:
        return session.resign()
    return session.make_move(move)


async def run_guest(
    session: Session,
    agent: Agent,
    link: Link,
    observe: OnAccepted | None = None,
    *,
    resend_at: int | None = None,
    before_send: Callable[[bytes], None] | None = None,
) -> SeatOutcome:
    """A guest seat: apply the host's entries in order, answer with what this seat owes.

    The seat writes what it owes as soon as it owes it, even while other seats owe too
    (the shares of one reveal, say), then applies what the host relays — other seats'
    entries may come before its own comes back. An entry sent and not yet relayed back
    (``session.outstanding``: the link dropped, or the seat resumed) is awaited, never
    built again; with ``resend_at`` (the host's count of entries when this seat came back)
    it is sent again, byte for byte, once that many entries are in and it was not among
    them. ``before_send`` sees every entry before it leaves (a seat keeps its decisions, to
    send them again after a crash). A game that is not over while no seat owes an entry (every
    seat left it, say) ends when the host hangs up, with :func:`stalled` as the error.
    """
    out = SeatOutcome(session)
    while not session.finished:
        if resend_at is not None and session.seq >= resend_at:
            resend_at = None
            again = session.outstanding
            if again is not None:  # the host did not have it: the very same bytes again
                await link.send_entry(again)
                continue
        if not session.awaiting_echo:
            data = await _produce(session, agent)
            if data is not None:
                if before_send is not None:
                    before_send(data)
                await link.send_entry(data)
                session.sent(data)  # it must come back as written (or the host aborts)
                continue
        stuck = not session.owing()  # nobody may write: only the host's hanging up can come
        try:
            entry = await link.receive_entry()
        except PeerGone:
            if not stuck:
                raise
            out.error = stalled(session)
            return out
        events = session.receive(entry, peer="host")
        out.events.extend(events)
        if observe is not None:
            observe(session, events)
    return out


async def run_host(
    session: Session,
    header: Header,
    agent: Agent,
    links: Mapping[int, Link] | Roster,
    observe: OnAccepted | None = None,
    timeouts: Timeouts | None = None,
    *,
    ordered: bool = False,
) -> SeatOutcome:
    """The host seat: sequence the game, check every entry, send each to every guest.

    ``links`` is a :class:`~fairdeal.net.roster.Roster` (seats whose link drops are held for
    its grace period and come back; watchers follow) or simply the guests' links by seat. A
    session that holds entries already (a resumed host) goes on from there.

    Entries that several seats owe at once are put in the log in the order they arrive
    (``ordered``: in seat order instead, so that one process replays a seeded game byte
    for byte). A peer's bad entry, silence, or departure beyond the grace period ends the
    game with an ``abort`` blaming its seat (every seat still owing, for a timeout; an
    entry signed for an obligation the log holds another entry of that seat's for carries
    that entry as evidence); a failure of this program ends it with an ``abort`` blaming
    nobody. Either way the log holds every accepted entry and says how the game ended. A game
    that is not over while no seat owes an entry cannot be ended by any entry (the session
    refuses them all): the host hangs up every link and returns with :func:`stalled` as the error.
    When every player agrees to adjourn, it returns with ``adjourned`` set and no entry
    written.
    """
    timeouts = timeouts or Timeouts()
    roster = links if isinstance(links, Roster) else Roster(links)
    out = SeatOutcome(session)
    held: dict[int, bytes] = {}  # ordered: entries that came before their seat's turn
    steps = Steps(roster.grace)  # how long each seat has held the step it owes

    async def publish(data: bytes, events: list[Event]) -> None:
        out.events.extend(events)
        if observe is not None:
            observe(session, events)
        await roster.publish(data)

    async def abort(blame: int | Sequence[int] | None, reason: str, evidence: bytes | None = None) -> None:
        seats = [] if blame is None else [blame] if isinstance(blame, int) else list(blame)
        who = " and ".join(f"seat {s}" for s in seats)
        out.error = f"{who}: {reason}" if seats else reason
        data = session.abort(blame, reason, evidence)
        await publish(data, session.receive(data))

    async def own_entry(build: Callable[[], Awaitable[bytes | None]]) -> str | None:
        """Write an entry of the host seat's own; a failure is this program's and is returned
        (the session is unchanged by it), never a crash that leaves no trace in the log."""
        try:
            data = await build()
            if data is None:
                raise LocalProtocolError("the host seat owes an entry but built none")
            events = session.receive(data)
        except FairdealError as exc:
            return f"the host could not go on: {exc}"
        with trio.CancelScope(shield=True):  # an accepted entry reaches every guest, whatever happens
            await publish(data, events)
        return None

    async def first_entry() -> bytes:
        return session.start(header)

    async def next_entry() -> bytes | None:
        return await _produce(session, agent)

    def benign(item: Item) -> bool:
        """Settle what needs no entry and ends nothing: a link that dropped within the grace period,
        a seat back, an entry sent again. True when ``item`` was one of those."""
        if isinstance(item, Gone):
            if roster.links.get(item.seat) is not item.link:
                return True  # a link already replaced by a newer one
            if item.seat in session.departed:  # out of the game: nothing more is owed by it
                roster.links.pop(item.seat, None)
                return True
            if roster.grace > 0 and not item.left:
                roster.drop(item.seat, item.link, item.reason)
                steps.went_away(item.seat, trio.current_time())
                return True
            return False
        if isinstance(item, Back):  # its step has its time again, within the bounds of Steps
            steps.came_back(item.seat, trio.current_time())
            return True
        if isinstance(item, Heard) and session.seq > 0:
            late = stale(roster, session.header, item.seat, item.data)
            if late is not None and late[0] == "again":  # whatever its placement: one more check
                roster.ignored(item.link, SENT_AGAIN)
                return True
        return False

    async def write_or_hear(deciding: bool) -> tuple[str | None, Item | None]:
        """Write the host seat's entry; while its player thinks, the guests are still heard:
        one that leaves for good (or writes out of turn) ends the game at once, not after the move."""
        result: list[str | None] = []
        heard: list[Item] = []
        async with trio.open_nursery() as thinking:

            async def write() -> None:
                result.append(await own_entry(next_entry))
                thinking.cancel_scope.cancel()

            async def listen() -> None:
                while True:
                    item = await roster.inbox.receive()
                    if not benign(item):
                        heard.append(item)
                        thinking.cancel_scope.cancel()
                        return

            thinking.start_soon(write)
            if deciding:
                thinking.start_soon(listen)
        return (result[0] if result else None), (heard[0] if heard else None)

    def deadline(owing: Sequence[Waiting]) -> tuple[float, list[int], int | None]:
        """When to look again, the guest seats to blame now for a step they owe, and a seat to blame
        for being away too long in all while it owed one.

        A step's time counts while its seat is not away, quiet or not; while it is away, its grace
        period runs instead (:class:`~fairdeal.net.steps.Steps` bounds both). A seat is blamed for
        its time only once its link has been heard after it ran out with nothing of its waiting to
        be settled: a link that died in the meantime is left to the heartbeat, which drops it, and
        the seat is away. An absence longer than the grace period is the roster's to end.
        """
        now = trio.current_time()
        wake = math.inf
        late: list[int] = []
        for w in owing:
            if w.seat == session.seat:
                continue
            seconds = timeouts.move if w.decision else timeouts.obligation
            steps.owe(w.seat, session.anchor(w.seat), seconds, now)
            if roster.is_away(w.seat):
                ends, began = steps.grace_ends(w.seat, now), steps.absent_since(w.seat)
                if ends <= now and began is not None and now - began < roster.grace:
                    return now, [], w.seat
                wake = min(wake, ends) if ends > now else wake
                continue
            p = roster.presence(w.seat)
            end = steps.runs_out(w.seat, now)
            if end > now:
                wake = min(wake, end)
            elif p.heard >= end and not p.pending:
                late.append(w.seat)
            else:  # its time ran out: blamed once it is heard from, unless what it sent is waiting
                wake = min(wake, now + p.poll)
        return wake, sorted(set(late)), None

    async def settle(item: Item) -> str | None:
        """Act on what the inbox brought: None to go on, "stop" when the game ended (or was
        adjourned), else the failure of this program."""
        if benign(item):
            return None
        if isinstance(item, AdjournAgreed):
            out.adjourned = True
            return "stop"
        if isinstance(item, Expired):
            if not roster.is_away(item.seat) or item.seat in session.departed:
                return None
            await abort(item.seat, f"did not come back within {roster.grace:g} s ({item.reason})")
            return "stop"
        if isinstance(item, Gone):  # it said goodbye, or there is no grace period: gone is gone
            await abort(item.seat, _left(item))
            return "stop"
        assert isinstance(item, Heard)
        seat, data = item.seat, item.data
        owing = session.owing()  # the host's own entry may have just changed it
        owes = any(w.seat == seat for w in owing)
        if ordered and owes and seat != owing[0].seat:
            held[seat] = data  # its turn comes: one process keeps the seat order
            return None
        try:
            late = stale(roster, session.header, seat, data)
            if late is not None and late[0] == "equivocation":
                await abort(seat, late[1], evidence=data)
                return "stop"
            placed = session.place(data, seat)  # from its connection's seat, at the end of the log
            events = session.receive(placed)
        except RemoteProtocolError as exc:
            await abort(seat, exc.reason)  # blame the connection it came from, not a claimed seat
            return "stop"
        except FairdealError as exc:  # this program failed while settling a peer's entry
            return f"the host could not go on: {exc}"
        await publish(placed, events)
        return None

    failure: str | None = None
    for seat in roster.away:  # a resumed host holds its guests away from the start
        steps.went_away(seat, trio.current_time())
    async with trio.open_nursery() as nursery:
        with roster.running(nursery):
            if session.seq == 0:
                failure = await own_entry(first_entry)
            while failure is None and not session.finished and not out.adjourned:
                owing = session.owing()
                if not owing:  # not over, yet nobody may write (not even an abort): nothing can come
                    out.error = stalled(session)
                    await roster.hang_up(out.error)
                    break
                first = owing[0]
                mine = next((w for w in owing if w.seat == session.seat), None)
                item: Item
                if mine is not None and (not ordered or first.seat == session.seat):
                    failure, heard = await write_or_hear(mine.decision)
                    if failure is not None or heard is None or session.finished:
                        continue  # what was heard while a move ended the game changes nothing
                    item = heard
                elif ordered and first.seat in held:
                    item = Heard(first.seat, None, held.pop(first.seat))
                else:
                    wake, late, away = deadline(owing)
                    if late:
                        what = next(w.what for w in owing if w.seat == late[0])
                        await abort(late, f"timed out waiting for {what}")
                        break
                    if away is not None:
                        what = next(w.what for w in owing if w.seat == away)
                        why = f"was away {roster.grace:g} s in all while the game waited for {what}"
                        await abort(away, why)
                        break
                    with trio.move_on_at(wake) as scope:
                        item = await roster.inbox.receive()
                    if scope.cancelled_caught:
                        continue  # look again: a step's time or a seat's grace ran out, or it may be heard
                if session.finished:
                    break  # what came while the host's own entry ended the game changes nothing
                verdict = await settle(item)
                if verdict == "stop":
                    break
                failure = verdict
            if failure is not None:
                if session.seq > 0 and not session.finished:
                    await abort(None, failure)
                out.error = failure
        nursery.cancel_scope.cancel()
    return out


__all__ = [
    "LEAVING",
    "RESIGN",
    "Agent",
    "BotAgent",
    "Link",
    "PeerGone",
    "Roster",
    "SeatOutcome",
    "Timeouts",
    "run_guest",
    "run_host",
    "stalled",
    "think",
]
