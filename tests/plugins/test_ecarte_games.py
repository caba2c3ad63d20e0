"""Écarté: the conformance kit, whole games that verify, a renege caught, the registry, words and table."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairdeal import Card, FaceDown, Game, Move, Policy, RandomPolicy, Result, Seat
from fairdeal.cli.render import table_text
from fairdeal.core.dealer import PlainDealer, Reveal
from fairdeal.core.replica import Replica
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import Event, play_game
from fairdeal.core.session import CHEATING, FAIR, Session, verify_log
from fairdeal.plugins.ecarte import ClassicBot, Ecarte, EcarteState, Phase
from fairdeal.plugins.ecarte.model import TALON, TRICK, TURNUP, hand, won, zones
from fairdeal.testing import check_game, play_with_protocol

from .ecarte_positions import mid_play

GAME = Ecarte()
OPTIONS = [
    {},
    {"penalty": "seed"},
    {"trump_when_void": "true"},
    {"penalty": "seed", "trump_when_void": "true", "target": "7"},
]


# -- the conformance kit -------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTIONS)
def test_conformance_kit_random_players(options: dict[str, str]) -> None:
    report = check_game(GAME, players=2, options=options, seeds=range(12))
    assert report.games == 12 and None not in report.winners


def test_conformance_kit_classic_bots() -> None:
    report = check_game(GAME, players=2, seeds=range(6), policies=[ClassicBot(), ClassicBot()])
    assert report.games == 6 and set(report.winners) <= {0, 1}


# -- whole games over the real protocol, checked by `fairdeal verify` -------------------------------------
def resolve(name: str) -> Game:
    assert name == GAME.name
    return GAME


@pytest.mark.parametrize("seed", range(4))
def test_full_games_verify(seed: int) -> None:
    options = OPTIONS[seed % len(OPTIONS)]
    players: list[Policy] = [ClassicBot(), RandomPolicy()] if seed % 2 else [RandomPolicy(), ClassicBot()]
    played = play_with_protocol(GAME, 2, seed, options, players)
    report = verify_log(played.log, resolve)
    assert report.verdict == FAIR, report.findings
    result = report.result
    assert result is not None and result == played.session.result
    target = GAME.config(2, options)["target"]
    assert result.winner is not None and result.scores[result.winner] >= target
    assert result.scores[1 - result.winner] < target


@pytest.mark.parametrize("seed", [0, 2, 3])  # seeds whose deals give the renegade its chance
def test_a_renege_unseen_at_the_table_is_named_at_the_end_and_by_verify(seed: int, renegade: Any) -> None:

    def make(game: Game, seat: int, identity: object, rng: object) -> Session:
        return Session(renegade.own_rules() if seat == 1 else game, seat, identity, rng)  # type: ignore[arg-type]

    played = play_with_protocol(GAME, 2, seed, {}, [ClassicBot(), renegade], make_session=make)
    assert renegade.cheated
    # The other seat cannot see the hand, so the game goes on; once the final reveal has opened
    # every card, the honest seat replays every move knowing them all and names the renege, as
    # verify does.
    honest = played.outcomes[0].session.verdict
    assert honest is not None and not honest.fair
    (live,) = honest.findings
    report = verify_log(played.log, resolve)
    assert report.verdict == CHEATING and report.exit_code == 1
    (finding,) = report.findings
    assert finding.seat == 1 and finding.entry is not None
    assert "illegal move" in finding.reason
    assert (live.seat, live.entry, live.reason) == (finding.seat, finding.entry, finding.reason)


# -- whole games: dealing, alternation, points ---------------------------------------------------------------
def _watch(seed: int, options: dict[str, str]) -> tuple[Result, dict[int, int], dict[int, tuple[int, int]]]:
    dealers: dict[int, int] = {}
    scores: dict[int, tuple[int, int]] = {}

    def observe(event: Event, replicas: dict[int | None, Replica]) -> None:
        s = replicas[None].state
        assert isinstance(s, EcarteState)
        if s.deal_no:
            dealers.setdefault(s.deal_no, s.dealer)
            scores[s.deal_no] = s.scores
            t = s.table
            assert sum(t.size(z.name) for z in zones()) == 32
            if s.phase in (Phase.PROPOSE, Phase.ANSWER, Phase.DISCARD):
                assert t.size(hand(0)) + t.size(hand(1)) + t.size(TALON) + t.size("discards") == 31

    config = GAME.config(2, options)
    played = play_game(
        GAME,
        config,
        PlainDealer(2, SeededRng(seed)),
        [ClassicBot(), RandomPolicy()],
        random.Random(seed),
        observe=observe,
    )
    return played.result, dealers, scores


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), options=st.sampled_from(OPTIONS))
def test_whole_games_alternate_the_deal_and_move_at_most_three_points_a_deal(
    seed: int, options: dict[str, str]
) -> None:
    result, dealers, scores = _watch(seed, options)
    deals = sorted(dealers)
    assert deals == list(range(1, len(deals) + 1))
    for a, b in itertools.pairwise(deals):
        assert dealers[b] == 1 - dealers[a]
    previous = (0, 0)
    for d in deals:
        gained = [scores[d][p] - previous[p] for p in (0, 1)]
        assert min(gained) >= 0 and sum(gained) <= 3
        previous = scores[d]
    assert result.scores == previous


# -- the registry, the rules text ----------------------------------------------------------------------------
def test_registry_lists_the_game_and_its_bots_without_warnings() -> None:
    from fairdeal import registry

    reg = registry.load()
    assert not [w for w in reg.warnings if "ecarte" in w]
    assert isinstance(reg.game("ecarte"), Ecarte)
    assert set(reg.bots["ecarte"]) == {"random", "classic", "expert"}
    assert reg.bot("ecarte").name == "classic"


def test_rules_text_states_the_rules_and_options() -> None:
    text = GAME.rules_text()
    for phrase in (
        "K Q J A 10 9 8 7",
        "21 cards",
        "dealer scores 1 point",
        "proposes",
        "talon",
        "King of trumps",
        "follow suit",
        "the vole",
        "target=N",
        "trump_when_void=true",
        "penalty=classic|seed",
        "joint shuffle of all 32",
        "fairdeal verify",
    ):
        assert phrase in text, phrase
    assert {o.name for o in GAME.options} == {"target", "penalty", "trump_when_void"}


# -- words and the table ---------------------------------------------------------------------------------
def _text(line: tuple[object, ...], viewer: int = 0) -> str:
    out = []
    for seg in line:
        if isinstance(seg, Seat):
            out.append("You" if seg.seat == viewer else f"Seat {seg.seat}")
        elif isinstance(seg, Card):
            out.append(seg.text(ascii=True))
        elif isinstance(seg, FaceDown):
            out.append(f"[{seg.count} down]")
        else:
            out.append(str(seg))
    return " ".join(out)


def test_line_mode_shows_what_a_player_sees() -> None:
    s = mid_play()
    seats = {0: "You", 1: "Bob"}
    mine = table_text(GAME, s.with_table(s.table.masked(0)), 0, seats.get, ascii=True)
    for piece in (
        "deal 3 | first to 7",
        "Points - You: 2 | Bob: 4",
        "Bob    Hand: 4 cards face down - tricks 1",
        "Turn-up: 10C, trump C clubs",
        "Talon: 11 cards face down",
        "Trick: Bob JS",
        "Last trick: KS QS, won by Bob",
        "You <  Hand: 10D 9D 8D QH - dealer, tricks 0",
        "Your turn: play to the trick",
    ):
        assert piece in mine, (piece, mine)
    assert "KC" not in mine and "9S" not in mine
    theirs = table_text(GAME, s.with_table(s.table.masked(1)), 1, {0: "Ann", 1: "You"}.get, ascii=True)
    assert "KC" in theirs and "QH" not in theirs and "Ann <  Hand: 4 cards face down - dealer" in theirs


def test_describe_and_narrate() -> None:
    s = mid_play()
    t = s.table
    q = next(x for x, c in t.known(hand(0)) if c.text(ascii=True) == "QH")
    assert "Q" in GAME.describe(s, 0, Move("play", (q,)))
    discard = EcarteState(t, phase=Phase.DISCARD, dealer=0, actor=0, discarded=0)
    assert GAME.describe(discard, 0, Move("discard", (q,))).startswith("discard Q")
    told = GAME.narrate(discard.with_table(t.masked(1)), 0, Move("discard", (q,)), "Ann")
    assert told == "Ann discarded a card"
    mine = GAME.narrate(discard.with_table(t.masked(0)), 0, Move("discard", (q,)), "Ann")
    assert mine == "You discarded Q♥"  # told to the mover in the second person, with its own card
    assert GAME.narrate(s.with_table(t.masked(1)), 0, Move("play", (q,)), "Ann") == "Ann played a card"
    t.flip(q)  # once the card is shown, the narration names it
    t.learn(Reveal(q, None), t.card(q))
    told = GAME.narrate(s, 0, Move("play", (q,)), "Ann")  # the second card: who takes the trick
    assert told == "Ann played Q♥ — seat 1 takes the trick"
    assert GAME.describe(s, 1, Move("propose")) == "propose an exchange of cards"


def test_the_story_says_who_takes_each_trick_and_who_scores_what_and_why() -> None:
    s = mid_play()
    t = s.table
    q = next(x for x, c in t.known(hand(0)) if c.text(ascii=True) == "QH")
    t.flip(q)
    t.learn(Reveal(q, None), t.card(q))
    last = s.but(tricks=(2, 2))  # the fifth trick: the deal is scored with the card that ends it
    mine = GAME.narrate(last.with_table(t.masked(0)), 0, Move("play", (q,)), "Ann")
    assert mine == ("You played Q♥ — seat 1 takes the trick; seat 1 scores 1 point for 3 tricks")
    theirs = GAME.narrate(last.with_table(t.masked(1)), 0, Move("play", (q,)), "Ann")
    assert theirs.endswith("you take the trick; you score 1 point for 3 tricks")
    declined = last.but(declined=0)  # Ann stood without an exchange and lost: the penalty
    assert GAME.narrate(declined, 0, Move("play", (q,)), "Ann").endswith(
        "seat 1 scores 2 points for 3 tricks against a player who declined to exchange"
    )
    t.move(t.tokens(TRICK)[0], won(1))  # an empty trick: a lead says nothing more
    assert GAME.narrate(s, 0, Move("play", (q,)), "Ann") == "Ann played Q♥"


def test_a_turned_up_king_says_who_scores_it_on_the_table() -> None:
    s = mid_play()
    t = s.table
    king = next(x for x, c in t.known(hand(1)) if c.text(ascii=True) == "KC")
    turnup = t.tokens(TURNUP)[0]
    t.move(turnup, hand(1))
    t.move(king, TURNUP)
    text = table_text(GAME, s, 0, {0: "You", 1: "Bob"}.get, ascii=True)
    assert "Turn-up: KC, trump C clubs: 1 point to you" in text  # seat 0 deals here
