"""Écarté in words and on the table: :class:`EcarteView`, the part of the game that says moves
and draws the table as one seat sees it (both front ends draw from :meth:`EcarteView.view`).

Nothing here shows a card the viewer does not know: narration, which everyone reads,
names only public cards.
"""

from __future__ import annotations

import re

from fairdeal import KING, Move, MoveParts, Pile, Region, Seat, Spread, TableView, Words
from fairdeal.core.tableview import default_parts

from .model import (
    TALON,
    TRICK,
    TRICKS,
    TURNUP,
    EcarteState,
    Phase,
    beats,
    deal_points,
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


_NEWS = re.compile(r"seat (\d+) scored (\d+) points? for (.*)")


def news_words(state: EcarteState) -> Words:
    """The last points scored, short for the headline: ``Bob +1`` (the story says why)."""
    m = _NEWS.fullmatch(state.news)
    if m is None:
        return (state.news,) if state.news else ()
    return (Seat(int(m.group(1))), f"+{m.group(2)}")


def _seat(state: EcarteState, seat: int, start: bool = False) -> str:
    """``seat`` for the narrating viewer: ``you`` (``You``), or ``seat N`` (which the front end
    writes as the seat's name)."""
    if state.table.viewer == seat:
        return "You" if start else "you"
    return f"seat {seat}"


def _trick_taken(state: EcarteState, player: int, token: object) -> str:
    """What the second card of a trick does, said after it: who takes the trick, and at the fifth
    who scores what and why (empty for a lead, or a card not yet known). The tricks so far are on
    the table, beside each player's name."""
    t = state.table
    if t.size(TRICK) != 1 or not isinstance(token, int):
        return ""
    lead, card = t.card(t.tokens(TRICK)[0]), t.card(token)
    if lead is None or card is None:
        return ""
    winner = player if beats(card, lead, state.trump) else 1 - player
    tricks = (state.tricks[0] + (winner == 0), state.tricks[1] + (winner == 1))
    takes = "take" if t.viewer == winner else "takes"
    text = f" — {_seat(state, winner)} {takes} the trick"
    if sum(tricks) < TRICKS:
        return text
    seat, points, why = deal_points(tricks, state.elder, state.declined, state.rules.penalty)
    scores = "score" if t.viewer == seat else "scores"
    return f"{text}; {_seat(state, seat)} {scores} {_points(points)} for {why}"


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def _count(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def hand_order(state: EcarteState, p: int) -> tuple[int, ...]:
    """Seat ``p``'s hand as the table shows it: trumps first, then by suit, high cards first."""
    t = state.table
    known = sorted(t.known(hand(p)), key=lambda tc: sort_key(tc[1], state.trump))
    unknown = [tok for tok in t.tokens(hand(p)) if t.card(tok) is None]
    return (*unknown, *(tok for tok, _ in known))


class EcarteView:
    """Écarté's words and table, for :class:`~fairdeal.plugins.ecarte.rules.Ecarte`."""

    def describe(self, state: EcarteState, player: int, move: Move) -> str:
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

    def narrate(self, state: EcarteState, player: int, move: Move, name: str) -> str:
        """The move in words for everyone, after it was made; it names public cards only.

        Told in the second person to the mover (``state`` is the narrating seat's own view).
        """
        you = state.table.viewer == player
        who, their = ("You", "your") if you else (name, "their")
        a = move.action
        arg = move.args[0] if move.args else None
        if a == "stand":
            return f"{who} stood: no exchange"
        if a == "propose":
            return f"{who} proposed an exchange"
        if a == "accept":
            return f"{who} accepted the proposal"
        if a == "refuse":
            return f"{who} refused the proposal"
        if a == "discard":
            drawn = limit(state) == 1  # the last card it may discard: it draws at once
            n = state.discarded + 1
            card = _card_text(state, arg, not you)
            return f"{who} discarded {card}" + (f" and drew {_count(n)}" if drawn else "")
        if a == "done":
            n = state.discarded
            return f"{who} drew {_count(n)}" if n else f"{who} kept {their} hand"
        if a == "announce":
            card = _card_text(state, arg, True)
            return f"{who} announced the King of trumps ({card}): 1 point"
        if a == "play":
            return f"{who} played {_card_text(state, arg, True)}" + _trick_taken(state, player, arg)
        return f"{who}: {move}"

    def move_parts(self, state: EcarteState, player: int, move: Move) -> MoveParts:
        """The King's announcement is a button, on offer whatever card is picked (not a card's move
        found only once the King is picked); every other move is its card onto its pile."""
        if move.action == "announce":
            return MoveParts(None, None, "announce")
        return default_parts(state.table, move.args, move.action)

    def view(self, state: EcarteState, viewer: int | None) -> TableView:
        """The turn-up, the talon and the trick in the middle; each player's hand and tricks (whose
        turn it is comes from the game's next step)."""
        t = state.table
        middle: list[Pile] = []
        turnup = t.top_card(TURNUP)
        note: Words = (f"trump {turnup.suit.symbol} {turnup.suit.word}",) if turnup is not None else ()
        if turnup is not None and turnup.rank == KING and state.dealer >= 0:
            note = (f"{note[0]}: 1 point to", Seat(state.dealer))
        middle.append(Pile.of(t, TURNUP, "Turn-up", note=note))
        middle.append(Pile.of(t, TALON, "Talon"))
        leader = 1 - state.actor if t.size(TRICK) == 1 else state.actor
        middle.append(
            Pile.of(t, TRICK, "Trick", spread=Spread.FANNED, who=(leader, 1 - leader)[: t.size(TRICK)])
        )
        w = state.last_winner
        if w is not None and t.size(won(w)) >= 2:
            last = t.tokens(won(w))[-2:]
            middle.append(
                Pile.of(t, won(w), "Last trick", spread=Spread.FANNED, tokens=last, note=("won by", Seat(w)))
            )
        regions = [Region(None, tuple(middle))]
        playing = state.phase in (Phase.PLAY, Phase.NEXT, Phase.OVER) and state.trump is not None
        for p in (0, 1):
            notes: list[Words] = []
            if p == state.dealer:
                notes.append(("dealer",))
            if playing:
                notes.append((f"tricks {state.tricks[p]}",))
            if state.announced == p:
                notes.append(("announced the King of trumps",))
            piles = (Pile.of(t, hand(p), "Hand", spread=Spread.FANNED, tokens=hand_order(state, p)),)
            regions.append(Region(p, piles, tuple(notes)))
        facts: list[Words] = [(f"deal {state.deal_no}",), (f"first to {state.rules.target}",)]
        if state.rules.trump_when_void:
            facts.append(("must trump when void",))
        news = news_words(state)
        if news:
            facts.append(("last:", *news))
        over: Words = ("Game over:", Seat(state.winner), "won") if state.winner is not None else ()
        return TableView(tuple(regions), tuple(facts), scores=state.scores, status=over)
