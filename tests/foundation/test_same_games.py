"""The same seeded game plays the same way: moves and results of seeded games of every game.

The digests in ``same_games.json`` were taken from the code as it was; a change that alters
them changes how a game plays (a rule, the order of ``legal_moves``, a random choice). Only the
moves and results are compared, never log bytes or words. After a deliberate change of rules
or bots, write the digests anew with ``python tests/foundation/test_same_games.py``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from fairdeal import Game, Policy, RandomPolicy
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import play_game
from fairdeal.plugins.ecarte import Ecarte
from fairdeal.plugins.snatch import SnatchGame
from fairdeal.plugins.spite_malice import SpiteMalice

HERE = Path(__file__).resolve().parent
DIGESTS = HERE / "same_games.json"
EXAMPLE = HERE.parents[1] / "examples" / "crazy-eights"


def _crazy_eights() -> Game:
    sys.path.insert(0, str(EXAMPLE))
    try:
        import fairdeal_crazy_eights

        return fairdeal_crazy_eights.CrazyEights()
    finally:
        sys.path.remove(str(EXAMPLE))


#: (name, the game, player counts, option sets, seeds)
CASES: list[tuple[str, Callable[[], Game], tuple[int, ...], tuple[dict[str, object], ...], range]] = [
    ("crazy-eights", _crazy_eights, (2, 3, 5), ({}, {"hand": 3}), range(8)),
    ("ecarte", Ecarte, (2,), ({}, {"trump_when_void": True, "penalty": "seed"}), range(8)),
    ("snatch", SnatchGame, (2, 3, 6, 10), ({},), range(8)),
    ("spite-malice", SpiteMalice, (2,), ({"target": 5},), range(3)),
]


def games() -> Iterator[tuple[str, Game, int, dict[str, object], int]]:
    for name, make, counts, option_sets, seeds in CASES:
        game = make()
        for n in counts:
            for options in option_sets:
                for seed in seeds:
                    yield name, game, n, options, seed


def digest(game: Game, players: int, options: dict[str, object], seed: int) -> str:
    """The moves and the result of one seeded game of random players, as a short digest."""
    config = game.config(players, dict(options))
    policies: list[Policy] = [RandomPolicy() for _ in range(players)]
    played = play_game(game, config, PlainDealer(players, SeededRng(seed)), policies, random.Random(seed))
    r = played.result
    record = [[[p, m.action, list(m.args)] for p, m in played.moves], [r.winner, list(r.scores), r.reason]]
    return hashlib.sha256(json.dumps(record).encode()).hexdigest()[:16]


def key(name: str, players: int, options: dict[str, object], seed: int) -> str:
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{name} {players}p {opts or '-'} seed {seed}"


@pytest.mark.parametrize("name", [c[0] for c in CASES])
def test_seeded_games_play_as_they_did(name: str) -> None:
    expected = json.loads(DIGESTS.read_text())
    changed = [
        key(n, p, o, s)
        for n, g, p, o, s in games()
        if n == name and digest(g, p, o, s) != expected[key(n, p, o, s)]
    ]
    assert not changed, f"{len(changed)} seeded games play differently, first: {changed[:3]}"


if __name__ == "__main__":
    DIGESTS.write_text(
        json.dumps({key(n, p, o, s): digest(g, p, o, s) for n, g, p, o, s in games()}, indent=1) + "\n"
    )
