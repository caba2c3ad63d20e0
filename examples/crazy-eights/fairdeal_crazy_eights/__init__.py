"""Crazy Eights, a complete fairdeal game in one module.

The entry point ``crazy-eights`` in the ``fairdeal`` group names :class:`CrazyEights`; the rules
are in ``rules.txt`` beside this module (``rules.de.txt`` in German, and its words in ``locale/``).
"""

import random
from dataclasses import dataclass, replace

from fairdeal import (
    N_,
    SUITS,
    Auto,
    Bot,
    Card,
    Catalog,
    Chance,
    Config,
    Decide,
    Game,
    GameState,
    Move,
    MoveWords,
    Option,
    Over,
    Result,
    RuledOut,
    Suit,
    Table,
    TableView,
    Verb,
    Zone,
)

CATALOG = Catalog(__name__)  # this game's words in the player's language (the guide shows how)
_ = CATALOG.gettext
SUIT_WORDS = {
    "clubs": N_("clubs"),
    "diamonds": N_("diamonds"),
    "hearts": N_("hearts"),
    "spades": N_("spades"),
}


def hand(p: int) -> str:
    return f"hand{p}"


def points(card: Card | None) -> int:
    """What a card left in a hand costs: 50 for an 8, 10 for a King, Queen or Jack, the face value
    for the rest."""
    return 0 if card is None else 50 if card.rank == 8 else min(card.rank, 10)


@dataclass(frozen=True)
class EightsState(GameState):
    turn: int = -1  # -1 until the first player is chosen
    called: Suit | None = None  # the suit named with the last 8
    passes: int = 0  # in a row: when every player has passed, the game is blocked
    reshuffled: bool = False
    winner: int | None = None


class GreedyEights:
    """Plays a matching card when it can (the costliest first), keeps eights for last, and calls
    the suit it holds most of."""

    def choose(
        self, game: Game, state: GameState, player: int, moves: list[Move], rng: random.Random
    ) -> Move:
        t = state.table
        plain = [m for m in moves if m.action == "play"]
        eights = [m for m in moves if m.action == "eight"]
        held = [c.suit.value for _, c in t.known(hand(player)) if c.rank != 8]
        if plain:
            return max(plain, key=lambda m: points(t.card(int(m.args[0]))))
        return max(eights, key=lambda m: held.count(str(m.args[1]))) if eights else moves[0]


