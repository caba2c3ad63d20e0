"""Text from a peer or a log never drives the reader's terminal: it is refused where it is parsed.

Every text field a host, a seat or a log file can write (the header's names, kinds, game,
plugin, distribution, version, option names and values, extra fields; an abort's reason; a
move's action and arguments; an entry's kind) is refused when it holds a control, format or
other category C character, live and by ``verify``, and the ``verify`` and ``replay``
commands print no escape of a log that holds one.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairdeal import registry
from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng
from fairdeal.core.rules import Move
from fairdeal.core.session.envelope import FORMAT_VERSION, GENESIS, Envelope, decode_envelope
from fairdeal.core.session.header import Header, SeatInfo
from fairdeal.core.session.logfile import MAGIC, record
from fairdeal.core.session.session import HEADER, Session
from fairdeal.core.session.verify import CHEATING, verify_log
from fairdeal.core.text import clean_text, shows_as_is

GAME = registry.load().game("ecarte")
HOST = Identity.generate(SeededRng(1))
GUEST = Identity.generate(SeededRng(2))
FULL = dict(GAME.config(2).options)
#: What a hostile writer would put in a text: set the window title, clear the screen, colour
#: the rest, a bidirectional override that reverses what follows, a line break, a line or
#: paragraph separator.
HOSTILE = [
    "Eve\x1b]0;owned\x07",
    "Eve\x1b[2J",
    "Eve\x1b[31m",
    "Eve\u202ekcehc",
    "Eve\nFAIR",
    "Eve\x00",
    "Eve\u200b",
    "Eve\u2028FAIR",
    "Eve\u2029FAIR",
]


def _header(**changes: Any) -> Header:
    header = Header(
        b"g" * 16,
        "ecarte",
        "ecarte",
        "fairdeal",
        "0",
        FULL,
        (SeatInfo("Host", HOST.public_key), SeatInfo("Guest", GUEST.public_key)),
    )
    return replace(header, **changes)


def _entry(header: Header) -> bytes:
    env = Envelope(FORMAT_VERSION, header.game_id, 0, HEADER, header.to_body())
    return env.signed(HOST).place(0, GENESIS, HOST).encode()


def _seats(name: str = "Host", kind: str = "player") -> tuple[SeatInfo, ...]:
    return (SeatInfo(name, HOST.public_key, kind), SeatInfo("Guest", GUEST.public_key))


FIELDS = {
    "seat name": lambda bad: _header(seats=_seats(name=bad)),
    "seat kind": lambda bad: _header(seats=_seats(kind=bad)),
    "game": lambda bad: _header(game=bad),
    "plugin": lambda bad: _header(plugin=bad),
    "distribution": lambda bad: _header(distribution=bad),
    "version": lambda bad: _header(version=bad),
    "option name": lambda bad: _header(options={**FULL, bad: True}),
    "option value": lambda bad: _header(options={**FULL, "target": bad}),
    "extra name": lambda bad: _header(extra={bad: "x"}),
    "extra value": lambda bad: _header(extra={"note": bad}),
}


@pytest.mark.parametrize("bad", HOSTILE)
@pytest.mark.parametrize("field", sorted(FIELDS))
def test_a_header_text_a_terminal_would_not_show_as_written_is_refused_live_and_by_verify(
    field: str, bad: str
) -> None:
    entry = _entry(FIELDS[field](bad))
    for seat, identity in ((None, None), (1, GUEST)):
        with pytest.raises(RemoteProtocolError, match="bad header") as info:
            Session(GAME, seat, identity).receive(entry)
        assert info.value.seat == 0
        assert "\x1b" not in str(info.value)
    report = verify_log(MAGIC + record(entry), lambda name: GAME)
    assert report.verdict == CHEATING and report.findings[0].seat == 0 and report.findings[0].entry == 0
    reason = report.findings[0].reason
    assert reason.startswith("bad header: ") and reason.count("bad header") == 1


def test_a_plain_header_with_every_field_written_is_accepted() -> None:
    header = _header(seats=_seats(name="Zoë 🂡 Ünal", kind="bot:classic"), extra={"note": ""})
    session = Session(GAME, 1, GUEST)
    session.receive(_entry(header))
    assert session.header is not None and session.header.seats[0].name == "Zoë 🂡 Ünal"


@pytest.mark.parametrize("bad", HOSTILE)
def test_a_move_or_an_entry_kind_with_such_text_is_refused(bad: str) -> None:
    with pytest.raises(RemoteProtocolError, match="plain text"):
        Move.from_wire([bad, []], seat=1)
    with pytest.raises(RemoteProtocolError, match="malformed move argument"):
        Move.from_wire(["play", [bad]], seat=1)
    env = Envelope(FORMAT_VERSION, b"g" * 16, 1, bad, {}).signed(GUEST)
    with pytest.raises(RemoteProtocolError, match="bad kind"):
        decode_envelope(env.encode())


@pytest.mark.parametrize("bad", HOSTILE)
def test_an_abort_is_written_with_a_clean_reason_and_a_dirty_one_is_refused(bad: str) -> None:
    host = Session(GAME, 0, HOST, SeededRng(3))
    guest = Session(GAME, 1, GUEST, SeededRng(4))
    header_entry = host.start(_header())
    host.receive(header_entry)
    guest.receive(header_entry)
    written = host.abort(1, f"seat 1 said {bad}")
    guest.receive(written)
    assert guest.aborted is not None and shows_as_is(guest.aborted.reason, 200)
    honest = decode_envelope(written)
    forged = replace(honest, body={**honest.body, "reason": f"seat 1 said {bad}"}).signed(HOST)
    forged_entry = forged.place(forged.seq, forged.prev, HOST).encode()
    late = Session(GAME, 1, GUEST, SeededRng(5))
    late.receive(header_entry)
    with pytest.raises(RemoteProtocolError, match="malformed abort entry"):
        late.receive(forged_entry)


def test_an_abort_whose_fields_are_out_of_order_is_refused() -> None:
    host = Session(GAME, 0, HOST, SeededRng(3))
    header_entry = host.start(_header())
    host.receive(header_entry)
    honest = decode_envelope(host.abort(1, "seat 1 left"))
    forged = replace(honest, body=dict(reversed(list(honest.body.items())))).signed(HOST)
    late = Session(GAME, 1, GUEST, SeededRng(5))
    late.receive(header_entry)
    with pytest.raises(RemoteProtocolError, match="malformed abort entry"):
        late.receive(forged.place(forged.seq, forged.prev, HOST).encode())


@given(st.text(max_size=60))
def test_clean_text_always_shows_as_written(text: str) -> None:
    shown = clean_text(text, 40)
    assert shows_as_is(shown, 40)
    if shows_as_is(text, 40):
        assert shown == " ".join(text.split())


def test_verify_and_replay_print_no_escape_of_a_hostile_log(tmp_path: Path) -> None:
    log = tmp_path / "hostile.fdlog"
    log.write_bytes(MAGIC + record(_entry(_header(seats=_seats(name="Eve\x1b]0;owned\x07\x1b[2J")))))
    for command in ("verify", "replay"):
        done = subprocess.run(
            [sys.executable, "-m", "fairdeal", command, str(log)],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode != 0, (command, done.stdout, done.stderr)
        assert "\x1b" not in done.stdout + done.stderr and "\x07" not in done.stdout + done.stderr
        assert "header" in (done.stdout + done.stderr).lower()


def test_a_game_whose_move_has_such_text_is_named_by_its_own_seat(stepper: Any, monkeypatch: Any) -> None:
    from fairdeal.core.errors import LocalProtocolError

    t = stepper("ecarte", 2, {})
    t.run_until(lambda t: (w := t.seats[0].waiting()) is not None and w.decision)
    w = t.seats[0].waiting()
    owner = t.seats[w.seat]
    # A plugin whose rules call it legal: the seat must not sign what every peer would refuse.
    monkeypatch.setattr(owner._c.replica, "check_move", lambda *a, **k: None)
    with pytest.raises(LocalProtocolError, match="peers would refuse") as info:
        owner.make_move(Move("play", ("8c\x1b[2J",)))
    assert "\x1b" not in str(info.value)
