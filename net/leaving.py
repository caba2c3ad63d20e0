"""Leaving on purpose: the action a front end is offered to stop this end's game with a goodbye.

A person who stops their game (Ctrl-C, or "leave" at the table) leaves on purpose, and the
others must be told so, never left to wait for a dropped link. :class:`Leaving` is that
action (:class:`~fairdeal.net.events.TableReady` offers its :meth:`~Leaving.leave`): it
cancels only what runs under its :meth:`~Leaving.scope` — the play, a wait to reach the host
again — so the links are still up for the goodbyes the code says as it unwinds (``bye``
with why). Cancelling the whole game instead kills the links' writers before their ``bye``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Final

import trio

YOU_LEFT: Final = "you left the game"
"""Why this end's game stopped when its own person left it."""


class Leaving:
    """Whether this end's person left (:attr:`left`), and the scopes :meth:`leave` cancels."""

    def __init__(self) -> None:
        self.left = False
        self._scopes: set[trio.CancelScope] = set()

    def leave(self) -> None:
        """Leave the game: stop what runs under :meth:`scope` (on the trio side; idempotent)."""
        self.left = True
        for scope in list(self._scopes):
            scope.cancel()

    @contextlib.contextmanager
    def scope(self) -> Iterator[trio.CancelScope]:
        """A scope that :meth:`leave` cancels (at once, when this end has left already)."""
        with trio.CancelScope() as scope:
            if self.left:
                scope.cancel()
            self._scopes.add(scope)
            try:
                yield scope
            finally:
                self._scopes.discard(scope)


__all__ = ["YOU_LEFT", "Leaving"]
