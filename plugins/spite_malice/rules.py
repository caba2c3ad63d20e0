"""The Spite & Malice engine: setup, whose turn, legal moves, effects, results.

Moves (arguments are a card token and a zone name):

* ``play TOKEN centreN`` — the payoff top, a side-stack top or a hand card of the mover
  onto a centre stack;
* ``discard TOKEN sideP-N`` — a hand card onto one of the mover's side stacks; ends the turn.

Draws, completed centre stacks and new deals are ``Auto`` steps; the first player of a
match with equal payoff tops is a ``Chance(2)``. A whole match is one engine run.
"""

from __future__ import annotations

from collections.abc import Hashable

from fairdeal import (
    Auto,
    Bot,
    Card,
    Chance,
    Config,
    Decide,
    Game,
    Move,
    Option,
    Over,
    Result,
    Step,
    Table,
    standard_52,
)

from ._words import CATALOG, EMPTIED, LEADS, LEVEL, N_, REACHED, STOCK_RAN_OUT, TOO_LONG, seat
from .bots import Planner
from .layout import (
    ALL_ZONES,
    CENTRES,
    COMPLETE,
    HAND_SIZE,
    PAYOFF_SIZE,
    PLAYERS,
    SIDES,
    STOCK,
    fits,
    hand,
    payoff,
    zones,
)
from .searching import SEARCH, alike, chances
from .state import GameRecord, Phase, SpiteState
from .view import SpiteView, standing

#: Safety rule: a game that reaches this many moves without ending is drawn. Real games use
#: a few hundred at most; it only guarantees that every game ends.
MOVE_LIMIT = 2_000
MAX_GAMES_LIMIT = 1_000


class SpiteMalice(SpiteView, Game[SpiteState]):
    """Spite & Malice for two, as RULES.md plays it, over a match to ``target`` points."""

    name = "spite-malice"
    title = "Spite & Malice"
    catalog = CATALOG
    summary = N_("Empty your payoff pile onto shared Ace-to-Queen stacks; Kings are wild.")
    min_players = 2
    max_players = 2
    options = (
        Option("target", 50, "points that win the match", minimum=1, maximum=1000),
        Option(
            "max_games",
            100,
            "safety rule: the match ends after this many games",
            minimum=1,
            maximum=MAX_GAMES_LIMIT,
        ),
    )
    api = 2
    deck = standard_52(2)
    zones = tuple(zones())
    deck_zone = STOCK
    bots = (
        Bot(
            "planner", N_("searches its turn: payoff first, hand flowing, no gifts to the opponent"), Planner
        ),
    )
    max_moves = MOVE_LIMIT * MAX_GAMES_LIMIT
    search = SEARCH

    def setup(self, config: Config, table: Table) -> SpiteState:
        _deal(table)
        return SpiteState(table, target=config["target"], max_games=config["max_games"])

    # -- what happens next -------------------------------------------------------------------------
    def next_step(self, state: SpiteState) -> Step:
        phase = state.phase
        if phase is Phase.PLAY:
            t = state.table
            for c in CENTRES:
                if t.size(c) >= COMPLETE:
                    return Auto()  # the completed stack goes back into the stock at once
            held = t.size(hand(state.turn))
            if held == 0 or (not state.filled and held < HAND_SIZE):
                return Auto()  # a draw (or the drawn game, if the stock is short)
            return Decide(state.turn)
        if phase is Phase.OVER:
            if _match_over(state):
                return Over(_match_result(state))
            return Auto()
        if phase is Phase.DEAL:
            return Auto()
        a, b = (_top_rank(state.table, p) for p in range(PLAYERS))
        return Chance(2, N_("first player: the payoff tops are equal")) if a == b else Auto()

    def advance(self, state: SpiteState) -> SpiteState:
        s = state.copy()
        t = s.table
        if s.phase is Phase.OVER:
            t.shuffle_together(ALL_ZONES, STOCK)  # a new game: every card, jointly reshuffled
            return s.but(phase=Phase.DEAL)
        if s.phase is Phase.DEAL:
            _deal(t)
            last = s.history[-1]
            starter = 1 - last.winner if last.winner is not None else 1 - last.starter
            return s.but(
                phase=Phase.PLAY, turn=starter, starter=starter, filled=False, game=s.game + 1, moves=0
            )
        if s.phase is Phase.FIRST:
            first = 0 if _top_rank(t, 0) > _top_rank(t, 1) else 1
            return s.but(phase=Phase.PLAY, turn=first, starter=first, filled=False)
        for c in CENTRES:
            if t.size(c) >= COMPLETE:
                t.shuffle_together([c, STOCK], STOCK)
                return s
        mine = hand(s.turn)
        need = HAND_SIZE - t.size(mine)
        if t.size(STOCK) < need:
            return _end_game(s, None, STOCK_RAN_OUT.english())
        t.deal(STOCK, mine, need)
        return s.but(filled=True)

    def on_chance(self, state: SpiteState, value: int) -> SpiteState:
        return state.but(phase=Phase.PLAY, turn=value, starter=value, filled=False)

    # -- moves -------------------------------------------------------------------------------------
    def legal_moves(self, state: SpiteState, player: int) -> list[Move]:
        """Plays of the payoff top, the side-stack tops and the hand cards that fit a centre stack
        (a card this view does not know may fit any), then the discards that end the turn."""
        t = state.table
        values = [t.size(c) for c in CENTRES]
        sources: list[tuple[int, Card | None]] = []
        for zone in (payoff(player), *SIDES[player]):
            top = t.top(zone)
            if top is not None:
                sources.append((top, t.card(top)))
        held = sorted(t.tokens(hand(player)), key=lambda tok: _rank_of(t.card(tok)))  # listed by rank
        sources.extend((tok, t.card(tok)) for tok in held)
        moves = [
            Move("play", (tok, c))
            for tok, card in sources
            for c, v in zip(CENTRES, values, strict=True)
            if card is None or fits(card.rank, v)
        ]
        moves.extend(Move("discard", (tok, z)) for tok in held for z in SIDES[player])
        return moves

    def apply(self, state: SpiteState, player: int, move: Move) -> SpiteState:
        s = state.copy()
        t = s.table
        token, dest = move.args
        assert isinstance(token, int) and isinstance(dest, str)
        src = t.zone_of(token)
        t.move(token, dest)
        moves = s.moves + 1
        if move.action == "discard":
            s = s.but(turn=1 - player, filled=False, moves=moves)
        else:
            s = s.but(filled=True, moves=moves)
            if src == payoff(player):
                if t.size(src) == 0:
                    points = t.size(payoff(1 - player))
                    return _end_game(s, player, EMPTIED.english(seat=seat(player)), points)
                top = t.top(src)
                assert top is not None
                t.flip(top)
        if moves >= MOVE_LIMIT:
            return _end_game(s, None, TOO_LONG.english(moves=MOVE_LIMIT))
        return s

    # -- for the search bot ---------------------------------------------------------------------
    def alike(self, state: SpiteState, player: int, move: Move) -> Hashable:
        return alike(state, player, move)

    def estimate(self, state: SpiteState) -> tuple[float, float] | None:
        return chances(state)


