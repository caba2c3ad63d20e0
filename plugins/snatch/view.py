"""Snatch! in words and on the table: :class:`SnatchView`, the part of the game that says
moves and draws the table as one seat sees it (both front ends draw from
:meth:`SnatchView.view`); and the final standing.

Only public facts are drawn: pile counts, the trump, the first suit, the trick (a card not yet
revealed is drawn face down), the snatch price and who is out.
"""

from __future__ import annotations

from fairdeal import Move, Pile, Region, Seat, Spread, Suit, TableView, Words

from .state import (
    ASIDE,
    PLAYED,
    THROWN,
    TRICK,
    SnatchState,
    first_suit,
    pile,
    price,
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


def _marks(state: SnatchState) -> dict[int, str]:
    """Each seat's remark: out, winner, last card."""
    t = state.table
    marks: dict[int, str] = {}
    for p in range(t.players):
        if p in state.out:
            marks[p] = f"out: {out_reason(state, p)}"
        elif p == state.winner:
            marks[p] = "WINNER"
        elif t.size(pile(p)) == 0 and p in state.order:
            marks[p] = "turned their last card"
    return marks


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


class SnatchView:
    """Snatch!'s words and table, for :class:`~fairdeal.plugins.snatch.rules.SnatchGame`."""

    def remarks(self, before: SnatchState, after: SnatchState) -> list[Words]:
        """Who took the trick just judged: the one thing no move tells."""
        if after.tricks > before.tricks and after.last_taker is not None:
            return [(Seat(after.last_taker), "took the trick")]
        return []

    def describe(self, state: SnatchState, player: int, move: Move) -> str:
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
        # Short: a button of the table, which must fit 80 columns with its key.
        head = f"snatch with {card} (trump {card.suit.symbol})"
        if left == 0:
            return f"{head}: your last card, you are out with no victory"
        if cost >= left:
            return f"{head}: pay your whole pile ({_cards(left)}), out with no victory"
        return f"{head}: throw away {_cards(cost)} unseen"

    def narrate(self, state: SnatchState, player: int, move: Move, name: str) -> str:
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

    def view(self, state: SnatchState, viewer: int | None) -> TableView:
        """The trick and the last trick in the middle with who turned each card; every seat's pile
        (whose turn it is comes from the game's next step)."""
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
        marks = _marks(state)
        out = (f"aside {t.size(ASIDE)} · thrown {t.size(THROWN)} · played {t.size(PLAYED)}",)
        regions = [Region(None, tuple(middle), (out,))]
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
        return TableView(tuple(regions), tuple(facts))
