"""core.

The package itself exports the strict msgpack codec every layer shares for what crosses
the wire (:func:`pack`, :func:`strict_unpack`), imported when first used so that the
quick commands, which need no msgpack, do not load it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import lazy_exports

if TYPE_CHECKING:
    from ._msgpack import pack, strict_unpack

_WHERE = {"pack": "_msgpack", "strict_unpack": "_msgpack"}


__getattr__ = lazy_exports(__name__, _WHERE)


__all__ = ["pack", "strict_unpack"]
