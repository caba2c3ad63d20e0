"""Snatch! as a whole: registration, the conformance kit, full games replayed and checked with
every card known (as ``fairdeal verify`` does after the final reveal), what is revealed during play,
the rendered table and the rules text."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairdeal import (
    SUITS,
    Card,
    Move,
    Over,
    Policy,
    RandomPolicy,
    RemoteProtocolError,
    Suit,
    i18n,
    parse_card,
    registry,
)
from fairdeal.cli.render import table_text
from fairdeal.core.dealer import PlainDealer, Reveal
from fairdeal.core.replica import NeedReveals, Replica
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import Event, Observer, Played, play_game
from fairdeal.core.session.verify import verify_log
from fairdeal.core.table import EVERYONE
from fairdeal.plugins.snatch import PASS, SNATCH, TURN, NeverSnatch, Shrewd, SnatchGame, SnatchState
from fairdeal.plugins.snatch.state import ASIDE, PLAYED, THROWN, TRICK, active, pile
from fairdeal.plugins.snatch.trick import may_snatch, power, strongest, weakest
from fairdeal.testing import build_table, check_game, play_with_protocol, settle

GAME = SnatchGame()


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """Snatch! says its words in the language spoken, and these tests read the English: speak it
    (a test before this one in the same process may have left another language behind)."""
    i18n.use("en")
    yield
    i18n.use("en")


def cards(text: str) -> list[Card]:
    return [parse_card(c) for c in text.split()]


def run(
    players: int, seed: int, policies: Sequence[Policy] | None = None, observe: Observer | None = None
) -> Played:
    config = GAME.config(players)
    pols = list(policies) if policies is not None else [RandomPolicy() for _ in range(players)]
    return play_game(
        GAME, config, PlainDealer(players, SeededRng(seed)), pols, random.Random(seed), observe=observe
    )


# -- Registration and rules text ---------------------------------------------------------------------
def test_the_plugin_registers_the_game_and_its_bots_without_warnings() -> None:
    reg = registry.load()
    assert "snatch" in reg.games
    assert not [w for w in reg.warnings if "snatch" in w]
    assert set(reg.bots["snatch"]) == {"random", "shrewd", "never-snatch", "expert"}
    assert reg.bot("snatch").name == "shrewd"
    game = reg.game("snatch")
    assert (game.min_players, game.max_players) == (2, 10)


def test_the_rules_text_states_every_rule() -> None:
    text = registry.load().game("snatch").rules_text()
    for phrase in (
        "A Q J 10 9 8 7 2",
        "two decks",
        "aside face down",
        "its owner",
        "joint random choice",
        "first suit",
        "trump beats",
        "played first wins",
        "weakest",
        "alone on the table",
        "not a trump",
        "at once",
        "when its last card falls",
        "k-th",
        "restarts the count",
        "whole pile",
        "no victory",
        "last card must be turned",
        "turned their last card first",
        "seat order",
        "fewer than",
        "no winner",
    ):
        assert phrase in " ".join(text.split()), phrase


# -- The conformance kit -----------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 5, 10])
def test_conformance_kit_with_random_players(players: int) -> None:
    report = check_game(GAME, players=players, seeds=range(30))
    assert report.games == 30
    assert report.longest <= GAME.max_moves


@pytest.mark.parametrize("players", [2, 5, 10])
def test_conformance_kit_with_the_bots(players: int) -> None:
    bots: list[Policy] = [Shrewd() if p % 2 else NeverSnatch() for p in range(players)]
    check_game(GAME, players=players, seeds=range(6), policies=bots)


# -- Full games, replayed with every card known ------------------------------------------------------
def replay(players: int, seed: int, played: Played) -> None:
    """Re-run a finished game from its events on an all-seeing replica: every move is checked
    with every card known, every reveal is one the rules asked for, the result is the same."""
    config = GAME.config(players)
    dealer = PlainDealer(players, SeededRng(seed))
    tokens = dealer.start(GAME.deck_for(config))
    cards = {t: c for t in tokens if (c := dealer.card(t)) is not None}
    r: Replica = Replica.start(GAME, config, tokens, EVERYONE, cards)
    for ev in played.events:
        need = r.need()
        if ev.kind == "reveal":
            assert isinstance(need, NeedReveals) and need.reveals == ev.value
            r.learn(ev.value, cards)
        elif ev.kind == "move":
            assert ev.player is not None and ev.move is not None
            r.check_move(ev.player, ev.move)
            r.apply(ev.player, ev.move)
        elif ev.kind == "auto":
            r.auto()
        elif ev.kind == "chance":
            r.chance(ev.value)
        else:
            pytest.fail(f"unexpected event {ev}")
    assert r.need() == Over(played.result)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (8, 6), (10, 7)])
def test_full_games_verify_with_every_card_known(players: int, seed: int) -> None:
    bots: list[Policy] = [Shrewd(), RandomPolicy(), NeverSnatch()] * 4
    played = run(players, seed, bots[:players])
    assert played.verdict.fair
    replay(players, seed, played)


def test_a_tampered_game_does_not_verify() -> None:
    played = run(4, 11)
    replay(4, 11, played)
    events = list(played.events)
    i = next(i for i, ev in enumerate(events) if ev.kind == "move" and ev.move == TURN)
    ev = events[i]
    played.events[i] = Event("move", ev.player, SNATCH)  # a snatch before any card was turned
    with pytest.raises(RemoteProtocolError, match="illegal move"):
        replay(4, 11, played)
    assert ev.player is not None
    played.events[i] = Event("move", (ev.player + 1) % 4, TURN)  # somebody else's turn
    with pytest.raises(RemoteProtocolError, match="not your turn"):
        replay(4, 11, played)


# -- Full games over the real protocol -------------------------------------------------------------
def _over_the_protocol(players: int, seed: int) -> None:
    bots: list[Policy] = [Shrewd(), RandomPolicy(), NeverSnatch(), RandomPolicy()] * 3
    game = play_with_protocol(GAME, players, seed, policies=bots[:players])
    assert all(o.error is None for o in game.outcomes)
    report = verify_log(game.log, registry.load().game)
    assert report.verdict == "fair", report.findings
    assert report.result is not None and report.result.reason
    assert "every move replayed with every card known" in report.checked


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (5, 3)])
def test_full_games_over_the_real_protocol_verify(players: int, seed: int) -> None:
    _over_the_protocol(players, seed)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed"), [(6, 5), (10, 5)])
def test_full_games_over_the_real_protocol_verify_two_decks(players: int, seed: int) -> None:
    _over_the_protocol(players, seed)


def test_over_the_real_protocol_a_seat_that_is_out_leaves_and_the_game_goes_on() -> None:
    bots: list[Policy] = [Shrewd(), RandomPolicy(), NeverSnatch(), RandomPolicy()]
    game = play_with_protocol(GAME, 4, 12, policies=bots)  # seat 1 pays its whole pile
    report = verify_log(game.log, registry.load().game)
    assert report.verdict == "fair" and report.result is not None
    assert all(o.session.departed == {1} for o in game.outcomes)
    assert report.result.winner == 0 and "out: seat 1 (paid with their whole pile)" in report.result.standing


# -- What is shown during play -----------------------------------------------------------------------
@pytest.mark.parametrize(("players", "seed"), [(2, 21), (4, 22), (7, 23), (10, 24)])
def test_turned_cards_are_public_reveals_and_nothing_else_is_ever_shown(players: int, seed: int) -> None:
    left: list[int] = []
    turned = 0

    class Recording(PlainDealer):
        def leave(self, seat: int, shown: Sequence[int] = ()) -> dict[int, Card]:
            left.append(seat)
            assert not shown, "nobody sees a Snatch! card before it is turned"
            return super().leave(seat, shown)

    def observe(ev: Event, replicas: dict[int | None, Replica]) -> None:
        nonlocal turned
        public = replicas[None].state.table
        if ev.kind == "reveal":
            for rv in ev.value:
                assert isinstance(rv, Reveal) and rv.to is None  # every seat's share: a public reveal
                assert public.zone_of(rv.token) == TRICK
                turned += 1
        if ev.kind == "move":
            assert ev.player not in left  # a seat that is out plays no more
        for viewer, rep in replicas.items():
            if viewer == EVERYONE:
                continue
            t = rep.state.table
            for zone in [*(pile(p) for p in range(players)), ASIDE, THROWN]:
                assert all(c is None for c in t.cards(zone)), (viewer, zone)  # even the owner

    config = GAME.config(players)
    pols = [RandomPolicy() for _ in range(players)]
    played = play_game(
        GAME, config, Recording(players, SeededRng(seed)), pols, random.Random(seed), observe=observe
    )
    final: SnatchState = played.replicas[None].state
    assert turned == final.table.size(PLAYED) + final.table.size(TRICK)
    assert sorted(left) == sorted(final.out)


def test_a_seat_that_is_out_departs_and_the_game_goes_on_without_it() -> None:
    went_on = 0
    for seed in range(30):
        gone: dict[int, int] = {}  # seat -> number of moves made when it departed
        moves: list[int] = []

        def observe(
            ev: Event,
            replicas: dict[int | None, Replica],
            gone: dict[int, int] = gone,
            moves: list[int] = moves,
        ) -> None:
            if ev.kind == "move":
                assert ev.player is not None and ev.player not in gone
                moves.append(ev.player)
            for seat in GAME.departed(replicas[None].state):
                gone.setdefault(seat, len(moves))

        played = run(5, seed, observe=observe)
        assert played.result.winner not in gone
        if gone and len(moves) > min(gone.values()):
            went_on += 1
    assert went_on >= 10


# -- Properties --------------------------------------------------------------------------------------
card_st = st.builds(
    Card, st.sampled_from([1, 12, 11, 10, 9, 8, 7, 2]), st.sampled_from(SUITS), st.integers(0, 1)
)


@given(st.lists(card_st, min_size=1, max_size=10), st.sampled_from([*SUITS, None]))
def test_strongest_and_weakest_follow_trump_rank_then_playing_order(
    cards: list[Card], trump: Suit | None
) -> None:
    best, worst = strongest(cards, trump), weakest(cards, trump)
    keys = [(power(c, trump), -i) for i, c in enumerate(cards)]
    assert keys[best] == max(keys) and keys[worst] == min(keys)
    last = cards[-1]
    expected = last.suit is not trump and all(power(c, trump) >= power(last, trump) for c in cards[:-1])
    assert may_snatch(cards, trump) == expected


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 10), st.integers(0, 2**32))
def test_random_games_keep_every_card_and_end_properly(players: int, seed: int) -> None:
    deck = len(GAME.deck_for(GAME.config(players)))

    def observe(ev: Event, replicas: dict[int | None, Replica]) -> None:
        s: SnatchState = replicas[EVERYONE].state
        t = s.table
        assert sum(t.size(z) for z in t.specs) == deck
        assert len(s.order) == t.size(TRICK) and len(set(s.order)) == len(s.order)
        assert not set(s.out) - set(range(players)) and len(set(s.out)) == len(s.out)
        if ev.kind == "auto" and s.winner is None and not s.ended:
            assert all(t.size(pile(p)) > 0 for p in active(s))  # nobody active is left without cards

    played = run(players, seed, observe=observe)
    res = played.result
    assert res.winner is None or res.scores[res.winner] == 1
    assert sum(res.scores) == (res.winner is not None)


# -- The table as a player sees it -------------------------------------------------------------------
def _text(state: SnatchState, viewer: int | None = 2) -> str:
    """The table as line mode prints it for ``viewer``, seats named "You" and "Seat N"."""
    mine = state.with_table(state.table.masked(viewer))
    return table_text(GAME, mine, viewer, lambda seat: "You" if seat == viewer else f"Seat {seat}")


def test_line_mode_shows_counts_trump_first_suit_the_trick_the_price_and_who_is_out() -> None:
    zones = GAME.zones_for(GAME.config(3))
    contents = {
        pile(0): cards("9D 8D QH AS"),
        pile(1): cards("JD 7H"),
        pile(2): cards("2C 10C 9C 8C 7C"),
    }
    state = SnatchState(build_table(zones, 3, contents), opener=0)
    for seat, move in [(0, TURN), (1, TURN), (1, SNATCH)]:  # A♠ sets trump; 7♥ snatches, pays it all
        state = settle(GAME.apply(state, seat, move))
    text = _text(state)
    assert "trump ♥ hearts · first suit ♠ · snatch costs 2 cards (1 for ♠)\n" in text
    assert "\naside 0 · thrown 1 · played 0\n" in text  # in the middle: the title bar fits 80 columns
    assert "Trick: Seat 0 A♠, Seat 1 7♥ (snatched)" in text
    assert "Seat 0  Pile: 3 cards face down" in text
    assert "Seat 1  Pile: empty — out: paid with their whole pile" in text
    assert "You ◀   Pile: 5 cards face down" in text and text.endswith("Your turn: turn a card")
    assert "thrown 1" in text
    state = settle(GAME.apply(state, 2, TURN))
    assert _text(state).endswith("Your turn: may snatch")  # 7♣ is the weakest, not a trump
    public = _text(state, None)
    assert "Seat 2 ◀  Pile: 4 cards face down" in public and "You" not in public


def test_moves_in_words() -> None:
    zones = GAME.zones_for(GAME.config(2))
    contents = {
        pile(0): cards("9D AS"),
        pile(1): cards("QD JD 8D 7H"),
    }
    state = SnatchState(build_table(zones, 2, contents), opener=0)
    assert GAME.describe(state, 0, TURN) == "turn the top card of your pile (2 cards left)"
    assert GAME.narrate(state, 0, TURN, "Ann") == "Ann turned the top card of their pile"
    state = settle(GAME.apply(settle(GAME.apply(state, 0, TURN)), 1, TURN))
    assert GAME.describe(state, 1, SNATCH) == ("snatch with 7♥ (trump ♥): throw away 1 card unseen")
    assert (
        GAME.narrate(state, 1, SNATCH, "Bob")
        == "Bob snatched with 7♥: ♥ hearts is trump; threw away 1 card unseen"
    )
    assert GAME.describe(state, 1, PASS) == "do not snatch: keep ♠ spades as trump"
    assert GAME.narrate(state, 1, PASS, "Bob") == "Bob did not snatch"
    assert GAME.legal_moves(state, 1) == [SNATCH, PASS] and Move("turn") not in GAME.legal_moves(state, 1)
    state = settle(GAME.apply(state, 1, SNATCH))  # throws 8♦
    state = settle(GAME.apply(settle(GAME.advance(state)), 1, TURN))  # 7♥ took; J♦ alone, 1 card left
    assert GAME.describe(state, 1, SNATCH) == (
        "snatch with J♦ (trump ♦): pay your whole pile (1 card), out with no victory"
    )
    assert GAME.narrate(state, 1, SNATCH, "Bob") == (
        "Bob snatched with J♦: ♦ diamonds is trump; "
        "paid their whole pile (1 card) and left the game with no victory"
    )
    state = settle(GAME.apply(settle(GAME.apply(state, 1, PASS)), 0, TURN))  # 9♦, seat 0's last card
    assert GAME.legal_moves(state, 0) == [SNATCH, PASS]
    assert GAME.describe(state, 0, SNATCH) == (
        "snatch with 9♦ (trump ♦): your last card, you are out with no victory"
    )
