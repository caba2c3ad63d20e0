"""A network game that survives, at the full-screen table: who the game waits for to come back
(with a countdown), the host lost and back, proposals to adjourn (F3, and a question when
another player proposes). The game here only waits; the network layer's reports are made
as the network layer makes them."""

from __future__ import annotations

import asyncio

import trio

from fairdeal.cli.tui.app import SidePanel, TableApp
from fairdeal.cli.tui.bars import keys_line, status_line
from fairdeal.cli.tui.netview import TableReport
from fairdeal.net import events as ev

from .harness import until


def _status(app: TableApp) -> str:
    return status_line(app).plain


def test_the_status_line_counts_down_while_a_seat_is_away_and_the_question_to_adjourn() -> None:
    votes: list[bool] = []

    async def game() -> None:
        await trio.sleep_forever()

    def vote(agree: bool) -> bool:
        trio.lowlevel.current_task()  # raises unless called on the trio side, where the links live
        votes.append(agree)
        return True

    async def main() -> None:
        obs = TableReport(None)
        app = TableApp("Test", None, game)
        obs.app = app
        async with app.run_test(size=(80, 24)) as pilot:
            obs(ev.Away.now(2, "Bob", 114.2))
            await pilot.pause()
            assert _status(app).startswith("Waiting for Bob to come back (1:5")
            obs(ev.Away.now(3, "Carol", 200))
            await pilot.pause()
            assert "(and 1 more)" in _status(app)
            obs(ev.Back(2, "Bob"))
            obs(ev.Back(3, "Carol"))
            await pilot.pause()
            assert "come back" not in _status(app)
            obs(ev.HostLost.now("the host closed the connection", 30))
            await pilot.pause()
            assert _status(app).startswith("Lost the host: trying to reach it again (0:3")
            obs(ev.HostBack("direct", "127.0.0.1:7700", 40))
            await pilot.pause()
            assert "Lost the host" not in _status(app)
            obs(ev.ReachingHost.now(118))  # a resumed seat, before the host is there: not "your move"
            await pilot.pause()
            assert _status(app).startswith("Reaching the host: it may not be running yet (1:5"), _status(app)
            obs(ev.HostBack("direct", "127.0.0.1:7700", 40))
            await pilot.pause()
            assert "Reaching the host" not in _status(app)
            # Adjourning: F3 proposes (after a question); another's proposal asks this player.
            await pilot.press("f3")
            await pilot.pause()
            assert not votes  # not a network game yet: nothing to vote with
            obs(ev.TableReady(lambda text: False, vote))
            await pilot.pause()
            await pilot.press("f3")
            await pilot.pause()
            await pilot.press("y")
            await until(lambda: votes == [True], pilot, "the proposal to be sent")
            obs(ev.AdjournVote(0, "Ann", True, ("Bob",)))  # this seat (the report's seat is unknown: None)
            obs(ev.AdjournVote(1, "Bob", False, ()))
            obs(ev.AdjournVote(1, "Bob", True, ("Ann",)))  # Bob proposes: the question comes up
            await pilot.pause()
            await pilot.press("n")
            await until(lambda: votes == [True, False], pilot, "the decline to be sent")
            notes = " ".join(n.text.plain for n in app.query_one(SidePanel).notes)
            assert "Bob's connection dropped" in notes and "Bob is back" in notes
            assert "Bob proposes to adjourn" in notes and "Bob declines to adjourn" in notes
            assert "Reaching the host: it may not be running yet" in notes and "Reached the host:" in notes
            obs(ev.Adjourned(57))
            await pilot.pause()
            panel = " ".join(app.query_one(SidePanel).render().plain.split())
            assert "adjourned after 57 entries" in panel
            obs(ev.HostLeft())  # leaving on purpose is told as such, never as a lost connection
            await pilot.pause()
            last = app.query_one(SidePanel).notes[-1].text.plain
            assert last.startswith("The host left the game") and "trying to reach" not in last
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    asyncio.run(main())


