"""Chat at the table: signed by the speaker, relayed by the host, checked by everyone, never logged."""

from __future__ import annotations

import random

import pytest
import trio

from fairdeal import registry
from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng
from fairdeal.core.session.header import Header, SeatInfo
from fairdeal.net import wire
from fairdeal.net.chat import PER, RATE, ChatRoom, chat_bytes
from fairdeal.net.driver import BotAgent
from fairdeal.net.invite import Invite
from fairdeal.net.netplay import HostPlan, JoinPlan, NetObserver, Prepared, host_game, join_game

IDS = [Identity.generate(SeededRng(40 + i)) for i in range(3)]
GAME_ID = bytes(range(16))


def _header() -> Header:
    seats = tuple(SeatInfo(n, IDS[i].public_key, "human") for i, n in enumerate(("Ann", "Bob", "Cy")))
    return Header(GAME_ID, "ecarte", "ecarte", "tests", "0", {}, seats)


def _line(seat: int, n: int, text: str, signer: Identity | None = None) -> wire.Chat:
    sig = (signer or IDS[seat]).sign(chat_bytes(GAME_ID, seat, n, text))
    return wire.Chat(seat, n, text, sig)


def test_the_chat_message_is_strict_on_the_wire() -> None:
    line = _line(1, 1, "hello [bold]all[/bold]")
    assert wire.decode(wire.encode(line)) == line
    for bad in (
        {"type": "chat", "seat": 1, "n": 1, "text": "x" * (wire.MAX_CHAT + 1), "sig": line.sig},
        {"type": "chat", "seat": 1, "n": 1, "text": "bell\x07", "sig": line.sig},
        {"type": "chat", "seat": 1, "n": 1, "text": "one\u2028two", "sig": line.sig},
        {"type": "chat", "seat": 1, "n": 1, "text": "one\u2029two", "sig": line.sig},
        {"type": "chat", "seat": 1, "n": 1, "text": "hi", "sig": b"short"},
        {"type": "chat", "seat": 1, "n": 1, "text": "hi"},
        {"type": "chat", "seat": 99, "n": 1, "text": "hi", "sig": line.sig},
    ):
        from fairdeal.core._msgpack import pack

        with pytest.raises(RemoteProtocolError):
            wire.decode(pack(bad))


def test_every_receiver_checks_who_speaks_and_how_often() -> None:
    heard: list[tuple[int, str, str, str]] = []
    now = [0.0]
    room = ChatRoom(_header(), 2, IDS[2], {}, lambda *a: heard.append(a), clock=lambda: now[0])
    assert room.accept(_line(1, 1, "hi"))
    assert heard == [(1, "Bob", IDS[1].fingerprint, "hi")]
    assert not room.accept(_line(1, 1, "hi"))  # the same counter again: a replay
    assert not room.accept(_line(1, 2, "hi", signer=IDS[0]))  # the host speaking for Bob
    assert not room.accept(_line(2, 1, "hi"))  # this seat's own line coming back
    assert not room.accept(wire.Chat(1, 3, "other words", _line(1, 3, "tampered").sig))  # changed text
    for n in range(4, 4 + RATE - 1):
        assert room.accept(_line(1, n, f"line {n}"))
    assert not room.accept(_line(1, 50, "one too many"))  # RATE lines in PER seconds
    now[0] += PER
    assert room.accept(_line(1, 51, "later"))
    assert room.dropped == 5


def test_the_host_relays_a_guest_only_for_its_own_seat() -> None:
    heard: list[tuple[int, str, str, str]] = []
    host = ChatRoom(_header(), 0, IDS[0], {}, lambda *a: heard.append(a))
    from_bob = host.from_link(1)
    from_bob(_line(2, 1, "I am Cy"))  # Bob's connection speaking as Cy: dropped
    from_bob(_line(1, 1, "I am Bob"))
    assert [h[3] for h in heard] == ["I am Bob"]


@pytest.mark.trio
async def test_chat_between_host_and_guest_over_tcp_never_enters_the_log() -> None:
    reg = registry.load()
    entry = reg.entry("ecarte")
    game = entry.game
    heard: dict[str, list[tuple[int, str, str, str]]] = {"host": [], "guest": []}
    invites: list[Invite] = []
    logs: dict[str, bytearray] = {"host": bytearray(), "guest": bytearray()}

    class Log:
        def __init__(self, name: str) -> None:
            self.name = name

        def append(self, data: bytes) -> None:
            logs[self.name].extend(data)

        def close(self) -> None:
            pass

    class Watch(NetObserver):
        def __init__(self, me: str) -> None:
            self.me = me

        def listening(self, code: str, invite: Invite, bound: object) -> None:
            invites.append(invite)

        def chat_ready(self, say: object) -> None:
            assert callable(say)
            assert say(f"good luck from the {self.me} [red]!")

        def chat(self, seat: int, name: str, fingerprint: str, text: str) -> None:
            heard[self.me].append((seat, name, fingerprint, text))

    host_id, guest_id = IDS[0], IDS[1]
    plan = HostPlan(
        game=game,
        plugin=entry.plugin,
        distribution=entry.distribution,
        version=entry.version,
        options={"target": 1},
        players=2,
        identity=host_id,
        name="Ann",
        kind="bot:classic",
        agent=BotAgent(reg.bot("ecarte").make(), random.Random(1)),
        bind="127.0.0.1",
        rng=SeededRng(7),
        open_log=lambda h: Log("host"),
    )

    def prepare(welcome: wire.Welcome) -> Prepared:
        return Prepared(game, BotAgent(reg.bot("ecarte").make(), random.Random(2)), "Bob", "bot:classic")

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(host_game, plan, Watch("host"))
            while not invites:
                await trio.sleep(0.01)
            join = JoinPlan(invites[0], guest_id, prepare, rng=SeededRng(8), open_log=lambda h: Log("guest"))
            await join_game(join, Watch("guest"))
    assert (1, "Bob", guest_id.fingerprint, "good luck from the guest [red]!") in heard["host"]
    assert (0, "Ann", host_id.fingerprint, "good luck from the host [red]!") in heard["guest"]
    for data in logs.values():
        assert data and b"good luck" not in data  # chat never enters the log
