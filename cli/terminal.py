"""The terminal player: shows the table, lists the legal moves, reads the choice."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

import click
import trio

from fairdeal.core.cards import Card
from fairdeal.core.rules import FaceDown, Line, Move
from fairdeal.core.session.session import Event, MoveMade, Session
from fairdeal.net.driver import RESIGN

HELP = """Type the number of a move, or:
  help    this text
  rules   the rules of the game
  log     the last actions
  table   show the table again
  quit    resign the game (asks first)"""


def line_text(line: Line, ascii: bool = False) -> str:
    parts = []
    for seg in line:
        if isinstance(seg, Card):
            parts.append(seg.text(ascii))
        elif isinstance(seg, FaceDown):
            parts.append("[?]" if seg.count == 1 else f"[?]x{seg.count}" if seg.count else "")
        else:
            parts.append(str(seg))
    text = ""
    for p in parts:
        if text and not text.endswith((" ", "(")) and p and not p.startswith((" ", ",", ")", ":")):
            text += " "
        text += p
    return text


class TerminalAgent:
    """A person at this terminal, deciding for one seat."""

    def __init__(
        self, ascii: bool = False, echo: Callable[[str], None] = click.echo, ask: Callable[[str], str] = input
    ) -> None:
        self.ascii = ascii
        self.echo = echo
        self.ask = ask
        self.recent: deque[str] = deque(maxlen=12)

    def observe(self, session: Session, events: Sequence[Event]) -> None:
        for ev in events:
            if isinstance(ev, MoveMade):
                self.recent.append(ev.text)
                if ev.seat != session.seat:
                    self.echo(f"  {ev.text}")

    def show_table(self, session: Session) -> None:
        view = session.view()
        if view is None:
            return
        self.echo("")
        for line in session.game.render(view, session.seat):
            self.echo(line_text(line, self.ascii))

    async def decide(self, session: Session, moves: list[Move]) -> Move | None:
        assert session.seat is not None
        view = session.view()
        assert view is not None
        self.show_table(session)
        self.echo("Your moves:")
        for i, m in enumerate(moves, 1):
            self.echo(f"  {i:>2}. {session.game.describe(view, session.seat, m)}")
        while True:
            try:
                raw = await trio.to_thread.run_sync(self.ask, "Your move: ", abandon_on_cancel=True)
            except EOFError:
                return RESIGN
            text = raw.strip().lower()
            if text.isdigit() and 1 <= int(text) <= len(moves):
                return moves[int(text) - 1]
            if text in ("help", "h", "?"):
                self.echo(HELP)
            elif text == "rules":
                self.echo(session.game.rules_text())
            elif text == "log":
                self.echo("\n".join(self.recent) or "Nothing has happened yet.")
            elif text == "table":
                self.show_table(session)
            elif text in ("quit", "q", "resign"):
                answer = await trio.to_thread.run_sync(
                    self.ask, "Resign this game? [y/N] ", abandon_on_cancel=True
                )
                if answer.strip().lower() in ("y", "yes"):
                    return RESIGN
            elif text:
                self.echo(f"Type a number from 1 to {len(moves)}, or help.")
