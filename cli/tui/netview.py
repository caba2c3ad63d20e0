"""Network play at the full-screen table: the lobby, the invite code and the chat inside the app.

:class:`TableReport` is the ``report`` (:mod:`fairdeal.net.events`) of a host or a
joiner playing at the table: what the lobby reports goes to the table (the invite code,
who sits where) and to the side panel; once the game starts, the seat's events go to
its :class:`~.player.TablePlayer`, and chat goes both ways.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from fairdeal.core.text import distinct_names
from fairdeal.net import events as ev
from fairdeal.net import wire
from fairdeal.net.invite import Invite

from ..render import option_text
from ..waiting import clock, not_started
from .app import TableApp
from .player import TablePlayer


def _seat_lines(lobby: wire.Lobby) -> list[str]:
    names = iter(distinct_names(s.name for s in lobby.seats if s is not None))
    return [
        f"  seat {i}: " + ("(free)" if s is None else f"{next(names)}  {s.fingerprint}  [{s.kind}]")
        for i, s in enumerate(lobby.seats)
    ]


class TableReport:
    """Reports network play into a :class:`TableApp` (set :attr:`app` before the game runs): one
    ``case`` per event of :mod:`fairdeal.net.events`; how the game ended
    (:class:`~fairdeal.net.events.GameEnded`) goes to the app's ``ending``."""

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
        self.relay_line: str | None = None  # the relay's state, on the waiting screen once known
        self._lines: list[str] = []
        self._seat: int | None = None

    def _lobby(self, lines: list[str]) -> None:
        self._lines = lines
        if self.app is not None:
            relay = [self.relay_line] if self.relay_line else []
            self.app.lobby_lines = [*self.head, *relay, "", *lines]
            self.app.schedule_refresh()

    def _relay_changed(self) -> None:
        """The waiting screen says what the relay does now (once the game runs, the notes do)."""
        if self.app is not None and self.app.lobby_lines:
            self._lobby(self._lines)

    def _note(self, text: str) -> None:
        if self.app is not None:
            self.app.note(text)

    def __call__(self, event: ev.NetEvent) -> None:
        app, note = self.app, self._note
        match event:
            case ev.Listening(code, invite, bound):
                self._listening(code, invite, bound)
            case ev.Joined(joiner, lobby):
                note(f"{joiner.name} ({joiner.fingerprint}) took seat {joiner.seat}, from {joiner.address}.")
                self._lobby(_seat_lines(lobby))
            case ev.LeftLobby(joiner, reason, lobby):
                note(f"{joiner.name} left seat {joiner.seat} before the start ({reason}).")
                self._lobby(_seat_lines(lobby))
            case ev.Rejected(address, reason):
                note(f"Dropped a connection from {address}: {reason}.")
            case ev.RejectedMany(count, reasons, seconds):
                why = ", ".join(f"{n} {reason}" for reason, n in reasons.items())
                note(f"Dropped {count} more connections in the last {seconds:g} s ({why}).")
            case ev.RelayStatus(relay, True):
                note(f"Players who cannot reach you directly come through relay {relay}.")
                if self.relay_line is not None:  # it was said to be unreachable: say it works now
                    self.relay_line = (
                        f"The relay {relay} works again: players behind home routers come through it."
                    )
                    self._lobby(self._lines)
            case ev.RelayStatus(relay, False, reason):
                note(f"The relay {relay} cannot be used for now ({reason}); direct connections still work.")
                said = reason if relay in reason else f"the relay {relay} cannot be used for now: {reason}"
                self.relay_line = (
                    f"{said[:1].upper()}{said[1:]}. Only players who can reach this computer directly "
                    "can join; the relay is tried again in the background."
                )
                self._relay_changed()
            case ev.LinkFlooded(_, name, reason):
                note(f"Dropped {name}'s connection: {reason}.")
            case ev.RelayDoorTaken(relay):
                note(
                    f"A connection that is not yours was paired on a door of relay {relay} (someone else "
                    "with the code, or the relay); the door was opened again."
                )
            case ev.Announced():
                note("Announced on the local network: players nearby can type  fairdeal join  (no code).")
            case ev.AnnounceFailed(reason):
                note(f"Could not announce the game on the local network ({reason}); the code works the same.")
            case ev.HostReached(invite, path, via):
                how = f"directly to {via}" if path == "direct" else f"through relay {via}"
                self.head = [f"Connected {how}: the host is {invite.fingerprint}, as {self.source} says."]
                self._lobby([])
            case ev.Seated(welcome, name):
                opts = ", ".join(option_text(k, v) for k, v in sorted(welcome.options.items()))
                self.head.append(
                    f"You are {name}, in seat {welcome.seat} of {welcome.players} at {welcome.game}"
                    f"{f' ({opts})' if opts else ''}."
                )
                self._lobby(["Waiting for the other players…"])
            case ev.LobbyChanged(lobby):
                self._lobby(_seat_lines(lobby))
            case ev.Started(header, seat):
                self._seat = seat
                names = ", ".join(
                    f"{name} ({s.fingerprint})" + (" — you" if i == seat else "")
                    for i, (name, s) in enumerate(zip(header.names, header.seats, strict=True))
                )
                note(f"The game begins: {names}.")
                if app is not None:
                    app.lobby_lines = []
                    app.waiting_text = "shuffling and dealing"
            case ev.Applied(session, events):
                if self.player is not None:
                    self.player.observe(session, events)
            case ev.TableReady(say, vote):
                if app is not None:
                    app.send_chat = say
                    app.adjourning.ready(vote, self._seat)
                    app.schedule_refresh()
            case ev.Resumed(_, seat, entries):
                self._seat = seat
                if seat is None:
                    note("Watching the game: every entry is checked as it comes; you see what everyone sees.")
                else:
                    note(f"The game goes on after {entries} entries.")
                if app is not None:
                    app.lobby_lines = []
                    known = self.player is not None and self.player.session is not None
                    app.waiting_text = "" if known else "catching up"  # a resumed seat's table is known
                    app.schedule_refresh()
            case ev.Away(seat, name, seconds, until):
                if app is not None:
                    app.absences.seats[seat] = (name, until)
                note(f"{name}'s connection dropped: waiting for {name} to come back ({clock(seconds)}).")
            case ev.Back(seat, name):
                if app is not None:
                    app.absences.seats.pop(seat, None)
                note(f"{name} is back: the game goes on.")
            case ev.HostLost(reason, _, until):
                if app is not None:
                    app.absences.host = until
                    app.absences.seats.clear()
                note(f"Lost the connection to the host ({reason}); trying to reach it again.")
            case ev.HostBack():
                if app is not None and app.absences.host is not None:
                    app.absences.host = None
                    note("Reached the host again: the game goes on.")
            case ev.HostLeft():
                if app is not None:
                    app.absences.seats.clear()
                note("The host left the game: it stops here (this seat can go on if the host resumes it).")
            case ev.NotStartedYet(every, seconds):
                self._lobby([not_started(every, seconds)])
            case ev.WatcherCame(watchers):
                note(f"A watcher joined ({watchers} watching now).")
            case ev.WatcherLeft(watchers):
                note(f"A watcher left ({watchers} watching now).")
            case ev.WatcherWaiting(fingerprint, address):
                note(f"A watcher ({fingerprint}, from {address}) waits for the game to start.")
            case ev.AdjournVote(seat, name, agree, missing):
                if app is not None:
                    app.adjourn_heard(seat, app.adjourning.heard(seat, name, agree, missing))
            case ev.Adjourned(entries):
                if app is not None:
                    app.absences.seats.clear()
                    app.absences.host = None
                note(f"Every player agreed: the game is adjourned after {entries} entries.")
            case ev.ChatLine(seat, name, fingerprint, text):
                if app is not None:
                    p = self.player
                    mine = p is not None and p.session is not None and seat == p.session.seat
                    app.chat_line("You" if mine else name, "" if mine else fingerprint, text)
            case ev.GameEnded(how):
                if app is not None:
                    app.ending = how
            case _:
                pass  # a watcher leaving: the table does not show it

    def _listening(self, code: str, invite: Invite, bound: Sequence[str]) -> None:
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


__all__ = ["TableReport"]
