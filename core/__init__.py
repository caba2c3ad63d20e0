"""core.

The package itself exports the strict msgpack codec every layer shares for what crosses
the wire (:func:`pack`, :func:`strict_unpack`), imported when first used so that the
quick commands, which need no msgpack, do not load it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._msgpack import pack, strict_unpack

_WHERE = {"pack": "_msgpack", "strict_unpack": "_msgpack"}


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = ["pack", "strict_unpack"]
