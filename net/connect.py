"""The joiner's way to the host: every direct address and the relay at once (happy eyeballs).

:func:`connect_host` starts one attempt per direct address of the invite (and any extra
ones, such as the addresses a LAN announcement gave), a quarter of a second apart, and
one attempt through the relay, :data:`RELAY_DELAY` seconds after the start — or at once
when every attempt started so far has failed. Each attempt runs the whole Noise handshake
and checks the host's identity against the invite; the first attempt to finish wins and
every other one is cancelled and closed. So a working direct path normally wins, and the
relay only carries the game when no direct path works. When none has won by the connect
timeout, the error says what each path did, the ones still running included: an address
that took the connection and said nothing is not a fairdeal host, even when the connect
timeout came before the handshake's own.

Through the relay, the joiner tries the host's doors in a random order: on each it asks
the relay to pair it under the door's token with the joiners' side and waits up to
:data:`DOOR_WAIT` seconds. Anyone who holds the code can wait on a door too, so what
answers there may not be the host: a peer that proves another identity, does not speak
Noise or says nothing within :data:`STRAY_WAIT` seconds is a *stray*. The joiner closes it
and tries again, as it does when the relay closes the connection before ``ok`` (another
joiner was paired on that door at the same moment), with a growing pause when that keeps
happening (:data:`RETRY_PAUSES`), until the connect timeout. Only then does it say what the
relay did: how many strays answered, and what they were; how often the relay closed; that
no host was waiting.

"Host identity does not match the invite" is said of a direct address whose host proved
another identity, and of the whole attempt only when every path met that same identity
(then it names it).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

import trio

from fairdeal.core.errors import FairdealError, RemoteProtocolError
from fairdeal.core.identity import Identity

from .errors import NetError, RelayError
from .invite import Endpoint, Invite
from .reasons import os_reason
from .relay import relay_connect
from .secure import WrongIdentity
from .stream import SecureStream, said_nothing, secure_connect

DIRECT_STAGGER: Final = 0.25
RELAY_DELAY: Final = 1.0
DOOR_WAIT: Final = 3.0
STRAY_WAIT: Final = 4.0
"""Seconds a peer paired through the relay has to answer the handshake (a host answers at once)."""
RETRY_PAUSES: Final = (0.0, 0.0, 0.1, 0.2, 0.4, 0.8, 1.0)
"""Pauses before the next try after consecutive strays or closes at the relay (the last repeats)."""
MISMATCH: Final = "host identity does not match the invite"
NO_HOST: Final = "no host is waiting there for this code (the game may have started, or the host stopped)"

Path = Literal["direct", "relay"]


@dataclass(frozen=True)
class Connected:
    """The winning connection: its secure stream, the path, and the address or relay it went through."""

    secure: SecureStream
    path: Path
    via: str


class Report:
    """What an attempt tells the race while it runs: what it is doing (for the words of a timeout)
    and every wrong identity it met (for the rule of "does not match the invite")."""

    def __init__(self, race: _Race, label: str) -> None:
        self.race, self.label = race, label

    def note(self, text: str | None) -> None:
        if text is None:
            self.race.notes.pop(self.label, None)
        else:
            self.race.notes[self.label] = text

    def wrong(self, seen: str) -> None:
        self.race.wrong.setdefault(self.label, set()).add(seen)


@dataclass(frozen=True)
class _Attempt:
    label: str
    start: float
    run: Callable[[Report], Awaitable[Connected]]


class _Race:
    def __init__(self) -> None:
        self.winner: Connected | None = None
        self.errors: list[tuple[str, BaseException]] = []
        self.failed = 0
        self.changed = trio.Event()
        self.notes: dict[str, str] = {}  # what an attempt still running was waiting for (or on)
        self.wrong: dict[str, set[str]] = {}  # the wrong identities each attempt met

    def fail(self, label: str, exc: BaseException) -> None:
        self.errors.append((label, exc))
        if isinstance(exc, WrongIdentity):
            self.wrong.setdefault(label, set()).add(exc.seen)
        self.failed += 1
        self.changed.set()
        self.changed = trio.Event()


async def connect_host(
    invite: Invite,
    identity: Identity,
    *,
    extra_direct: Sequence[Endpoint] = (),
    connect_timeout: float = 15.0,
    handshake_timeout: float = 10.0,
    relay_delay: float = RELAY_DELAY,
    use_relay: bool = True,
    rng: random.Random | None = None,
) -> Connected:
    """The first connection to the host whose handshake proves the invite's identity.

    Raises :class:`RemoteProtocolError` ("host identity does not match the invite: the peer
    is ...") when every path met one same other identity, and :class:`NetError` saying what
    every path did when no path worked within ``connect_timeout`` seconds.
    """
    deadline = trio.current_time() + connect_timeout
    direct = list(dict.fromkeys([*invite.direct, *extra_direct]))
    attempts = [
        _Attempt(str(e), i * DIRECT_STAGGER, _direct(e, invite, identity, deadline, handshake_timeout))
        for i, e in enumerate(direct)
    ]
    if invite.relay is not None and use_relay:
        attempts.append(
            _Attempt(
                f"relay {invite.relay}",
                relay_delay if direct else 0.0,
                _relayed(
                    invite,
                    identity,
                    deadline,
                    connect_timeout,
                    handshake_timeout,
                    rng or random.SystemRandom(),
                ),
            )
        )
    if not attempts:
        raise NetError("the invite code gives no way to reach the host")
    race = _Race()
    with trio.move_on_at(deadline):
        async with trio.open_nursery() as nursery:
            t0 = trio.current_time()
            for started, attempt in enumerate(attempts):
                # Start the next attempt at its time, or at once when every started one failed.
                while race.failed < started:
                    changed = race.changed
                    with trio.move_on_at(t0 + attempt.start):
                        await changed.wait()
                    if trio.current_time() >= t0 + attempt.start:
                        break
                nursery.start_soon(_run, attempt, race, nursery.cancel_scope)
    if race.winner is not None:
        return race.winner
    raise _failure(race, attempts, invite, connect_timeout)


async def _run(attempt: _Attempt, race: _Race, scope: trio.CancelScope) -> None:
    try:
        connected = await attempt.run(Report(race, attempt.label))
    except (FairdealError, OSError, trio.BrokenResourceError, trio.ClosedResourceError) as exc:
        race.fail(attempt.label, exc)
        return
    if race.winner is None:
        race.winner = connected
        scope.cancel()
    else:
        await trio.aclose_forcefully(connected.secure)  # type: ignore[arg-type]


def _failure(race: _Race, attempts: Sequence[_Attempt], invite: Invite, timeout: float) -> FairdealError:
    seen = set().union(*race.wrong.values()) if race.wrong else set()
    if len(seen) == 1 and all(a.label in race.wrong for a in attempts):
        # Every path led to one same other identity: that is who answers for this code.
        (other,) = seen
        places = [f"{a.label}'s doors" if a.label.startswith("relay ") else a.label for a in attempts]
        where = places[0] if len(places) == 1 else ", ".join(places[:-1]) + " and " + places[-1]
        return RemoteProtocolError(
            f"{MISMATCH}: the peer is {other} (at {where}), the invite names {invite.fingerprint}"
        )
    said = {**race.notes, **{label: _reason(exc) for label, exc in race.errors}}
    waited = f"no answer within {timeout:g} s"
    parts = [f"{a.label}: {said.get(a.label, waited)}" for a in attempts]
    if len(attempts) == 1 and attempts[0].label in said and not attempts[0].label.startswith("relay "):
        return NetError(f"could not connect to the host at {parts[0]}")
    return NetError("could not reach the host (" + "; ".join(parts) + ")")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, RemoteProtocolError):
        return exc.reason
    if isinstance(exc, OSError):
        return os_reason(exc)
    return str(exc)


def _direct(
    endpoint: Endpoint, invite: Invite, identity: Identity, deadline: float, handshake_timeout: float
) -> Callable[[Report], Awaitable[Connected]]:
    async def run(report: Report) -> Connected:
        try:
            stream = await trio.open_tcp_stream(endpoint.host, endpoint.port)
        except OSError as exc:
            raise NetError(os_reason(exc)) from None
        # Should the race's deadline come before the handshake's own, the race says what the
        # handshake's timeout would have said of this address, for the seconds it had.
        left = max(0.1, round(deadline - trio.current_time(), 1))
        report.note(said_nothing(left))
        secure = await secure_connect(
            stream,
            identity,
            initiator=True,
            expected_peer_fingerprint=invite.fingerprint,
            handshake_timeout=handshake_timeout,
            peer=str(endpoint),
            on_heard=lambda: report.note(f"handshake did not finish within {left:g} s"),
        )
        return Connected(secure, "direct", str(endpoint))

    return run


class _RelayTries:
    """What one joiner met at the relay so far, told in words."""

    def __init__(self, rng: random.Random) -> None:
        self.waited = 0  # doors where nothing paired within DOOR_WAIT
        self.closed = 0  # connections the relay closed before pairing
        self.strays: dict[str, int] = {}  # what a peer that is not the host did, and how often
        self.row = 0  # strays and closes since the last door that was simply waited on
        self.rng = rng

    def stray(self, what: str) -> None:
        self.strays[what] = self.strays.get(what, 0) + 1
        self.row += 1

    def pause(self) -> float:
        """Seconds to wait before the next try (strays and closes in a row back off)."""
        return RETRY_PAUSES[min(self.row, len(RETRY_PAUSES) - 1)] * self.rng.uniform(0.8, 1.2)

    def words(self, *, waiting: bool = False, doing: str | None = None) -> str | None:
        """What happened, and what the joiner was doing when time ran out (``waiting`` on a door,
        or ``doing``); None when nothing has happened yet."""
        parts = []
        if self.waited or (waiting and not self.strays and not self.closed):
            parts.append(NO_HOST)
        if self.strays:
            n = sum(self.strays.values())
            who = "a peer that is not the host" if n == 1 else f"{n} peers that are not the host"
            kinds = [what if len(self.strays) == 1 else f"{what} ({k})" for what, k in self.strays.items()]
            parts.append(f"{who} answered on its doors: {', '.join(kinds)}")
        if self.closed:
            times = "once" if self.closed == 1 else f"{self.closed} times"
            parts.append(f"the relay closed the connection before pairing {times}")
        if doing is not None:
            parts.append(doing)
        return "; ".join(parts) or None


def _stray_words(exc: BaseException, wait: float) -> str:
    if not isinstance(exc, RemoteProtocolError) or exc.reason == "connection closed during the handshake":
        return "closed the connection in the handshake"
    if isinstance(exc, WrongIdentity):
        return f"proved identity {exc.seen}"
    if exc.reason.startswith("that is not a fairdeal host"):
        return f"said nothing in {wait:g} s"
    return f"did not complete the handshake ({exc.reason})"


def _relayed(
    invite: Invite,
    identity: Identity,
    deadline: float,
    connect_timeout: float,
    handshake_timeout: float,
    rng: random.Random,
) -> Callable[[Report], Awaitable[Connected]]:
    assert invite.relay is not None
    relay = invite.relay
    wait = min(handshake_timeout, STRAY_WAIT)

    async def run(report: Report) -> Connected:
        side = invite.relay_side("joiner")
        doors = list(range(invite.doors))
        rng.shuffle(doors)
        tries = _RelayTries(rng)
        # Every door in turn until the race's deadline: a door lost to another joiner, a stray
        # peer on it or a relay that closed is tried again.
        for n in itertools.count():
            door = doors[n % len(doors)]
            report.note(tries.words())
            try:
                stream = await relay_connect(
                    relay,
                    invite.relay_token(door),
                    side,
                    connect_timeout=connect_timeout,
                    pair_timeout=DOOR_WAIT,
                    on_waiting=lambda: report.note(tries.words(waiting=True)),
                )
            except RelayError as exc:
                if exc.kind == "timeout":
                    tries.waited += 1
                    tries.row = 0
                    continue
                if exc.kind != "closed":
                    raise  # the relay cannot be used at all: unreachable, refusing, not a relay
                tries.closed += 1
                tries.row += 1
                report.note(tries.words())
                await trio.sleep(tries.pause())
                continue
            # Should the race's deadline come first, say what this peer did for the time it had.
            left = max(0.1, round(min(wait, deadline - trio.current_time()), 1))
            silent = tries.words(doing=f"it paired this joiner with a peer that said nothing in {left:g} s")
            slow = tries.words(
                doing=f"it paired this joiner with a peer whose handshake took over {left:g} s"
            )
            report.note(silent)
            try:
                secure = await secure_connect(
                    stream,
                    identity,
                    initiator=True,
                    expected_peer_fingerprint=invite.fingerprint,
                    handshake_timeout=wait,
                    peer=f"relay {relay}",
                    on_heard=functools.partial(report.note, slow),
                )
            except (RemoteProtocolError, trio.BrokenResourceError, OSError) as exc:
                if isinstance(exc, WrongIdentity):
                    report.wrong(exc.seen)
                tries.stray(_stray_words(exc, wait))
                report.note(tries.words())
                await trio.sleep(tries.pause())
                continue
            return Connected(secure, "relay", str(relay))
        raise AssertionError("unreachable")  # pragma: no cover

    return run


__all__ = ["DIRECT_STAGGER", "DOOR_WAIT", "RELAY_DELAY", "STRAY_WAIT", "Connected", "connect_host"]
