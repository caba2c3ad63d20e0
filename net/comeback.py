"""Reaching the host again after the link dropped: how (:class:`Connector`: the invite, this end's
identity and the joiner's limits), one attempt (:func:`rejoin`: connect, ``rejoin`` or ``watch``
with the entries held and the hash of the last, then the host's ``sync``), and the attempts with
back-off until the grace period ends (:func:`come_back`); a host that refuses says why
(:class:`Refusal`), which is final — but a watcher told the host is busy catching up other
watchers waits as told and asks again."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

import trio

from fairdeal import __version__
from fairdeal.core.errors import FairdealError, RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.core.session.envelope import GENESIS
from fairdeal.core.session.session import Session

from . import wire
from .connect import RELAY_DELAY, Connected, connect_host
from .errors import NetError
from .invite import Endpoint, Invite
from .link import Keepalive
from .lobbyterms import busy_for
from .stream import PeerClosed, SecureStream

BACKOFF: Final = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0, 5.0)
"""Seconds between attempts to reach the host again (the last one repeats), each ±20 %."""
AT_ONCE: Final = 0.2
ONCE_STEP: Final = 2
"""An attempt that fails within ``AT_ONCE`` seconds is tried again after ``BACKOFF[ONCE_STEP]``."""


@dataclass
class Connector:
    """How to reach the host again: the invite and this end's identity, with the joiner's limits."""

    invite: Invite
    identity: Identity
    extra_direct: Sequence[Endpoint] = ()
    connect_timeout: float = 15.0
    handshake_timeout: float = 10.0
    relay_delay: float = RELAY_DELAY
    keepalive: Keepalive = field(default_factory=Keepalive)

    async def connect(self) -> Connected:
        """The first path to the host whose handshake proves the invite's identity (:func:`connect_host`)."""
        return await connect_host(
            self.invite,
            self.identity,
            extra_direct=self.extra_direct,
            connect_timeout=self.connect_timeout,
            handshake_timeout=self.handshake_timeout,
            relay_delay=self.relay_delay,
        )


class Refusal(NetError):
    """The host would not take this seat (or watcher) back, and said why (:attr:`reason`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"{REFUSED}{reason}")
        self.reason = reason


REFUSED: Final = "the host refused: "
"""How a refusal's words begin, in an error."""


def refused_why(exc: FairdealError) -> str:
    """The host's own words of a refusal (``the table is full``), from the error that carries it."""
    if isinstance(exc, Refusal):
        return exc.reason
    text = str(exc)
    return text[len(REFUSED) :] if text.startswith(REFUSED) else text


async def expect(secure: SecureStream, timeout: float, what: str) -> wire.Message:
    """The host's next message, within ``timeout`` seconds (NetError otherwise)."""
    try:
        with trio.fail_after(timeout):
            return wire.decode(await secure.receive(), peer="the host")
    except trio.TooSlowError:
        raise NetError(f"the host did not send {what} within {timeout:g} s") from None
    except PeerClosed:
        raise NetError(f"the host closed the connection before sending {what}") from None
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        raise NetError("lost the connection to the host") from None


async def rejoin(
    c: Connector, seat: int | None, entries: int, last: bytes
) -> tuple[SecureStream, wire.Sync, str, str]:
    """One attempt to come back: connect, ``rejoin`` (or ``watch`` for ``seat`` None), read ``sync``.

    Returns the stream, the sync, the path and where it went through. Raises :class:`Refusal`
    when the host refuses, NetError (or RemoteProtocolError) when it cannot be reached.
    """
    connected = await c.connect()
    secure = connected.secure
    software = f"fairdeal {__version__}"
    try:
        if seat is None:
            msg: wire.Message = wire.Watch(c.invite.session, entries, last, software)
        else:
            msg = wire.Rejoin(c.invite.session, seat, entries, last, software)
        await secure.send(wire.encode(msg))
        answer = await expect(secure, c.handshake_timeout, "its answer")
        if isinstance(answer, wire.Refused):
            raise Refusal(answer.reason)
        if not isinstance(answer, wire.Sync):
            raise RemoteProtocolError(f"expected sync, not {type(answer).__name__.lower()}", peer="the host")
    except BaseException:
        await trio.aclose_forcefully(secure)  # type: ignore[arg-type]
        raise
    return secure, answer, connected.path, connected.via


def last_hash(session: Session) -> bytes:
    """The hash of the last entry ``session`` holds (all zeros before the first)."""
    return GENESIS if session.seq == 0 else session.last_hash


async def come_back(
    c: Connector,
    seat: int | None,
    session: Session,
    deadline: float,
    on_busy: Callable[[float], None] | None = None,
    rng: random.Random | None = None,
) -> tuple[SecureStream, wire.Sync, str, str] | None:
    """Try to reach the host again until ``deadline`` (trio time), with back-off; None if it could not.

    A refusal by the host (its log does not fit this one, the seat is not this identity's,
    the game is over) is final and raised as :class:`Refusal`; but a watcher (``seat`` None) told
    the host is busy catching up other watchers waits the seconds it says (``on_busy`` is told
    them) and asks again, while the deadline allows.
    """
    rng = rng or random.Random()
    step = 0
    told = 0.0  # seconds to wait before the next attempt, as the host said
    for _ in range(1_000_000):
        left = deadline - trio.current_time()
        if left <= 0:
            return None
        pause = told or BACKOFF[min(step, len(BACKOFF) - 1)] * rng.uniform(0.8, 1.2)
        told = 0.0
        if pause:
            await trio.sleep(min(pause, left))
        left = deadline - trio.current_time()
        if left <= 0:
            return None
        c2 = replace(c, connect_timeout=min(c.connect_timeout, max(0.5, left)))
        started = trio.current_time()
        with trio.move_on_at(deadline):
            try:
                return await rejoin(c2, seat, session.seq, last_hash(session))
            except Refusal as exc:
                told = (busy_for(exc.reason) or 0.0) if seat is None else 0.0
                if not told or trio.current_time() + told > deadline:
                    raise
                if on_busy is not None:
                    on_busy(told)
                continue
            except (FairdealError, OSError, trio.BrokenResourceError, trio.ClosedResourceError):
                pass
        # An attempt that failed at once (no network: no route, nothing sent) costs nothing: the next
        # one comes soon, so a link that returns is used at once; one that had to wait backs off.
        step = ONCE_STEP if trio.current_time() - started < AT_ONCE else step + 1
    return None  # pragma: no cover


__all__ = [
    "BACKOFF",
    "REFUSED",
    "Connector",
    "Refusal",
    "come_back",
    "expect",
    "last_hash",
    "refused_why",
    "rejoin",
]
