"""What the game waits for, in words and on a line of the terminal.

:func:`describe_waiting` reads :meth:`Session.waiting` (``"waiting for Alice to move"``,
``"dealing — waiting for Bob's decryption shares"``); :class:`Absences` says who the game
waits for to come back, with a countdown (:func:`clock`); :class:`StatusLine` shows the
wait as a spinner on a terminal or as a plain line otherwise, but only once it has lasted
a moment, so instant bots never make it flicker. While it shows, news (other players'
moves) is printed at once, above it; otherwise news is kept for the next table.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Protocol

from rich.console import Console, RenderableType
from rich.status import Status
from rich.text import Text

from fairdeal.core.session.session import Session
from fairdeal.i18n import gettext as _
from fairdeal.i18n import ngettext

from .phrases import and_list


class Screen(Protocol):
    """What the waiting line needs of the terminal (:class:`~fairdeal.cli.console.UI` has it)."""

    console: Console

    def print(self, *items: RenderableType, indent: int = 0, hang: int = 2, wrap: bool = True) -> None: ...

    def text(self, words: str, style: str = "") -> Text: ...


#: Seconds a wait must last before the waiting line appears.
WAIT_DELAY = 0.4


def clock(seconds: float) -> str:
    """``1:54`` for 114 seconds (``1:02:03`` past an hour); never negative."""
    left = max(0, int(seconds + 0.999))
    h, rest = divmod(left, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def away_words(name: str, seconds: float, resuming: bool = False) -> str:
    """What a seat held for ``seconds`` reads as: its link dropped, or (``resuming``) it has not
    come back to the resumed game yet."""
    if resuming:
        return _("Waiting for {name} to resume the game ({clock}).").format(name=name, clock=clock(seconds))
    dropped = _("{name}'s connection dropped: waiting for {name} to come back ({clock}).")
    return dropped.format(name=name, clock=clock(seconds))


def not_started(every: float, seconds: float) -> str:
    """What a watcher who came before the start is told while it waits for the players to begin."""
    return _(
        "The game has not started yet: waiting for the players to begin (asking the host every "
        "{every} s, for {clock} at most; Ctrl-C to stop)."
    ).format(every=f"{every:g}", clock=clock(seconds))


class Absences:
    """Who the game waits for to come back, with a deadline each: the words of the waiting line.

    Seats whose link dropped (the host holds them) and, for a guest, the host itself: lost, or
    (``reaching``, a resumed seat) not reached yet. The deadlines are on ``time.monotonic``.
    Thread-safe enough: plain dict updates, read whole.
    """

    def __init__(self) -> None:
        self.seats: dict[int, tuple[str, float]] = {}
        self.host: float | None = None
        self.reaching = False

    def __bool__(self) -> bool:
        return bool(self.seats) or self.host is not None

    def text(self, now: float | None = None) -> str | None:
        now = time.monotonic() if now is None else now
        if self.host is not None and self.reaching:
            return _("reaching the host: it may not be running yet ({clock})").format(
                clock=clock(self.host - now)
            )
        if self.host is not None:
            return _("lost the host: trying to reach it again ({clock})").format(clock=clock(self.host - now))
        if not self.seats:
            return None
        name, deadline = min(self.seats.values(), key=lambda x: x[1])
        left = clock(deadline - now)
        if len(self.seats) == 1:
            return _("waiting for {name} to come back ({clock})").format(name=name, clock=left)
        more = len(self.seats) - 1
        text = ngettext(
            "waiting for {name} to come back ({clock}) (and {n} more)",
            "waiting for {name} to come back ({clock}) (and {n} more)",
            more,
        )
        return text.format(name=name, clock=left, n=more)


class StatusLine:
    """What the game waits for, shown once a wait lasts ``delay`` seconds.

    ``spinner``: a rich spinner, updated live; ``lines``: a plain line per wait that
    lasts (for NO_COLOR / --ascii terminals); neither: nothing is shown and all news is
    kept for :meth:`unseen`. Thread-safe: a timer thread shows the line.
    """

    def __init__(self, ui: Screen, *, spinner: bool, lines: bool, delay: float = WAIT_DELAY) -> None:
        self._ui = ui
        self._spinner = spinner
        self._lines = lines
        self._delay = delay
        self._lock = threading.RLock()
        self._text: str | None = None
        self._timer: threading.Timer | None = None
        self._status: Status | None = None
        self._shown = False
        self._printed: str | None = None
        self._news: list[RenderableType] = []
        self._closed = False
        self._base: str | None = None
        #: Who the game waits for to come back: shown instead of the waiting text while any.
        self.absences = Absences()

    @property
    def enabled(self) -> bool:
        return self._spinner or self._lines

    @property
    def live(self) -> bool:
        """A spinner redrawn in place (a countdown may tick every second)."""
        return self._spinner

    @property
    def shown(self) -> bool:
        """Whether the waiting line is on screen (news is then printed at once)."""
        return self._shown

    def wait(self, text: str | None) -> None:
        """Now waiting for ``text`` (None: for nothing — the local player acts, or the game ended).

        While someone is away (:attr:`absences`), that is what the line says, with its countdown."""
        with self._lock:
            self._base = text
            away = self.absences.text() if self.absences else None
            if away is not None and (text is not None or self.absences.host is not None):
                text = away
            if self._closed or not self.enabled:
                self._text = text
                return
            if text is None:
                self._hide()
                self._text = None
                return
            changed = text != self._text
            self._text = text
            if self._status is not None:
                if changed:
                    self._status.update(self._status_text(text))
                return
            if self._lines and changed:
                # A plain line per wait that lasts: the clock starts again for a new wait.
                self._cancel_timer()
            if self._timer is None and not (self._lines and self._printed == text):
                self._timer = threading.Timer(self._delay, self._show)
                self._timer.daemon = True
                self._timer.start()

    def refresh(self) -> None:
        """Say the last wait again (a countdown moved on)."""
        with self._lock:
            self.wait(self._base)

    def news(self, item: RenderableType) -> None:
        """Something happened: print it now if the waiting line shows, else keep it."""
        with self._lock:
            if self._shown and not self._closed:
                self._ui.print(item, indent=2)
            else:
                self._news.append(item)

    @property
    def pending(self) -> int:
        """How much news waits for :meth:`unseen`."""
        with self._lock:
            return len(self._news)

    def unseen(self) -> list[RenderableType]:
        """Take the news not printed yet."""
        with self._lock:
            items, self._news = self._news, []
            return items

    def close(self) -> None:
        with self._lock:
            self._hide()
            self._closed = True

    # -- inside ------------------------------------------------------------------------------------
    def _status_text(self, text: str) -> Text:
        return self._ui.text(text, "italic")

    def _show(self) -> None:
        with self._lock:
            self._timer = None
            if self._closed or self._text is None:
                return
            self._shown = True
            for item in self._news:
                self._ui.print(item, indent=2)
            self._news = []
            if self._spinner:
                self._status = self._ui.console.status(self._status_text(self._text), spinner="dots")
                self._status.start()
            else:
                self._ui.print(self._ui.text(f"… {self._text}"))
                self._printed = self._text

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _hide(self) -> None:
        self._cancel_timer()
        if self._status is not None:
            self._status.stop()
            self._status = None
        self._shown = False
        self._printed = None


def _possessive(session: Session, seat: int) -> str:
    if seat == session.seat:
        return _("your")
    return _("{name}'s").format(name=session.name(seat))


def _possessives(session: Session, seats: Sequence[int]) -> str:
    """Whose part the game waits for, as the sentences of :func:`describe_waiting` put it: ``Bob's``,
    ``Bob's and Carol's``, ``your and Bob's``, ``4 seats'``."""
    if len(seats) > 3:
        return ngettext("{n} seat's", "{n} seats'", len(seats)).format(n=len(seats))
    return and_list([_possessive(session, s) for s in seats])


def describe_waiting(session: Session) -> str | None:
    """What ``session`` waits for, in words, or None when the game is over.

    ``"shuffling — 2 of 3 seats done"``, ``"waiting for Alice to move"``,
    ``"dealing — waiting for Bob's decryption shares"``, ``"your move"``.
    """
    w = session.waiting()
    if w is None:
        return None
    if session.phase == "header":
        return _("waiting for the host to start the game")
    if w.decision:
        if w.seat == session.seat:
            return _("your move")
        return _("waiting for {name} to move").format(name=session.name(w.seat))
    owed: Sequence[tuple[int, str]] = session.deck.waiting_on()
    active = session.header.players - len(session.departed)
    what = w.what
    if session.phase == "keys":
        left = sum(1 for _, x in owed if x == "public key")
        done = active - left
        return ngettext("exchanging keys — {done} of {n} seat done",
                        "exchanging keys — {done} of {n} seats done",
                        active).format(done=done, n=active)  # fmt: skip
    if what.startswith("shuffle pass"):
        left = sum(1 for _, x in owed if x.startswith("shuffle pass"))
        done = active - left
        if session.phase == "shuffle":
            text = ngettext(
                "shuffling — {done} of {n} seat done", "shuffling — {done} of {n} seats done", active
            )
        else:
            text = ngettext(
                "reshuffling — {done} of {n} seat done", "reshuffling — {done} of {n} seats done", active
            )
        return text.format(done=done, n=active)
    seats = [x.seat for x in session.owing()]  # several seats may owe at once
    whose = _possessives(session, seats)
    if what.startswith("shares"):
        return _("dealing — waiting for {whose} decryption shares").format(whose=whose)
    if "random choice" in what:
        if what.startswith("commitment"):
            return _("drawing lots — waiting for {whose} commitment").format(whose=whose)
        return _("drawing lots — waiting for {whose} reveal").format(whose=whose)
    if what.startswith("final reveal"):
        return _("showing the cards seen alone — waiting for {whose} shares").format(whose=whose)
    if session.phase == "end":
        return _("ending — waiting for {whose} signature of the result").format(whose=whose)
    if "leaves" in what:
        return _("{name} is leaving the game").format(name=session.name(w.seat))
    if w.seat == session.seat:
        return _("waiting for you: {what}").format(what=what)
    return _("waiting for {name}: {what}").format(name=session.name(w.seat), what=what)


__all__ = [
    "WAIT_DELAY",
    "Absences",
    "Screen",
    "StatusLine",
    "away_words",
    "clock",
    "describe_waiting",
    "not_started",
]
