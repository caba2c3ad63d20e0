"""Snatch! rules, one test (or more) per rule of RULES.md, on hand-built tables.

A scenario stacks each seat's pile: ``start("AS 7H", "QS xx")`` gives seat 0 a pile whose
first turned card is A♠, then 7♥; ``xx`` is some card no other part of the scenario uses
(the filler cards a snatch throws away). ``play(state, "0:turn 1:turn 1:pass judge")`` runs
the steps in order and fails if the engine asks for anything else: a snatch offer that is
not scripted, or a missing one, fails the test.
"""

from __future__ import annotations

from collections import Counter

import pytest

from fairdeal import (
    ACE,
    JACK,
    QUEEN,
    SUITS,
    Auto,
    Card,
    Chance,
    Decide,
    Move,
    Over,
    Result,
    Table,
    parse_card,
)
from fairdeal.core.dealer import Reveal
from fairdeal.core.table import EVERYONE
from fairdeal.plugins.snatch import PASS, SNATCH, TURN, SnatchGame, SnatchState
from fairdeal.plugins.snatch.state import ASIDE, PLAYED, THROWN, TRICK, first_suit, pile, trump_of
from fairdeal.plugins.snatch.trick import RANKS, strongest
from fairdeal.testing import build_table, settle

GAME = SnatchGame()
S, H, D, C = (next(s for s in SUITS if s.value == x) for x in "SHDC")


def cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split()]


def start(*piles: str, opener: int = 0, aside: str = "") -> SnatchState:
    """A game after the first opener was chosen, with each seat's pile stacked as written."""
    n = len(piles)
    deck = list(GAME.deck_for(GAME.config(n)))
    named = [parse_card(c) for text in (*piles, aside) for c in text.split() if c != "xx"]
    spare = [c for c in deck if c not in named]
    contents: dict[str, list[Card]] = {}
    for p, text in enumerate(piles):
        cards = [parse_card(c) if c != "xx" else spare.pop() for c in text.split()]
        contents[pile(p)] = cards[::-1]  # bottom first: the first written is on top
    contents[ASIDE] = [parse_card(c) for c in aside.split()]
    table = build_table(GAME.zones_for(GAME.config(n)), n, contents)
    fresh = SnatchState(table)
    step = GAME.next_step(fresh)
    assert isinstance(step, Chance) and step.n == n
    return GAME.on_chance(fresh, opener)


def act(state: SnatchState, what: str) -> SnatchState:
    """One step: ``judge`` (an Auto step) or ``seat:move``; fails if the engine wants another."""
    step = GAME.next_step(state)
    if what == "judge":
        assert step == Auto(), f"expected the trick to be judged, the engine says {step}"
        return settle(GAME.advance(state))
    seat, _, action = what.partition(":")
    assert step == Decide(int(seat)), f"expected {what}, the engine says {step}"
    move = Move(action)
    assert move in GAME.legal_moves(state, int(seat)), (
        f"{what}: legal moves are {GAME.legal_moves(state, int(seat))}"
    )
    return settle(GAME.apply(state, int(seat), move))


def play(state: SnatchState, script: str) -> SnatchState:
    for what in script.split():
        state = act(state, what)
    return state


def offers(state: SnatchState) -> tuple[int, list[Move]]:
    step = GAME.next_step(state)
    assert isinstance(step, Decide), step
    return step.player, list(GAME.legal_moves(state, step.player))


def trick(state: SnatchState) -> list[Card | None]:
    return state.table.cards(TRICK)


def result(state: SnatchState) -> Result:
    step = GAME.next_step(state)
    assert isinstance(step, Over), f"the game should be over, the engine says {step}"
    return step.result


# -- Cards -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 11))
def test_deck_is_32_cards_per_deck_two_decks_above_five_players(players: int) -> None:
    deck = GAME.deck_for(GAME.config(players))
    copies = 2 if players > 5 else 1
    assert len(deck) == 32 * copies
    want = {(r, s): copies for r in (ACE, QUEEN, JACK, 10, 9, 8, 7, 2) for s in SUITS}
    assert Counter((c.rank, c.suit) for c in deck) == want
    assert len(set(deck)) == len(deck)  # the two copies are told apart


