"""The trio adapter over memory streams and real loopback TCP, and what a joiner says of a listener
that is no fairdeal host. Every test is bounded."""

from __future__ import annotations

import contextlib
import os

import pytest
import trio
import trio.testing

from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.net.connect import connect_host
from fairdeal.net.errors import NetError
from fairdeal.net.framing import MAX_APP_MESSAGE, encode_frame
from fairdeal.net.invite import Endpoint, Invite
from fairdeal.net.secure import SecureChannel
from fairdeal.net.stream import PeerClosed, SecureStream, secure_connect

HOST = Identity.from_seed(b"h" * 32)
GUEST = Identity.from_seed(b"g" * 32)
LIMIT = 5  # seconds; every test finishes far sooner


async def _pair(
    left: trio.abc.Stream, right: trio.abc.Stream, **guest_kwargs: object
) -> tuple[SecureStream, SecureStream]:
    """(guest, host): the guest initiates on ``left``, the host responds on ``right``."""
    result: dict[str, SecureStream] = {}

    async def host() -> None:
        result["host"] = await secure_connect(right, HOST, initiator=False)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(host)
        result["guest"] = await secure_connect(left, GUEST, initiator=True, **guest_kwargs)  # type: ignore[arg-type]
    return result["guest"], result["host"]


async def _exchange(guest: SecureStream, host: SecureStream) -> None:
    assert guest.peer_identity == HOST.public_key and guest.peer_fingerprint == HOST.fingerprint
    assert host.peer_identity == GUEST.public_key and host.peer_fingerprint == GUEST.fingerprint
    await guest.send(b"hello host")
    assert await host.receive() == b"hello host"
    await host.send(b"hello guest")
    await host.send(b"again")
    assert await guest.receive() == b"hello guest"
    assert await guest.receive() == b"again"
    big = os.urandom(MAX_APP_MESSAGE)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(guest.send, big)
        assert await host.receive() == big
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.send, big)
        assert await guest.receive() == big


@pytest.mark.trio
async def test_memory_streams() -> None:
    with trio.fail_after(LIMIT):
        left, right = trio.testing.memory_stream_pair()
        guest, host = await _pair(left, right, expected_peer_fingerprint=HOST.fingerprint)
        await _exchange(guest, host)
        await guest.aclose()
        with pytest.raises(PeerClosed):
            await host.receive()
        with pytest.raises(PeerClosed):
            await host.receive()


@pytest.mark.trio
async def test_loopback_tcp() -> None:
    with trio.fail_after(LIMIT):
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        port = listeners[0].socket.getsockname()[1]
        async with trio.open_nursery() as nursery:
            accepted: list[trio.SocketStream] = []

            async def accept() -> None:
                accepted.append(await listeners[0].accept())

            nursery.start_soon(accept)
            client = await trio.open_tcp_stream("127.0.0.1", port)
        guest, host = await _pair(client, accepted[0])
        await _exchange(guest, host)
        async with guest:
            pass
        with pytest.raises(PeerClosed):
            await host.receive()
        await host.aclose()
        await host.aclose()  # idempotent
        for listener in listeners:
            await listener.aclose()


@pytest.mark.trio
async def test_concurrent_senders_keep_messages_whole() -> None:
    with trio.fail_after(LIMIT):
        guest, host = await _pair(*trio.testing.memory_stream_pair())
        messages = {bytes([i]) * (70_000 + i) for i in range(1, 9)}
        async with trio.open_nursery() as nursery:
            for message in messages:
                nursery.start_soon(guest.send, message)
            received = {await host.receive() for _ in messages}
        assert received == messages


@pytest.mark.trio
async def test_message_riding_with_the_last_handshake_bytes() -> None:
    """Bytes that arrive together with message 3 are not lost."""
    with trio.fail_after(LIMIT):
        left, right = trio.testing.memory_stream_pair()
        channel = SecureChannel(GUEST, True)
        await left.send_all(channel.initiate())

        async def guest_side() -> None:
            while not channel.handshake_complete:
                channel.receive_data(await left.receive_some())
            await left.send_all(channel.send_message(b"first") + channel.send_message(b"second"))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(guest_side)
            host = await secure_connect(right, HOST, initiator=False)
        assert await host.receive() == b"first"
        assert await host.receive() == b"second"


