"""Chat at the table: signed by the speaker, relayed by the host, checked by everyone, never logged."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import trio

from fairdeal import registry, seedfile
from fairdeal.cli.keeping import SeedKeeper
from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng
from fairdeal.core.session.header import Header, SeatInfo
from fairdeal.net import GuestResume, HostPlan, JoinPlan, Prepared, host_game, join_game, wire
from fairdeal.net import events as ev
from fairdeal.net.chat import PER, RATE, ChatRoom, chat_bytes
from fairdeal.net.driver import BotAgent
from fairdeal.net.invite import Invite

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
        from fairdeal.core import pack

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

    class Watch:
        def __init__(self, me: str) -> None:
            self.me = me

        def __call__(self, event: ev.NetEvent) -> None:
            match event:
                case ev.Listening(_, invite):
                    invites.append(invite)
                case ev.TableReady(say):
                    assert callable(say)
                    assert say(f"good luck from the {self.me} [red]!")
                case ev.ChatLine(seat, name, fingerprint, text):
                    heard[self.me].append((seat, name, fingerprint, text))
                case _:
                    pass

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


def test_a_room_goes_on_from_the_marks_it_kept_and_refuses_a_replay() -> None:
    kept: list[tuple[int, ...]] = []
    heard: list[str] = []
    bob = ChatRoom(_header(), 1, IDS[1], {}, lambda *a: heard.append(a[3]), keep=kept.append)
    assert bob.accept(_line(0, 1, "from Ann")) and bob.say("from Bob")
    assert kept == [(1, 0, 0), (1, 1, 0)]  # kept before each line is shown or sent
    # Bob's program starts again from what it kept: its next line is 2, Ann's line 1 is old.
    again = ChatRoom(_header(), 1, IDS[1], {}, lambda *a: heard.append(a[3]), marks=kept[-1])
    assert not again.accept(_line(0, 1, "from Ann"))
    sent: list[wire.Chat] = []

    class Catch:
        alive = True

        def send(self, msg: wire.Chat) -> None:
            sent.append(msg)

    again.links = {0: Catch()}  # type: ignore[dict-item]
    assert again.say("again from Bob") and sent[0].n == 2
    assert heard == ["from Ann", "from Bob", "again from Bob"]


class _Gate:
    """The host's player, who thinks until the test lets it go (the guest's moves alone must not
    end the game meanwhile: a match to 5, which one announced King cannot win)."""

    def __init__(self, agent: BotAgent) -> None:
        self.agent, self.go = agent, trio.Event()

    async def decide(self, session: object, moves: list[object]) -> object:
        await self.go.wait()
        return await self.agent.decide(session, moves)  # type: ignore[arg-type]


def test_chat_after_a_resume_works_and_a_replayed_line_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A guest that says a line and hears one, crashes and resumes from its log and seed file
    (the real keeper): its next line reaches the host, and the host's old line, sent to it
    again, is refused; a new one is shown."""
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "home"))
    reg = registry.load()
    entry = reg.entry("ecarte")
    game = entry.game
    heard: dict[str, list[str]] = {"host": [], "guest": []}
    says: dict[str, Any] = {}
    invites: list[Invite] = []
    headers: list[Any] = []
    guest_log = tmp_path / "guest.fdlog"
    entries: list[bytes] = []

    class Log:
        def append(self, data: bytes) -> None:
            entries.append(data)

        def close(self) -> None:
            pass

    class Watch:
        def __init__(self, me: str) -> None:
            self.me = me

        def __call__(self, event: ev.NetEvent) -> None:
            match event:
                case ev.Listening(_, invite):
                    invites.append(invite)
                case ev.TableReady(say):
                    says[self.me] = say
                case ev.ChatLine(text=text):
                    heard[self.me].append(text)
                case ev.Started(header) if self.me == "guest":
                    headers.append(header)
                case _:
                    pass

    gate = _Gate(BotAgent(reg.bot("ecarte").make(), random.Random(1)))
    plan = HostPlan(
        game=game, plugin=entry.plugin, distribution=entry.distribution, version=entry.version,
        options={"target": 5}, players=2, identity=IDS[0], name="Ann", kind="human",
        agent=gate, bind="127.0.0.1", rng=SeededRng(7), grace=30,
    )  # fmt: skip

    def prepare(welcome: wire.Welcome) -> Prepared:
        return Prepared(game, BotAgent(reg.bot("ecarte").make(), random.Random(2)), "Bob", "bot:classic")

    def keeper() -> SeedKeeper:
        return SeedKeeper(
            "guest", "bot:classic", IDS[1].fingerprint,
            lambda: (guest_log, headers[-1] if headers else None), invite=invites[0].encode(),
        )  # fmt: skip

    async def until(cond: Any) -> None:
        with trio.fail_after(20):
            while not cond():
                await trio.sleep(0.02)

    async def main() -> None:
        with trio.fail_after(90):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(host_game, plan, Watch("host"))
                await until(lambda: invites)
                join = JoinPlan(invites[0], IDS[1], prepare, rng=SeededRng(8), open_log=lambda h: Log())
                join.keeper = keeper()
                first = trio.CancelScope()

                async def guest() -> None:
                    with first:
                        await join_game(join, Watch("guest"))

                nursery.start_soon(guest)
                await until(
                    lambda: "guest" in says and "host" in says and seedfile.seed_path(guest_log).exists()
                )
                assert says["guest"]("before the crash") and says["host"]("hello Bob")
                await until(lambda: "before the crash" in heard["host"] and "hello Bob" in heard["guest"])
                first.cancel()  # the guest's program dies; its log and seed file stay
                kept = seedfile.read_seed(guest_log)
                assert kept.chat == (1, 1)
                says.pop("guest")
                resume = GuestResume(list(entries), 1, kept.seed, kept.sent, wait=20, chat=kept.chat)
                again = JoinPlan(invites[0], IDS[1], prepare, open_log=lambda h: Log(), resume=resume)
                again.keeper = keeper()
                nursery.start_soon(join_game, again, Watch("guest"))
                await until(lambda: "guest" in says)
                await trio.sleep(0.5)  # back at the table
                assert says["guest"]("after the crash")
                await until(lambda: "after the crash" in heard["host"])
                # The host sends its old line again (any host could: it relays every line).
                room = says["host"].__self__
                old = _signed(IDS[0], room.header.game_id, 0, 1, "hello Bob")
                room._send(old, skip=None)
                assert says["host"]("new from Ann")
                await until(lambda: "new from Ann" in heard["guest"])
                gate.go.set()
                nursery.cancel_scope.cancel()

    trio.run(main)
    assert heard["guest"] == ["before the crash", "hello Bob", "after the crash", "new from Ann"]
    assert heard["host"] == ["hello Bob", "before the crash", "after the crash", "new from Ann"]


def _signed(identity: Identity, game_id: bytes, seat: int, n: int, text: str) -> wire.Chat:
    return wire.Chat(seat, n, text, identity.sign(chat_bytes(game_id, seat, n, text)))
