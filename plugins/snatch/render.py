"""What players read: the table as one seat sees it, moves in words, the final standing.

Only public facts are drawn: pile counts, the trump, the first suit, the trick (a card not yet
revealed is drawn face down), the snatch price and who is out.
"""

from __future__ import annotations

from fairdeal import Card, FaceDown, Line, Move, Pile, Region, Seat, Spread, Suit, TableView, Words

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


def _marks(state: SnatchState) -> tuple[dict[int, str], int | None]:
    """Each seat's remark (out, winner, last card) and who the game waits for."""
    t = state.table
    known = trick_cards(state) is not None  # False between a turn and its reveal
    snatching = known and snatch_open(state)
    deciding = next_to_turn(state) if known and state.opener >= 0 and not snatching else None
    live = state.winner is None and not state.ended
    marks: dict[int, str] = {}
    for p in range(t.players):
        if p in state.out:
            marks[p] = f"out: {out_reason(state, p)}"
        elif p == state.winner:
            marks[p] = "WINNER"
        elif t.size(pile(p)) == 0 and p in state.order:
            marks[p] = "turned their last card"
    waiting = None
    if live and snatching:
        waiting = state.order[-1]
    elif live and deciding is not None:
        waiting = deciding
    return marks, waiting


def table_lines(state: SnatchState, viewer: int | None) -> list[Line]:
    """The table as ``viewer`` sees it."""
    t = state.table
    lines: list[Line] = [
        (f"Trump: {_suit(trump_of(state))}    First suit: {_suit(first_suit(state))}    {price_line(state)}",)
    ]
    trick: list[str | Card | FaceDown | Seat] = ["Trick: "]
    tokens = t.tokens(TRICK)
    if not tokens:
        trick.append("empty")
    for i, (seat, token) in enumerate(zip(state.order, tokens, strict=True)):
        card = t.card(token)
        trick.extend([", " if i else "", Seat(seat)])
        trick.append(card if card is not None else FaceDown(1))
        if token in state.sideways:
            trick.append(" (snatched)")
    lines.append(tuple(trick))
    best = t.card(state.last_token)
    if state.last_taker is not None and best is not None:
        last: list[str | Card | FaceDown | Seat] = ["Last trick:"]
        for i, (seat, token) in enumerate(zip(state.last_order, state.last_trick, strict=True)):
            card = t.card(token)
            last.extend([", " if i else "", Seat(seat), card if card is not None else FaceDown(1)])
        last.extend([" — taken by", Seat(state.last_taker), "with", best])
        lines.append(tuple(last))
    marks, waiting = _marks(state)
    snatching = waiting is not None and snatch_open(state)
    for p in range(t.players):
        n = t.size(pile(p))
        mark = f"  {marks[p]}" if p in marks else ""
        if p == waiting:
            mark += "  <- may snatch" if snatching else "  <- to turn a card"
        lines.append((Seat(p), ": ", FaceDown(n) if n else "", f" {_cards(n)} in the pile{mark}"))
    lines.append(
        (
            f"Set aside: {_cards(t.size(ASIDE))}    Thrown away: {_cards(t.size(THROWN))}    "
            f"Played: {_cards(t.size(PLAYED))}",
        )
    )
    return lines


def table_view(state: SnatchState, viewer: int | None) -> TableView:
    """The trick and the last trick in the middle with who turned each card; every seat's pile."""
    t = state.table
    tokens = t.tokens(TRICK)
    tags = tuple("snatched" if tok in state.sideways else "" for tok in tokens)
    middle = [Pile.of(t, TRICK, "Trick", spread=Spread.FANNED, who=state.order, tags=tags)]
    if state.last_taker is not None and state.last_trick:
        middle.append(
            Pile.of(
                t,
                PLAYED,
                "Last trick",
                spread=Spread.FANNED,
                tokens=state.last_trick,
                who=state.last_order,
                note=("taken by", Seat(state.last_taker)),
            )
        )
    marks, waiting = _marks(state)
    snatching = waiting is not None and snatch_open(state)
    regions = [Region(None, tuple(middle))]
    for p in range(t.players):
        notes: tuple[Words, ...] = ((marks[p],),) if p in marks else ()
        regions.append(Region(p, (Pile.of(t, pile(p), "Pile"),), notes))
    first = first_suit(state)
    trump = trump_of(state)
    facts: list[Words] = (
        [(f"trump {trump.symbol} {trump.word}",)] if trump is not None else [("trump not set",)]
    )
    if first is not None and trump is not first:
        facts.append((f"first suit {first.symbol}",))
    cost = state.count + 1
    back = f" (1 for {first.symbol})" if first is not None and trump is not first else ""
    facts.append((f"snatch costs {_cards(cost)}{back}",))
    facts.append((f"aside {t.size(ASIDE)} · thrown {t.size(THROWN)} · played {t.size(PLAYED)}",))
    status: Words = ()
    if waiting is not None:
        status = (Seat(waiting), "may snatch" if snatching else "to turn a card")
    return TableView(tuple(regions), tuple(facts), turn=waiting, status=status)


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
    """The move in words for everyone, after it was made (``state`` is the state before it).

    Told in the second person to the mover.
    """
    you = state.table.viewer == player
    who, their, they = ("You", "your", "you") if you else (name, "their", "they")
    t = state.table
    if move.action == "turn":
        return f"{who} turned the top card of {their} pile"
    card = t.top_card(TRICK)
    if move.action == "pass":
        return f"{who} did not snatch"
    if card is None:
        return f"{who} snatched"
    cost = price(state, card.suit)
    left = t.size(pile(player))
    head = f"{who} snatched with {card}: {_suit(card.suit)} is trump"
    if left == 0:
        return f"{head}; it was {their} last card: {they} left the game with no victory"
    if cost >= left:
        return f"{head}; paid {their} whole pile ({_cards(left)}) and left the game with no victory"
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
