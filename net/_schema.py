"""Link messages declared once: the kinds of field, and a message's schema read from its dataclass.

A message is a frozen dataclass whose every field is ``Annotated`` with the kind of value it
holds (``seat: Annotated[int, Int(0, MAX_SEATS)]``). :func:`schema` reads those annotations
once, when the class is declared, into a :class:`Schema` that writes a message as the map the
wire carries and reads that map back with every check the kind states, blaming the peer.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.session.header import MAX_NAME, MAX_TEXT
from fairdeal.core.text import shows_as_is


class Check:
    """Where a field's check fails: which message, and the peer it came from."""

    def __init__(self, kind: str, peer: str | None) -> None:
        self.kind, self.peer = kind, peer

    def fail(self, reason: str) -> RemoteProtocolError:
        return RemoteProtocolError(f"malformed {self.kind} message: {reason}", peer=self.peer)


# -- the kinds of field ------------------------------------------------------------------------------
class Kind(ABC):
    """What one field holds: :meth:`read` checks a value from the wire, :meth:`write` makes one."""

    __slots__ = ()

    @abstractmethod
    def read(self, v: object, what: str, c: Check, got: Mapping[str, object]) -> object:
        """``v`` as received for field ``what``, checked (``got``: the fields read so far)."""

    def write(self, v: Any) -> object:
        return v

    def needs(self) -> tuple[str, ...]:
        """The fields whose values this check needs (read before it)."""
        return ()


@dataclass(frozen=True, slots=True)
class Int(Kind):
    """An integer in ``[lo, hi)``; ``hi`` may name another field of the message (its value)."""

    lo: int
    hi: int | str

    def needs(self) -> tuple[str, ...]:
        return (self.hi,) if isinstance(self.hi, str) else ()

    def read(self, v: object, what: str, c: Check, got: Mapping[str, object]) -> object:
        hi = got[self.hi] if isinstance(self.hi, str) else self.hi
        assert isinstance(hi, int)
        if type(v) is not int or not self.lo <= v < hi:
            raise c.fail(f"{what} must be an integer in [{self.lo}, {hi})")
        return v


@dataclass(frozen=True, slots=True)
class Text(Kind):
    """1 to ``limit`` characters that a terminal shows as written (``core.text.shows_as_is``)."""

    limit: int

    def read(self, v: object, what: str, c: Check, got: Mapping[str, object]) -> object:
        if not shows_as_is(v, self.limit):
            raise c.fail(f"{what} must be 1 to {self.limit} printable characters without surrounding spaces")
        return v


@dataclass(frozen=True, slots=True)
class Pattern(Kind):
    """A string that matches ``rx`` as a whole."""

    rx: re.Pattern[str]

    def read(self, v: object, what: str, c: Check, got: Mapping[str, object]) -> object:
        if not isinstance(v, str) or not self.rx.fullmatch(v):
            raise c.fail(f"{what} is not valid")
        return v


@dataclass(frozen=True, slots=True)
class Blob(Kind):
    """Bytes: exactly ``size`` of them, or ``size`` to ``most``."""

    size: int
    most: int | None = None

    def read(self, v: object, what: str, c: Check, got: Mapping[str, object]) -> object:
        if self.most is None:
            if not isinstance(v, bytes) or len(v) != self.size:
                raise c.fail(f"{what} must be {self.size} bytes")
        elif not isinstance(v, bytes) or not self.size <= len(v) <= self.most:
            raise c.fail(f"{what} must be {self.size} to {self.most} bytes")
        return v


@dataclass(frozen=True, slots=True)
class Flag(Kind):
    """True or false."""

    def read(self, v: object, what: str, c: Check, got: Mapping[str, object]) -> object:
        if not isinstance(v, bool):
            raise c.fail(f"{what} must be true or false")
        return v


