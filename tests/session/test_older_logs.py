"""Logs of log protocol 3, written before hand-overs, still verify fair by their own rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from fairdeal import registry
from fairdeal.core.session.logfile import parse_log
from fairdeal.core.session.session import Session
from fairdeal.core.session.verify import verify_log

DATA = Path(__file__).resolve().parent / "data"


@pytest.mark.parametrize("name", ["ecarte", "snatch", "spite-malice"])
def test_a_protocol_3_log_of_every_game_verifies_fair(name: str) -> None:
    data = (DATA / f"{name}-protocol3.fdlog").read_bytes()
    report = verify_log(data, registry.load().game)
    assert report.verdict == "fair", report.findings
    assert report.header is not None and report.header.protocol == 3
    watcher = Session(registry.load().game(name), None)  # replayed entry by entry as a watcher would
    for entry in parse_log(data).entries:
        watcher.receive(entry)
    assert watcher.finished and watcher.deck.protocol == 3
