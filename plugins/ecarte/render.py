"""Écarté in words and pictures: move descriptions, narration and the table as one seat sees it.

Nothing here shows a card the viewer does not know: narration, which everyone reads,
names only public cards.
"""

from __future__ import annotations

from fairdeal import Card, FaceDown, Line, Move

from .model import (
    TALON,
    TRICK,
    TURNUP,
    EcarteState,
    Phase,
    hand,
    limit,
    sort_key,
    won,
)


def _card_text(state: EcarteState, token: object, public_only: bool) -> str:
    t = state.table
    if not isinstance(token, int):
        return "a card"
    card = t.card(token)
    if card is None or (public_only and not t.is_public(token)):
        return "a card"
    return card.text()


def describe(state: EcarteState, player: int, move: Move) -> str:
    """The move in words for the player choosing it."""
    a = move.action
    arg = move.args[0] if move.args else None
    if a == "stand":
        return "stand: play this hand" + (" without any exchange" if state.exchanges == 0 else "")
    if a == "propose":
        return "propose an exchange of cards"
    if a == "accept":
        return "accept the proposal"
    if a == "refuse":
        return "refuse the proposal: play these hands" + (
            " without any exchange" if state.exchanges == 0 else ""
        )
    if a == "discard":
        return f"discard {_card_text(state, arg, False)} (face down)"
    if a == "done":
        n = state.discarded
        return f"done: draw {n} card{'s' if n != 1 else ''}" if n else "keep your hand (discard nothing)"
    if a == "announce":
        return f"announce the King of trumps ({_card_text(state, arg, False)}): 1 point"
    if a == "play":
        return f"play {_card_text(state, arg, False)}"
    return str(move)


def narrate(state: EcarteState, player: int, move: Move, name: str) -> str:
    """The move in words for everyone, after it was made; it names public cards only."""
    a = move.action
    arg = move.args[0] if move.args else None
    if a == "stand":
        return f"{name} stands"
    if a == "propose":
        return f"{name} proposes an exchange"
    if a == "accept":
        return f"{name} accepts"
    if a == "refuse":
        return f"{name} refuses"
    if a == "discard":
        drawn = limit(state) == 1  # the last card it may discard: it draws at once
        n = state.discarded + 1
        return f"{name} discards a card" + (f" and draws {n}" if drawn else "")
    if a == "done":
        n = state.discarded
        return f"{name} draws {n} card{'s' if n != 1 else ''}" if n else f"{name} keeps their hand"
    if a == "announce":
        return f"{name} announces the King of trumps ({_card_text(state, arg, True)}) and scores 1 point"
    if a == "play":
        return f"{name} plays {_card_text(state, arg, True)}"
    return f"{name}: {move}"


def _who(seat: int, viewer: int | None) -> str:
    return "You" if seat == viewer else f"Seat {seat}"


def _waiting(state: EcarteState, viewer: int | None) -> str:
    phase = state.phase
    if phase is Phase.PROPOSE:
        return f"{_who(state.elder, viewer)} to stand or propose"
    if phase is Phase.ANSWER:
        return f"{_who(state.dealer, viewer)} to accept or refuse the proposal"
    if phase is Phase.DISCARD:
        return f"{_who(state.actor, viewer)} to discard (up to {limit(state)} more)"
    if phase is Phase.PLAY:
        verb = "lead" if state.table.size(TRICK) == 0 else "play to the trick"
        return f"{_who(state.actor, viewer)} to {verb}"
    if phase is Phase.OVER and state.winner is not None:
        return f"Game over: {_who(state.winner, viewer)} won"
    return ""


def render(state: EcarteState, viewer: int | None) -> list[Line]:
    """The table as ``viewer`` (a seat, or None for the public) sees it."""
    t = state.table
    trump = state.trump
    lines: list[Line] = []
    dealer = _who(state.dealer, viewer) if state.dealer >= 0 else "not chosen yet"
    lines.append((f"Écarté: deal {state.deal_no}, dealer {dealer}, first to {state.rules.target} points",))
    lines.append(("Points: " + ", ".join(f"{_who(p, viewer)} {state.scores[p]}" for p in (0, 1)),))
    if state.news:
        lines.append((f"Last points: {state.news}",))
    turnup = t.top_card(TURNUP)
    if turnup is not None:
        lines.append(
            (
                "Turn-up: ",
                turnup,
                f"  trump {turnup.suit.symbol} {turnup.suit.word}",
                f"  talon {_count(t.size(TALON))}",
            )
        )
    trick = [c for c in t.cards(TRICK) if c is not None]
    if trick:
        lines.append(("Trick: ", *trick, f"  led by {_who(1 - state.actor, viewer)}"))
    if state.last_winner is not None and t.size(won(state.last_winner)) >= 2:
        last = [c for c in t.cards(won(state.last_winner))[-2:] if c is not None]
        lines.append(("Last trick: ", *last, f"  won by {_who(state.last_winner, viewer)}"))
    if state.phase in (Phase.PLAY, Phase.NEXT, Phase.OVER) and state.trump is not None:
        lines.append(
            ("Tricks this deal: " + ", ".join(f"{_who(p, viewer)} {state.tricks[p]}" for p in (0, 1)),)
        )
    for p in (0, 1):
        cards = t.cards(hand(p))
        if not cards and state.phase in (Phase.FIRST, Phase.DEAL):
            continue
        shown = sorted((c for c in cards if c is not None), key=lambda c: sort_key(c, trump))
        hidden = len(cards) - len(shown)
        label = "Your hand: " if p == viewer else f"{_who(p, viewer)}: "
        line: list[str | Card | FaceDown] = [label]
        if hidden:
            line.append(FaceDown(hidden))
        line.extend(shown)
        if p != viewer:
            line.append(f"  {_count(len(cards))}")
        if state.announced == p:
            line.append("  (announced the King of trumps)")
        lines.append(tuple(line))
    status = _waiting(state, viewer)
    if status:
        lines.append((status,))
    return lines


def _count(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"