async def _serve_one(listener: trio.SocketListener, errors: list[BaseException], timeout: float) -> None:
    stream = await listener.accept()
    try:
        await secure_connect(stream, HOST, initiator=False, handshake_timeout=timeout)
    except RemoteProtocolError as exc:
        errors.append(exc)


@pytest.mark.trio
@pytest.mark.parametrize(
    ("garbage", "close_after", "reason"),
    [
        (b"\x00\x00", False, "length 0"),
        (encode_frame(os.urandom(48)), False, "empty payload"),
        (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", True, "that is not a fairdeal client"),
        (b"", False, "did not finish"),
    ],
    ids=["zero-frame", "payload-in-message-1", "http-then-eof", "silent"],
)
async def test_garbage_client_is_closed(garbage: bytes, close_after: bool, reason: str) -> None:
    with trio.fail_after(LIMIT):
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        port = listeners[0].socket.getsockname()[1]
        errors: list[BaseException] = []
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_serve_one, listeners[0], errors, 0.3)
            client = await trio.open_tcp_stream("127.0.0.1", port)
            if garbage:
                await client.send_all(garbage)
            if close_after:
                with contextlib.suppress(trio.BrokenResourceError):  # it may be refused already
                    await client.send_eof()
            # The server closes us: we see EOF (or a reset), never a hang.
            try:
                while await client.receive_some(65536):
                    pass
            except trio.BrokenResourceError:
                pass
        await client.aclose()
        for listener in listeners:
            await listener.aclose()
        assert len(errors) == 1
        assert reason in str(errors[0])
        assert "127.0.0.1:" in str(errors[0])  # the peer is named


@pytest.mark.trio
async def test_handshake_timeout(autojump_clock: trio.testing.MockClock) -> None:
    with trio.fail_after(LIMIT):
        _left, right = trio.testing.memory_stream_pair()
        with pytest.raises(RemoteProtocolError, match="within 2 s") as info:
            await secure_connect(right, HOST, initiator=False, handshake_timeout=2, peer="silent guest")
        assert info.value.peer == "silent guest"
        assert trio.current_time() >= 2
        with pytest.raises(trio.ClosedResourceError):
            await right.send_all(b"x")


@pytest.mark.trio
async def test_a_listener_that_says_nothing_is_not_a_fairdeal_host(
    autojump_clock: trio.testing.MockClock,
) -> None:
    with trio.fail_after(LIMIT):
        left, _right = trio.testing.memory_stream_pair()
        with pytest.raises(
            RemoteProtocolError, match="that is not a fairdeal host: it took the connection"
        ) as info:
            await secure_connect(left, GUEST, initiator=True, handshake_timeout=3, peer="127.0.0.1:9")
        assert info.value.peer == "127.0.0.1:9" and "in 3 s" in info.value.reason
        assert trio.current_time() >= 3


@pytest.mark.trio
async def test_a_host_that_answers_and_stalls_did_not_finish(autojump_clock: trio.testing.MockClock) -> None:
    with trio.fail_after(LIMIT):
        left, right = trio.testing.memory_stream_pair()

        async def stalls() -> None:
            await right.receive_some(65536)
            await right.send_all(b"\x00")  # the first byte of a frame, then nothing

        async with trio.open_nursery() as nursery:
            nursery.start_soon(stalls)
            with pytest.raises(RemoteProtocolError, match="handshake did not finish within 3 s"):
                await secure_connect(left, GUEST, initiator=True, handshake_timeout=3)


