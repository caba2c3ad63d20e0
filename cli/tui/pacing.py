"""When the table is redrawn: at once on this player's turn, else at most every :data:`REDRAW_EVERY`.

The game runs on the app's own loop (trio as its guest), so every redraw delays it: while the
game goes on without this player (the bots' moves, the first shuffle's passes), the redraws asked
for in between are one redraw. :class:`Redraws` keeps that pace for the app, with the app's
timers and callbacks.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from textual.message_pump import MessagePump
from textual.timer import Timer

#: Seconds between redraws while the game goes on without this player.
REDRAW_EVERY = 0.1


class Redraws:
    """Calls ``redraw`` on ``pump`` when one is asked for (:meth:`ask`), at the pace above."""

    def __init__(self, pump: MessagePump, redraw: Callable[[], None]) -> None:
        self._pump, self._redraw = pump, redraw
        self._due = False
        self._timer: Timer | None = None
        self._at = -math.inf  # time.monotonic() of the last redraw

    def ask(self, now: bool) -> None:
        """A redraw is wanted: ``now`` (this player is to move) at once, else when the pace allows."""
        if self._due and not (now and self._timer is not None):
            return
        self.stop()
        self._due = True
        wait = 0.0 if now else self._at + REDRAW_EVERY - time.monotonic()
        if wait > 0:
            self._timer = self._pump.set_timer(wait, self._redraw)
        else:
            self._pump.call_later(self._redraw)

    def begin(self) -> None:
        """A redraw begins: nothing is due until the next :meth:`ask`."""
        self._due = False
        self.stop()
        self._at = time.monotonic()

    def stop(self) -> None:
        """Stop the timer of a redraw that waits for the pace."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None


__all__ = ["REDRAW_EVERY", "Redraws"]
