"""A mailbox (or a peer through it) that misbehaves: every byte it sends is checked, and whatever it
does ends in one clear line, never a traceback, never the code's words or the invite in it.

The hostile mailboxes are small WebSocket servers written here (``trio-websocket``'s server), as the
relay tests write hostile relays. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import trio
from trio_websocket import ConnectionClosed, WebSocketConnection, WebSocketRequest, serve_websocket

from fairdeal.core.errors import FairdealError
from fairdeal.core.identity import Identity
from fairdeal.net import events as ev
from fairdeal.net import mailbox as mailbox_module
from fairdeal.net import rendezvous
from fairdeal.net.invite import Endpoint, Invite
from fairdeal.net.mailbox import MailboxError, parse
from fairdeal.net.shortcode import PAKE_BYTES, WrongCode, parse_short_code

CODE = parse_short_code("7-brave-otter")
INVITE = Invite(Identity.from_seed(b"H" * 32).fingerprint, bytes(range(16)), (Endpoint("127.0.0.1", 9),))
LIMIT = 20


# -- every message, checked --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "raw",
    [
        "not json",
        "[1, 2]",
        '"welcome"',
        "{}",
        '{"type": 7}',
        '{"type": "welcome", "welcome": []}',
        '{"type": "allocated"}',
        '{"type": "allocated", "nameplate": 7}',
        '{"type": "allocated", "nameplate": "7a"}',
        '{"type": "allocated", "nameplate": "12345678901"}',
        '{"type": "claimed", "mailbox": "a b"}',
        '{"type": "claimed", "mailbox": ["x"]}',
        '{"type": "claimed", "mailbox": "' + "m" * 65 + '"}',
        '{"type": "message", "side": "ab", "phase": "pake"}',
        '{"type": "message", "side": "ab", "phase": "pake", "body": "xyz"}',
        '{"type": "message", "side": "ab", "phase": "pake", "body": "abc"}',
        '{"type": "message", "side": "ab", "phase": "pake", "body": 12}',
        '{"type": "message", "side": "AB!", "phase": "pake", "body": ""}',
        '{"type": "message", "side": "ab", "phase": "PAKE PHASE", "body": ""}',
        '{"type": "message", "side": "ab", "phase": "pake", "body": "' + "00" * 4097 + '"}',
        '{"type": "pong", "pong": "1"}',
        '{"type": "pong", "pong": true}',
        "[" * 100_000,
        "{" + " " * 20_000 + "}",
    ],
)
def test_a_malformed_message_from_the_mailbox_is_refused_in_one_line(raw: str) -> None:
    with pytest.raises(MailboxError) as err:
        parse(raw)
    assert err.value.kind == "broken"
    assert "\n" not in str(err.value) and len(str(err.value)) < 200


def test_what_the_mailbox_may_send_is_read() -> None:
    assert parse('{"type": "welcome", "welcome": {"motd": "hi"}}') == mailbox_module.Welcome(None)
    assert parse('{"type": "welcome", "welcome": {"error": "go\\naway"}}') == mailbox_module.Welcome(
        "go away"
    )
    assert parse(
        b'{"type": "message", "side": "ab", "phase": "pake", "body": "00ff"}'
    ) == mailbox_module.Mail("ab", "pake", b"\x00\xff")
    assert parse('{"type": "somethingnew", "x": 1}') == mailbox_module.Other("somethingnew")
    refused = parse(json.dumps({"type": "error", "error": "\x1b[2J" * 50}))
    assert isinstance(refused, mailbox_module.Refused)
    assert refused.error.isprintable() and "\x1b" not in refused.error and len(refused.error) <= 120


# -- hostile servers ----------------------------------------------------------------------------------
Script = Callable[[WebSocketConnection], Awaitable[None]]


async def _send(ws: WebSocketConnection, **msg: Any) -> None:
    await ws.send_message(json.dumps(msg))


async def _until(ws: WebSocketConnection, kind: str) -> dict[str, Any]:
    while True:
        msg = json.loads(await ws.get_message())
        if msg.get("type") == kind:
            return dict(msg)


async def _greet(ws: WebSocketConnection) -> None:
    await _send(ws, type="welcome", welcome={})
    await _until(ws, "bind")


async def _claimed(ws: WebSocketConnection, mailbox: str = "mbx") -> None:
    await _greet(ws)
    await _until(ws, "claim")
    await _send(ws, type="claimed", mailbox=mailbox)
    await _until(ws, "open")


async def _ponging(ws: WebSocketConnection) -> None:
    while True:
        msg = json.loads(await ws.get_message())
        if msg.get("type") == "ping":
            await _send(ws, type="pong", pong=msg["ping"])


async def garbage(ws: WebSocketConnection) -> None:
    await ws.send_message("<html>not a mailbox</html>")
    await trio.sleep(5)


async def refuses(ws: WebSocketConnection) -> None:
    await _send(ws, type="welcome", welcome={"error": "this server is closed for maintenance"})
    await trio.sleep(5)


async def closes(ws: WebSocketConnection) -> None:
    await _greet(ws)
    await ws.aclose()


async def silent(ws: WebSocketConnection) -> None:
    await _greet(ws)
    await trio.sleep(10)


async def errors(ws: WebSocketConnection) -> None:
    await _greet(ws)
    msg = await _until(ws, "claim")
    await _send(ws, type="error", error="claim requires 'nameplate'", orig=msg)
    await trio.sleep(5)


async def bad_mailbox_id(ws: WebSocketConnection) -> None:
    await _greet(ws)
    await _until(ws, "claim")
    await _send(ws, type="claimed", mailbox="../../etc")
    await trio.sleep(5)


async def huge(ws: WebSocketConnection) -> None:
    await _greet(ws)
    await ws.send_message("x" * 100_000)
    await trio.sleep(5)


async def bad_body(ws: WebSocketConnection) -> None:
    await _claimed(ws)
    await _send(ws, type="message", side="beef", phase="pake", body="not hex at all")
    await _ponging(ws)


async def bad_pake(ws: WebSocketConnection) -> None:
    await _claimed(ws)
    await _send(ws, type="message", side="beef", phase="pake", body=("42" * PAKE_BYTES))
    await _ponging(ws)


async def short_pake(ws: WebSocketConnection) -> None:
    await _claimed(ws)
    await _send(ws, type="message", side="beef", phase="pake", body="4142")
    await _ponging(ws)


async def flood(ws: WebSocketConnection) -> None:
    await _claimed(ws)
    for i in range(200):
        await _send(ws, type="message", side="beef", phase=f"p{i}", body="")
    await _ponging(ws)


async def empty(ws: WebSocketConnection) -> None:
    await _claimed(ws)
    await _ponging(ws)


async def crowded(ws: WebSocketConnection) -> None:
    await _greet(ws)
    msg = await _until(ws, "claim")
    await _send(ws, type="error", error="crowded", orig=msg)
    await trio.sleep(5)


async def _serve(script: Script, task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    async def handler(request: WebSocketRequest) -> None:
        ws = await request.accept()
        with contextlib.suppress(ConnectionClosed):
            await script(ws)

    async with trio.open_nursery() as n:
        server = await n.start(serve_websocket, handler, "127.0.0.1", 0, None)
        task_status.started(server.port)


WHAT = {
    "garbage": (garbage, "broken", "not JSON"),
    "refuses": (refuses, "refused", "closed for maintenance"),
    "closes": (closes, "closed", "closed the connection"),
    "silent": (silent, "timeout", "did not answer"),
    "errors": (errors, "refused", "the mailbox refused: claim requires"),
    "bad_mailbox_id": (bad_mailbox_id, "broken", "mailbox id"),
    "huge": (huge, "closed", "closed the connection"),
    "bad_body": (bad_body, "broken", "not hex"),
    "flood": (flood, "broken", "more than 64 messages"),
}


@pytest.mark.trio
@pytest.mark.parametrize("name", list(WHAT))
async def test_a_hostile_mailbox_ends_the_joiner_in_one_clear_line(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mailbox_module, "ANSWER_TIMEOUT", 0.5)
    script, kind, words = WHAT[name]
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            port = await n.start(_serve, script)
            with pytest.raises(MailboxError) as err:
                await rendezvous.fetch_invite(CODE, f"ws://127.0.0.1:{port}/v1", answer_wait=1)
            n.cancel_scope.cancel()
    text = str(err.value)
    assert err.value.kind == kind, text
    assert words in text
    assert "\n" not in text and "brave" not in text and "otter" not in text


@pytest.mark.trio
@pytest.mark.parametrize("script", [bad_pake, short_pake, empty, crowded])
async def test_a_peer_that_is_not_the_host_is_a_wrong_code(script: Script) -> None:
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            port = await n.start(_serve, script)
            with pytest.raises(WrongCode) as err:
                await rendezvous.fetch_invite(CODE, f"ws://127.0.0.1:{port}/v1", answer_wait=1)
            n.cancel_scope.cancel()
    assert "the code was wrong or already used" in str(err.value)
    assert "\n" not in str(err.value)


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.trio
async def test_no_mailbox_at_all_and_not_a_websocket_are_said_as_unreachable() -> None:
    with trio.fail_after(LIMIT):
        with pytest.raises(MailboxError, match=r"cannot be reached .*connection refused") as err:
            await rendezvous.fetch_invite(CODE, f"ws://127.0.0.1:{_dead_port()}/v1")
        assert err.value.kind == "unreachable"

        async def http(stream: trio.SocketStream) -> None:
            await stream.receive_some(4096)
            await stream.send_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")

        async with trio.open_nursery() as n:
            listeners = await n.start(trio.serve_tcp, http, 0)
            port = listeners[0].socket.getsockname()[1]
            with pytest.raises(MailboxError, match="refused the WebSocket") as err:
                await rendezvous.fetch_invite(CODE, f"ws://127.0.0.1:{port}/v1")
            n.cancel_scope.cancel()


@pytest.mark.trio
@pytest.mark.parametrize("name", ["garbage", "refuses", "closes", "errors", "huge"])
async def test_the_host_reports_a_hostile_mailbox_once_and_goes_on(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mailbox_module, "ANSWER_TIMEOUT", 0.5)
    monkeypatch.setattr(rendezvous, "RETRY", (0.0, 0.1))
    events: list[ev.NetEvent] = []
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            port = await n.start(_serve, WHAT[name][0])
            url = f"ws://127.0.0.1:{port}/v1"
            n.start_soon(rendezvous.keep_short_codes, url, INVITE.encode(), events.append)
            await trio.sleep(1.5)
            n.cancel_scope.cancel()
    down = [e for e in events if isinstance(e, ev.MailboxStatus)]
    assert len(down) == 1 and not down[0].reachable, events
    assert "\n" not in down[0].reason and INVITE.encode() not in down[0].reason
    assert not any(isinstance(e, ev.ShortCode) for e in events)


def test_every_failure_is_a_fairdeal_error() -> None:
    assert issubclass(MailboxError, FairdealError) and issubclass(WrongCode, FairdealError)
