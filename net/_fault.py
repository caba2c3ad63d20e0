"""Fault injection for the tests: this process kills itself (SIGKILL) at an exact point of a game.

The tests of a game that survives crashes must crash a real ``fairdeal`` process at the
points that matter, which no outside timing can hit reliably: in the middle of a
shuffle, right after a guest sent its move and before the host relayed it, during the
audit. ``FAIRDEAL_CRASH=POINT`` names one point; nothing happens without it:

* ``accepted:KIND:N`` — right after the N-th accepted entry of KIND is written to the log
  (the host: before it is relayed to anyone);
* ``audit:N`` — right after the N-th entry accepted once the game is over (the audit);
* ``sent:KIND:N`` — right after this seat's N-th entry of KIND has gone out on the wire
  (a guest: before its echo comes back);
* ``heard:KIND:N`` — (the host) right after the N-th entry of KIND arrived from a guest,
  before it is checked or relayed.

It is a real ``kill -9`` of the whole process: no cleanup runs, no ``bye`` is sent.
"""

from __future__ import annotations

import os
import signal
from collections import Counter
from typing import Final

ENV: Final = "FAIRDEAL_CRASH"
_spec = os.environ.get(ENV, "").strip()
_seen: Counter[str] = Counter()


def _hit(key: str) -> None:
    _seen[key] += 1
    if f"{key}:{_seen[key]}" == _spec:
        os.kill(os.getpid(), signal.SIGKILL)


def reached(point: str, kind: str) -> None:
    """The game reached ``point`` (accepted, sent, heard) with an entry of ``kind``."""
    if _spec:
        _hit(f"{point}:{kind}")


def audit() -> None:
    """An entry was accepted after the game was over."""
    if _spec:
        _hit("audit")


def armed() -> bool:
    return bool(_spec)
