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

import contextlib
import math
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import trio

from fairdeal.core.errors import FairdealError, LocalProtocolError, RemoteProtocolError
from fairdeal.core.rules import Move, Policy
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.header import Header
from fairdeal.core.session.session import Event, Session, Waiting


class PeerGone(FairdealError):
    """The other side of a link went away."""


class Link(Protocol):
    """A channel of log entries to one peer."""

    async def send_entry(self, data: bytes) -> None: ...

    async def receive_entry(self) -> bytes: ...


#: What an agent returns to resign instead of moving.
RESIGN = None


class Agent(Protocol):
    """Makes a seat's decisions: a bot policy or a person at the terminal."""

    async def decide(self, session: Session, moves: list[Move]) -> Move | None: ...


class BotAgent:
    """Plays a bot policy on the seat's own view."""

    def __init__(self, policy: Policy, rng: random.Random) -> None:
        self.policy, self.rng = policy, rng

    async def decide(self, session: Session, moves: list[Move]) -> Move | None:
        view = session.view()
        assert view is not None and session.seat is not None
        return self.policy.choose(session.game, view, session.seat, moves, self.rng)


Observer = Callable[[Session, Sequence[Event]], None]


@dataclass
class Timeouts:
    """Seconds the host waits for an obligation, for a move (inf: forever)."""

    obligation: float = 30.0
    move: float = math.inf


@dataclass
class SeatOutcome:
    session: Session
    error: str | None = None
    events: list[Event] = field(default_factory=list)


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
    session: Session, agent: Agent, link: Link, observe: Observer | None = None
) -> SeatOutcome:
    """A guest seat: apply the host's entries in order, answer with what this seat owes.

    The seat writes what it owes as soon as it owes it, even while other seats owe too
    (the shares of one reveal, say), then applies what the host relays — other seats'
    entries may come before its own comes back.
    """
    out = SeatOutcome(session)
    while not session.finished:
        if not session.awaiting_echo:
            data = await _produce(session, agent)
            if data is not None:
                await link.send_entry(data)
                session.sent(data)  # it must come back as written (or the host aborts)
                continue
        entry = await link.receive_entry()
        events = session.receive(entry, peer="host")
        out.events.extend(events)
        if observe is not None:
            observe(session, events)
    return out


