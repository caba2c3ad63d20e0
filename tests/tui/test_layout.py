"""The table drawn into a rectangle: it always fits, and a click finds what is under it."""

from __future__ import annotations

import re
from functools import cache
from importlib import metadata

from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal import registry
from fairdeal.cli.tui.layout import Marks, draw_table, screen_order
from fairdeal.cli.tui.picking import Picker
from fairdeal.core.rules import GameState
from fairdeal.core.tableview import TableView

from .positions import game_named, positions

GAMES = [("spite-malice", 2, {"target": 1}), ("ecarte", 2, {}), ("snatch", 2, {}), ("snatch", 10, {})]


@cache
def _positions(index: int) -> tuple[GameState, ...]:
    name, players, options = GAMES[index]
    return tuple(positions(game_named(name), players, seed=11 + index, options=options, limit=150))


def _names(seat: int) -> str:
    return "You" if seat == 0 else f"Somebody with a long name {seat} (shrewd)"


@settings(max_examples=150, deadline=None)
@given(
    game=st.integers(0, len(GAMES) - 1),
    pick=st.integers(0, 10_000),
    width=st.integers(1, 200),
    height=st.integers(0, 70),
    select=st.booleans(),
    ascii=st.booleans(),
)
def test_no_state_draws_wider_or_taller_than_its_screen(
    game: int, pick: int, width: int, height: int, select: bool, ascii: bool
) -> None:
    states = _positions(game)
    state = states[pick % len(states)]
    g = game_named(GAMES[game][0])
    view = g.table_view(state, 0)
    tokens = screen_order(view, 0)
    chosen = tokens[pick % len(tokens)] if tokens and select else None
    lit = {z: str(i) for i, z in enumerate(view.targets())} if select else {}
    marks = Marks(chosen, frozenset(tokens), lit, frozenset(tokens[:3]), ascii)
    drawn = draw_table(view, 0, _names, width, height, marks)
    assert len(drawn.lines) <= height
    for line in drawn.lines:
        assert line.cell_len <= width, (width, line.plain)
    for hit in drawn.hits:
        assert 0 <= hit.y < max(height, 1) and 0 <= hit.x0 < hit.x1 <= width


def test_at_80_by_24_every_game_shows_the_middle_and_your_own_cards() -> None:
    """Every position of every game at the table area of an 80×24 screen: the middle and your hand show."""
    for index, (name, _, _) in enumerate(GAMES):
        g = game_named(name)
        for state in _positions(index)[::10]:
            view = g.table_view(state, 0)
            drawn = draw_table(view, 0, _names, 50, 19)
            text = "\n".join(line.plain for line in drawn.lines)
            mine = [r for r in view.regions if r.owner == 0]
            assert "You" in text, text
            for region in mine:
                for pile in region.piles:
                    assert all(card.text() in text for card in pile.cards if card is not None), (
                        pile.label,
                        text,
                    )
            for region in view.regions:
                if region.owner is None:
                    for pile in region.piles:
                        assert pile.label in text, (pile.label, text)


def test_a_click_finds_the_card_under_it() -> None:
    g = game_named("spite-malice")
    state = _positions(0)[5]
    view = g.table_view(state, 0)
    drawn = draw_table(view, 0, _names, 78, 30)
    card_hits = [h for h in drawn.hits if h.token is not None]
    assert card_hits
    for h in card_hits:
        assert drawn.at(h.x0, h.y) is not None and drawn.at(h.x0, h.y).token == h.token  # type: ignore[union-attr]
    assert drawn.at(500, 0) is None


def _picker(view: TableView, state: GameState, seat: int) -> Picker:
    g = game_named("spite-malice")
    moves = list(g.legal_moves(state, seat))
    t = state.table
    return Picker(
        [g.move_parts(state, seat, m) for m in moves],
        [g.describe(state, seat, m) for m in moves],
        view,
        seat,
        screen_order(view, seat),
        {tok: t.card(tok) for tok in t.all_tokens()},
        {tok: z for tok in t.all_tokens() if (z := t.zone_of(tok)) is not None},
    )


def test_the_picker_offers_each_choice_once_with_stable_keys() -> None:
    g = game_named("spite-malice")
    found = 0
    for state in _positions(0):
        step = g.next_step(state)
        seat = getattr(step, "player", None)
        if seat != 0:
            continue
        found += 1
        view = g.table_view(state, 0)
        picker = _picker(view, state, 0)
        keys = [(c.card, c.target, c.verb) for c in picker.choices if c.card is not None]
        assert len(keys) == len(set(keys))  # no move twice
        t = state.table
        faces = [(t.card(c).rank, t.card(c).suit, t.zone_of(c)) for c in picker.cards]  # type: ignore[union-attr]
        assert len(faces) == len(set(faces))  # equal cards from one pile offered once
        assert picker.keys["centre1"] == "1" and picker.keys["centre3"] == "3"
        assert picker.keys["side0-1"] == "4"  # your own side stacks after the middle
        for token in picker.cards:
            assert picker.for_card(token)
    assert found


