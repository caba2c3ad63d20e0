"""Crazy Eights, a complete fairdeal game plugin in one module.

The plugin is this module: the entry point ``crazy-eights`` in the ``fairdeal``
group points here, and the two hook implementations below register the game and
a bot for it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from fairdeal import (
    SUITS,
    Auto,
    BotSpec,
    Card,
    Chance,
    Config,
    Decide,
    FaceDown,
    Game,
    GameState,
    Line,
    Move,
    Option,
    Over,
    Pile,
    Region,
    Result,
    Seat,
    Spread,
    Step,
    Suit,
    Table,
    TableView,
    Visibility,
    Words,
    Zone,
    hookimpl,
    standard_52,
)

RULES = """\
Crazy Eights — 2 to 5 players, one 52-card deck.

Deal: 7 cards each with two players, 5 each with more. The next card is turned
face up to start the discard pile; the rest is the stock, face down. Who plays
first is a joint random choice; play goes on in seat order.

Your turn: play one card onto the discard pile that matches the top card's rank
or suit. An 8 is wild: you may play it on anything and you name the suit the
next player must match. If you cannot play, you draw one card from the stock
and try again; you never draw while you can play. When the stock runs out, the
discard pile except its top card is shuffled once to make a new stock. When
there is nothing left to draw and you cannot play, you pass.

End: the first player to empty their hand wins and scores the cards left in the
other hands: 50 for an 8, 10 for a King, Queen or Jack, 1 for an Ace, the face
value for the rest. If every player passes in a row the game is blocked: the
player holding the fewest points wins and scores the difference to each other
hand; equal lowest hands: no winner.

