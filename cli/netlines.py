"""Network play in line mode: what the person reads of each event of :mod:`fairdeal.net.events`.

:class:`LineReport` is the ``report`` of a host, a joiner or a watcher in line mode: one
``case`` per event; the human seat's table goes through its
:class:`~fairdeal.cli.linemode.TerminalAgent`, a watcher's through its line mode.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from fairdeal.core.session import Event
from fairdeal.core.session.header import Header
from fairdeal.core.session.session import Session
from fairdeal.core.text import distinct_names
from fairdeal.i18n import N_, ngettext
from fairdeal.i18n import gettext as _
from fairdeal.net import events as ev
from fairdeal.net import wire

from .adjourning import Adjourning
from .console import UI
from .linemode import TerminalAgent
from .networds import came_from, relay_down, said
from .render import option_text
from .waiting import clock, describe_waiting, not_started


def lobby_lines(lobby: wire.Lobby) -> list[str]:
    """The table as the lobby knows it, one line a seat."""
    lines = []
    names = iter(distinct_names(s.name for s in lobby.seats if s is not None))
    for i, s in enumerate(lobby.seats):
        who = _("(free)") if s is None else f"{next(names)}  {s.fingerprint}  [{s.kind}]"
        lines.append("  " + _("seat {n}: {who}").format(n=i, who=who))
    return lines


def _waiting(lobby: wire.Lobby) -> str:
    n = lobby.missing
    if n == 0:
        return _("Every seat is taken.")
    return ngettext("Waiting for {n} more player...", "Waiting for {n} more players...", n).format(n=n)


#: A new file, never through a link, its owner's alone from the start (the umask only takes away).
_PRIVATE_NEW: Final = (
    os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` in one step (a reader sees the old file or the new one), as a file
    only its owner can read or write (mode 0600 from its creation): it holds an invite code, whose
    secret lets anyone in. What a crashed run left at the temporary name is removed first."""
    with contextlib.suppress(FileExistsError):  # a file in the folder's place: said as "Not a directory"
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    fd = os.open(tmp, _PRIVATE_NEW, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_invite_file(path: Path, code: str, write: Callable[[Path, str], None]) -> str | None:
    """Write the invite ``code`` to ``path`` with ``write``; None when done, else why not (the code is
    on the screen all the same, so a file that cannot be written is said, not fatal)."""
    try:
        write(path, code + "\n")
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


class LineReport:
    """Plain-text lobby and game messages; the human seat's table view goes through its TerminalAgent.

    ``source`` names where the joiner got the host's fingerprint ("the invite", "the announcement").
    How the game ended is said after the run (:mod:`fairdeal.cli.endings`), from :attr:`ended`;
    Ctrl-C leaves through :attr:`leave`, the action the network layer offers.
    """

    def __init__(
        self,
        ui: UI,
        human: TerminalAgent | None = None,
        invite_file: Path | None = None,
        source: str = N_("the invite"),
    ) -> None:
        self.ui = ui
        self.say = ui.say
        self.human = human
        self.invite_file = invite_file
        self.source = source
        self.watcher: Any = None  # a watcher's line mode (cli.watch.Spectator)
        self.adjourning = Adjourning()
        self._ticker: threading.Timer | None = None
        self._seat: int | None = None
        #: How the game ended for this end, as the network layer said (said after the run).
        self.ended: ev.GameEnded | None = None
        #: Leaving on purpose, as the network layer offers it (None: nobody to tell yet).
        self.leave: Callable[[], None] | None = None
        self.leaving = False  # this end's person asked to leave

    def __call__(self, event: ev.NetEvent) -> None:
        say = self.say
        words = said(event)
        if words is not None:  # a dropped connection stays one line, for grep
            self.ui.say(words, wrap=not isinstance(event, ev.Rejected | ev.RejectedMany))
        match event:
            case ev.Listening(code, invite, bound):
                say(_("Listening on {addresses}.").format(addresses=", ".join(bound)))
                say(_("Invite code (give it to the other players; they type  fairdeal join CODE):"))
                self.ui.say(code, "bold", wrap=False)  # no indent: a code of 80 characters copies whole
                if self.invite_file is not None:
                    why = write_invite_file(self.invite_file, code, write_atomically)
                    if why:
                        where = _("could not write it to {path}: {reason}").format(
                            path=self.invite_file, reason=why
                        )
                    else:
                        where = _("also written to {path}").format(path=self.invite_file)
                    self.ui.say(f"  ({where})", wrap=False)
                say(leads_to(invite))
            case ev.RelayStatus(relay, False, reason):
                only = _("Only direct connections work until it answers again (retried in the background).")
                say(f"{relay_down(relay, reason)}. {only}")
            case ev.RelayDoorTaken(relay):
                say(
                    _(
                        "A connection that is not yours was paired on a door of relay {relay}: someone else "
                        "who has the code waits there as the host (or the relay dropped it). The door was "
                        "opened again; players coming through the relay may need a few more seconds."
                    ).format(relay=relay)
                )
            case ev.Joined(joiner, lobby):
                took = _("{name} ({fingerprint}) took seat {seat} [{kind}], {where}.")
                say(
                    took.format(
                        name=joiner.name,
                        fingerprint=joiner.fingerprint,
                        seat=joiner.seat,
                        kind=joiner.kind,
                        where=came_from(joiner.address),
                    )
                )
                say(_waiting(lobby))
            case ev.LeftLobby(_unused, _reason, lobby):
                say(_waiting(lobby))
            case ev.HostReached(invite, path, via):
                say(connected(invite, path, via, self.source))
            case ev.Seated(welcome, name):
                say(seated(welcome, name))
            case ev.LobbyChanged(lobby):
                say(_("Lobby:"))
                for line in lobby_lines(lobby):
                    say(line)
                say(_waiting(lobby))
            case ev.Started(header, seat):
                say(_("The game begins:"))
                self._seats(header, seat)
            case ev.Resumed(header, seat, entries):
                if seat is None:
                    say(_("Watching the game (every entry is checked as it comes):"))
                else:
                    say(
                        ngettext(
                            "The game goes on after {n} entry:",
                            "The game goes on after {n} entries:",
                            entries,
                        ).format(n=entries)
                    )
                self._seats(header, seat)
            case ev.Applied(session, events, replayed):
                self._applied(session, events, replayed)
            case ev.Away(seat, name, _, until):
                self.ui.status.absences.seats[seat] = (name, until)
                self._tick()
            case ev.Back(seat):
                self.ui.status.absences.seats.pop(seat, None)
                self.ui.status.refresh()
            case ev.HostLost(reason, seconds, until):
                self.ui.status.absences.host = until
                self.ui.status.absences.reaching = False
                self.ui.status.absences.seats.clear()
                if "host" in reason:
                    again = _("{reason}: trying to reach it again ({clock}).")
                    say(again.format(reason=reason[:1].upper() + reason[1:], clock=clock(seconds)))
                else:
                    again = _("Lost the host ({reason}): trying to reach it again ({clock}).")
                    say(again.format(reason=reason, clock=clock(seconds)))
                self._tick()
            case ev.ReachingHost(_, until):
                self.ui.status.absences.host = until
                self.ui.status.absences.reaching = True
                self._tick()
            case ev.HostBack(path, via):
                if self.ui.status.absences.host is None:
                    return
                first = self.ui.status.absences.reaching
                self.ui.status.absences.host = None
                self.ui.status.absences.reaching = False
                say(reached(first, path, via))
                self.ui.status.refresh()
            case ev.HostLeft():
                self.ui.status.absences.seats.clear()
                self.ui.status.refresh()  # the words came first: the waiting line drops the absences now
            case ev.NotStartedYet(every, seconds):
                say(not_started(every, seconds))
            case ev.TableReady(_, vote, leave):
                self.leave = leave
                self.adjourning.ready(vote, self._seat)
                if self.human is not None:
                    self.human.adjourning = self.adjourning
            case ev.AdjournVote(seat, name, agree, missing):
                text = self.adjourning.heard(seat, name, agree, missing)
                if self.adjourning.asking and self.human is not None:
                    text += " " + _("Type adjourn to agree, or no to play on (at your next move).")
                say(text)
            case ev.Adjourned():
                self.ui.status.absences.seats.clear()
                self.ui.status.absences.host = None
                self.ui.status.refresh()
            case ev.GameEnded():
                self.ended = event  # said after the run, with the result (fairdeal.cli.endings)
                self.leave = None
            case _:
                pass  # said above, or chat; a refusal is the command's error, with what to do

    def _seats(self, header: Header, seat: int | None) -> None:
        self._seat = seat
        for i, (name, s) in enumerate(zip(header.names, header.seats, strict=True)):
            who = f"{name}  {s.fingerprint}  [{s.kind}]"
            if i == seat:
                who += "  " + _("<- you")
            self.say("  " + _("seat {n}: {who}").format(n=i, who=who))

    def _applied(self, session: Session, events: Sequence[Event], replayed: bool = False) -> None:
        if self.human is not None:
            self.human.observe(session, events, quiet=replayed)
        elif self.watcher is not None:
            self.watcher.observe(session, events)
        else:  # a lent bot: show what the game waits for, when it waits long enough to matter
            self.ui.status.wait(None if session.finished else describe_waiting(session))

    def _tick(self) -> None:
        """Keep the countdown of the waiting line going while someone is away."""
        if self._ticker is not None or not self.ui.status.enabled:
            return

        def tick() -> None:
            self._ticker = None
            if not self.ui.status.absences:
                return
            self.ui.status.refresh()
            self._tick()

        self._ticker = threading.Timer(1.0 if self.ui.status.live else 30.0, tick)
        self._ticker.daemon = True
        self._ticker.start()


def leads_to(invite: Any) -> str:
    """Where an invite leads its players, and whom it proves the host to be."""
    ways = [str(e) for e in invite.direct]
    if invite.relay is not None:
        ways.append(_("through relay {relay}").format(relay=invite.relay))
    said = _("It leads them to {ways}, and proves this host is {fingerprint}.")
    return said.format(ways=_(" or ").join(ways), fingerprint=invite.fingerprint)


def connected(invite: Any, path: str, via: str, source: str) -> str:
    """How a joiner reached the host, and that it is who the invite (``source``) says."""
    if path == "direct":
        said = _("Connected directly to {via}: the host is {fingerprint}, as {source} says.")
    else:
        said = _("Connected through relay {via}: the host is {fingerprint}, as {source} says.")
    return said.format(via=via, fingerprint=invite.fingerprint, source=_(source))


def reached(first: bool, path: str, via: str) -> str:
    """A host reached (``first``: by a resumed seat; else again, after it was lost)."""
    if path == "direct":
        said = (
            _("Reached the host directly ({via}): the game goes on.")
            if first
            else _("Reached the host again directly ({via}): the game goes on.")
        )
    else:
        said = (
            _("Reached the host through relay {via}: the game goes on.")
            if first
            else _("Reached the host again through relay {via}: the game goes on.")
        )
    return said.format(via=via)


def seated(welcome: wire.Welcome, name: str) -> str:
    """Where this joiner sits, at which game, with which options."""
    opts = ", ".join(option_text(k, v) for k, v in sorted(welcome.options.items()))
    if opts:
        said = _("You are {name}, in seat {seat} of {players} at {game} ({options}).")
    else:
        said = _("You are {name}, in seat {seat} of {players} at {game}.")
    return said.format(name=name, seat=welcome.seat, players=welcome.players, game=welcome.game, options=opts)


__all__ = [
    "LineReport",
    "connected",
    "leads_to",
    "lobby_lines",
    "reached",
    "seated",
    "write_atomically",
    "write_invite_file",
]