class CrazyEights(Game[EightsState]):
    api = 2
    name = "crazy-eights"
    catalog = CATALOG
    summary = N_("Match rank or suit, eights are wild; empty your hand first (example plugin).")
    min_players = 2
    max_players = 5
    options = (Option("hand", 0, "cards dealt to each (0: 7 for two, else 5)", minimum=0, maximum=10),)
    bots = (Bot("greedy", "plays to keep eights for last", GreedyEights),)

    def zones(self, config: Config) -> list[Zone]:
        hands = [Zone.hand(hand(p), p, N_("hand")) for p in range(config.players)]
        return [*hands, Zone.public("discard", N_("discard pile")), Zone.hidden("stock", N_("stock"))]

    def setup(self, config: Config, table: Table) -> EightsState:
        for _ in range(config["hand"] or (7 if config.players == 2 else 5)):
            for p in range(config.players):
                table.deal("stock", hand(p))
        table.deal("stock", "discard")  # a PUBLIC zone: the core reveals the card to everyone
        return EightsState(table)

    def next_step(self, state: EightsState) -> Decide | Chance | Auto | Over:
        if state.turn < 0:
            return Chance(state.table.players, "first player")
        if state.winner is not None or state.passes == state.table.players:
            return Over(self.result(state))
        if state.table.size("stock") == 0 and not state.reshuffled and state.table.size("discard") > 1:
            return Auto()
        return Decide(state.turn)

    def on_chance(self, state: EightsState, value: int) -> EightsState:
        return replace(state, turn=value)

    def advance(self, state: EightsState) -> EightsState:
        """The stock ran out: the discard pile but its top card is shuffled into a new stock."""
        s = state.copy()
        for token in s.table.tokens("discard")[:-1]:
            s.table.move(token, "stock")
        s.table.shuffle_together(["stock"], "stock")
        return replace(s, reshuffled=True)

    def legal_moves(self, state: EightsState, player: int) -> list[Move]:
        t = state.table
        top = t.top_card("discard")
        suit = state.called or (top.suit if top else None)
        plays: list[Move] = []
        for token, card in t.known(hand(player)):
            if card.rank == 8:
                plays.extend(Move("eight", (token, s.value)) for s in SUITS)
            elif card.suit == suit or (top and card.rank == top.rank):
                plays.append(Move("play", (token,)))
        # Drawing (or passing, once the stock is gone) is legal only if no card can be played.
        return plays or [Move("draw") if t.size("stock") else Move("pass")]

    def apply(self, state: EightsState, player: int, move: Move) -> EightsState:
        s = state.copy()
        t, n = s.table, s.table.players
        if move.action == "draw":
            t.deal("stock", hand(player))
            return replace(s, passes=0)
        if move.action == "pass":
            s = replace(s, passes=s.passes + 1, turn=(player + 1) % n)
        else:
            t.move(int(move.args[0]), "discard")
            called = Suit(move.args[1]) if move.action == "eight" else None
            won = player if t.size(hand(player)) == 0 else None
            s = replace(s, called=called, passes=0, winner=won, turn=(player + 1) % n)
        if s.winner is not None or s.passes == n:
            t.turn_up(*map(hand, range(n)))  # the end: the hands are shown, to be counted
        return s

    def result(self, state: EightsState) -> Result:
        t = state.table
        totals = [sum(points(c) for c in t.cards(hand(p))) for p in range(t.players)]
        scores = [0] * t.players
        if state.winner is not None:
            scores[state.winner] = sum(totals)
            # What goes into the log stays English; front ends say it in their language (N_).
            reason = N_("{seat} emptied their hand").format(seat=f"seat {state.winner}")
            return Result(state.winner, tuple(scores), reason)
        best = [p for p, x in enumerate(totals) if x == min(totals)]
        if len(best) > 1:
            return Result(None, tuple(scores), N_("blocked, and the lowest hands tie"))
        scores[best[0]] = sum(x - min(totals) for x in totals)
        reason = N_("blocked: {seat} holds the fewest points").format(seat=f"seat {best[0]}")
        return Result(best[0], tuple(scores), reason)

    def rules_out(self, state: EightsState, player: int, move: Move) -> list[RuledOut]:
        """A seat that draws or passes could play nothing: it holds no 8, no card of the suit to
        follow and none of the top card's rank."""
        if move.action not in ("draw", "pass"):
            return []
        t = state.table
        top = t.top_card("discard")
        suit = state.called or (top.suit if top else None)
        out = {c for c in t.deck if c.rank == 8 or c.suit == suit or (top and c.rank == top.rank)}
        return [RuledOut(frozenset(t.tokens(hand(player))), frozenset(out))]

    def words(self, state: EightsState, player: int, move: Move) -> MoveWords:
        if move.action == "draw":
            return (Verb(_("draw"), _("drew")), _("a card"))
        if move.action == "pass":
            return (Verb(_("pass"), _("passed")), _("(nothing to draw)"))
        card = state.table.card(int(move.args[0]))
        play = Verb(_("play"), _("played"))
        if move.action == "eight":
            suit = _(SUIT_WORDS[Suit(move.args[1]).word])
            return (play, card, _("and"), Verb(_("call"), _("called")), suit)
        return (play, card)

    def view(self, state: EightsState, viewer: int | None) -> TableView:
        called = (_("suit called: {suit}").format(suit=state.called.symbol),) if state.called else ()
        stock = () if state.reshuffled else (_("one reshuffle left"),)
        return TableView.of(state.table, notes={"discard": called, "stock": stock})
