"""Every declared link message, generated from its declaration: it round-trips, in its order on the wire.

The strategies are read from the same declarations as the encoder and the decoder (``wire.MESSAGES``),
so a message added later is covered without a line here.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.core.session.header import MAX_NAME, MAX_TEXT
from fairdeal.net import wire
from fairdeal.net._schema import Blob, Flag, Int, Kind, Options, Pattern, Records, Text, schema

# What shows_as_is lets through: no category C, and no line or paragraph separator (Zl, Zp).
printable = st.characters(exclude_categories=("C", "Zl", "Zp"))


def texts(limit: int, *, empty: bool = False) -> st.SearchStrategy[str]:
    """Text that shows as it is: no category C, Zl or Zp, nothing to strip, 1 (or 0) to ``limit``
    characters."""
    short = st.text(printable, min_size=0, max_size=min(limit, 24)).map(str.strip)
    longest = st.text(printable, min_size=limit, max_size=limit).filter(lambda s: s == s.strip())
    out = st.one_of(short, longest)
    return out if empty else out.filter(bool)


def values(kind: Kind, got: dict[str, object]) -> st.SearchStrategy[Any]:
    """Valid values of a field of ``kind`` (``got``: the message's fields drawn so far)."""
    if isinstance(kind, Int):
        hi = got[kind.hi] if isinstance(kind.hi, str) else kind.hi
        assert isinstance(hi, int)
        return st.one_of(st.integers(kind.lo, hi - 1), st.sampled_from([kind.lo, hi - 1]))
    if isinstance(kind, Text):
        return texts(kind.limit)
    if isinstance(kind, Pattern):
        return st.from_regex(kind.rx, fullmatch=True)
    if isinstance(kind, Blob):
        if kind.most is None:
            return st.binary(min_size=kind.size, max_size=kind.size)
        return st.one_of(st.binary(min_size=kind.size, max_size=300), st.just(b"x" * kind.most))
    if isinstance(kind, Flag):
        return st.booleans()
    if isinstance(kind, Options):
        option = st.one_of(st.booleans(), st.integers(-(2**63), 2**63 - 1), texts(MAX_TEXT, empty=True))
        return st.dictionaries(texts(MAX_NAME), option, max_size=min(kind.most, 6))
    if isinstance(kind, Records):
        item = records(kind.of)
        return st.lists(st.none() | item if kind.nil else item, min_size=kind.lo, max_size=kind.hi).map(tuple)
    raise AssertionError(f"no strategy for a field of kind {kind!r}: add one here")


@st.composite
def records(draw: st.DrawFn, cls: type) -> Any:
    s = schema(cls)
    got: dict[str, object] = {}
    for name, kind in sorted(s.fields, key=lambda f: bool(f[1].needs())):
        got[name] = draw(values(kind, got))
    return cls(**got)


messages = st.sampled_from(sorted(wire.MESSAGES)).flatmap(lambda tag: records(wire.MESSAGES[tag].cls))


@settings(max_examples=600, deadline=None)
@given(messages)
def test_every_message_round_trips(msg: wire.Message) -> None:
    data = wire.encode(msg)
    assert wire.decode(data) == msg
    tag = next(t for t, s in wire.MESSAGES.items() if s.cls is type(msg))
    assert list(msgpack.unpackb(data)) == ["type", *wire.MESSAGES[tag].order]  # the keys, in order


def test_every_message_is_declared_with_a_kind_for_each_field() -> None:
    classes = {s.cls for s in wire.MESSAGES.values()}
    declared = {c for c in vars(wire).values() if isinstance(c, type) and issubclass(c, wire.Message)}
    assert classes == declared - {wire.Message}
    for s in wire.MESSAGES.values():
        assert [n for n, _ in s.fields] == [f.name for f in dataclasses.fields(s.cls)]
        assert sorted(s.order) == sorted(n for n, _ in s.fields)
