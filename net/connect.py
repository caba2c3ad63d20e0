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
:data:`DOOR_WAIT` seconds. The relay closing the connection before ``ok`` means another
joiner took that door at the same moment: the joiner goes on to the next door.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

import trio

from fairdeal.core.errors import FairdealError, RemoteProtocolError
from fairdeal.core.identity import Identity

from .errors import NetError, RelayError
from .invite import Endpoint, Invite
from .relay import _os_reason, relay_connect
from .stream import SecureStream, said_nothing, secure_connect

DIRECT_STAGGER: Final = 0.25
RELAY_DELAY: Final = 1.0
DOOR_WAIT: Final = 3.0
MISMATCH: Final = "host identity does not match the invite"
NO_HOST: Final = "no host is waiting there for this code (the game may have started, or the host stopped)"

Path = Literal["direct", "relay"]


@dataclass(frozen=True)
class Connected:
    """The winning connection: its secure stream, the path, and the address or relay it went through."""

    secure: SecureStream
    path: Path
    via: str


Note = Callable[[str], None]


@dataclass(frozen=True)
class _Attempt:
    label: str
    start: float
    run: Callable[[Note], Awaitable[Connected]]


class _Race:
    def __init__(self) -> None:
        self.winner: Connected | None = None
        self.errors: list[tuple[str, BaseException]] = []
        self.failed = 0
        self.changed = trio.Event()
        self.notes: dict[str, str] = {}  # what an attempt still running was waiting for (or on)

    def fail(self, label: str, exc: BaseException) -> None:
        self.errors.append((label, exc))
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

    Raises :class:`RemoteProtocolError` ("host identity does not match the invite") when a
    host answered with another identity and nothing else worked, and :class:`NetError`
    saying what every path did when no path worked within ``connect_timeout`` seconds.
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
                _relayed(invite, identity, connect_timeout, handshake_timeout, rng or random.SystemRandom()),
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
    raise _failure(race, attempts, connect_timeout)


async def _run(attempt: _Attempt, race: _Race, scope: trio.CancelScope) -> None:
    try:
        connected = await attempt.run(lambda text: race.notes.__setitem__(attempt.label, text))
    except (FairdealError, OSError, trio.BrokenResourceError, trio.ClosedResourceError) as exc:
        race.fail(attempt.label, exc)
        return
    if race.winner is None:
        race.winner = connected
        scope.cancel()
    else:
        await trio.aclose_forcefully(connected.secure)  # type: ignore[arg-type]


def _failure(race: _Race, attempts: Sequence[_Attempt], timeout: float) -> FairdealError:
    for _, exc in race.errors:
        if isinstance(exc, RemoteProtocolError) and MISMATCH in exc.reason:
            return RemoteProtocolError(MISMATCH, peer=exc.peer)
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
        return _os_reason(exc)
    return str(exc)


def _direct(
    endpoint: Endpoint, invite: Invite, identity: Identity, deadline: float, handshake_timeout: float
) -> Callable[[Note], Awaitable[Connected]]:
    async def run(note: Note) -> Connected:
        try:
            stream = await trio.open_tcp_stream(endpoint.host, endpoint.port)
        except OSError as exc:
            raise NetError(_os_reason(exc)) from None
        # Should the race's deadline come before the handshake's own, the race says what the
        # handshake's timeout would have said of this address, for the seconds it had.
        left = max(0.1, round(deadline - trio.current_time(), 1))
        note(said_nothing(left))
        secure = await secure_connect(
            stream,
            identity,
            initiator=True,
            expected_peer_fingerprint=invite.fingerprint,
            handshake_timeout=handshake_timeout,
            peer=str(endpoint),
            on_heard=lambda: note(f"handshake did not finish within {left:g} s"),
        )
        return Connected(secure, "direct", str(endpoint))

    return run


def _relayed(
    invite: Invite, identity: Identity, connect_timeout: float, handshake_timeout: float, rng: random.Random
) -> Callable[[Note], Awaitable[Connected]]:
    assert invite.relay is not None
    relay = invite.relay

    async def run(note: Note) -> Connected:
        side = invite.relay_side("joiner")
        doors = list(range(invite.doors))
        rng.shuffle(doors)
        last: FairdealError | None = None
        # Every door a few times: doors lost to another joiner, or a stray peer, are tried again.
        for n in range(3 * len(doors) + 1):
            door = doors[n % len(doors)]
            try:
                stream = await relay_connect(
                    relay,
                    invite.relay_token(door),
                    side,
                    connect_timeout=connect_timeout,
                    pair_timeout=DOOR_WAIT,
                    on_waiting=lambda: note(NO_HOST),
                )
            except RelayError as exc:
                if exc.kind not in ("closed", "timeout"):
                    raise
                last = exc
                continue
            try:
                secure = await secure_connect(
                    stream,
                    identity,
                    initiator=True,
                    expected_peer_fingerprint=invite.fingerprint,
                    handshake_timeout=handshake_timeout,
                    peer=f"relay {relay}",
                )
            except RemoteProtocolError as exc:
                if MISMATCH in exc.reason:
                    raise
                last = NetError(f"the peer on the relay did not complete the handshake ({exc.reason})")
                continue
            return Connected(secure, "relay", str(relay))
        if isinstance(last, RelayError) and last.kind == "timeout":
            raise NetError(NO_HOST)
        raise last or NetError("no door of the relay could be used")

    return run


__all__ = ["DIRECT_STAGGER", "DOOR_WAIT", "RELAY_DELAY", "Connected", "connect_host"]
