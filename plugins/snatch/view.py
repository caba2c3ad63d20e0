"""Snatch! in words and on the table: :class:`SnatchView`, the part of the game that says
moves and draws the table as one seat sees it (both front ends draw from
:meth:`SnatchView.view`); and the final standing.

Only public facts are drawn: pile counts, the trump, the first suit, the trick (a card not yet
revealed is drawn face down), the snatch price and who is out.
"""

from __future__ import annotations

from fairdeal import Card, Move, MoveParts, Pile, Region, Seat, Spread, Suit, TableView, Words
from fairdeal.core.cardwords import suit_word
from fairdeal.i18n import language

from ._words import N_, NO_WINNER, OUT, OUT_SEAT, PARTS, SEATS, WON, _, ngettext
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

#: Why a seat is out (English in the standing, which goes into the log; said in words on the table).
PAID = N_("paid with their whole pile")
TOOK = N_("their last card took its trick")


def _card(card: Card) -> str:
    """A card in the letters of the language spoken (``D♥`` in German)."""
    return card.text(lang=language())


def _suit(suit: Suit | None) -> str:
    """A suit's symbol and name in the language spoken: ``♠ spades``, ``♠ Pik``."""
    return _("not set yet") if suit is None else f"{suit.symbol} {suit_word(suit, language())}"


def _with_seat(message: str, seat: int) -> Words:
    """A translated message with a ``{seat}`` placeholder as words, the seat where it stands."""
    before, _mark, after = message.partition("{seat}")
    return tuple(w for w in (before.strip(), Seat(seat), after.strip()) if w != "")


def out_reason(state: SnatchState, seat: int) -> str:
    """Why ``seat`` is out, in English (the standing's words: translate where shown)."""
    return PAID if seat in state.paid else TOOK


def price_line(state: SnatchState) -> str:
    """The current snatch price: the next snatch's cost, and the cheap way back to the first suit."""
    first = first_suit(state)
    n = state.count + 1
    if first is not None and trump_of(state) is not first:
        return ngettext(
            "Snatch price: {n} card (1 card to bring back {suit})",
            "Snatch price: {n} cards (1 card to bring back {suit})",
            n,
        ).format(n=n, suit=first.symbol)
    return ngettext("Snatch price: {n} card", "Snatch price: {n} cards", n).format(n=n)


def _marks(state: SnatchState) -> dict[int, str]:
    """Each seat's remark: out, winner, last card."""
    t = state.table
    marks: dict[int, str] = {}
    for p in range(t.players):
        if p in state.out:
            marks[p] = _("out: {why}").format(why=_(out_reason(state, p)))
        elif p == state.winner:
            marks[p] = _("WINNER")
        elif t.size(pile(p)) == 0 and p in state.order:
            marks[p] = _("turned their last card")
    return marks


def standing(state: SnatchState) -> str:
    """The end of the game in one line: who won, who is out and why. English, for the log: the
    front ends say it in their language (:meth:`~fairdeal.plugins.snatch._words.SnatchCatalog.again`)."""
    parts = []
    if state.winner is not None:
        parts.append(WON.format(seat=f"seat {state.winner}", n=state.tricks))
    elif state.ended:
        parts.append(NO_WINNER.format(n=state.tricks))
    if state.out:
        seats = SEATS.join(OUT_SEAT.format(seat=f"seat {p}", why=out_reason(state, p)) for p in state.out)
        parts.append(OUT.format(seats=seats))
    return PARTS.join(parts)


