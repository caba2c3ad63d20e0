"""How long each seat has held the step it owes: the bounds the host times a step by.

A step's *time* (``host --timeout`` for an obligation, ``--move-timeout`` for a decision) counts
while its seat is not away — heard or quiet alike: a seat that goes quiet and then pings gets
nothing back. While the seat is away its grace period runs instead. Coming back, the seat has
the step's whole time again, but a step never counts more than twice its time in all; and its
seat's absences during the step add up to at most the grace period. So one seat holds one step
for at most twice its time plus the grace period, however it drops, comes back or goes quiet.

:class:`Steps` is told when seats go away and come back, and asked, at any moment, how much of
its time and of its grace a seat's step has left. It does no I/O and reads no clock: every
method takes ``now``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class _Step:
    """One seat's step: ``anchor`` the point it answers; ``time`` its time; ``allowed`` the time not
    away it may take (its time, more after coming back, at most twice it); ``away`` the time away
    during it, in absences that ended."""

    anchor: bytes
    start: float
    time: float
    allowed: float
    away: float = 0.0


class Steps:
    """Each seat's current step and absence (see the module)."""

    def __init__(self, grace: float) -> None:
        self.grace = grace
        self._steps: dict[int, _Step] = {}
        self._away: dict[int, float] = {}  # seat -> when its absence began

    def owe(self, seat: int, anchor: bytes, time: float, now: float) -> None:
        """``seat`` owes the step at ``anchor``, of ``time`` seconds: from ``now`` if it is new."""
        step = self._steps.get(seat)
        if step is None or step.anchor != anchor:
            self._steps[seat] = _Step(anchor, now, time, time)

    def went_away(self, seat: int, now: float) -> None:
        self._away.setdefault(seat, now)

    def came_back(self, seat: int, now: float) -> None:
        """``seat`` is back: the absence adds to its step's, and the step has its whole time again,
        within twice its time in all."""
        began = self._away.pop(seat, None)
        step = self._steps.get(seat)
        if began is None or step is None:
            return
        step.away += now - max(began, step.start)
        step.allowed = max(step.allowed, min(self.used(seat, now) + step.time, 2 * step.time))

    def used(self, seat: int, now: float) -> float:
        """Time ``seat``'s step has counted: since it began, but for the seat's absences."""
        step = self._steps[seat]
        return now - step.start - self.away(seat, now)

    def away(self, seat: int, now: float) -> float:
        """Time ``seat`` has been away during its step."""
        step = self._steps[seat]
        began = self._away.get(seat)
        return step.away + (0.0 if began is None else max(0.0, now - max(began, step.start)))

    def runs_out(self, seat: int, now: float) -> float:
        """When ``seat``'s step runs out of time if the seat stays (before ``now``: it has)."""
        return now + self._steps[seat].allowed - self.used(seat, now)

    def grace_ends(self, seat: int, now: float) -> float:
        """When ``seat``'s absences during its step reach the grace period if it stays away."""
        return now + self.grace - self.away(seat, now)

    def absent_since(self, seat: int) -> float | None:
        return self._away.get(seat)


__all__ = ["Steps"]
