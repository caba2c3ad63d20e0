"""The authenticated, encrypted channel between two fairdeal peers, sans-I/O (h11 style).

Noise_XX_25519_ChaChaPoly_SHA256 with a fresh Noise static key per connection. Each
side proves its long-term Ed25519 identity by signing
``b"fairdeal-noise-static:" + noise_static_public_key``; the signature travels in the
encrypted payload of handshake message 2 (responder) and 3 (initiator) as msgpack
``{"id": <32-byte public key>, "sig": <64-byte signature>}``, the key a strict one (canonical, a
curve point, not of small order: :func:`fairdeal.core.identity.key_problem`). Message 1 carries
nothing.

Feed received bytes to :meth:`SecureChannel.receive_data` and send what
:meth:`SecureChannel.initiate`, :meth:`SecureChannel.send_message` and
:meth:`SecureChannel.data_to_send` return. Any error closes the channel for good.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final, NoReturn

from fairdeal.core import pack, strict_unpack
from fairdeal.core.errors import LocalProtocolError, ProtocolError, RemoteProtocolError
from fairdeal.core.identity import (
    PUBLIC_KEY_BYTES,
    SIGNATURE_BYTES,
    Identity,
    fingerprint,
    key_problem,
    verify_signature,
)

from ._noise import CipherState, HandshakeState, HashName, KeyInput
from .framing import MAX_APP_MESSAGE, FrameDecoder, MessageReassembler, encode_frame, split_message

DEFAULT_PROLOGUE: Final = b"fairdeal/v1"
STATIC_KEY_SIGNATURE_PREFIX: Final = b"fairdeal-noise-static:"
NOISE_HASH: Final[HashName] = "SHA256"
#: A handshake message is at most 32 + 48 + 256 (payload) + 16 bytes; a first frame over this is not ours.
MAX_HANDSHAKE_FRAME: Final = 512


class WrongIdentity(RemoteProtocolError):
    """The peer proved an identity other than the expected one; ``seen`` is its fingerprint."""

    def __init__(
        self, reason: str, *, seat: int | None = None, peer: str | None = None, seen: str = ""
    ) -> None:
        super().__init__(reason, seat=seat, peer=peer)
        self.seen = seen


class Event:
    """Base class of the events :meth:`SecureChannel.receive_data` returns."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class HandshakeComplete(Event):
    """The peer proved its identity; messages may flow both ways now."""

    peer_identity: bytes
    peer_fingerprint: str


@dataclass(frozen=True, slots=True)
class MessageReceived(Event):
    """One complete application message from the peer."""

    payload: bytes


class _State(enum.Enum):
    IDLE = "idle"  # initiator before initiate(), responder before message 1
    HANDSHAKE = "handshake"
    OPEN = "open"
    CLOSED = "closed"


def _auth_payload(identity: Identity, noise_static: bytes) -> bytes:
    signature = identity.sign(STATIC_KEY_SIGNATURE_PREFIX + noise_static)
    return pack({"id": identity.public_key, "sig": signature})


def _verify_auth_payload(payload: bytes, remote_static: bytes) -> bytes:
    """The peer's identity public key, after checking it signed ``remote_static``."""
    # The payload is a 2-entry map: tight limits, so nothing big is ever allocated for it.
    try:
        obj = strict_unpack(payload, max_bytes=256, max_str=64, max_bin=64, max_array=0, max_map=2)
    except RemoteProtocolError as exc:
        raise RemoteProtocolError(f"handshake payload is not valid: {exc.reason}") from None
    if type(obj) is not dict or set(obj) != {"id", "sig"}:
        raise RemoteProtocolError("handshake payload must be a map with exactly the keys 'id' and 'sig'")
    identity, signature = obj["id"], obj["sig"]
    if type(identity) is not bytes or len(identity) != PUBLIC_KEY_BYTES:
        raise RemoteProtocolError("handshake payload 'id' must be a 32-byte Ed25519 public key")
    problem = key_problem(identity)
    if problem is not None:  # under a key of small order, one signature "signs" everything (issue 41)
        raise RemoteProtocolError(f"handshake payload 'id' is not a strict Ed25519 key: {problem}")
    if type(signature) is not bytes or len(signature) != SIGNATURE_BYTES:
        raise RemoteProtocolError("handshake payload 'sig' must be a 64-byte signature")
    if not verify_signature(identity, signature, STATIC_KEY_SIGNATURE_PREFIX + remote_static):
        raise RemoteProtocolError("identity signature over the Noise static key is invalid")
    return identity


