"""Network play at the full-screen table, on the trio side: the ``report`` the network layer is given.

:class:`TableReport` is the ``report`` (:mod:`fairdeal.net.events`) of a host, a joiner or a
watcher playing at the table. The seat's accepted entries (``Applied``) go at once to its
:class:`~.player.TablePlayer`, whose story reads the session as it stands after each entry;
every other event goes to the app as a :class:`~.netshow.NetReport` message, which the app
handles in order on its side (:class:`~.netshow.NetShow` says what it shows).
"""

from __future__ import annotations

from fairdeal.net import events as ev

from .app import TableApp
from .netshow import NetReport
from .player import TablePlayer


class TableReport:
    """Reports network play into a :class:`TableApp` (set :attr:`app` before the game runs)."""

    def __init__(self, player: TablePlayer | None) -> None:
        self.app: TableApp | None = None
        self.player = player

    def __call__(self, event: ev.NetEvent) -> None:
        match event:
            case ev.Applied(session, events):
                if self.player is not None:
                    self.player.observe(session, events)
            case _:
                if self.app is not None:
                    self.app.post_message(NetReport(event))


__all__ = ["TableReport"]
