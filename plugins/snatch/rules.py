"""The Snatch! rules engine (RULES.md, "Snatch! — 2 to 10 players").

Flow of one trick: ``Decide(p)`` with the single move ``turn`` (the top card of p's pile goes
to the PUBLIC trick zone; the core reveals it with every seat's share); then, once that card
is known and only if it may snatch, ``Decide(p)`` again with ``snatch`` / ``pass``; when every
active player has turned a card, ``Auto`` judges the trick. The first opener is a
``Chance(players)``. Every decision depends only on public cards and pile counts, so every
view agrees on every step.
"""

from __future__ import annotations

from fairdeal import (
    Auto,
    Bot,
    Card,
    Chance,
    Config,
    Decide,
    Game,
    Move,
    Over,
    Result,
    Search,
    Step,
    Table,
    Zone,
    snatch_32,
)

from ._words import CATALOG, N_, _, pgettext
from .bots import NeverSnatch, Shrewd
from .state import (
    ASIDE,
    PASS,
    PLAYED,
    SNATCH,
    THROWN,
    TRICK,
    TURN,
    SnatchState,
    active,
    decks_for,
    next_after,
    next_to_turn,
    pile,
    price,
    snatch_open,
    trick_cards,
    trump_of,
)
from .trick import strongest
from .view import SnatchView, standing


class SnatchGame(SnatchView, Game[SnatchState]):
    """Snatch!: turn cards blind, snatch trump with your weakest card, be first to run out."""

    name = "snatch"
    title = "Snatch!"
    catalog = CATALOG
    summary = N_("Turn your hidden pile card by card; snatch trump at a rising price; empty it first.")
    min_players = 2
    max_players = 10
    api = 2
    bots = (
        Bot("shrewd", "snatches when the price leaves it cards and the trick is safe", Shrewd),
        Bot("never-snatch", "turns its cards and never snatches", NeverSnatch),
    )
    max_moves = 400  # at most 64 turns and as many snatch choices
    search = Search(tree=False)  # the flat search: what bench/bots.py measured for Snatch!

    def deck(self, config: Config) -> tuple[Card, ...]:
        return snatch_32(decks_for(config.players))

    def zones(self, config: Config) -> list[Zone]:
        piles = [Zone.hidden(pile(p), "pile", p) for p in range(config.players)]
        return [
            *piles,
            Zone.hidden(ASIDE, "set aside"),  # the deck is shuffled here; what the deal leaves stays
            Zone.public(TRICK, "the trick"),
            Zone.public(PLAYED, "finished tricks"),
            Zone.hidden(THROWN, "thrown away"),
        ]

    def setup(self, config: Config, table: Table) -> SnatchState:
        n = config.players
        for _round in range(table.size(ASIDE) // n):
            for p in range(n):
                table.deal(ASIDE, pile(p))
        return SnatchState(table)

    # -- what happens next ---------------------------------------------------------------------------
    def next_step(self, state: SnatchState) -> Step:
        """Opener chance, then per card: a turn, a snatch offer if the card may snatch, a judging."""
        if state.opener < 0:
            return Chance(state.table.players, "who opens the first trick")
        if state.winner is not None or state.ended:
            return Over(self.result(state))
        # What the seat is to do, after its name ("Bob may snatch"); the seat's own view says it
        # after "Your turn:" too, so a language may word it apart (the English strips its "to ").
        mine = state.table.viewer
        if snatch_open(state):
            snatcher = state.order[-1]
            return Decide(
                snatcher, pgettext("your turn", "may snatch") if snatcher == mine else _("may snatch")
            )
        seat = next_to_turn(state)
        if seat is None:
            return Auto()
        return Decide(seat, pgettext("your turn", "to turn a card") if seat == mine else _("to turn a card"))

    def on_chance(self, state: SnatchState, value: int) -> SnatchState:
        return state.copy().but(opener=value)

    def legal_moves(self, state: SnatchState, player: int) -> list[Move]:
        """``turn`` on your turn; ``snatch`` or ``pass`` right after turning a card that may snatch."""
        return [SNATCH, PASS] if snatch_open(state) else [TURN]

    # -- moves --------------------------------------------------------------------------------------
    def apply(self, state: SnatchState, player: int, move: Move) -> SnatchState:
        """Turn the top card (known from the next call on), snatch (paying the price), or pass."""
        s = state.copy()
        t = s.table
        if move == TURN:
            token = t.deal(pile(player), TRICK)[0]
            return s.but(order=(*s.order, player), window=True, first=token if s.first is None else s.first)
        if move == PASS:
            return s.but(window=False)
        if move != SNATCH:
            raise ValueError(f"not a Snatch! move: {move}")
        snatched = t.top(TRICK)
        card = t.card(snatched)
        assert snatched is not None and card is not None, "a snatching card is public"
        cost = price(s, card.suit)
        left = t.size(pile(player))
        out, paid = s.out, s.paid
        if cost >= left:  # the whole pile goes, and the player with it
            t.deal(pile(player), THROWN, left)
            out, paid = (*out, player), paid | {player}
        else:
            t.deal(pile(player), THROWN, cost)
        return s.but(
            trump=card.suit, count=cost, sideways=s.sideways | {snatched}, window=False, out=out, paid=paid
        )

    def advance(self, state: SnatchState) -> SnatchState:
        """Judge the complete trick: who takes it, who emptied, who wins or is out, who opens."""
        s = state.copy()
        t = s.table
        cards = trick_cards(s)
        assert cards, "a complete trick holds known cards"
        tokens = t.tokens(TRICK)
        best = strongest(cards, trump_of(s))
        taker = s.order[best]
        for token in tokens:
            t.move(token, PLAYED)
        out = list(s.out)
        emptied = [p for p in s.order if p not in out and t.size(pile(p)) == 0]
        done = s.but(
            order=(),
            sideways=frozenset(),
            window=False,
            tricks=s.tricks + 1,
            last_taker=taker,
            last_token=tokens[best],
            last_trick=tokens,
            last_order=s.order,
        )
        winner = next((p for p in emptied if p != taker), None)
        if winner is not None:
            return done.but(winner=winner)
        if taker in emptied:
            out.append(taker)
        done = done.but(out=tuple(out))
        if len(active(done)) < 2:
            # English, for the log (the result's reason): front ends say it again in their language.
            return done.but(ended=N_("fewer than two players remain and nobody has won"))
        opener = taker if taker not in out else next_after(done, taker)
        assert opener is not None
        return done.but(opener=opener)

    def departed(self, state: SnatchState) -> frozenset[int]:
        """Seats that are out: they publish their secret and the game goes on without them."""
        return frozenset(state.out)

    # -- results and words --------------------------------------------------------------------------
    def result(self, state: SnatchState) -> Result:
        """The winner scores 1, everybody else 0; no winner: all 0."""
        n = state.table.players
        if state.winner is not None:
            w = state.winner
            scores = tuple(1 if p == w else 0 for p in range(n))
            return Result(
                w,
                scores,
                N_("{seat} emptied the pile and the last card did not take its trick").format(
                    seat=f"seat {w}"
                ),
                standing(state),
            )
        return Result(None, (0,) * n, state.ended, standing(state))


__all__ = ["PASS", "SNATCH", "TURN", "SnatchGame", "decks_for"]
