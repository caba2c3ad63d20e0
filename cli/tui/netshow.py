"""What network play shows at the table: the lobby's words, the notes, who is away, the votes, the chat.

The network layer's events (:mod:`fairdeal.net.events`) reach the app as :class:`NetReport`
messages, posted on the trio side by :class:`~.netview.TableReport` and handled in order on the
app's side, where the app hands each to its :class:`NetShow`. That ``match``es the event, one
``case`` per event the table shows: the waiting screen's words (the invite code, who sits where,
what the relay does), the notes of the side panel, the absences the status line counts down,
the votes on adjourning, the chat. It changes the table only through :class:`NetScreen`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from textual.message import Message

from fairdeal.core.text import distinct_names
from fairdeal.i18n import N_, ngettext
from fairdeal.i18n import gettext as _
from fairdeal.net import events as ev
from fairdeal.net import wire
from fairdeal.net.invite import Invite

from ..adjourning import Adjourning
from ..netlines import connected, leads_to, seated, write_invite_file
from ..networds import came_from, relay_down, said
from ..phrases import you, you_within
from ..waiting import Absences, not_started
from .player import TablePlayer


class NetReport(Message):
    """One event of network play, for the app's ``on_net_report``."""

    def __init__(self, event: ev.NetEvent) -> None:
        super().__init__()
        self.event = event


class NetScreen(Protocol):
    """What network play changes on the screen: the table app has it all."""

    lobby_lines: list[str]
    waiting_text: str
    send_chat: Callable[[str], object] | None
    ending: ev.Ending | None
    leave: Callable[[], None] | None

    @property
    def player(self) -> TablePlayer | None: ...

    @property
    def absences(self) -> Absences: ...

    @property
    def adjourning(self) -> Adjourning: ...

    def note(self, text: str, style: str = "italic") -> None: ...

    def chat_line(self, who: str, checked: str, text: str) -> None: ...

    def adjourn_heard(self, text: str) -> None: ...

    def schedule_refresh(self, new_turn: bool = False) -> None: ...


def lobby_waiting(lobby: wire.Lobby) -> str:
    """What a joiner waits for in the lobby: more players, or the start."""
    n = lobby.missing
    if n == 0:
        return _("every seat is taken: the game begins")
    return ngettext("waiting for {n} more player", "waiting for {n} more players", n).format(n=n)


def seat_lines(lobby: wire.Lobby) -> list[str]:
    """The lobby's seats, a line each: free, or the name (told apart), fingerprint and kind."""
    names = iter(distinct_names(s.name for s in lobby.seats if s is not None))
    return [
        "  "
        + _("seat {n}: {who}").format(
            n=i, who=_("(free)") if s is None else f"{next(names)}  {s.fingerprint}  [{s.kind}]"
        )
        for i, s in enumerate(lobby.seats)
    ]


