"""The full-screen table: a Textual app with the game running in trio as its guest.

Screen, top to bottom: a title line (game, facts, scores); the table (other players, middle,
your own area) beside a panel of what happened and the chat; a status line (whose turn, what
the game waits for); the actions (the places a picked card can go, buttons for moves with no
card); the keys. :class:`TableApp` puts them together and runs the game (:mod:`.guest`); it
redraws what changed at the pace of :mod:`.pacing`, from the one :class:`TableView` of the
game's state, with the words of :mod:`.bars`; keys and clicks walk the choice of a move
(:mod:`.choosing`); F-keys and Ctrl-Q are its actions, the questions they ask in
:mod:`.dialogs`; network play comes as :class:`~.netshow.NetReport` messages, shown by
:mod:`.netshow`. The widgets are in :mod:`.widgets`, their styles in ``table.tcss``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.widgets import Input

from fairdeal import i18n
from fairdeal.core.rules import Move, rules_in
from fairdeal.core.tableview import TableView
from fairdeal.i18n import gettext as _

from ..adjourning import Adjourning
from ..console import no_color
from ..endings import Ending as EndWords
from ..networds import chat_refused, leave_question
from ..phrases import you
from ..render import reflow, to_ascii
from ..waiting import Absences
from . import choosing
from .bars import action_lines, keys_line, status_line
from .choosing import Choosing, Step
from .dialogs import ask_on_a_proposal, ask_to_adjourn, ask_to_leave
from .guest import GameRunner, GuestGame
from .layout import Drawn, Marks, draw_table, narrower_panel, panel_width, title_line, too_small
from .netshow import NetReport, NetShow
from .pacing import Redraws
from .picking import Choice, Picker, picker_for
from .player import TablePlayer
from .screens import EndScreen, TextScreen, help_lines
from .widgets import Bar, Line, SidePanel, TableArea

if TYPE_CHECKING:
    from fairdeal.net.events import Ending

CHAT_LIMIT = 200  # characters a chat message may have (the wire checks its own limit)


@contextlib.contextmanager
def _without_empty_no_color() -> Iterator[None]:
    """Textual reads NO_COLOR when an app is made, set even empty; an empty one is hidden then."""
    empty = os.environ.get("NO_COLOR") == ""
    if empty:
        del os.environ["NO_COLOR"]
    try:
        yield
    finally:
        if empty:
            os.environ["NO_COLOR"] = ""


class TableApp(App[None]):
    """The card table. ``run_game`` is the trio function that plays the game."""

    CSS_PATH = "table.tcss"
    #: No Textual command palette (^P): its commands (a theme, a screenshot, quitting with no
    #: question) are Textual's own, in English whatever the language; the table's keys do the rest.
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar = [
        Binding("ctrl+c", "interrupt", "Stop", priority=True, show=False),
        Binding("ctrl+q", "quit_game", "Resign", priority=True, show=False),
        Binding("f1", "help", "Help", show=False),
        Binding("f2", "rules", "Rules", show=False),
        Binding("f3", "adjourn", "Adjourn", show=False),
        Binding("f4", "story", "Story", show=False),
        Binding("f6", "toggle_auto", "Auto", show=False),
    ]

    def __init__(
        self,
        title: str,
        player: TablePlayer | None,
        run_game: GameRunner,
        *,
        ascii: bool = False,
        rules_text: str = "",
        chat: Callable[[str], object] | None = None,
        net: NetShow | None = None,
    ) -> None:
        # NO_COLOR: no colour at all (Textual's own answer to it is its palette in shades of grey).
        # Colours said as ANSI ones are taken off by Textual's NoColor filter, the attributes kept.
        # An empty NO_COLOR asks for nothing (no-color.org), though Textual greys for it too.
        with _without_empty_no_color():
            super().__init__(ansi_color=True if no_color() else None)
        self.game_title = to_ascii(title) if ascii else title
        self.player = player
        self.game = GuestGame(run_game)
        self.ascii = ascii
        self.rules_text = rules_text
        self.send_chat = chat
        #: What network play shows here (its events come as :class:`~.netshow.NetReport` messages).
        self.net = net if net is not None else NetShow()
        self.interrupted = False
        self.ending: Ending | None = None  # how network play said the game ended
        #: Leaving on purpose, as network play offers it (None: stopping tells nobody).
        self.leave: Callable[[], None] | None = None
        self.leaving = False  # this person asked to leave: the game says goodbye, then the app closes
        self.finish: Callable[[], EndWords | None] | None = None  # the end box, when the game is over
        self.flash = ""
        #: Where the person is in choosing a move (keys and clicks: :mod:`.choosing`).
        self.choosing = Choosing()
        self._picker: Picker | None = None
        self._picker_for: object = None
        self.redraws = Redraws(self, self._refresh_now)
        self.waiting_text = _("starting")
        self.lobby_lines: list[str] = []
        #: Who the game waits for to come back (a network game): the status line counts down.
        self.absences = Absences()
        #: Proposals to adjourn (a network game): F3 proposes or agrees.
        self.adjourning = Adjourning()
        self._form = (0, 0, 0)  # the table's size and the form it was drawn in
        #: The side panel's width (:func:`.layout.panel_width`), narrower while the table does not fit
        #: whole beside it; 0: hidden (F4 shows the story).
        self.panel = 28
        self._whole = True  # whether the table drawn last fit whole
        self._view: TableView | None = None
        self._view_of: tuple[object, int] | None = None  # the session and entry count of _view
        if player is not None:
            player.on_change = self.schedule_refresh

    @property
    def outcome(self) -> Any:
        """Trio's ``Outcome`` of the game, once it is done (None before)."""
        return self.game.outcome

    # -- layout ------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Line(self.ascii, id="title")
        with Horizontal(id="body"):
            yield TableArea(self.draw, self.table_key)
            yield SidePanel(self.ascii)
        yield Line(self.ascii, id="status")
        yield Bar(lambda width: action_lines(self, width), self.ascii, id="actions")
        yield Line(self.ascii, id="keys")
        yield Input(id="chat", placeholder=_("Say something to the table (Enter sends, Esc closes)"))

    def on_mount(self) -> None:
        self._update_bars()
        self.query_one(TableArea).focus()
        self.game.start(lambda: self.call_later(self._game_done))

    def on_ready(self) -> None:
        self.set_interval(0.25, self.tick)

    def on_resize(self, event: events.Resize) -> None:
        side = self.query_one(SidePanel)
        self.panel = panel_width(event.size.width)
        side.styles.width = self.panel
        if self.ascii:
            side.styles.border_left = ("ascii", "grey")
        self.schedule_refresh()

    def on_net_report(self, message: NetReport) -> None:
        """An event of network play, in the order the network layer reported it."""
        self.net.show(message.event, self)

    # -- the game's start and end ------------------------------------------------------------------
    async def on_unmount(self) -> None:
        """The app is closing: the game must not outlive it (trio runs on this loop)."""
        self.redraws.stop()
        if self.game.running:
            self.interrupted = True
            await self.game.wind_down()

    def _game_done(self) -> None:
        if self.interrupted or self.leaving:  # the command says how it ended, in the terminal
            self.exit()
            return
        self._refresh_now()
        if self.finish is not None:
            with contextlib.suppress(Exception):
                end = self.finish()
                if end is not None:  # None: an error the command says, in the terminal
                    self.push_screen(EndScreen(end.lines, end.title))
                    return
        self.exit()

    def stop_game(self) -> None:
        """Cancel the game (it ends as it stands, the log kept); the app exits when trio is done."""
        if self.outcome is not None:
            self.exit()
            return
        self.game.cancel()

    # -- refreshing (called from trio through call_later, or from the app) ---------------------------
    def schedule_refresh(self, new_turn: bool = False) -> None:
        """Redraw soon: at once when this player is to move, else at the pace of :mod:`.pacing`."""
        if new_turn:
            self.choosing = Choosing()
            self._picker = None
        self.redraws.ask(new_turn or (self.player is not None and self.player.deciding))

    def _refresh_now(self) -> None:
        self.redraws.begin()
        p = self.player
        if p is not None and p.session is not None and not self.rules_text:
            game = p.session.game
            self.game_title = to_ascii(game.title) if self.ascii else game.title
            self.rules_text = rules_in(game, i18n.language())
        try:
            side = self.query_one(SidePanel)
        except NoMatches:  # a redraw that comes due while the app closes: nothing to draw on
            return
        if p is not None and p.chronicle is not None:
            side.tell(p.chronicle)
        # In the lobby the table area takes the whole width: the invite code stays on one line.
        display = self.panel > 0 and not (self.lobby_lines and self.table_view() is None)
        if self.panel and (side.styles.width is None or side.styles.width.value != self.panel):
            side.styles.width = self.panel  # narrowed while the table did not fit whole
        if side.display != display:
            side.display = display
        self._update_bars()
        for w in (self.query_one(TableArea), side, self.query_one(Bar)):
            w.refresh_if_changed()

    def _update_bars(self) -> None:
        width = self.size.width or 80
        title = title_line(self.game_title, self.table_view(), self.names, width - 2, self.ascii)
        self.query_one("#title", Line).show(title)
        self.query_one("#status", Line).show(status_line(self, width - 2))
        self.query_one("#keys", Line).show(keys_line(self, width - 2))  # padding 0 1

    def tick(self) -> None:
        """The status line's spinner and countdowns, while the game goes on without this player."""
        if self.player is not None and not self.player.deciding and self.outcome is None:
            self.query_one("#status", Line).show(status_line(self, (self.size.width or 80) - 2))

    def note(self, text: str, style: str = "italic") -> None:
        """A message of the app or the network in the side panel."""
        with contextlib.suppress(NoMatches):  # the app closes: nobody reads it
            self.query_one(SidePanel).say(text, style)
        self.schedule_refresh()

    def chat_line(self, who: str, checked: str, text: str) -> None:
        """A chat message in the side panel: the sender's name and checked identity, the words."""
        with contextlib.suppress(NoMatches):
            self.query_one(SidePanel).chat(who, checked, text)
        self.schedule_refresh()

    # -- model -------------------------------------------------------------------------------------
    def names(self, seat: int) -> str:
        p = self.player
        if p is None or p.session is None:
            return _("seat {n}").format(n=seat)
        if seat == p.session.seat:
            return you()
        return p.session.name(seat)

    def table_view(self) -> TableView | None:
        """The game's table as this seat sees it, built once per state of the game (every widget of a
        redraw asks for it; the state changes only when an entry is accepted)."""
        p = self.player
        if p is None or p.session is None:
            return None
        session = p.session
        if self._view_of is not None and self._view_of[0] is session and self._view_of[1] == session.seq:
            return self._view
        state = p.view()
        self._view = None if state is None else session.game.table_view(state, session.seat)
        self._view_of = (session, session.seq)
        return self._view

    def picker(self) -> Picker | None:
        """The moves on offer arranged for picking (None when it is not this seat's turn)."""
        p = self.player
        if p is None or p.moves is None or p.session is None:
            return None
        if self._picker is None or self._picker_for is not p.moves:
            state, seat = p.view(), p.session.seat
            assert state is not None and seat is not None
            names = p.session.header.names
            self._picker = picker_for(p.session.game, state, seat, p.moves, ascii=self.ascii, names=names)
            self._picker_for = p.moves
        return self._picker

    @property
    def selected(self) -> int | None:
        """The card picked, if any."""
        return self.choosing.selected

    def draw(self, width: int, height: int) -> Drawn:
        """The table in ``width`` × ``height`` cells (before the game: the lobby's words)."""
        view = self.table_view()
        p = self.player
        if view is None or p is None or p.session is None:
            lines = [
                Text(line) for line in (self.lobby_lines or [f"{self.game_title}: {self.waiting_text}…"])
            ]
            out: list[Text] = []
            for line in lines:
                out.extend(line.wrap(self.console, max(1, width), overflow="fold"))
            return Drawn(out[:height], [])
        picker = self.picker()
        lit: dict[str, str] = {}
        pickable: frozenset[int] = frozenset()
        if picker is not None:
            pickable = frozenset(picker.cards)
            if self.selected is not None:
                lit = picker.places(self.selected)
        fresh = frozenset(p.chronicle.fresh) if p.chronicle is not None else frozenset()
        marks = Marks(self.selected if picker else None, pickable, lit, fresh, self.ascii)
        least = self._form[2] if self._form[:2] == (width, height) else 0  # never roomier mid-game
        drawn = draw_table(view, p.session.seat, self.names, width, height, marks, least)
        self._form = (width, height, drawn.form)
        self._whole = drawn.whole
        if not drawn.whole and self.panel:  # the table first: a narrower panel, once the layout settled
            self.call_after_refresh(self._fit_panel)
        return drawn if drawn.whole else too_small(drawn, self.size.width, self.size.height, width)

    def _fit_panel(self) -> None:
        """The table did not fit whole beside the side panel: if it still does not at the size the
        layout settled on (a resize draws at passing sizes first), a narrower panel, or none."""
        area = self.query_one(TableArea)
        if not self.panel or self._whole or tuple(area.content_size) != self._form[:2]:
            return  # it fits now, or a redraw at the settled size is on its way and decides
        self.panel = narrower_panel(self.panel)
        if not self.panel:
            self.flash = _("No room for the story beside the table: F4 shows it")
        self._refresh_now()

    # -- input ---------------------------------------------------------------------------------------
    def table_key(self, event: events.Key) -> None:
        """A key pressed while the table has the focus."""
        key = event.key
        if key in ("slash", "colon"):
            self._open_chat()
            event.stop()
            return
        if key in ("question_mark",):
            self.action_help()
            event.stop()
            return
        if self.press_key(event.character if event.character and event.character.isprintable() else key):
            event.stop()

    def press_key(self, key: str) -> bool:
        """A key (or a click on an action) while the table has the focus; True if it meant something."""
        self.flash = ""
        picker = self.picker()
        if picker is None or self.player is None:
            self._update_bars()
            return False
        step = choosing.press(picker, self.choosing, key, ascii=self.ascii)
        if not step.handled:
            return False
        self._take(step)
        return True

    def on_table_area_picked(self, message: TableArea.Picked) -> None:
        """A click on the table: on a card, on a pile, or both."""
        picker = self.picker()
        if picker is None:
            return
        self._take(choosing.click(picker, self.choosing, message.token, message.zone))

    def on_bar_pressed(self, message: Bar.Pressed) -> None:
        """A click on an action of the bar: as its key."""
        self.press_key(message.key)

    def _take(self, step: Step) -> None:
        """What a key or a click did: the next state, the move to play if it chose one, the words."""
        self.choosing, self.flash = step.state, step.say
        self._play(step.choice)
        self._refresh_now()

    def _play(self, choice: Choice | None) -> None:
        p = self.player
        if choice is None or p is None or p.moves is None:
            return
        move: Move = p.moves[choice.index]
        self.choosing = replace(self.choosing, selected=None, placing=False)
        p.choose(move)

    # -- chat ----------------------------------------------------------------------------------------
    def _open_chat(self) -> None:
        chat = self.query_one("#chat", Input)
        if self.send_chat is None:  # still open the line: what is typed after "/" must not act as keys
            self.flash = chat_refused(self._watching)
            said = _("{why}: nothing typed here is sent (Enter or Esc closes)")
            chat.placeholder = said.format(why=self.flash)
            self._update_bars()
        chat.display = True
        self.query_one("#keys", Line).display = False
        chat.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()[:CHAT_LIMIT]
        event.input.value = ""
        if text and self.send_chat is not None:
            self.game.call(self.send_chat, text)  # the links belong to trio
        elif text:
            why = chat_refused(self._watching)
            self.flash = _("Not sent: {why}").format(why=f"{why[:1].lower()}{why[1:]}")
        self._close_chat()
        self._update_bars()

    def _close_chat(self) -> None:
        chat = self.query_one("#chat", Input)
        chat.display = False
        self.query_one("#keys", Line).display = True
        self.query_one(TableArea).focus()

    def key_escape(self) -> None:
        if self.query_one("#chat", Input).has_focus:
            self._close_chat()

    # -- actions -------------------------------------------------------------------------------------
    def action_help(self) -> None:
        width = max(20, (self.size.width or 80) - 6)
        self.push_screen(TextScreen(_("Help"), help_lines(width, ascii=self.ascii)))

    def action_story(self) -> None:
        """F4: the story so far, whole (the panel shows its end; a window too narrow has no panel)."""
        import textwrap

        width = max(20, (self.size.width or 80) - 6)
        lines: list[str] = []
        for note in self.query_one(SidePanel).notes:
            lines.extend(textwrap.wrap(note.text.plain, width, subsequent_indent="  ") or [""])
        self.push_screen(TextScreen(_("What happened"), lines))

    def action_rules(self) -> None:
        width = max(20, (self.size.width or 80) - 6)
        rules = self.rules_text
        title = _("Rules of {game}").format(game=self.game_title)
        self.push_screen(TextScreen(title, reflow(rules, width), flowing=rules))

    def action_toggle_auto(self) -> None:
        if self.player is not None:
            self.player.auto = not self.player.auto
            if self.player.auto:
                self.flash = _("Single forced moves are played at once.")
            else:
                self.flash = _("Single forced moves are asked for.")
            if self.player.auto:
                picker = self.picker()
                if picker is not None and picker.single is not None:
                    self._play(picker.single)
            self._refresh_now()

    def action_adjourn(self) -> None:
        """F3: propose (or agree) to stop here and go on later; every player must agree."""
        if not self.adjourning.available or self.outcome is not None:
            self.flash = _("Adjourning is for games over the network (every player agrees to go on later)")
            self._update_bars()
            return
        ask_to_adjourn(self, self.adjourning, self._vote)

    def _vote(self, agree: bool) -> None:
        self.game.call(self.adjourning.agree if agree else self.adjourning.decline)  # the links: trio's

    def adjourn_heard(self, text: str) -> None:
        """A vote on adjourning: note it, and ask this player when another one proposed."""
        self.note(text, "bold")
        ask_on_a_proposal(self, self.adjourning, self._vote)

    @property
    def _watching(self) -> bool:
        p = self.player
        return p is not None and (p.watching or (p.session is not None and p.session.seat is None))

    def action_interrupt(self) -> None:
        """Ctrl-C: leave the game as network play offers it (the others are told), else, or when
        pressed again, stop it at once."""
        if self.leave is not None and not self.leaving and self.game.running:
            self.leaving = True
            self.flash = _("Leaving the game: telling the others (Ctrl-C again stops at once)")
            self._update_bars()
            self.game.call(self.leave)  # the links belong to trio
            return
        self.interrupted = True
        self.stop_game()

    def action_quit_game(self) -> None:
        if self.outcome is not None:
            self.exit()
            return
        p = self.player
        seat = None if p is None or p.session is None else p.session.seat
        question = leave_question(seat, watching=self._watching, told=self.leave is not None)
        ask_to_leave(self, self.player, self.action_interrupt, question)


__all__ = ["TableApp"]
