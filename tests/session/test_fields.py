"""Every field of an envelope and of the header, at and past its limits: decoding refuses what
is out of range with the reason, and takes what is just inside (these pin the checks that a
mutation run breaks one at a time)."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.core.session.envelope import FORMAT_VERSION, decode_envelope
from fairdeal.core.session.header import MAX_NAME, MAX_SEATS, MAX_TEXT, PROTOCOL, Header

FIELDS = ("version", "game_id", "seat", "kind", "body", "anchor_seq", "anchor", "anchor_sig", "sig",
          "seq", "prev", "placed")  # fmt: skip


def _raw_envelope(**change: Any) -> bytes:
    """An envelope's bytes with fields changed (decoding does not check the signatures)."""
    fields = {"version": FORMAT_VERSION, "game_id": bytes(16), "seat": 1, "kind": "move", "body": {},
              "anchor_seq": 4, "anchor": bytes(32), "anchor_sig": bytes(64), "sig": bytes(64), "seq": 5,
              "prev": bytes(32), "placed": bytes(64)}  # fmt: skip
    fields.update(change)
    return msgpack.packb([fields[f] for f in FIELDS], use_bin_type=True)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"version": 2.0}, "a float in an entry"),
        ({"version": FORMAT_VERSION + 1}, "unsupported format version"),
        ({"game_id": "g" * 16}, "bad game id"),
        ({"game_id": bytes(15)}, "bad game id"),
        ({"seq": -1}, "bad sequence number"),
        ({"seq": 2**32}, "bad sequence number"),
        ({"seq": True}, "bad sequence number"),
        ({"seq": b"\x05"}, "bad sequence number"),
        ({"prev": "p" * 32}, "bad previous-entry hash"),
        ({"prev": bytes(31)}, "bad previous-entry hash"),
        ({"anchor": "a" * 32}, "bad anchor hash"),
        ({"anchor": bytes(33)}, "bad anchor hash"),
        ({"seat": 64}, "bad seat"),
        ({"seat": -1}, "bad seat"),
        ({"kind": ""}, "bad kind"),
        ({"kind": "k" * 33}, "bad kind"),
        ({"kind": b"move"}, "bad kind"),
        ({"sig": "s" * 64}, "bad signature field"),
        ({"sig": bytes(63)}, "bad signature field"),
        ({"anchor_seq": -1}, "bad anchor sequence number"),
        ({"anchor_seq": 2**32}, "bad anchor sequence number"),
        ({"anchor_seq": False}, "bad anchor sequence number"),
        ({"anchor_sig": bytes(65)}, "bad anchor signature field"),
        ({"anchor_sig": "s" * 64}, "bad anchor signature field"),
        ({"placed": bytes(63)}, "bad placement signature field"),
        ({"placed": None}, "bad placement signature field"),
    ],
)
def test_an_envelope_field_out_of_range_is_refused(change: dict[str, Any], reason: str) -> None:
    with pytest.raises(RemoteProtocolError, match=reason):
        decode_envelope(_raw_envelope(**change))


@pytest.mark.parametrize(
    "change",
    [
        {"seq": 0},
        {"seq": 2**31},
        {"seq": 2**32 - 1},
        {"kind": "k"},
        {"kind": "k" * 32},
        {"seat": 0},
        {"seat": 63},
        {"anchor_seq": 0},
        {"anchor_seq": 2**32 - 1},
    ],
)
def test_an_envelope_field_at_its_limit_decodes(change: dict[str, Any]) -> None:
    env = decode_envelope(_raw_envelope(**change))
    ((name, value),) = change.items()
    assert getattr(env, name) == value


def test_an_envelope_is_a_list_of_exactly_twelve_fields() -> None:
    whole = msgpack.unpackb(_raw_envelope(), raw=False)
    for obj in (whole[:11], [*whole, 0], {"fields": whole}):
        with pytest.raises(RemoteProtocolError, match="a list of 12 fields"):
            decode_envelope(msgpack.packb(obj, use_bin_type=True))


def test_an_envelope_not_in_its_canonical_form_is_refused() -> None:
    """The same fields in a longer encoding (a sequence number as a 64-bit integer, the kind as a
    str 8): the bytes a signature and every peer's log hold are the canonical ones only."""
    canonical = _raw_envelope()
    decode_envelope(canonical)
    tail = 2 + 32 + 2 + 64  # prev and placed, after the one byte of seq 5
    long_seq = canonical[: -(tail + 1)] + b"\xcf" + (5).to_bytes(8, "big") + canonical[-tail:]
    assert msgpack.unpackb(long_seq, raw=False) == msgpack.unpackb(canonical, raw=False)
    with pytest.raises(RemoteProtocolError, match="canonical form"):
        decode_envelope(long_seq)


def test_an_envelope_of_another_version_says_so_whatever_its_layout() -> None:
    older = msgpack.packb([1, bytes(16), 5, bytes(32), 1, "move", {}, bytes(64)], use_bin_type=True)
    with pytest.raises(RemoteProtocolError, match="unsupported format version 1"):
        decode_envelope(older)


# -- the header ----------------------------------------------------------------------------------------
def _seat(i: int, **change: Any) -> dict[str, Any]:
    # Real keys: a header takes only strict ones (test_strict_identities.py).
    return {"name": f"P{i}", "identity": _KEYS[i], "kind": "human", **change}


_KEYS = [Identity.from_seed(bytes([i + 1]) * 32).public_key for i in range(MAX_SEATS + 1)]


