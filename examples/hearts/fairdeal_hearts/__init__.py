"""Hearts, a complete fairdeal game in one module: passing, the 2♣ leads, hearts broken, the Queen
of spades and shooting the moon. The rules are in ``rules.txt`` beside this module."""

import random
from dataclasses import dataclass

from fairdeal import (
    QUEEN,
    Auto,
    Bot,
    Card,
    Config,
    Decide,
    Find,
    Game,
    GameState,
    Move,
    MoveWords,
    Option,
    Over,
    Result,
    Seat,
    Suit,
    Table,
    TableView,
    Verb,
    Zone,
)

PASSES = ("left", "right", "across", "none")  # hand 1, 2, 3, 4, then again
TWO_OF_CLUBS, QUEEN_OF_SPADES = Card(2, Suit.CLUBS), Card(QUEEN, Suit.SPADES)


def hand(p: int) -> str:
    return f"hand{p}"


def passing(p: int) -> str:
    return f"passing{p}"


def taken(p: int) -> str:
    return f"taken{p}"


def high(card: Card) -> int:
    return 14 if card.rank == 1 else card.rank


def points(card: Card | None) -> int:
    return 1 if card and card.suit is Suit.HEARTS else 13 if card == QUEEN_OF_SPADES else 0


@dataclass(frozen=True)
class HeartsState(GameState):
    target: int = 100  # the options, kept in the state: options reach only setup
    passing: bool = True
    deal: int = 0  # which hand of the game: it says where the cards pass
    passed: bool = False  # the cards of this hand have changed hands (or this hand passes none)
    leader: int | None = None  # who leads the trick on the table; None until the 2♣ is found
    broken: bool = False  # a heart has been played this hand
    tricks: int = 0  # tricks played this hand
    scores: tuple[int, ...] = (0, 0, 0, 0)
    over: bool = False

    @property
    def pass_to(self) -> int:
        return (1, 3, 2, 0)[self.deal % 4]  # how many seats to the left the cards go


class Careful:
    """Passes its highest cards, ducks under the trick when it can, and sheds points when it cannot
    follow."""

    def choose(
        self, game: Game, state: GameState, player: int, moves: list[Move], rng: random.Random
    ) -> Move:
        t = state.table

        def card(m: Move) -> Card:
            c = t.card(int(m.args[0]))
            assert c is not None
            return c

        if moves[0].action == "pass":
            return max(moves, key=lambda m: (points(card(m)) > 1, high(card(m))))
        trick = [c for c in t.cards("trick") if c]
        if not trick:
            return min(moves, key=lambda m: (points(card(m)), high(card(m))))
        led = trick[0]
        top = max(high(c) for c in trick if c.suit is led.suit)
        under = [m for m in moves if card(m).suit is led.suit and high(card(m)) < top]
        if under:
            return max(under, key=lambda m: high(card(m)))
        if card(moves[0]).suit is not led.suit:  # cannot follow: shed the worst
            return max(moves, key=lambda m: (points(card(m)), high(card(m))))
        return min(moves, key=lambda m: high(card(m)))


