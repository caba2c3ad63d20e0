"""Spite & Malice as a whole: registration, rules text, the conformance kit, full games and
matches with the plain dealer, the table as a player sees it, and the planner bot."""

from __future__ import annotations

import random

import pytest

from fairdeal import (
    ConfigError,
    IllegalMove,
    Move,
    Policy,
    RandomPolicy,
    parse_card,
    registry,
)
from fairdeal.cli.render import table_text
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.replica import Replica
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import Event, Observer, Played, play_game
from fairdeal.core.table import EVERYONE
from fairdeal.plugins.spite_malice import Phase, Planner, SpiteMalice, SpiteState
from fairdeal.plugins.spite_malice import bots as planner_module
from fairdeal.plugins.spite_malice.layout import CENTRES, SIDES, hand, payoff
from fairdeal.testing import check_game

from .spite_positions import mid_turn, turn_view

GAME = SpiteMalice()


def play(
    options: dict[str, object], policies: list[Policy], seed: int, observe: Observer | None = None
) -> Played:
    config = GAME.config(2, options)
    dealer = PlainDealer(2, SeededRng(seed))
    return play_game(GAME, config, dealer, policies, random.Random(seed), observe=observe)


# -- registration, options, rules text ---------------------------------------------------------------
def test_registry_lists_the_game_and_its_default_bot() -> None:
    reg = registry.load()
    assert "spite-malice" in reg.games and isinstance(reg.game("spite-malice"), SpiteMalice)
    assert not [w for w in reg.warnings if "spite" in w]
    assert reg.bot("spite-malice").name == "planner"
    assert set(reg.bots["spite-malice"]) == {"random", "planner", "expert"}


def test_options_and_player_count() -> None:
    assert GAME.config(2)["target"] == 50
    assert GAME.config(2, {"target": "7"})["target"] == 7
    with pytest.raises(ConfigError):
        GAME.config(3)
    with pytest.raises(ConfigError):
        GAME.config(2, {"target": 0})
    with pytest.raises(ConfigError):
        GAME.config(2, {"stock": 3})


def test_rules_text_states_the_rules() -> None:
    text = GAME.rules_text()
    for fact in (
        "104 cards",
        "payoff pile of 20",
        "hand of 5",
        "4 side stacks",
        "3 centre stacks",
        "Kings are wild",
        "an Ace",
        "Queen",
        "joint reshuffle",
        "draw 5 more",
        "A=1 ... Q=12, K=13",
        "joint random choice",
        "loser of the\nprevious game starts",
        "the game ends drawn",
        "50 points",
        "(option target)",
        "(option max_games)",
        "2000 moves",
    ):
        assert fact in text, fact
    assert all(len(line) <= 92 for line in text.splitlines())


# -- the conformance kit ----------------------------------------------------------------------------
def test_conformance_kit_random_players() -> None:
    report = check_game(GAME, 2, {"target": 1, "max_games": 3}, seeds=range(6))
    assert report.games == 6 and report.moves > 6 * 100


def test_conformance_kit_planners_short_matches() -> None:
    options = {"target": 1, "max_games": 1}
    report = check_game(GAME, 2, options, seeds=range(2), policies=[Planner(), Planner()])
    assert report.games == 2 and None not in report.winners


def test_conformance_kit_planner_against_random() -> None:
    options = {"target": 1, "max_games": 2}
    report = check_game(GAME, 2, options, seeds=range(3), policies=[Planner(), RandomPolicy()])
    assert report.games == 3


