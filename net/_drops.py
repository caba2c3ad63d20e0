"""The lobby's dropped connections as the host hears of them: each one reported
(:class:`~fairdeal.net.events.Rejected`) up to a burst per window, and the rest counted by
reason for one summary line (:class:`~fairdeal.net.events.RejectedMany`) at the window's end,
so a flood of connections cannot flood the host's screen."""

from __future__ import annotations

import math
from collections import Counter
from typing import Final

import trio

from .events import Rejected, RejectedMany, Report
from .lobbyterms import LobbyLimits

_SUMMARY_REASONS: Final = 4


class Drops:
    """Reports drops one by one up to a burst per window, and counts the rest for one summary line."""

    def __init__(self, report: Report, limits: LobbyLimits) -> None:
        self.report, self.limits = report, limits
        self.window_end = -math.inf
        self.shown = 0
        self.hidden: Counter[str] = Counter()

    def drop(self, address: str, reason: str) -> None:
        now = trio.current_time()
        if now >= self.window_end:
            self.flush()
            self.window_end = now + self.limits.report_window
            self.shown = 0
        if self.shown < self.limits.report_burst:
            self.shown += 1
            self.report(Rejected(address, reason))
        else:
            self.hidden[reason] += 1

    def flush(self) -> None:
        if not self.hidden:
            return
        total = sum(self.hidden.values())
        top = dict(self.hidden.most_common(_SUMMARY_REASONS))
        rest = total - sum(top.values())
        if rest:
            top["other reasons"] = rest
        self.hidden.clear()
        self.report(RejectedMany(total, top, self.limits.report_window))

    async def run(self) -> None:
        """Flush the summary at the end of every window (until cancelled)."""
        try:
            while True:
                await trio.sleep(self.limits.report_window)
                if trio.current_time() >= self.window_end:
                    self.flush()
        finally:
            self.flush()


__all__ = ["Drops"]
