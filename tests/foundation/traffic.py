"""Traffic: a test game whose moves carry cards between zones of every visibility at random.

Not a game anyone plays: its moves are every way a card can change hands or knowledge — given
to another seat's hand, taken from one, returned to the stock or buried face down, drawn, put
on one's own face-down pile and taken back, shown to one seat where it lies, a buried card
looked at, played face up, a face-down card turned up where it lies, a whole hand exposed, two
hands swapped, the stock and the buried pile shuffled together (what was known is forgotten),
and a seat leaving the game. A random player over the real protocol walks them all, so the
conformance kit's check of what each seat can *decrypt* (``fairdeal.testing.check_privacy``)
meets every one.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairdeal import Config, Decide, Game, GameState, Move, MoveWords, Over, Result, Table, Zone
from fairdeal.core.cards import standard_52

STOCK, TABLE, BURIED = "stock", "table", "buried"
LIMIT = 40  # moves in a game


def hand(p: int) -> str:
    return f"hand{p}"


def pile(p: int) -> str:
    return f"pile{p}"


@dataclass(frozen=True)
class TrafficState(GameState):
    turn: int = 0
    moves: int = 0
    out: frozenset[int] = frozenset()


class Traffic(Game[TrafficState]):
    api = 2
    name = "traffic"
    summary = "Cards go everywhere (a test game)."
    min_players = 2
    max_players = 4
    rules = "A test game: on your turn, move a card in any of the ways the moves list. 40 moves."
    deck = tuple(c for c in standard_52() if c.rank <= 4)
    deck_zone = STOCK
    max_moves = LIMIT

    def zones(self, config: Config) -> list[Zone]:
        seats = range(config.players)
        return [
            *(Zone.hand(hand(p), p) for p in seats),
            *(Zone.hidden(pile(p), "pile", p) for p in seats),
            Zone.hidden(STOCK, "stock"),
            Zone.public(TABLE, "table"),
            Zone.hidden(BURIED, "buried"),
        ]

    def setup(self, config: Config, table: Table) -> TrafficState:
        for p in range(config.players):
            table.deal(STOCK, hand(p), 2)
            table.deal(STOCK, pile(p))
        return TrafficState(table)

    def active(self, state: TrafficState) -> list[int]:
        return [p for p in range(state.table.players) if p not in state.out]

    def next_step(self, state: TrafficState) -> Decide | Over:
        if state.moves >= LIMIT or len(self.active(state)) < 2:
            return Over(self.result(state))
        return Decide(state.turn)

    def departed(self, state: TrafficState) -> frozenset[int]:
        return state.out

    def legal_moves(self, state: TrafficState, player: int) -> list[Move]:
        t = state.table
        others = [q for q in self.active(state) if q != player]
        mine = t.tokens(hand(player))
        moves = [Move("pass")]
        for tok in mine:
            moves += [Move(verb, (tok,)) for verb in ("play", "bury", "return", "keep")]
            moves += [Move(verb, (tok, q)) for q in others for verb in ("give", "show")]
        for q in others:
            moves += [Move("take", (q, i)) for i in range(t.size(hand(q)))]
            moves.append(Move("swap", (q,)))
        moves += [Move("expose", (q,)) for q in self.active(state)]
        if t.size(STOCK):
            moves += [Move("draw"), Move("flip")]
        if t.size(pile(player)):
            moves.append(Move("unkeep"))
        if t.size(BURIED):
            moves += [Move("look"), Move("shuffle")]
        if len(others) >= 2:
            moves.append(Move("quit"))
        return moves

    def apply(self, state: TrafficState, player: int, move: Move) -> TrafficState:
        s = state.copy()
        t, a = s.table, move.args
        if move.action in ("play", "bury", "return", "keep"):
            dst = {"play": TABLE, "bury": BURIED, "return": STOCK, "keep": pile(player)}[move.action]
            t.move(int(a[0]), dst)
        elif move.action == "give":
            t.move(int(a[0]), hand(int(a[1])))
        elif move.action == "show":
            t.show(int(a[0]), int(a[1]))
        elif move.action == "take":
            t.move(t.tokens(hand(int(a[0])))[int(a[1])], hand(player))
        elif move.action == "swap":
            _swap(t, hand(player), hand(int(a[0])))
        elif move.action == "expose":
            t.turn_up(hand(int(a[0])))
        elif move.action == "draw":
            t.deal(STOCK, hand(player))
        elif move.action == "flip":
            top = t.top(STOCK)
            assert top is not None
            t.flip(top)
        elif move.action == "unkeep":
            t.deal(pile(player), hand(player))
        elif move.action == "look":
            top = t.top(BURIED)
            assert top is not None
            t.show(top, player)
        elif move.action == "shuffle":
            t.shuffle_together([BURIED, STOCK], STOCK)
        elif move.action == "quit":
            s = s.but(out=s.out | {player})
        elif move.action != "pass":
            raise ValueError(f"not a Traffic move: {move}")
        active = self.active(s)
        turn = next((q for q in [*range(player + 1, t.players), *range(player)] if q in active), player)
        return s.but(turn=turn, moves=s.moves + 1)

    def result(self, state: TrafficState) -> Result:
        return Result(None, (0,) * state.table.players, "the game ran its course")

    def words(self, state: TrafficState, player: int, move: Move) -> MoveWords:
        return (move.action, *(str(x) for x in move.args))


def _swap(t: Table, a: str, b: str) -> None:
    mine, theirs = t.tokens(a), t.tokens(b)
    for tok in mine:
        t.move(tok, b)
    for tok in theirs:
        t.move(tok, a)
