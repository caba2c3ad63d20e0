"""Chat at the table: short signed lines, relayed by the host, never in the game log.

A :class:`ChatRoom` belongs to one seat of a started game. :meth:`ChatRoom.say` signs a
line with the seat's identity key (domain-separated, bound to the game id, the seat
and a counter) and sends it; the host relays a guest's line to the other guests
unchanged. Every receiver checks the line before showing it: the seat is a player of
this game (and, at the host, the seat of the connection it came on), the counter
rises, the signature is that seat's (so the host cannot put words in a guest's mouth),
the text is at most :data:`~fairdeal.net.wire.MAX_CHAT` printable characters, and the
seat sends at most :data:`RATE` lines in :data:`PER` seconds. A line that fails is
dropped, never shown, and counted against the link it came on (a link that sends many is
dropped, :mod:`~fairdeal.net.flood`); chat never stops a game.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping, Sequence

from fairdeal.core.identity import Identity, verify_signature
from fairdeal.core.session.header import Header

from . import wire
from .driver import PeerGone
from .link import NetLink

DOMAIN = b"fairdeal-chat:"
RATE = 5  # lines
PER = 10.0  # seconds

#: What a front end gets for each line heard: the seat, its name, its checked fingerprint, the words.
Heard = Callable[[int, str, str, str], None]


def chat_bytes(game_id: bytes, seat: int, n: int, text: str) -> bytes:
    """What a chat signature covers."""
    return b"".join([DOMAIN, game_id, seat.to_bytes(1, "big"), n.to_bytes(4, "big"), text.encode("utf-8")])


class ChatRoom:
    """One seat's chat in a started game. ``links`` are this seat's links by seat (the host's: every
    guest; a guest's: seat 0, the host). ``heard`` shows a checked line.

    ``marks`` are the counters to go on from (a resumed seat's, from its seed file): by seat, the
    last line this seat sent (its own seat) or accepted (every other). ``keep`` is given the
    marks each time they change, before the line goes out or is shown, so that a seat that
    crashes and resumes neither reuses a counter of its own (its lines would be dropped) nor
    accepts a line of another seat's again (a replay).
    """

    def __init__(
        self,
        header: Header,
        seat: int,
        identity: Identity,
        links: Mapping[int, NetLink],
        heard: Heard,
        clock: Callable[[], float] = time.monotonic,
        *,
        marks: Sequence[int] = (),
        keep: Callable[[tuple[int, ...]], None] | None = None,
    ) -> None:
        self.header, self.seat, self.identity = header, seat, identity
        self.links, self.heard, self.clock = links, heard, clock
        self.keep = keep
        self._last: dict[int, int] = {s: n for s, n in enumerate(marks) if n}
        self._times: dict[int, list[float]] = {}
        self.dropped = 0

    @property
    def marks(self) -> tuple[int, ...]:
        """The counters by seat, as :meth:`__init__` takes them."""
        return tuple(self._last.get(s, 0) for s in range(len(self.header.seats)))

    def _mark(self, seat: int, n: int) -> None:
        self._last[seat] = n
        if self.keep is not None:
            self.keep(self.marks)

    def say(self, text: str) -> bool:
        """Sign and send a line (cleaned and cut to the limit); False if it could not go.

        Call it from the trio side (it queues on the links).
        """
        words = wire.clean_text(text, wire.MAX_CHAT).strip()
        n = self._last.get(self.seat, 0) + 1
        if not words or words == "-" or n >= wire.MAX_COUNTER or not self._room(self.seat):
            return False
        self._mark(self.seat, n)  # kept before it goes: never sent twice with one counter
        sig = self.identity.sign(chat_bytes(self.header.game_id, self.seat, n, words))
        msg = wire.Chat(self.seat, n, words, sig)
        self._send(msg, skip=None)
        self.heard(self.seat, self.header.names[self.seat], self.identity.fingerprint, words)
        return True

    def from_link(self, link_seat: int) -> Callable[[wire.Chat], bool]:
        """The handler for chat arriving on the link to ``link_seat``: False when the line was
        refused (the link counts those, :mod:`~fairdeal.net.flood`)."""

        def receive(msg: wire.Chat) -> bool:
            if self.seat == 0 and msg.seat != link_seat:
                self.dropped += 1  # a guest speaks only for its own seat
                return False
            if not self.accept(msg):
                return False
            if self.seat == 0:
                self._send(msg, skip=msg.seat)
            return True

        return receive

    def accept(self, msg: wire.Chat) -> bool:
        """Check a line and show it; False (dropped) when it fails any check.

        The cheap checks come first: a line of a seat over its rate is refused before its
        signature is checked, so a flood of lines costs at most RATE checks per PER seconds.
        """
        seats = self.header.seats
        ok = (
            0 <= msg.seat < len(seats)
            and msg.seat != self.seat
            and msg.n > self._last.get(msg.seat, 0)
            and self._room(msg.seat, take=False)
            and verify_signature(
                seats[msg.seat].identity, msg.sig, chat_bytes(self.header.game_id, msg.seat, msg.n, msg.text)
            )
        )
        if not ok:
            self.dropped += 1
            return False
        self._room(msg.seat)
        self._mark(msg.seat, msg.n)  # kept before it is shown: never accepted twice, even after a crash
        self.heard(msg.seat, self.header.names[msg.seat], seats[msg.seat].fingerprint, msg.text)
        return True

    def _room(self, seat: int, take: bool = True) -> bool:
        """Rate limit: at most RATE lines from ``seat`` in any PER seconds (``take``: count this one)."""
        now = self.clock()
        recent = [t for t in self._times.get(seat, []) if now - t < PER]
        self._times[seat] = recent
        if len(recent) >= RATE:
            return False
        if take:
            recent.append(now)
        return True

    def _send(self, msg: wire.Chat, skip: int | None) -> None:
        for s, link in self.links.items():
            if s == skip or not link.alive:
                continue
            with contextlib.suppress(PeerGone):
                link.send(msg)


__all__ = ["DOMAIN", "PER", "RATE", "ChatRoom", "Heard", "chat_bytes"]
