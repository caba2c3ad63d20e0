"""Link messages: exact round trips, strict refusal of anything else, property tests on the decoders."""

from __future__ import annotations

import itertools

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.net import wire
from fairdeal.net.framing import FrameDecoder, encode_frame
from fairdeal.net.link import tcp_size
from fairdeal.net.secure import MessageReceived, SecureChannel

FP = Identity.from_seed(b"w" * 32).fingerprint

SAMPLES: list[wire.Message] = [
    wire.Hello(b"12345678", "fairdeal 0.1.0"),
    wire.Welcome(1, 2, "ecarte", "fairdeal", "0.1.0", {"target": 5, "penalty": "classic", "x": True}),
    wire.Welcome(9, 10, "snatch", "fairdeal", "0.1.0", {}),
    wire.Refused("the table is full"),
    wire.Ready("Alice", "human"),
    wire.Ready("Bot 3 (shrewd)", "bot:shrewd"),
    wire.Lobby((wire.LobbySeat("Host", FP, "human"), None, wire.LobbySeat("Bo", FP, "bot"))),
    wire.Entry(b"\x98" + bytes(300)),
    wire.Entry(b"x" * wire.MAX_ENTRY),
    wire.Ping(0),
    wire.Pong(2**32 - 1),
    wire.Bye("the game is over"),
    wire.Welcome(1, 2, "ecarte", "fairdeal", "0.1.0", {}, grace=0),
    wire.Welcome(1, 2, "ecarte", "fairdeal", "0.1.0", {}, grace=wire.MAX_GRACE),
    wire.Rejoin(b"12345678", 1, 0),
    wire.Rejoin(b"12345678", 9, 2**32 - 1, b"h" * 32, "fairdeal 0.2.0"),
    wire.Watch(b"12345678"),
    wire.Watch(b"12345678", 17, b"h" * 32),
    wire.Sync(0, 0),
    wire.Sync(2**32 - 1, wire.MAX_GRACE),
    wire.Away(0, 120),
    wire.Away(1, 0, resuming=True),
    wire.Back(9),
    wire.Adjourn(0, True),
    wire.Adjourn(3, False),
    wire.Adjourned(1),
]


@pytest.mark.parametrize("msg", SAMPLES, ids=lambda m: type(m).__name__)
def test_round_trip(msg: wire.Message) -> None:
    data = wire.encode(msg)
    assert len(data) <= wire.MAX_MESSAGE
    assert wire.decode(data) == msg


def test_the_wire_form_is_a_map_with_a_type() -> None:
    assert msgpack.unpackb(wire.encode(wire.Ping(7))) == {"type": "ping", "n": 7}
    assert msgpack.unpackb(wire.encode(wire.Entry(b"ab"))) == {"type": "entry", "data": b"ab"}


