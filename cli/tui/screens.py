"""The app's other screens: help and the rules, a yes/no question, the end of the game (styled in
``table.tcss``)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer, VerticalScroll
from textual.screen import ModalScreen
from textual.scrollbar import ScrollBarRender
from textual.widget import Widget
from textual.widgets import Static

from fairdeal.i18n import N_
from fairdeal.i18n import gettext as _

from .. import rtl
from ..phrases import no_key, yes_key
from ..render import reflow, to_ascii
from . import rtlview


def _ascii(screen: ModalScreen[Any]) -> bool:
    """Whether the app draws in ASCII only (``--ascii``)."""
    return bool(getattr(screen.app, "ascii", False))


def _words(screen: ModalScreen[Any], text: str) -> str:
    return to_ascii(text) if _ascii(screen) else text


def _framed(screen: ModalScreen[Any], text: str) -> str:
    """A box's title or subtitle (on its frame, one line): right to left (:mod:`.rtlview`), in
    visual order, as the box's lines."""
    text = _words(screen, text)
    return rtl.visual(text, rtl.FAIRDEAL) if rtlview.active() else text


def _lines(lines: list[str], styles: list[str] | None = None) -> Text:
    """Lines of a box as one Text (each in its style); right to left (:mod:`.rtlview`), each in
    visual order and the whole set against the right edge."""
    texts = [Text(line, style=(styles[i] if styles else "")) for i, line in enumerate(lines)]
    if rtlview.active():
        width = max((t.cell_len for t in texts), default=0)
        texts = [rtlview.mirrored(t, width)[0] for t in texts]
    out = Text("\n").join(texts)
    if rtlview.active():
        out.justify = "right"
    return out


def _wrapped(text: str, width: int) -> list[str]:
    """``text`` cut into lines of ``width`` cells at spaces (a box that mirrors its lines wraps them
    itself first: wrapped after, they would read in the wrong order)."""
    import textwrap

    return textwrap.wrap(text, max(10, width)) or [""]


class _AsciiScrollBar(ScrollBarRender):
    """A scrollbar of whole reversed cells, without Textual's Unicode eighths of a block (``--ascii``)."""

    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


def _boxed(screen: ModalScreen[Any], box: Widget) -> None:
    """With ``--ascii``, the box's border in ASCII too (the stylesheet's are round, in Unicode), and
    its scrollbar."""
    if _ascii(screen):
        box.styles.border = ("ascii", box.styles.border_top[1])
        if isinstance(box, ScrollableContainer):
            # Per scrollbar, as Textual's ScrollBar.renderer documents (its ClassVar is the default).
            box.vertical_scrollbar.renderer = _AsciiScrollBar  # type: ignore[misc]
            box.horizontal_scrollbar.renderer = _AsciiScrollBar  # type: ignore[misc]


