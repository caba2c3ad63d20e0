"""A local game at the full-screen table for the tests: seat 0 is the person, the rest are bots.

Everything is seeded (identities, shuffles, bots), so the same arguments give the same game
and the same screens.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Mapping
from typing import Any

from fairdeal.cli.endings import Ending
from fairdeal.cli.outcome import summary
from fairdeal.cli.tui.app import TableApp
from fairdeal.cli.tui.player import TablePlayer
from fairdeal.core.rules import Move
from fairdeal.core.session.session import Session
from fairdeal.net.driver import BotAgent
from fairdeal.net.local import play_local
from fairdeal.registry import load
from fairdeal.testing import seat_sessions


class LatePlayer(TablePlayer):
    """A person who lets the first ``skip`` decisions be taken by a seeded rule, then plays at the table."""

    def __init__(self, skip: int, seed: int = 0) -> None:
        super().__init__()
        self.skip = skip
        self.decisions = 0
        self.rng = random.Random(seed)

    async def decide(self, session: Session, moves: list[Move]) -> Move | None:
        self.attach(session)
        self.decisions += 1
        if self.decisions <= self.skip:
            return moves[self.rng.randrange(len(moves))]
        return await super().decide(session, moves)


def table_app(
    game_name: str,
    players: int = 2,
    seed: int = 1,
    options: Mapping[str, object] | None = None,
    skip: int = 0,
    ascii: bool = False,
) -> tuple[TableApp, LatePlayer]:
    """The app of a seeded local game: seat 0 ("Ann") at the table, seats 1… the game's default bot."""
    reg = load()
    game = reg.game(game_name)
    bot = reg.bot(game_name)
    names = ["Ann", *(f"Bot {i}" for i in range(1, players))]
    kinds = ["human", *(f"bot:{bot.name}" for _ in range(1, players))]
    table = seat_sessions(game, players, seed, options, names=names, kinds=kinds)
    header, sessions = table.header, table.sessions
    player = LatePlayer(skip, seed)
    agents: list[Any] = [player]
    agents += [BotAgent(bot.make(), random.Random(seed * 100 + i)) for i in range(1, players)]

    def observe(session: Session, events: Any) -> None:
        if session.seat == 0:
            player.observe(session, events)

    app = TableApp(
        game.title,
        player,
        lambda: play_local(header, sessions, agents, observe),
        ascii=ascii,
        rules_text=game.rules_text(),
    )
    app.finish = lambda: Ending("Game over", summary(player.session, None, you=0))
    return app, player


async def until(predicate: Any, pilot: Any, what: str, limit: float = 60.0) -> None:
    """Let the app and the game run until ``predicate()`` holds (at most ``limit`` seconds)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not predicate():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.01)
    await pilot.pause()
