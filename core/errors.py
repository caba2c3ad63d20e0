"""One error hierarchy for fairdeal, saying who is to blame.

Like h11's ``LocalProtocolError`` / ``RemoteProtocolError``: a
:class:`RemoteProtocolError` means a peer sent something wrong (it names the seat
or peer and the reason); a :class:`LocalProtocolError` means this program was
asked to do something the protocol or the rules forbid. Messages never contain
secrets.
"""

from __future__ import annotations


class FairdealError(Exception):
    """Base class of every error fairdeal raises on purpose."""


class ConfigError(FairdealError):
    """A bad game name, option, seat kind or plugin: the user's input is wrong."""


class PluginError(FairdealError):
    """A plugin failed to load or registered something invalid."""


class ProtocolError(FairdealError):
    """A protocol or rules violation. ``seat`` names the culprit where known."""

    def __init__(self, reason: str, *, seat: int | None = None, peer: str | None = None) -> None:
        self.reason = reason
        self.seat = seat
        self.peer = peer
        super().__init__(self._text())

    def _text(self) -> str:
        who = []
        if self.seat is not None:
            who.append(f"seat {self.seat}")
        if self.peer is not None:
            who.append(self.peer)
        return f"{' / '.join(who)}: {self.reason}" if who else self.reason


class LocalProtocolError(ProtocolError):
    """We were asked to do something the protocol or the rules forbid."""


class RemoteProtocolError(ProtocolError):
    """A peer sent something invalid; ``seat``/``peer`` say which one."""


class IllegalMove(LocalProtocolError):
    """The local player asked for a move that is not legal now."""
