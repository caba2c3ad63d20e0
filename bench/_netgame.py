"""What the network benchmarks share: a log kept in memory, and a host observer that seats joiners."""

from __future__ import annotations

from collections.abc import Sequence

import trio

from fairdeal.core.session.logfile import MAGIC, record
from fairdeal.net.invite import Invite
from fairdeal.net.lobby import Joiner
from fairdeal.net.netplay import NetObserver
from fairdeal.net.wire import Lobby


class MemoryLog:
    """A seat's log file, in memory: the same bytes a ``LogWriter`` would write."""

    def __init__(self) -> None:
        self.data = bytearray(MAGIC)

    def append(self, entry: bytes) -> None:
        self.data += record(entry)

    def close(self) -> None:
        pass


class Seating(NetObserver):
    """The host's observer for a benchmark: the invite when it listens, and joiners seated one by one."""

    def __init__(self) -> None:
        self.invite: Invite | None = None
        self.code = ""
        self.listening_now = trio.Event()
        self.relay_up = trio.Event()
        self.seated = 0
        self.changed = trio.Event()

    def listening(self, code: str, invite: Invite, bound: Sequence[str]) -> None:
        self.code, self.invite = code, invite
        self.listening_now.set()

    def relay_ready(self, relay: str) -> None:
        self.relay_up.set()

    def joined(self, joiner: Joiner, lobby: Lobby) -> None:
        self.seated += 1
        self.changed.set()
        self.changed = trio.Event()

    async def wait_seated(self, count: int) -> None:
        """Until ``count`` joiners have taken their seats."""
        while self.seated < count:
            await self.changed.wait()


def same_game(a: bytes, b: bytes) -> bool:
    """Whether two logs hold the same game: the same entries, each as its author wrote it.

    Entries several seats owed at once go into a log in the order they reached the host,
    so two runs of one seeded game may place them differently (and the hashes that later
    entries answer differ with them); what each seat wrote (its kind and body) is the same.
    """
    import msgpack

    from fairdeal.core.session.envelope import decode_envelope
    from fairdeal.core.session.logfile import parse_log

    def written(log: bytes) -> list[tuple[int, str, bytes]]:
        envs = [decode_envelope(e) for e in parse_log(log).entries]
        return sorted((e.seat, e.kind, msgpack.packb(e.body, use_bin_type=True)) for e in envs)

    return written(a) == written(b)
