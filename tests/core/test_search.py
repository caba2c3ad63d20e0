"""The expert: legal moves to the end of every game, choices from its view alone, a real edge."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fairdeal import Game, RandomPolicy, Search, registry
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.playout import playout, settle
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import play_game
from fairdeal.core.search import EXPERT, Expert, Searching
from fairdeal.core.worlds import sample_world
from fairdeal.plugins.ecarte import ClassicBot, Ecarte
from fairdeal.plugins.snatch import Shrewd, SnatchGame
from fairdeal.plugins.spite_malice import Planner, SpiteMalice
from fairdeal.testing import check_bot, random_position

CHEAP = 6
#: A Spite & Malice game runs to hundreds of moves: its tests' playouts stop early (a draw).
SHORT = 10


class TreeEcarte(Ecarte):
    search = Search(playouts=1000, tree=True)


class TreeSnatch(SnatchGame):
    search = Search(tree=True)


GAMES: list[tuple[str, Any, int, dict[str, object], Any]] = [
    ("ecarte", Ecarte, 2, {"target": 2}, ClassicBot),
    ("ecarte-tree", TreeEcarte, 2, {"target": 2}, ClassicBot),
    ("snatch-2", SnatchGame, 2, {}, Shrewd),
    ("snatch-2-tree", TreeSnatch, 2, {}, Shrewd),
    ("snatch-4", SnatchGame, 4, {}, Shrewd),
    # Random playouts here: the planner's cost a few milliseconds each, many times over in these checks.
    ("spite-malice", SpiteMalice, 2, {"target": 1, "max_games": 1}, None),
]


@pytest.mark.parametrize(("name", "make", "players", "options", "rollout"), GAMES, ids=[g[0] for g in GAMES])
def test_the_expert_finishes_every_game_with_legal_moves(
    name: str, make: Any, players: int, options: dict[str, object], rollout: Any
) -> None:
    game = make()
    config = game.config(players, options)
    other = rollout or RandomPolicy
    policies = [Expert(rollout, CHEAP, SHORT), *(other() for _ in range(players - 1))]
    # play_game checks every move against the mover's view: an illegal one raises.
    played = play_game(game, config, PlainDealer(players, SeededRng(5)), policies, random.Random(5))
    assert played.result.reason and played.verdict.fair


def test_the_expert_finishes_crazy_eights_with_random_playouts(example_entry_points: Any) -> None:
    game = registry.load(example_entry_points).game("crazy-eights")
    for players in (2, 4):
        policies = [Expert(None, CHEAP), *(RandomPolicy() for _ in range(players - 1))]
        played = play_game(
            game, game.config(players), PlainDealer(players, SeededRng(players)), policies, random.Random(1)
        )
        assert played.result.reason


@pytest.mark.parametrize(("name", "make", "players", "options", "rollout"), GAMES, ids=[g[0] for g in GAMES])
def test_the_experts_choice_depends_only_on_its_view(
    name: str, make: Any, players: int, options: dict[str, object], rollout: Any
) -> None:
    checked = check_bot(
        make(),
        lambda: Expert(rollout, CHEAP, SHORT),
        players,
        range(1),
        options,
        others=rollout or RandomPolicy,
    )
    assert checked > 0


def test_a_bot_that_peeks_at_the_deal_fails_the_check() -> None:
    """check_bot is no formality: a bot whose choice follows the cards behind the view is caught."""

    class Peeker:
        def choose(self, game: Game[Any], state: Any, player: int, moves: Any, rng: random.Random) -> Any:
            world = sample_world(state, random.Random(id(state)))  # another deal each time: not the view's
            token = next(iter(world.table.unknown()), None) if False else world.table.top("talon")
            card = world.table.card(token)
            return moves[(card.rank if card else 0) % len(moves)]

    with pytest.raises(AssertionError, match="otherwise"):
        check_bot(Ecarte(), Peeker, 2, range(2), {"target": 2})


def test_every_game_offers_the_expert(example_entry_points: Any) -> None:
    reg, example = registry.load(), registry.load(example_entry_points)
    for r, name in [(reg, "ecarte"), (reg, "snatch"), (reg, "spite-malice"), (example, "crazy-eights")]:
        bot = r.bot(name, EXPERT).make()
        assert isinstance(bot, Expert) and isinstance(bot, Searching)
    assert isinstance(reg.bot("ecarte", EXPERT).make().rollout, ClassicBot)  # type: ignore[attr-defined]
    assert isinstance(reg.bot("spite-malice", EXPERT).make().rollout, Planner)  # type: ignore[attr-defined]
    rollout = example.bot("crazy-eights", EXPERT).make().rollout  # type: ignore[attr-defined]
    assert type(rollout) is type(example.bot("crazy-eights").make())


def test_a_playout_ends_with_each_seats_share() -> None:
    game = SnatchGame()
    view, _ = random_position(game, 3, 2, 5)
    world = sample_world(view, random.Random(0))
    settle(world.table, random.Random(0))
    shares = playout(game, world, [Shrewd()] * 3, random.Random(0))
    assert len(shares) == 3 and sum(shares) in (1.0, 1.5)  # a winner, or nobody (a half each)


def test_a_games_search_budget_is_the_experts_default(
    monkeypatch: pytest.MonkeyPatch, choice_position: Any
) -> None:
    from fairdeal.core import search as search_module

    with pytest.raises(ValueError, match="at least one playout"):
        Search(playouts=0)
    with pytest.raises(ValueError, match="horizon"):
        Search(horizon=0)
    with pytest.raises(ValueError, match="doubt"):
        Search(doubt=-1.0)

    assert Search(doubt=1.0).flat_with(RandomPolicy()) and Search(tree=False).flat_with(RandomPolicy())
    assert not Search().flat_with(RandomPolicy()) and Search().flat_with(Shrewd())  # a bot plays them: flat
    assert not Search(tree=True).flat_with(Shrewd()) and Search(tree=True, doubt=0.5).flat_with(Shrewd())

    class Budgeted(SnatchGame):
        search = Search(playouts=7, tree=False)

    game = Budgeted()
    view, player, moves = choice_position(game)
    seen: list[int | None] = []
    monkeypatch.setattr(search_module, "playout", lambda *a, **k: seen.append(k["horizon"]) or (0.5, 0.5))
    Expert(Shrewd).search(game, view, player, moves, random.Random(0))
    # Snatch or pass, 7 // 2 worlds each: the game's budget, played to the end.
    assert len(seen) == 6 and set(seen) == {None}
    Expert(Shrewd, 3).search(game, view, player, moves, random.Random(0))
    assert len(seen) == 8  # a budget of its own wins


@pytest.mark.parametrize("better", [False, True])
def test_with_doubt_only_a_clearly_better_move_overrules_the_games_bot(
    monkeypatch: pytest.MonkeyPatch, better: bool, choice_position: Any
) -> None:
    """Playouts that cannot tell the moves apart (noise) leave the game's bot's choice; one that
    wins every time overrules it."""
    from fairdeal.core import search as search_module

    made: dict[int, Any] = {}

    class Doubtful(SnatchGame):
        search = Search(playouts=40, doubt=2.0, tree=False)

        def apply(self, state: Any, player: int, move: Any) -> Any:
            after = super().apply(state, player, move)
            made[id(after)] = move
            return after

    game = Doubtful()
    view, player, moves = choice_position(game)
    favourite = Shrewd().choose(game, view.copy(), player, moves, random.Random(0))
    other = next(m for m in moves if m != favourite)
    noise = random.Random(1)

    def fake(g: Any, after: Any, *a: Any, **k: Any) -> tuple[float, float]:
        v = 1.0 if better and made[id(after)] == other else noise.random()
        return (v, 1 - v) if player == 0 else (1 - v, v)

    monkeypatch.setattr(search_module, "playout", fake)
    chosen = [Expert(Shrewd).search(game, view, player, moves, random.Random(seed)) for seed in range(20)]
    assert set(chosen) == ({other} if better else {favourite})
    monkeypatch.setattr(Doubtful, "search", Search(playouts=40, tree=False))
    if not better:  # without doubt, noise picks the other move now and then
        picked = {Expert(Shrewd).search(game, view, player, moves, random.Random(s)) for s in range(20)}
        assert other in picked


def test_left_to_choose_the_expert_grows_a_tree_over_random_playouts_and_searches_flat_over_a_bots(
    monkeypatch: pytest.MonkeyPatch, choice_position: Any
) -> None:
    from fairdeal.core import search as search_module

    class Unsaid(SnatchGame):
        search = Search(playouts=20)  # tree=None: the expert chooses

    game = Unsaid()
    view, player, moves = choice_position(game)
    grown: list[object] = []
    real = search_module.tree_search
    monkeypatch.setattr(search_module, "tree_search", lambda *a, **k: grown.append(a) or real(*a, **k))
    assert Expert(Shrewd).search(game, view, player, moves, random.Random(0)) in moves
    assert not grown  # shrewd plays the playouts: flat
    assert Expert().search(game, view, player, moves, random.Random(0)) in moves
    assert len(grown) == 1  # random moves play them: the tree
