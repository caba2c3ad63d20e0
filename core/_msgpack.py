"""Strict msgpack decoding for everything that comes from a peer."""

from __future__ import annotations

from typing import Any

import msgpack

from .errors import RemoteProtocolError


def pack(obj: Any) -> bytes:
    """msgpack with the bin type for bytes (the only encoding fairdeal writes)."""
    data: bytes = msgpack.packb(obj, use_bin_type=True)  # msgpack has no type hints
    return data


def strict_unpack(
    data: bytes,
    *,
    max_bytes: int,
    max_str: int,
    max_bin: int,
    max_array: int,
    max_map: int,
    seat: int | None = None,
    peer: str | None = None,
) -> Any:
    """Decode exactly one msgpack object within the given limits, or raise RemoteProtocolError.

    Bytes stay bytes, map keys must be strings or bytes, extension types are refused; the
    total size is checked before anything is decoded.
    """
    if len(data) > max_bytes:
        raise RemoteProtocolError(f"message of {len(data)} bytes is over the limit", seat=seat, peer=peer)
    try:
        return msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=max_str,
            max_bin_len=max_bin,
            max_array_len=max_array,
            max_map_len=max_map,
            max_ext_len=0,
        )
    except Exception as exc:  # garbage makes msgpack raise several unrelated types
        raise RemoteProtocolError(
            f"malformed message (not msgpack: {_why(exc)})", seat=seat, peer=peer
        ) from None


def _why(exc: Exception) -> str:
    """What was wrong with bytes msgpack refused, in words (never an exception's class name)."""
    if isinstance(exc, msgpack.ExtraData):
        return "bytes after the end"
    if isinstance(exc, msgpack.OutOfData):
        return "cut short"
    if isinstance(exc, UnicodeDecodeError):
        return "text that is not UTF-8"
    if isinstance(exc, TypeError):
        return "a map key of the wrong type"
    if isinstance(exc, ValueError) and "exceeds" in str(exc):
        return "a field over its size limit"
    return "invalid bytes"
