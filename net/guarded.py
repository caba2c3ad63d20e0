"""Sessions that never let a peer's entry crash this process, and a guest's, which also checks the
header against what the host's welcome promised."""

from __future__ import annotations

from typing import Any

from fairdeal.core.errors import FairdealError, RemoteProtocolError
from fairdeal.core.session import Event
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.header import Header
from fairdeal.core.session.session import HEADER, Session

from . import wire


def _claimed_seat(data: bytes) -> int | None:
    try:
        return decode_envelope(data).seat
    except FairdealError:
        return None


class GuardedSession(Session):
    """A session whose :meth:`receive` raises only RemoteProtocolError for another seat's entry.

    Checking an entry is atomic (a refused entry changes nothing), so an unexpected error
    while checking a peer's entry is turned into a refusal of that entry, naming the seat.
    """

    def receive(self, data: bytes, *, peer: str | None = None) -> list[Event]:
        try:
            return super().receive(data, peer=peer)
        except RemoteProtocolError:
            raise
        except Exception as exc:
            seat = _claimed_seat(data)
            if seat is not None and seat == self.seat:
                raise
            raise RemoteProtocolError(
                f"the entry could not be checked: {wire.clean_text(str(exc), 120) or 'no reason given'}",
                seat=seat,
                peer=peer,
            ) from exc


class GuestSession(GuardedSession):
    """A guest's session: the header must also match what the host's welcome promised."""

    def __init__(self, *args: Any, welcome: wire.Welcome, name: str, kind: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._welcome, self._name, self._kind = welcome, name, kind

    def receive(self, data: bytes, *, peer: str | None = None) -> list[Event]:
        if self.seq == 0:
            env = decode_envelope(data, peer=peer)
            if env.kind == HEADER and env.seq == 0:
                self._check_header(Header.from_body(env.game_id, env.body))
        return super().receive(data, peer=peer)

    def _check_header(self, h: Header) -> None:
        w = self._welcome

        def bad(reason: str) -> RemoteProtocolError:
            return RemoteProtocolError(f"the header is not what the host offered: {reason}", seat=0)

        if (h.game, h.players) != (w.game, w.players):
            raise bad(f"{h.game} for {h.players}, not {w.game} for {w.players}")
        if dict(h.options) != dict(w.options):
            raise bad("other options")
        mine = h.seats[w.seat]
        if (mine.name, mine.kind) != (self._name, self._kind):
            raise bad("this seat's name or kind differs from what this joiner announced")


__all__ = ["GuardedSession", "GuestSession"]