class SnatchView:
    """Snatch!'s words and table, for :class:`~fairdeal.plugins.snatch.rules.SnatchGame`: said in the
    language spoken when they are asked for (the game's catalog); nothing here goes into the log."""

    def remarks(self, before: SnatchState, after: SnatchState) -> list[Words]:
        """Who took the trick just judged: the one thing no move tells."""
        if after.tricks > before.tricks and after.last_taker is not None:
            if after.table.viewer == after.last_taker:
                return [(_("You took the trick"),)]
            return [_with_seat(_("{seat} took the trick"), after.last_taker)]
        return []

    def describe(self, state: SnatchState, player: int, move: Move) -> str:
        """The move in words for the player choosing it."""
        t = state.table
        if move.action == "turn":
            n = t.size(pile(player))
            return ngettext(
                "turn the top card of your pile ({n} card left)",
                "turn the top card of your pile ({n} cards left)",
                n,
            ).format(n=n)
        card = t.top_card(TRICK)
        if move.action == "pass":
            if card is None:
                return _("do not snatch")
            return _("do not snatch: keep {suit} as trump").format(suit=_suit(trump_of(state)))
        if card is None:
            return _("snatch")
        cost = price(state, card.suit)
        left = t.size(pile(player))
        # Short: a button of the table, which must fit 80 columns with its key.
        said = {"card": _card(card), "trump": card.suit.symbol}
        if left == 0:
            return _(
                "snatch with {card} (trump {trump}): your last card, you are out with no victory"
            ).format(**said)
        if cost >= left:
            return ngettext(
                "snatch with {card} (trump {trump}): pay your whole pile ({n} card), out with no victory",
                "snatch with {card} (trump {trump}): pay your whole pile ({n} cards), out with no victory",
                left,
            ).format(n=left, **said)
        return ngettext(
            "snatch with {card} (trump {trump}): throw away {n} card unseen",
            "snatch with {card} (trump {trump}): throw away {n} cards unseen",
            cost,
        ).format(n=cost, **said)

    def move_parts(self, state: SnatchState, player: int, move: Move) -> MoveParts:
        """A button with a short verb (the table's key for it is a letter of the verb, in the
        language spoken: ``s`` schnappen, ``p`` passen): no card is picked, no pile aimed at."""
        verbs = {"turn": _("turn"), "snatch": _("snatch"), "pass": _("pass")}
        return MoveParts(None, None, verbs.get(move.action, move.action))

    def narrate(self, state: SnatchState, player: int, move: Move, name: str) -> str:
        """The move in words for everyone, after it was made (``state`` is the state before it).

        Told in the second person to the mover.
        """
        you = state.table.viewer == player
        t = state.table
        if move.action == "turn":
            if you:
                return _("You turned the top card of your pile")
            return _("{name} turned the top card of their pile").format(name=name)
        card = t.top_card(TRICK)
        if move.action == "pass":
            return _("You did not snatch") if you else _("{name} did not snatch").format(name=name)
        if card is None:
            return _("You snatched") if you else _("{name} snatched").format(name=name)
        cost = price(state, card.suit)
        left = t.size(pile(player))
        said = {"name": name, "card": _card(card), "suit": _suit(card.suit)}
        if left == 0:
            if you:
                text = _(
                    "You snatched with {card}: {suit} is trump; "
                    "it was your last card: you left the game with no victory"
                )
            else:
                text = _(
                    "{name} snatched with {card}: {suit} is trump; "
                    "it was their last card: they left the game with no victory"
                )
            return text.format(**said)
        if cost >= left:
            if you:
                text = ngettext(
                    "You snatched with {card}: {suit} is trump; "
                    "paid your whole pile ({n} card) and left the game with no victory",
                    "You snatched with {card}: {suit} is trump; "
                    "paid your whole pile ({n} cards) and left the game with no victory",
                    left,
                )
            else:
                text = ngettext(
                    "{name} snatched with {card}: {suit} is trump; "
                    "paid their whole pile ({n} card) and left the game with no victory",
                    "{name} snatched with {card}: {suit} is trump; "
                    "paid their whole pile ({n} cards) and left the game with no victory",
                    left,
                )
            return text.format(n=left, **said)
        if you:
            text = ngettext(
                "You snatched with {card}: {suit} is trump; threw away {n} card unseen",
                "You snatched with {card}: {suit} is trump; threw away {n} cards unseen",
                cost,
            )
        else:
            text = ngettext(
                "{name} snatched with {card}: {suit} is trump; threw away {n} card unseen",
                "{name} snatched with {card}: {suit} is trump; threw away {n} cards unseen",
                cost,
            )
        return text.format(n=cost, **said)

    def view(self, state: SnatchState, viewer: int | None) -> TableView:
        """The trick and the last trick in the middle with who turned each card; every seat's pile
        (whose turn it is comes from the game's next step)."""
        t = state.table
        tokens = t.tokens(TRICK)
        snatched = _("snatched")
        tags = tuple(snatched if tok in state.sideways else "" for tok in tokens)
        middle = [Pile.of(t, TRICK, _("Trick"), spread=Spread.FANNED, who=state.order, tags=tags)]
        if state.last_taker is not None and state.last_trick:
            taker = state.last_taker
            taken = (_("taken by you"),) if viewer == taker else _with_seat(_("taken by {seat}"), taker)
            middle.append(
                Pile.of(
                    t,
                    PLAYED,
                    _("Last trick"),
                    spread=Spread.FANNED,
                    tokens=state.last_trick,
                    who=state.last_order,
                    note=taken,
                )
            )
        marks = _marks(state)
        out = (
            _("aside {aside} · thrown {thrown} · played {played}").format(
                aside=t.size(ASIDE), thrown=t.size(THROWN), played=t.size(PLAYED)
            ),
        )
        regions = [Region(None, tuple(middle), (out,))]
        label = _("Pile")
        for p in range(t.players):
            notes: tuple[Words, ...] = ((marks[p],),) if p in marks else ()
            regions.append(Region(p, (Pile.of(t, pile(p), label),), notes))
        first = first_suit(state)
        trump = trump_of(state)
        facts: list[Words] = (
            [(_("trump {suit}").format(suit=_suit(trump)),)] if trump is not None else [(_("trump not set"),)]
        )
        cost = state.count + 1
        if first is not None and trump is not first:
            facts.append((_("first suit {suit}").format(suit=first.symbol),))
            costs = ngettext(
                "snatch costs {n} card (1 for {suit})", "snatch costs {n} cards (1 for {suit})", cost
            )
            facts.append((costs.format(n=cost, suit=first.symbol),))
        else:
            facts.append((ngettext("snatch costs {n} card", "snatch costs {n} cards", cost).format(n=cost),))
        return TableView(tuple(regions), tuple(facts))
