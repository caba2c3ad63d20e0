"""Spite & Malice in words and on the table: :class:`SpiteView`, the part of the game that
describes moves for the mover, narrates them for everyone and draws the table as one viewer
sees it (both front ends draw from :meth:`SpiteView.view`); and the match standing."""

from __future__ import annotations

from fairdeal import (
    ACE,
    JACK,
    KING,
    QUEEN,
    Card,
    Move,
    MoveWords,
    Pile,
    Region,
    Seat,
    Spread,
    TableView,
    Words,
    rank_text,
)
from fairdeal.core.cardwords import language_of
from fairdeal.i18n import language

from ._words import GAME_DRAWN, GAME_WON, JOIN, STANDING, _, seat
from .layout import CENTRE_INDEX, CENTRES, COMPLETE, PLAYERS, SIDE_INDEX, SIDES, STOCK, hand, payoff
from .state import Phase, SpiteState


def _lang() -> str:
    return language()


def _card(card: Card | None) -> str:
    """A card as the reader's language writes it (``D♥`` in German), ``a card`` when unknown."""
    return card.text(lang=_lang()) if card is not None else _("a card")


def _rank(rank: int) -> str:
    """A rank as the reader's language letters it: ``A``, ``7``, ``D`` (German Dame), ``Т`` (Russian Ace)."""
    words = language_of(_lang())
    return words.letters.get(rank, rank_text(rank)) if words is not None else rank_text(rank)


def _source(state: SpiteState, token: int, owner: str | None) -> str:
    """Where a played card comes from: ``from your hand``, ``from their hand`` (``owner`` is
    ``your`` or ``their``), or ``from hand`` when ``owner`` is None."""
    zone = state.table.zone_of(token) or ""
    mine = owner == "your"
    if zone.startswith("payoff"):
        if owner is None:
            return _("from payoff")
        return _("from your payoff pile") if mine else _("from their payoff pile")
    if zone in SIDE_INDEX:
        n = SIDE_INDEX[zone][1] + 1
        if owner is None:
            return _("from side {side}").format(side=n)
        said = _("from your side stack {side}") if mine else _("from their side stack {side}")
        return said.format(side=n)
    if owner is None:
        return _("from hand")
    return _("from your hand") if mine else _("from their hand")


def _as_king(value: int) -> str:
    """The message of a King played as the card of ``value``: ``{move} as a 7``."""
    if value == ACE:
        return _("{move} as an Ace")
    if value == JACK:
        return _("{move} as a Jack")
    if value == QUEEN:
        return _("{move} as a Queen")
    if value == 8:
        return _("{move} as an {rank}")
    return _("{move} as a {rank}")


def _after(state: SpiteState, token: int, dest: str, move: str) -> str:
    """``move`` (a play onto ``dest``), with what else it does: the value a King takes there,
    a stack it completes, the last card of a payoff pile."""
    t = state.table
    card = t.card(token)
    value = t.size(dest) + 1
    if card is not None and card.rank == KING:
        move = _as_king(value).format(move=move, rank=value)
    if value == COMPLETE:
        move = _("{move}, completing it").format(move=move)
    zone = t.zone_of(token) or ""
    if zone.startswith("payoff") and t.size(zone) == 1:
        move = _("{move} — the last payoff card").format(move=move)
    return move


def _empty_centre(state: SpiteState, dest: str) -> bool:
    return state.table.size(dest) == 0


def hand_order(state: SpiteState, p: int) -> tuple[int, ...]:
    """The tokens of seat ``p``'s hand as the table shows them: known cards by rank, unknown last."""
    t = state.table
    known = sorted(t.known(hand(p)), key=lambda tc: (tc[1].rank, tc[1].suit.value, tc[1].copy))
    unknown = [tok for tok in t.tokens(hand(p)) if t.card(tok) is None]
    return (*(tok for tok, _ in known), *unknown)


def _centre_note(state: SpiteState, zone: str) -> str:
    t = state.table
    top = t.top_card(zone)
    value = t.size(zone)
    if top is None:
        return _("takes {rank}").format(rank=_rank(ACE))
    if value >= COMPLETE:
        return _("complete")
    if top.rank == KING:
        return _("{king}={rank}, takes {next}").format(
            king=_rank(KING), rank=_rank(value), next=_rank(value + 1)
        )
    return _("takes {rank}").format(rank=_rank(value + 1))