# -- full games with the plain dealer -----------------------------------------------------------------
def test_full_match_between_planners_ends_with_a_correct_result() -> None:
    finished: list[tuple[int | None, int, int]] = []

    def observe(event: Event, replicas: dict[int | None, Replica]) -> None:
        state = replicas[EVERYONE].state
        if event.kind == "move" and state.phase is Phase.OVER:
            rec = state.history[-1]
            loser_pile = state.table.size(payoff(1 - rec.winner)) if rec.winner is not None else 0
            finished.append((rec.winner, rec.points, loser_pile))

    played = play({"target": 15}, [Planner(), Planner()], seed=11, observe=observe)
    result = played.result
    assert played.verdict.fair
    assert result.winner is not None and result.scores[result.winner] >= 15
    assert result.scores[1 - result.winner] < 15
    assert all(points == pile for winner, points, pile in finished if winner is not None)
    states: list[SpiteState] = [r.state for r in played.replicas.values()]
    history = states[0].history
    assert all(s.history == history and s.scores == result.scores for s in states)
    for seat in (0, 1):
        assert sum(r.points for r in history if r.winner == seat) == result.scores[seat]
    assert sum(1 for e in played.events if e.kind == "shuffle") >= len(history) - 1  # a new deal each game
    table = states[0].table
    assert sum(table.size(z) for z in table.specs) == 104


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_single_games_end_won_or_drawn(seed: int) -> None:
    played = play({"target": 1, "max_games": 1}, [Planner(), RandomPolicy()], seed)
    state = played.replicas[None].state
    (record,) = state.history
    assert played.result.winner == record.winner
    if record.winner is None:
        assert "stock ran out" in record.reason and played.result.scores == (0, 0)
    else:
        assert state.table.size(payoff(record.winner)) == 0
        assert played.result.scores[record.winner] == record.points > 0


def test_a_move_the_rules_refuse_is_refused_by_the_runner() -> None:
    class Cheat:
        def choose(self, game, state, player, moves, rng):  # type: ignore[no-untyped-def]
            t = state.table
            for token, card in t.known(hand(player)):
                if card.rank not in (1, 13):
                    return Move("play", (token, CENTRES[0]))  # onto an empty stack: only an Ace fits
            return moves[0]

    with pytest.raises(IllegalMove):
        play({"target": 1, "max_games": 1}, [Cheat(), Cheat()], seed=0)


# -- the table as a player sees it ----------------------------------------------------------------------
def test_line_mode_shows_what_a_player_sees() -> None:
    s = mid_turn()
    mine = table_text(GAME, s.with_table(s.table.masked(0)), 0, {0: "You", 1: "Bob"}.get)
    assert "game 3 · match to 50" in mine and "Points — You: 12 · Bob: 30" in mine
    assert "Stock: 6 cards face down" in mine
    assert "Centre 1: K♠ (3 cards), K=3, takes 4" in mine and "Centre 2: empty, takes A" in mine
    assert "You ◀  Payoff: 3♠ (2 cards) · Hand: 7♦ 9♣ · Side 1: 5♠ 6♠" in mine
    assert "Bob    Payoff: J♦ (2 cards) · Hand: 1 card face down" in mine
    assert mine.endswith("Your turn")
    public = table_text(GAME, s.with_table(s.table.masked(None)), None, {0: "Ann", 1: "Bob"}.get)
    assert "Ann: 12 · Bob: 30" in public and "9♣" not in public and "Q♠" not in public


def test_describe_and_narrate() -> None:
    s = mid_turn()
    t = s.table
    king = Move("play", (t.tokens(hand(0))[0], CENTRES[0]))  # 9♣ does not fit; words only
    assert GAME.describe(s, 0, king) == "play 9♣ from hand to centre 1"
    pay = Move("play", (t.top(payoff(0)) or -1, CENTRES[1]))
    # Every empty centre stack takes the same cards: the words say so, and a list shows the choice once.
    assert GAME.describe(s, 0, pay) == "play 3♠ from payoff to an empty centre"
    side = Move("play", (t.top(SIDES[0][0]) or -1, CENTRES[1]))
    assert GAME.narrate(s, 0, side, "Ann") == "Ann played 6♠ from their side stack 1 onto centre 2"
    mine = s.with_table(t.masked(0))
    assert GAME.narrate(mine, 0, side, "Ann") == "You played 6♠ from your side stack 1 onto centre 2"
    discard = Move("discard", (t.tokens(hand(0))[1], SIDES[0][3]))
    assert GAME.describe(s, 0, discard) == "end turn: 7♦ on an empty side stack"
    assert GAME.narrate(s, 0, discard, "Ann") == "Ann put 7♦ on side stack 4 and ended their turn"


