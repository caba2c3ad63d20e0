"""A network game that survives, in line mode: who the game waits for, the host lost and back, and
adjourning at the move prompt (``adjourn`` proposes or agrees, ``no`` declines)."""

from __future__ import annotations

import io
from typing import Any

import trio

from fairdeal.cli.console import UI
from fairdeal.cli.linemode import TerminalAgent
from fairdeal.cli.netlines import LineReport
from fairdeal.cli.waiting import Absences, clock
from fairdeal.net import events as ev


def test_clock_and_absences() -> None:
    assert [clock(x) for x in (0, 0.2, 59.5, 114, 3600, 3725)] == [
        "0:00",
        "0:01",
        "1:00",
        "1:54",
        "1:00:00",
        "1:02:05",
    ]
    a = Absences()
    assert not a and a.text() is None
    a.seats[2] = ("Bob", 100.0)
    assert a.text(now=0) == "waiting for Bob to come back (1:40)"
    a.seats[3] = ("Carol", 50.0)
    assert a.text(now=0) == "waiting for Carol to come back (0:50) (and 1 more)"
    a.host = 30.0
    assert a.text(now=0) == "lost the host: trying to reach it again (0:30)"


def test_line_mode_says_who_is_away_and_when_the_host_is_back() -> None:
    out = io.StringIO()
    obs = LineReport(UI(plain=True, file=out, status=False))
    obs(ev.Away.now(1, "Bob", 120))
    obs(ev.Back(1, "Bob"))
    obs(ev.Away.now(2, "Carol", 90, resuming=True))
    obs(ev.HostLost.now("the host closed the connection", 90))
    obs(ev.HostBack("relay", "tcp:relay.example:4001", 12))
    obs(ev.WatcherWaiting("ab12-cd34", "127.0.0.1:40000"))
    obs(ev.NotStartedYet.now(3, 1800))
    obs(ev.WatcherCame(2))
    obs(ev.WatcherLeft(1))
    obs(ev.Adjourned(57))
    text = " ".join(out.getvalue().split())
    for words in (
        "Bob's connection dropped: waiting for Bob to come back (2:00).",
        "Bob is back: the game goes on.",
        "Waiting for Carol to resume the game (1:30).",
        "The host closed the connection: trying to reach it again (1:30).",
        "Reached the host again through relay tcp:relay.example:4001: the game goes on.",
        "A watcher (ab12-cd34, from 127.0.0.1:40000) waits for the game to start.",
        "The game has not started yet: waiting for the players to begin (asking the host every 3 s, "
        "for 30:00 at most; Ctrl-C to stop).",
        "A watcher joined (2 watching now).",
        "A watcher left (1 watching now).",
        "Every player agreed: the game is adjourned after 57 entries.",
    ):
        assert words in text, (words, text)


def test_adjourn_and_no_at_the_move_prompt() -> None:
    from fairdeal import registry

    reg = registry.load()
    votes: list[bool] = []
    typed = iter(["adjourn", "no", "1"])
    out = io.StringIO()
    agent = TerminalAgent(UI(plain=True, file=out, status=False), ask=lambda prompt: next(typed))
    obs = LineReport(agent.ui, agent)
    obs._seat = 0

    def vote(agree: bool) -> bool:
        votes.append(agree)
        obs(ev.AdjournVote(0, "Ann", agree, ()))  # the host relays every vote back, the voter's too
        return True

    obs(ev.TableReady(lambda text: False, vote))
    obs(ev.AdjournVote(1, "Bob", True, ("Ann",)))  # Bob proposed: asked at the next prompt

    from fairdeal.core.identity import Identity
    from fairdeal.core.rng import SeededRng
    from fairdeal.core.session.header import Header, SeatInfo
    from fairdeal.core.session.session import Session
    from fairdeal.net.driver import BotAgent
    from fairdeal.net.local import play_local

    g = reg.game("ecarte")
    master = SeededRng(1)
    ids = [Identity.generate(master.fork(f"id-{i}")) for i in range(2)]
    options = dict(g.config(2, {"target": 1}).options)
    seats = tuple(SeatInfo(f"P{i}", ids[i].public_key, "human") for i in range(2))
    header = Header(master.fork("g").bytes(16), "ecarte", "ecarte", "t", "0", options, seats)
    sessions = [Session(g, i, ids[i], master.fork(f"s-{i}")) for i in range(2)]
    asked: list[Any] = []

    class Once:
        """The person answers one decision; after it, the bot plays on for them."""

        def __init__(self) -> None:
            self.bot = BotAgent(reg.bot("ecarte").make(), __import__("random").Random(1))

        async def decide(self, session: Session, moves: list[Any]) -> Any:
            if not asked:
                asked.append(True)
                return await agent.decide(session, moves)
            return await self.bot.decide(session, moves)

    other = BotAgent(reg.bot("ecarte").make(), __import__("random").Random(2))
    trio.run(play_local, header, sessions, [Once(), other])
    assert votes == [True], votes  # "adjourn" agreed; "no" came after this seat agreed: nothing asked
    text = " ".join(out.getvalue().split())
    assert "Bob proposed to adjourn: type adjourn to agree, or no to play on." in text


def test_line_mode_says_a_host_not_there_yet_a_busy_host_and_whose_words_a_refusal_is() -> None:
    from fairdeal.net.lobbyterms import OWN_IDENTITY

    out = io.StringIO()
    report = LineReport(UI(plain=True, file=out, status=False))
    report(ev.ReachingHost.now(120))
    report(ev.HostBack("direct", "192.0.2.7:7700", 30))
    report(ev.HostBusy.now(12))
    report(ev.HostLeft(watching=True))
    report(ev.Rejected("127.0.0.1:40000", OWN_IDENTITY))
    text = " ".join(out.getvalue().split())
    for words in (
        "Reaching the host: it may not be running yet (it goes on with fairdeal resume ); trying for 2:00.",
        "Reached the host directly (192.0.2.7:7700): the game goes on.",
        "The host is busy catching up other watchers: asking again in 0:12.",
        "The host left the game: it stops here (watch again if the host goes on with it).",
        "Turned away a connection from 127.0.0.1:40000: it came with this host's own identity",
    ):
        assert words in text, (words, text)
    assert "join with another profile" not in text, "the joiner's advice is not the host's"
