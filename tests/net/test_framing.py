"""Wire frames and application-message reassembly, including property tests."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError
from fairdeal.net.framing import (
    MAX_APP_MESSAGE,
    MAX_FRAME_LEN,
    MAX_TRANSPORT_PLAINTEXT,
    FrameDecoder,
    MessageReassembler,
    encode_frame,
    split_message,
)

FRAME_BUFFER_LIMIT = MAX_FRAME_LEN + 2


def _rechunk(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` cut at the given offsets (taken modulo its length)."""
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


# -- frames ----------------------------------------------------------------------------


def test_encode_frame() -> None:
    assert encode_frame(b"abc") == b"\x00\x03abc"
    assert encode_frame(b"x" * MAX_FRAME_LEN)[:2] == b"\xff\xff"
    with pytest.raises(LocalProtocolError):
        encode_frame(b"")
    with pytest.raises(LocalProtocolError):
        encode_frame(b"x" * (MAX_FRAME_LEN + 1))


@settings(max_examples=200, deadline=None)
@given(
    frames=st.lists(st.binary(min_size=1, max_size=300), max_size=12),
    cuts=st.lists(st.integers(min_value=0), max_size=20),
)
def test_frames_round_trip_under_any_chunking(frames: list[bytes], cuts: list[int]) -> None:
    wire = b"".join(encode_frame(f) for f in frames)
    decoder = FrameDecoder()
    out: list[bytes] = []
    for chunk in _rechunk(wire, cuts):
        out += decoder.feed(chunk)
        assert decoder.buffered <= FRAME_BUFFER_LIMIT
    assert out == frames
    assert decoder.at_boundary and decoder.buffered == 0
    decoder.eof()


def test_largest_frames_byte_by_byte_and_whole() -> None:
    big = bytes(range(256)) * 255 + b"x" * 255
    assert len(big) == MAX_FRAME_LEN
    wire = encode_frame(big) * 2 + encode_frame(b"z")
    decoder = FrameDecoder()
    assert decoder.feed(wire) == [big, big, b"z"]
    out = []
    for i in range(0, len(wire), 1000):
        out += decoder.feed(wire[i : i + 1000])
        assert decoder.buffered <= FRAME_BUFFER_LIMIT
    assert out == [big, big, b"z"]
    assert [f for b in wire[:5] for f in decoder.feed(bytes([b]))] == []
    assert decoder.buffered == 3


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=2000), max_size=40))
def test_frame_garbage_only_raises_remote_errors(chunks: list[bytes]) -> None:
    decoder = FrameDecoder()
    for chunk in chunks:
        try:
            frames = decoder.feed(chunk)
        except RemoteProtocolError:
            with pytest.raises(LocalProtocolError):
                decoder.feed(b"\x00\x01x")
            return
        assert all(1 <= len(f) <= MAX_FRAME_LEN for f in frames)
        assert decoder.buffered <= FRAME_BUFFER_LIMIT


def test_zero_length_frame_is_refused() -> None:
    decoder = FrameDecoder()
    assert decoder.feed(b"\x00\x02ab\x00") == [b"ab"]
    with pytest.raises(RemoteProtocolError, match="length 0"):
        decoder.feed(b"\x00")
    assert decoder.buffered == 0
    with pytest.raises(LocalProtocolError):
        decoder.feed(b"\x00\x01a")


@pytest.mark.parametrize("tail", [b"\x00", b"\x00\x05abc"])
def test_eof_mid_frame(tail: bytes) -> None:
    decoder = FrameDecoder()
    decoder.feed(encode_frame(b"ok") + tail)
    with pytest.raises(RemoteProtocolError, match="middle"):
        decoder.eof()


# -- application messages --------------------------------------------------------------


