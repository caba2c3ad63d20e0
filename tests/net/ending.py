"""What a clean end of a game played over the protocol is, as the tests of the drivers check it."""

from __future__ import annotations

from typing import Any

from fairdeal.core.session.verify import FAIR, Report, verify_log
from fairdeal.testing import ProtocolGame


def check_clean_end(played: ProtocolGame, game: Any) -> Report:
    """Every seat holds the host's log, finished with no error and nobody blamed, and the log is
    fair (a game every seat left, nobody left to sign its end, too). Returns what ``fairdeal
    verify`` says of it."""
    host = played.session
    report = verify_log(played.log, lambda name: game)
    for o in played.outcomes:
        assert (o.session.seq, o.session.last_hash) == (host.seq, host.last_hash), o.session.seat
        assert o.error is None and o.session.finished and o.session.aborted is None, o.error
    assert report.verdict == FAIR, report
    return report
