"""Adjourning as one seat sees it: the proposal in the air, who agreed, and this seat's vote.

Both front ends use :class:`Adjourning`: the network layer reports each vote
(:meth:`Adjourning.heard`) and gives the function that sends this seat's
(:meth:`Adjourning.ready`); the person proposes or agrees (:meth:`agree`) or declines
(:meth:`decline`). When every player has agreed, the host stops the game and everyone
keeps its log and seed, to go on later with ``fairdeal resume``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fairdeal.i18n import gettext as _


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
            if you:
                return _("You decline to adjourn: the game goes on.")
            return _("{name} declines to adjourn: the game goes on.").format(name=name)
        first = not self.agreed
        if name not in self.agreed:
            self.agreed.append(name)
        self.mine = self.mine or you
        self.missing = list(missing)
        if you and first:
            said = _("You propose to adjourn (stop now, go on later with fairdeal resume).")
        elif you:
            said = _("You agree to adjourn (stop now, go on later with fairdeal resume).")
        elif first:
            said = _("{name} proposes to adjourn (stop now, go on later with fairdeal resume).").format(
                name=name
            )
        else:
            said = _("{name} agrees to adjourn (stop now, go on later with fairdeal resume).").format(
                name=name
            )
        if not self.missing:
            return said
        waiting = _("Waiting for {names} to agree.").format(names=_(", ").join(self.missing))
        return f"{said} {waiting}"

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