def test_a_watcher_at_the_table_sees_the_public_table_live_and_never_a_hidden_card() -> None:
    """A watcher's table: a session with no seat, fed every entry as it is accepted (as watch_game does)."""
    import random

    from fairdeal.cli.tui.player import TablePlayer
    from fairdeal.core.identity import Identity
    from fairdeal.core.rng import SeededRng
    from fairdeal.core.session import EntryAccepted, Session
    from fairdeal.core.session.header import Header, SeatInfo
    from fairdeal.net.driver import BotAgent
    from fairdeal.net.local import play_local
    from fairdeal.registry import load

    reg = load()
    game = reg.game("ecarte")
    master = SeededRng(9)
    ids = [Identity.generate(master.fork(f"identity-{i}")) for i in range(2)]
    header = Header(
        master.fork("game-id").bytes(16), "ecarte", "ecarte", "tests", "0",
        dict(game.config(2, {"target": 2}).options),
        tuple(SeatInfo(f"Bot {i}", ids[i].public_key, "bot") for i in range(2)),
    )  # fmt: skip
    sessions = [Session(game, i, ids[i], master.fork(f"seat-{i}")) for i in range(2)]
    agents = [BotAgent(reg.bot("ecarte").make(), random.Random(i)) for i in range(2)]
    watcher = Session(game, None)
    player = TablePlayer()
    shown: list[int] = []

    def observe(session: Session, events: list[object]) -> None:
        if session.seat == 0:
            for e in events:
                if isinstance(e, EntryAccepted):
                    player.observe(watcher, watcher.receive(e.data))

    async def run_game() -> object:
        return await play_local(header, sessions, agents, observe)  # type: ignore[arg-type]

    async def main() -> None:
        app = TableApp("Écarté", player, run_game)
        async with app.run_test(size=(80, 24)) as pilot:

            def moved() -> bool:
                view = app.table_view()
                state = watcher.view()
                if view is not None and state is not None and not watcher.finished:
                    known = {t for _, p in view.piles() for t, c in zip(p.tokens, p.cards, strict=False) if c}
                    assert known <= state.table.public, "the watcher's table shows a card not public"
                    shown.append(len(known))
                return app.outcome is not None

            await until(moved, pilot, "the game to end", limit=120)
            assert shown and max(shown) > 0  # it did show the cards everyone saw
            notes = app.query_one(SidePanel).notes
            assert any("Bot" in n.text.plain for n in notes)  # and the moves, in words
            keys = keys_line(app, 78).plain  # a watcher plays nothing: no auto moves, nothing to resign
            assert "F6" not in keys and "resign" not in keys and "^Q leave" in keys, keys

    asyncio.run(main())
    assert watcher.finished and watcher.verdict is not None and watcher.verdict.fair


def test_a_watcher_before_the_start_reads_that_it_waits_on_the_waiting_screen() -> None:
    from fairdeal.cli.tui.player import TablePlayer

    async def game() -> None:
        await trio.sleep_forever()

    async def main() -> None:
        player = TablePlayer(watching=True)
        obs = TableReport(player)
        app = TableApp("Test", player, game)
        obs.app = app
        async with app.run_test(size=(80, 24)) as pilot:
            obs(ev.NotStartedYet.now(3, 1800))
            await pilot.pause()
            shown = " ".join(" ".join(app.lobby_lines).split())
            assert "The game has not started yet: waiting for the players to begin" in shown, shown
            assert "every 3 s" in shown and "30:00" in shown, shown
            keys = keys_line(app, 78).plain
            assert "F6" not in keys and keys.endswith("^Q leave"), keys
            obs(ev.HostBusy.now(12))  # told to come again later: the waiting screen says so
            await pilot.pause()
            shown = " ".join(" ".join(app.lobby_lines).split())
            assert "The host is busy catching up other watchers: asking again in 0:12." in shown, shown
            await pilot.press("ctrl+c")
            await until(lambda: app.outcome is not None, pilot, "the game to stop")

    asyncio.run(main())