@pytest.mark.trio
@pytest.mark.parametrize(
    ("answer", "said"),
    [(None, "that is not a fairdeal host: it took the connection and said nothing in 1 s"),
     (b"\x00", "handshake did not finish within 1 s")],
    ids=["silent", "stalls"],
)  # fmt: skip
async def test_a_connect_timeout_shorter_than_the_handshake_says_what_took_the_connection(
    answer: bytes | None, said: str
) -> None:
    """The joiner gives up at its connect timeout, before the handshake's own: it says what the
    handshake's timeout would have said, for the seconds it waited."""
    with trio.fail_after(LIMIT):
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        where = Endpoint("127.0.0.1", listeners[0].socket.getsockname()[1])

        async def listener(stream: trio.SocketStream) -> None:
            async with stream:
                await stream.receive_some(65536)
                if answer is not None:
                    await stream.send_all(answer)
                await trio.sleep_forever()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(trio.serve_listeners, listener, listeners)
            invite = Invite(HOST.fingerprint, bytes(16), (where,))
            start = trio.current_time()
            with pytest.raises(NetError) as info:
                await connect_host(invite, GUEST, connect_timeout=1, handshake_timeout=3)
            assert trio.current_time() - start < 2
            nursery.cancel_scope.cancel()
    assert str(info.value) == f"could not connect to the host at {where}: {said}"


@pytest.mark.trio
async def test_expected_fingerprint_mismatch_closes_the_stream() -> None:
    with trio.fail_after(LIMIT):
        left, right = trio.testing.memory_stream_pair()
        host_errors: list[RemoteProtocolError] = []

        async def host() -> None:
            try:
                await secure_connect(right, HOST, initiator=False)
            except RemoteProtocolError as exc:
                host_errors.append(exc)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(host)
            with pytest.raises(RemoteProtocolError, match="does not match the invite"):
                await secure_connect(left, GUEST, initiator=True, expected_peer_fingerprint=GUEST.fingerprint)
        with pytest.raises(trio.ClosedResourceError):
            await left.send_all(b"x")
        # The host never learned who the guest is: the guest hung up before message 3.
        assert len(host_errors) == 1 and "during the handshake" in str(host_errors[0])


@pytest.mark.trio
async def test_garbage_after_the_handshake_closes_the_stream() -> None:
    with trio.fail_after(LIMIT):
        left, right = trio.testing.memory_stream_pair()
        channel = SecureChannel(GUEST, True)
        await left.send_all(channel.initiate())

        async def guest_side() -> None:
            while not channel.handshake_complete:
                channel.receive_data(await left.receive_some())
            await left.send_all(channel.data_to_send())

        async with trio.open_nursery() as nursery:
            nursery.start_soon(guest_side)
            host = await secure_connect(right, HOST, initiator=False)
        await left.send_all(channel.send_message(b"fine"))
        assert await host.receive() == b"fine"
        await left.send_all(encode_frame(os.urandom(64)))
        with pytest.raises(RemoteProtocolError, match="authentication") as info:
            await host.receive()
        assert info.value.peer == GUEST.fingerprint
        with pytest.raises(trio.ClosedResourceError):
            await right.send_all(b"x")
        with pytest.raises(LocalProtocolError, match="closed"):
            await host.send(b"x")


@pytest.mark.trio
async def test_eof_in_the_middle_of_a_message() -> None:
    with trio.fail_after(LIMIT):
        left, right = trio.testing.memory_stream_pair()
        guest, host = await _pair(left, right)
        wire = guest.channel.send_message(b"y" * 200_000)
        await left.send_all(wire[:100_000])
        await left.aclose()
        with pytest.raises(RemoteProtocolError, match="middle"):
            await host.receive()


@pytest.mark.trio
async def test_interrupted_send_breaks_the_stream() -> None:
    with trio.fail_after(LIMIT):
        left, right = trio.testing.lockstep_stream_pair()
        guest, _host = await _pair(left, right)
        with trio.move_on_after(0.05):
            await guest.send(b"z" * 1000)  # nobody reads: lockstep send blocks
        with pytest.raises(trio.BrokenResourceError):
            await guest.send(b"z")
