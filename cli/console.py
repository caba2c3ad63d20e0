"""The terminal's side of a game: a console that knows colour from plain, a waiting line.

:class:`UI` wraps a rich ``Console``: colour and suit symbols on a terminal; plain text
with no escape codes when ``NO_COLOR`` is set, with ``--ascii`` (suits as C D H S too),
or when the output is not a terminal. Lines are at most 80 columns wide.

:class:`StatusLine` says what the game is waiting for — from
:func:`describe_waiting`, which reads :meth:`Session.waiting` — as a spinner on a
terminal or as a plain line otherwise, but only once a wait has lasted a moment, so
instant bots never make it flicker. While it shows, news (other players' moves) is
printed at once, above it; otherwise news is kept for the next table.

Any command that plays a session (local or over the network) can use both.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO, Any, cast

from rich.console import Console, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.status import Status
from rich.text import Text

from fairdeal.core.rules import Line
from fairdeal.core.session.session import Session

from .render import Namer, line_rich, styled


def read_line() -> str:
    """One line of standard input, without its line ending; EOFError at its end.

    On a terminal (or a stand-in for stdin) this is ``input()``. From a pipe or a file the
    bytes are read from the file descriptor itself, one at a time, so that no more than the
    line is taken and a thread blocked here holds no lock of Python's buffered stdin: line
    mode reads in a thread, and a game can end while it waits, and the interpreter must
    then shut down (``input()`` there ends in "Fatal Python error: _enter_buffered_busy").
    """
    stdin = sys.stdin
    try:
        fd = stdin.fileno() if stdin is sys.__stdin__ and stdin is not None else -1
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        fd = -1
    if fd < 0 or os.isatty(fd):
        return input()
    line = bytearray()
    while True:
        byte = os.read(fd, 1)
        if not byte:
            if not line:
                raise EOFError
            break
        if byte == b"\n":
            break
        line += byte
    return line.decode(stdin.encoding or "utf-8", errors="replace").removesuffix("\r")


MAX_WIDTH = 80
#: Seconds a wait must last before the waiting line appears.
WAIT_DELAY = 0.4


def wants_plain(ascii: bool = False, file: IO[str] | None = None) -> bool:
    """Plain output: ``--ascii``, ``NO_COLOR`` set (and not empty), or output not a terminal."""
    if ascii or os.environ.get("NO_COLOR", ""):
        return True
    stream = file if file is not None else sys.stdout
    try:
        return not stream.isatty()
    except (AttributeError, ValueError):
        return True


def wants_table(plain: bool = False, as_json: bool = False) -> bool:
    """The full-screen table: on an interactive terminal, unless ``--plain``, ``--json`` or ``TERM=dumb``."""
    if plain or as_json or os.environ.get("TERM", "") in ("", "dumb"):
        return False
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def terminal_width(file: IO[str] | None = None) -> int:
    """The width to lay out for: the terminal's, at most 80 (80 when not a terminal)."""
    stream = file if file is not None else sys.stdout
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        return MAX_WIDTH
    return max(20, min(MAX_WIDTH, shutil.get_terminal_size((MAX_WIDTH, 24)).columns))


