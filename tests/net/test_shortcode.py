"""Short codes through a real mailbox server (``twist wormhole-mailbox`` on 127.0.0.1): games joined
by short codes, one per joiner; a wrong guess burned and the next code working; a mailbox that dies
mid-join; an unreachable mailbox with the long code still working; the command line. Every wait is
bounded; nothing leaves the machine.
"""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.net import HostPlan, JoinPlan, NetOutcome, Prepared, host_game, join_game, wire
from fairdeal.net import events as ev
from fairdeal.net.driver import BotAgent
from fairdeal.net.invite import Endpoint, Invite, decode_invite
from fairdeal.net.mailbox import MailboxError, open_mailbox
from fairdeal.net.rendezvous import fetch_invite, keep_short_codes
from fairdeal.net.shortcode import APP_ID, Pake, ShortCode, WrongCode, parse_short_code

from .conftest import MailboxProcess
from .peers import Peer, check_logs, flat, host, join, wait_for_code

HOST = Identity.from_seed(b"H" * 32)
LIMIT = 90


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _bot(game: str, seed: int) -> BotAgent:
    return BotAgent(registry.load().bot(game).make(), random.Random(seed))


class Codes:
    """The host's report: the invite, each short code as it opens, and what became of each."""

    def __init__(self) -> None:
        self.invite: Invite | None = None
        self.codes: list[str] = []
        self.used: list[ev.ShortCodeUsed] = []
        self.mailbox: list[ev.MailboxStatus] = []
        self.events: list[ev.NetEvent] = []

    def __call__(self, event: ev.NetEvent) -> None:
        self.events.append(event)
        match event:
            case ev.Listening(_, invite):
                self.invite = invite
            case ev.ShortCode(code):
                self.codes.append(code)
            case ev.ShortCodeUsed():
                self.used.append(event)
            case ev.MailboxStatus():
                self.mailbox.append(event)
            case _:
                pass

    async def code(self, count: int = 1) -> str:
        """The ``count``-th short code, once it is open."""
        while len(self.codes) < count:
            await trio.sleep(0.01)
        return self.codes[count - 1]


def _plan(game: str, players: int, mailbox: str | None) -> HostPlan:
    entry = registry.load().entry(game)
    return HostPlan(
        game=entry.game, plugin=entry.plugin, distribution=entry.distribution, version=entry.version,
        options=dict(entry.game.config(players, {"target": 1} if game == "ecarte" else {}).options),
        players=players, identity=HOST, name="Host", kind="bot", agent=_bot(game, 0), bind="127.0.0.1",
        mailbox=mailbox,
    )  # fmt: skip


async def _join(invite: Invite, seat: int) -> NetOutcome:
    reg = registry.load()

    def prepare(w: wire.Welcome) -> Prepared:
        return Prepared(reg.game(w.game), _bot(w.game, seat), f"Guest {seat}", "bot")

    identity = Identity.from_seed(bytes([seat]) * 32)
    return await join_game(JoinPlan(invite, identity, prepare, connect_timeout=10))


async def _game_by_short_codes(
    game: str, players: int, url: str
) -> tuple[NetOutcome, list[NetOutcome], Codes]:
    codes = Codes()
    outcomes: list[NetOutcome] = []
    box: list[NetOutcome] = []

    async def run_host() -> None:
        box.append(await host_game(_plan(game, players, url), codes))

    async def joiner(invite: Invite, seat: int) -> None:
        outcomes.append(await _join(invite, seat))

    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            n.start_soon(run_host)
            for seat in range(1, players):
                code = await codes.code(seat)  # the code for the next player, one each
                invite = await fetch_invite(parse_short_code(code), url)
                assert codes.invite is not None and invite == codes.invite
                n.start_soon(joiner, invite, seat)
    return box[0], outcomes, codes


# -- games -----------------------------------------------------------------------------------------
@pytest.mark.trio
async def test_a_two_seat_game_joined_by_a_short_code(mailbox_url: str) -> None:
    hosted, joined, codes = await _game_by_short_codes("ecarte", 2, mailbox_url)
    assert hosted.error is None and hosted.session.finished
    assert [o.error for o in joined] == [None]
    assert len(set(codes.codes)) == len(codes.codes)  # each code once (a next may open as the seat fills)
    assert [u.handed for u in codes.used] == [True]
    first = next(e for e in codes.events if isinstance(e, ev.ShortCode))
    assert first.first and first.mailbox == mailbox_url
    # The table is full: every code was let go (released, its mailbox closed); none works any more.
    for code in codes.codes:
        with trio.fail_after(10), pytest.raises(WrongCode, match="nobody holds it"):
            await fetch_invite(parse_short_code(code), mailbox_url)


