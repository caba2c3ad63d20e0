"""What a clean end of a game played over the protocol is, as the tests of the drivers check it."""

from __future__ import annotations

from typing import Any

from fairdeal.core.session.verify import FAIR, UNDECIDED, Report, verify_log
from fairdeal.net.driver import stalled
from fairdeal.testing import ProtocolGame


def check_clean_end(played: ProtocolGame, game: Any) -> Report:
    """Every seat holds the host's log and ended as its session says: the game finished fair, or —
    every seat out of it, nobody left to sign its end — every driver stopped saying so, and the log
    is what it is (undecided: nobody signed the end). Returns what ``fairdeal verify`` says."""
    host = played.session
    report = verify_log(played.log, lambda name: game)
    for o in played.outcomes:
        assert (o.session.seq, o.session.last_hash) == (host.seq, host.last_hash), o.session.seat
    if host.finished:
        for o in played.outcomes:
            assert o.error is None and o.session.finished and o.session.aborted is None, o.error
        assert report.verdict == FAIR, report
        return report
    assert host.owing() == () and host.departed == frozenset(range(host.header.players))
    for o in played.outcomes:
        assert o.session.owing() == () and o.error == stalled(o.session), o.error
    assert report.verdict == UNDECIDED and "before every seat signed the end" in report.findings[0].reason
    return report
