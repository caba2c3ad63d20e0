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
        who = "(free)" if s is None else f"{next(names)}  {s.fingerprint}  [{s.kind}]"
        lines.append(f"  seat {i}: {who}")
    return lines


def _waiting(lobby: wire.Lobby) -> str:
    n = lobby.missing
    return "Every seat is taken." if n == 0 else f"Waiting for {n} more player{'s' if n > 1 else ''}..."


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
        source: str = "the invite",
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
                say(f"Listening on {', '.join(bound)}.")
                say("Invite code (give it to the other players; they type  fairdeal join CODE):")
                self.ui.say(code, "bold", wrap=False)  # no indent: a code of 80 characters copies whole
                if self.invite_file is not None:
                    why = write_invite_file(self.invite_file, code, write_atomically)
                    where = f"could not write it to {self.invite_file}: {why}" if why else None
                    self.ui.say(f"  ({where or f'also written to {self.invite_file}'})", wrap=False)
                ways = [str(e) for e in invite.direct]
                if invite.relay is not None:
                    ways.append(f"through relay {invite.relay}")
                say(f"It leads them to {' or '.join(ways)}, and proves this host is {invite.fingerprint}.")
            case ev.RelayStatus(relay, False, reason):
                say(
                    f"{relay_down(relay, reason)}. Only direct connections work until it answers again "
                    "(retried in the background)."
                )
            case ev.RelayDoorTaken(relay):
                say(
                    f"A connection that is not yours was paired on a door of relay {relay}: someone else who "
                    "has the code waits there as the host (or the relay dropped it). The door was opened "
                    "again; players coming through the relay may need a few more seconds."
                )
            case ev.Joined(joiner, lobby):
                say(
                    f"{joiner.name} ({joiner.fingerprint}) took seat {joiner.seat} [{joiner.kind}], "
                    f"{came_from(joiner.address)}."
                )
                say(_waiting(lobby))
            case ev.LeftLobby(_, _, lobby):
                say(_waiting(lobby))
            case ev.HostReached(invite, path, via):
                how = f"directly to {via}" if path == "direct" else f"through relay {via}"
                say(f"Connected {how}: the host is {invite.fingerprint}, as {self.source} says.")
            case ev.Seated(welcome, name):
                opts = ", ".join(option_text(k, v) for k, v in sorted(welcome.options.items()))
                say(
                    f"You are {name}, in seat {welcome.seat} of {welcome.players} at {welcome.game}"
                    f"{f' ({opts})' if opts else ''}."
                )
            case ev.LobbyChanged(lobby):
                say("Lobby:")
                for line in lobby_lines(lobby):
                    say(line)
                say(_waiting(lobby))
            case ev.Started(header, seat):
                say("The game begins:")
                self._seats(header, seat)
            case ev.Resumed(header, seat, entries):
                if seat is None:
                    say("Watching the game (every entry is checked as it comes):")
                else:
                    say(f"The game goes on after {entries} entries:")
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
                what = reason[:1].upper() + reason[1:] if "host" in reason else f"Lost the host ({reason})"
                say(f"{what}: trying to reach it again ({clock(seconds)}).")
                self._tick()
            case ev.ReachingHost(_, until):
                self.ui.status.absences.host = until
                self.ui.status.absences.reaching = True
                self._tick()
            case ev.HostBack(path, via):
                if self.ui.status.absences.host is None:
                    return
                again = "" if self.ui.status.absences.reaching else " again"
                self.ui.status.absences.host = None
                self.ui.status.absences.reaching = False
                how = f"directly ({via})" if path == "direct" else f"through relay {via}"
                say(f"Reached the host{again} {how}: the game goes on.")
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
                    text += " Type adjourn to agree, or no to play on (at your next move)."
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
            you = "  <- you" if i == seat else ""
            self.say(f"  seat {i}: {name}  {s.fingerprint}  [{s.kind}]{you}")

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


__all__ = ["LineReport", "lobby_lines", "write_atomically", "write_invite_file"]
