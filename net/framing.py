"""Framing for the secure channel, sans-I/O.

Two layers:

* On the wire, every Noise message is preceded by its length as 2 bytes big-endian
  (1..65535). :func:`encode_frame` and :class:`FrameDecoder`.
* Inside the decrypted transport stream, every application message is preceded by its
  length as 4 bytes big-endian. A length must be 1..``max_message_size`` (1 MiB by
  default). Empty messages are refused: the layer above (msgpack) never sends one, so
  a zero length can only be a bug or an attack.
  :func:`split_message` and :class:`MessageReassembler`.

Decoders check every declared length as soon as its header is complete, before
accepting any further byte, and buffer at most one frame or message. After they raise
:class:`RemoteProtocolError` they are dead: further use raises
:class:`LocalProtocolError`.
"""

from __future__ import annotations

from typing import Final, NoReturn

from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError

from ._noise import MAX_MESSAGE_LEN, TAG_LEN

FRAME_HEADER_LEN: Final = 2
MAX_FRAME_LEN: Final = MAX_MESSAGE_LEN
"""Largest frame body: one Noise message."""
MAX_TRANSPORT_PLAINTEXT: Final = MAX_MESSAGE_LEN - TAG_LEN
"""Most plaintext one Noise transport message can carry (65519 bytes)."""
MESSAGE_HEADER_LEN: Final = 4
MAX_APP_MESSAGE: Final = 1_048_576
"""Default limit on one application message (1 MiB)."""


def encode_frame(noise_message: bytes) -> bytes:
    """``noise_message`` with its 2-byte length prefix."""
    if not 1 <= len(noise_message) <= MAX_FRAME_LEN:
        raise LocalProtocolError(f"a frame carries 1..{MAX_FRAME_LEN} bytes, not {len(noise_message)}")
    return len(noise_message).to_bytes(FRAME_HEADER_LEN, "big") + bytes(noise_message)


def split_message(message: bytes, *, max_message_size: int = MAX_APP_MESSAGE) -> list[bytes]:
    """The plaintext chunks (each at most 65519 bytes) that carry ``message``.

    Raises :class:`LocalProtocolError` unless ``1 <= len(message) <= max_message_size``.
    """
    if not isinstance(message, bytes | bytearray):
        raise LocalProtocolError(f"a message is bytes, not {type(message).__name__}")
    size = len(message)
    if not 1 <= size <= max_message_size:
        raise LocalProtocolError(f"a message is 1..{max_message_size} bytes, not {size}")
    stream = size.to_bytes(MESSAGE_HEADER_LEN, "big") + message
    step = MAX_TRANSPORT_PLAINTEXT
    return [stream[i : i + step] for i in range(0, len(stream), step)]


class _LengthPrefixedDecoder:
    """Splits a byte stream of ``[length][body]`` records; the common part of both layers."""

    __slots__ = ("_body", "_failed", "_header", "_header_len", "_max_len", "_need", "_what")

    def __init__(self, header_len: int, max_len: int, what: str) -> None:
        self._header_len = header_len
        self._max_len = max_len
        self._what = what
        self._header = bytearray()
        self._body = bytearray()
        self._need: int | None = None  # body length once the header is complete
        self._failed = False

    @property
    def buffered(self) -> int:
        """Bytes held for an incomplete record (never more than one record)."""
        return len(self._header) + len(self._body)

    @property
    def at_boundary(self) -> bool:
        """True when no partial record is buffered."""
        return self._need is None and not self._header

    def _fail(self, reason: str) -> NoReturn:
        self._failed = True
        self._header.clear()
        self._body = bytearray()
        self._need = None
        raise RemoteProtocolError(reason)

    def feed(self, data: bytes | bytearray | memoryview) -> list[bytes]:
        """The records completed by ``data``, in order."""
        if self._failed:
            raise LocalProtocolError(f"the {self._what} decoder failed earlier")
        records: list[bytes] = []
        view = memoryview(data).cast("B")
        pos, end = 0, len(view)
        while pos < end:
            need = self._need
            if need is None:
                take = min(self._header_len - len(self._header), end - pos)
                self._header += view[pos : pos + take]
                pos += take
                if len(self._header) < self._header_len:
                    break
                length = int.from_bytes(self._header, "big")
                self._header.clear()
                if length == 0:
                    self._fail(f"{self._what} of length 0")
                if length > self._max_len:
                    self._fail(f"{self._what} of {length} bytes exceeds the limit of {self._max_len}")
                self._need = length
                continue
            take = min(need - len(self._body), end - pos)
            if not self._body and take == need:
                records.append(bytes(view[pos : pos + take]))
            else:
                self._body += view[pos : pos + take]
                if len(self._body) < need:
                    pos += take
                    break
                records.append(bytes(self._body))
                self._body = bytearray()
            pos += take
            self._need = None
        return records

    def eof(self) -> None:
        """Declare the end of the stream: RemoteProtocolError if it ends mid-record."""
        if self._failed:
            raise LocalProtocolError(f"the {self._what} decoder failed earlier")
        if not self.at_boundary:
            self._fail(f"stream ended in the middle of a {self._what}")


class FrameDecoder(_LengthPrefixedDecoder):
    """Wire bytes -> Noise messages (1..65535 bytes); buffers at most one frame."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(FRAME_HEADER_LEN, MAX_FRAME_LEN, "frame")


class MessageReassembler(_LengthPrefixedDecoder):
    """Decrypted transport plaintext -> application messages of 1..``max_message_size`` bytes."""

    __slots__ = ()

    def __init__(self, max_message_size: int = MAX_APP_MESSAGE) -> None:
        if not 1 <= max_message_size < 2 ** (8 * MESSAGE_HEADER_LEN):
            raise LocalProtocolError("max_message_size must fit the 4-byte length header")
        super().__init__(MESSAGE_HEADER_LEN, max_message_size, "application message")