def test_strength_is_a_q_j_10_9_8_7_2() -> None:
    assert RANKS == (2, 7, 8, 9, 10, JACK, QUEEN, ACE)
    order = cards("AH QC JD 10S 9H 8C 7D 2S")  # strongest first, mixed suits
    for i in range(len(order)):
        for j in range(i + 1, len(order)):
            assert strongest([order[j], order[i]], None) == 1, (order[i], order[j])
            assert strongest([order[i], order[j]], None) == 0


# -- Deal --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 11))
def test_every_card_is_dealt_evenly_face_down_and_the_leftovers_go_aside(players: int) -> None:
    config = GAME.config(players)
    deck = GAME.deck_for(config)
    table = Table(GAME.zones_for(config), players, EVERYONE)
    table.place(GAME.deck_zone_for(config), list(range(len(deck))))
    state = GAME.setup(config, table)
    t = state.table
    each = len(deck) // players
    assert [t.size(pile(p)) for p in range(players)] == [each] * players
    assert t.size(ASIDE) == len(deck) % players
    assert t.size(ASIDE) < players
    for zone in [*(pile(p) for p in range(players)), ASIDE, THROWN]:
        assert t.specs[zone].visibility.value == "hidden"  # not even the owner may look
    assert t.requirements() == []  # the deal shows no card to anybody


# -- Play --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4, 10])
def test_the_first_trick_is_opened_by_a_joint_random_choice(players: int) -> None:
    config = GAME.config(players)
    table = Table(GAME.zones_for(config), players, EVERYONE)
    table.place(GAME.deck_zone_for(config), list(range(len(GAME.deck_for(config)))))
    state = GAME.setup(config, table)
    assert GAME.next_step(state) == Chance(players, "who opens the first trick")
    for value in range(players):
        chosen = GAME.on_chance(state, value)
        assert GAME.next_step(chosen) == Decide(value)
        assert GAME.legal_moves(chosen, value) == [TURN]
        assert all(not GAME.allows(chosen, p, TURN) for p in range(players) if p != value)


def test_play_goes_on_in_seat_order_from_the_opener() -> None:
    state = start("JS xx", "10S xx", "AS xx", "QS xx", opener=2)  # all trumps: nobody may snatch
    state = play(state, "2:turn 3:turn 0:turn 1:turn")
    assert trick(state) == cards("AS QS JS 10S")
    assert GAME.next_step(state) == Auto()


def test_turning_puts_the_top_card_of_the_pile_face_up_on_the_table() -> None:
    state = start("9H 7C", "8D xx")
    top = state.table.top(pile(0))
    turned = GAME.apply(state, 0, TURN)
    assert turned.table.tokens(TRICK) == (top,)
    assert turned.table.size(pile(0)) == 1
    assert turned.table.requirements() == [Reveal(top, None)]  # shown to everyone, with every share


def test_the_first_card_sets_trump_and_the_first_suit() -> None:
    state = play(start("9H xx xx", "8D xx xx"), "0:turn")
    assert trump_of(state) is H and first_suit(state) is H
    state = play(state, "1:turn 1:snatch")  # 8♦ is the weakest and no trump
    assert trump_of(state) is D and first_suit(state) is H


def test_the_very_first_card_can_never_snatch_it_is_trump() -> None:
    state = play(start("2H xx", "AS xx"), "0:turn")
    assert offers(state) == (1, [TURN])


# -- Who takes a trick ------------------------------------------------------------------------------
def test_a_trump_beats_any_card_that_is_not_a_trump() -> None:
    state = play(start("7S xx", "AH xx"), "0:turn 1:turn 1:pass judge")  # trump ♠: 7♠ beats A♥
    assert state.last_taker == 0
    assert GAME.next_step(state) == Decide(0)