@dataclass(frozen=True, slots=True)
class Options(Kind):
    """A game's options: at most ``most`` names of plain text, each a boolean, an integer or plain text."""

    most: int

    def read(self, v: object, what: str, c: Check, got: Mapping[str, object]) -> object:
        if not isinstance(v, dict) or len(v) > self.most:
            raise c.fail(f"{what} must be a map of at most {self.most} entries")
        for k, x in v.items():
            if not shows_as_is(k, MAX_NAME):
                raise c.fail("an option name must be short plain text")
            ok = isinstance(x, bool) or (type(x) is int and -(2**63) <= x < 2**63)
            ok = ok or shows_as_is(x, MAX_TEXT, empty=True)
            if not ok:
                raise c.fail(f"option {k!r} must be a boolean, an integer or short plain text")
        return dict(v)

    def write(self, v: Any) -> object:
        return dict(sorted(v.items()))


@dataclass(frozen=True, slots=True)
class Records(Kind):
    """A list of ``lo`` to ``hi`` records of class ``of`` (nil where ``nil``), each a map of its fields."""

    of: type
    lo: int
    hi: int
    item: str  # one record, in words: "a seat"
    nil: bool = False

    def read(self, v: object, what: str, c: Check, got: Mapping[str, object]) -> object:
        if not isinstance(v, list) or not self.lo <= len(v) <= self.hi:
            raise c.fail(f"{what} must be a list of {self.lo} to {self.hi}")
        inner = schema(self.of)
        out: list[object] = []
        for s in v:
            if s is None and self.nil:
                out.append(None)
                continue
            if not isinstance(s, dict) or set(s) != inner.names:
                names = [n for n, _ in inner.fields]
                shape = f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else names[0]
                raise c.fail(f"{self.item} is {'nil or ' if self.nil else ''}a map of {shape}")
            out.append(inner.read(s, c))
        return tuple(out)

    def write(self, v: Any) -> object:
        inner = schema(self.of)
        return [None if s is None else inner.write(s) for s in v]


# -- a message's schema ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Schema:
    """A record class's fields (in the order of its constructor) and the order of their keys on the wire."""

    cls: type
    fields: tuple[tuple[str, Kind], ...]
    order: tuple[str, ...]
    names: frozenset[str] = field(init=False)
    _writing: tuple[tuple[str, Kind], ...] = field(init=False, repr=False)
    _reading: tuple[tuple[str, Kind], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        kinds = dict(self.fields)
        object.__setattr__(self, "names", frozenset(kinds))
        object.__setattr__(self, "_writing", tuple((n, kinds[n]) for n in self.order))
        # Fields whose checks need others are read after those.
        object.__setattr__(self, "_reading", tuple(sorted(self.fields, key=lambda f: bool(f[1].needs()))))

    def write(self, msg: object) -> dict[str, object]:
        return {name: kind.write(getattr(msg, name)) for name, kind in self._writing}

    def read(self, obj: Mapping[str, object], c: Check) -> Any:
        """The record ``obj`` holds (its keys already checked to be exactly the fields)."""
        got: dict[str, object] = {}
        for name, kind in self._reading:
            got[name] = kind.read(obj[name], name, c, got)
        return self.cls(**got)


_SCHEMAS: dict[type, Schema] = {}


def schema(cls: type, order: Sequence[str] = ()) -> Schema:
    """The schema of dataclass ``cls`` (read once from its annotations; ``order``: the keys on the wire,
    when it is not the order of the fields)."""
    if cls in _SCHEMAS:
        return _SCHEMAS[cls]
    hints = typing.get_type_hints(cls, include_extras=True)
    fields: list[tuple[str, Kind]] = []
    for f in dataclasses.fields(cls):
        kinds = [m for m in getattr(hints[f.name], "__metadata__", ()) if isinstance(m, Kind)]
        if len(kinds) != 1:
            raise TypeError(f"{cls.__name__}.{f.name} must be Annotated with one kind of field")
        fields.append((f.name, kinds[0]))
    names = [n for n, _ in fields]
    wire_order = tuple(order) or tuple(names)
    if sorted(wire_order) != sorted(names):
        raise TypeError(f"{cls.__name__}: the wire order must name every field once")
    for name, kind in fields:
        if any(n not in names for n in kind.needs()):
            raise TypeError(f"{cls.__name__}.{name} needs a field the class does not have")
    out = Schema(cls, tuple(fields), wire_order)
    _SCHEMAS[cls] = out
    return out
