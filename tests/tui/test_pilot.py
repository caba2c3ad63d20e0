"""Whole games played at the full-screen table by keys, through Textual's own test driver."""

from __future__ import annotations

import random

import pytest

from fairdeal.cli.tui.app import TableApp
from fairdeal.cli.tui.picking import Picker
from fairdeal.cli.tui.screens import EndScreen
from fairdeal.cli.tui.widgets import TableArea

from .harness import table_app, until

pytestmark = pytest.mark.slow


def _card_keys(app: TableApp, token: int) -> list[str]:
    """The keys that name a card: its rank (``10`` as 1 0), then its suit letter."""
    state = app.player.view() if app.player is not None else None
    card = state.table.card(token) if state is not None else None
    assert card is not None
    rank = {1: "a", 11: "j", 12: "q", 13: "k"}.get(card.rank, str(card.rank))
    return [*rank, card.suit.value.lower()]


async def _click(pilot: object, area: TableArea, which: object) -> bool:
    """Click the first thing on the table ``which(hit)`` accepts; False if none shows."""
    hit = next((h for h in area.drawn.hits if which(h)), None)  # type: ignore[operator]
    if hit is None:
        return False
    await pilot.click(TableArea, offset=(hit.x0 + 1, hit.y))  # type: ignore[attr-defined]  # 1: padding
    return True


async def _one_move(app: TableApp, picker: Picker, rng: random.Random, pilot: object) -> str:
    """Pick a move the way a person does; return how, for the record."""
    press = pilot.press  # type: ignore[attr-defined]
    if picker.single is not None:
        await press("enter")
        return "enter"
    if picker.buttons and (not picker.cards or rng.random() < 0.3):
        button = rng.choice(picker.buttons)
        await press(button.key)
        return f"button {button.key}"
    # Mostly play a card onto the middle, the first one the table shows (a payoff top before the
    # hand): games end sooner than with uniformly random picks.
    middle = [t for t in picker.cards if any(picker.keys.get(z) in ("1", "2", "3") for z in picker.places(t))]
    token = middle[0] if middle and rng.random() < 0.8 else rng.choice(picker.cards)
    how = rng.random()
    area = app.query_one(TableArea)
    if how < 0.25 and await _click(pilot, area, lambda h: h.token == token):
        places = picker.places(token)
        if places:
            zone = rng.choice(sorted(places))
            if await _click(pilot, area, lambda h: h.zone == zone and h.token is None):
                return "click a card, click a place"
        elif len(picker.actions(token)) == 1:
            await _click(pilot, area, lambda h: h.token == token)  # a second click plays it
            return "click a card twice"
    if how < 0.5:
        await press("escape", *_card_keys(app, token))  # by name: Esc first, digits are places after a pick
    else:  # by arrows from where the selection is
        while app.selected != token:
            await press("right")
    places = picker.places(token)
    if places:
        low = sorted(k for k in places.values() if k in "123")
        key = low[0] if low and rng.random() < 0.8 else rng.choice(sorted(places.values()))
        await press(key)
        return f"card then place {key}"
    actions = picker.actions(token)
    if len(actions) == 1:
        await press("enter")
        return "card then enter"
    await press("enter", "right", "enter")  # several moves without a place: walk them
    return "card then walk"


async def _play_whole_game(name: str, players: int, options: dict[str, object], seed: int) -> set[str]:
    app, player = table_app(name, players, seed, options)
    rng = random.Random(seed)
    ways: set[str] = set()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3000):
            await until(lambda: player.deciding or app.outcome is not None, pilot, "a decision or the end")
            if app.outcome is not None:
                break
            picker = app.picker()
            assert picker is not None
            before = player.moves
            ways.add(await _one_move(app, picker, rng, pilot))
            await until(lambda b=before: player.moves is not b, pilot, "the move to be taken")
        await until(lambda: isinstance(app.screen, EndScreen), pilot, "the end screen")
        await pilot.press("enter")
    outcomes = app.outcome.unwrap()
    session = outcomes[0].session
    assert session.finished and session.result is not None
    assert session.verdict is not None and session.verdict.fair
    assert ways, "no move was made at the table"
    return ways


def test_spite_malice_by_keys() -> None:
    import asyncio

    ways = asyncio.run(_play_whole_game("spite-malice", 2, {"target": 1}, seed=3))
    assert "click a card, click a place" in ways and "card then place 1" in ways


def test_ecarte_by_keys() -> None:
    import asyncio

    asyncio.run(_play_whole_game("ecarte", 2, {"target": 2}, seed=4))


def test_snatch_by_keys() -> None:
    import asyncio

    asyncio.run(_play_whole_game("snatch", 4, {}, seed=5))
