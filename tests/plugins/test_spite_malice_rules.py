"""Spite & Malice: one test (at least) for every rule of RULES.md, on hand-built tables."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal import Auto, Card, Chance, Decide, Move, Over, Visibility, parse_card
from fairdeal.cli.render import table_text
from fairdeal.core.table import EVERYONE, Table
from fairdeal.plugins.spite_malice import MOVE_LIMIT, GameRecord, Phase, SpiteMalice, SpiteState
from fairdeal.plugins.spite_malice.layout import CENTRES, SIDES, STOCK, hand, payoff
from fairdeal.testing import build_table, settle

GAME = SpiteMalice()
CONFIG = GAME.config(2)
ZONES = list(GAME.zones_for(CONFIG))


def cards(text: str) -> list[Card]:
    """``"AH 2S K#1"``-style text into cards, bottom first."""
    return [parse_card(x) for x in text.split()]


def filler(n: int) -> list[Card]:
    """``n`` cards for a stock whose identity the test does not care about."""
    deck = [c for c in GAME.deck_for(CONFIG) if c.rank == 7]
    return [deck[i % len(deck)] for i in range(n)]


def scenario(
    *,
    hands: tuple[str, str] = ("", ""),
    payoffs: tuple[str, str] = ("9C", "9D"),
    sides: tuple[tuple[str, ...], ...] = (("", "", "", ""), ("", "", "", "")),
    centres: tuple[str, str, str] = ("", "", ""),
    stock: int = 20,
    heap: int = 0,
    **fields: object,
) -> SpiteState:
    """An all-seeing, settled state in the middle of seat 0's turn (unless ``fields`` say otherwise).

    ``heap`` filler cards lie on seat 1's last side stack, so that a new deal has cards enough.
    """
    contents: dict[str, list[Card]] = {}
    for p in range(2):
        contents[hand(p)] = cards(hands[p])
        contents[payoff(p)] = cards(payoffs[p])
        for i, z in enumerate(SIDES[p]):
            contents[z] = cards(sides[p][i])
    for c, text in zip(CENTRES, centres, strict=True):
        contents[c] = cards(text)
    contents[SIDES[1][3]] = contents[SIDES[1][3]] + filler(heap)
    contents[STOCK] = filler(stock)
    table = build_table(ZONES, 2, contents)
    for p in range(2):
        top = table.top(payoff(p))
        if top is not None:
            table.flip(top)
    base = {"phase": Phase.PLAY, "turn": 0, "filled": True}
    base.update(fields)
    return settle(SpiteState(table, **base))  # type: ignore[arg-type]


def token_of(state: SpiteState, zone: str, text: str) -> int:
    """The token of the card ``text`` in ``zone``."""
    want = parse_card(text)
    return next(t for t, c in state.table.known(zone) if c == want)


def play(state: SpiteState, player: int, action: str, token: int, dest: str) -> SpiteState:
    move = Move(action, (token, dest))
    assert GAME.allows(state, player, move), f"{move} should be legal"
    return settle(GAME.apply(state, player, move))


def auto(state: SpiteState) -> SpiteState:
    assert GAME.next_step(state) == Auto()
    return settle(GAME.advance(state))


def centre_values(state: SpiteState) -> list[int]:
    return [state.table.size(c) for c in CENTRES]


def fresh_game(seed: int = 0) -> SpiteState:
    """A real first deal from a shuffled 104-card deck, settled, all-seeing."""
    deck = list(GAME.deck_for(CONFIG))
    random.Random(seed).shuffle(deck)
    table = Table(ZONES, 2, EVERYONE)
    table.place(STOCK, list(range(len(deck))))
    for t, c in enumerate(deck):
        table._cards[t] = c
    return settle(GAME.setup(CONFIG, table))


# -- cards and setup --------------------------------------------------------------------------------
def test_two_standard_decks_no_jokers() -> None:
    deck = GAME.deck_for(CONFIG)
    assert len(deck) == 104
    assert Counter((c.rank, c.suit) for c in deck) == Counter({(c.rank, c.suit): 2 for c in deck})
    assert len(set(deck)) == 104  # two physical copies of each card


def test_zones_have_the_visibility_of_a_real_table() -> None:
    spec = {z.name: z for z in ZONES}
    for p in range(2):
        assert spec[hand(p)].visibility is Visibility.OWNER and spec[hand(p)].owner == p
        assert spec[payoff(p)].visibility is Visibility.HIDDEN
        assert len(SIDES[p]) == 4
        assert all(spec[z].visibility is Visibility.PUBLIC for z in SIDES[p])
    assert len(CENTRES) == 3 and all(spec[c].visibility is Visibility.PUBLIC for c in CENTRES)
    assert spec[STOCK].visibility is Visibility.HIDDEN
    assert GAME.deck_zone_for(CONFIG) == STOCK


def test_setup_deals_payoff_piles_hands_and_stock() -> None:
    s = fresh_game()
    t = s.table
    for p in range(2):
        assert t.size(payoff(p)) == 20 and t.size(hand(p)) == 5
        assert all(t.size(z) == 0 for z in SIDES[p])
    assert centre_values(s) == [0, 0, 0] and t.size(STOCK) == 54
    other = t.masked(1)
    top, below = t.top(payoff(0)), t.tokens(payoff(0))[-2]
    assert t.is_public(top) and other.card(top) is not None  # the top is face up
    assert not t.is_public(below) and other.card(below) is None and t.masked(0).card(below) is None
    assert all(other.card(tok) is None for tok in t.tokens(hand(0)))  # hands are private
    assert all(t.masked(0).card(tok) is not None for tok in t.tokens(hand(0)))
    assert all(t.masked(0).card(tok) is None for tok in t.tokens(STOCK))


# -- the first player -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("tops", "first"), [(("9C", "QD"), 1), (("JC", "3D"), 0), (("KC", "QD"), 0), (("AC", "2D"), 1)]
)
def test_higher_payoff_top_starts(tops: tuple[str, str], first: int) -> None:
    s = scenario(payoffs=(f"5S {tops[0]}", f"5H {tops[1]}"), phase=Phase.FIRST, hands=("2C", "2D"))
    s = auto(s)
    assert (s.phase, s.turn, s.starter) == (Phase.PLAY, first, first)


def test_equal_payoff_tops_are_a_joint_random_choice() -> None:
    s = scenario(payoffs=("5S QC", "5H QD"), phase=Phase.FIRST, hands=("2C", "2D"))
    step = GAME.next_step(s)
    assert isinstance(step, Chance) and step.n == 2
    for value in (0, 1):
        after = GAME.on_chance(s, value)
        assert (after.phase, after.turn, after.starter) == (Phase.PLAY, value, value)


def _win_game(starter: int, winner: int) -> SpiteState:
    """Seat ``winner`` plays its last payoff card in a game that ``starter`` started."""
    payoffs = ("AC", "2D 3D 4D") if winner == 0 else ("2C 3C 4C", "AD")
    s = scenario(payoffs=payoffs, hands=("5C", "5D"), turn=winner, starter=starter, heap=50)
    return play(s, winner, "play", s.table.top(payoff(winner)) or -1, CENTRES[0])


@pytest.mark.parametrize(("starter", "winner"), [(0, 0), (1, 0), (0, 1), (1, 1)])
def test_loser_of_the_previous_game_starts(starter: int, winner: int) -> None:
    s = _win_game(starter, winner)
    assert s.phase is Phase.OVER and GAME.next_step(s) == Auto()
    s = auto(auto(s))  # the joint reshuffle, then the deal
    assert (s.phase, s.turn, s.starter, s.game) == (Phase.PLAY, 1 - winner, 1 - winner, 2)


@pytest.mark.parametrize("starter", [0, 1])
def test_after_a_drawn_game_the_other_player_starts(starter: int) -> None:
    s = scenario(hands=("", "2D"), stock=0, filled=False, turn=starter, starter=starter, heap=50)
    s = auto(s)  # the draw finds an empty stock
    assert s.phase is Phase.OVER and s.history[-1].winner is None
    s = auto(auto(s))
    assert (s.turn, s.starter) == (1 - starter, 1 - starter)


# -- a turn -----------------------------------------------------------------------------------------
def test_turn_starts_by_drawing_up_to_five_privately() -> None:
    s = scenario(hands=("2C 3C", ""), filled=False, stock=10)
    s = auto(s)
    assert s.table.size(hand(0)) == 5 and s.table.size(STOCK) == 7 and s.filled
    assert GAME.next_step(s) == Decide(0)
    assert all(s.table.masked(1).card(t) is None for t in s.table.tokens(hand(0)))
    assert all(s.table.masked(0).card(t) is not None for t in s.table.tokens(hand(0)))


def test_a_full_hand_draws_nothing() -> None:
    s = scenario(hands=("2C 3C 4C 5C 6C", ""), filled=False, stock=0)
    assert GAME.next_step(s) == Decide(0)  # no draw is owed, so the empty stock does not matter


def test_play_payoff_top_and_the_next_card_turns_up() -> None:
    s = scenario(payoffs=("4H 2S AS", "9D"), hands=("8C", ""))
    nxt = s.table.tokens(payoff(0))[-2]
    assert not s.table.is_public(nxt)
    s = play(s, 0, "play", s.table.top(payoff(0)) or -1, CENTRES[1])
    assert s.table.top(payoff(0)) == nxt and s.table.is_public(nxt)
    assert s.table.masked(1).card(nxt) == parse_card("2S")
    s = play(s, 0, "play", nxt, CENTRES[1])
    assert centre_values(s) == [0, 2, 0] and s.table.size(payoff(0)) == 1


def test_play_side_stack_top_only() -> None:
    s = scenario(sides=(("AS 3C", "2D", "", ""), ("", "", "", "")), centres=("AH", "", ""), hands=("9C", ""))
    under = token_of(s, SIDES[0][0], "AS")
    assert not GAME.allows(s, 0, Move("play", (under, CENTRES[1])))  # not the top card
    s = play(s, 0, "play", token_of(s, SIDES[0][1], "2D"), CENTRES[0])
    s = play(s, 0, "play", token_of(s, SIDES[0][0], "3C"), CENTRES[0])
    s = play(s, 0, "play", under, CENTRES[1])
    assert centre_values(s) == [3, 1, 0] and GAME.next_step(s) == Decide(0)


def test_play_from_hand() -> None:
    s = scenario(hands=("AC 2C 9C", ""))
    s = play(s, 0, "play", token_of(s, hand(0), "AC"), CENTRES[2])
    s = play(s, 0, "play", token_of(s, hand(0), "2C"), CENTRES[2])
    assert centre_values(s) == [0, 0, 2] and s.table.size(hand(0)) == 1


def test_no_play_from_payoff_pile_or_side_stack_to_a_side_stack() -> None:
    s = scenario(payoffs=("9C 5S", "9D"), sides=(("6H", "", "", ""), ("", "", "", "")), hands=("8C", ""))
    pay, top = s.table.top(payoff(0)), token_of(s, SIDES[0][0], "6H")
    for token in (pay, top):
        for dest in SIDES[0]:
            assert not GAME.allows(s, 0, Move("discard", (token or -1, dest)))
            assert not GAME.allows(s, 0, Move("play", (token or -1, dest)))
    assert not any(m.args[0] in (pay, top) and m.action == "discard" for m in GAME.legal_moves(s, 0))


def test_empty_hand_draws_five_at_once_and_the_turn_goes_on() -> None:
    s = scenario(hands=("AC", ""), stock=6)
    s = play(s, 0, "play", token_of(s, hand(0), "AC"), CENTRES[0])
    assert s.table.size(hand(0)) == 0 and GAME.next_step(s) == Auto()
    s = auto(s)
    assert s.table.size(hand(0)) == 5 and s.table.size(STOCK) == 1
    assert GAME.next_step(s) == Decide(0)


def test_turn_ends_with_a_discard_on_an_own_side_stack() -> None:
    s = scenario(hands=("9C 9S", "2D"), sides=(("", "", "KH", ""), ("", "", "", "")))
    tok = token_of(s, hand(0), "9C")
    assert not GAME.allows(s, 0, Move("discard", (tok, SIDES[1][0])))  # not the opponent's stack
    assert not GAME.allows(s, 1, Move("discard", (tok, SIDES[0][0])))  # not out of turn
    assert {m.args[1] for m in GAME.legal_moves(s, 0) if m.action == "discard"} == set(SIDES[0])
    s = play(s, 0, "discard", tok, SIDES[0][2])  # any card, on any stack, empty or not
    assert s.table.cards(SIDES[0][2]) == cards("KH 9C")
    assert (s.turn, s.filled) == (1, False) and GAME.next_step(s) == Auto()
    s = auto(s)
    assert s.table.size(hand(1)) == 5 and GAME.next_step(s) == Decide(1)
    assert not any(GAME.allows(s, 0, m) for m in GAME.legal_moves(s, 1))  # seat 0's turn is over


# -- centre stacks ----------------------------------------------------------------------------------
def test_empty_centre_stack_takes_an_ace_only() -> None:
    s = scenario(hands=("AC 2C 5C QC", ""))
    legal = {(s.table.card(int(m.args[0])), m.args[1]) for m in GAME.legal_moves(s, 0) if m.action == "play"}
    assert legal == {(parse_card("AC"), c) for c in CENTRES}


def test_centre_stack_takes_the_next_rank_whatever_the_suit() -> None:
    s = scenario(hands=("4D 5C 6S", ""), centres=("AH 2H 3H", "", ""))
    assert not GAME.allows(s, 0, Move("play", (token_of(s, hand(0), "5C"), CENTRES[0])))
    s = play(s, 0, "play", token_of(s, hand(0), "4D"), CENTRES[0])
    s = play(s, 0, "play", token_of(s, hand(0), "5C"), CENTRES[0])
    assert not GAME.allows(s, 0, Move("play", (token_of(s, hand(0), "6S"), CENTRES[1])))
    assert centre_values(s) == [5, 0, 0]


def test_king_is_the_card_needed_next() -> None:
    s = scenario(hands=("KS 5C 6C", ""), centres=("AH 2H 3H 4H", "", ""))
    s = play(s, 0, "play", token_of(s, hand(0), "KS"), CENTRES[0])
    assert centre_values(s) == [5, 0, 0]
    assert not GAME.allows(s, 0, Move("play", (token_of(s, hand(0), "5C"), CENTRES[0])))
    assert GAME.allows(s, 0, Move("play", (token_of(s, hand(0), "6C"), CENTRES[0])))
    text = table_text(GAME, s.with_table(s.table.masked(None)), None)
    assert "K♠ (5 cards), K=5, takes 6" in text  # the value a King stands for is shown to everyone


def test_king_on_an_empty_stack_is_an_ace() -> None:
    s = scenario(hands=("KS AC 2C", ""))
    s = play(s, 0, "play", token_of(s, hand(0), "KS"), CENTRES[1])
    assert centre_values(s) == [0, 1, 0]
    assert not GAME.allows(s, 0, Move("play", (token_of(s, hand(0), "AC"), CENTRES[1])))
    s = play(s, 0, "play", token_of(s, hand(0), "2C"), CENTRES[1])
    assert centre_values(s) == [0, 2, 0]


def _eleven() -> str:
    return "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH"


@pytest.mark.parametrize("last", ["QS", "KS"])
def test_a_completed_stack_is_shuffled_into_the_stock_at_once(last: str) -> None:
    s = scenario(hands=(f"{last} 2C", ""), centres=(_eleven(), "AS", ""), stock=9)
    s = play(s, 0, "play", token_of(s, hand(0), last), CENTRES[0])
    assert s.table.size(CENTRES[0]) == 12 and GAME.next_step(s) == Auto()
    done = GAME.advance(s)
    (request,) = done.table.pending_shuffles()
    assert request.into == STOCK and len(request.tokens) == 21
    assert set(s.table.tokens(CENTRES[0])) | set(s.table.tokens(STOCK)) == set(request.tokens)
    s = settle(done)
    assert centre_values(s) == [0, 1, 0] and s.table.size(STOCK) == 21
    assert not any(s.table.is_public(t) for t in s.table.tokens(STOCK))
    assert GAME.next_step(s) == Decide(0)


def test_completion_refills_the_stock_before_an_emptied_hand_draws() -> None:
    s = scenario(hands=("QS", ""), centres=(_eleven(), "", ""), stock=2)
    s = play(s, 0, "play", token_of(s, hand(0), "QS"), CENTRES[0])
    s = auto(s)  # the reshuffle comes first: 14 cards in the stock
    assert s.table.size(STOCK) == 14
    s = auto(s)
    assert s.table.size(hand(0)) == 5 and s.phase is Phase.PLAY


# -- the end of a game and the match ----------------------------------------------------------------
def test_last_payoff_card_wins_and_scores_the_opponents_payoff_count() -> None:
    s = scenario(payoffs=("3C", "2D 3D 4D 5D 6D 7D 8D"), hands=("9C", "9D"), centres=("AH 2H", "", ""))
    s = play(s, 0, "play", s.table.top(payoff(0)) or -1, CENTRES[0])
    assert s.phase is Phase.OVER and s.scores == (7, 0)
    assert s.history[-1].winner == 0 and s.history[-1].points == 7
    assert GAME.next_step(s) == Auto()  # 7 < 50: the match goes on
    over = GAME.next_step(replace(s, target=7))
    assert isinstance(over, Over) and over.result.winner == 0 and over.result.scores == (7, 0)


@pytest.mark.parametrize(("hand_text", "stock"), [("", 0), ("2C 3C 4C", 1), ("", 4)])
def test_must_draw_from_a_short_stock_ends_the_game_drawn(hand_text: str, stock: int) -> None:
    s = scenario(hands=(hand_text, "2D"), stock=stock, filled=False, scores=(10, 20))
    s = auto(s)
    assert s.phase is Phase.OVER and s.scores == (10, 20)  # nobody scores
    assert s.history[-1].winner is None and s.history[-1].points == 0


def test_emptied_hand_with_a_short_stock_ends_the_game_drawn() -> None:
    s = scenario(hands=("AC", ""), stock=4)
    s = play(s, 0, "play", token_of(s, hand(0), "AC"), CENTRES[0])
    s = auto(s)
    assert s.phase is Phase.OVER and s.history[-1].winner is None


@pytest.mark.parametrize(("before", "points", "ends"), [(45, 5, True), (45, 4, False), (0, 19, False)])
def test_match_ends_when_a_player_reaches_fifty(before: int, points: int, ends: bool) -> None:
    rest = " ".join(["5D"] * points)
    s = scenario(payoffs=("AC", rest), hands=("9C", "9D"), scores=(0, before), turn=0)
    s = replace(s, scores=(before, 0))
    s = play(s, 0, "play", s.table.top(payoff(0)) or -1, CENTRES[0])
    step = GAME.next_step(s)
    if ends:
        assert isinstance(step, Over)
        assert step.result.winner == 0 and step.result.scores == (before + points, 0)
        assert "50" in step.result.reason and "game 1: seat 0 +" in step.result.standing
    else:
        assert step == Auto()


def test_each_new_game_is_a_joint_shuffle_of_all_104_cards() -> None:
    s = fresh_game(3)
    s = replace(s, phase=Phase.OVER, history=(GameRecord(1, 0, 1, 5, "seat 1 won"),))
    done = GAME.advance(s)
    (request,) = done.table.pending_shuffles()
    assert request.into == STOCK and len(request.tokens) == 104
    s = settle(done)
    assert s.phase is Phase.DEAL and s.table.size(STOCK) == 104 and not s.table.faceup
    s = auto(s)
    assert s.table.size(payoff(0)) == s.table.size(payoff(1)) == 20 and s.table.size(STOCK) == 54
    assert all(s.table.is_public(s.table.top(payoff(p)) or -1) for p in range(2))


@pytest.mark.parametrize(("scores", "winner"), [((10, 3), 0), ((3, 10), 1), ((4, 4), None)])
def test_safety_rule_ends_a_match_after_max_games(scores: tuple[int, int], winner: int | None) -> None:
    s = scenario(hands=("", "2D"), stock=0, filled=False, scores=scores, max_games=1)
    s = auto(s)  # a drawn game: the match has had its one game
    step = GAME.next_step(s)
    assert isinstance(step, Over) and step.result.winner == winner and step.result.scores == scores


def test_safety_rule_draws_a_game_at_the_move_limit() -> None:
    s = scenario(hands=("9C 8C", ""), moves=MOVE_LIMIT - 2)
    s = play(s, 0, "discard", token_of(s, hand(0), "9C"), SIDES[0][0])
    assert s.phase is Phase.PLAY
    s = auto(s)  # seat 1 draws
    s = play(s, 1, "discard", s.table.tokens(hand(1))[0], SIDES[1][0])
    assert s.phase is Phase.OVER and s.history[-1].winner is None and "safety" in s.history[-1].reason


# -- what each view may judge -----------------------------------------------------------------------
def test_views_agree_and_unknown_hand_cards_never_forbid_a_move() -> None:
    s = scenario(hands=("5C AC", "2D"))
    bad = Move("play", (token_of(s, hand(0), "5C"), CENTRES[0]))
    assert not GAME.allows(s, 0, bad)  # the all-seeing view (and seat 0's) refuses it
    assert not GAME.allows(s.with_table(s.table.masked(0)), 0, bad)
    theirs = s.with_table(s.table.masked(1))
    assert GAME.allows(theirs, 0, bad)  # seat 1 cannot see the card: `verify` judges it later
    for view in (None, 0, 1):
        assert GAME.next_step(s.with_table(s.table.masked(view))) == GAME.next_step(s)


def test_apply_leaves_its_input_alone() -> None:
    s = scenario(hands=("AC 9C", ""), payoffs=("2C 3C", "9D"))
    before = s.copy()
    for move in GAME.legal_moves(s, 0):
        GAME.apply(s, 0, move)
    assert s.table == before.table and s == replace(before, table=s.table)


# -- a property: every reachable table keeps the rules' invariants -------------------------------------
@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_play_keeps_every_centre_stack_a_valid_build(seed: int) -> None:
    rng = random.Random(seed)
    s = fresh_game(seed)
    for _ in range(400):
        step = GAME.next_step(s)
        if isinstance(step, Over):
            break
        if isinstance(step, Chance):
            s = settle(GAME.on_chance(s, rng.randrange(step.n)))
            continue
        if isinstance(step, Auto):
            s = settle(GAME.advance(s), seed)
            continue
        assert isinstance(step, Decide)
        moves = GAME.legal_moves(s, step.player)
        plays = [m for m in moves if m.action == "play"]
        s = settle(GAME.apply(s, step.player, rng.choice(plays if plays and rng.random() < 0.8 else moves)))
        t = s.table
        assert sum(t.size(z.name) for z in ZONES) == 104
        for c in CENTRES:
            ranks = [card.rank for card in t.cards(c) if card is not None]
            assert len(ranks) == t.size(c) <= 12
            assert all(r in (i + 1, 13) for i, r in enumerate(ranks))
        for p in range(2):
            assert t.size(hand(p)) <= 5
            top = t.top(payoff(p))
            assert top is None or t.is_public(top)