# -- the planner ------------------------------------------------------------------------------------------
def _bot_move(state: SpiteState) -> Move:
    moves = list(GAME.legal_moves(state, 0))
    move = Planner().choose(GAME, state, 0, moves, random.Random(0))
    assert move in moves
    return move


def test_planner_builds_to_its_payoff_card_first() -> None:
    s = turn_view("4C 9C QD", ("AH 2H 3H", "", ""), "2S 5H", "JD")
    first = _bot_move(s)
    assert s.table.card(int(first.args[0])) == parse_card("4C") and first.args[1] == CENTRES[0]
    s = GAME.apply(s, 0, first)
    second = _bot_move(s)
    assert second.args[0] == s.table.top(payoff(0))


def test_planner_does_not_feed_the_opponents_payoff_card() -> None:
    # Playing 5♣ would leave centre 1 at 5, one below the opponent's 6♦; nothing is gained by it.
    s = turn_view("5C 9C JS", ("AH 2H 3H 4H", "", ""), "QS", "6D")
    move = _bot_move(s)
    assert move.action == "discard"


def test_planner_empties_its_hand_to_draw_again() -> None:
    s = turn_view("3C 2C AC", ("", "", ""), "QS", "10D")
    seen = []
    while s.table.size(hand(0)):
        move = _bot_move(s)
        seen.append(move.action)
        s = GAME.apply(s, 0, move)
    assert seen == ["play", "play", "play"]


def test_planner_keeps_kings_and_builds_side_stacks_down() -> None:
    s = turn_view("KC 8C JS", ("AH 2H 3H 4H 5H", "AS 2S", "AD 2D"), "QS", "10D", sides0=("9H", "", "", ""))
    move = _bot_move(s)
    assert move.action == "discard"
    assert s.table.card(int(move.args[0])) == parse_card("8C") and move.args[1] == SIDES[0][0]


def test_planner_search_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    s = turn_view("KC KD KS AH 2C", ("", "AS", "AD 2D"), "QS", "10D", sides0=("KH 2S", "3C 3D", "4S", "KS"))
    searches: list[planner_module._Search] = []
    real_init = planner_module._Search.__init__

    def recording(self: planner_module._Search, view: planner_module._View) -> None:
        real_init(self, view)
        searches.append(self)

    monkeypatch.setattr(planner_module._Search, "__init__", recording)
    _bot_move(s)
    full = searches[-1].nodes
    assert 100 < full <= planner_module.NODE_BUDGET + 40  # a rich position, searched within its budget
    monkeypatch.setattr(planner_module, "NODE_BUDGET", 20)
    _bot_move(s)  # still a legal move
    assert searches[-1].nodes < min(full, 20 + 40)  # only the calls already under way finish


def test_planner_beats_random_by_a_clear_margin() -> None:
    wins = losses = 0
    for seed in range(40):
        bot = seed % 2
        players: list[Policy] = [RandomPolicy(), RandomPolicy()]
        players[bot] = Planner()
        winner = play({"target": 1, "max_games": 1}, players, 5_000 + seed).result.winner
        wins += winner == bot
        losses += winner is not None and winner != bot
    assert wins >= 8 and wins >= 9 * losses, (wins, losses)


def test_planner_work_is_bounded_through_whole_games(monkeypatch: pytest.MonkeyPatch) -> None:
    # How long a game takes is measured in bench/spite_malice_bot.py; here, its work is bounded.
    searches: list[planner_module._Search] = []
    real_init = planner_module._Search.__init__

    def recording(self: planner_module._Search, view: planner_module._View) -> None:
        real_init(self, view)
        searches.append(self)

    monkeypatch.setattr(planner_module._Search, "__init__", recording)
    for seed in range(3):
        play({"target": 1, "max_games": 1}, [Planner(), Planner()], 7_000 + seed)
    assert searches and max(x.nodes for x in searches) <= planner_module.NODE_BUDGET + 40
