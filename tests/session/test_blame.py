"""Blame only what a signature proves: a log whose chain is broken names no author.

Where an entry sits (its sequence number and the hash it follows) is the host's doing, not its
author's. A log with an entry dropped, repeated or moved was damaged or altered after the host
placed it: ``verify`` says so and names no seat; a guest that the host sends an entry out of
place refuses it without blaming the entry's author.
"""

from __future__ import annotations

from functools import cache

import pytest

from fairdeal import registry
from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.session.logfile import MAGIC, parse_log, record
from fairdeal.core.session.session import Session
from fairdeal.core.session.verify import verify_log
from fairdeal.testing import play_with_protocol, seat_sessions


@cache
def _entries() -> tuple[bytes, ...]:
    reg = registry.load()
    game = reg.game("ecarte")
    played = play_with_protocol(game, 2, 3, {"target": 1}, [reg.bot("ecarte").make() for _ in range(2)])
    return parse_log(played.log).entries


def _log(entries: list[bytes]) -> bytes:
    return MAGIC + b"".join(record(e) for e in entries)


def _author(entry: bytes) -> int:
    from fairdeal.core.session.envelope import decode_envelope

    return decode_envelope(entry).seat


CUTS = {  # how, and the first position where the log is not what the host placed
    "dropped": (lambda es: es[:9] + es[10:], 9),
    "repeated": (lambda es: es[:10] + es[9:], 10),
    "moved": (lambda es: es[:9] + es[10:12] + [es[9]] + es[12:], 9),
}


@pytest.mark.parametrize("how", sorted(CUTS))
def test_a_broken_chain_names_no_author(how: str) -> None:
    entries = list(_entries())
    cut, where = CUTS[how]
    broken = cut(entries)
    report = verify_log(_log(broken), registry.load().game)
    assert report.verdict == "damaged", report.findings
    (finding,) = report.findings
    assert finding.seat is None and finding.entry == where, finding
    assert "damaged or altered" in finding.reason
    # What came before the break was checked, and the shuffles it holds are proven.
    assert any("shuffles proven fair" in c for c in report.checked)
    assert report.exit_code == 1


def test_a_guest_sent_an_entry_out_of_place_does_not_blame_its_author() -> None:
    entries = list(_entries())
    reg = registry.load()
    game = reg.game("ecarte")
    table = seat_sessions(game, 2, 3, {"target": 1})
    guest: Session = table.sessions[1]
    for e in entries[:9]:
        guest.receive(e)
    author = _author(entries[10])
    with pytest.raises(RemoteProtocolError) as refused:
        guest.receive(entries[10])
    assert refused.value.seat is None, refused.value
    assert f"seat {author}" not in str(refused.value)
    assert "out of place" in refused.value.reason