def test_otherwise_the_higher_rank_wins_and_suit_does_not_matter() -> None:
    state = start("AS 9H xx", "QS QC xx", "JS 10D xx")
    state = play(state, "0:turn 1:turn 2:turn judge")  # all trumps; A♠ takes
    state = play(state, "0:turn 0:pass 1:turn 2:turn judge")  # 9♥ led, Q♣ is highest
    assert state.last_taker == 1
    assert state.table.card(state.last_token) == parse_card("QC")
    assert GAME.next_step(state) == Decide(1)  # the taker opens the next trick


def test_equal_rank_and_trumpness_the_card_played_first_wins() -> None:
    state = start("AS 10H xx", "QS 10C xx", "JS 9D xx")
    state = play(state, "0:turn 1:turn 2:turn judge")
    state = play(state, "0:turn 0:pass 1:turn 1:pass 2:turn 2:pass judge")  # 10♥ = 10♣ > 9♦
    assert state.last_taker == 0


def test_equal_trumps_from_two_decks_the_first_played_wins() -> None:
    state = start("2S xx", "9S xx", "9S#1 xx", "7S xx", "8S xx", "2S#1 xx")  # six players: two decks
    state = play(state, "0:turn 1:turn 2:turn 3:turn 4:turn 5:turn judge")
    assert state.last_taker == 1


def test_a_taken_trick_leaves_play_and_its_taker_opens_the_next() -> None:
    state = play(start("QS xx", "AS xx"), "0:turn 1:turn")
    tokens = state.table.tokens(TRICK)
    state = act(state, "judge")
    assert state.table.size(TRICK) == 0
    assert state.table.tokens(PLAYED) == tokens
    assert state.order == () and state.tricks == 1
    assert GAME.next_step(state) == Decide(1)


# -- Snatch ------------------------------------------------------------------------------------------
def _second_trick(*rest: str) -> SnatchState:
    """Trick 1 is all trumps (♠) and seat 0 takes it; ``rest[p]`` is what seat p turns next."""
    firsts = ["AS", "QS", "JS", "10S"][: len(rest)]
    state = start(*(f"{f} {r}" for f, r in zip(firsts, rest, strict=True)))
    return play(state, " ".join(f"{p}:turn" for p in range(len(rest))) + " judge")


def test_a_lone_card_on_the_table_may_snatch() -> None:
    state = play(_second_trick("9H xx xx", "QC xx xx"), "0:turn")
    assert offers(state) == (0, [SNATCH, PASS])


def test_a_later_equal_card_is_weaker_and_may_snatch() -> None:
    state = play(_second_trick("10H xx xx", "10C xx xx"), "0:turn 0:pass 1:turn")
    assert offers(state) == (1, [SNATCH, PASS])


def test_a_card_that_is_not_the_weakest_may_not_snatch() -> None:
    state = play(_second_trick("9H xx xx", "QC xx xx", "JD xx xx"), "0:turn 0:pass 1:turn")
    assert offers(state) == (2, [TURN])  # Q♣ beats 9♥: no offer, seat 2 turns next


def test_a_trump_never_snatches_even_as_the_weakest_card() -> None:
    state = play(_second_trick("AS xx xx", "2S xx xx"), "0:turn")
    assert offers(state) == (1, [TURN])  # a lone trump: no offer
    state = act(state, "1:turn")
    assert GAME.next_step(state) == Auto()  # 2♠ is the weakest, but a trump: no offer


def test_the_snatched_suit_is_trump_at_once() -> None:
    state = play(_second_trick("QH xx xx", "7C xx xx", "8S xx xx"), "0:turn 0:pass 1:turn 1:snatch 2:turn")
    assert trump_of(state) is C
    assert offers(state) == (2, [SNATCH, PASS])  # 8♠ is no longer a trump, and the weakest


def test_the_trick_is_judged_by_the_trump_standing_when_its_last_card_falls() -> None:
    base = play(_second_trick("QH xx xx", "7C xx xx", "2D xx xx"), "0:turn 0:pass 1:turn 1:snatch 2:turn")
    kept = play(base, "2:pass judge")
    assert kept.last_taker == 1  # 7♣, the only trump
    changed = play(base, "2:snatch judge")
    assert changed.last_taker == 2  # 2♦ is now the only trump
    assert trump_of(changed) is D