def test_split_message() -> None:
    assert split_message(b"hi") == [b"\x00\x00\x00\x02hi"]
    message = bytes(range(256)) * 4096
    assert len(message) == MAX_APP_MESSAGE
    chunks = split_message(message)
    assert all(1 <= len(c) <= MAX_TRANSPORT_PLAINTEXT for c in chunks)
    assert len(chunks) == -(-(MAX_APP_MESSAGE + 4) // MAX_TRANSPORT_PLAINTEXT)
    assert b"".join(chunks) == MAX_APP_MESSAGE.to_bytes(4, "big") + message
    assert MessageReassembler().feed(b"".join(chunks)) == [message]
    for bad in (b"", b"x" * (MAX_APP_MESSAGE + 1)):
        with pytest.raises(LocalProtocolError):
            split_message(bad)
    with pytest.raises(LocalProtocolError):
        split_message("text")  # type: ignore[arg-type]
    with pytest.raises(LocalProtocolError):
        split_message(b"x" * 11, max_message_size=10)


@settings(max_examples=200, deadline=None)
@given(
    messages=st.lists(st.binary(min_size=1, max_size=500), max_size=10),
    cuts=st.lists(st.integers(min_value=0), max_size=20),
    limit=st.integers(min_value=500, max_value=MAX_APP_MESSAGE),
)
def test_messages_round_trip_under_any_chunking(messages: list[bytes], cuts: list[int], limit: int) -> None:
    stream = b"".join(b"".join(split_message(m, max_message_size=limit)) for m in messages)
    reassembler = MessageReassembler(limit)
    out: list[bytes] = []
    for chunk in _rechunk(stream, cuts):
        out += reassembler.feed(chunk)
        assert reassembler.buffered <= max(limit, 4)
    assert out == messages
    reassembler.eof()


@settings(max_examples=300, deadline=None)
@given(
    chunks=st.lists(st.binary(max_size=600), max_size=30),
    limit=st.integers(min_value=1, max_value=4000),
)
def test_message_garbage_only_raises_remote_errors(chunks: list[bytes], limit: int) -> None:
    reassembler = MessageReassembler(limit)
    for chunk in chunks:
        try:
            messages = reassembler.feed(chunk)
        except RemoteProtocolError:
            with pytest.raises(LocalProtocolError):
                reassembler.feed(b"x")
            return
        assert all(1 <= len(m) <= limit for m in messages)
        assert reassembler.buffered <= max(limit, 4)


def test_oversize_declared_length_is_refused_before_any_body() -> None:
    reassembler = MessageReassembler()
    header = (MAX_APP_MESSAGE + 1).to_bytes(4, "big")
    assert reassembler.feed(header[:3]) == []
    with pytest.raises(RemoteProtocolError, match="exceeds the limit"):
        reassembler.feed(header[3:])
    assert reassembler.buffered == 0
    # The header completing mid-chunk: nothing after it is kept either.
    reassembler = MessageReassembler(max_message_size=10)
    with pytest.raises(RemoteProtocolError, match="11 bytes exceeds"):
        reassembler.feed(b"\x00\x00\x00\x01a" + (11).to_bytes(4, "big") + b"y" * 100)
    assert reassembler.buffered == 0


def test_largest_declared_length_is_accepted() -> None:
    reassembler = MessageReassembler()
    assert reassembler.feed(MAX_APP_MESSAGE.to_bytes(4, "big") + b"x" * 10) == []
    assert reassembler.buffered == 10
    assert reassembler.feed(b"x" * (MAX_APP_MESSAGE - 10)) == [b"x" * MAX_APP_MESSAGE]
    assert reassembler.at_boundary


def test_zero_length_message_is_refused() -> None:
    with pytest.raises(RemoteProtocolError, match="length 0"):
        MessageReassembler().feed(b"\x00\x00\x00\x00")


def test_eof_mid_message() -> None:
    reassembler = MessageReassembler()
    reassembler.feed(b"\x00\x00\x00\x05abc")
    with pytest.raises(RemoteProtocolError, match="middle"):
        reassembler.eof()


def test_reassembler_limit_must_fit_header() -> None:
    with pytest.raises(LocalProtocolError):
        MessageReassembler(0)
    with pytest.raises(LocalProtocolError):
        MessageReassembler(2**32)
