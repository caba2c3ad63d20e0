"""The log file format, as bytes (no file handling here).

A log is the magic line ``FDLOG1\\n`` followed by records, one per entry: a 4-byte
big-endian length and the encoded envelope. Entries are appended one at a time,
so a log cut short by a crash still parses up to its last whole record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .envelope import MAX_ENVELOPE_BYTES

MAGIC = b"FDLOG1\n"
NOT_A_LOG: Final = "not a fairdeal log (a log begins with the line FDLOG1)"
"""What is said of any file that does not begin with the whole magic line (an empty one included)."""


def is_log(data: bytes) -> bool:
    """Whether ``data`` begins with the whole magic line, newline included (a log's first write)."""
    return data.startswith(MAGIC)


def record(entry: bytes) -> bytes:
    """The bytes to append to a log for one entry."""
    return len(entry).to_bytes(4, "big") + entry


@dataclass(frozen=True)
class ParsedLog:
    """The whole records of a log, and what follows the last one (a cut or damage)."""

    entries: tuple[bytes, ...]
    trailing: int  # bytes after the last whole record
    problem: str = ""  # why parsing stopped early, if it did


def parse_log(data: bytes) -> ParsedLog:
    """Split a log into its entries, never raising: problems are reported in the result."""
    if not is_log(data):
        return ParsedLog((), len(data), NOT_A_LOG)
    pos = len(MAGIC)
    entries: list[bytes] = []
    while pos < len(data):
        if len(data) - pos < 4:
            return ParsedLog(
                tuple(entries), len(data) - pos, f"the log is cut short after entry {len(entries) - 1}"
            )
        size = int.from_bytes(data[pos : pos + 4], "big")
        if size == 0 or size > MAX_ENVELOPE_BYTES:
            return ParsedLog(
                tuple(entries), len(data) - pos, f"entry {len(entries)} has an impossible length"
            )
        if pos + 4 + size > len(data):
            return ParsedLog(tuple(entries), len(data) - pos, _cut(len(entries)))
        entries.append(data[pos + 4 : pos + 4 + size])
        pos += 4 + size
    return ParsedLog(tuple(entries), 0)


def _cut(whole: int) -> str:
    if whole == 0:
        return "the log is cut short before its first entry"
    return f"the log is cut short after entry {whole - 1}"