# -- The price ---------------------------------------------------------------------------------------
def test_the_kth_snatch_costs_k_cards_thrown_unseen_from_the_top_of_the_pile() -> None:
    state = start("AS 9C xx xx xx xx", "7H xx 8D xx xx xx")
    state = play(state, "0:turn 1:turn")
    top = state.table.tokens(pile(1))[-1:]
    state = act(state, "1:snatch")  # 1st snatch: 1 card
    assert state.table.tokens(THROWN) == top
    assert state.table.size(pile(1)) == 4
    state = play(state, "judge")  # 7♥ is trump now and takes
    assert state.last_taker == 1
    state = play(state, "1:turn")
    before = state.table.tokens(pile(1))
    state = act(state, "1:snatch")  # 2nd snatch: 2 cards, the top two
    assert state.table.tokens(THROWN)[1:] == before[-1:-3:-1]
    assert state.table.size(pile(1)) == 1
    state = play(state, "0:turn 0:snatch")  # 3rd snatch (9♣ is weakest: 8♦ is trump): 3 cards
    assert state.table.size(pile(0)) == 1 and state.table.size(THROWN) == 6
    assert state.count == 3
    assert state.table.requirements() == []  # nothing thrown away is shown


def test_a_snatch_back_to_the_first_suit_costs_1_and_restarts_the_count() -> None:
    state = start("AS 2S xx 9D xx xx xx", "7H xx 8C xx xx xx xx")
    state = play(state, "0:turn 1:turn 1:snatch judge")  # ♥: costs 1
    state = play(state, "1:turn 1:snatch")  # ♣: costs 2
    assert state.count == 2 and state.table.size(pile(1)) == 2
    state = play(state, "0:turn")
    assert offers(state) == (0, [SNATCH, PASS])  # 2♠ is no trump now, and the weakest
    state = act(state, "0:snatch")  # back to ♠, the first suit: costs 1, not 3
    assert trump_of(state) is S
    assert state.count == 1 and state.table.size(pile(0)) == 4
    state = play(state, "judge 0:turn 0:snatch")  # the next costs 2
    assert state.count == 2 and state.table.size(pile(0)) == 1


def test_a_price_equal_to_the_pile_pays_the_whole_pile_and_leaves_without_victory() -> None:
    state = start("AS QH xx xx", "7H xx", "8D 9H xx xx")
    state = play(state, "0:turn 1:turn")
    assert state.table.size(pile(1)) == 1
    state = act(state, "1:snatch")  # price 1 = the 1 card left
    assert state.table.size(pile(1)) == 0 and state.table.size(THROWN) == 1
    assert state.out == (1,) and GAME.departed(state) == {1}
    state = play(state, "2:turn 2:pass judge")  # the paid card still counts: 7♥ is trump and takes
    assert state.last_taker == 1
    assert state.winner is None  # an empty pile paid away wins nothing
    assert GAME.next_step(state) == Decide(2)  # the taker is out: the next active seat opens
    state = play(state, "2:turn 0:turn")  # seat 1 plays no more (♥ trumps: no offers)
    assert GAME.next_step(state) == Auto()


def test_a_price_above_the_pile_also_pays_the_whole_pile() -> None:
    state = start("AS QH xx xx", "7H xx 8D", "AH 10H xx xx")
    state = play(state, "0:turn 1:turn 1:snatch 2:turn judge")  # ♥ for 1 card; A♥ takes
    state = play(state, "2:turn 0:turn 1:turn")  # two trumps, then 8♦: seat 1's last card
    assert state.table.size(pile(1)) == 0 and state.count == 1
    state = act(state, "1:snatch")  # price 2, pile 0: seat 1 pays it all and leaves
    assert state.out == (1,) and state.paid == {1}
    state = act(state, "judge")  # 8♦, the only trump, takes: seat 1 is out, it wins nothing
    assert state.last_taker == 1
    assert state.winner is None and not state.ended
    assert GAME.next_step(state) == Decide(2)