Option: hand=N deals N cards each instead (1 to 10; 0 keeps the rule above).
"""


def points(card: Card) -> int:
    if card.rank == 8:
        return 50
    if card.rank >= 11:
        return 10
    return card.rank


@dataclass(frozen=True)
class EightsState(GameState):
    turn: int = -1  # -1 until the first player is chosen
    called: Suit | None = None  # the suit named with the last 8
    passes: int = 0
    reshuffled: bool = False
    winner: int | None = None
    blocked: bool = False


def hand(p: int) -> str:
    return f"hand{p}"


class CrazyEights(Game[EightsState]):
    name = "crazy-eights"
    title = "Crazy Eights"
    summary = "Match rank or suit, eights are wild; empty your hand first (example plugin)."
    min_players = 2
    max_players = 5
    options = (
        Option("hand", 0, "cards dealt to each player (0: 7 for two players, else 5)", minimum=0, maximum=10),
    )
    default_bot = "greedy"
    max_moves = 2_000

    def rules_text(self) -> str:
        return RULES

    def deck(self, config: Config) -> Sequence[Card]:
        return standard_52()

    def zones(self, config: Config) -> Sequence[Zone]:
        hands = [Zone(hand(p), Visibility.OWNER, p, "hand") for p in range(config.players)]
        return [
            *hands,
            Zone("stock", Visibility.HIDDEN, title="stock"),
            Zone("discard", Visibility.PUBLIC, title="discard pile"),
            Zone("held", Visibility.PUBLIC, title="top card, held aside during the reshuffle"),
        ]

    def deck_zone(self, config: Config) -> str:
        return "stock"

    def setup(self, config: Config, table: Table) -> EightsState:
        size = config["hand"] or (7 if config.players == 2 else 5)
        for _ in range(size):
            for p in range(config.players):
                table.deal("stock", hand(p))
        table.deal("stock", "discard")  # PUBLIC: the core reveals it to everyone
        return EightsState(table)

    # -- what happens next -------------------------------------------------------------------------
    def next_step(self, state: EightsState) -> Step:
        n = state.table.players
        if state.turn < 0:
            return Chance(n, "first player")
        if state.winner is not None or state.blocked:
            return Over(self._result(state))
        if state.table.size("stock") == 0 and self._can_reshuffle(state):
            return Auto()
        return Decide(state.turn)

    def on_chance(self, state: EightsState, value: int) -> EightsState:
        return replace(state, turn=value)

    def advance(self, state: EightsState) -> EightsState:
        """The stock ran out: shuffle the discard pile, all but its top card, into a new stock."""
        s = state.copy()
        t = s.table
        top = t.top("discard")
        assert top is not None
        t.move(top, "held")
        t.shuffle_together(["discard"], "stock")
        t.move(top, "discard")
        return replace(s, reshuffled=True)

    # -- moves ---------------------------------------------------------------------------------------
    def _target(self, state: EightsState) -> tuple[int | None, Suit | None]:
        top = state.table.top_card("discard")
        if top is None:
            return None, None
        return top.rank, state.called or top.suit

    def _playable(self, state: EightsState, p: int) -> list[tuple[int, Card]]:
        rank, suit = self._target(state)
        return [
            (t, c) for t, c in state.table.known(hand(p)) if c.rank == 8 or c.rank == rank or c.suit == suit
        ]

    def _can_reshuffle(self, state: EightsState) -> bool:
        return not state.reshuffled and state.table.size("discard") > 1

    def legal_moves(self, state: EightsState, player: int) -> Sequence[Move]:
        step = self.next_step(state)
        if not isinstance(step, Decide) or step.player != player:
            return []
        moves: list[Move] = []
        for token, card in self._playable(state, player):
            if card.rank == 8:
                moves.extend(Move("eight", (token, s.value)) for s in SUITS)
            else:
                moves.append(Move("play", (token,)))
        if moves:
            return moves
        if state.table.size(hand(player)) > len(state.table.known(hand(player))):
            return []  # this view does not know the whole hand: cannot tell what the player may do
        if state.table.size("stock") > 0:
            return [Move("draw")]
        return [Move("pass")]

    def is_legal(self, state: EightsState, player: int, move: Move) -> bool:
        step = self.next_step(state)
        if not isinstance(step, Decide) or step.player != player:
            return False
        t = state.table
        if move.action in ("play", "eight"):
            if not move.args or not isinstance(move.args[0], int) or t.zone_of(move.args[0]) != hand(player):
                return False
            card = t.card(move.args[0])
            if card is None:
                return False
            rank, suit = self._target(state)
            if move.action == "eight":
                return card.rank == 8 and len(move.args) == 2 and move.args[1] in [s.value for s in SUITS]
            return len(move.args) == 1 and card.rank != 8 and (card.rank == rank or card.suit == suit)
        if move.args:
            return False
        # Drawing or passing is only allowed when no card can be played; another seat cannot
        # see the hand, so it checks what it can and `fairdeal verify` checks the rest.
        if self._playable(state, player):
            return False
        if move.action == "draw":
            return t.size("stock") > 0
        if move.action == "pass":
            return t.size("stock") == 0
        return False

    def apply(self, state: EightsState, player: int, move: Move) -> EightsState:
        s = state.copy()
        t = s.table
        n = t.players
        if move.action == "draw":
            t.deal("stock", hand(player))
            return replace(s, passes=0)
        if move.action == "pass":
            passes = s.passes + 1
            if passes >= n:
                self._show_hands(t)
            return replace(s, passes=passes, blocked=passes >= n, turn=(player + 1) % n)
        token = move.args[0]
        assert isinstance(token, int)
        t.move(token, "discard")
        called = Suit(move.args[1]) if move.action == "eight" else None
        winner = player if t.size(hand(player)) == 0 else None
        if winner is not None:
            self._show_hands(t)
        return replace(s, called=called, passes=0, winner=winner, turn=(player + 1) % n)

    @staticmethod
    def _show_hands(t: Table) -> None:
        """The game is over: every hand is turned face up to be counted."""
        for p in range(t.players):
            for token in t.tokens(hand(p)):
                t.flip(token)

    # -- results and words ------------------------------------------------------------------------
    def _result(self, state: EightsState) -> Result:
        t = state.table
        n = t.players
        totals = [sum(points(c) for c in t.cards(hand(p)) if c is not None) for p in range(n)]
        scores = [0] * n
        if state.winner is not None:
            w = state.winner
            scores[w] = sum(totals)
            return Result(w, tuple(scores), f"seat {w} emptied their hand")
        low = min(totals)
        best = [p for p in range(n) if totals[p] == low]
        if len(best) > 1:
            return Result(None, tuple(scores), "blocked, and the lowest hands tie")
        w = best[0]
        scores[w] = sum(x - low for x in totals)
        return Result(w, tuple(scores), f"blocked: seat {w} holds the fewest points")

    def describe(self, state: EightsState, player: int, move: Move) -> str:
        if move.action == "draw":
            return "draw a card"
        if move.action == "pass":
            return "pass (nothing to draw)"
        card = state.table.card(int(move.args[0]))
        text = card.text() if card else "a card"
        if move.action == "eight":
            return f"play {text} and call {Suit(move.args[1]).word}"
        return f"play {text}"

    def narrate(self, state: EightsState, player: int, move: Move, name: str) -> str:
        phrase = self.describe(state, player, move)
        verb, _, rest = phrase.partition(" ")
        past = {"draw": "drew", "pass": "passed", "play": "played"}.get(verb, verb)
        return f"{name} {past} {rest}".rstrip().replace("and call", "and called")

    def table_view(self, state: EightsState, viewer: int | None) -> TableView:
        """The table as regions of piles: the full-screen table is drawn from this."""
        t = state.table
        discard_note: Words = (f"suit called: {state.called.symbol}",) if state.called else ()
        middle = [
            Pile.of(t, "discard", "Discard", note=discard_note),
            Pile.of(t, "stock", "Stock", note=() if state.reshuffled else ("one reshuffle left",)),
        ]
        if t.size("held"):
            middle.append(Pile.of(t, "held", "Held aside"))
        regions = [Region(None, tuple(middle))]
        for p in range(t.players):
            regions.append(Region(p, (Pile.of(t, hand(p), "Hand", spread=Spread.FANNED),)))
        live = state.winner is None and not state.blocked and state.turn >= 0
        return TableView(
            tuple(regions),
            facts=((f"{t.players} players",),),
            turn=state.turn if live else None,
            status=(Seat(state.turn), "to play") if live else (),
        )

    def render(self, state: EightsState, viewer: int | None) -> Sequence[Line]:
        t = state.table
        lines: list[Line] = []
        top = t.top_card("discard")
        target: Line = ("Discard: ", top) if top else ("Discard: ", "empty")
        if state.called is not None:
            target = (*target, f"  (suit called: {state.called.symbol} {state.called.word})")
        lines.append(target)
        lines.append(
            (f"Stock: {t.size('stock')} cards" + ("" if state.reshuffled else ", one reshuffle left"),)
        )
        for p in range(t.players):
            cards = t.cards(hand(p))
            who = "You" if p == viewer else f"Seat {p}"
            turn = "  <- to play" if p == state.turn and state.winner is None else ""
            if p == viewer:
                lines.append((f"{who}: ", *sorted(c for c in cards if c), turn))
            else:
                lines.append((f"{who}: ", FaceDown(len(cards)), f" {len(cards)} cards{turn}"))
        return lines


class GreedyEights:
    """Plays a matching non-eight when it can (the highest-scoring first), keeps eights for
    last, and calls the suit it holds most of."""

    def choose(
        self, game: Game, state: GameState, player: int, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        t = state.table
        plain = [m for m in moves if m.action == "play"]
        if plain:
            return max(plain, key=lambda m: points(t.card(int(m.args[0])) or Card(1, SUITS[0])))
        eights = [m for m in moves if m.action == "eight"]
        if eights:
            held = [c.suit.value for _, c in t.known(hand(player)) if c.rank != 8]
            return max(eights, key=lambda m: held.count(str(m.args[1])))
        return moves[0]


@hookimpl
def fairdeal_games() -> list[Game]:
    return [CrazyEights()]


@hookimpl
def fairdeal_bots() -> list[BotSpec]:
    return [BotSpec("crazy-eights", "greedy", "plays to keep eights for last", GreedyEights)]
