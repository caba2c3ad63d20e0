"""Spite & Malice in words and on the table: :class:`SpiteView`, the part of the game that
describes moves for the mover, narrates them for everyone and draws the table as one viewer
sees it (both front ends draw from :meth:`SpiteView.view`); and the match standing."""

from __future__ import annotations

from fairdeal import (
    KING,
    Move,
    MoveWords,
    Pile,
    Region,
    Seat,
    Spread,
    TableView,
    Words,
    rank_text,
    rank_word,
)

from .layout import CENTRE_INDEX, CENTRES, COMPLETE, PLAYERS, SIDE_INDEX, SIDES, STOCK, hand, payoff
from .state import Phase, SpiteState


def _source(state: SpiteState, token: int, owner: str | None) -> str:
    """Where a played card comes from: ``from your hand`` (or ``from hand`` when ``owner`` is None)."""
    zone = state.table.zone_of(token) or ""
    whose = f"{owner} " if owner else ""
    if zone.startswith("payoff"):
        return f"from {whose}payoff pile" if owner else "from payoff"
    if zone in SIDE_INDEX:
        return (
            f"from {whose}side stack {SIDE_INDEX[zone][1] + 1}"
            if owner
            else f"from side {SIDE_INDEX[zone][1] + 1}"
        )
    return f"from {whose}hand"


def _play_words(state: SpiteState, move: Move, owner: str | None) -> tuple[str, str]:
    """(card text, the rest) of a play, e.g. ``K♠``, ``from their hand onto centre 2 as a 7``.

    ``owner`` None gives the short form for the move list: ``from hand to centre 2 as a 7``.
    """
    t = state.table
    token, dest = int(move.args[0]), str(move.args[1])
    card = t.card(token)
    text = card.text() if card is not None else "a card"
    value = t.size(dest) + 1
    onto = "onto" if owner else "to"
    rest = f"{_source(state, token, owner)} {onto} centre {CENTRE_INDEX.get(dest, 0) + 1}"
    if card is not None and card.rank == KING:
        rest += f" as {_article(value)}"
    if value == COMPLETE:
        rest += ", completing it"
    zone = t.zone_of(token) or ""
    if zone.startswith("payoff") and t.size(zone) == 1:
        rest += " — the last payoff card"
    return text, rest


def _article(rank: int) -> str:
    word = rank_word(rank)
    return f"an {word}" if word[0] in "A8" else f"a {word}"


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
        return "takes A"
    if value >= COMPLETE:
        return "complete"
    king = f"K={rank_text(value)}, " if top.rank == KING else ""
    return f"{king}takes {rank_text(value + 1)}"


def standing(state: SpiteState) -> str:
    """The match in one line: the games and the points."""
    games = "; ".join(
        f"game {r.number}: " + ("drawn" if r.winner is None else f"seat {r.winner} +{r.points}")
        for r in state.history
    )
    a, b = state.scores
    n = len(state.history)
    return f"seat 0 {a}, seat 1 {b} after {n} game{'' if n == 1 else 's'} ({games})"


class SpiteView:
    """Spite & Malice's words and table, for :class:`~fairdeal.plugins.spite_malice.rules.SpiteMalice`."""

    def remarks(self, before: SpiteState, after: SpiteState) -> list[MoveWords]:
        """A completed centre stack that went back into the stock: the one thing no move tells."""
        return [
            (f"the completed stack of centre {i + 1} went back into the stock, to be shuffled",)
            for i, c in enumerate(CENTRES)
            if before.table.size(c) and not after.table.size(c) and after.phase is Phase.PLAY
        ]

    def describe(self, state: SpiteState, player: int, move: Move) -> str:
        """The move in words for the player choosing it, short enough for two columns of moves.

        Equivalent places read the same (``to an empty centre``), so a list of moves can show
        each choice once.
        """
        if move.action == "play":
            if _empty_centre(state, str(move.args[1])):
                token = int(move.args[0])
                card = state.table.card(token)
                text = card.text() if card is not None else "a card"
                rest = f"{_source(state, token, None)} to an empty centre"
                zone = state.table.zone_of(token) or ""
                if zone.startswith("payoff") and state.table.size(zone) == 1:
                    rest += " — the last payoff card"
                return f"play {text} {rest}"
            text, rest = _play_words(state, move, None)
            return f"play {text} {rest}"
        card = state.table.card(int(move.args[0]))
        text = card.text() if card is not None else "a card"
        dest = str(move.args[1])
        if state.table.size(dest) == 0:
            return f"end turn: {text} on an empty side stack"
        where = SIDE_INDEX.get(dest, (0, 0))[1] + 1
        return f"end turn: {text} on side {where}"

    def narrate(self, state: SpiteState, player: int, move: Move, name: str) -> str:
        """The move in words for everyone, after it was made; in the second person for the mover."""
        you = state.table.viewer == player
        who, their = ("You", "your") if you else (name, "their")
        if move.action == "play":
            text, rest = _play_words(state, move, their)
            return f"{who} played {text} {rest}"
        card = state.table.card(int(move.args[0]))
        text = card.text() if card is not None else "a card"
        where = SIDE_INDEX.get(str(move.args[1]), (0, 0))[1] + 1
        return f"{who} put {text} on side stack {where} and ended {their} turn"

    def view(self, state: SpiteState, viewer: int | None) -> TableView:
        """The table as regions of piles: each player's payoff, hand and side stacks; the centre and
        stock (whose turn it is comes from the game's next step)."""
        t = state.table
        middle = Region(
            None,
            (
                *(
                    Pile.of(t, c, f"Centre {i + 1}", target=True, note=(_centre_note(state, c),))
                    for i, c in enumerate(CENTRES)
                ),
                Pile.of(t, STOCK, "Stock"),
            ),
        )
        regions = [middle]
        for p in range(PLAYERS):
            piles = [
                Pile.of(t, payoff(p), "Payoff"),
                Pile.of(t, hand(p), "Hand", spread=Spread.FANNED, tokens=hand_order(state, p)),
                *(
                    Pile.of(t, z, f"Side {i + 1}", spread=Spread.FANNED, target=True)
                    for i, z in enumerate(SIDES[p])
                ),
            ]
            regions.append(Region(p, tuple(piles)))
        facts: list[Words] = [(f"game {state.game}",), (f"match to {state.target}",)]
        if state.history:
            last = state.history[-1]
            if last.winner is None:
                facts.append((f"game {last.number} drawn",))
            else:
                facts.append((f"game {last.number}:", Seat(last.winner), f"+{last.points}"))
        return TableView(tuple(regions), tuple(facts), scores=state.scores)
