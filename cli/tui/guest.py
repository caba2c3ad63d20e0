"""The game as trio's guest on the app's asyncio loop: started, called into, cancelled, waited for.

The game (local play, hosting or joining) is a trio function. :class:`GuestGame` runs it with
``trio.lowlevel.start_guest_run`` on the running asyncio loop: one thread, two event loops taking
turns, no polling. The app reaches the trio side only through it (:meth:`~GuestGame.call`, the
trio token's ``run_sync_soon``, so the links are touched from trio's own callbacks), and learns
of the end through the ``done`` it gives :meth:`~GuestGame.start`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import trio

#: The trio function that plays the game.
GameRunner = Callable[[], Awaitable[Any]]
#: Seconds the closing app waits for the cancelled game to wind down.
TRIO_STOP_LIMIT = 10.0


class GuestGame:
    """``run`` played as trio's guest; :attr:`outcome` is trio's ``Outcome`` of it once it is done."""

    def __init__(self, run: GameRunner) -> None:
        self.run = run
        self.outcome: Any = None
        self._started = False
        self._finished = asyncio.Event()
        self._done: Callable[[], object] = lambda: None
        self._cancel: trio.CancelScope | None = None
        self._token: trio.lowlevel.TrioToken | None = None

    def start(self, done: Callable[[], object]) -> None:
        """Start the game on the running asyncio loop; ``done()`` once trio has ended."""
        loop = asyncio.get_running_loop()
        self._done = done
        self._started = True
        trio.lowlevel.start_guest_run(
            self._main,
            run_sync_soon_threadsafe=loop.call_soon_threadsafe,
            run_sync_soon_not_threadsafe=loop.call_soon,
            done_callback=self._ended,
            host_uses_signal_set_wakeup_fd=True,
        )

    async def _main(self) -> Any:
        self._token = trio.lowlevel.current_trio_token()
        with trio.CancelScope() as scope:
            self._cancel = scope
            return await self.run()
        return None

    def _ended(self, outcome: Any) -> None:
        self.outcome = outcome
        self._finished.set()
        self._done()

    @property
    def running(self) -> bool:
        """Started and not ended yet."""
        return self._started and not self._finished.is_set()

    def call(self, fn: Callable[..., object], *args: object) -> None:
        """Call ``fn(*args)`` soon on the trio side; nothing before trio runs or once it has ended."""
        if self._token is not None:
            with contextlib.suppress(trio.RunFinishedError):
                self._token.run_sync_soon(fn, *args)

    def cancel(self) -> None:
        """Cancel the game: it ends as it stands (the log kept), and ``done`` follows."""
        if self._cancel is not None:
            self.call(self._cancel.cancel)

    async def wind_down(self, limit: float = TRIO_STOP_LIMIT) -> None:
        """Cancel a game still running and wait, at most ``limit`` seconds, for trio to end (no guest
        run may outlive its loop)."""
        if not self.running:
            return
        self.cancel()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._finished.wait(), limit)


__all__ = ["TRIO_STOP_LIMIT", "GameRunner", "GuestGame"]
