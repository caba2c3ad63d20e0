"""The table's widgets: the table itself, the side panel, the bar of actions.

Each is given what it draws and whom to tell, as functions, when it is made; none knows the
app it sits in. Their styles are in ``table.tcss``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text
from textual import events
from textual.widget import Widget

from ..render import to_ascii
from .layout import Drawn

#: The parts of the actions bar a click can hit: (row, first column, last column + 1, key).
Parts = list[tuple[int, int, int, str]]


@dataclass
class Note:
    """A line of the side panel: something that happened, a chat message, or a message of the app."""

    text: Text
    serial: int = -1
    recent: bool = True


def ascii_text(text: Text, ascii: bool) -> Text:
    """``text`` in ASCII with ``ascii`` (its styles kept), else as it is."""
    if not ascii or text.plain.isascii():
        return text
    out = Text()
    for seg in text.render(_CONSOLE):
        out.append(to_ascii(seg.text.replace("←→", "<->")), style=str(seg.style or ""))
    return out


_CONSOLE = Console(width=10_000, color_system=None)


class TableArea(Widget):
    """The table, drawn by ``draw(width, height)``; keys go to ``on_key``, a click on a card or a pile
    to ``on_pick(token, zone)``."""

    can_focus = True

    def __init__(
        self,
        draw: Callable[[int, int], Drawn],
        on_key: Callable[[events.Key], None],
        on_pick: Callable[[int | None, str | None], None],
    ) -> None:
        super().__init__()
        self._draw, self._key_to, self._on_pick = draw, on_key, on_pick
        self.drawn = Drawn([], [])

    def on_key(self, event: events.Key) -> None:
        self._key_to(event)

    def render(self) -> Text:
        self.drawn = self._draw(self.content_size.width, self.content_size.height)
        return Text("\n").join(self.drawn.lines)

    def on_click(self, event: events.Click) -> None:
        hit = self.drawn.at(event.x - 1, event.y)  # one column of padding
        if hit is not None:
            self._on_pick(hit.token, hit.zone)


class SidePanel(Widget):
    """What happened and the chat (``notes()``), newest at the bottom."""

    def __init__(self, notes: Callable[[], Sequence[Note]], ascii: bool) -> None:
        super().__init__()
        self._notes, self._ascii = notes, ascii

    def render(self) -> Text:
        width, height = max(1, self.content_size.width), self.content_size.height
        rows: list[Text] = []
        for note in self._notes()[-200:]:
            text = note.text.copy()
            if not note.recent:
                text.stylize("dim")
            rows.extend(text.wrap(self.app.console, width, overflow="fold"))
        title = Text("What happened", style="bold underline")
        rows = [ascii_text(r, self._ascii) for r in rows]
        keep = rows[-max(0, height - 1) :] if height > 1 else []
        return Text("\n").join([title, *keep])


class Bar(Widget):
    """A line (or two) of text with parts a click presses: the actions, from ``lines(width)``."""

    def __init__(
        self,
        lines: Callable[[int], tuple[list[Text], Parts]],
        press: Callable[[str], object],
        ascii: bool,
        *,
        id: str,
    ) -> None:
        super().__init__(id=id)
        self._lines, self._press, self._ascii = lines, press, ascii
        self.parts: Parts = []

    def render(self) -> Text:
        lines, self.parts = self._lines(self.content_size.width)
        return Text("\n").join(ascii_text(line, self._ascii) for line in lines[: self.content_size.height])

    def on_click(self, event: events.Click) -> None:
        for y, x0, x1, key in self.parts:
            if y == event.y and x0 <= event.x - 1 < x1:
                self._press(key)
                return


__all__ = ["Bar", "Note", "Parts", "SidePanel", "TableArea", "ascii_text"]
