"""The person at the full-screen table, as the game's trio side sees them.

:class:`TablePlayer` is the agent of a human seat (``decide``) and the watcher of that
seat's session (``observe``), like the line-mode :class:`~fairdeal.cli.linemode.TerminalAgent`.
It runs on the trio side; it tells the table that something changed through
:attr:`~TablePlayer.on_change` (the app's ``schedule_refresh``, which goes through
``call_later``: the app and trio share one thread, trio runs as a guest of the app's asyncio
loop), and the app hands a chosen move back through the trio token (:meth:`choose`), so each
side only touches its own objects from its own callbacks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import trio

from fairdeal.core.rules import GameState, Move
from fairdeal.core.session import Event
from fairdeal.core.session.session import Session
from fairdeal.net.driver import RESIGN

from ..chronicle import Chronicle
from ..phrases import pile_name, turned_up


class TablePlayer:
    """A human seat played at the full-screen table."""

    def __init__(self, *, watching: bool = False) -> None:
        self.watching = watching  # a watcher: it never has a seat, so never a move or a vote
        #: Told that the table must be drawn again (True: a new turn begins); set by the app.
        self.on_change: Callable[[bool], None] | None = None
        self.session: Session | None = None
        self.chronicle: Chronicle | None = None
        self.moves: list[Move] | None = None  # the moves on offer while it is this seat's turn
        self.auto = False  # play a single forced move at once
        self._event: trio.Event | None = None
        self._choice: Move | None = None
        self._token: trio.lowlevel.TrioToken | None = None

    # -- trio side -----------------------------------------------------------------------------------
    def attach(self, session: Session) -> None:
        if self.session is None:
            self.session = session
            self.chronicle = Chronicle(session.seat, self._pile_name)

    def observe(self, session: Session, events: Sequence[Event]) -> None:
        """Called with this seat's events as they are accepted (trio side)."""
        self.attach(session)
        assert self.chronicle is not None
        self.chronicle.update(session, events)
        self._changed()

    async def decide(self, session: Session, moves: list[Move]) -> Move | None:
        """Offer the moves on the table; wait for the person's pick (or resignation)."""
        self.attach(session)
        if self.auto and len(moves) == 1:
            return moves[0]
        self._token = trio.lowlevel.current_trio_token()
        self._event = trio.Event()
        self._choice = None
        self.moves = moves
        self._changed(new_turn=True)
        try:
            await self._event.wait()
        finally:
            self.moves = None
            self._event = None
            self._changed()
        return self._choice

    def _changed(self, new_turn: bool = False) -> None:
        if self.on_change is not None:
            self.on_change(new_turn)

    def _deliver(self, move: Move | None) -> None:
        if self._event is not None and not self._event.is_set():
            self._choice = move
            self._event.set()

    # -- app side ------------------------------------------------------------------------------------
    def choose(self, move: Move | None) -> None:
        """The person picked ``move`` (None: resign). Safe to call from the app."""
        if self._token is not None:
            self._token.run_sync_soon(self._deliver, move)

    def resign(self) -> None:
        self.choose(RESIGN)

    @property
    def deciding(self) -> bool:
        return self.moves is not None

    def view(self) -> GameState | None:
        return self.session.view() if self.session is not None else None

    def _pile_name(self, state: GameState, token: int) -> str:
        """``Bob's payoff`` / ``Your payoff`` / ``Turn-up``: where ``token`` lies, in words."""
        assert self.session is not None
        view = self.session.game.table_view(state, self.session.seat)
        for region in view.regions:
            for pile in region.piles:
                if token in pile.tokens:
                    owner = region.owner
                    name = self.session.name(owner) if owner is not None else ""
                    return pile_name(pile.label, owner, self.session.seat, name)
        return turned_up()


def move_index(moves: Sequence[Move], move: Any) -> int:
    return list(moves).index(move)


__all__ = ["TablePlayer"]
