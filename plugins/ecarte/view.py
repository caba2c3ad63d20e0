"""Écarté in words and on the table: :class:`EcarteView`, the part of the game that says moves
and draws the table as one seat sees it (both front ends draw from :meth:`EcarteView.view`).

Nothing here shows a card the viewer does not know: narration, which everyone reads,
names only public cards. The words are the game's catalog's (:mod:`._words`), said in the
language of whoever reads them; a card is written by fairdeal in that language.
"""

from __future__ import annotations

import re

from fairdeal import KING, Move, MoveParts, Pile, Region, Seat, Spread, TableView, Words
from fairdeal.core.cardwords import suit_word
from fairdeal.core.tableview import default_parts
from fairdeal.i18n import language

from ._words import N_, _, ngettext
from .model import (
    TALON,
    TRICK,
    TRICKS,
    TURNUP,
    EcarteState,
    Phase,
    beats,
    deal_score,
    hand,
    limit,
    sort_key,
    won,
)


def _card_text(state: EcarteState, token: object, public_only: bool) -> str:
    t = state.table
    if not isinstance(token, int):
        return _("a card")
    card = t.card(token)
    if card is None or (public_only and not t.is_public(token)):
        return _("a card")
    return card.text(lang=language())


_NEWS = re.compile(r"seat (\d+) scored (\d+) points? for (.*)")


def news_words(state: EcarteState) -> Words:
    """The last points scored, short: ``Bob +1`` (the story says why; the table no longer shows
    it beside the scores, which say it already)."""
    m = _NEWS.fullmatch(state.news)
    if m is None:
        return (state.news,) if state.news else ()
    return (Seat(int(m.group(1))), f"+{m.group(2)}")


def _with_seat(said: str, seat: int) -> Words:
    """A translated message with one ``{seat}`` in it, as words: the seat where the language puts it."""
    before, _sep, after = said.partition("{seat}")
    return tuple(w for w in (before.strip(), Seat(seat), after.strip()) if w != "")


def _why(why: str, made: int) -> str:
    """What earned a deal's points (a :mod:`.model` message of why), in the reader's language."""
    return _(why).format(made=made)


def _trick_taken(state: EcarteState, player: int, token: object, played: str) -> str:
    """``played`` (the second card of a trick, said), then what it does: who takes the trick, and at
    the fifth who scores what and why (``played`` alone for a lead, or a card not yet known). The
    tricks so far are on the table, beside each player's name."""
    t = state.table
    if t.size(TRICK) != 1 or not isinstance(token, int):
        return played
    lead, card = t.card(t.tokens(TRICK)[0]), t.card(token)
    if lead is None or card is None:
        return played
    winner = player if beats(card, lead, state.trump) else 1 - player
    tricks = (state.tricks[0] + (winner == 0), state.tricks[1] + (winner == 1))
    if t.viewer == winner:
        taken = _("you take the trick")
    else:
        taken = _("{seat} takes the trick").format(seat=f"seat {winner}")
    if sum(tricks) < TRICKS:
        return _("{played} — {taken}").format(played=played, taken=taken)
    seat, points, why, made = deal_score(tricks, state.elder, state.declined, state.rules.penalty)
    n = ngettext("{n} point", "{n} points", points).format(n=points)
    if t.viewer == seat:
        scored = _("you score {points} for {why}").format(points=n, why=_why(why, made))
    else:
        scored = _("{seat} scores {points} for {why}").format(
            seat=f"seat {seat}", points=n, why=_why(why, made)
        )
    return _("{played} — {taken}; {scored}").format(played=played, taken=taken, scored=scored)


def hand_order(state: EcarteState, p: int) -> tuple[int, ...]:
    """Seat ``p``'s hand as the table shows it: trumps first, then by suit, high cards first."""
    t = state.table
    known = sorted(t.known(hand(p)), key=lambda tc: sort_key(tc[1], state.trump))
    unknown = [tok for tok in t.tokens(hand(p)) if t.card(tok) is None]
    return (*unknown, *(tok for tok, _ in known))


#: The buttons' verbs (a move without a card): the table keys each by its verb's first free letter.
VERBS = {
    "stand": N_("stand"),
    "propose": N_("propose"),
    "accept": N_("accept"),
    "refuse": N_("refuse"),
    "done": N_("done"),
    "announce": N_("announce"),
}


