"""Écarté's vocabulary: zones, card order, the trick rules and the game state.

Everything here is pure and cheap: the engine, the renderer and the bots share it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from fairdeal import ACE, JACK, KING, N_, QUEEN, Card, Config, GameState, Suit, Visibility, Zone

TALON = "talon"
TURNUP = "turnup"
TRICK = "trick"
DISCARDS = "discards"
HAND_SIZE = 5
TRICKS = 5
PLAYERS = 2

#: Trick order, high to low: K Q J A 10 9 8 7 (a bigger number wins).
POWER: Mapping[int, int] = {KING: 8, QUEEN: 7, JACK: 6, ACE: 5, 10: 4, 9: 3, 8: 2, 7: 1}


def hand(seat: int) -> str:
    """The zone of ``seat``'s private hand."""
    return f"hand{seat}"


def won(seat: int) -> str:
    """The zone of the tricks ``seat`` won this deal (face up)."""
    return f"won{seat}"


def zones() -> list[Zone]:
    """Every zone of the table; the talon receives the freshly shuffled deck."""
    return [
        Zone(TALON, Visibility.HIDDEN, title=N_("talon")),
        *(Zone(hand(p), Visibility.OWNER, p, N_("hand")) for p in range(PLAYERS)),
        Zone(TURNUP, Visibility.PUBLIC, title=N_("turn-up")),
        Zone(TRICK, Visibility.PUBLIC, title=N_("trick in play")),
        *(Zone(won(p), Visibility.PUBLIC, title=N_("tricks won")) for p in range(PLAYERS)),
        Zone(DISCARDS, Visibility.HIDDEN, title=N_("discards")),
    ]


ZONE_NAMES: tuple[str, ...] = tuple(z.name for z in zones())


def beats(card: Card, led: Card, trump: Suit | None) -> bool:
    """Whether ``card``, played second, takes the trick that ``led`` opened."""
    if card.suit is led.suit:
        return POWER[card.rank] > POWER[led.rank]
    return card.suit is trump


def may_play(
    card: Card, rest: Iterable[Card], led: Card | None, trump: Suit | None, trump_when_void: bool
) -> bool:
    """Whether the follow rules allow ``card`` when the rest of the hand is ``rest``.

    ``rest`` holds the other cards of the hand that the viewer knows: a card the viewer
    cannot see never forbids a move. ``led`` is None when ``card`` leads the trick.
    """
    if led is None:
        return True
    others = [c for c in rest if c.suit is led.suit or c.suit is trump]
    if card.suit is led.suit:
        if POWER[card.rank] > POWER[led.rank]:
            return True
        return not any(c.suit is led.suit and POWER[c.rank] > POWER[led.rank] for c in others)
    if any(c.suit is led.suit for c in others):
        return False  # reneging: it holds the suit led
    return not (trump_when_void and card.suit is not trump and any(c.suit is trump for c in others))


def sort_key(card: Card, trump: Suit | None) -> tuple[int, str, int]:
    """Display order: trumps first, then by suit, high cards first."""
    return (0 if card.suit is trump else 1, card.suit.value, -POWER[card.rank])


class Phase(StrEnum):
    """Where a deal stands; every seat knows it."""

    FIRST = "first"  # a joint random choice of the first dealer
    DEAL = "deal"  # Auto: deal five each and turn up the next card
    TURNUP = "turnup"  # Auto: the turn-up is known: trump, and the King point
    PROPOSE = "propose"  # the non-dealer stands or proposes
    ANSWER = "answer"  # the dealer accepts or refuses
    DISCARD = "discard"  # ``actor`` discards one card at a time, then draws
    PLAY = "play"  # tricks; ``actor`` plays next
    NEXT = "next"  # Auto: a new joint shuffle of all 32 cards for the next deal
    OVER = "over"


PENALTIES = ("classic", "seed")


#: Why points are scored, in English: into the state and the result's reason (never translated
#: there: front ends say them again through the catalog). ``{made}``: the tricks the scorer won.
KING_TURNED = N_("the turned-up King")
KING_ANNOUNCED = N_("announcing the King of trumps")
MADE_TRICKS = N_("{made} tricks")
THE_VOLE = N_("the vole (all 5 tricks)")
AGAINST_DECLINER = N_("{made} tricks against a player who declined to exchange")
NON_DEALER_UNEXCHANGED = N_("{made} tricks as non-dealer without an exchange")


