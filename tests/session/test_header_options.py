"""A log's header carries every rule option exactly typed: ``1`` is not ``true``."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from fairdeal import registry
from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng
from fairdeal.core.session.envelope import FORMAT_VERSION, GENESIS, Envelope
from fairdeal.core.session.header import Header, SeatInfo
from fairdeal.core.session.logfile import MAGIC, record
from fairdeal.core.session.session import HEADER, Session
from fairdeal.core.session.verify import CHEATING, verify_log

GAME = registry.load().game("ecarte")
HOST = Identity.generate(SeededRng(1))
GUEST = Identity.generate(SeededRng(2))


def _header_entry(options: dict[str, Any]) -> bytes:
    header = Header(
        b"g" * 16,
        "ecarte",
        "ecarte",
        "fairdeal",
        "0",
        options,
        (SeatInfo("Host", HOST.public_key), SeatInfo("Guest", GUEST.public_key)),
    )
    return _placed(header)


def _placed(header: Header) -> bytes:
    """The header entry as the host writes it: signed, and placed at 0."""
    env = Envelope(FORMAT_VERSION, header.game_id, 0, HEADER, header.to_body()).signed(HOST)
    return env.place(0, GENESIS, HOST).encode()


FULL = dict(GAME.config(2).options)


@pytest.mark.parametrize(
    "options",
    [
        {**FULL, "trump_when_void": 1},
        {**FULL, "trump_when_void": "true"},
        {**FULL, "target": "5"},
        {**FULL, "target": True},
        {k: v for k, v in FULL.items() if k != "target"},
        {**FULL, "jokers": False},
    ],
    ids=["bool-as-1", "bool-as-text", "int-as-text", "int-as-bool", "one-missing", "one-unknown"],
)
def test_a_loosely_typed_header_is_refused_live_and_by_verify(options: dict[str, Any]) -> None:
    entry = _header_entry(options)
    for seat, identity in ((None, None), (1, GUEST)):
        with pytest.raises(RemoteProtocolError, match="bad header") as info:
            Session(GAME, seat, identity).receive(entry)
        assert info.value.seat == 0
    report = verify_log(MAGIC + record(entry), lambda name: GAME)
    assert report.verdict == CHEATING and report.findings[0].seat == 0 and report.findings[0].entry == 0


def test_an_exactly_typed_header_is_accepted() -> None:
    session = Session(GAME, 1, GUEST)
    session.receive(_header_entry({**FULL, "trump_when_void": True}))
    assert session.header.options["trump_when_void"] is True


def test_a_log_of_another_protocol_version_is_not_checked_and_says_so() -> None:
    header = Header(
        b"g" * 16, "ecarte", "ecarte", "fairdeal", "0", FULL,
        (SeatInfo("Host", HOST.public_key), SeatInfo("Guest", GUEST.public_key)), protocol=1,
    )  # fmt: skip
    entry = _placed(header)
    report = verify_log(MAGIC + record(entry), lambda name: GAME)
    assert report.verdict == "other version" and report.exit_code == 3
    assert "written with protocol 1" in report.findings[0].reason
    assert "this fairdeal checks protocols 3 and 4" in report.findings[0].reason
    with pytest.raises(RemoteProtocolError, match="unsupported protocol 1"):
        Session(GAME, None).receive(entry)


def test_a_log_of_the_first_envelope_format_is_not_checked_and_says_so() -> None:
    # format 1 envelopes had 8 fields and no anchor
    old = msgpack.packb([1, b"g" * 16, 0, bytes(32), 0, "header", {}, bytes(64)], use_bin_type=True)
    report = verify_log(MAGIC + record(old), lambda name: GAME)
    assert report.verdict == "other version" and "another version of fairdeal" in report.findings[0].reason


def test_a_log_of_the_second_envelope_format_is_not_checked_and_says_so() -> None:
    # format 2 envelopes had 9 fields: seq and prev unsigned by anyone, no placement signature
    old = msgpack.packb(
        [2, b"g" * 16, 0, bytes(32), bytes(32), 0, "header", {"protocol": 2}, bytes(64)], use_bin_type=True
    )
    report = verify_log(MAGIC + record(old), lambda name: GAME)
    assert report.verdict == "other version" and "another version of fairdeal" in report.findings[0].reason
    assert f"this one reads format {FORMAT_VERSION}" in report.findings[0].reason
