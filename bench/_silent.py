"""Silent links for ``bench/survive.py``: a home's Wi-Fi gone for a while, in network namespaces.

Real ``fairdeal host`` and ``fairdeal join`` processes, one per home namespace, around a real
``twist transitrelay`` in a public namespace (``tests/net/netns.py``), with the default
heartbeat, step timeout and grace. Joiners are seated one after the other, so each seat
always has the same ``--seed`` and a seeded game is the same game every time. The last
seat's home goes offline (its interface down: nothing sent, no FIN, no RST) once the host
has accepted the game's third move, for ``down`` seconds, and comes back on the same network.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.net.netns import Internet, NoNamespaces, why_not  # noqa: E402
from tests.net.peers import Peer, wait_for_code  # noqa: E402
from tests.net.timeline import Timeline  # noqa: E402

GAME = "snatch"
LIMIT = 600.0


@dataclass
class SilentRun:
    """One game: its entries, its wall time (header to last entry), and, with a drop, the seconds
    from the link's return to the next entry the host accepted from that seat."""

    entries: int
    wall: float
    back: float | None
    kinds: list[tuple[int, str]]


def unavailable() -> str | None:
    """Why these rows cannot run here, or None."""
    return why_not()


class Homes:
    """Enough homes for the largest game, and a folder for the processes' files."""

    def __init__(self, homes: int) -> None:
        os.environ["FAIRDEAL_LAN"] = "off"
        os.environ["FAIRDEAL_MAILBOX"] = "none"
        self.net = Internet(homes, Path(sys.executable).parent / "twist")
        self.tmp = Path(tempfile.mkdtemp(prefix="fairdeal-silent-"))
        self.runs = 0

    def close(self) -> None:
        self.net.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def play(self, players: int, seed: int, down: float | None) -> SilentRun:
        self.runs += 1
        tmp = self.tmp / f"run{self.runs}"
        tmp.mkdir()
        net = self.net
        code_file = tmp / "invite.txt"
        host = Peer(
            tmp, "host",
            ["host", GAME, "--players", str(players), "--seat", "bot", "--bind", "0.0.0.0",
             "--relay", net.relay_endpoint, "--invite-file", str(code_file), "--seed", str(seed)],
            prefix=net.homes[0].prefix, stderr_file=tmp / "host.err",
        )  # fmt: skip
        peers = [host]
        try:
            code = wait_for_code(code_file, host, limit=60)
            for n in range(1, players):  # one after the other: seat n is always home n, seed n
                peers.append(Peer(tmp, f"home{n}", ["join", code, "--seat", "bot", "--seed", str(seed + n)],
                                  prefix=net.homes[n].prefix, stderr_file=tmp / f"home{n}.err"))  # fmt: skip
                end = time.monotonic() + 60
                err = tmp / "host.err"
                while f"took seat {n} " not in " ".join(err.read_text().split()):
                    if time.monotonic() > end or host.proc.poll() is not None:
                        raise RuntimeError(f"seat {n} was not taken:\n{err.read_text()[-2000:]}")
                    time.sleep(0.02)
            timeline = Timeline(host.log).start()
            up = None
            last = players - 1
            if down is not None:
                timeline.wait_for(lambda es: sum(e.kind == "move" for e in es) >= 3, LIMIT,
                                  lambda: host.proc.poll() is None)  # fmt: skip
                home = net.homes[last]
                home.down()
                time.sleep(down)
                home.up()
                up = time.monotonic()
            for who, p in enumerate(peers):
                code_ = p.wait(LIMIT)
                if code_ != 0:
                    raise RuntimeError(f"seat {who} ended with {code_}:\n{p.err[-3000:]}")
            timeline.stop()
            es = timeline.entries
            back = None
            if up is not None:
                after = timeline.first_from(last, up)
                back = None if after is None else after.at - up
            return SilentRun(len(es), es[-1].at - es[0].at, back, [(e.seat, e.kind) for e in es])
        finally:
            for p in peers:
                if p.proc.poll() is None:
                    p.kill()
            if net.homes[players - 1].active != 0:
                net.homes[players - 1].move()


__all__ = ["GAME", "Homes", "NoNamespaces", "SilentRun", "unavailable"]
