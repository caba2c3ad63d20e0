"""Where a seat keeps what it needs to resume: the interface (:class:`Keeper`) the host and the
joiners tell of the table's code and port, the seed, each decision before it is sent, the chat
counters, and how the game ended; the CLI's seed file is one, :class:`~fairdeal.net.seeds.NoKeeper`
keeps nothing."""

from __future__ import annotations

from typing import Protocol


class Keeper(Protocol):
    """Where a seat keeps what it needs to resume (the CLI's seed file); every method may be a no-op."""

    def table(self, code: str, port: int) -> None:
        """(A host) the invite code it hands out and the port it listens on, to use them again."""

    def begin(self, seat: int, seed: bytes, grace: int) -> None:
        """The game started (the header is in the log): keep the seed before any entry uses it."""

    def sent(self, data: bytes) -> None:
        """A decision is about to be sent: keep it, to send it again rather than decide anew."""

    def chat(self, marks: tuple[int, ...]) -> None:
        """The chat counters changed (by seat: the last line sent or accepted): keep them."""

    def adjourned(self) -> None:
        """The game is adjourned: keep everything for later."""

    def finished(self) -> None:
        """The game is over for good: forget the secrets."""


__all__ = ["Keeper"]