def test_a_third_party_game_gets_the_table_from_its_description(
    example_entry_points: list[metadata.EntryPoint],
) -> None:
    """The example plugin describes its table; the front end draws it with no code of its own."""
    game = registry.load(example_entry_points).game("crazy-eights")
    states = positions(game, 3, seed=2, limit=40)
    seen_eight_choice = False
    for state in states:
        view = game.table_view(state, 0)
        drawn = draw_table(view, 0, _names, 50, 19)
        text = "\n".join(line.plain for line in drawn.lines)
        assert "Discard" in text and "Stock" in text and "Hand" in text
        if getattr(game.next_step(state), "player", None) == 0:
            moves = list(game.legal_moves(state, 0))
            t = state.table
            picker = Picker(
                [game.move_parts(state, 0, m) for m in moves],
                [game.describe(state, 0, m) for m in moves],
                view,
                0,
                screen_order(view, 0),
                {tok: t.card(tok) for tok in t.all_tokens()},
                {tok: z for tok in t.all_tokens() if (z := t.zone_of(tok)) is not None},
            )
            assert {moves[c.index] for c in picker.choices} >= {m for m in moves if m.action == "eight"}
            for token in picker.cards:
                if len(picker.actions(token)) > 1:  # an eight: one choice per suit, keys 1-4
                    seen_eight_choice = True
                    assert len(picker.action_keys(token)) == len(picker.actions(token))
    assert states
    del seen_eight_choice  # whether an eight came up depends on the deal


def test_names_under_trick_cards_are_whole_when_there_is_room() -> None:
    """Four cards in a trick, each with the name of who played it under it: at 120 and at 80
    columns every name is there in full, under its card (not "Carol You You Play… Carol")."""
    from fairdeal.core.cards import parse_card
    from fairdeal.core.tableview import Pile, Region, Spread

    cards = tuple(parse_card(c) for c in ("7h", "9h", "qh", "as"))
    trick = Pile("Trick", (1, 2, 3, 4), cards, Spread.FANNED, who=(1, 2, 0, 3))
    view = TableView((Region(None, (trick,)),))
    names = {0: "You", 1: "Carol", 2: "Player 2", 3: "Bot 3 (random)"}
    for width, height in ((120, 40), (80, 24)):
        drawn = draw_table(view, 0, names.__getitem__, width, height)
        text = [line.plain for line in drawn.lines]
        captions = next(line for line in text if "Carol" in line)
        assert captions.split() == ["Carol", "Player", "2", "You", "Bot", "3"], text
        boxes = next(line for line in text if "7♥" in line)
        for name, face in (("Carol", "7♥"), ("Player 2", "9♥"), ("You", "Q♥"), ("Bot 3", "A♠")):
            # each name sits under its own card
            at = captions.index(name) + len(name) // 2
            assert abs(boxes.index(face) - at) <= 4, (name, boxes, captions)


def test_the_title_bar_fits_80_and_120_columns_whole() -> None:
    """The game, its facts and the scores, each name apart from its number ("Bot 1 (classic): 1",
    never "Bot 1 (classic) 1"); nothing cut with "…" at 80 or 120 columns."""
    from fairdeal.cli.tui.layout import title_line

    names = {0: "You", 1: "Bot 1 (classic)"}.__getitem__
    for name, players, options in (("ecarte", 2, {}), ("snatch", 4, {}), ("spite-malice", 2, {"target": 1})):
        game = game_named(name)
        states = positions(game, players, seed=5, options=options, limit=150)
        for state in states[:: max(1, len(states) // 40)]:
            view = game.table_view(state, 0)
            for width in (78, 118):  # the bar of an 80- and a 120-column terminal, less its padding
                line = title_line(game.title, view, names, width, False).plain
                assert "…" not in line and len(line) <= width, (width, line)
                if view.scores is not None:
                    assert "You: " in line, line
                    assert f"Bot 1: {view.scores[1]}" in line or f"(classic): {view.scores[1]}" in line
    ecarte = game_named("ecarte")
    scored = next(s for s in positions(ecarte, 2, seed=5, limit=150) if s.news)
    wide = title_line("Écarté", ecarte.table_view(scored, 0), names, 118, False).plain
    assert "last:" not in wide  # the scores and the story say who scored: said once
    assert re.search(r"Points — You: \d · Bot 1 \(classic\): \d$", wide), wide
