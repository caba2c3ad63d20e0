"""Choosing a move by keys and clicks, without a screen: the state machine on real positions of each game."""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairdeal.cli.tui import choosing
from fairdeal.cli.tui.choosing import Choosing, Step, click, options, press
from fairdeal.cli.tui.picking import RANK_KEYS, TYPED, Picker, picker_for, read_card
from fairdeal.core.rules import Decide, GameState, Move

from .positions import game_named, positions

GAMES = [("spite-malice", 2, {"target": 1}), ("ecarte", 2, {}), ("snatch", 2, {}), ("snatch", 10, {})]
NAMES = {v: k for k, v in RANK_KEYS.items() if k != "1"}


@cache
def turns(index: int) -> tuple[tuple[GameState, tuple[Move, ...], Picker], ...]:
    """Seat 0's turns in a seeded game: the state, the legal moves, their picker."""
    name, players, options_ = GAMES[index]
    game = game_named(name)
    out = []
    for state in positions(game, players, seed=21 + index, options=options_, limit=120):
        if game.next_step(state) == Decide(0):
            moves = tuple(game.legal_moves(state, 0))
            out.append((state, moves, picker_for(game, state, 0, moves)))
    assert out
    return tuple(out)


def assert_valid(picker: Picker, now: Choosing) -> None:
    assert now.selected is None or now.selected in picker.cards
    assert now.typed in TYPED
    if now.placing:
        assert now.selected is not None
        assert 0 <= now.cursor < len(options(picker, now.selected))


def name_keys(rank: int, suit: str) -> list[str]:
    return [*("10" if rank == 10 else NAMES[rank]), suit.lower()]


NAMED_KEYS = ["left", "right", "up", "down", "tab", "shift+tab", "enter", "space", "escape", "f5", "home"]
keys = st.sampled_from([*NAMED_KEYS, *"0123456789abcdefghijklmnopqrstuvwxyz?/ "])


@settings(max_examples=300, deadline=None)
@given(game=st.integers(0, len(GAMES) - 1), pick=st.integers(0), data=st.data())
def test_any_keys_and_clicks_keep_a_valid_state_and_choose_only_legal_moves(
    game: int, pick: int, data: st.DataObject
) -> None:
    state, moves, picker = turns(game)[pick % len(turns(game))]
    g = game_named(GAMES[game][0])
    tokens = sorted(state.table.all_tokens())
    zones = sorted({z for z in (state.table.zone_of(t) for t in tokens) if z is not None} | set(picker.keys))
    clicks = st.tuples(st.none() | st.sampled_from(tokens), st.none() | st.sampled_from(zones))
    inputs = data.draw(st.lists(keys | clicks, max_size=40))
    now = Choosing()
    for x in inputs:
        step: Step = press(picker, now, x) if isinstance(x, str) else click(picker, now, *x)
        if step.choice is not None:
            assert step.choice in (*picker.choices, *picker.buttons)  # a button is a choice with its key
            assert g.is_legal(state, 0, moves[step.choice.index])
            assert step.state.selected is None and not step.state.placing
        if not step.handled:
            assert isinstance(x, str) and len(x) > 1 and step.state == now
        now = step.state
        assert_valid(picker, now)


def _walk(picker: Picker, now: Choosing, presses: list[str]) -> Step:
    step = Step(now)
    for key in presses:
        step = press(picker, step.state, key)
        if step.choice is not None:
            break
    return step


@pytest.mark.parametrize("game", range(len(GAMES)), ids=[f"{g}-{n}p" for g, n, _ in GAMES])
def test_every_move_on_offer_can_be_chosen_by_keys_alone(game: int) -> None:
    for _, _, picker in turns(game):
        for choice in picker.choices:
            if picker.single is not None:
                assert press(picker, Choosing(), "enter").choice == picker.single
                continue
            if choice.card is None:  # a button: its letter
                button = next(b for b in picker.buttons if b.index == choice.index)
                assert button.key, f"a button with no key: {button}"
                assert press(picker, Choosing(), button.key).choice == button
                continue
            now = Choosing()
            for _ in range(len(picker.cards)):  # the arrows reach every card
                if now.selected == choice.card:
                    break
                now = press(picker, now, "right").state
            assert now.selected == choice.card
            walk = options(picker, choice.card)
            assert choice in walk, f"{choice} cannot be walked to"
            i = walk.index(choice)
            presses = ["enter"] if len(walk) == 1 else ["enter", *["right"] * i, "enter"]
            assert _walk(picker, now, presses).choice == choice
            if choice.target is not None and picker.keys.get(choice.target):  # or its place's key
                assert press(picker, now, picker.keys[choice.target]).choice == picker.at(
                    choice.card, choice.target
                )


