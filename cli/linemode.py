"""The person at this terminal: sees the table, finds a move, types it.

:class:`TerminalAgent` is the agent of a human seat (``decide``) and the watcher of
that seat's session (``observe``). It works for any seat of any session, local or over
the network: a header, the table, the recent actions and the numbered moves; while
other seats act, :class:`~fairdeal.cli.waiting.StatusLine` says what the game waits for
and their moves appear as they are made.

The table is the game's own description (``table_view``), the one the full-screen table
draws, written as lines by :func:`~fairdeal.cli.render.table_lines`. What the player
types (taken in by :class:`~fairdeal.cli.linereader.LineReader`) is read by
:func:`~fairdeal.cli.interpreting.interpret`: a move's number, a command (``help``,
``moves``, ``table``, ``log``, ``rules``, ``quit``), the first words of a move (``draw``,
``play 7h``) or a card in it (``7h``, ``10♥``). Anything unclear gets a one-line answer
naming the candidates; nothing is ever guessed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text

from fairdeal import i18n
from fairdeal.core.rules import Game, GameState, Move, rules_in
from fairdeal.core.session import Event
from fairdeal.core.session.session import Session
from fairdeal.i18n import gettext as _
from fairdeal.i18n import ngettext
from fairdeal.net.driver import RESIGN

from .adjourning import Adjourning
from .chronicle import Chronicle
from .console import UI, LineSink
from .interpreting import COMMANDS, Reply, help_text, interpret
from .linereader import LineReader
from .phrases import and_list, is_no, is_yes, pile_name, resign_question, turned_up, you
from .render import line_text, named, reflow, table_lines, to_ascii
from .waiting import describe_waiting

__all__ = ["COMMANDS", "Reply", "TerminalAgent", "help_text", "interpret", "line_text"]

RECENT_SHOWN = 8  # actions shown above the moves at most
LOG_SHOWN = 30  # actions the log command shows at most
_MOVES_PER_COLUMN = 9


class TerminalAgent:
    """A person at this terminal, deciding for one seat and watching its session.

    ``decide(session, moves)`` returns the chosen move, or None to resign (``quit``
    confirmed, or the end of input). ``observe(session, events)`` must be called with
    the seat's events as they are accepted. ``ask`` reads one line after a prompt and
    raises EOFError at the end of input (default: the console's).
    """

    def __init__(
        self,
        ui: UI | None = None,
        *,
        ascii: bool = False,
        ask: Callable[[str], str] | None = None,
        echo: Callable[[str], None] | None = None,
    ) -> None:
        if ui is None:
            # ``echo`` (one call a line, plain text) is kept for callers that predate UI.
            ui = UI(ascii=ascii) if echo is None else UI(ascii=ascii, file=LineSink(echo), status=False)
        self.ui = ui
        self.ascii = self.ui.ascii
        self.ask = ask if ask is not None else self.ui.ask
        #: A person at a terminal: Ctrl-D there asks before it resigns (a pipe's end resigns at once).
        self.at_terminal = ask is None and _stdin_is_a_terminal()
        self._lines = LineReader(self.ask)
        self.recent: deque[str] = deque(maxlen=200)
        self._shown_table = False
        self.chronicle: Chronicle | None = None
        #: Proposals to adjourn, in a network game (set by the network front end).
        self.adjourning: Adjourning | None = None

    # -- watching ----------------------------------------------------------------------------------
    def observe(self, session: Session, events: Sequence[Event], *, quiet: bool = False) -> None:
        """Note the moves made (with every card they showed, once it is revealed) and the cards
        drawn, and update what the game waits for. ``quiet``: the story so far of a resumed seat,
        kept for the table's recent lines but not printed one by one."""
        if self.chronicle is None:
            self.chronicle = Chronicle(session.seat, lambda state, tok: _pile_name(session, state, tok))
        self.chronicle.update(session, events)
        if quiet:
            self.recent.extend(entry.words() for entry in self.chronicle.completed())
            return
        self._news(force=session.finished)
        if session.finished:
            self.ui.status.wait(None)
            return
        w = session.waiting()
        mine = w is not None and w.decision and w.seat == session.seat
        self.ui.status.wait(None if mine else describe_waiting(session))

    def _news(self, force: bool = False) -> None:
        if self.chronicle is None:
            return
        for entry in self.chronicle.completed(force=force):
            text = entry.words()
            self.recent.append(text)
            self.ui.status.news(self._action(text))

    def show_end(self, session: Session) -> None:
        """The table as the game ended, if moves were made since it was last shown (a resignation
        changes nothing on the table). Call when the session is finished."""
        self.ui.status.wait(None)
        if self.ui.status.pending:
            self.show_table(session)

    def close(self, *, flush: bool = True) -> None:
        """Stop the waiting line; print the news not shown yet (call at the end of a game)."""
        self.ui.status.wait(None)
        items = self.ui.status.unseen()
        if items and flush:
            self.ui.print(*items, indent=2)
        self.ui.close()

    def _action(self, text: str) -> Text:
        return self.ui.text(text)

    # -- drawing -----------------------------------------------------------------------------------
    def _seats_lines(self, session: Session) -> list[Text]:
        """``You (Ann) · Bob``, broken between seats (never inside a name) to fit."""
        ui = self.ui
        rows: list[Text] = [Text()]
        for i, name in enumerate(session.header.names):
            you = i == session.seat
            seat = ui.text(_("You ({name})").format(name=name), "bold") if you else ui.text(name)
            dot = ui.text(" · ", "dim")
            if rows[-1].plain and len(rows[-1].plain) + len(dot.plain) + len(seat.plain) > ui.width:
                rows.append(Text())
            if rows[-1].plain:
                rows[-1].append_text(dot)
            rows[-1].append_text(seat)
        return rows

    def _turn(self, session: Session) -> str:
        w = session.waiting()
        if w is None:
            return _("game over")
        if w.decision:
            if w.seat == session.seat:
                return _("your turn")
            return _("{name} to move").format(name=session.name(w.seat))
        return ""

    def show_table(self, session: Session, *, news: bool = True) -> None:
        """The header, the game's table as this seat sees it, then the recent actions."""
        view = session.view()
        ui = self.ui
        ui.blank()
        title = session.game.title
        turn = self._turn(session)
        ui.rule(f"{title} — {turn}" if turn else title)
        ui.print(*self._seats_lines(session))
        if view is not None:
            table = session.game.table_view(view, session.seat)
            names = lambda seat: _name(session, seat)  # noqa: E731
            ui.print(*table_lines(table, session.seat, names, ui.width - 2, self.ascii), indent=2, wrap=False)
        if not news:
            return
        unseen = ui.status.unseen()
        if unseen:
            ui.print(ui.text(_("Since your last move:") if self._shown_table else _("So far:"), "dim"))
            if len(unseen) > RECENT_SHOWN:
                n = len(unseen) - RECENT_SHOWN
                earlier = ngettext("… {n} earlier (type log)", "… {n} earlier (type log)", n).format(n=n)
                ui.print(ui.text(earlier, "dim"), indent=2)
            ui.print(*unseen[-RECENT_SHOWN:], indent=2)
        self._shown_table = True

    def show_moves(self, session: Session, descriptions: Sequence[str]) -> None:
        """The legal moves, numbered; in two columns when there are many short ones."""
        ui = self.ui
        ui.print(ui.text(_("Your moves:"), "bold"))
        items = [ui.text(f"{i:>2}. {d}") for i, d in enumerate(descriptions, 1)]
        col = max(len(t.plain) for t in items) + 4
        if len(items) > _MOVES_PER_COLUMN and 1 + 2 * col <= ui.width:
            rows = (len(items) + 1) // 2
            lines = []
            for r in range(rows):
                row = items[r].copy()
                if r + rows < len(items):
                    row.append(" " * (col - len(row.plain)))
                    row.append_text(items[r + rows])
                lines.append(row)
            ui.print(*lines, indent=1)
        else:
            ui.print(*items, indent=1, hang=4)

    def show_log(self) -> None:
        items = list(self.recent)[-LOG_SHOWN:]
        if not items:
            self.ui.say(_("Nothing has happened yet."))
            return
        self.ui.print(self.ui.text(_("Recent actions, oldest first:"), "dim"))
        self.ui.print(*(self._action(t) for t in items), indent=2)

    # -- deciding ----------------------------------------------------------------------------------
    async def _read(self, prompt: str) -> str:
        return await self._lines.read(prompt, self._prompt_again)

    def _prompt_again(self, prompt: str) -> None:
        self.ui.console.print(self.ui.text(prompt, "bold"), end="")
        self.ui.console.file.flush()

    async def decide(self, session: Session, moves: list[Move]) -> Move | None:
        """Show the table and the moves; read until a move (or a confirmed quit)."""
        assert session.seat is not None
        self.ui.status.wait(None)
        view = session.view()
        assert view is not None
        self._news(force=True)
        moves = offered_moves(session.game, view, session.seat, moves)
        names = session.header.names
        descriptions = [named(session.game.describe(view, session.seat, m), names) for m in moves]
        if self.ascii:
            descriptions = [to_ascii(d) for d in descriptions]
        self.show_table(session)
        self.show_moves(session, descriptions)
        if len(moves) > 1:
            prompt = _("Your move (1-{n}, or help): ").format(n=len(moves))
        else:
            prompt = _("Your move (1, or help): ")
        adjourning = self.adjourning
        if adjourning is not None and adjourning.asking:
            who = and_list(adjourning.agreed)
            asked = _("{who} proposed to adjourn: type adjourn to agree, or no to play on.").format(who=who)
            self.ui.say(asked, "yellow")
        while True:
            try:
                raw = await self._read(prompt)
            except EOFError:
                self.ui.blank()
                if self.at_terminal and not await self._confirm_quit(session):  # Ctrl-D, perhaps by mistake
                    self.ui.say(_("Not resigning; the game goes on."))
                    continue
                self.ui.say(_("End of input: you resign this game."))
                return RESIGN
            if adjourning is not None and adjourning.asking and is_no(raw):
                adjourning.decline()
                continue
            reply = interpret(raw, descriptions, self.ui.width)
            if reply.kind == "move":
                return moves[reply.index]
            if reply.kind == "error":
                self.ui.say(reply.message, "yellow")
            elif reply.kind == "command":
                if reply.command == "quit":
                    if await self._confirm_quit(session):
                        return RESIGN
                    self.ui.say(_("Not resigning; the game goes on."))
                else:
                    self._command(reply.command, session, descriptions)

    async def _confirm_quit(self, session: Session) -> bool:
        """Whether the person confirms resigning (at the end of input, or Ctrl-D again: yes)."""
        try:
            answer = await self._read(_("{question} [y/N] ").format(question=resign_question(session)))
        except EOFError:
            return True
        return is_yes(answer)

    def _command(self, command: str, session: Session, descriptions: Sequence[str]) -> None:
        ui = self.ui
        if command == "adjourn":
            if self.adjourning is None or not self.adjourning.available:
                ui.say(_("Adjourning is for games over the network: every player agrees to go on later."))
            elif not self.adjourning.agree():
                ui.say(_("Could not send that to the host right now; try again."), "yellow")
            return
        if command == "help":
            for line in help_text(session.game.title, descriptions):
                ui.say(line)
        elif command == "rules":
            for line in reflow(rules_in(session.game, i18n.language()).rstrip(), ui.width):
                ui.say(line, wrap=False)
        elif command == "log":
            self.show_log()
        elif command == "table":
            self.show_table(session, news=False)
            self.show_moves(session, descriptions)
        elif command == "moves":
            self.show_moves(session, descriptions)


def _stdin_is_a_terminal() -> bool:
    import sys

    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):  # closed, or not a file
        return False


