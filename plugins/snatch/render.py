"""What players read: the table as one seat sees it, moves in words, the final standing.

Only public facts are drawn: pile counts, the trump, the first suit, the trick (a card not yet
revealed is drawn face down), the snatch price and who is out.
"""

from __future__ import annotations

from fairdeal import Card, FaceDown, Line, Move, Suit

from .state import (
    ASIDE,
    PLAYED,
    THROWN,
    TRICK,
    SnatchState,
    first_suit,
    next_to_turn,
    pile,
    price,
    snatch_open,
    trick_cards,
    trump_of,
)


def _suit(suit: Suit | None) -> str:
    return "not set yet" if suit is None else f"{suit.symbol} {suit.word}"


def _who(seat: int, viewer: int | None) -> str:
    return "you" if seat == viewer else f"seat {seat}"


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def out_reason(state: SnatchState, seat: int) -> str:
    if seat in state.paid:
        return "paid with their whole pile"
    return "their last card took its trick"


def price_line(state: SnatchState) -> str:
    """The current snatch price: the next snatch's cost, and the cheap way back to the first suit."""
    first = first_suit(state)
    text = f"Snatch price: {_cards(state.count + 1)}"
    if first is not None and trump_of(state) is not first:
        text += f" (1 card to bring back {first.symbol})"
    return text


def table_lines(state: SnatchState, viewer: int | None) -> list[Line]:
    """The table as ``viewer`` sees it."""
    t = state.table
    lines: list[Line] = [
        (f"Trump: {_suit(trump_of(state))}    First suit: {_suit(first_suit(state))}    {price_line(state)}",)
    ]
    trick: list[str | Card | FaceDown] = ["Trick: "]
    tokens = t.tokens(TRICK)
    if not tokens:
        trick.append("empty")
    for i, (seat, token) in enumerate(zip(state.order, tokens, strict=True)):
        card = t.card(token)
        trick.extend([", " if i else "", f"{_who(seat, viewer)} "])
        trick.append(card if card is not None else FaceDown(1))
        if token in state.sideways:
            trick.append(" (snatched)")
    lines.append(tuple(trick))
    best = t.card(state.last_token)
    if state.last_taker is not None and best is not None:
        lines.append((f"Last trick: taken by {_who(state.last_taker, viewer)} with ", best))
    known = trick_cards(state) is not None  # False between a turn and its reveal
    snatching = known and snatch_open(state)
    deciding = next_to_turn(state) if known and state.opener >= 0 and not snatching else None
    live = state.winner is None and not state.ended
    for p in range(t.players):
        n = t.size(pile(p))
        mark = ""
        if p in state.out:
            mark = f"  out: {out_reason(state, p)}"
        elif p == state.winner:
            mark = "  WINNER"
        elif n == 0 and p in state.order:
            mark = "  turned their last card"
        if live and snatching and p == state.order[-1]:
            mark += "  <- may snatch"
        elif live and p == deciding:
            mark += "  <- to turn a card"
        name = "You" if p == viewer else f"Seat {p}"
        lines.append((f"{name}: ", FaceDown(n) if n else "", f" {_cards(n)} in the pile{mark}"))
    lines.append(
        (
            f"Set aside: {_cards(t.size(ASIDE))}    Thrown away: {_cards(t.size(THROWN))}    "
            f"Played: {_cards(t.size(PLAYED))}",
        )
    )
    return lines


def describe(state: SnatchState, player: int, move: Move) -> str:
    """The move in words for the player choosing it."""
    t = state.table
    if move.action == "turn":
        return f"turn the top card of your pile ({_cards(t.size(pile(player)))} left)"
    card = t.top_card(TRICK)
    if move.action == "pass":
        return "do not snatch" + (f": keep {_suit(trump_of(state))} as trump" if card else "")
    if card is None:
        return "snatch"
    cost = price(state, card.suit)
    left = t.size(pile(player))
    head = f"snatch with {card}: {_suit(card.suit)} becomes trump"
    if left == 0:
        return f"{head}; it was your last card: you leave the game with no victory"
    if cost >= left:
        return f"{head}; pay your whole pile ({_cards(left)}) and leave the game with no victory"
    return f"{head}; throw away {_cards(cost)} unseen from your pile"


def narrate(state: SnatchState, player: int, move: Move, name: str) -> str:
    """The move in words for everyone, after it was made (``state`` is the state before it)."""
    t = state.table
    if move.action == "turn":
        return f"{name} turned the top card of their pile"
    card = t.top_card(TRICK)
    if move.action == "pass":
        return f"{name} did not snatch"
    if card is None:
        return f"{name} snatched"
    cost = price(state, card.suit)
    left = t.size(pile(player))
    head = f"{name} snatched with {card}: {_suit(card.suit)} is trump"
    if left == 0:
        return f"{head}; it was their last card: they left the game with no victory"
    if cost >= left:
        return f"{head}; paid their whole pile ({_cards(left)}) and left the game with no victory"
    return f"{head}; threw away {_cards(cost)} unseen"


def standing(state: SnatchState) -> str:
    """The end of the game in one line: who won, who is out and why."""
    parts = []
    if state.winner is not None:
        parts.append(f"seat {state.winner} won after {state.tricks} tricks")
    elif state.ended:
        parts.append(f"no winner after {state.tricks} tricks")
    if state.out:
        parts.append("out: " + ", ".join(f"seat {p} ({out_reason(state, p)})" for p in state.out))
    return "; ".join(parts)