def standing(state: SpiteState) -> str:
    """The match in one line, in English for the log: the points, the games and each game."""
    games = [
        GAME_DRAWN.english(number=r.number)
        if r.winner is None
        else GAME_WON.english(number=r.number, seat=seat(r.winner), points=r.points)
        for r in state.history
    ]
    joined = games[0] if games else ""
    for game in games[1:]:
        joined = JOIN.format(games=joined, game=game)
    a, b = state.scores
    return STANDING.english(first=seat(0), a=a, second=seat(1), b=b, n=len(state.history), games=joined)


class SpiteView:
    """Spite & Malice's words and table, for :class:`~fairdeal.plugins.spite_malice.rules.SpiteMalice`."""

    def remarks(self, before: SpiteState, after: SpiteState) -> list[MoveWords]:
        """A completed centre stack that went back into the stock: the one thing no move tells."""
        return [
            (
                _("the completed stack of centre {centre} went back into the stock, to be shuffled").format(
                    centre=i + 1
                ),
            )
            for i, c in enumerate(CENTRES)
            if before.table.size(c) and not after.table.size(c) and after.phase is Phase.PLAY
        ]

    def describe(self, state: SpiteState, player: int, move: Move) -> str:
        """The move in words for the player choosing it, short enough for two columns of moves.

        Equivalent places read the same (``to an empty centre``), so a list of moves can show
        each choice once.
        """
        t = state.table
        token, dest = int(move.args[0]), str(move.args[1])
        card = _card(t.card(token))
        if move.action == "play":
            source = _source(state, token, None)
            if _empty_centre(state, dest):
                said = _("play {card} {source} to an empty centre").format(card=card, source=source)
                zone = t.zone_of(token) or ""
                if zone.startswith("payoff") and t.size(zone) == 1:
                    said = _("{move} — the last payoff card").format(move=said)
                return said
            centre = CENTRE_INDEX.get(dest, 0) + 1
            said = _("play {card} {source} to centre {centre}").format(
                card=card, source=source, centre=centre
            )
            return _after(state, token, dest, said)
        if t.size(dest) == 0:
            return _("end turn: {card} on an empty side stack").format(card=card)
        where = SIDE_INDEX.get(dest, (0, 0))[1] + 1
        return _("end turn: {card} on side {side}").format(card=card, side=where)

    def narrate(self, state: SpiteState, player: int, move: Move, name: str) -> str:
        """The move in words for everyone, after it was made; in the second person for the mover."""
        t = state.table
        you = t.viewer == player
        token, dest = int(move.args[0]), str(move.args[1])
        card = _card(t.card(token))
        if move.action == "play":
            source = _source(state, token, "your" if you else "their")
            centre = CENTRE_INDEX.get(dest, 0) + 1
            if you:
                said = _("You played {card} {source} onto centre {centre}")
            else:
                said = _("{name} played {card} {source} onto centre {centre}")
            said = said.format(name=name, card=card, source=source, centre=centre)
            return _after(state, token, dest, said)
        where = SIDE_INDEX.get(dest, (0, 0))[1] + 1
        if you:
            said = _("You put {card} on side stack {side} and ended your turn")
        else:
            said = _("{name} put {card} on side stack {side} and ended their turn")
        return said.format(name=name, card=card, side=where)

    def view(self, state: SpiteState, viewer: int | None) -> TableView:
        """The table as regions of piles: each player's payoff, hand and side stacks; the centre and
        stock (whose turn it is comes from the game's next step)."""
        t = state.table
        middle = Region(
            None,
            (
                *(
                    Pile.of(
                        t,
                        c,
                        _("Centre {centre}").format(centre=i + 1),
                        target=True,
                        note=(_centre_note(state, c),),
                    )
                    for i, c in enumerate(CENTRES)
                ),
                Pile.of(t, STOCK, _("Stock")),
            ),
        )
        regions = [middle]
        for p in range(PLAYERS):
            piles = [
                Pile.of(t, payoff(p), _("Payoff")),
                Pile.of(t, hand(p), _("Hand"), spread=Spread.FANNED, tokens=hand_order(state, p)),
                *(
                    Pile.of(t, z, _("Side {side}").format(side=i + 1), spread=Spread.FANNED, target=True)
                    for i, z in enumerate(SIDES[p])
                ),
            ]
            regions.append(Region(p, tuple(piles)))
        facts: list[Words] = [
            (_("game {number}").format(number=state.game),),
            (_("match to {target}").format(target=state.target),),
        ]
        if state.history:
            last = state.history[-1]
            if last.winner is None:
                facts.append((_("game {number} drawn").format(number=last.number),))
            else:
                facts.append(
                    (_("game {number}:").format(number=last.number), Seat(last.winner), f"+{last.points}")
                )
        return TableView(tuple(regions), tuple(facts), scores=state.scores)
