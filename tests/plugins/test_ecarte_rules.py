"""Écarté: one test (at least) for each rule of RULES.md, on hand-built scenarios."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairdeal import Auto, Card, Chance, Decide, Move, Over, Suit, ecarte_32, parse_card
from fairdeal.core.dealer import Reveal
from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.replica import Replica
from fairdeal.plugins.ecarte import Ecarte, EcarteState, Phase, Rules, beats, deal_points, may_play
from fairdeal.plugins.ecarte.model import DISCARDS, TALON, TRICK, TURNUP, hand, won, zones
from fairdeal.testing import build_table, settle

GAME = Ecarte()
C = parse_card


def cards(text: str) -> list[Card]:
    return [C(x) for x in text.split()]


def scenario(
    hand0: str,
    hand1: str,
    *,
    turnup: str = "10C",
    trick: str = "",
    won0: str = "",
    won1: str = "",
    talon: int | None = None,
    rules: Rules | None = None,
    **fields: Any,
) -> EcarteState:
    """An all-seeing state: seat 0 deals (so seat 1 is the non-dealer), play phase by default."""
    placed = {
        hand(0): cards(hand0),
        hand(1): cards(hand1),
        TURNUP: cards(turnup),
        TRICK: cards(trick),
        won(0): cards(won0),
        won(1): cards(won1),
    }
    used = {c for cs in placed.values() for c in cs}
    rest = [c for c in ecarte_32() if c not in used]
    contents = {TALON: rest if talon is None else rest[:talon], **placed}
    table = build_table(zones(), 2, contents)
    base: dict[str, object] = {
        "phase": Phase.PLAY,
        "dealer": 0,
        "deal_no": 1,
        "trump": C(turnup).suit,
        "actor": 1,
    }
    base.update(fields)
    return EcarteState(table, rules=rules or Rules(), **base)  # type: ignore[arg-type]


def tok(state: EcarteState, text: str) -> int:
    """The token of a card."""
    want = C(text)
    return next(t for t, c in state.table.known_cards().items() if c == want)


def play(state: EcarteState, seat: int, text: str) -> EcarteState:
    move = Move("play", (tok(state, text),))
    assert GAME.allows(state, seat, move), f"{text} should be legal for seat {seat}"
    return settle(GAME.apply(state, seat, move))


def do(state: EcarteState, seat: int, action: str, *args: int) -> EcarteState:
    move = Move(action, args)
    assert GAME.allows(state, seat, move), f"{move} should be legal for seat {seat}"
    return settle(GAME.apply(state, seat, move))


def playable(state: EcarteState, seat: int) -> set[str]:
    t = state.table
    out = set()
    for m in GAME.legal_moves(state, seat):
        if m.action == "play":
            c = t.card(int(m.args[0]))
            assert c is not None
            out.add(c.text(ascii=True))
    return out


def view(state: EcarteState, viewer: int | None) -> EcarteState:
    return state.with_table(state.table.masked(viewer))


# -- cards and trick order --------------------------------------------------------------------------------
def test_deck_is_32_cards_a_k_q_j_10_9_8_7() -> None:
    deck = GAME.deck_for(GAME.config(2))
    assert len(deck) == len(set(deck)) == 32
    assert {c.rank for c in deck} == {1, 7, 8, 9, 10, 11, 12, 13}
    assert GAME.min_players == GAME.max_players == 2


@pytest.mark.parametrize(
    ("second", "led", "wins"),
    [
        ("KH", "QH", True),  # K over Q
        ("QH", "JH", True),
        ("JH", "AH", True),  # the Ace ranks below the Jack...
        ("AH", "10H", True),  # ...and above the 10
        ("AH", "JH", False),
        ("10H", "9H", True),
        ("8H", "9H", False),
        ("7H", "8H", False),
        ("KS", "7H", False),  # a higher card of another plain suit does not win
        ("7C", "KH", True),  # clubs are trumps: the lowest trump beats the King led
        ("KH", "7C", False),  # a plain card never beats a trump led
        ("8C", "7C", True),  # trump led, higher trump
        ("7C", "8C", False),
    ],
)
def test_trick_winner_with_and_without_trumps(second: str, led: str, wins: bool) -> None:
    assert beats(C(second), C(led), Suit.CLUBS) is wins


def test_trick_order_k_q_j_a_10_9_8_7_without_trumps() -> None:
    order = cards("KH QH JH AH 10H 9H 8H 7H")
    for i, hi in enumerate(order):
        for lo in order[i + 1 :]:
            assert beats(hi, lo, None) and not beats(lo, hi, None)


def test_a_trick_goes_to_its_winner_who_leads_the_next() -> None:
    s = scenario("QS 8D 9D 10D JD", "KS 7D AD KD QD")
    s = play(s, 1, "KS")  # the non-dealer leads
    assert GAME.next_step(s) == Decide(0)
    s = play(s, 0, "QS")  # follows suit, cannot win
    assert s.tricks == (0, 1) and s.actor == 1 and s.last_winner == 1
    assert s.table.size(won(1)) == 2 and s.table.size(TRICK) == 0
    s = play(s, 1, "7D")
    s = play(s, 0, "8D")  # must win: 8 beats 7
    assert s.tricks == (1, 1) and GAME.next_step(s) == Decide(0)


def test_trumping_wins_the_trick() -> None:
    s = scenario("7C 8D 9D 10D JD", "KS 7D AD KD QD")
    s = play(s, 1, "KS")
    s = play(s, 0, "7C")  # void in spades: trumps with the 7 of clubs
    assert s.tricks == (1, 0) and s.actor == 0


# -- the deal ------------------------------------------------------------------------------------------------
def _fresh(target: int = 5) -> EcarteState:
    table = build_table(zones(), 2, {TALON: list(ecarte_32())})
    return GAME.setup(GAME.config(2, {"target": target}), table)


def test_first_dealer_is_a_joint_random_choice() -> None:
    s = _fresh()
    assert GAME.next_step(s) == Chance(2, "first dealer")
    for v in (0, 1):
        after = GAME.on_chance(s, v)
        assert after.dealer == v and after.phase is Phase.DEAL and GAME.next_step(after) == Auto()
    assert s.dealer == -1  # on_chance left its input alone


def test_the_deal_gives_five_private_cards_each_turns_one_up_and_leaves_21() -> None:
    s = settle(GAME.advance(GAME.on_chance(_fresh(), 1)))
    t = s.table
    assert t.size(hand(0)) == t.size(hand(1)) == 5 and t.size(TURNUP) == 1 and t.size(TALON) == 21
    for p in (0, 1):
        assert all(t.knows(p, x) and not t.is_public(x) and not t.knows(1 - p, x) for x in t.tokens(hand(p)))
    assert t.is_public(t.tokens(TURNUP)[0])
    assert not any(t.knows(p, x) for p in (0, 1) for x in t.tokens(TALON))
    s = GAME.advance(s)  # the turn-up is known: it names trumps
    turnup = t.top_card(TURNUP)
    assert turnup is not None and s.trump is turnup.suit
    assert GAME.next_step(s) == Decide(0)  # seat 1 dealt: seat 0 proposes or stands


def test_a_turned_up_king_scores_one_point_for_the_dealer_at_once() -> None:
    s = scenario("7H 8H 9H 10H JH", "7S 8S 9S 10S JS", turnup="KD", phase=Phase.TURNUP, trump=None)
    after = GAME.advance(s)
    assert after.scores == (1, 0) and after.phase is Phase.PROPOSE and after.trump is Suit.DIAMONDS
    s = scenario("7H 8H 9H 10H JH", "7S 8S 9S 10S JS", turnup="QD", phase=Phase.TURNUP, trump=None)
    assert GAME.advance(s).scores == (0, 0)


def test_a_turned_up_king_that_reaches_the_target_ends_the_game_at_once() -> None:
    s = scenario(
        "7H 8H 9H 10H JH", "7S 8S 9S 10S JS", turnup="KD", phase=Phase.TURNUP, trump=None, scores=(4, 3)
    )
    step = GAME.next_step(GAME.advance(s))
    assert isinstance(step, Over) and step.result.winner == 0 and step.result.scores == (5, 3)
    assert "turned-up King" in step.result.reason


def test_a_new_deal_is_a_joint_shuffle_of_all_32_cards_and_the_deal_alternates() -> None:
    s = scenario("", "", won0="7H 8H 9H 10H JH 7S", won1="8S 9S 10S JS", phase=Phase.NEXT)
    after = GAME.advance(s)
    assert after.dealer == 1 and after.deal_no == 2 and after.phase is Phase.DEAL
    (shuffle,) = after.table.pending_shuffles()
    assert shuffle.into == TALON and len(shuffle.tokens) == 32
    dealt = GAME.advance(settle(after))
    assert dealt.table.size(hand(0)) == 5  # seat 0 is the non-dealer now


# -- proposals and exchanges ---------------------------------------------------------------------------------
def _propose_phase(talon: int | None = None, **fields: Any) -> EcarteState:
    return scenario(
        "7H 8H 9H 10H JH", "7S 8S 9S 10S JS", talon=talon, phase=Phase.PROPOSE, actor=-1, **fields
    )


def test_the_non_dealer_stands_or_proposes_and_the_dealer_answers() -> None:
    s = _propose_phase()
    assert GAME.next_step(s) == Decide(1)
    assert set(GAME.legal_moves(s, 1)) == {Move("stand"), Move("propose")}
    assert not GAME.allows(s, 0, Move("propose"))  # the dealer does not propose
    s = do(s, 1, "propose")
    assert GAME.next_step(s) == Decide(0)
    assert set(GAME.legal_moves(s, 0)) == {Move("accept"), Move("refuse")}


def test_standing_starts_play_with_the_non_dealer_to_lead() -> None:
    s = do(_propose_phase(), 1, "stand")
    assert s.phase is Phase.PLAY and GAME.next_step(s) == Decide(1) and s.declined == 1


def test_refusing_the_first_proposal_starts_play_and_marks_the_dealer() -> None:
    s = do(do(_propose_phase(), 1, "propose"), 0, "refuse")
    assert s.phase is Phase.PLAY and GAME.next_step(s) == Decide(1) and s.declined == 0


def test_accepting_lets_the_non_dealer_discard_1_to_5_then_the_dealer_0_to_5() -> None:
    s = do(do(_propose_phase(), 1, "propose"), 0, "accept")
    assert GAME.next_step(s) == Decide(1)
    assert Move("done") not in GAME.legal_moves(s, 1)  # at least one card
    assert not GAME.allows(s, 1, Move("done"))
    gone = tok(s, "7S")
    s = do(s, 1, "discard", gone)
    assert s.table.zone_of(gone) == DISCARDS and s.table.size(hand(1)) == 4
    s = do(s, 1, "discard", tok(s, "8S"))
    s = do(s, 1, "done")  # draws two from the talon
    assert s.table.size(hand(1)) == 5 and s.table.size(TALON) == 19 and s.table.size(DISCARDS) == 2
    assert GAME.next_step(s) == Decide(0) and Move("done") in GAME.legal_moves(
        s, 0
    )  # the dealer may keep all
    s = do(s, 0, "done")
    assert s.phase is Phase.PROPOSE and s.exchanges == 1 and s.table.size(TALON) == 19
    assert GAME.next_step(s) == Decide(1)  # the non-dealer may propose again


def test_five_discards_draw_at_once() -> None:
    s = do(do(_propose_phase(), 1, "propose"), 0, "accept")
    for text in ["7S", "8S", "9S", "10S"]:
        s = do(s, 1, "discard", tok(s, text))
    assert s.table.size(hand(1)) == 1
    s = do(s, 1, "discard", tok(s, "JS"))
    assert s.table.size(hand(1)) == 5 and GAME.next_step(s) == Decide(0) and s.discarded == 0


def test_discards_are_unseen_and_draws_are_private() -> None:
    s = do(do(_propose_phase(), 1, "propose"), 0, "accept")
    gone = tok(s, "9S")
    after = GAME.apply(s, 1, Move("discard", (gone,)))
    assert after.table.requirements() == []  # nobody is shown the discard
    assert view(after, 0).table.card(gone) is None
    drawn = GAME.apply(settle(after), 1, Move("done"))
    new = [x for x in drawn.table.tokens(hand(1)) if x not in s.table.tokens(hand(1))]
    assert len(new) == 1 and drawn.table.requirements() == [Reveal(new[0], 1)]  # to the drawer only


def test_repeated_exchanges_are_limited_by_the_talon() -> None:
    # 7 cards left: the non-dealer takes 5, the dealer may discard only the 2 left.
    s = do(do(_propose_phase(talon=7), 1, "propose"), 0, "accept")
    for text in ["7S", "8S", "9S", "10S", "JS"]:
        s = do(s, 1, "discard", tok(s, text))
    assert s.table.size(TALON) == 2 and GAME.next_step(s) == Decide(0)
    first = tok(s, "7H")
    s = do(s, 0, "discard", first)
    assert GAME.allows(s, 0, Move("discard", (tok(s, "8H"),)))
    s = do(s, 0, "discard", tok(s, "8H"))  # the most it may discard: it draws at once
    assert s.table.size(TALON) == 0 and s.table.size(hand(0)) == 5
    # With the talon empty no proposal can be made: play begins, the non-dealer to lead.
    assert s.phase is Phase.PLAY and GAME.next_step(s) == Decide(1)


def test_nobody_may_discard_more_than_the_talon_holds() -> None:
    s = do(do(_propose_phase(talon=3), 1, "propose"), 0, "accept")
    s = do(s, 1, "discard", tok(s, "7S"))
    s = do(s, 1, "discard", tok(s, "8S"))
    # A third discard empties the talon by drawing three: allowed, and the last.
    s3 = GAME.apply(s, 1, Move("discard", (tok(s, "9S"),)))
    assert s3.table.size(TALON) == 0 and s3.phase is Phase.PLAY
    # In a state that (wrongly) wanted a fourth, it is refused.
    over = replace(s, discarded=3)
    assert not GAME.allows(over, 1, Move("discard", (tok(s, "9S"),)))
    assert all(m.action != "discard" for m in GAME.legal_moves(over, 1))


def test_no_proposal_with_an_empty_talon() -> None:
    s = _propose_phase(talon=0)
    assert GAME.legal_moves(s, 1) == [Move("stand")]
    assert not GAME.allows(s, 1, Move("propose"))


def test_after_an_exchange_standing_or_refusing_carries_no_penalty() -> None:
    s = do(do(_propose_phase(), 1, "propose"), 0, "accept")
    s = do(do(s, 1, "discard", tok(s, "7S")), 1, "done")
    s = do(s, 0, "done")
    assert do(s, 1, "stand").declined is None
    assert do(do(s, 1, "propose"), 0, "refuse").declined is None


# -- the King of trumps --------------------------------------------------------------------------------------
def test_the_king_of_trumps_may_be_announced_before_the_first_card() -> None:
    s = scenario("KC 8D 9D 10D JD", "KS 7D AD KD QD")  # clubs are trumps; seat 0 holds the King
    s = play(s, 1, "KS")
    king = tok(s, "KC")
    assert Move("announce", (king,)) in GAME.legal_moves(s, 0)
    after = GAME.apply(s, 0, Move("announce", (king,)))
    assert after.table.requirements() == [Reveal(king, None)]  # shown to everyone: verifiable live
    after = settle(after)
    assert after.scores == (1, 0) and after.announced == 0 and after.table.zone_of(king) == hand(0)
    assert GAME.next_step(after) == Decide(0)  # it still plays its card
    assert all(m.action != "announce" for m in GAME.legal_moves(after, 0))
    assert playable(after, 0) == {"KC", "8D", "9D", "10D", "JD"}  # void in spades: any card


def test_the_king_of_trumps_may_be_announced_when_played_as_the_first_card() -> None:
    s = scenario("7H 8D 9D 10D JD", "KC 7D AD KD QD")
    s = do(s, 1, "announce", tok(s, "KC"))
    s = play(s, 1, "KC")
    assert s.scores == (0, 1) and s.table.zone_of(tok(s, "KC")) == TRICK


def test_no_announcement_after_the_first_card() -> None:
    s = scenario("7H 8D 9D 10D JD", "7C KC AD KD QD")
    s = play(s, 1, "AD")
    s = play(s, 0, "JD")
    assert s.actor == 0
    s = play(s, 0, "7H")
    s = play(s, 1, "7C")  # seat 1 trumps, leads again: it has played a card already
    assert not GAME.allows(s, 1, Move("announce", (tok(s, "KC"),)))
    assert all(m.action != "announce" for m in GAME.legal_moves(s, 1))


def test_announcing_is_the_players_choice() -> None:
    s = scenario("7H 8D 9D 10D JD", "KC 7D AD KD QD")
    moves = GAME.legal_moves(s, 1)
    assert Move("announce", (tok(s, "KC"),)) in moves and Move("play", (tok(s, "KC"),)) in moves
    s = play(s, 1, "KC")  # plays it without announcing: no point, no second chance
    assert s.scores == (0, 0)
    assert not any(m.action == "announce" for m in GAME.legal_moves(s, 0))


def test_only_the_king_of_trumps_can_be_announced() -> None:
    s = scenario("7H 8D 9D 10D JD", "KS QC AD KD QD")
    for text in ("KS", "QC", "KD"):
        assert not GAME.allows(s, 1, Move("announce", (tok(s, text),)))
    assert not any(m.action == "announce" for m in GAME.legal_moves(s, 1))


def test_a_false_announcement_is_refused_live_by_the_opponent() -> None:
    s = scenario("7H 8D 9D 10D JD", "KS QC AD KD QD")
    queen = tok(s, "QC")
    opponent = view(s, 0)
    opponent.table.learn(Reveal(queen, None), C("QC"))  # the core shows it along with the move
    assert not GAME.allows(opponent, 1, Move("announce", (queen,)))


def test_an_announced_king_that_reaches_the_target_ends_the_game_at_once() -> None:
    s = scenario("7H 8D 9D 10D JD", "KC 7D AD KD QD", scores=(2, 4))
    step = GAME.next_step(do(s, 1, "announce", tok(s, "KC")))
    assert isinstance(step, Over) and step.result.winner == 1 and step.result.scores == (2, 5)


# -- following suit ----------------------------------------------------------------------------------------
def test_the_leader_may_lead_any_card() -> None:
    s = scenario("7H 8D 9D 10D JD", "KS 7C AD 8H QD")
    assert playable(s, 1) == {"KS", "7C", "AD", "8H", "QD"}


def test_the_second_player_must_follow_suit_and_win_if_able() -> None:
    s = scenario("JH 8D 9D 10D JD", "QH 8H KS 7C 9S")
    s = play(s, 1, "9S")
    assert playable(s, 0) == {"8D", "9D", "10D", "JD", "JH"}  # void in spades: anything
    s = scenario("JH 8D 9D 10D 7D", "QH 8H KS 7C 9S", actor=0)
    s = play(s, 0, "JH")
    assert playable(s, 1) == {"QH"}  # must follow, and win with the Queen
    assert not GAME.allows(s, 1, Move("play", (tok(s, "8H"),)))
    assert not GAME.allows(s, 1, Move("play", (tok(s, "7C"),)))  # no trumping while holding hearts


def test_following_without_a_higher_card_any_card_of_the_suit() -> None:
    s = scenario("KH 8D 9D 10D 7D", "QH 8H KS 7C 9S", actor=0)
    s = play(s, 0, "KH")
    assert playable(s, 1) == {"QH", "8H"}


def test_trump_led_must_be_followed_and_beaten_if_able() -> None:
    s = scenario("9C 8D 9D 10D 7D", "QC 8C KS 7H 9S", actor=0)
    s = play(s, 0, "9C")
    assert playable(s, 1) == {"QC"}


@pytest.mark.parametrize("trump_when_void", [False, True])
def test_void_in_the_suit_led(trump_when_void: bool) -> None:
    rules = Rules(trump_when_void=trump_when_void)
    s = scenario("JH 8D 9D 10D 7D", "KS 7C 9S AD QD", actor=0, rules=rules)
    s = play(s, 0, "JH")
    expected = {"7C"} if trump_when_void else {"KS", "7C", "9S", "AD", "QD"}
    assert playable(s, 1) == expected
    assert GAME.allows(s, 1, Move("play", (tok(s, "KS"),))) is not trump_when_void


def test_trump_when_void_without_a_trump_allows_any_card() -> None:
    s = scenario("JH 8D 9D 10D 7D", "KS 8S 9S AD QD", actor=0, rules=Rules(trump_when_void=True))
    s = play(s, 0, "JH")
    assert playable(s, 1) == {"KS", "8S", "9S", "AD", "QD"}


def test_a_renege_passes_live_and_is_caught_by_the_all_seeing_view() -> None:
    """Seat 1 holds a heart but throws a spade on a heart lead."""
    s = scenario("JH 8D 9D 10D 7D", "QH KS 7C 9S AD", actor=0)
    s = play(s, 0, "JH")
    spade = tok(s, "KS")
    move = Move("play", (spade,))
    opponent, public = view(s, 0), view(s, None)
    for v in (opponent, public):  # the core has revealed the card played
        v.table.learn(Reveal(spade, None), C("KS"))
        assert GAME.allows(v, 1, move)  # cannot see seat 1's heart: accepted live
    assert not GAME.allows(s, 1, move)  # the all-seeing replay (after the audit) refuses it
    assert not GAME.allows(view(s, 1), 1, move)  # and so does the mover's own view
    # The all-seeing replica of `fairdeal verify` names the reneging seat.
    config = GAME.config(2)
    Replica(GAME, config, opponent, 0).check_move(1, move)
    with pytest.raises(RemoteProtocolError) as err:
        Replica(GAME, config, s, -1).check_move(1, move)
    assert err.value.seat == 1


def test_unknown_cards_never_forbid_a_move() -> None:
    s = scenario("JH 8D 9D 10D 7D", "QH KS 7C 9S AD", actor=0)
    s = play(s, 0, "JH")
    opponent = view(s, 0)
    spade = tok(s, "9S")
    opponent.table.learn(Reveal(spade, None), C("9S"))  # the core shows it along with the move
    assert opponent.table.card(tok(s, "QH")) is None
    assert GAME.allows(opponent, 1, Move("play", (spade,)))  # the Q♥ it does not see cannot forbid it
    assert not GAME.allows(s, 1, Move("play", (spade,)))  # knowing every card (verify): a renege


# -- scoring -------------------------------------------------------------------------------------------------
def _last_trick(tricks: tuple[int, int], seat1_wins: bool, **fields: Any) -> EcarteState:
    """One card each left, seat 1 (non-dealer) to lead; the deal ends with this trick."""
    mine, theirs = ("7H", "KH") if seat1_wins else ("7C", "8S")  # clubs are trumps
    s = scenario(mine, theirs, tricks=tricks, **fields)
    s = play(s, 1, theirs)
    return play(s, 0, mine)


@pytest.mark.parametrize(
    ("before", "seat1_wins", "scores"),
    [
        ((2, 2), True, (0, 1)),  # 3 tricks: 1 point
        ((1, 3), True, (0, 1)),  # 4 tricks: 1 point
        ((0, 4), True, (0, 2)),  # the vole: 2 points
        ((2, 2), False, (1, 0)),  # the dealer wins 3
        ((3, 1), False, (1, 0)),  # the dealer wins 4
        ((4, 0), False, (2, 0)),  # the dealer's vole
    ],
)
def test_scoring_after_an_exchange(
    before: tuple[int, int], seat1_wins: bool, scores: tuple[int, int]
) -> None:
    s = _last_trick(before, seat1_wins, exchanges=1)
    assert s.scores == scores and s.phase is Phase.NEXT and GAME.next_step(s) == Auto()


@pytest.mark.parametrize(
    ("declined", "before", "seat1_wins", "scores"),
    [
        # The non-dealer (seat 1) stood at once.
        (1, (2, 2), False, (2, 0)),  # the dealer wins 3: 2 points
        (1, (4, 0), False, (2, 0)),  # the dealer's vole: still 2, no extra
        (1, (2, 2), True, (0, 1)),  # the non-dealer wins 3: 1 point as usual
        (1, (0, 4), True, (0, 2)),  # ...and its vole 2
        # The dealer (seat 0) refused the first proposal.
        (0, (2, 2), True, (0, 2)),  # the non-dealer wins 3: 2 points
        (0, (0, 4), True, (0, 2)),  # its vole: 2, no extra
        (0, (2, 2), False, (1, 0)),  # the dealer wins 3: 1 point
        (0, (4, 0), False, (2, 0)),  # the dealer's vole: 2
    ],
)
def test_penalty_classic(
    declined: int, before: tuple[int, int], seat1_wins: bool, scores: tuple[int, int]
) -> None:
    s = _last_trick(before, seat1_wins, declined=declined, rules=Rules(penalty="classic"))
    assert s.scores == scores


@pytest.mark.parametrize(
    ("declined", "before", "seat1_wins", "scores"),
    [
        (1, (2, 2), True, (0, 2)),  # the non-dealer stood and wins 3: 2 points
        (1, (0, 4), True, (0, 2)),  # its vole: 2, no extra
        (0, (1, 3), True, (0, 2)),  # the dealer refused, the non-dealer wins 4: 2 points
        (1, (2, 2), False, (1, 0)),  # the dealer wins 3: 1 point, no penalty
        (0, (2, 2), False, (1, 0)),
        (1, (4, 0), False, (2, 0)),  # the dealer's vole: 2
        (None, (2, 2), True, (0, 1)),  # after an exchange: as usual
    ],
)
def test_penalty_seed(
    declined: int | None, before: tuple[int, int], seat1_wins: bool, scores: tuple[int, int]
) -> None:
    s = _last_trick(before, seat1_wins, declined=declined, rules=Rules(penalty="seed"))
    assert s.scores == scores


@given(
    won=st.integers(0, 5),
    elder=st.integers(0, 1),
    declined=st.sampled_from([None, 0, 1]),
    penalty=st.sampled_from(["classic", "seed"]),
)
def test_deal_points_properties(won: int, elder: int, declined: int | None, penalty: str) -> None:
    tricks = (won, 5 - won)
    seat, points, why = deal_points(tricks, elder, declined, penalty)
    assert tricks[seat] >= 3 and points in (1, 2) and why
    if declined is None:
        assert points == (2 if tricks[seat] == 5 else 1)


def test_points_at_the_end_of_a_deal_can_end_the_game() -> None:
    s = _last_trick((2, 2), True, exchanges=1, scores=(3, 4))
    step = GAME.next_step(s)
    assert isinstance(step, Over) and step.result.winner == 1 and step.result.scores == (3, 5)
    assert "3 tricks" in step.result.reason and step.result.standing == "1 deal played"


def test_the_target_option() -> None:
    s = _last_trick((2, 2), True, exchanges=1, scores=(3, 4), rules=Rules(target=7))
    assert s.scores == (3, 5) and GAME.next_step(s) == Auto()
    assert GAME.config(2, {"target": "7"})["target"] == 7
    assert GAME.config(2)["target"] == 5 and GAME.config(2)["penalty"] == "classic"
    assert GAME.config(2)["trump_when_void"] is False


# -- hypothesis: the follow rules ----------------------------------------------------------------------------
DECK = list(ecarte_32())


def _brute(card: Card, rest: Sequence[Card], led: Card, trump: Suit, trump_when_void: bool) -> bool:
    """The follow rules written out the long way, for comparison."""
    hand_ = [card, *rest]
    follow = [c for c in hand_ if c.suit == led.suit]
    if follow:
        higher = [c for c in follow if beats(c, led, trump)]
        return card in (higher or follow)
    trumps = [c for c in hand_ if c.suit == trump]
    if trump_when_void and trumps:
        return card in trumps
    return True


@given(
    picks=st.lists(st.sampled_from(DECK), min_size=6, max_size=6, unique=True),
    trump=st.sampled_from(list(Suit)),
    trump_when_void=st.booleans(),
    hidden=st.sets(st.integers(0, 4)),
)
def test_may_play_matches_the_rules_and_unknown_cards_only_widen_it(
    picks: list[Card], trump: Suit, trump_when_void: bool, hidden: set[int]
) -> None:
    led, *hand_ = picks
    legal = [
        c for i, c in enumerate(hand_) if may_play(c, hand_[:i] + hand_[i + 1 :], led, trump, trump_when_void)
    ]
    assert legal, "some card is always playable"
    for i, c in enumerate(hand_):
        rest = hand_[:i] + hand_[i + 1 :]
        assert may_play(c, rest, led, trump, trump_when_void) == _brute(c, rest, led, trump, trump_when_void)
        seen: Iterable[Card] = [x for j, x in enumerate(hand_) if j != i and j not in hidden]
        if c in legal:
            assert may_play(c, seen, led, trump, trump_when_void)  # knowing less never forbids more


def test_the_kings_announcement_is_a_button_whatever_card_is_picked() -> None:
    from fairdeal.testing import random_position

    game = Ecarte()
    for seed, decisions in ((seed, d) for seed in range(60) for d in range(2, 14)):
        view, _ = random_position(game, 2, seed, decisions)
        step = game.next_step(view)
        if not isinstance(step, Decide):
            continue
        announce = [m for m in game.legal_moves(view, step.player) if m.action == "announce"]
        if announce:
            parts = game.move_parts(view, step.player, announce[0])
            assert parts.card is None and parts.target is None and parts.verb == "announce"
            return
    raise AssertionError("no position with the King's announcement on offer")
