"""The words of the bars below the table: the status line, the keys that work now, the actions.

Each is a function of what the table shows (:class:`TableState`, which the app has): the
status line says whose turn it is and what the game waits for (or who it waits for to come
back, with a countdown); the keys line, the keys that work now, fitted to the width; the
actions bar, where the picked card can go and the moves with no card, with the parts a click
presses. The app shows them in its bars (:class:`~.widgets.Line`, :class:`~.widgets.Bar`).
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from rich.cells import cell_len
from rich.text import Text

from fairdeal.core.tableview import TableView
from fairdeal.i18n import gettext as _
from fairdeal.i18n import language

from ..adjourning import Adjourning
from ..render import own_turn
from ..waiting import Absences, describe_waiting
from .choosing import Choosing
from .layout import words_text
from .picking import Picker
from .player import TablePlayer
from .widgets import Parts


class TableState(Protocol):
    """What the bars read of the table (the app has it)."""

    @property
    def player(self) -> TablePlayer | None: ...

    @property
    def ascii(self) -> bool: ...

    @property
    def flash(self) -> str: ...

    @property
    def outcome(self) -> Any: ...

    @property
    def waiting_text(self) -> str: ...

    @property
    def absences(self) -> Absences: ...

    @property
    def adjourning(self) -> Adjourning: ...

    @property
    def choosing(self) -> Choosing: ...

    @property
    def panel(self) -> int: ...

    def picker(self) -> Picker | None: ...

    def table_view(self) -> TableView | None: ...

    def names(self, seat: int) -> str: ...


def status_line(table: TableState, width: int | None = None) -> Text:
    """The status line: what happens now, whose turn it is and what the game waits for, in
    ``width`` cells (when given): the "Enter:" hint, which the actions bar repeats, is left out
    first, then the line is cut with an ellipsis."""
    line, hint = _status(table)
    if width is None:
        return line + hint
    if (line + hint).cell_len <= width:
        return line + hint
    if line.cell_len > width:
        line.truncate(width, overflow="ellipsis")
    return line


def _status(table: TableState) -> tuple[Text, Text]:
    """The status line and the hint that may follow it (what Enter plays)."""
    p = table.player
    if table.flash:
        lead = Text(_("Your turn") + " — ", style="bold green") if p is not None and p.deciding else Text()
        return lead + Text(table.flash, style="bold yellow"), Text()
    if table.outcome is not None:
        return Text(_("Game over."), style="bold"), Text()
    away = table.absences.text() if table.absences else None
    if away is not None and not (p is not None and p.deciding):
        return Text(away[:1].upper() + away[1:], style="bold yellow"), Text()
    if p is None or p.session is None:
        return Text(table.waiting_text, style="italic"), Text()
    s = p.session
    if p.deciding:
        picker = table.picker()
        view = table.table_view()
        what = Text(_("Your turn"), style="bold green")
        status = view.status if view is not None else ()
        rest = own_turn(status, s.seat)
        status = status if rest is None else rest
        if status:
            what.append(": ")
            what.append_text(words_text(status, table.names, table.ascii))
        hint = Text()
        if picker is not None and picker.single is not None:
            hint.append(" — " + _("Enter: {move}").format(move=picker.single.words), style="bold")
        return what, hint
    waiting = describe_waiting(s) if not s.finished else _("the game is over")
    spin = (
        "|/-\\"[int(time.monotonic() * 4) % 4]
        if table.ascii
        else "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"[int(time.monotonic() * 8) % 10]
    )
    waiting = waiting or ""
    return Text(f"{spin} {waiting[:1].upper()}{waiting[1:]}", style="italic"), Text()


def keys_line(table: TableState, width: int) -> Text:
    """The keys that work now, in ``width`` cells: whole hints are left out, least needed first.

    F1 help lists every key, so it and the way out stay; a hint is never cut in half.
    """
    p = table.player
    # (hint, rank): the highest rank goes first when the line is too long.
    parts: list[tuple[str, int]] = []
    picker = table.picker()
    if picker is not None and picker.cards:
        parts.append((_("←→ card · 8c name · key: place"), 0))
    watching = p is not None and (p.watching or (p.session is not None and p.session.seat is None))
    parts += [(_("/ chat"), 3)] if not watching else []  # the chat is the players'
    parts += [(_("F1 help"), 0), (_("F2 rules"), 5)]
    if not watching:  # a watcher plays no move: no forced moves to play, nothing to resign
        auto = p is not None and p.auto
        parts.append((_("F6 auto:on") if auto else _("F6 auto:off"), 4))
    if table.adjourning.available:
        parts.append((_("F3 adjourn"), 2))
    if not table.panel:  # no room for the panel: the story is a key away
        parts.append((_("F4 story"), 1))
    parts.append((_("^Q resign") if p is not None and p.deciding else _("^Q leave"), 0))  # as it acts
    while cell_len(" · ".join(h for h, _ in parts)) > width and max(r for _, r in parts) > 0:
        drop = max(range(len(parts)), key=lambda i: parts[i][1])
        del parts[drop]
    return Text(" · ".join(h for h, _ in parts), style="dim")


def action_lines(table: TableState, width: int) -> tuple[list[Text], Parts]:
    """The actions bar: where the selected card can go, its moves without a place, the buttons."""
    picker = table.picker()
    if picker is None:  # nothing to pick: the status line above says what the table waits for
        return [Text("")], []
    rows: list[Text] = [Text()]
    parts: Parts = []

    def add(label: str, key: str, style: str = "") -> None:
        piece = Text()
        piece.append(f" {key} ", style="reverse bold")
        piece.append(f" {label}", style=style)
        piece.truncate(max(8, width), overflow="ellipsis")
        if rows[-1].cell_len and rows[-1].cell_len + 2 + piece.cell_len > width:
            rows.append(Text())
        if rows[-1].cell_len:
            rows[-1].append("  ")
        x0 = rows[-1].cell_len
        rows[-1].append_text(piece)
        parts.append((len(rows) - 1, x0, rows[-1].cell_len, key))

    now = table.choosing
    sel = now.selected
    if sel is None and picker.cards:
        rows[-1].append(_("Choose a card: ← →, its name (8c, 10h) or a click."), style="italic")
    if sel is not None and picker.for_card(sel):
        card = _card_of(table, sel)
        head = Text(f"{card}: " if card else "", style="bold")
        rows[-1].append_text(head)
        places = picker.places(sel)
        view = table.table_view()
        labels = {pl.zone: pl.label for _, pl in view.piles()} if view else {}
        for i, (zone, key) in enumerate(places.items()):
            style = "reverse" if now.placing and i == now.cursor else ""
            add(labels.get(zone, zone), key, style)
        numbered = {c.index: k for k, c in picker.action_keys(sel).items()}
        n_places = len(places)
        for i, c in enumerate(picker.actions(sel)):
            walking = now.placing and now.cursor == n_places + i
            key = numbered.get(c.index) or ("Enter" if len(picker.actions(sel)) == 1 and not places else "←→")
            add(c.words, key, "reverse" if walking else "")
    if sel is not None and picker.buttons and rows[-1].cell_len:
        rows[-1].append("  " + _("or"), style="italic")  # the buttons are instead of the chosen card
    for b in picker.buttons:
        add(b.words, b.key or "?")
    return rows, parts


def _card_of(table: TableState, token: int) -> str:
    p = table.player
    state = p.view() if p is not None else None
    card = state.table.card(token) if state is not None else None
    return "" if card is None else card.text(table.ascii, lang=language())


__all__ = ["TableState", "action_lines", "keys_line", "status_line"]
