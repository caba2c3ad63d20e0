"""The ``planner`` bot: searches the plays of its turn and ends it with the best discard.

It works on ranks only, in a small model of its own view (centre values, its hand, its side
stacks, both payoff tops, the opponent's side tops), and searches every sequence of plays
onto the centre up to the point where new information would arrive (its next payoff card
turns up, or an emptied hand draws 5). Each end of a sequence is scored by:

* payoff first: playing the payoff top outweighs everything else;
* the hand flowing: cards played from the hand, above all emptying it, score;
* side stacks kept useful: their cards are a reserve, played when that leads somewhere;
  the discard goes where it continues a descending run or matches, never burying a
  lower card under a higher one; Kings stay in the hand unless they achieve something;
* no gifts: ending with a centre stack one below the opponent's payoff top (or within
  reach of the opponent's side-stack tops) costs a lot.

The search is memoised on (centre values, hand, side-stack heights) and capped, so a
decision costs well under a millisecond in the usual case.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from fairdeal import KING, Card, Game, GameState, Move, Table

from .layout import CENTRES, COMPLETE, SIDE_STACKS, SIDES, hand, payoff

# Weights of the evaluation (see the module docstring), tuned in self-play against earlier
# versions of this bot.
WIN = 1_000_000.0
PAYOFF = 1_000.0
EMPTY_HAND = 30.0
HAND_PLAY = 3.0
SIDE_PLAY = -2.0
KING_SPENT = -25.0
GIFT_DIRECT = -300.0
GIFT_SIDES = -150.0
GIFT_NEAR = (0.0, -80.0, -30.0, -10.0)  # by the gap between a centre stack and the opponent's need
MY_GAP = -6.0  # per card still needed on the centre stack nearest to taking my payoff top
DISCARD_KING = -30.0
DISCARD_EMPTY = 2.0
DISCARD_RUN = 10.0
DISCARD_SAME = 8.0
DISCARD_BURY = -8.0
DISCARD_FAR = 0.3
NODE_BUDGET = 4_000

#: ("pay", 0, value), ("side", i, value), ("hand", rank, value) or ("discard", rank, i): a play onto
#: the centre stack of that value, or the discard of a card of that rank onto side stack i.
Action = tuple[str, int, int]
Key = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


@dataclass(slots=True)
class _View:
    """What the search needs, in ranks (K = 13)."""

    payoff_top: int
    payoff_count: int
    sides: tuple[tuple[int, ...], ...]
    opp_top: int
    opp_side_tops: tuple[int, ...]


def stack_ranks(t: Table, zone: str) -> tuple[int, ...]:
    """The ranks of a stack's cards, bottom to top (0 for one this view does not know)."""
    return tuple(c.rank if c is not None else 0 for c in t.cards(zone))


def _rank(t: Table, token: int | None) -> int:
    card = t.card(token)
    return card.rank if card is not None else 0