def _raw(**fields: object) -> bytes:
    return msgpack.packb(fields, use_bin_type=True)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "1 byte to 1 MiB"),
        (b"\xc1", "not msgpack"),
        (b"\x92\x01\x02", "not a map with a type"),
        (_raw(type=1), "not a map with a type"),
        (_raw(type="shout"), "unknown message type"),
        (_raw(type="ping"), "fields must be exactly n"),
        (_raw(type="ping", n=1, extra=2), "fields must be exactly n"),
        (_raw(type="ping", n=-1), "n must be an integer"),
        (_raw(type="ping", n=True), "n must be an integer"),
        (_raw(type="ping", n=2**32), "n must be an integer"),
        (_raw(type="entry", data="text"), "data must be"),
        (_raw(type="entry", data=b""), "data must be"),
        (_raw(type="hello", protocol=1, session=b"short", software="x"), "session must be 8 bytes"),
        (_raw(type="hello", protocol=0, session=b"12345678", software="x"), "protocol"),
        (_raw(type="hello", protocol=1, session=b"12345678", software=""), "software"),
        (_raw(type="ready", name="Eve\x1b[2J", kind="human"), "name must be"),
        (_raw(type="ready", name=" Eve", kind="human"), "name must be"),
        (_raw(type="ready", name="E\u202eve", kind="human"), "name must be"),
        (_raw(type="ready", name="Eve\u2028FAIR", kind="human"), "name must be"),
        (_raw(type="ready", name="Eve\u2029FAIR", kind="human"), "name must be"),
        (_raw(type="ready", name="x" * 41, kind="human"), "name must be"),
        (_raw(type="ready", name="Eve", kind="robot"), "kind is not valid"),
        (_raw(type="ready", name="Eve", kind="human\n"), "kind is not valid"),
        (_raw(type="bye", reason="a\nb"), "reason must be"),
        (_raw(type="refused", reason="r" * 201), "reason must be"),
        (_raw(type="lobby", seats=[None]), "seats must be a list of 2"),
        (
            _raw(
                type="rejoin",
                protocol=3,
                session=b"12345678",
                software="x",
                seat=0,
                entries=1,
                last=bytes(32),
            ),
            "seat must be",
        ),
        (
            _raw(
                type="rejoin",
                protocol=3,
                session=b"12345678",
                software="x",
                seat=10,
                entries=1,
                last=bytes(32),
            ),
            "seat must be",
        ),
        (
            _raw(
                type="rejoin",
                protocol=3,
                session=b"12345678",
                software="x",
                seat=1,
                entries=-1,
                last=bytes(32),
            ),
            "entries must be",
        ),
        (
            _raw(
                type="rejoin",
                protocol=3,
                session=b"12345678",
                software="x",
                seat=1,
                entries=1,
                last=bytes(31),
            ),
            "last must be 32",
        ),
        (
            _raw(type="watch", protocol=3, session=b"1234567", software="x", entries=0, last=bytes(32)),
            "session must be 8",
        ),
        (
            _raw(type="watch", protocol=3, session=b"12345678", software="x", entries=2**32, last=bytes(32)),
            "entries must be",
        ),
        (_raw(type="sync", entries=1, grace=-1), "grace must be"),
        (_raw(type="sync", entries=1, grace=wire.MAX_GRACE + 1), "grace must be"),
        (_raw(type="away", seat=10, seconds=1, resuming=False), "seat must be"),
        (_raw(type="away", seat=1, seconds=True, resuming=False), "seconds must be"),
        (_raw(type="away", seat=1, seconds=1, resuming=1), "resuming must be"),
        (_raw(type="away", seat=1, seconds=1), "resuming"),  # a protocol 4 host's away
        (_raw(type="back", seat=-1), "seat must be"),
        (_raw(type="adjourn", seat=1, agree=1), "agree must be true or false"),
        (_raw(type="adjourn", seat=1, agree=None), "agree must be true or false"),
        (_raw(type="adjourned", entries=0), "entries must be"),
        (
            _raw(
                type="welcome",
                protocol=3,
                seat=1,
                players=2,
                game="ecarte",
                distribution="d",
                version="1",
                options={},
                grace=wire.MAX_GRACE + 1,
            ),
            "grace must be",
        ),
        (_raw(type="lobby", seats=[None, {"name": "a"}]), "a seat is nil or a map"),
        (
            _raw(type="lobby", seats=[None, {"name": "a", "fingerprint": "fd1-x", "kind": "human"}]),
            "fingerprint",
        ),
        (
            _raw(
                type="welcome",
                protocol=1,
                seat=2,
                players=2,
                game="ecarte",
                distribution="d",
                version="1",
                options={},
                grace=120,
            ),
            "seat must be",
        ),
        (
            _raw(
                type="welcome",
                protocol=1,
                seat=1,
                players=11,
                game="ecarte",
                distribution="d",
                version="1",
                options={},
                grace=120,
            ),
            "players must be",
        ),
        (
            _raw(
                type="welcome",
                protocol=1,
                seat=1,
                players=2,
                game="Ecarte!",
                distribution="d",
                version="1",
                options={},
                grace=120,
            ),
            "game is not valid",
        ),
        (
            _raw(
                type="welcome",
                protocol=1,
                seat=1,
                players=2,
                game="ecarte",
                distribution="d",
                version="1",
                options={"a": [1]},
                grace=120,
            ),
            "option 'a'",
        ),
        *(
            (
                _raw(
                    type="welcome",
                    protocol=1,
                    seat=1,
                    players=2,
                    game="ecarte",
                    distribution="d",
                    version="1",
                    options=options,
                    grace=120,
                ),
                words,
            )
            for options, words in (
                ({"a\x1b[2J": 1}, "option name must be short plain text"),
                ({"a": "x\x1b]0;owned\x07"}, "option 'a' must be"),
                ({"a": "x\u202ey"}, "option 'a' must be"),
            )
        ),
        (_raw(type="bye", reason="x" * 20000), "not msgpack"),
        (_raw(type="bye", reason="x", pad=b"x" * 20000), "not an entry"),
        (_raw(type="bye", reason=b"x" * 20000), "over the limit"),
        (msgpack.packb({"type": "bye", "reason": "x", 1: 2}), "not msgpack"),
        (b"\x82" + b"\xa4type\xa4ping" + b"\xa1n\x01" + b"junk", "not msgpack"),
    ],
)
def test_strict_refusals(data: bytes, words: str) -> None:
    with pytest.raises(RemoteProtocolError, match=words) as info:
        wire.decode(data, peer="peer-x")
    assert info.value.peer == "peer-x"