def _body(**change: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "protocol": PROTOCOL, "game": "ecarte", "plugin": "ecarte", "distribution": "fairdeal",
        "version": "1", "options": {"target": 5}, "seats": [_seat(0), _seat(1)], "extra": {},
    }  # fmt: skip
    body.update(change)
    return body


def _many(n: int, value: object = 1) -> dict[str, object]:
    return dict(sorted((f"o{i}", value) for i in range(n)))  # sorted, as a header holds them


TEXTS = ("game", "plugin", "distribution", "version")

REFUSED: list[tuple[Any, str]] = [
    ([], "the fields must be exactly"),
    ({k: v for k, v in _body().items() if k != "extra"}, "the fields must be exactly"),
    ({**_body(), "more": 1}, "the fields must be exactly"),
    # The order is part of the form (9.1): the same fields in another order are refused too.
    (dict(reversed(list(_body().items()))), "the fields must be exactly"),
    ({"game": "ecarte", **_body()}, "the fields must be exactly"),
    (_body(protocol=1), "unsupported protocol"),
    *((_body(**{k: ""}), f"{k} must be 1 to {MAX_TEXT} characters") for k in TEXTS),
    *((_body(**{k: "x" * (MAX_TEXT + 1)}), f"{k} must be 1 to {MAX_TEXT} characters") for k in TEXTS),
    *((_body(**{k: 7}), f"{k} must be 1 to {MAX_TEXT} characters") for k in TEXTS),
    (_body(options=_many(65)), "options must map"),
    (_body(options={"k" * (MAX_NAME + 1): 1}), "options must map"),
    (_body(options={"k": "v" * (MAX_TEXT + 1)}), "options must map"),
    (_body(options={"k": 1.5}), "options must map"),
    (_body(options={"k": [1]}), "options must map"),
    (_body(options=[("k", 1)]), "options must map"),
    (_body(options={"target": 5, "penalty": "classic"}), "options must be sorted"),
    (_body(seats=[]), f"there must be 2 to {MAX_SEATS} seats"),
    (_body(seats=[_seat(0)]), f"there must be 2 to {MAX_SEATS} seats"),
    (_body(seats=[_seat(i) for i in range(MAX_SEATS + 1)]), f"there must be 2 to {MAX_SEATS} seats"),
    (_body(seats={"0": _seat(0)}), f"there must be 2 to {MAX_SEATS} seats"),
    (_body(seats=[_seat(0), "P1"]), "malformed seat"),
    (_body(seats=[_seat(0), {"name": "P1", "identity": bytes(32)}]), "malformed seat"),
    (_body(seats=[_seat(0), _seat(1, more=1)]), "malformed seat"),
    (_body(seats=[_seat(0), {"kind": "human", **_seat(1)}]), "malformed seat"),
    (_body(seats=[_seat(0), _seat(1, name="")]), "malformed seat"),
    (_body(seats=[_seat(0), _seat(1, name="n" * (MAX_NAME + 1))]), "malformed seat"),
    (_body(seats=[_seat(0), _seat(1, name=5)]), "malformed seat"),
    (_body(seats=[_seat(0), _seat(1, kind="")]), "malformed seat"),
    (_body(seats=[_seat(0), _seat(1, kind="k" * (MAX_NAME + 1))]), "malformed seat"),
    (_body(seats=[_seat(0), _seat(1, kind=5)]), "malformed seat"),
    (_body(seats=[_seat(0), _seat(1, identity=bytes(31))]), "malformed seat"),
    (_body(seats=[_seat(0), _seat(1, identity="i" * 32)]), "malformed seat"),
    (_body(seats=[_seat(0), _seat(0, name="Twin")]), "two seats share an identity"),
    (_body(extra=_many(17, "v")), "malformed extra"),
    (_body(extra={"k" * (MAX_NAME + 1): "v"}), "malformed extra"),
    (_body(extra={"k": "v" * (MAX_TEXT + 1)}), "malformed extra"),
    (_body(extra={"k": 1}), "malformed extra"),
    (_body(extra=[]), "malformed extra"),
    (_body(extra={"b": "1", "a": "2"}), "extra fields must be sorted"),
]


@pytest.mark.parametrize(("body", "reason"), REFUSED)
def test_a_header_field_out_of_range_is_refused(body: Any, reason: str) -> None:
    with pytest.raises(RemoteProtocolError, match=reason) as info:
        Header.from_body(bytes(16), body)
    assert info.value.seat == 0


def test_a_header_needs_a_whole_game_id() -> None:
    with pytest.raises(RemoteProtocolError, match="bad game id"):
        Header.from_body(bytes(15), _body())


ACCEPTED: list[Any] = [
    *(_body(**{k: "x"}) for k in TEXTS),
    *(_body(**{k: "x" * MAX_TEXT}) for k in TEXTS),
    _body(options=_many(64)),
    _body(options={"flag": True, "k" * MAX_NAME: "v" * MAX_TEXT}),
    _body(seats=[_seat(0), _seat(1)]),
    _body(seats=[_seat(i) for i in range(MAX_SEATS)]),
    _body(seats=[_seat(0, name="n", kind="k"), _seat(1, name="n" * MAX_NAME, kind="k" * MAX_NAME)]),
    _body(extra=_many(16, "v")),
    _body(extra={"k" * MAX_NAME: "v" * MAX_TEXT}),
]


@pytest.mark.parametrize("body", ACCEPTED)
def test_a_header_field_at_its_limit_is_taken(body: dict[str, Any]) -> None:
    header = Header.from_body(bytes(16), body)
    assert header.to_body() == {**body, "options": dict(sorted(body["options"].items())),
                                "extra": dict(sorted(body["extra"].items()))}  # fmt: skip