class NetShow:
    """Shows network play's events at a :class:`NetScreen` (:meth:`show`), and keeps the waiting
    screen's words. ``invite_file``: where a host also writes its invite code (with
    ``write_file``); ``source``: where a joiner got the host's fingerprint."""

    def __init__(
        self,
        invite_file: Path | None = None,
        write_file: Callable[[Path, str], None] | None = None,
        source: str = N_("the invite"),
    ) -> None:
        self.invite_file = invite_file
        self.write_file = write_file
        self.source = source
        self.head: list[str] = []
        self.relay_line: str | None = None  # the relay's state, on the waiting screen once known
        self.code_line: str | None = None  # the short code for the next player, or why there is none
        self._lines: list[str] = []
        self._seat: int | None = None
        #: How the game ended for this end, as the network layer said (the end box says it).
        self.ended: ev.GameEnded | None = None
        #: The host's refusal, in its words, when it would not let this end in.
        self.refused: str | None = None
        self._chatted: set[int] = set()  # the seats whose chat was shown with their fingerprint

    def _lobby(self, table: NetScreen, lines: list[str]) -> None:
        self._lines = lines
        relay = [line for line in (self.code_line, self.relay_line) if line]
        table.lobby_lines = [*self.head, *relay, "", *lines]
        table.schedule_refresh()

    def _relay_changed(self, table: NetScreen) -> None:
        """The waiting screen says what the relay does now (once the game runs, the notes do)."""
        if table.lobby_lines:
            self._lobby(table, self._lines)

    def show(self, event: ev.NetEvent, table: NetScreen) -> None:
        """Show ``event`` at ``table``."""
        note = table.note
        words = said(event)
        if words is not None:
            note(words)
        match event:
            case ev.Listening(code, invite, bound):
                self._listening(table, code, invite, bound)
            case ev.Joined(joiner, lobby):
                came = came_from(joiner.address)
                took = _("{name} ({fingerprint}) took seat {seat}, {where}.")
                note(
                    took.format(
                        name=joiner.name, fingerprint=joiner.fingerprint, seat=joiner.seat, where=came
                    )
                )
                self._lobby(table, seat_lines(lobby))
            case ev.LeftLobby(_, _, lobby):
                self._lobby(table, seat_lines(lobby))
            case ev.RelayStatus(relay, True):
                if self.relay_line is not None:  # it was said to be unreachable: say it works now
                    again = _("The relay {relay} works again: players behind home routers come through it.")
                    self.relay_line = again.format(relay=relay)
                    self._lobby(table, self._lines)
            case ev.RelayStatus(relay, False, reason):
                note(
                    _("Relay {relay} unreachable for now (retried); direct connections work.").format(
                        relay=relay
                    )
                )
                only = _(
                    "Only players who can reach this computer directly can join; the relay is tried again "
                    "in the background."
                )
                self.relay_line = f"{relay_down(relay, reason)}. {only}"
                self._relay_changed(table)
            case ev.RelayDoorTaken(relay):
                taken = _(
                    "A connection that is not yours was paired on a door of relay {relay} (someone else "
                    "with the code, or the relay); the door was opened again."
                )
                note(taken.format(relay=relay))
            case ev.ShortCode(code):
                self.code_line = _("Or, for the next player alone, the short code:  {code}").format(code=code)
                self._relay_changed(table)
            case ev.MailboxStatus(_, False):
                self.code_line = words
                self._relay_changed(table)
            case ev.HostReached(invite, path, via):
                self.head = [connected(invite, path, via, self.source)]
                note(self.head[0])  # the story keeps how this end came in, once the game runs
                self._lobby(table, [])
                table.waiting_text = _("waiting for the host")
            case ev.Seated(welcome, name):
                self.head.append(seated(welcome, name))
                self._lobby(table, [_("Waiting for the other players…")])
                table.waiting_text = _("waiting for the other players")
            case ev.LobbyChanged(lobby):
                self._lobby(table, seat_lines(lobby))
                table.waiting_text = lobby_waiting(lobby)
            case ev.Started(header, seat):
                self._seat = seat
                names = ", ".join(
                    f"{name} ({s.fingerprint})" + (" — " + you_within() if i == seat else "")
                    for i, (name, s) in enumerate(zip(header.names, header.seats, strict=True))
                )
                note(_("The game begins: {names}.").format(names=names))
                table.lobby_lines = []
                table.waiting_text = _("shuffling and dealing")
            case ev.TableReady(say, vote, leave):
                table.send_chat = say
                table.leave = leave
                table.adjourning.ready(vote, self._seat)
                table.schedule_refresh()
            case ev.Resumed(_, seat, entries):
                self._seat = seat
                if seat is None:
                    watching = _(
                        "Watching the game: every entry is checked as it comes; you see what everyone sees."
                    )
                    note(watching)
                else:
                    goes_on = ngettext(
                        "The game goes on after {n} entry.", "The game goes on after {n} entries.", entries
                    )
                    note(goes_on.format(n=entries))
                table.lobby_lines = []
                p = table.player
                known = p is not None and p.session is not None
                table.waiting_text = "" if known else _("catching up")  # a resumed seat's table is known
                table.schedule_refresh()
            case ev.Away(seat, name, _, until):
                table.absences.seats[seat] = (name, until)
            case ev.Back(seat):
                table.absences.seats.pop(seat, None)
            case ev.HostLost(reason, _, until):
                table.absences.host, table.absences.reaching = until, False
                table.absences.seats.clear()
                note(
                    _("Lost the connection to the host ({reason}); trying to reach it again.").format(
                        reason=reason
                    )
                )
            case ev.ReachingHost(_, until):
                table.absences.host, table.absences.reaching = until, True
            case ev.HostBack():
                if table.absences.host is not None:
                    first = table.absences.reaching
                    table.absences.host, table.absences.reaching = None, False
                    if first:
                        note(_("Reached the host: the game goes on."))
                    else:
                        note(_("Reached the host again: the game goes on."))
            case ev.HostLeft():
                table.absences.seats.clear()
            case ev.NotStartedYet(every, seconds):
                self._lobby(table, [not_started(every, seconds)])
                table.waiting_text = _("waiting for the players to begin")
            case ev.HostBusy():
                if table.lobby_lines:  # a watcher not in yet: the waiting screen says it
                    self._lobby(table, [words or ""])
                    table.waiting_text = _("waiting for the host")
            case ev.Refused(reason):
                self.refused = reason  # the end box says it, with what to do
                table.waiting_text = _("refused")
            case ev.AdjournVote(seat, name, agree, missing):
                table.adjourn_heard(table.adjourning.heard(seat, name, agree, missing))
            case ev.Adjourned():
                table.absences.seats.clear()
                table.absences.host = None
            case ev.ChatLine(seat, name, fingerprint, text):
                p = table.player
                mine = p is not None and p.session is not None and seat == p.session.seat
                first = seat not in self._chatted  # its checked identity is shown once, not each line
                self._chatted.add(seat)
                table.chat_line(you() if mine else name, fingerprint if first and not mine else "", text)
            case ev.GameEnded(how):
                table.ending, table.leave = how, None
                self.ended = event
            case _:
                pass  # said above, or Applied: the entries went to the seat's player on the trio side

    def _listening(self, table: NetScreen, code: str, invite: Invite, bound: Sequence[str]) -> None:
        self.head = [
            _("Listening on {addresses}.").format(addresses=", ".join(bound)),
            _("Invite code — give it to the other players; they type  fairdeal join CODE"),
            "",
            code,
            "",
            leads_to(invite),
        ]
        if self.invite_file is not None and self.write_file is not None:
            why = write_invite_file(self.invite_file, code, self.write_file)
            if why:
                said = _("(Could not write the code to {path}: {reason}.)").format(
                    path=self.invite_file, reason=why
                )
            else:
                said = _("(The code is also in {path}.)").format(path=self.invite_file)
            self.head.append(said)
        self._lobby(table, [_("Nobody has joined yet.")])
        table.waiting_text = _("waiting for the players to join")


__all__ = ["NetReport", "NetScreen", "NetShow", "lobby_waiting", "seat_lines"]
