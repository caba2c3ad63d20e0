"""Playing over the real protocol, in one process: a session per seat (:func:`seat_sessions`), and a
whole game among bots over in-memory links (:func:`play_with_protocol`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.core.rng import SeededRng
from fairdeal.core.rules import Game, GameState, Move, Policy
from fairdeal.core.runner import GameTooLong
from fairdeal.testing._kit import seat_policies


class _Bounded:
    """A bot that stops the game when all the seats together have made ``game.max_moves`` moves."""

    def __init__(self, inner: Policy, game: Game, made: list[int]) -> None:
        self.inner, self.game, self.made = inner, game, made

    def choose(
        self, game: Game, state: GameState, player: int, moves: list[Move], rng: random.Random
    ) -> Move:
        self.made[0] += 1
        if self.made[0] > self.game.max_moves:
            raise GameTooLong(f"{game.name} went past {self.game.max_moves} moves (max_moves): does it end?")
        return self.inner.choose(game, state, player, moves, rng)


@dataclass
class ProtocolGame:
    """A game played by bots over the real protocol in one process, and its log."""

    outcomes: list[Any]
    log: bytes

    @property
    def session(self) -> Any:
        return self.outcomes[0].session

    def verify(self, game: Game) -> Any:
        """What ``fairdeal verify`` says of the log (its ``verdict`` is ``"fair"`` for a fair game)."""
        from fairdeal.core.session.verify import verify_log

        return verify_log(self.log, lambda name: game)


@dataclass
class SeatedGame:
    """A game's header and one session per seat, each with its own identity, all from one seed."""

    header: Any
    sessions: list[Any]
    identities: list[Any]


def seat_sessions(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    *,
    names: Sequence[str] | None = None,
    kinds: Sequence[str] | None = None,
    make_session: Any = None,
    protocol: int | None = None,
) -> SeatedGame:
    """The header of a game for ``players`` seats and a session per seat (seat 0 hosts).

    Identities, the game id and every seat's secrets derive from ``seed``: the same seed
    gives the same game. ``make_session(game, seat, identity, rng)`` builds a seat's session
    (default :class:`~fairdeal.core.session.session.Session`). ``protocol``: the log protocol
    (default: the one this fairdeal writes).
    """
    from fairdeal.core.identity import Identity
    from fairdeal.core.session.header import PROTOCOL, Header, SeatInfo
    from fairdeal.core.session.session import Session

    config = game.config(players, dict(options or {}))
    master = SeededRng(seed)
    ids = [Identity.generate(master.fork(f"identity-{i}")) for i in range(players)]
    names = list(names or [f"Bot {i}" for i in range(players)])
    kinds = list(kinds or ["bot"] * players)
    header = Header(
        master.fork("game-id").bytes(16),
        game.name,
        game.name,
        "fairdeal-tests",
        "0",
        dict(config.options),
        tuple(SeatInfo(names[i], ids[i].public_key, kinds[i]) for i in range(players)),
        PROTOCOL if protocol is None else protocol,
    )
    make = make_session or Session
    sessions = [make(game, i, ids[i], master.fork(f"seat-{i}")) for i in range(players)]
    return SeatedGame(header, sessions, ids)


def play_with_protocol(
    game: Game,
    players: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    policies: Sequence[Policy] | None = None,
    make_session: Any = None,
) -> ProtocolGame:
    """Play ``game`` among bots, every seat its own session and keys, over in-memory links.

    Returns every seat's outcome and the log as a file would hold it (seat 0's entries). A game
    that goes past ``game.max_moves`` moves raises :class:`~fairdeal.core.runner.GameTooLong`.
    ``make_session(game, seat, identity, rng)`` builds a seat's session (default
    :class:`~fairdeal.core.session.session.Session`; pass another to test a misbehaving client).
    """
    import trio

    from fairdeal.core.session import EntryAccepted
    from fairdeal.core.session.logfile import MAGIC, record
    from fairdeal.net.driver import BotAgent
    from fairdeal.net.local import play_local

    table = seat_sessions(game, players, seed, options, make_session=make_session)
    header, built = table.header, table.sessions
    made = [0]
    pols = [_Bounded(p, game, made) for p in seat_policies(players, policies)]
    agents = [BotAgent(pols[i], random.Random(seed * 100 + i)) for i in range(players)]
    log = bytearray(MAGIC)

    def observe(session: Any, events: Sequence[Any]) -> None:
        if session.seat == 0:
            for ev in events:
                if isinstance(ev, EntryAccepted):
                    log.extend(record(ev.data))

    outcomes = trio.run(play_local, header, built, agents, observe)
    if made[0] > game.max_moves:  # the seat that hit the bound gave up; say why, not just "undecided"
        raise GameTooLong(f"{game.name} went past {game.max_moves} moves (max_moves): does it end?")
    return ProtocolGame(outcomes, bytes(log))
