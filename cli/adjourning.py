"""Adjourning as one seat sees it: the proposal in the air, who agreed, and this seat's vote.

Both front ends use :class:`Adjourning`: the network layer reports each vote
(:meth:`Adjourning.heard`) and gives the function that sends this seat's
(:meth:`Adjourning.ready`); the person proposes or agrees (:meth:`agree`) or declines
(:meth:`decline`). When every player has agreed, the host stops the game and everyone
keeps its log and seed, to go on later with ``fairdeal resume``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


class Adjourning:
    def __init__(self) -> None:
        self._vote: Callable[[bool], object] | None = None
        self.seat: int | None = None
        self.agreed: list[str] = []  # names, in the order they agreed
        self.missing: list[str] = []
        self.mine = False

    @property
    def available(self) -> bool:
        """Whether this seat can vote (a network game that has started)."""
        return self._vote is not None

    @property
    def open(self) -> bool:
        """Someone proposed to adjourn and nobody declined since."""
        return bool(self.agreed)

    @property
    def asking(self) -> bool:
        """Someone else proposed, and this seat, which can vote, has not agreed yet (a watcher is
        never asked)."""
        return self.available and self.open and not self.mine

    def ready(self, vote: Callable[[bool], object], seat: int | None) -> None:
        self._vote, self.seat = vote, seat

    def heard(self, seat: int, name: str, agree: bool, missing: Sequence[str]) -> str:
        """A vote was seen: returns what to tell the person."""
        you = seat == self.seat
        if not agree:
            self.agreed, self.mine, self.missing = [], False, []
            who = "You decline" if you else f"{name} declines"
            return f"{who} to adjourn: the game goes on."
        first = not self.agreed
        if name not in self.agreed:
            self.agreed.append(name)
        self.mine = self.mine or you
        self.missing = list(missing)
        waiting = f" Waiting for {', '.join(self.missing)} to agree." if self.missing else ""
        if you:
            verb = "propose" if first else "agree"
            return f"You {verb} to adjourn (stop now, go on later with fairdeal resume).{waiting}"
        verb = "proposes" if first else "agrees"
        return f"{name} {verb} to adjourn (stop now, go on later with fairdeal resume).{waiting}"

    def agree(self) -> bool:
        """Propose, or agree to, adjourning; False when that cannot be sent now."""
        if self._vote is None:
            return False
        return bool(self._vote(True))

    def decline(self) -> bool:
        if self._vote is None or not self.open:
            return False
        return bool(self._vote(False))


__all__ = ["Adjourning"]