class SecureChannel:
    """One end of a fairdeal secure channel; no I/O.

    ``expected_peer_fingerprint`` (from an invite) makes the handshake fail unless the
    peer's identity has exactly that fingerprint (as :func:`fingerprint` spells it).
    ``static_key`` and ``ephemeral`` are for tests; by default both are fresh random
    keys. ``peer`` labels errors (the peer's fingerprint is used once known).
    ``max_message_size`` bounds application messages both ways (1 MiB by default).
    """

    def __init__(
        self,
        identity: Identity,
        initiator: bool,
        prologue: bytes = DEFAULT_PROLOGUE,
        expected_peer_fingerprint: str | None = None,
        *,
        static_key: KeyInput = None,
        ephemeral: KeyInput = None,
        peer: str | None = None,
        max_message_size: int = MAX_APP_MESSAGE,
    ) -> None:
        self._initiator = initiator
        self._expected = expected_peer_fingerprint
        self._peer = peer
        self._max_message_size = max_message_size
        self._hs: HandshakeState | None = HandshakeState(
            initiator=initiator,
            hash_name=NOISE_HASH,
            prologue=prologue,
            static_key=static_key,
            ephemeral=ephemeral,
        )
        self._auth = _auth_payload(identity, self._hs.local_static)
        self._frames = FrameDecoder()
        self._peer_frames = False  # whether the peer's first frame header has been seen
        self._messages = MessageReassembler(max_message_size)
        self._outgoing = bytearray()
        self._state = _State.IDLE
        self._eof = False
        self._remote_identity: bytes | None = None
        self._remote_fingerprint: str | None = None
        self._handshake_hash: bytes | None = None
        self._send_cipher: CipherState | None = None
        self._recv_cipher: CipherState | None = None
        self._close_reason: str | None = None
        self._farewell_cipher: CipherState | None = None

    # -- properties --------------------------------------------------------------------

    @property
    def initiator(self) -> bool:
        return self._initiator

    @property
    def handshake_complete(self) -> bool:
        """True once the peer's identity is verified (until the channel closes)."""
        return self._state is _State.OPEN

    @property
    def closed(self) -> bool:
        return self._state is _State.CLOSED

    @property
    def remote_identity(self) -> bytes | None:
        """The peer's verified Ed25519 public key, once the handshake completed."""
        return self._remote_identity

    @property
    def remote_fingerprint(self) -> str | None:
        return self._remote_fingerprint

    @property
    def handshake_hash(self) -> bytes | None:
        """The Noise handshake hash (a channel binding), once the handshake completed."""
        return self._handshake_hash

    # -- errors ------------------------------------------------------------------------

    def _label(self) -> str | None:
        return self._peer or self._remote_fingerprint

    def close(self) -> None:
        """Stop using the channel; further use raises LocalProtocolError. Idempotent."""
        self._state = _State.CLOSED
        self._hs = None
        self._send_cipher = self._recv_cipher = None
        self._outgoing.clear()

    def _fail(self, exc: BaseException) -> NoReturn:
        """Close, then raise ``exc`` with the peer's label attached."""
        if self._close_reason is None:
            self._close_reason = exc.reason if isinstance(exc, ProtocolError) else type(exc).__name__
        self.close()
        if isinstance(exc, ProtocolError) and exc.peer is None and self._label() is not None:
            labelled = type(exc)(exc.reason, seat=exc.seat, peer=self._label())
            labelled.__dict__.update(
                {k: v for k, v in vars(exc).items() if k not in ("reason", "seat", "peer")}
            )
            raise labelled from exc
        raise exc

    def _check_usable(self) -> None:
        if self._state is _State.CLOSED:
            reason = f" after: {self._close_reason}" if self._close_reason else ""
            raise LocalProtocolError(f"the secure channel is closed{reason}")

    # -- sending -----------------------------------------------------------------------

    def initiate(self) -> bytes:
        """Handshake message 1 as wire bytes (initiator only, once)."""
        self._check_usable()
        try:
            if not self._initiator:
                raise LocalProtocolError("only the initiator starts the handshake")
            if self._state is not _State.IDLE or self._hs is None:
                raise LocalProtocolError("the handshake was already started")
            message = encode_frame(self._hs.write_message(b""))
        except BaseException as exc:
            self._fail(exc)
        self._state = _State.HANDSHAKE
        return message

    def data_to_send(self) -> bytes:
        """Drain the handshake bytes produced while receiving (may be empty)."""
        self._check_usable()
        out = bytes(self._outgoing)
        self._outgoing.clear()
        return out

    def send_message(self, payload: bytes) -> bytes:
        """Wire bytes carrying ``payload`` (1 byte .. 1 MiB), after any pending handshake bytes."""
        self._check_usable()
        try:
            if self._state is not _State.OPEN or self._send_cipher is None:
                raise LocalProtocolError("cannot send before the handshake is complete")
            out = bytearray(self._outgoing)
            self._outgoing.clear()
            for chunk in split_message(payload, max_message_size=self._max_message_size):
                out += encode_frame(self._send_cipher.encrypt_with_ad(b"", chunk))
        except BaseException as exc:
            self._fail(exc)
        return bytes(out)

    def farewell(self, payload: bytes) -> bytes:
        """Wire bytes of one last message, after what the peer sent broke the channel.

        Receiving is over for good then, but the send direction is intact: this lets the
        receiver say why it closes. Possible once, only after the handshake completed and
        the failure came from received data; LocalProtocolError otherwise.
        """
        cipher, self._farewell_cipher = self._farewell_cipher, None
        if cipher is None:
            raise LocalProtocolError("no farewell message is possible on this channel")
        out = bytearray()
        for chunk in split_message(payload, max_message_size=self._max_message_size):
            out += encode_frame(cipher.encrypt_with_ad(b"", chunk))
        return bytes(out)

    def _keep_farewell(self) -> None:
        if self._state is _State.OPEN and self._farewell_cipher is None:
            self._farewell_cipher = self._send_cipher

    # -- receiving ---------------------------------------------------------------------

    def receive_data(self, data: bytes | bytearray | memoryview) -> list[Event]:
        """The events completed by ``data`` received from the peer, in order.

        Raises RemoteProtocolError (and closes) on anything malformed or unauthenticated;
        events completed earlier in the same ``data`` are then discarded.
        """
        self._check_usable()
        try:
            if self._eof:
                raise LocalProtocolError("data received after end of stream")
            if self._initiator and self._state is _State.IDLE:
                raise LocalProtocolError("call initiate() before receiving data")
            events: list[Event] = []
            self._check_first_frame(data)
            for frame in self._frames.feed(data):
                if self._state is _State.OPEN:
                    events.extend(self._on_transport(frame))
                else:
                    event = self._on_handshake(frame)
                    if event is not None:
                        events.append(event)
        except BaseException as exc:
            self._keep_farewell()
            self._fail(exc)
        return events

    def _check_first_frame(self, data: bytes | bytearray | memoryview) -> None:
        """Refuse at once a peer whose first frame is far too long for a handshake message.

        That is another program (an HTTP or SSH server's greeting reads as a length of
        thousands), refused now rather than waited for until the handshake times out.
        """
        if self._peer_frames or len(data) < 2 or not self._frames.at_boundary:
            self._peer_frames = self._peer_frames or len(data) >= 2
            return
        self._peer_frames = True
        length = int.from_bytes(bytes(data[:2]), "big")
        if length > MAX_HANDSHAKE_FRAME:
            who = "a fairdeal host" if self._initiator else "a fairdeal client"
            raise RemoteProtocolError(
                f"that is not {who}: its first {length}-byte frame is no fairdeal handshake message"
            )

    def receive_eof(self) -> None:
        """The peer closed its side. RemoteProtocolError unless that happened between messages.

        After a clean end, :meth:`send_message` still works (half-close).
        """
        self._check_usable()
        try:
            if self._state is not _State.OPEN:
                raise RemoteProtocolError("connection closed during the handshake")
            self._frames.eof()
            self._messages.eof()
        except BaseException as exc:
            self._keep_farewell()
            self._fail(exc)
        self._eof = True

    def _on_handshake(self, frame: bytes) -> HandshakeComplete | None:
        hs = self._hs
        assert hs is not None
        payload = hs.read_message(frame)
        if self._state is _State.IDLE:
            # Responder, message 1: nothing may ride on the unauthenticated first message.
            if payload:
                raise RemoteProtocolError("handshake message 1 must have an empty payload")
            self._outgoing += encode_frame(hs.write_message(self._auth))
            self._state = _State.HANDSHAKE
            return None
        assert hs.remote_static is not None
        identity = _verify_auth_payload(payload, hs.remote_static)
        peer_fingerprint = fingerprint(identity)
        if self._expected is not None and peer_fingerprint != self._expected:
            # The initiator is the joiner, whose expectation comes from an invite code.
            raise WrongIdentity(
                f"host identity does not match the invite: the peer is {peer_fingerprint}, "
                f"the invite names {self._expected}"
                if self._initiator
                else f"peer identity is not the expected one: it is {peer_fingerprint}",
                seen=peer_fingerprint,
            )
        if not hs.is_complete:
            # Initiator, message 2 read: answer with message 3, which completes the handshake.
            self._outgoing += encode_frame(hs.write_message(self._auth))
        self._remote_identity = identity
        self._remote_fingerprint = peer_fingerprint
        self._handshake_hash = hs.handshake_hash
        self._send_cipher, self._recv_cipher = hs.send_cipher, hs.receive_cipher
        self._hs = None
        self._state = _State.OPEN
        return HandshakeComplete(identity, peer_fingerprint)

    def _on_transport(self, frame: bytes) -> list[Event]:
        assert self._recv_cipher is not None
        plaintext = self._recv_cipher.decrypt_with_ad(b"", frame)
        if not plaintext:
            raise RemoteProtocolError("empty transport message")
        return [MessageReceived(message) for message in self._messages.feed(plaintext)]

    def __repr__(self) -> str:
        role = "initiator" if self._initiator else "responder"
        peer = f", peer={self._label()}" if self._label() else ""
        return f"SecureChannel({role}, {self._state.value}{peer})"
