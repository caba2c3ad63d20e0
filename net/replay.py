"""A seat rebuilt from its own log: the entries replayed, the header read, the decision it had sent
awaited again."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fairdeal.core.errors import ConfigError, FairdealError
from fairdeal.core.session import Event
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.header import Header
from fairdeal.core.session.session import Session


def replay(
    session: Session,
    entries: Sequence[bytes],
    each: Callable[[Session, Sequence[Event]], None] | None = None,
) -> None:
    """Apply a seat's own log to a fresh session (ConfigError when it does not replay); ``each``
    gets every entry's events as it is applied (the story so far, for the front end)."""
    if not entries:
        raise ConfigError("the log holds no entry: there is no game to resume")
    for i, entry in enumerate(entries):
        try:
            events = session.receive(entry)
        except FairdealError as exc:
            raise ConfigError(
                f"the log does not replay with this seat's seed at entry {i} ({exc}): "
                "the seed file is from another game, or the log is damaged"
            ) from None
        if each is not None:
            each(session, events)


def first_header(entries: Sequence[bytes]) -> Header:
    if not entries:
        raise ConfigError("the log holds no entry: there is no game to resume")
    try:
        env = decode_envelope(entries[0])
        return Header.from_body(env.game_id, env.body)
    except FairdealError as exc:
        raise ConfigError(f"the log's first entry is not a game header ({exc})") from None


def arm(session: Session, sent: bytes) -> None:
    """The decision this seat had sent before it stopped, if the log does not hold it and it is
    still owed: awaited again (and sent again, byte for byte, if the host does not have it)."""
    try:
        env = decode_envelope(sent)
    except FairdealError:
        return
    seat = session.seat
    if seat is None or env.seat != seat or session.written_at(seat, env.anchor) is not None:
        return
    if any(w.seat == seat and env.kind in w.kinds for w in session.owing()) and env.anchor == session.anchor(
        seat
    ):
        session.sent(sent)


__all__ = ["arm", "first_header", "replay"]