@pytest.mark.parametrize("game", range(len(GAMES)), ids=[f"{g}-{n}p" for g, n, _ in GAMES])
def test_a_card_typed_by_name_is_picked(game: int) -> None:
    for _, _, picker in turns(game):
        for card in picker.faces.values():
            step = _walk(picker, Choosing(), name_keys(card.rank, card.suit.value))
            assert step.choice is None and step.state.selected is not None
            picked = picker.faces[step.state.selected]
            assert (picked.rank, picked.suit) == (card.rank, card.suit)
            # The same name again picks the next card of that name, and comes back round; unless its
            # first key means something for the picked card (a digit is a place's key after a pick).
            sel, name = step.state.selected, name_keys(card.rank, card.suit.value)
            if name[0] in picker.places(sel).values() or name[0] in picker.action_keys(sel):
                continue
            same = [t for t, c in picker.faces.items() if (c.rank, c.suit) == (card.rank, card.suit)]
            again = _walk(picker, step.state, name).state.selected
            assert again == same[(same.index(sel) + 1) % len(same)]


@pytest.mark.parametrize("game", range(len(GAMES)), ids=[f"{g}-{n}p" for g, n, _ in GAMES])
def test_clicks_pick_a_card_then_a_lit_place(game: int) -> None:
    for _, _, picker in turns(game):
        for choice in picker.choices:
            if choice.card is None:
                continue
            first = click(picker, Choosing(), choice.card, None)
            assert first.choice is None and first.state.selected == choice.card
            if choice.target is not None:
                assert click(picker, first.state, None, choice.target).choice == picker.at(
                    choice.card, choice.target
                )
            second = click(picker, first.state, choice.card, None)  # again: plays a card's only move
            only = picker.for_card(choice.card)
            assert second.choice == (only[0] if len(only) == 1 else None)


def test_escape_steps_back_one_thing_at_a_time() -> None:
    _, _, picker = next(t for t in turns(0) if len(options(t[2], t[2].cards[0])) > 1)
    now = press(picker, Choosing(), "right").state
    placing = press(picker, now, "enter").state
    assert placing.placing and placing.selected == now.selected
    back = press(picker, placing, "escape").state
    assert not back.placing and back.selected == now.selected  # first the places
    assert press(picker, back, "escape").state.selected is None  # then the card
    half = press(picker, back, "q").state  # a digit would be a place's key now
    assert half.typed == "q"
    cleared = press(picker, half, "escape").state
    assert cleared.typed == "" and cleared.selected == now.selected  # a half-typed name, not the card


def test_what_is_said_to_the_person() -> None:
    _, _, picker = next(t for t in turns(0) if t[2].cards and t[2].single is None)
    assert press(picker, Choosing(), "enter").say.startswith("Choose a card")
    assert press(picker, Choosing(), "x").say == "'x' does nothing here: F1 for help"
    assert press(picker, Choosing(), "q").say == "card: Q…"

    def name(card: Any) -> tuple[int, str]:
        return card.rank, card.suit.value

    playable = {name(c) for c in picker.faces.values()}
    held = {name(c) for c in picker.held}
    missing = next((r, s) for r in range(1, 14) for s in "CDHS" if (r, s) not in playable | held)
    step = _walk(picker, Choosing(), name_keys(*missing))
    assert step.say.startswith("You have no ") and step.state.typed == "", step.say  # not held at all
    _, _, follow = next(
        t
        for t in turns(0)
        if t[2].cards and {name(c) for c in t[2].held} - {name(c) for c in t[2].faces.values()}
    )
    kept = next(iter({name(c) for c in follow.held} - {name(c) for c in follow.faces.values()}))
    step = _walk(follow, Choosing(), name_keys(*kept))
    assert "cannot be played now: the rules allow " in step.say, step.say  # held: which cards may be played


def test_cards_are_typed_by_name() -> None:
    assert read_card("", "1") == ("1", None) and read_card("1", "0") == ("10", None)
    assert read_card("10", "h") == ("", (10, "H"))
    assert read_card("", "q") == ("q", None) and read_card("q", "s") == ("", (12, "S"))
    assert read_card("", "x") == ("", None) and read_card("1", "c") == ("", None)
    assert read_card("8", "z") == ("", None) and read_card("", "K") == ("k", None)


def test_a_click_on_an_equal_card_picks_the_one_offered() -> None:
    aliases = 0
    for game in range(len(GAMES)):
        for _, _, picker in turns(game):
            for token, offered in picker.alias.items():
                aliases += 1
                assert click(picker, Choosing(), token, None).state.selected == offered
    assert aliases, "no two equal cards in one pile in these games"


def test_choosing_needs_no_textual() -> None:
    code = "import sys, fairdeal.cli.tui.choosing; print([m for m in sys.modules if m.startswith('textual')])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_table_modules_import_no_circle() -> None:
    """Every import among cli/tui's modules, those for type checking included, goes one way."""
    folder = Path(choosing.__file__).parent
    graph: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        graph[path.stem] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = [node.module] if node.module else [a.name for a in node.names]
                graph[path.stem] |= {n.split(".")[0] for n in names}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"an import circle: {' -> '.join((*path, module))}"
        if module in done or module not in graph:
            return
        for other in graph[module]:
            visit(other, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_enter_between_two_buttons_says_which_keys_choose() -> None:
    picker = next(p for i in range(len(GAMES)) for _, _, p in turns(i) if not p.cards and len(p.buttons) > 1)
    step = press(picker, Choosing(), "enter")
    assert step.choice is None and step.say.startswith("Enter cannot choose between these: press "), step.say
    assert all(f"{b.key} ({b.verb})" in step.say for b in picker.buttons), step.say