@pytest.mark.slow
@pytest.mark.trio
async def test_a_four_seat_game_joined_by_three_short_codes(mailbox_url: str) -> None:
    hosted, joined, codes = await _game_by_short_codes("snatch", 4, mailbox_url)
    assert hosted.error is None and hosted.session.finished
    assert sorted(o.session.seat or 0 for o in joined) == [1, 2, 3]
    assert all(o.error is None for o in joined)
    assert len(set(codes.codes)) == len(codes.codes) >= 3  # one each (a fourth may open as the last sits)
    assert [u.handed for u in codes.used] == [True, True, True]


# -- wrong guesses ---------------------------------------------------------------------------------
def _wrong(code: str) -> ShortCode:
    c = parse_short_code(code)
    return ShortCode(c.nameplate, c.first, "acorn" if c.second != "acorn" else "adult")


@pytest.mark.trio
async def test_a_wrong_guess_burns_the_code_and_the_next_code_works(mailbox_url: str) -> None:
    codes = Codes()
    long = Invite(HOST.fingerprint, bytes(16), (Endpoint("127.0.0.1", 9),)).encode()
    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            n.start_soon(keep_short_codes, mailbox_url, long, codes)
            first = await codes.code(1)
            with pytest.raises(WrongCode, match="the code was wrong or already used") as err:
                await fetch_invite(_wrong(first), mailbox_url)
            assert "\n" not in str(err.value) and long not in str(err.value)
            # the right words now: the code is spent, and it says so (its number is held, never reused)
            with pytest.raises(WrongCode, match="already used"):
                await fetch_invite(parse_short_code(first), mailbox_url)
            second = await codes.code(2)
            assert second.split("-")[0] != first.split("-")[0]
            got = await fetch_invite(parse_short_code(second), mailbox_url)
            assert got.encode() == long
            while len(codes.used) < 2:
                await trio.sleep(0.01)
            n.cancel_scope.cancel()
    assert [u.handed for u in codes.used] == [False, True]
    assert "wrong words" in codes.used[0].reason


@pytest.mark.trio
async def test_a_code_nobody_holds_is_said_at_once(mailbox_url: str) -> None:
    with trio.fail_after(5):
        with pytest.raises(WrongCode, match="nobody holds it"):
            await fetch_invite(parse_short_code("987654-brave-otter"), mailbox_url)


# -- a mailbox that fails --------------------------------------------------------------------------
@pytest.mark.trio
async def test_the_mailbox_dies_mid_join_and_the_long_code_still_works(own_mailbox: MailboxProcess) -> None:
    codes = Codes()
    box: list[NetOutcome] = []
    url = own_mailbox.url

    async def run_host() -> None:
        box.append(await host_game(_plan("ecarte", 2, url), codes))

    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            n.start_soon(run_host)
            code = parse_short_code(await codes.code(1))
            # A joiner claims the code and sends its half of the exchange; then the mailbox dies.
            async with open_mailbox(url, APP_ID) as joiner:
                await joiner.open(await joiner.claim(code.nameplate))
                await joiner.add("pake", Pake("joiner", code).message)
                await joiner.ping()
                assert joiner.held("pake") is not None
                own_mailbox.proc.kill()
                own_mailbox.proc.wait(10)
                with pytest.raises(MailboxError) as err:
                    await joiner.receive("invite")
                assert "\n" not in str(err.value)
            with pytest.raises(MailboxError, match="cannot be reached"):
                await fetch_invite(code, url)
            while not codes.mailbox:
                await trio.sleep(0.01)
            assert codes.invite is not None
            guest = await _join(codes.invite, 1)  # the long code needs no mailbox
    assert guest.error is None and box[0].error is None and box[0].session.finished
    assert not codes.mailbox[0].reachable and "\n" not in codes.mailbox[0].reason