def test_a_price_one_below_the_pile_keeps_the_player_in() -> None:
    state = play(start("AS xx xx", "7H xx xx", "8D xx xx"), "0:turn 1:turn 1:snatch")
    assert state.table.size(pile(1)) == 1 and state.out == ()


def test_snatching_with_your_last_card_takes_you_out_without_victory() -> None:
    base = play(start("AS xx xx", "7H", "8D xx xx"), "0:turn 1:turn")
    assert offers(base) == (1, [SNATCH, PASS])
    passed = play(base, "1:pass 2:turn judge")  # A♠ takes; seat 1's last card does not: a win
    assert result(passed).winner == 1
    snatched = play(base, "1:snatch 2:turn 2:pass judge")  # paid with a whole (empty) pile
    assert snatched.out == (1,) and snatched.paid == {1}
    assert snatched.winner is None
    assert GAME.next_step(snatched) == Decide(2)


# -- Winning -----------------------------------------------------------------------------------------
def test_a_last_card_that_does_not_take_its_trick_wins() -> None:
    state = play(start("AS xx", "7H"), "0:turn 1:turn 1:pass judge")
    r = result(state)
    assert r.winner == 1 and r.scores == (0, 1)
    assert "last card" in r.reason


def test_a_last_card_that_takes_its_trick_is_out_without_victory_and_the_game_goes_on() -> None:
    state = play(start("AS", "7H xx xx", "8D xx xx"), "0:turn 1:turn 1:pass 2:turn judge")
    assert state.last_taker == 0
    assert state.out == (0,) and state.paid == frozenset()
    assert GAME.departed(state) == {0}
    assert GAME.next_step(state) == Decide(1)


def test_two_players_emptying_in_one_trick_the_first_to_turn_their_last_card_wins() -> None:
    state = play(start("AS xx", "7H", "8D"), "0:turn 1:turn 1:pass 2:turn judge")
    assert result(state).winner == 1


def test_emptying_order_is_the_order_of_the_trick_not_of_the_seats() -> None:
    state = play(start("7C", "9H xx", "8D", opener=1), "1:turn 2:turn 2:pass 0:turn 0:pass judge")
    assert state.last_taker == 1
    assert result(state).winner == 2  # seat 2 turned its last card before seat 0


def test_when_the_first_to_empty_takes_the_trick_the_next_to_empty_wins() -> None:
    state = play(start("AS", "7H", "8D xx"), "0:turn 1:turn 1:pass 2:turn judge")
    r = result(state)
    assert r.winner == 1
    assert r.scores == (0, 1, 0)


def test_when_the_trick_winner_is_out_the_next_active_seat_in_seat_order_opens() -> None:
    state = play(start("8D xx xx", "7S xx xx", "AS", opener=1), "1:turn 2:turn 0:turn 0:pass judge")
    assert state.last_taker == 2 and state.out == (2,)
    assert GAME.next_step(state) == Decide(0)  # after seat 2 comes seat 0


def test_fewer_than_two_players_left_and_nobody_won_ends_with_no_winner() -> None:
    state = play(start("AS", "7H xx xx"), "0:turn 1:turn 1:pass judge")
    r = result(state)
    assert r.winner is None and r.scores == (0, 0)
    assert "fewer than two" in r.reason
    assert "seat 0" in r.standing


def test_a_whole_pile_snatch_mid_trick_lets_the_trick_finish_before_the_count() -> None:
    # Seat 0 leaves by paying; seat 1 still turns into this trick, and its last card does not
    # take it (7♥ is trump): seat 1 wins. "Fewer than two" is counted once the trick is judged.
    state = play(start("AS 7H xx", "QS 9D"), "0:turn 1:turn judge 0:turn 0:snatch")
    assert state.out == (0,)
    assert GAME.next_step(state) == Decide(1)
    state = play(state, "1:turn 1:pass judge")
    assert result(state).winner == 1
