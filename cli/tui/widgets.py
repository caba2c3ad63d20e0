"""The table's widgets: the table itself, the side panel, the bar of actions, the one-line bars.

The table and the actions bar are given what they draw, as functions, when they are made, and
post what a click hits as messages (:class:`TableArea.Picked`, :class:`Bar.Pressed`) for the app
to handle; the table hands its keys to a function, at once, so that the app may stop a key before
its bindings see it. The side panel keeps its notes and a one-line bar its text, which the app
gives them. None knows the app it sits in. Their styles are in ``table.tcss``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from fairdeal.i18n import gettext as _

from ..chronicle import Chronicle
from ..render import styled, to_ascii
from . import rtlview
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


def same_text(a: Text, b: Text) -> bool:
    """Whether two Texts show the same: the same characters in the same styles."""
    return a.plain == b.plain and a.spans == b.spans and a.style == b.style


class Drawing(Widget):
    """A widget that draws itself as one Text (:meth:`content`) and is redrawn only when that changes.

    The game's trio side runs on the app's loop: a redraw for every entry (every shuffle
    pass, share and key of the first deal) took as long as the entries themselves.
    """

    _shown: Text | None = None
    _next: tuple[object, Text] | None = None  # content computed by refresh_if_changed, and at what size

    def content(self) -> Text:
        raise NotImplementedError

    def render(self) -> Text:
        ahead, self._next = self._next, None
        self._shown = ahead[1] if ahead is not None and ahead[0] == self.content_size else self.content()
        return self._shown

    def refresh_if_changed(self) -> None:
        """Ask for a redraw if what the widget would show now is not what it shows."""
        new = self.content()
        if self._shown is not None and same_text(new, self._shown):
            self._next = None  # a redraw still pending (of a change since undone) draws afresh
            return
        self._next = (self.content_size, new)
        self.refresh()


class TableArea(Drawing):
    """The table, drawn by ``draw(width, height)``; keys go to ``on_key``; a click on a card or a pile
    posts :class:`Picked`."""

    can_focus = True

    class Picked(Message):
        """A click on card ``token``, on the pile of ``zone``, or both."""

        def __init__(self, token: int | None, zone: str | None) -> None:
            super().__init__()
            self.token, self.zone = token, zone

    def __init__(self, draw: Callable[[int, int], Drawn], on_key: Callable[[events.Key], None]) -> None:
        super().__init__()
        self._draw, self._key_to = draw, on_key
        self.drawn = Drawn([], [])

    def on_key(self, event: events.Key) -> None:
        self._key_to(event)

    def content(self) -> Text:
        width = self.content_size.width
        drawn = self._draw(width, self.content_size.height)
        self.drawn = rtlview.mirrored_drawing(drawn, width) if rtlview.active() else drawn
        return Text("\n").join(self.drawn.lines)

    def on_click(self, event: events.Click) -> None:
        hit = self.drawn.at(event.x - 1, event.y)  # one column of padding
        if hit is not None:
            self.post_message(self.Picked(hit.token, hit.zone))


class SidePanel(Drawing):
    """What happened and the chat, newest at the bottom: the panel keeps its notes (:attr:`notes`),
    the story told by the seat's chronicle (:meth:`tell`) and the lines said beside it (:meth:`say`,
    :meth:`chat`). It draws them when told to (:meth:`~Drawing.refresh_if_changed`)."""

    #: Notes kept (the panel draws the last 200).
    KEEP = 400

    def __init__(self, ascii: bool) -> None:
        super().__init__()
        self._ascii = ascii
        self.notes: list[Note] = []

    def say(self, words: str, style: str = "italic") -> None:
        """A message of the app or the network."""
        self.notes.append(Note(styled(words, self._ascii, style)))

    def chat(self, who: str, checked: str, text: str) -> None:
        """A chat message: the sender's name and checked identity, the words as plain text."""
        line = Text()
        line.append(f"{who}", style="bold cyan")
        if checked:
            line.append(f" ({checked})", style="dim")
        line.append(": ")
        line.append(text)  # never markup: a Text holds what it is given
        self.notes.append(Note(line))

    def tell(self, chronicle: Chronicle) -> None:
        """Take in the story so far: its new entries, the new words of those told before (a card
        named since), and which are recent (since the seat's last move; the older are dim)."""
        since = chronicle.since_mine
        for note in self.notes:
            if note.serial >= 0:
                note.recent = note.serial >= since
        known = {n.serial: n for n in self.notes if n.serial >= 0}
        for entry in chronicle.entries:
            style = "" if entry.mine or entry.seat is None else "bold"
            text = styled(entry.words(), self._ascii, style)
            if entry.serial in known:
                known[entry.serial].text = text
            else:
                self.notes.append(Note(text, entry.serial, entry.serial >= since))
        if len(self.notes) > self.KEEP:
            del self.notes[: -self.KEEP]

    def content(self) -> Text:
        width, height = max(1, self.content_size.width), self.content_size.height
        rows: list[Text] = []
        for note in self.notes[-200:]:
            text = note.text.copy()
            if not note.recent:
                text.stylize("dim")
            rows.extend(text.wrap(self.app.console, width, overflow="fold"))
        title = Text(_("What happened"), style="bold underline")
        rows = [ascii_text(r, self._ascii) for r in rows]
        keep = rows[-max(0, height - 1) :] if height > 1 else []
        if rtlview.active():  # right to left: each row set against the right edge, in visual order
            title, *keep = [rtlview.mirrored(r, width)[0] for r in (title, *keep)]
        return Text("\n").join([title, *keep])


class Line(Static):
    """A bar of one line (the title, the status, the keys): it shows the text it is given
    (:meth:`show`), in ASCII with ``ascii``, and is redrawn only when that changes."""

    def __init__(self, ascii: bool, *, id: str) -> None:
        super().__init__(id=id)
        self._ascii = ascii
        self.shown: Text | None = None

    def show(self, text: Text) -> None:
        """Show ``text`` unless the bar does already (no layout: its height is 1)."""
        text = ascii_text(text, self._ascii)
        if rtlview.active():
            text = rtlview.right_to_left(text)
            self.styles.text_align = "right"
        if self.shown is None or not same_text(self.shown, text):
            self.shown = text
            self.update(text, layout=False)


class Bar(Drawing):
    """A line (or two) of text with parts a click presses: the actions, from ``lines(width)``; a
    click on one posts :class:`Pressed`."""

    class Pressed(Message):
        """A click on the part of the bar that stands for ``key``."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, lines: Callable[[int], tuple[list[Text], Parts]], ascii: bool, *, id: str) -> None:
        super().__init__(id=id)
        self._lines, self._ascii = lines, ascii
        self.parts: Parts = []

    def content(self) -> Text:
        width = self.content_size.width
        lines, self.parts = self._lines(width)
        lines = [ascii_text(line, self._ascii) for line in lines[: self.content_size.height]]
        if rtlview.active():
            lines, self.parts = rtlview.mirrored_parts(lines, self.parts, width)
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        for y, x0, x1, key in self.parts:
            if y == event.y and x0 <= event.x - 1 < x1:
                self.post_message(self.Pressed(key))
                return


__all__ = ["Bar", "Line", "Note", "Parts", "SidePanel", "TableArea", "ascii_text", "same_text"]