class TextScreen(ModalScreen[None]):
    """Help or the rules: text that flows to the width, scrolled with the arrows; any of Esc, q closes.

    ``flowing``: text that is flowed again to the width when the terminal changes size (the rules).
    """

    BINDINGS: ClassVar = [Binding("escape,q,enter", "dismiss", "Close")]

    def __init__(self, title: str, lines: list[str], flowing: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        self.flowing = flowing

    def compose(self) -> ComposeResult:
        with VerticalScroll() as box:
            box.border_title = _framed(self, self.title_text)
            box.border_subtitle = _framed(self, _("Esc closes · ↑↓ PgUp PgDn scroll"))
            yield Static(_lines([_words(self, line) for line in self.lines]))

    def on_mount(self) -> None:
        box = self.query_one(VerticalScroll)
        _boxed(self, box)
        box.focus()

    def on_resize(self, event: events.Resize) -> None:
        if self.flowing:
            width = max(20, event.size.width - 6)
            self.query_one(Static).update(_lines(reflow(self.flowing, width)))

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or n, or the language's own keys (German j, Russian д and н)."""

    BINDINGS: ClassVar = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        if not rtlview.active():
            yield Static(Text(_words(self, f"{self.question}\n\n" + _("[y] yes   [n] no"))))
            return
        lines = [*_wrapped(self.question, 64), "", _("[y] yes   [n] no")]  # within max-width 70
        yield Static(_lines(lines))

    def on_key(self, event: events.Key) -> None:
        """The language's key for yes or no (``y`` and ``n`` are bound)."""
        typed = (event.character or "").lower()
        if typed and typed not in "yn" and typed in (yes_key(), no_key()):
            event.stop()
            self.dismiss(typed == yes_key())

    def on_mount(self) -> None:
        _boxed(self, self.query_one(Static))

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class EndScreen(ModalScreen[None]):
    """The end of the game: the result, the audit, the log. Any of Enter, Esc, q leaves."""

    BINDINGS: ClassVar = [Binding("enter,escape,q,space", "leave", "Leave")]

    def __init__(self, lines: list[tuple[str, str]], title: str | None = None) -> None:
        super().__init__()
        self.lines, self.title = lines, title if title is not None else _("Game over")

    def compose(self) -> ComposeResult:
        if rtlview.active():  # wrapped here to the box (the screen less its border and padding)
            room = max(20, (self.app.size.width or 80) - 4)
            rows = [(part, style) for line, style in self.lines for part in _wrapped(line, room)]
            text = _lines([row for row, _style in rows], [style for _row, style in rows])
        else:
            text = Text()
            for i, (line, style) in enumerate(self.lines):
                if i:
                    text.append("\n")
                text.append(_words(self, line), style=style)
        box = Static(text)
        box.border_title = _framed(self, self.title or "")
        box.border_subtitle = _framed(self, _("Enter leaves (the summary stays in your terminal)"))
        yield box

    def on_mount(self) -> None:
        _boxed(self, self.query_one(Static))

    def action_leave(self) -> None:
        self.app.exit()


#: The help: sections of (keys, what they do), or of paragraphs (keys ""), marked for the catalog and
#: said in the language spoken by :func:`help_lines`.
HELP: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        N_("Picking a move"),
        (
            ("← →", N_("choose one of your cards that can be played (it shows reversed)")),
            (
                N_("8c, 10h, qs"),
                N_("choose a card by its name: a rank (a 2-9 10 j q k), then a suit (c d h s)"),
            ),
            ("1-9, 0", N_("put the chosen card on the place showing that key (lit up)")),
            ("Enter", N_("play the only move, or walk the chosen card's places with ← → and Enter")),
            (N_("a click"), N_("choose a card; click a lit place to put it there")),
            (N_("letters"), N_("the buttons below the table (stand, propose, pass, ...), as they show")),
            ("Esc", N_("back out of choosing a place")),
        ),
    ),
    (
        N_("The table"),
        (
            (
                "",
                N_(
                    "The other players are along the top, the middle below them, your own cards at the "
                    "bottom. Underlined cards moved since your last move. The panel on the right says "
                    "what happened, every card shown named; older lines are dim."
                ),
            ),
        ),
    ),
    (
        N_("Other keys"),
        (
            ("/", N_("chat: type a message to the table, Enter sends, Esc closes")),
            (N_("F1 or ?"), N_("this help")),
            ("F2", N_("the rules of the game")),
            ("F4", N_("the story so far, whole (the panel on the right shows its end)")),
            ("F6", N_("play single forced moves at once (on/off)")),
            (
                "F3",
                N_(
                    "adjourn: propose to stop and go on later (a network game; every player must agree; "
                    "then everyone runs  fairdeal resume  to go on)"
                ),
            ),
            (N_("Ctrl-Q"), N_("resign (on your turn) or leave the game; asks first")),
            (N_("Ctrl-C"), N_("stop at once; the log so far is kept and its path printed")),
        ),
    ),
)
KEY_COLUMN = 15


def help_lines(width: int = 76, *, ascii: bool = False) -> list[str]:
    """The help wrapped once, to ``width``: each key in a column, its words wrapped beside it
    (with ``ascii``, in ASCII before it is wrapped)."""
    import textwrap

    out: list[str] = []
    for i, (title, said) in enumerate(HELP):
        if i:
            out.append("")
        out.append(_(title))
        rows = [(_(k) if k else k, _(w)) for k, w in said]
        for key, words in ((to_ascii(k), to_ascii(w)) if ascii else (k, w) for k, w in rows):
            if not key:
                out.extend(textwrap.wrap(words, max(20, width), initial_indent="  ", subsequent_indent="  "))
                continue
            lead = f"  {key}".ljust(KEY_COLUMN)
            out.extend(
                textwrap.wrap(
                    words,
                    max(KEY_COLUMN + 20, width),
                    initial_indent=lead,
                    subsequent_indent=" " * KEY_COLUMN,
                )
            )
    return out


__all__ = ["ConfirmScreen", "EndScreen", "TextScreen", "help_lines"]