class Hearts(Game[HeartsState]):
    api = 3
    name = "hearts"
    summary = "Pass three, follow suit, and take no hearts and not the Queen of spades (example plugin)."
    min_players = max_players = 4
    options = (
        Option("target", 100, "the score that ends the game", minimum=1, maximum=1000),
        Option("passing", True, "pass three cards before each hand (false: never)"),
    )
    zones = (
        *(Zone.hand(hand(p), p) for p in range(4)),
        *(Zone.hand(passing(p), p, "to pass") for p in range(4)),
        *(Zone.public(taken(p), "taken", p) for p in range(4)),
        Zone.trick("trick"),
        Zone.hidden("deck"),
    )
    bots = (Bot("careful", "ducks under tricks and sheds points", Careful),)
    max_moves = 4000

    def setup(self, config: Config, table: Table) -> HeartsState:
        for p in range(4):
            table.deal("deck", hand(p), 13)
        return HeartsState(
            table, target=config["target"], passing=config["passing"], passed=not config["passing"]
        )

    def next_step(self, state: HeartsState) -> Decide | Auto | Find | Over:
        t = state.table
        if state.over:
            return Over(self.result(state))
        if not state.passed:
            chooser = next((p for p in range(4) if t.size(passing(p)) < 3), None)
            if chooser is None:
                return Auto()  # every seat has chosen: the cards change hands
            return Decide(chooser, f"to pass three cards to the {PASSES[state.deal % 4]}")
        if state.leader is None:
            return Find(TWO_OF_CLUBS, tuple(hand(p) for p in range(4)), "who holds the 2♣")
        if t.size("trick") == 4 or not any(t.size(hand(p)) for p in range(4)):
            return Auto()
        return Decide((state.leader + t.size("trick")) % 4, "to play")

    def on_found(self, state: HeartsState, seat: int | None) -> HeartsState:
        return state.but(leader=seat or 0)

    def legal_moves(self, state: HeartsState, player: int) -> list[Move]:
        t = state.table
        mine = t.known(hand(player))
        if not state.passed:  # any card may go, whatever it is: every view lists the whole hand
            return [Move("pass", (token,)) for token in t.tokens(hand(player))]
        led = t.card(t.tokens("trick")[0]) if t.size("trick") else None
        if state.tricks == 0 and led is None:
            mine = [(token, c) for token, c in mine if c == TWO_OF_CLUBS] or mine
        elif led is None and not state.broken:
            mine = [(token, c) for token, c in mine if c.suit is not Suit.HEARTS] or mine
        elif led is not None:
            follow = [(token, c) for token, c in mine if c.suit is led.suit]
            safe = [(token, c) for token, c in mine if not points(c)] if state.tricks == 0 else []
            mine = follow or safe or mine
        return [Move("play", (token,)) for token, _ in mine]

    def apply(self, state: HeartsState, player: int, move: Move) -> HeartsState:
        s = state.copy()
        token = int(move.args[0])
        if move.action == "pass":
            s.table.move(token, passing(player))
            return s
        s.table.move(token, "trick")
        card = s.table.card(token)
        return s.but(broken=s.broken or (card is not None and card.suit is Suit.HEARTS))

    def advance(self, state: HeartsState) -> HeartsState:
        s = state.copy()
        t = s.table
        if not s.passed:  # the passed cards go to their new hands
            for p in range(4):
                for token in t.tokens(passing(p)):
                    t.move(token, hand((p + s.pass_to) % 4))
            return s.but(passed=True)
        if t.size("trick") == 4:
            cards = t.cards("trick")
            led = cards[0]
            assert led is not None and None not in cards
            best = max(range(4), key=lambda i: high(c) if (c := cards[i]) and c.suit is led.suit else 0)
            winner = (s.leader + best) % 4
            for token in t.tokens("trick"):
                t.move(token, taken(winner))
            return s.but(leader=winner, tricks=s.tricks + 1)
        return self._score(s)

    def _score(self, s: HeartsState) -> HeartsState:
        t = s.table
        took = [sum(points(c) for c in t.cards(taken(p))) for p in range(4)]
        if 26 in took:  # shooting the moon: everybody else takes 26
            took = [0 if x == 26 else 26 for x in took]
        scores = tuple(a + b for a, b in zip(s.scores, took, strict=True))
        if max(scores) >= s.target:
            return s.but(scores=scores, over=True)
        t.shuffle_together([taken(p) for p in range(4)], "deck")
        for p in range(4):
            t.deal("deck", hand(p), 13)  # once the deck is shuffled
        deal = s.deal + 1
        passed = deal % 4 == 3 or not s.passing
        return s.but(scores=scores, deal=deal, passed=passed, leader=None, broken=False, tricks=0)

    def result(self, state: HeartsState) -> Result:
        low = min(state.scores)
        best = [p for p, x in enumerate(state.scores) if x == low]
        if len(best) > 1:
            return Result(
                None, state.scores, f"the game is over and {len(best)} seats share the lowest score"
            )
        return Result(best[0], state.scores, f"seat {best[0]} has the fewest points")

    def remarks(self, before: HeartsState, after: HeartsState) -> list[MoveWords]:
        """Who took the trick, and what each seat scored at the end of a hand."""
        out: list[MoveWords] = []
        if after.leader is not None and after.tricks > before.tricks:
            out.append((Seat(after.leader), "took the trick"))
        gains = [b - a for a, b in zip(before.scores, after.scores, strict=True)]
        out += [(Seat(p), f"scored {g} points this hand") for p, g in enumerate(gains) if g]
        return out

    def words(self, state: HeartsState, player: int, move: Move) -> MoveWords:
        card = state.table.card(int(move.args[0]))
        if move.action == "pass":
            return (Verb("pass", "passed"), card or "a card", "to the", PASSES[state.deal % 4])
        return (Verb("play", "played"), card or "a card")

    def view(self, state: HeartsState, viewer: int | None) -> TableView:
        facts = [
            (
                f"hand {state.deal + 1}",
                f"pass {PASSES[state.deal % 4]}",
                "hearts broken" if state.broken else "",
            )
        ]
        return TableView.of(state.table, facts=facts, scores=state.scores)