class EcarteView:
    """Écarté's words and table, for :class:`~fairdeal.plugins.ecarte.rules.Ecarte`."""

    def describe(self, state: EcarteState, player: int, move: Move) -> str:
        """The move in words for the player choosing it."""
        a = move.action
        arg = move.args[0] if move.args else None
        fresh = state.exchanges == 0
        if a == "stand":
            return _("stand: play this hand without any exchange") if fresh else _("stand: play this hand")
        if a == "propose":
            return _("propose an exchange of cards")
        if a == "accept":
            return _("accept the proposal")
        if a == "refuse":
            if fresh:
                return _("refuse the proposal: play these hands without any exchange")
            return _("refuse the proposal: play these hands")
        if a == "discard":
            return _("discard {card} (face down)").format(card=_card_text(state, arg, False))
        if a == "done":
            n = state.discarded
            if not n:
                return _("keep your hand (discard nothing)")
            return ngettext("done: draw {n} card", "done: draw {n} cards", n).format(n=n)
        if a == "announce":
            card = _card_text(state, arg, False)
            return _("announce the King of trumps ({card}): 1 point").format(card=card)
        if a == "play":
            return _("play {card}").format(card=_card_text(state, arg, False))
        return str(move)

    def narrate(self, state: EcarteState, player: int, move: Move, name: str) -> str:
        """The move in words for everyone, after it was made; it names public cards only.

        Told in the second person to the mover (``state`` is the narrating seat's own view).
        """
        you = state.table.viewer == player
        a = move.action
        arg = move.args[0] if move.args else None
        if a == "stand":
            return _("You stood: no exchange") if you else _("{name} stood: no exchange").format(name=name)
        if a == "propose":
            return (
                _("You proposed an exchange") if you else _("{name} proposed an exchange").format(name=name)
            )
        if a == "accept":
            if you:
                return _("You accepted the proposal")
            return _("{name} accepted the proposal").format(name=name)
        if a == "refuse":
            if you:
                return _("You refused the proposal")
            return _("{name} refused the proposal").format(name=name)
        if a == "discard":
            n = state.discarded + 1
            card = _card_text(state, arg, not you)
            if limit(state) == 1:  # the last card it may discard: it draws at once
                if you:
                    said = ngettext(
                        "You discarded {card} and drew {n} card", "You discarded {card} and drew {n} cards", n
                    )
                else:
                    said = ngettext(
                        "{name} discarded {card} and drew {n} card",
                        "{name} discarded {card} and drew {n} cards",
                        n,
                    )
            else:
                said = _("You discarded {card}") if you else _("{name} discarded {card}")
            return said.format(name=name, card=card, n=n)
        if a == "done":
            n = state.discarded
            if not n:
                return _("You kept your hand") if you else _("{name} kept their hand").format(name=name)
            if you:
                return ngettext("You drew {n} card", "You drew {n} cards", n).format(n=n)
            return ngettext("{name} drew {n} card", "{name} drew {n} cards", n).format(name=name, n=n)
        if a == "announce":
            card = _card_text(state, arg, True)
            if you:
                return _("You announced the King of trumps ({card}): 1 point").format(card=card)
            return _("{name} announced the King of trumps ({card}): 1 point").format(name=name, card=card)
        if a == "play":
            card = _card_text(state, arg, True)
            played = _("You played {card}") if you else _("{name} played {card}")
            return _trick_taken(state, player, arg, played.format(name=name, card=card))
        return f"{'You' if you else name}: {move}"

    def move_parts(self, state: EcarteState, player: int, move: Move) -> MoveParts:
        """The King's announcement is a button, on offer whatever card is picked (not a card's move
        found only once the King is picked); every other move is its card onto its pile. A button's
        verb is said in the reader's language."""
        if move.action == "announce":
            return MoveParts(None, None, _(VERBS["announce"]))
        parts = default_parts(state.table, move.args, move.action)
        if parts.card is None and parts.target is None and move.action in VERBS:
            return MoveParts(None, None, _(VERBS[move.action]))
        return parts

    def view(self, state: EcarteState, viewer: int | None) -> TableView:
        """The turn-up, the talon and the trick in the middle; each player's hand and tricks (whose
        turn it is comes from the game's next step). The headline says the deal and the target; the
        scores beside it, and the story, say who scored what."""
        t = state.table
        middle: list[Pile] = []
        turnup = t.top_card(TURNUP)
        note: Words = ()
        if turnup is not None:
            suit = turnup.suit
            trump = _("trump {symbol} {suit}").format(symbol=suit.symbol, suit=suit_word(suit, language()))
            note = (trump,)
            if turnup.rank == KING and state.dealer >= 0:
                if viewer == state.dealer:
                    note = (_("{trump}: 1 point to you").format(trump=trump),)
                else:
                    note = _with_seat(
                        _("{trump}: 1 point to {seat}").format(trump=trump, seat="{seat}"), state.dealer
                    )
        middle.append(Pile.of(t, TURNUP, _("Turn-up"), note=note))
        middle.append(Pile.of(t, TALON, _("Talon")))
        leader = 1 - state.actor if t.size(TRICK) == 1 else state.actor
        middle.append(
            Pile.of(t, TRICK, _("Trick"), spread=Spread.FANNED, who=(leader, 1 - leader)[: t.size(TRICK)])
        )
        w = state.last_winner
        if w is not None and t.size(won(w)) >= 2:
            last = t.tokens(won(w))[-2:]
            by: Words = (_("won by you"),) if viewer == w else _with_seat(_("won by {seat}"), w)
            middle.append(Pile.of(t, won(w), _("Last trick"), spread=Spread.FANNED, tokens=last, note=by))
        regions = [Region(None, tuple(middle))]
        playing = state.phase in (Phase.PLAY, Phase.NEXT, Phase.OVER) and state.trump is not None
        for p in (0, 1):
            notes: list[Words] = []
            if p == state.dealer:
                notes.append((_("dealer"),))
            if playing:
                notes.append((_("tricks {n}").format(n=state.tricks[p]),))
            if state.announced == p:
                notes.append((_("announced the King of trumps"),))
            order = hand_order(state, p)
            piles = (Pile.of(t, hand(p), _("Hand"), spread=Spread.FANNED, tokens=order),)
            regions.append(Region(p, piles, tuple(notes)))
        facts: list[Words] = [
            (_("deal {n}").format(n=state.deal_no),),
            (_("first to {target}").format(target=state.rules.target),),
        ]
        if state.rules.trump_when_void:
            facts.append((_("must trump when void"),))
        over: Words = ()
        if state.winner is not None:
            if viewer == state.winner:
                over = (_("Game over: You won"),)
            else:
                over = _with_seat(_("Game over: {seat} won"), state.winner)
        return TableView(
            tuple(regions), tuple(facts), scores=state.scores, score_name=_("points"), status=over
        )