class Planner:
    """The default bot (see the module docstring).

    Its choices depend on the position alone. It keeps its last search: the next play of a turn
    starts from a position that search already judged in full (the same view, the root one of
    its nodes), and is answered from it, as a fresh search would answer it.
    """

    def __init__(self) -> None:
        self._last: _Search | None = None

    def choose(
        self, game: Game, state: GameState, player: int, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        t = state.table
        cen = tuple(t.size(c) for c in CENTRES)
        held = t.known(hand(player))
        view = _View(
            payoff_top=_rank(t, t.top(payoff(player))),
            payoff_count=t.size(payoff(player)),
            sides=tuple(stack_ranks(t, z) for z in SIDES[player]),
            opp_top=_rank(t, t.top(payoff(1 - player))),
            opp_side_tops=tuple(r for z in SIDES[1 - player] if (r := _rank(t, t.top(z)))),
        )
        key = (tuple(sorted(cen)), tuple(sorted(c.rank for _, c in held)), tuple(len(s) for s in view.sides))
        search = self._last
        if search is None or search.v != view or search.nodes > NODE_BUDGET or key not in search.memo:
            search = self._last = _Search(view)  # a search cut short by its budget is not reused
        _, action = search.best(*key)
        move = _to_move(t, player, cen, held, action) if action is not None else None
        if move is not None and move in moves:
            return move
        return moves[0]  # cannot happen with a consistent view; stay legal regardless


def _to_move(
    t: Table, player: int, cen: tuple[int, ...], held: list[tuple[int, Card]], action: Action
) -> Move | None:
    """The real move for a search action: the first matching card, the first centre of that value."""
    kind, a, b = action
    if kind == "discard":
        token = next((tok for tok, c in held if c.rank == a), None)
        return None if token is None else Move("discard", (token, SIDES[player][b]))
    dest = CENTRES[cen.index(b)]
    if kind == "pay":
        token = t.top(payoff(player))
    elif kind == "side":
        token = t.top(SIDES[player][a])
    else:
        token = next((tok for tok, c in held if c.rank == a), None)
    return None if token is None else Move("play", (token, dest))


class _Search:
    """Depth-first search over the plays of one turn, memoised on the position."""

    def __init__(self, view: _View) -> None:
        self.v = view
        self.memo: dict[Key, tuple[float, Action | None]] = {}
        self.positions: dict[tuple[int, ...], float] = {}
        self.nodes = 0

    def best(
        self, cen: tuple[int, ...], held: tuple[int, ...], heights: tuple[int, ...]
    ) -> tuple[float, Action | None]:
        key = (cen, held, heights)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        result = self._end_turn(cen, held, heights)
        if self.nodes <= NODE_BUDGET:
            v = self.v
            sides = v.sides
            for idx, value in enumerate(cen):
                if value >= COMPLETE or (idx and cen[idx - 1] == value):
                    continue  # equal centre values are the same choice
                need = value + 1
                after = _played(cen, idx)
                if v.payoff_top in (need, KING):
                    # The next payoff card is unknown until it turns up: score the gifts only.
                    score = (WIN if v.payoff_count == 1 else PAYOFF) + self._gift(after)
                    if score > result[0]:
                        result = (score, ("pay", 0, value))
                for i in range(SIDE_STACKS):
                    h = heights[i]
                    if h and sides[i][h - 1] in (need, KING):
                        lower = (*heights[:i], h - 1, *heights[i + 1 :])
                        score = SIDE_PLAY + self.best(after, held, lower)[0]
                        if score > result[0]:
                            result = (score, ("side", i, value))
                for rank in (need, KING):
                    if rank in held:
                        pos = held.index(rank)
                        rest = held[:pos] + held[pos + 1 :]
                        gain = HAND_PLAY + (KING_SPENT if rank == KING else 0.0)
                        if rest:
                            score = gain + self.best(after, rest, heights)[0]
                        else:
                            score = gain + EMPTY_HAND + self._position(after)
                        if score > result[0]:
                            result = (score, ("hand", rank, value))
        self.memo[key] = result
        return result

    def _position(self, cen: tuple[int, ...]) -> float:
        """How the centre stacks look at the end of the turn: for my payoff top, and for the
        opponent's (what I would be giving away)."""
        known = self.positions.get(cen)
        if known is not None:
            return known
        mine = self.v.payoff_top
        score = 0.0 if mine in (0, KING) else MY_GAP * min((mine - 1 - v) % COMPLETE for v in cen)
        score += self._gift(cen)
        self.positions[cen] = score
        return score

    def _gift(self, cen: tuple[int, ...]) -> float:
        top = self.v.opp_top
        if top in (0, KING):
            return 0.0  # a King fits anywhere: nothing to deny
        target = top - 1
        if target in cen:
            return GIFT_DIRECT
        tops = self.v.opp_side_tops
        gap = COMPLETE
        for value in cen:
            if value < target:
                gap = min(gap, target - value)
                if _reaches(value, target, tops):
                    return GIFT_SIDES
        return GIFT_NEAR[gap] if gap < len(GIFT_NEAR) else 0.0

    def _end_turn(
        self, cen: tuple[int, ...], held: tuple[int, ...], heights: tuple[int, ...]
    ) -> tuple[float, Action | None]:
        """The best discard from here, with the position it leaves."""
        if not held:
            return (-WIN, None)  # not reachable: an emptied hand draws before the turn can end
        sides = self.v.sides
        only_kings = all(r == KING for r in held)
        best: tuple[float, Action | None] = (-WIN, None)
        for rank in sorted(set(held), reverse=True):
            for i in range(SIDE_STACKS):
                h = heights[i]
                score = _discard_score(rank, sides[i][h - 1] if h else 0, only_kings, cen)
                if score > best[0]:
                    best = (score, ("discard", rank, i))
        return (best[0] + self._position(cen), best[1])


def _played(cen: tuple[int, ...], idx: int) -> tuple[int, ...]:
    """Centre values after one card on stack ``idx``; a completed stack starts again empty."""
    value = cen[idx] + 1
    out = list(cen)
    out[idx] = 0 if value >= COMPLETE else value
    return tuple(sorted(out))


def _reaches(value: int, target: int, tops: tuple[int, ...]) -> bool:
    """Whether side-stack tops (each used once, Kings wild) build ``value`` up to ``target``."""
    left = list(tops)
    while value < target:
        nxt = value + 1
        if nxt in left:
            left.remove(nxt)
        elif KING in left:
            left.remove(KING)
        else:
            return False
        value = nxt
    return True


@cache
def _discard_score(rank: int, top: int, only_kings: bool, cen: tuple[int, ...]) -> float:
    """How good it is to put ``rank`` on a side stack whose top is ``top`` (0: empty)."""
    if rank == KING and not only_kings:
        return DISCARD_KING
    if top == 0:
        score = DISCARD_EMPTY
    elif top == rank + 1:
        score = DISCARD_RUN  # a descending run plays off in order later
    elif top == rank:
        score = DISCARD_SAME
    elif top == KING:
        score = -4.0
    elif rank < top:
        score = -1.0 - 0.5 * (top - rank)
    else:
        score = DISCARD_BURY - (rank - top)  # buries a card that is needed first
    # Part with the card the centre stacks need last.
    far = min((rank - v - 1) % COMPLETE for v in cen)
    return score + DISCARD_FAR * far