# -- helpers ----------------------------------------------------------------------------------------
def _deal(t: Table) -> None:
    """Deal a game from the shuffled stock: payoff piles of 20 with the top turned up, hands of 5."""
    for p in range(PLAYERS):
        t.deal(STOCK, payoff(p), PAYOFF_SIZE)
        top = t.top(payoff(p))
        assert top is not None
        t.flip(top)
    for p in range(PLAYERS):
        t.deal(STOCK, hand(p), HAND_SIZE)


def _rank_of(card: Card | None) -> int:
    return card.rank if card is not None else 0


def _top_rank(t: Table, p: int) -> int:
    """The rank of seat ``p``'s payoff top (A=1 … K=13); public once the table is settled."""
    card = t.top_card(payoff(p))
    return card.rank if card is not None else 0


def _end_game(s: SpiteState, winner: int | None, reason: str, points: int = 0) -> SpiteState:
    record = GameRecord(s.game, s.starter, winner, points, reason)
    scores = s.scores
    if winner is not None:
        scores = (scores[0] + points, scores[1]) if winner == 0 else (scores[0], scores[1] + points)
    return s.but(phase=Phase.OVER, scores=scores, history=(*s.history, record))


def _match_over(s: SpiteState) -> bool:
    return max(s.scores) >= s.target or len(s.history) >= s.max_games


def _match_result(s: SpiteState) -> Result:
    a, b = s.scores
    standing_now = standing(s)
    if max(a, b) >= s.target:
        w = 0 if a >= s.target else 1
        return Result(w, s.scores, REACHED.english(seat=seat(w), points=s.target), standing_now)
    if a == b:
        return Result(None, s.scores, LEVEL.english(n=len(s.history)), standing_now)
    w = 0 if a > b else 1
    return Result(w, s.scores, LEADS.english(n=len(s.history), seat=seat(w)), standing_now)