class UI:
    """What a command prints during a game. ``file=None`` writes to the current stdout.

    ``plain``: None decides by :func:`wants_plain`; False forces colour; True forces
    plain text. ``status``: whether a waiting line may show (never when plain output
    does not go to a terminal).
    """

    def __init__(
        self,
        *,
        ascii: bool = False,
        plain: bool | None = None,
        file: IO[str] | LineSink | None = None,
        width: int | None = None,
        status: bool = True,
        delay: float = WAIT_DELAY,
    ) -> None:
        self.ascii = ascii
        stream = cast("IO[str] | None", file)
        self.plain = wants_plain(ascii, stream) if plain is None else plain
        self.width = width or terminal_width(stream)
        self.console = Console(
            file=stream,
            width=self.width,
            color_system=None if self.plain else "auto",
            no_color=self.plain,
            # plain=False asked for explicitly: colour even into a file (tests, `less -R`).
            force_terminal=False if self.plain else (True if plain is False else None),
            markup=False,
            highlight=False,
            emoji=False,
            soft_wrap=False,
        )
        live = status and not self.plain and self.console.is_terminal
        plain_lines = status and self.plain and _isatty(stream)
        self.status = StatusLine(self, spinner=live, lines=plain_lines, delay=delay)

    # -- output ------------------------------------------------------------------------------------
    def print(self, *items: RenderableType, indent: int = 0, hang: int = 2, wrap: bool = True) -> None:
        """Print renderables (strings are plain, never markup), indented by ``indent`` columns.

        Text too long for the width wraps at spaces, its further lines indented ``hang``
        columns more; ``wrap=False`` leaves long lines whole (paths and commands to copy).
        """
        for item in items:
            thing = Text(item) if isinstance(item, str) else item
            if not isinstance(thing, Text):
                self.console.print(Padding(thing, (0, 0, 0, indent), expand=False) if indent else thing)
            elif not wrap:
                self.console.print(Text(" " * indent) + thing, soft_wrap=True)
            else:
                for piece in thing.split("\n", allow_blank=True) if "\n" in thing.plain else [thing]:
                    for row in self._wrap(piece, indent, hang):
                        self.console.print(row, soft_wrap=True)

    def _wrap(self, text: Text, indent: int, hang: int) -> list[Text]:
        """``text`` cut into lines that fit the width after their indent, no trailing spaces."""
        out: list[Text] = []
        room = max(10, self.width - indent)
        pad = indent
        rest = text.copy()
        rest.rstrip()
        while True:
            rows = rest.wrap(self.console, room, overflow="fold")
            head = rows[0] if rows else Text()
            taken = len(head.plain)
            head.rstrip()
            out.append(Text(" " * pad) + head)
            if len(rows) <= 1:
                return out
            rest = rest[taken:]
            rest = rest[len(rest.plain) - len(rest.plain.lstrip()) :]
            pad = indent + hang
            room = max(10, self.width - pad)

    def text(self, words: str, style: str = "") -> Text:
        """Words with their cards coloured (suit letters in ASCII)."""
        return styled(words, self.ascii, "" if self.plain else style)

    def say(self, words: str, style: str = "", indent: int = 0, hang: int = 2, wrap: bool = True) -> None:
        """Print words, cards coloured."""
        self.print(self.text(words, style), indent=indent, hang=hang, wrap=wrap)

    def line(self, line: Line, indent: int = 2, names: Namer | None = None) -> None:
        """Print one rendered line of a game's table (``names`` writes its seats)."""
        self.print(line_rich(line, self.ascii, names), indent=indent)

    def rule(self, title: str = "", style: str = "") -> None:
        """A horizontal line across the layout width, with an optional title."""
        chars = "-" if self.ascii else "─"
        self.console.print(Rule(self.text(title, "bold") if title else "", characters=chars, style=style))

    def blank(self) -> None:
        self.console.print()

    # -- input -------------------------------------------------------------------------------------
    def ask(self, prompt: str) -> str:
        """Read one line after ``prompt`` (blocking). Raises EOFError at the end of input."""
        self.console.print(self.text(prompt, "bold"), end="")
        self.console.file.flush()
        return read_line()

    def close(self) -> None:
        """Stop the waiting line for good, leaving no piece of it on a terminal's line."""
        self.status.close()
        if self.status.enabled and not self.plain and self.console.is_terminal:
            self.console.file.write("\r\x1b[2K")  # Ctrl-C's echo and a spinner frame, wiped
            self.console.file.flush()


class LineSink:
    """A write-only text file that hands each finished line to ``echo`` (never a terminal)."""

    def __init__(self, echo: Callable[[str], None]) -> None:
        self._echo = echo
        self._buffer = ""

    def write(self, text: str) -> int:
        self._buffer += text
        *done, self._buffer = self._buffer.split("\n")
        for line in done:
            self._echo(line)
        return len(text)

    def flush(self) -> None:
        if self._buffer:
            self._echo(self._buffer)
            self._buffer = ""

    def isatty(self) -> bool:
        return False