@pytest.mark.trio
async def test_an_unreachable_mailbox_is_said_at_once_and_the_long_code_works() -> None:
    codes = Codes()
    box: list[NetOutcome] = []
    url = f"ws://127.0.0.1:{_dead_port()}/v1"

    async def run_host() -> None:
        box.append(await host_game(_plan("ecarte", 2, url), codes))

    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            n.start_soon(run_host)
            with trio.fail_after(3):
                while not codes.mailbox:
                    await trio.sleep(0.01)
            assert codes.invite is not None
            guest = await _join(codes.invite, 1)
    assert guest.error is None and box[0].session.finished
    (status,) = codes.mailbox  # said once, however often it is retried
    assert not status.reachable and "connection refused" in status.reason and url in status.reason
    assert codes.codes == []


# -- the command line ------------------------------------------------------------------------------
@pytest.fixture
def stop_after() -> Iterator[list[Peer]]:
    """Processes to end when the test ends, should it fail before they do."""
    peers: list[Peer] = []
    yield peers
    for p in peers:
        if p.proc.poll() is None:
            p.kill()


def test_host_and_join_by_short_code_at_the_command_line(
    tmp_path: Path, mailbox_url: str, stop_after: list[Peer]
) -> None:
    short = tmp_path / "short.txt"
    peer, _ = host(
        tmp_path,
        "ecarte",
        "--option",
        "target=1",
        "--private",
        "--mailbox",
        mailbox_url,
        "--code-file",
        str(short),
    )
    stop_after.append(peer)
    code = wait_for_code(short, peer)
    assert short.stat().st_mode & 0o777 == 0o600
    wrong = _wrong(code).text
    bad = join(tmp_path, "wrong", wrong, "--mailbox", mailbox_url, log=False)
    assert bad.wait() == 2
    assert "the code was wrong or already used" in flat(bad.err)
    assert "Traceback" not in bad.err and code.split("-", 1)[1] not in bad.err
    fresh = wait_for_fresh(short, code, peer)
    guest = join(tmp_path, "guest", fresh, "--mailbox", mailbox_url)
    assert guest.wait() == 0, guest.err
    assert peer.wait() == 0, peer.err
    check_logs([peer, guest])
    assert peer.result()["short_codes"][:2] == [code, fresh]
    out = flat(peer.err)
    assert (
        "is burned (someone tried it with wrong words" in out and f"Code for the next player: {fresh}" in out
    )


def wait_for_fresh(path: Path, old: str, peer: Peer, limit: float = 20) -> str:
    """The code in ``path`` once it is another than ``old``."""
    end = time.monotonic() + limit
    while time.monotonic() < end and peer.proc.poll() is None:
        text = path.read_text().strip()
        if text and text != old:
            return text
        time.sleep(0.05)
    raise AssertionError("the host opened no fresh code")


def test_a_dead_mailbox_at_the_command_line_says_what_still_works(
    tmp_path: Path, stop_after: list[Peer]
) -> None:
    dead = f"ws://127.0.0.1:{_dead_port()}/v1"
    peer, code = host(tmp_path, "ecarte", "--option", "target=1", "--private", "--mailbox", dead)
    stop_after.append(peer)
    guest = join(tmp_path, "guest", code)
    assert guest.wait() == 0, guest.err
    assert peer.wait() == 0
    out = flat(peer.err)
    assert "No short code for now: the mailbox" in out and "The long code works all the same." in out
    lost = join(tmp_path, "lost", "5-brave-otter", "--mailbox", dead, log=False)
    assert lost.wait() == 2
    assert "cannot be reached" in flat(lost.err) and "long code" in flat(lost.err)
    assert "Traceback" not in lost.err


def test_a_watcher_takes_a_short_code_and_the_next_player_the_next(
    tmp_path: Path, mailbox_url: str, stop_after: list[Peer]
) -> None:
    short = tmp_path / "short.txt"
    peer, long = host(
        tmp_path,
        "ecarte",
        "--option",
        "target=1",
        "--private",
        "--mailbox",
        mailbox_url,
        "--code-file",
        str(short),
    )
    stop_after.append(peer)
    first = wait_for_code(short, peer)
    watcher = Peer(tmp_path, "watcher", ["watch", first, "--mailbox", mailbox_url], log=False)
    stop_after.append(watcher)
    guest = join(tmp_path, "guest", wait_for_fresh(short, first, peer), "--mailbox", mailbox_url)
    assert guest.wait() == 0, guest.err
    assert peer.wait() == 0, peer.err
    check_logs([peer, guest])
    watcher.wait()  # the bots' game may be over before the watcher asks again: it then says so
    assert f"Watching the game at {decode_invite(long).address}" in flat(watcher.out), watcher.err
