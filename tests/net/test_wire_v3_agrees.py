"""The declared messages against protocol 3's first encoder and decoder: the same bytes, the same verdicts."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.errors import RemoteProtocolError
from fairdeal.net import wire

from . import _wire_v3 as old
from .test_wire import msgpack_values
from .test_wire_messages import messages


def _to_old(msg: Any) -> Any:
    fields = {f.name: getattr(msg, f.name) for f in dataclasses.fields(msg)}
    if isinstance(msg, wire.Lobby):
        fields["seats"] = tuple(None if s is None else _to_old(s) for s in msg.seats)
    return getattr(old, type(msg).__name__)(**fields)


def _plain(msg: Any) -> tuple[str, dict[str, Any]]:
    return type(msg).__name__, dataclasses.asdict(msg)


def _verdict(decode: Any, data: bytes) -> tuple[str, Any]:
    try:
        return "ok", _plain(decode(data, peer="p"))
    except RemoteProtocolError as exc:
        assert exc.peer == "p"
        return "refused", exc.reason


@settings(max_examples=600, deadline=None)
@given(messages)
def test_the_old_and_the_new_encoder_write_the_same_bytes(msg: wire.Message) -> None:
    assert wire.encode(msg) == old.encode(_to_old(msg))


@settings(max_examples=800, deadline=None)
@given(
    msg=messages,
    how=st.sampled_from(["change", "drop", "add", "none"]),
    pick=st.integers(0),
    v=msgpack_values,
)
def test_one_changed_field_gets_the_same_verdict_from_both(
    msg: wire.Message, how: str, pick: int, v: Any
) -> None:
    body = msgpack.unpackb(wire.encode(msg))
    names = [k for k in body if k != "type"]
    name = names[pick % len(names)]
    if how == "change":
        body[name] = v
    elif how == "drop":
        del body[name]
    elif how == "add":
        body["extra"] = v
    data = msgpack.packb(body, use_bin_type=True)
    assert _verdict(wire.decode, data) == _verdict(old.decode, data)


@settings(max_examples=400, deadline=None)
@given(
    kind=st.sampled_from(sorted(wire.MESSAGES)),
    fields=st.dictionaries(
        st.sampled_from(sorted({n for s in wire.MESSAGES.values() for n in s.order})),
        msgpack_values,
        max_size=8,
    ),
)
def test_any_map_is_accepted_or_refused_by_both(kind: str, fields: dict[str, Any]) -> None:
    data = msgpack.packb({"type": kind, **fields}, use_bin_type=True)
    new_says, old_says = _verdict(wire.decode, data), _verdict(old.decode, data)
    assert new_says[0] == old_says[0]
    if new_says[0] == "ok":
        assert new_says == old_says


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_get_the_same_verdict_from_both(data: bytes) -> None:
    assert _verdict(wire.decode, data) == _verdict(old.decode, data)
