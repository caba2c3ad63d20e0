"""The person at this terminal: sees the table, finds a move, types it.

:class:`TerminalAgent` is the agent of a human seat (``decide``) and the watcher of
that seat's session (``observe``). It works for any seat of any session, local or over
the network: a header, the table, the recent actions and the numbered moves; while
other seats act, :class:`~fairdeal.cli.waiting.StatusLine` says what the game waits for
and their moves appear as they are made.

The table is the game's own description (``table_view``), the one the full-screen table
draws, written as lines by :func:`~fairdeal.cli.render.table_lines`. What the player
types is read by :func:`interpret`: a move's number, a command (``help``, ``moves``,
``table``, ``log``, ``rules``, ``quit``), the first words of a move (``draw``,
``play 7h``) or a card in it (``7h``, ``10♥``). Anything unclear gets a one-line answer
naming the candidates; nothing is ever guessed.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import trio
from rich.text import Text

from fairdeal.core.rules import Game, GameState, Move
from fairdeal.core.session.session import Event, Session
from fairdeal.net.driver import RESIGN

from .adjourning import Adjourning
from .chronicle import Chronicle
from .console import UI, LineSink
from .render import card_token, line_text, named, reflow, table_lines, to_ascii
from .waiting import describe_waiting

__all__ = ["COMMANDS", "Reply", "TerminalAgent", "help_text", "interpret", "line_text"]

#: Each command and the words that call it (the whole reply must be one of them).
COMMANDS: dict[str, tuple[str, ...]] = {
    "help": ("help", "h", "?"),
    "moves": ("moves", "list"),
    "table": ("table", "show"),
    "log": ("log", "history"),
    "rules": ("rules",),
    "quit": ("quit", "q", "resign", "exit"),
    "adjourn": ("adjourn",),
}
_COMMAND_OF = {word: name for name, words in COMMANDS.items() for word in words}
_WORD = re.compile(r"[^\s,;:()]+")
RECENT_SHOWN = 8  # actions shown above the moves at most
LOG_SHOWN = 30  # actions the log command shows at most
_MOVES_PER_COLUMN = 9


@dataclass(frozen=True, slots=True)
class Reply:
    """What a typed line means: a move (``index`` into the moves), a command, or a problem.

    ``kind`` is ``"move"``, ``"command"``, ``"empty"`` or ``"error"`` (``message`` says why,
    in one line).
    """

    kind: str
    index: int = -1
    command: str = ""
    message: str = ""


def _tokens(text: str) -> list[str]:
    """Lower-case words of ``text``, cards as keys (``7♥`` → ``7h``)."""
    out = []
    for word in _WORD.findall(text.lower()):
        out.append(card_token(word) or word)
    return out


def _fits(typed: str, word: str) -> bool:
    """Whether one typed word stands for one word of a description."""
    if card_token(typed) is not None or (typed.isascii() and typed.isdigit()):
        return typed == word  # cards and numbers exactly: "1" must not mean "10"
    return word.startswith(typed)


def _leading(typed: list[str], words: list[str]) -> bool:
    return len(typed) <= len(words) and all(_fits(t, w) for t, w in zip(typed, words, strict=False))


def _in_order(typed: list[str], words: list[str]) -> bool:
    i = 0
    for w in words:
        if i < len(typed) and _fits(typed[i], w):
            i += 1
    return i == len(typed)


def _candidates(raw: str, picks: list[int], descriptions: Sequence[str], width: int) -> str:
    """One line naming the moves ``raw`` fits: their numbers, and where they differ if that fits."""
    head = f"{raw!r} fits {len(picks)} moves: "
    tail = " — type its number."
    split = [descriptions[i].split() for i in picks]
    same = 0
    while all(len(w) > same + 1 for w in split) and len({w[same] for w in split}) == 1:
        same += 1
    keep = max(0, same - 1)  # one shared word for context: "…centre 1", "…centre 2"
    parts = [f"{i + 1} {'…' if keep else ''}{' '.join(w[keep:])}" for i, w in zip(picks, split, strict=True)]
    listed = " · ".join(parts)
    if len(head) + len(listed) + len(tail) <= width:
        return head + listed + tail
    numbers = [str(i + 1) for i in picks]
    if len(numbers) > 12:
        numbers = [*numbers[:12], "…"]
    return head + ", ".join(numbers) + tail


def interpret(raw: str, descriptions: Sequence[str], width: int = 80) -> Reply:
    """Read a typed line against the moves described by ``descriptions`` (numbered from 1).

    Commands win when the line is exactly a command word. A move is found by number, by
    its first words (``play 7h`` for ``play 7♥ onto centre 2``; a word may be shortened)
    or, failing that, by words found in it in order (``7h``, ``7h centre 2``). Two or more
    moves fitting is an error listing them.
    """
    text = raw.strip()
    n = len(descriptions)
    if not text:
        return Reply("empty")
    low = text.lower()
    if low in _COMMAND_OF:
        return Reply("command", command=_COMMAND_OF[low])
    if low.isascii() and low.isdigit():  # not "²" (int() refuses it) nor other scripts' digits
        k = int(low)
        if 1 <= k <= n:
            return Reply("move", index=k - 1)
        return Reply("error", message=f"There is no move {k}: type a number from 1 to {n}, or help.")
    typed = _tokens(text)
    words = [_tokens(d) for d in descriptions]
    for test in (_leading, _in_order):
        picks = [i for i, w in enumerate(words) if test(typed, w)]
        if len(picks) == 1:
            return Reply("move", index=picks[0])
        if picks:
            return Reply("error", message=_candidates(text, picks, descriptions, width))
    cards = [t for t in typed if card_token(t) is not None]
    if cards and len(cards) == len(typed):
        return Reply("error", message=f"No move with {text}: type a number from 1 to {n}, or help.")
    return Reply(
        "error",
        message=f"{text!r} is not a move or a command: type a number from 1 to {n}, or help.",
    )


def help_text(game_title: str, descriptions: Sequence[str]) -> list[str]:
    """The ``help`` answer, with examples taken from the moves on offer."""
    example = ""
    for d in descriptions:
        words = d.split()
        if len(words) >= 2 and card_token(words[1].rstrip(",:")):
            example = f"{words[0]} {card_token(words[1].rstrip(',:'))}"
            break
    if not example and descriptions:
        example = descriptions[0].split()[0]
    lines = [
        f"Type the number of a move (1 to {len(descriptions)}), or its first words"
        + (f' ("{example}")' if example else "")
        + ', or a card in it ("7h", "10s").',
        "Commands:",
        "  help    this text",
        "  moves   list your moves again",
        "  table   show the table again",
        "  log     what happened lately",
        f"  rules   the rules of {game_title}",
        "  quit    resign this game (asks first; the log records it)",
        "  adjourn propose to stop and go on later (a network game: every player must agree)",
        "End of input (Ctrl-D) resigns at once; Ctrl-C stops the program.",
    ]
    return lines


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
            seat = ui.text(f"You ({name})", "bold") if you else ui.text(name)
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
            return "game over"
        if w.decision:
            return "your turn" if w.seat == session.seat else f"{session.name(w.seat)} to move"
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
            ui.print(ui.text("Since your last move:" if self._shown_table else "So far:", "dim"))
            if len(unseen) > RECENT_SHOWN:
                ui.print(ui.text(f"… {len(unseen) - RECENT_SHOWN} earlier (type log)", "dim"), indent=2)
            ui.print(*unseen[-RECENT_SHOWN:], indent=2)
        self._shown_table = True

    def show_moves(self, session: Session, descriptions: Sequence[str]) -> None:
        """The legal moves, numbered; in two columns when there are many short ones."""
        ui = self.ui
        ui.print(ui.text("Your moves:", "bold"))
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
            self.ui.say("Nothing has happened yet.")
            return
        self.ui.print(self.ui.text("Recent actions, oldest first:", "dim"))
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
        prompt = f"Your move (1-{len(moves)}, or help): " if len(moves) > 1 else "Your move (1, or help): "
        adjourning = self.adjourning
        if adjourning is not None and adjourning.asking:
            who = " and ".join(adjourning.agreed)
            self.ui.say(f"{who} proposed to adjourn: type adjourn to agree, or no to play on.", "yellow")
        while True:
            try:
                raw = await self._read(prompt)
            except EOFError:
                self.ui.blank()
                self.ui.say("End of input: you resign this game.")
                return RESIGN
            if adjourning is not None and adjourning.asking and raw.strip().lower() in ("no", "n"):
                adjourning.decline()
                continue
            reply = interpret(raw, descriptions, self.ui.width)
            if reply.kind == "move":
                return moves[reply.index]
            if reply.kind == "error":
                self.ui.say(reply.message, "yellow")
            elif reply.kind == "command":
                if reply.command == "quit":
                    if await self._confirm_quit():
                        return RESIGN
                    self.ui.say("Not resigning; the game goes on.")
                else:
                    self._command(reply.command, session, descriptions)

    async def _confirm_quit(self) -> bool:
        try:
            answer = await self._read("Resign this game? The log records it. [y/N] ")
        except EOFError:
            return True
        return answer.strip().lower() in ("y", "yes")

    def _command(self, command: str, session: Session, descriptions: Sequence[str]) -> None:
        ui = self.ui
        if command == "adjourn":
            if self.adjourning is None or not self.adjourning.available:
                ui.say("Adjourning is for games over the network: every player agrees to go on later.")
            elif not self.adjourning.agree():
                ui.say("Could not send that to the host right now; try again.", "yellow")
            return
        if command == "help":
            for line in help_text(session.game.title, descriptions):
                ui.say(line)
        elif command == "rules":
            for line in reflow(session.game.rules_text().rstrip(), ui.width):
                ui.say(line, wrap=False)
        elif command == "log":
            self.show_log()
        elif command == "table":
            self.show_table(session, news=False)
            self.show_moves(session, descriptions)
        elif command == "moves":
            self.show_moves(session, descriptions)


class LineReader:
    """Lines read one at a time by ``ask`` in a thread, handed to trio through a channel.

    A read given up on (the game moved on while the person was typing: an abort, a lost
    connection, an adjournment) is not lost: its thread goes on waiting, and the next read
    takes its line instead of starting a second reader on the same input.
    """

    def __init__(self, ask: Callable[[str], str]) -> None:
        self.ask = ask
        self._send, self._receive = trio.open_memory_channel[tuple[str, str]](8)
        self._busy = False

    async def read(self, prompt: str, prompt_again: Callable[[str], None]) -> str:
        """The next line (EOFError at the end of input)."""
        if self._receive.statistics().current_buffer_used == 0:
            if self._busy:
                prompt_again(prompt)  # the earlier question still waits for its line: this one takes it
            else:
                self._busy = True
                token = trio.lowlevel.current_trio_token()
                threading.Thread(target=self._run, args=(prompt, token), daemon=True).start()
        kind, line = await self._receive.receive()
        if kind == "eof":
            raise EOFError
        return line

    def _run(self, prompt: str, token: trio.lowlevel.TrioToken) -> None:
        try:
            item = ("line", self.ask(prompt))
        except EOFError:
            item = ("eof", "")
        except Exception:  # the input is gone (closed, not a text stream): as the end of input
            item = ("eof", "")

        def deliver() -> None:
            self._busy = False
            self._send.send_nowait(item)

        with contextlib.suppress(trio.RunFinishedError):
            trio.from_thread.run_sync(deliver, trio_token=token)


def _name(session: Session, seat: int) -> str:
    """ "You" for this session's seat, the seat's name for the others."""
    return "You" if seat == session.seat else session.name(seat)


def _pile_name(session: Session, state: GameState, token: int) -> str:
    """Where ``token`` lies in words: ``Turn-up``, ``Your payoff``, ``Bob's payoff``."""
    view = session.game.table_view(state, session.seat)
    for region in view.regions:
        for pile in region.piles:
            if token in pile.tokens:
                if region.owner is None:
                    return pile.label
                if region.owner == session.seat:
                    return f"Your {pile.label.lower()}"
                return f"{session.name(region.owner)}'s {pile.label.lower()}"
    return "Turned up"


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
