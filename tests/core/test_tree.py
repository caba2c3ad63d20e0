"""The tree search: what it learns moves it, it keeps to its budget, it tells moves apart by
what its seat would see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fairdeal import Card, Move, RandomPolicy, Search, registry
from fairdeal.core import tree as tree_module
from fairdeal.core.search import Expert
from fairdeal.core.tree import _Walk, tree_search
from fairdeal.core.worlds import sample_world
from fairdeal.plugins.snatch import Shrewd, SnatchGame
from fairdeal.testing import random_position


class Marked(SnatchGame):
    """Snatch! searched by the tree, whose states remember the first move played from the
    position searched."""

    search = Search(tree=True)

    def __init__(self) -> None:
        self.first: dict[int, Move] = {}
        self.alive: list[Any] = []  # every state marked, so that no later state takes its id

    def apply(self, state: Any, player: int, move: Any) -> Any:
        after = super().apply(state, player, move)
        self.first[id(after)] = self.first.get(id(state), move)
        self.alive.append(after)
        return after


@pytest.mark.parametrize("winner", [0, 1])
def test_the_tree_plays_the_move_its_playouts_say_wins(
    monkeypatch: pytest.MonkeyPatch, winner: int, choice_position: Any
) -> None:
    game = Marked()
    view, player, moves = choice_position(game)
    good = sorted(set(moves), key=str)[winner]

    def fake(g: Any, after: Any, *a: Any, **k: Any) -> tuple[float, ...]:
        v = 1.0 if game.first.get(id(after)) == good else 0.0
        return tuple(v if p == player else 1 - v for p in range(2))

    monkeypatch.setattr(tree_module, "playout", fake)
    for seed in range(5):
        game.first.clear()
        game.alive.clear()
        assert Expert(Shrewd, 60).search(game, view, player, moves, random.Random(seed)) == good


def test_the_tree_keeps_to_its_budget_and_stops_when_asked(
    monkeypatch: pytest.MonkeyPatch, choice_position: Any
) -> None:
    game = SnatchGame()
    view, player, moves = choice_position(game)
    played: list[object] = []
    monkeypatch.setattr(tree_module, "playout", lambda *a, **k: played.append(a) or (0.5, 0.5))
    kinds = {game.alike(view, player, m): m for m in moves}
    fav = next(iter(kinds))
    tree_search(game, view, player, kinds, fav, Shrewd(), random.Random(0), playouts=30)
    assert 0 < len(played) <= 30
    played.clear()
    asked = iter(range(100))
    kind = tree_search(
        game, view, player, kinds, fav, Shrewd(), random.Random(0), playouts=30, stop=lambda: next(asked) >= 3
    )
    assert len(played) <= 3 and kind in kinds
    # Stopped before it began: the rollout bot's choice.
    assert (
        tree_search(
            game, view, player, kinds, fav, Shrewd(), random.Random(0), playouts=30, stop=lambda: True
        )
        == fav
    )


def test_another_seats_moves_are_told_apart_by_the_cards_they_show(example_entry_points: Any) -> None:
    game = registry.load(example_entry_points).game("crazy-eights")
    for seed in range(40):
        view, _ = random_position(game, 2, seed, 3)
        step = game.next_step(view)
        if not hasattr(step, "player"):
            continue
        me = step.player
        world = sample_world(view, random.Random(seed))
        walk = _Walk(game, me, tree_module._Node(), {}, [RandomPolicy()] * 2, random.Random(0), None, 0.7)
        other = walk._offered(world, 1 - me)
        for key, move in other.items():
            action, shown = key  # type: ignore[misc]
            assert action == move.action
            if move.args:  # the token's card in this world, not the token
                assert shown[0] == world.table.card(int(move.args[0])) and isinstance(shown[0], Card)
        mine = walk._offered(world, me)
        assert set(mine) == {game.alike(world, me, m) for m in game.legal_moves(world, me)}
        return
    raise AssertionError("no Crazy Eights position with a decision in 40 seeds")


def test_the_trees_choice_in_a_game_with_no_bot_depends_only_on_its_view(example_entry_points: Any) -> None:
    """Crazy Eights searched by the tree with random playouts: on another deal its view allows,
    the same move."""
    from fairdeal.testing import check_bot

    game = registry.load(example_entry_points).game("crazy-eights")
    assert not game.search.flat_with(RandomPolicy())
    assert check_bot(game, lambda: Expert(None, 12), 2, range(2)) > 0


def test_a_number_in_another_seats_move_stays_a_number_where_it_is_also_a_hidden_tokens_id(
    example_entry_points: Any,
) -> None:
    """A play that also names a pile by its index, 0, which is the id of a card hidden from the
    searching seat: the tree keys the move by the card played and the index, the same in every
    world, not by whatever card token 0 is in each."""
    base = type(registry.load(example_entry_points).game("crazy-eights"))

    class Indexed(base):  # type: ignore[valid-type, misc]
        def legal_moves(self, state: Any, player: int) -> list[Move]:
            moves = super().legal_moves(state, player)
            return [Move("play", (*m.args, 0)) if m.action == "play" else m for m in moves]

        def apply(self, state: Any, player: int, move: Move) -> Any:
            return super().apply(
                state, player, Move("play", move.args[:1]) if move.action == "play" else move
            )

    game = Indexed()
    for seed in range(60):
        view, _ = random_position(game, 2, seed, 2)
        step = game.next_step(view)
        if not hasattr(step, "player") or view.table.card(0) is not None:
            continue
        me = step.player
        walk = _Walk(game, me, tree_module._Node(), {}, [RandomPolicy()] * 2, random.Random(0), None, 0.7)
        keys = []
        for draw in range(8):
            world = sample_world(view, random.Random(draw))
            for key, move in walk._offered(world, 1 - me).items():
                if move.action == "play":
                    assert key == ("play", (world.table.card(int(move.args[0])), 0))
                    keys.append(key)
        if keys:
            return
    raise AssertionError("no position where the other seat could play, token 0 hidden, in 60 seeds")
