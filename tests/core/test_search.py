"""The expert: legal moves to the end of every game, choices from its view alone, a real edge."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fairdeal import Auto, Decide, Game, Over, RandomPolicy, registry
from fairdeal.core._exact import exact_values
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.playout import playout, score, settle
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import play_game
from fairdeal.core.search import EXPERT, Expert, Searching
from fairdeal.core.worlds import sample_world
from fairdeal.plugins.ecarte import ClassicBot, Ecarte
from fairdeal.plugins.ecarte.model import Phase, hand
from fairdeal.plugins.snatch import Shrewd, SnatchGame
from fairdeal.plugins.spite_malice import Planner, SpiteMalice
from fairdeal.testing import check_bot, random_position

CHEAP = 6
#: A Spite & Malice game runs to hundreds of moves: its tests' playouts stop early (a draw).
SHORT = 10

GAMES: list[tuple[str, Any, int, dict[str, object], Any]] = [
    ("ecarte", Ecarte, 2, {"target": 2}, ClassicBot),
    ("snatch-2", SnatchGame, 2, {}, Shrewd),
    ("snatch-4", SnatchGame, 4, {}, Shrewd),
    # The planner's playouts of a Spite & Malice game cost seconds a decision: random ones here.
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


def _minimax(game: Game[Any], state: Any, me: int) -> float:
    """Every line of a world, no pruning: what the exact search must agree with."""
    settle(state.table, random.Random(0))
    chances = game.outlook(state)
    if chances is not None:
        return float(chances[me])
    step = game.next_step(state)
    if isinstance(step, Over):
        return score(step.result, me)
    if isinstance(step, Auto):
        return _minimax(game, game.advance(state), me)
    assert isinstance(step, Decide), step
    values = [
        _minimax(game, game.apply(state, step.player, m), me) for m in game.legal_moves(state, step.player)
    ]
    return max(values) if step.player == me else min(values)


def _trick_play(seed: int) -> tuple[Any, int]:
    """A world of an Écarté deal in its tricks, and the seat to play."""
    game = Ecarte()
    for decisions in range(6, 30):
        view, _ = random_position(game, 2, seed, decisions, {"target": 2})
        if view.phase is Phase.PLAY and view.table.size(hand(view.actor)) <= 4:
            return sample_world(view, random.Random(seed)), view.actor
    raise AssertionError("no trick play reached")


@pytest.mark.parametrize("seed", range(6))
def test_exact_values_are_those_of_every_line_played_out(seed: int) -> None:
    game = Ecarte()
    world, seat = _trick_play(seed)
    moves = list(game.legal_moves(world, seat))
    exact = exact_values(game, world, seat, moves, 100_000)
    assert exact is not None
    assert exact == [_minimax(game, game.apply(world, seat, m), seat) for m in moves]


def test_no_exact_values_where_a_card_nobody_knows_is_still_to_come() -> None:
    """Snatch!'s piles are seen by nobody: the world's order of them is made up, and a search that
    took it as known would snatch as if it saw the future."""
    game = SnatchGame()
    view, _ = random_position(game, 2, 4, 3)
    world = sample_world(view, random.Random(4))
    step = game.next_step(world)
    assert isinstance(step, Decide)
    options = list(game.legal_moves(world, step.player))
    assert exact_values(game, world, step.player, options, 100_000) is None


def test_no_exact_values_past_the_budget_or_with_more_than_two_players() -> None:
    game = Ecarte()
    world, seat = _trick_play(0)
    moves = list(game.legal_moves(world, seat))
    assert exact_values(game, world, seat, moves, 1) is None
    three, _ = random_position(SnatchGame(), 3, 1, 3)
    snatch = sample_world(three, random.Random(1))
    step = SnatchGame().next_step(snatch)
    assert isinstance(step, Decide)
    options = list(SnatchGame().legal_moves(snatch, step.player))
    assert exact_values(SnatchGame(), snatch, step.player, options, 100_000) is None


def test_the_expert_with_no_exact_search_still_plays_out() -> None:
    game = Ecarte()
    view, _ = random_position(game, 2, 3, 8, {"target": 2})
    step = game.next_step(view)
    assert isinstance(step, Decide)
    moves = list(game.legal_moves(view, step.player))
    for exact in (0, 4000):
        move = Expert(ClassicBot, CHEAP, exact=exact).choose(game, view, step.player, moves, random.Random(0))
        assert move in moves