def deal_score(
    tricks: tuple[int, int], elder: int, declined: int | None, penalty: str
) -> tuple[int, int, str, int]:
    """``(seat, points, why, made)`` for a finished deal: who scores, how much, the message of why
    (one of the marked messages above, unformatted) and how many tricks the scorer made."""
    seat = 0 if tricks[0] >= 3 else 1
    made = tricks[seat]
    if declined is not None:
        if penalty == "classic" and seat != declined:
            return seat, 2, AGAINST_DECLINER, made
        if penalty == "seed" and seat == elder:
            return seat, 2, NON_DEALER_UNEXCHANGED, made
    if made == TRICKS:
        return seat, 2, THE_VOLE, made
    return seat, 1, MADE_TRICKS, made


def deal_points(
    tricks: tuple[int, int], elder: int, declined: int | None, penalty: str
) -> tuple[int, int, str]:
    """``(seat, points, why)`` for a finished deal: who scores, how much, and the reason.

    3 or 4 tricks make 1 point, the vole 2. Without any exchange the penalty may apply
    instead (2 points, no extra for the vole): ``classic`` gives them to whoever beat the
    player that declined to exchange; ``seed`` to the non-dealer for 3 tricks or more.
    """
    seat, points, why, made = deal_score(tricks, elder, declined, penalty)
    return seat, points, why.format(made=made)


@dataclass(frozen=True, slots=True)
class Rules:
    """The option values of one game."""

    target: int = 5
    penalty: str = "classic"
    trump_when_void: bool = False

    @staticmethod
    def of(config: Config) -> Rules:
        return Rules(int(config["target"]), str(config["penalty"]), bool(config["trump_when_void"]))


@dataclass(frozen=True)
class EcarteState(GameState):
    """An Écarté match as one viewer sees it. Every field is public knowledge.

    ``declined`` is the seat that refused to exchange before any exchange took place (the
    non-dealer who stood at once, or the dealer who refused the first proposal): the one
    the penalty rule can hit. ``discarded`` counts the cards ``actor`` has put away in the
    current discard turn.
    """

    rules: Rules = Rules()
    phase: Phase = Phase.FIRST
    dealer: int = -1
    deal_no: int = 0
    scores: tuple[int, int] = (0, 0)
    trump: Suit | None = None
    exchanges: int = 0
    declined: int | None = None
    actor: int = -1
    discarded: int = 0
    tricks: tuple[int, int] = (0, 0)
    announced: int | None = None
    last_winner: int | None = None
    winner: int | None = None
    news: str = ""  # the last points scored, in words
    why: str = ""  # what earned them

    @property
    def elder(self) -> int:
        """The non-dealer (who proposes and leads first)."""
        return 1 - self.dealer


#: How a deal is scored, roughly, between players of equal strength: the chance that its
#: points are 1 (3 or 4 tricks) or 2 (the vole, or the penalty). Each player wins half the deals.
ONE_POINT = 0.75


@cache
def match_chance(mine: int, theirs: int, target: int) -> float:
    """The chance of reaching ``target`` first from ``mine`` to ``theirs``, deal by deal, each
    deal won by either player evenly, for 1 point (:data:`ONE_POINT`) or 2."""
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    two = 1.0 - ONE_POINT
    win = ONE_POINT * match_chance(mine + 1, theirs, target) + two * match_chance(mine + 2, theirs, target)
    lose = ONE_POINT * match_chance(mine, theirs + 1, target) + two * match_chance(mine, theirs + 2, target)
    return (win + lose) / 2


def limit(state: EcarteState) -> int:
    """How many cards ``state.actor`` may still discard in this discard turn."""
    return min(HAND_SIZE, state.table.size(TALON)) - state.discarded


def turned_king(state: EcarteState) -> bool:
    """Whether the turn-up is a King (then nobody holds the King of trumps)."""
    card = state.table.top_card(TURNUP)
    return card is not None and card.rank == KING


def may_announce(state: EcarteState, seat: int) -> bool:
    """Whether ``seat`` may still announce the King of trumps now (before its first card)."""
    return (
        state.phase is Phase.PLAY
        and state.actor == seat
        and state.announced is None
        and state.table.size(hand(seat)) == HAND_SIZE
        and not turned_king(state)
    )