def _isatty(file: IO[str] | None) -> bool:
    stream = file if file is not None else sys.stdout
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def clock(seconds: float) -> str:
    """``1:54`` for 114 seconds (``1:02:03`` past an hour); never negative."""
    left = max(0, int(seconds + 0.999))
    h, rest = divmod(left, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


class Absences:
    """Who the game waits for to come back, with a deadline each: the words of the waiting line.

    Seats whose link dropped (the host holds them) and, for a guest, the host itself. The
    deadlines are on ``time.monotonic``. Thread-safe enough: plain dict updates, read whole.
    """

    def __init__(self) -> None:
        self.seats: dict[int, tuple[str, float]] = {}
        self.host: float | None = None

    def __bool__(self) -> bool:
        return bool(self.seats) or self.host is not None

    def text(self, now: float | None = None) -> str | None:
        now = time.monotonic() if now is None else now
        if self.host is not None:
            return f"lost the host: trying to reach it again ({clock(self.host - now)})"
        if not self.seats:
            return None
        name, deadline = min(self.seats.values(), key=lambda x: x[1])
        more = f" (and {len(self.seats) - 1} more)" if len(self.seats) > 1 else ""
        return f"waiting for {name} to come back ({clock(deadline - now)}){more}"


class StatusLine:
    """What the game waits for, shown once a wait lasts ``delay`` seconds.

    ``spinner``: a rich spinner, updated live; ``lines``: a plain line per wait that
    lasts (for NO_COLOR / --ascii terminals); neither: nothing is shown and all news is
    kept for :meth:`unseen`. Thread-safe: a timer thread shows the line.
    """

    def __init__(self, ui: UI, *, spinner: bool, lines: bool, delay: float = WAIT_DELAY) -> None:
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
    return "your" if seat == session.seat else f"{session.name(seat)}'s"


def _possessives(session: Session, seats: Sequence[int]) -> str:
    """``Bob's``, ``Bob's and Carol's``, ``your and Bob's``, ``4 seats'``."""
    if len(seats) > 3:
        return f"{len(seats)} seats'"
    names = [_possessive(session, s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def describe_waiting(session: Session) -> str | None:
    """What ``session`` waits for, in words, or None when the game is over.

    ``"shuffling — 2 of 3 seats done"``, ``"waiting for Alice to move"``,
    ``"dealing — waiting for Bob's decryption shares"``, ``"your move"``.
    """
    w = session.waiting()
    if w is None:
        return None
    if session.phase == "header":
        return "waiting for the host to start the game"
    if w.decision:
        return "your move" if w.seat == session.seat else f"waiting for {session.name(w.seat)} to move"
    owed: Sequence[tuple[int, str]] = session.deck.waiting_on()
    active = session.header.players - len(session.departed)
    what = w.what
    if session.phase == "keys":
        left = sum(1 for _, x in owed if x == "public key")
        return f"exchanging keys — {active - left} of {active} seats done"
    if what.startswith("shuffle pass"):
        left = sum(1 for _, x in owed if x.startswith("shuffle pass"))
        verb = "shuffling" if session.phase == "shuffle" else "reshuffling"
        return f"{verb} — {active - left} of {active} seats done"
    seats = [x.seat for x in session.owing()]  # several seats may owe at once
    if what.startswith("shares"):
        return f"dealing — waiting for {_possessives(session, seats)} decryption shares"
    if "random choice" in what:
        part = "commitment" if what.startswith("commitment") else "reveal"
        return f"drawing lots — waiting for {_possessives(session, seats)} {part}"
    if what.startswith("final reveal"):
        return f"showing the cards seen alone — waiting for {_possessives(session, seats)} shares"
    if session.phase == "end":
        return f"ending — waiting for {_possessives(session, seats)} signature of the result"
    if "leaves" in what:
        return f"{session.name(w.seat)} is leaving the game"
    who = "you" if w.seat == session.seat else session.name(w.seat)
    return f"waiting for {who}: {what}"


def is_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl-C, possibly wrapped in trio's exception groups."""
    if isinstance(exc, KeyboardInterrupt):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return all(is_interrupt(e) for e in exc.exceptions)
    return False


def run_interruptible(run: Callable[[], Any], on_interrupt: Callable[[], None]) -> Any:
    """``run()``; on Ctrl-C call ``on_interrupt`` (which should exit) instead of a traceback."""
    try:
        return run()
    except BaseException as exc:
        if is_interrupt(exc):
            on_interrupt()
        raise


__all__ = [
    "MAX_WIDTH",
    "UI",
    "Absences",
    "LineSink",
    "StatusLine",
    "clock",
    "describe_waiting",
    "is_interrupt",
    "run_interruptible",
    "terminal_width",
    "wants_plain",
    "wants_table",
]
