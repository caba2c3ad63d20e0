"""A searching bot thinks off the event loop: the table keeps going, and a cancelled search stops."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest
import trio

from fairdeal import Game, GameState, Move, registry
from fairdeal.core.search import Expert
from fairdeal.net.driver import think
from fairdeal.plugins.ecarte import ClassicBot, Ecarte
from fairdeal.testing import play_with_protocol, random_position


class Watched(Expert):
    """The expert, telling when its search has returned (the thread is done with it)."""

    def __init__(self, playouts: int) -> None:
        super().__init__(ClassicBot, playouts)
        self.done = threading.Event()
        self.checks = 0

    def search(
        self,
        game: Game[Any],
        state: GameState,
        player: int,
        moves: Sequence[Move],
        rng: random.Random,
        stop: Callable[[], bool] = lambda: False,
    ) -> Move:
        def counted() -> bool:
            self.checks += 1
            return stop()

        try:
            return super().search(game, state, player, moves, rng, counted)
        finally:
            self.done.set()


def decision() -> tuple[Game[Any], GameState, int, list[Move]]:
    """An Écarté position where seat 0 has a real choice."""
    game = Ecarte()
    for decisions in range(40):
        view, _ = random_position(game, 2, 7, decisions)
        step = game.next_step(view)
        player = getattr(step, "player", None)
        if player == view.table.viewer:
            moves = list(game.legal_moves(view, player))
            if len(moves) > 2:
                return game, view, player, moves
    raise AssertionError("no position with a choice")


@pytest.mark.trio
async def test_the_loop_keeps_ticking_while_the_expert_thinks_and_cancelling_stops_it() -> None:
    game, view, player, moves = decision()
    bot = Watched(playouts=10**7)  # far more than it will get: it thinks until cancelled
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await trio.sleep(0.01)
            ticks += 1

    async with trio.open_nursery() as nursery:
        nursery.start_soon(ticker)
        with trio.move_on_after(1.0) as scope:
            await think(bot, game, view, player, moves, random.Random(1), seconds=60)
        assert scope.cancelled_caught  # still thinking after a second: cancelled, at once
        cancelled = time.monotonic()
        nursery.cancel_scope.cancel()
    assert ticks >= 30  # ~100 at 10 ms; the loop never stalled behind the search
    assert await trio.to_thread.run_sync(bot.done.wait, 2.0)  # the search stopped, promptly
    assert time.monotonic() - cancelled < 1.0
    assert bot.checks > 1


@pytest.mark.trio
async def test_thinking_stops_at_its_time_limit_with_a_legal_move() -> None:
    game, view, player, moves = decision()
    bot = Watched(playouts=10**7)
    start = time.monotonic()
    move = await think(bot, game, view, player, moves, random.Random(2), seconds=0.3)
    assert move in moves
    assert time.monotonic() - start < 2.0
    assert bot.done.is_set()


def test_the_expert_plays_over_the_protocol() -> None:
    """Through the drivers (the bot agent thinks in a thread), to a fair, verified end."""
    reg = registry.load()
    game = reg.game("snatch")
    expert = reg.bot("snatch", "expert")
    bots = [expert.make(), reg.bot("snatch").make()]
    for bot in bots[:1]:
        assert isinstance(bot, Expert)
        bot.playouts = 8
    played = play_with_protocol(game, 2, 3, {}, bots)
    assert played.verify(game).verdict == "fair"