def _name(session: Session, seat: int) -> str:
    """ "You" for this session's seat, the seat's name for the others."""
    return you() if seat == session.seat else session.name(seat)


def _pile_name(session: Session, state: GameState, token: int) -> str:
    """Where ``token`` lies in words: ``Turn-up``, ``Your payoff``, ``Bob's payoff``."""
    view = session.game.table_view(state, session.seat)
    for region in view.regions:
        for pile in region.piles:
            if token in pile.tokens:
                owner = region.owner
                name = session.name(owner) if owner is not None else ""
                return pile_name(pile.label, owner, session.seat, name)
    return turned_up()


def offered_moves(game: Game[Any], state: GameState, seat: int | None, moves: Sequence[Move]) -> list[Move]:
    """The moves as a list offers them: each once (the same words twice are one choice); of each
    kind of move, in the order their cards lie on the table (a hand as it is shown)."""
    if seat is None:
        return list(moves)
    view = game.table_view(state, seat)
    order: dict[int, int] = {}
    for region in sorted(view.regions, key=lambda r: (r.owner == seat, r.owner is None)):
        for pile in region.piles:
            for tok in pile.tokens:
                order.setdefault(tok, len(order))
    seen: set[str] = set()
    actions: dict[str, int] = {}
    out: list[tuple[int, int, int, Move]] = []
    for i, m in enumerate(moves):
        words = game.describe(state, seat, m)
        if words in seen:
            continue
        seen.add(words)
        card = game.move_parts(state, seat, m).card
        place = order.get(card, len(order)) if card is not None else len(order) + 1
        out.append((actions.setdefault(m.action, len(actions)), place, i, m))
    return [x[3] for x in sorted(out, key=lambda x: x[:3])]