async def run_host(
    session: Session,
    header: Header,
    agent: Agent,
    links: Mapping[int, Link],
    observe: Observer | None = None,
    timeouts: Timeouts | None = None,
    *,
    ordered: bool = False,
) -> SeatOutcome:
    """The host seat: sequence the game, check every entry, send each to every guest.

    Entries that several seats owe at once are put in the log in the order they arrive
    (``ordered``: in seat order instead, so that one process replays a seeded game byte
    for byte). A peer's bad entry, silence or departure ends the game with an ``abort``
    blaming its seat (every seat still owing, for a timeout); a failure of this program
    ends it with an ``abort`` blaming nobody. Either way the log holds every accepted
    entry and says how the game ended.
    """
    timeouts = timeouts or Timeouts()
    out = SeatOutcome(session)
    send, inbox = trio.open_memory_channel[tuple[int, bytes | Exception]](math.inf)
    held: dict[int, bytes] = {}  # ordered: entries that came before their seat's turn
    since: dict[tuple[int, bytes], float] = {}  # (seat, anchor) owed -> when it became owed

    async def pump(seat: int, link: Link) -> None:
        while True:
            try:
                data = await link.receive_entry()
            except (PeerGone, FairdealError, trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                await send.send((seat, exc))
                return
            await send.send((seat, data))

    async def publish(data: bytes, events: list[Event]) -> None:
        out.events.extend(events)
        if observe is not None:
            observe(session, events)
        for link in links.values():
            # A broken link is noticed by its pump, which aborts the game there.
            with contextlib.suppress(PeerGone, trio.BrokenResourceError, trio.ClosedResourceError):
                await link.send_entry(data)

    async def abort(blame: int | Sequence[int] | None, reason: str) -> None:
        seats = [] if blame is None else [blame] if isinstance(blame, int) else list(blame)
        who = " and ".join(f"seat {s}" for s in seats)
        out.error = f"{who}: {reason}" if seats else reason
        data = session.abort(blame, reason)
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

    async def write_or_hear(deciding: bool) -> tuple[str | None, tuple[int, bytes | Exception] | None]:
        """Write the host seat's entry; while its player thinks, the guests are still heard:
        one that leaves (or writes out of turn) ends the game at once, not after the move."""
        result: list[str | None] = []
        heard: list[tuple[int, bytes | Exception]] = []
        async with trio.open_nursery() as thinking:

            async def write() -> None:
                result.append(await own_entry(next_entry))
                thinking.cancel_scope.cancel()

            async def listen() -> None:
                heard.append(await inbox.receive())
                thinking.cancel_scope.cancel()

            thinking.start_soon(write)
            if deciding:
                thinking.start_soon(listen)
        return (result[0] if result else None), (heard[0] if heard else None)

    def deadline(owing: Sequence[Waiting]) -> tuple[float, list[int]]:
        """When the oldest guest obligation runs out, and every guest seat owing by then."""
        now = trio.current_time()
        ends: dict[int, float] = {}
        for w in owing:
            if w.seat == session.seat:
                continue
            start = since.setdefault((w.seat, session.anchor(w.seat)), now)
            ends[w.seat] = start + (timeouts.move if w.decision else timeouts.obligation)
        if not ends:
            return math.inf, []
        first = min(ends.values())
        return first, sorted(s for s, end in ends.items() if end <= first)

    def place(item: bytes, seat: int) -> bytes:
        """The entry as the log will hold it: from its connection's seat, at the end of the log."""
        env = decode_envelope(item, peer=f"seat {seat}")
        if env.seat != seat:
            raise RemoteProtocolError(f"sent an entry in the name of seat {env.seat}", seat=seat)
        if (env.seq, env.prev) == (session.seq, session.last_hash):
            return item
        return env.placed(session.seq, session.last_hash).encode()

    failure: str | None = None
    async with trio.open_nursery() as nursery:
        for seat, link in links.items():
            nursery.start_soon(pump, seat, link)
        failure = await own_entry(first_entry)
        while failure is None and not session.finished:
            owing = session.owing()
            first = owing[0]
            mine = next((w for w in owing if w.seat == session.seat), None)
            if mine is not None and (not ordered or first.seat == session.seat):
                failure, heard = await write_or_hear(mine.decision)
                if heard is None:
                    continue
                seat, item = heard
            elif ordered and first.seat in held:
                seat, item = first.seat, held.pop(first.seat)
            else:
                end, late = deadline(owing)
                with trio.move_on_at(end) as scope:
                    seat, item = await inbox.receive()
                if scope.cancelled_caught:
                    await abort(late, f"timed out waiting for {first.what}")
                    break
            if session.finished:
                break  # what came while the host's own entry ended the game changes nothing
            owing = session.owing()  # the host's own entry may have just changed it
            owes = any(w.seat == seat for w in owing)
            if ordered and owes and seat != owing[0].seat and not isinstance(item, Exception):
                held[seat] = item  # its turn comes: one process keeps the seat order
                continue
            if isinstance(item, Exception):
                await abort(seat, f"left the game ({item})" if str(item) else "left the game")
                break
            try:
                item = place(item, seat)
                events = session.receive(item)
            except RemoteProtocolError as exc:
                await abort(seat, exc.reason)  # blame the connection it came from, not a claimed seat
                break
            except FairdealError as exc:  # this program failed while settling a peer's entry
                failure = f"the host could not go on: {exc}"
                break
            await publish(item, events)
        if failure is not None:
            if session.seq > 0 and not session.finished:
                await abort(None, failure)
            out.error = failure
        nursery.cancel_scope.cancel()
    return out


__all__ = [
    "RESIGN",
    "Agent",
    "BotAgent",
    "Link",
    "PeerGone",
    "SeatOutcome",
    "Timeouts",
    "run_guest",
    "run_host",
]
