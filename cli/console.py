"""The terminal's side of a game: a console that knows colour from plain.

:class:`UI` wraps a rich ``Console``: colour and suit symbols on a terminal; plain text
with no escape codes when ``NO_COLOR`` is set, with ``--ascii`` (suits as C D H S too),
or when the output is not a terminal. Lines are at most 80 columns wide. Its ``status`` is
the waiting line (:class:`~fairdeal.cli.waiting.StatusLine`).

Any command that plays a session (local or over the network) can use it.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from typing import IO, Any, cast

from rich.console import Console, RenderableType
from rich.padding import Padding
from rich.rule import Rule
from rich.text import Text

from fairdeal.core.rules import Line

from .render import Namer, line_rich, styled
from .waiting import WAIT_DELAY, StatusLine


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


def no_color() -> bool:
    """Whether ``NO_COLOR`` asks for no colour: set and not empty (no-color.org)."""
    return bool(os.environ.get("NO_COLOR", ""))


def wants_plain(ascii: bool = False, file: IO[str] | None = None) -> bool:
    """Plain output: ``--ascii``, ``NO_COLOR`` set (and not empty), or output not a terminal."""
    if ascii or no_color():
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
    "LineSink",
    "is_interrupt",
    "no_color",
    "run_interruptible",
    "terminal_width",
    "wants_plain",
    "wants_table",
]