def test_encode_refuses_what_decode_would() -> None:
    with pytest.raises(LocalProtocolError):
        wire.encode(wire.Ready("bad\nname", "human"))
    with pytest.raises(LocalProtocolError):
        wire.encode(wire.Entry(b"x" * (wire.MAX_ENTRY + 1)))
    with pytest.raises(LocalProtocolError):
        wire.encode(wire.Welcome(0, 2, "ecarte", "d", "1", {}))


def test_clean_text() -> None:
    assert wire.clean_text("a\x1b[2J\nb\u202e c  ") == "a [2J b c"
    assert wire.clean_text("") == "-"
    assert len(wire.clean_text("x" * 500)) == wire.MAX_REASON
    assert wire.valid_name(wire.clean_text("  Ann\tLee ", 40))


# -- properties -----------------------------------------------------------------------------------------
msgpack_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.text(max_size=20)
    | st.binary(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(st.binary(min_size=0, max_size=200))
def test_any_bytes_decode_or_fail_cleanly(data: bytes) -> None:
    try:
        msg = wire.decode(data)
    except RemoteProtocolError:
        return
    assert wire.decode(wire.encode(msg)) == msg


@settings(max_examples=400, deadline=None)
@given(
    kind=st.sampled_from(
        ["hello", "welcome", "refused", "ready", "lobby", "entry", "ping", "pong", "bye", "x"]
    ),
    fields=st.dictionaries(
        st.sampled_from(
            [
                "protocol",
                "session",
                "software",
                "seat",
                "players",
                "game",
                "options",
                "reason",
                "name",
                "kind",
                "seats",
                "data",
                "n",
                "distribution",
                "version",
            ]
        ),
        msgpack_values,
        max_size=8,
    ),
)
def test_any_map_decodes_or_fails_cleanly(kind: str, fields: dict[str, object]) -> None:
    data = msgpack.packb({"type": kind, **fields}, use_bin_type=True)
    try:
        msg = wire.decode(data)
    except RemoteProtocolError:
        return
    assert wire.encode(msg) and wire.decode(wire.encode(msg)) == msg


def _pair() -> tuple[SecureChannel, SecureChannel]:
    a = SecureChannel(Identity.from_seed(b"a" * 32), True)
    b = SecureChannel(Identity.from_seed(b"b" * 32), False)
    b.receive_data(a.initiate())
    a.receive_data(b.data_to_send())
    b.receive_data(a.data_to_send())
    assert a.handshake_complete and b.handshake_complete
    return a, b


@settings(max_examples=60, deadline=None)
@given(
    msgs=st.lists(st.sampled_from(SAMPLES[:8]), min_size=1, max_size=6),
    cuts=st.lists(st.integers(min_value=0), max_size=12),
)
def test_link_messages_survive_any_tcp_chunking(msgs: list[wire.Message], cuts: list[int]) -> None:
    a, b = _pair()
    stream = b"".join(a.send_message(wire.encode(m)) for m in msgs)
    points = sorted({c % (len(stream) + 1) for c in cuts} | {0, len(stream)})
    got = []
    for lo, hi in itertools.pairwise(points):
        got += [
            wire.decode(e.payload) for e in b.receive_data(stream[lo:hi]) if isinstance(e, MessageReceived)
        ]
    assert got == msgs


@settings(max_examples=200, deadline=None)
@given(prefix=st.integers(0, 3), garbage=st.binary(min_size=1, max_size=300))
def test_garbage_after_valid_frames_is_a_remote_error(prefix: int, garbage: bytes) -> None:
    a, b = _pair()
    good = b"".join(a.send_message(wire.encode(wire.Ping(i))) for i in range(prefix))
    assert len(b.receive_data(good)) == prefix
    try:
        b.receive_data(garbage)
    except RemoteProtocolError:
        assert b.closed
        return
    # Garbage that only starts a frame is buffered, never more than one frame.
    decoder = FrameDecoder()
    decoder.feed(garbage)
    assert decoder.buffered <= 2 + 65535


@settings(max_examples=200, deadline=None)
@given(frames=st.lists(st.binary(min_size=1, max_size=64), min_size=1, max_size=5), cut=st.integers(1, 400))
def test_truncated_frame_is_reported_at_eof(frames: list[bytes], cut: int) -> None:
    data = b"".join(encode_frame(f) for f in frames)
    last = len(frames[-1]) + 2
    cut = len(data) - last + 1 + cut % (last - 1)  # strictly inside the last frame
    decoder = FrameDecoder()
    decoder.feed(data[:cut])
    with pytest.raises(RemoteProtocolError, match="middle of a frame"):
        decoder.eof()


@pytest.mark.parametrize("size", [1, 100, 65515, 65516, 200_000, wire.MAX_MESSAGE])
def test_tcp_size_matches_the_secure_channel(size: int) -> None:
    a, _ = _pair()
    assert len(a.send_message(b"x" * size)) == tcp_size(size)
