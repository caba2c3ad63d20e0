"""Choosing one move at the table by keys and clicks: a pure state machine over a :class:`~.picking.Picker`.

Where the person is in choosing is a :class:`Choosing`: the card picked, whether its places
are being walked with the arrows (and which one the cursor is on), the keys of a card's name
typed so far. :func:`press` (a key) and :func:`click` (a card or a pile) take it and one input
and give a :class:`Step`: the next state, the move chosen if this input chose one (always one
of the picker's :class:`~.picking.Choice`, so a legal move), whether the input meant anything,
and what to tell the person. No I/O and no Textual: the app holds a state and shows it.

Keys: ← → ↑ ↓ Tab walk the cards (or a picked card's places); Enter plays the only move, or
picks, or starts walking a card's places, or plays the one walked to; a place's key plays the
picked card there; a button's letter plays it; a card's name (``8c``, ``10h``) picks it; Esc
steps back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from fairdeal.core.cards import Card, Suit
from fairdeal.i18n import gettext as _
from fairdeal.i18n import language

from .cardkeys import read_card
from .picking import Choice, Picker

ARROWS = frozenset({"left", "right", "up", "down", "tab", "shift+tab"})
FORWARD = frozenset({"right", "down", "tab"})
ENTER = frozenset({"enter", "space", " "})


@dataclass(frozen=True, slots=True)
class Choosing:
    """Where the person is in choosing one move (a new turn starts from ``Choosing()``)."""

    selected: int | None = None  # the card picked: one of the picker's cards
    placing: bool = False  # its places (and moves without a place) are walked with the arrows
    cursor: int = 0  # which of them, while placing
    typed: str = ""  # keys of a card's name so far (cardkeys.name_starts of the language spoken)


@dataclass(frozen=True, slots=True)
class Step:
    """What one input did: the next state, the move it chose (if any), and what to tell the person."""

    state: Choosing
    choice: Choice | None = None
    handled: bool = True
    say: str = ""


def options(picker: Picker, token: int) -> list[Choice]:
    """The moves of card ``token`` in the order Enter and the arrows walk them: its places, then the rest."""
    at = [picker.at(token, z) for z in picker.places(token)]
    return [c for c in [*at, *picker.actions(token)] if c is not None]


def _play(now: Choosing, choice: Choice | None) -> Step:
    if choice is None:
        return Step(now)
    return Step(replace(now, selected=None, placing=False), choice)


def press(picker: Picker, now: Choosing, key: str, *, ascii: bool = False) -> Step:
    """Key ``key`` (a Textual key name, or the character typed) while the table has the focus."""
    sel = now.selected
    if key in ARROWS:
        return _arrow(picker, now, key)
    if key in ENTER:
        return _enter(picker, now)
    if key == "escape":
        # Esc first ends walking the places or a half-typed name; then it lets the card go.
        keep = now.placing or bool(now.typed)
        return Step(replace(now, selected=sel if keep else None, placing=False, typed=""))
    if not now.typed:
        if sel is not None:
            zone = next((z for z, k in picker.places(sel).items() if k == key), None)
            if zone is not None:
                return _play(now, picker.at(sel, zone))
            actions = picker.action_keys(sel)
            if key in actions:
                return _play(now, actions[key])
        if len(key) == 1 and picker.button(key) is not None:
            return _play(now, picker.button(key))
    if len(key) == 1:
        return _typed(picker, now, key, ascii)
    return Step(now, handled=False)


def _arrow(picker: Picker, now: Choosing, key: str) -> Step:
    sel = now.selected
    step = 1 if key in FORWARD else -1
    if now.placing and sel is not None:
        n = len(options(picker, sel))
        return Step(replace(now, cursor=(now.cursor + step) % max(1, n)))
    if not picker.cards:
        return Step(now)
    if sel not in picker.cards:
        return Step(replace(now, selected=picker.cards[0 if step > 0 else -1]))
    i = picker.cards.index(sel)
    return Step(replace(now, selected=picker.cards[(i + step) % len(picker.cards)]))


def _enter(picker: Picker, now: Choosing) -> Step:
    if picker.single is not None:
        return _play(now, picker.single)
    sel = now.selected
    if sel is None:
        if not picker.cards:  # buttons only, more than one: Enter cannot know which
            keys = _(" or ").join(f"{b.key} ({b.verb})" for b in picker.buttons if b.key)
            said = _("Enter cannot choose between these: press {keys}").format(keys=keys) if keys else ""
            return Step(now, say=said)
        return Step(
            replace(now, selected=picker.cards[0]),
            say=_("Choose a card (←→ or its name), then where it goes; Enter plays it"),
        )
    moves = options(picker, sel)
    if len(moves) == 1:
        return _play(now, moves[0])
    if now.placing:
        return _play(now, moves[now.cursor % len(moves)])
    if not moves:
        return Step(now)
    return Step(
        replace(now, placing=True, cursor=0),
        say=_("Where it goes: ←→ and Enter, or its key (Esc: another card)"),
    )


def _not_offered(picker: Picker, card: Card, ascii: bool) -> str:
    """Why a card typed by name cannot be chosen: this seat has none, or the rules allow others now."""
    name = card.text(ascii, lang=language())
    if all((c.rank, c.suit) != (card.rank, card.suit) for c in picker.held):  # any copy of it
        return _("You have no {card}").format(card=name)
    if not picker.cards:
        return _("{card} cannot be played now: choose one of the moves below").format(card=name)
    faces = [picker.faces[t].text(ascii, lang=language()) for t in picker.cards if t in picker.faces]
    allowed = " ".join(dict.fromkeys(faces))  # each card once, as the table lays them out
    said = _("{card} cannot be played now: the rules allow {cards} (F2: the rules)")
    return said.format(card=name, cards=allowed)


def _typed(picker: Picker, now: Choosing, key: str, ascii: bool) -> Step:
    typed, found = read_card(now.typed, key, language())
    after = replace(now, typed=typed)
    if typed:
        return Step(after, say=_("card: {typed}…").format(typed=typed.upper()))
    if found is None:
        return Step(after, say=_("{key} does nothing here: F1 for help").format(key=repr(key)))
    rank, suit = found
    matches = [t for t, c in picker.faces.items() if c.rank == rank and c.suit.value == suit]
    name = Card(rank, Suit(suit)).text(ascii, lang=language())
    if not matches:
        return Step(after, say=_not_offered(picker, Card(rank, Suit(suit)), ascii))
    if now.selected in matches and len(matches) > 1:  # the same name again: the next such card
        sel = matches[(matches.index(now.selected) + 1) % len(matches)]
    else:
        sel = matches[0]
    say = ""
    if len(options(picker, sel)) > 1:
        say = _("{card}: a place's key, or ←→ and Enter (Esc: another card)").format(card=name)
    return Step(replace(after, selected=sel, placing=False), say=say)


def click(picker: Picker, now: Choosing, token: int | None, zone: str | None) -> Step:
    """A click on the table: on a card (``token``), on a pile (``zone``), or on both or neither."""
    if token is not None and picker.canonical(token) in picker.cards:
        tok = picker.canonical(token)
        if tok == now.selected and len(picker.for_card(tok)) == 1:  # a second click plays it
            return _play(now, picker.for_card(tok)[0])
        return Step(replace(now, selected=tok, placing=False))
    if zone is not None and now.selected is not None:
        return _play(now, picker.at(now.selected, zone))
    return Step(now)


__all__ = ["Choosing", "Step", "click", "options", "press"]
