"""Network play at the full-screen table: the lobby, the invite code and the chat inside the app.

:class:`TableNetObserver` is the :class:`~fairdeal.net.netplay.NetObserver` of a host or a
joiner playing at the table: what the lobby reports goes to the table (the invite code,
who sits where) and to the side panel; once the game starts, the seat's events go to
its :class:`~.player.TablePlayer`, and chat goes both ways.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from fairdeal.core.session.header import Header
from fairdeal.core.session.session import Event, Session
from fairdeal.core.text import distinct_names
from fairdeal.net import wire
from fairdeal.net.invite import Invite
from fairdeal.net.lobby import Joiner
from fairdeal.net.netplay import NetObserver

from ..console import clock
from ..render import option_text
from .app import TableApp
from .player import TablePlayer


def _seat_lines(lobby: wire.Lobby) -> list[str]:
    names = iter(distinct_names(s.name for s in lobby.seats if s is not None))
    return [
        f"  seat {i}: " + ("(free)" if s is None else f"{next(names)}  {s.fingerprint}  [{s.kind}]")
        for i, s in enumerate(lobby.seats)
    ]


class TableNetObserver(NetObserver):
    """Reports network play into a :class:`TableApp` (set :attr:`app` before the game runs)."""

    def __init__(
        self,
        player: TablePlayer | None,
        invite_file: Path | None = None,
        write_file: Callable[[Path, str], None] | None = None,
        source: str = "the invite",
    ) -> None:
        self.source = source  # where the joiner got the host's fingerprint
        self.app: TableApp | None = None
        self.player = player
        self.invite_file = invite_file
        self.write_file = write_file
        self.head: list[str] = []
        self._seat: int | None = None

    def _lobby(self, lines: list[str]) -> None:
        if self.app is not None:
            self.app.lobby_lines = [*self.head, "", *lines]
            self.app.schedule_refresh()

    def _note(self, text: str) -> None:
        if self.app is not None:
            self.app.note(text)

    def listening(self, code: str, invite: Invite, bound: Sequence[str]) -> None:
        ways = [str(e) for e in invite.direct]
        if invite.relay is not None:
            ways.append(f"through relay {invite.relay}")
        self.head = [
            f"Listening on {', '.join(bound)}.",
            "Invite code — give it to the other players; they type  fairdeal join CODE",
            "",
            code,
            "",
            f"It leads them to {' or '.join(ways)}, and proves this host is {invite.fingerprint}.",
        ]
        if self.invite_file is not None and self.write_file is not None:
            self.write_file(self.invite_file, code + "\n")
            self.head.append(f"(The code is also in {self.invite_file}.)")
        self._lobby(["Nobody has joined yet."])
        if self.app is not None:
            self.app.waiting_text = "waiting for the players to join"

    def joined(self, joiner: Joiner, lobby: wire.Lobby) -> None:
        self._note(f"{joiner.name} ({joiner.fingerprint}) took seat {joiner.seat}, from {joiner.address}.")
        self._lobby(_seat_lines(lobby))

    def left(self, joiner: Joiner, reason: str, lobby: wire.Lobby) -> None:
        self._note(f"{joiner.name} left seat {joiner.seat} before the start ({reason}).")
        self._lobby(_seat_lines(lobby))

    def rejected(self, address: str, reason: str) -> None:
        self._note(f"Dropped a connection from {address}: {reason}.")

    def rejected_many(self, count: int, reasons: Mapping[str, int], seconds: float) -> None:
        why = ", ".join(f"{n} {reason}" for reason, n in reasons.items())
        self._note(f"Dropped {count} more connections in the last {seconds:g} s ({why}).")

    def relay_ready(self, relay: str) -> None:
        self._note(f"Players who cannot reach you directly come through relay {relay}.")

    def relay_trouble(self, relay: str, reason: str) -> None:
        self._note(f"The relay {relay} cannot be used for now ({reason}); direct connections still work.")

    def link_flooded(self, seat: int, name: str, reason: str) -> None:
        self._note(f"Dropped {name}'s connection: {reason}.")

    def relay_door_taken(self, relay: str) -> None:
        self._note(
            f"A connection that is not yours was paired on a door of relay {relay} (someone else "
            "with the code, or the relay); the door was opened again."
        )

    def announced(self, name: str) -> None:
        self._note("Announced on the local network: players nearby can type  fairdeal join  (no code).")

    def announce_failed(self, reason: str) -> None:
        self._note(f"Could not announce the game on the local network ({reason}); the code works the same.")

    def connected(self, invite: Invite, path: str, via: str) -> None:
        how = f"directly to {via}" if path == "direct" else f"through relay {via}"
        self.head = [f"Connected {how}: the host is {invite.fingerprint}, as {self.source} says."]
        self._lobby([])

    def welcomed(self, welcome: wire.Welcome, name: str, kind: str) -> None:
        opts = ", ".join(option_text(k, v) for k, v in sorted(welcome.options.items()))
        self.head.append(
            f"You are {name}, in seat {welcome.seat} of {welcome.players} at {welcome.game}"
            f"{f' ({opts})' if opts else ''}."
        )
        self._lobby(["Waiting for the other players…"])

    def lobby(self, lobby: wire.Lobby) -> None:
        self._lobby(_seat_lines(lobby))

    def starting(self, header: Header, seat: int) -> None:
        self._seat = seat
        names = ", ".join(
            f"{name} ({s.fingerprint})" + (" — you" if i == seat else "")
            for i, (name, s) in enumerate(zip(header.names, header.seats, strict=True))
        )
        self._note(f"The game begins: {names}.")
        if self.app is not None:
            self.app.lobby_lines = []
            self.app.waiting_text = "shuffling and dealing"

    def events(self, session: Session, events: Sequence[Event]) -> None:
        if self.player is not None:
            self.player.observe(session, events)

    def chat_ready(self, say: Callable[[str], bool]) -> None:
        if self.app is not None:
            self.app.send_chat = say

    # -- a game that survives ------------------------------------------------------------------------
    def resumed(self, header: Header, seat: int | None, entries: int) -> None:
        self._seat = seat
        if seat is None:
            self._note("Watching the game: every entry is checked as it comes; you see what everyone sees.")
        else:
            self._note(f"The game goes on after {entries} entries.")
        if self.app is not None:
            self.app.lobby_lines = []
            self.app.waiting_text = "catching up"

    def away(self, seat: int, name: str, seconds: float) -> None:
        if self.app is not None:
            self.app.absences.seats[seat] = (name, time.monotonic() + seconds)
        self._note(f"{name}'s connection dropped: waiting for {name} to come back ({clock(seconds)}).")

    def back(self, seat: int, name: str) -> None:
        if self.app is not None:
            self.app.absences.seats.pop(seat, None)
        self._note(f"{name} is back: the game goes on.")

    def host_lost(self, reason: str, seconds: float) -> None:
        if self.app is not None:
            self.app.absences.host = time.monotonic() + seconds
            self.app.absences.seats.clear()
        self._note(f"Lost the connection to the host ({reason}); trying to reach it again.")

    def host_back(self, path: str, via: str, entries: int) -> None:
        if self.app is not None and self.app.absences.host is not None:
            self.app.absences.host = None
            self._note("Reached the host again: the game goes on.")

    def host_left(self) -> None:
        if self.app is not None:
            self.app.absences.seats.clear()
        self._note("The host left the game: it stops here (this seat can go on if the host resumes it).")

    def watcher_joined(self, watchers: int) -> None:
        self._note(f"A watcher joined ({watchers} watching now).")

    def adjourn_ready(self, vote: Callable[[bool], bool]) -> None:
        if self.app is not None:
            self.app.adjourning.ready(vote, self._seat)
            self.app.schedule_refresh()

    def adjourn_vote(self, seat: int, name: str, agree: bool, missing: Sequence[str]) -> None:
        if self.app is not None:
            text = self.app.adjourning.heard(seat, name, agree, missing)
            self.app.adjourn_heard(seat, text)

    def adjourned(self, entries: int) -> None:
        if self.app is not None:
            self.app.absences.seats.clear()
            self.app.absences.host = None
        self._note(f"Every player agreed: the game is adjourned after {entries} entries.")

    def chat(self, seat: int, name: str, fingerprint: str, text: str) -> None:
        if self.app is not None:
            mine = (
                self.player is not None
                and self.player.session is not None
                and seat == self.player.session.seat
            )
            self.app.chat_line("You" if mine else name, "" if mine else fingerprint, text)


__all__ = ["TableNetObserver"]
