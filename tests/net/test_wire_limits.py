"""Link messages at the exact edge of every limit: the largest allowed passes, one more is refused.

These hold the bounds themselves in place (a mutation run found that nothing else did):
an off-by-one in a size check is a check that is wrong for someone.
"""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError
from fairdeal.core.session.header import MAX_NAME, MAX_SEATS
from fairdeal.net import wire
from fairdeal.net.framing import MessageReassembler


def raw(obj: dict[str, Any]) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def welcome(options: dict[Any, Any]) -> dict[str, Any]:
    return {"type": "welcome", "protocol": wire.PROTOCOL, "seat": 1, "players": 2, "game": "ecarte",
            "distribution": "fairdeal", "version": "1", "options": options, "grace": 120}  # fmt: skip


def test_an_entry_of_one_byte_is_the_smallest() -> None:
    assert wire.decode(raw({"type": "entry", "data": b"\x01"})) == wire.Entry(b"\x01")
    with pytest.raises(RemoteProtocolError, match="data must be"):
        wire.decode(raw({"type": "entry", "data": b""}))


def test_the_largest_entry_passes_and_one_byte_more_is_refused() -> None:
    assert wire.decode(raw({"type": "entry", "data": b"x" * wire.MAX_ENTRY})).data == b"x" * wire.MAX_ENTRY
    with pytest.raises(RemoteProtocolError):
        wire.decode(raw({"type": "entry", "data": b"x" * (wire.MAX_ENTRY + 1)}))


def test_option_names_are_1_to_40_characters_of_text() -> None:
    ok = wire.decode(raw(welcome({"n" * MAX_NAME: 1})))
    assert isinstance(ok, wire.Welcome) and list(ok.options) == ["n" * MAX_NAME]
    for bad in ("", "n" * (MAX_NAME + 1), b"bytes"):
        with pytest.raises(RemoteProtocolError, match="option name"):
            wire.decode(raw(welcome({bad: 1})))


def test_at_most_64_options_in_a_map() -> None:
    most = {f"o{i}": i for i in range(wire.MAX_OPTIONS)}
    assert len(wire.decode(raw(welcome(most))).options) == wire.MAX_OPTIONS  # type: ignore[attr-defined]
    with pytest.raises(RemoteProtocolError, match="options"):
        wire.decode(raw(welcome({**most, "one-more": 1})))
    with pytest.raises(RemoteProtocolError, match="options"):
        wire.decode(raw(welcome([1, 2, 3])))  # type: ignore[arg-type]


def test_a_lobby_of_ten_seats_is_the_largest() -> None:
    seat = {"name": "Bob", "fingerprint": "fd1-aaaa-bbbb-cccc-dddd", "kind": "bot"}
    assert len(wire.decode(raw({"type": "lobby", "seats": [seat] * MAX_SEATS})).seats) == MAX_SEATS  # type: ignore[attr-defined]
    with pytest.raises(RemoteProtocolError):
        wire.decode(raw({"type": "lobby", "seats": [seat] * (MAX_SEATS + 1)}))


def test_a_message_over_16_kib_that_is_not_an_entry_is_refused_before_it_is_decoded() -> None:
    # No valid message but an entry comes near 16 KiB (a welcome with 64 long options is about
    # 15 KiB), so where exactly the bound falls changes nothing for an honest peer; what matters
    # is that bigger ones are turned away by their size alone.
    big = raw({"type": "ready", "name": "x" * wire.MAX_CONTROL, "kind": "bot"})
    with pytest.raises(RemoteProtocolError, match="that is not an entry"):
        wire.decode(big)
    two_fields = raw({"type": "ping", "n": "x" * wire.MAX_CONTROL})  # starts like an entry's map
    with pytest.raises(RemoteProtocolError, match="over the limit"):
        wire.decode(two_fields)
    most = {f"option-{i:02d}-{'k' * 30}": "v" * 200 for i in range(wire.MAX_OPTIONS)}
    assert len(raw(welcome(most))) < wire.MAX_CONTROL
    assert isinstance(wire.decode(raw(welcome(most))), wire.Welcome)


def test_a_reassembler_takes_any_limit_its_4_byte_header_can_say() -> None:
    MessageReassembler(2**32 - 1)
    MessageReassembler(1)
    with pytest.raises(LocalProtocolError, match="4-byte length"):
        MessageReassembler(2**32)
    with pytest.raises(LocalProtocolError, match="4-byte length"):
        MessageReassembler(0)


def test_a_chat_line_carries_a_whole_signature() -> None:
    line = {"type": "chat", "seat": 1, "n": 0, "text": "hi", "sig": bytes(64)}
    assert wire.decode(raw(line)) == wire.Chat(1, 0, "hi", bytes(64))
    for bad in (bytes(63), bytes(65), "s" * 64):
        with pytest.raises(RemoteProtocolError, match="sig must be 64 bytes"):
            wire.decode(raw({**line, "sig": bad}))
