"""The Snatch! state and the read-only questions every other module asks of it.

Zones: ``pile0`` … one HIDDEN pile per seat (even its owner cannot look), ``aside`` (HIDDEN:
the freshly shuffled deck, then the leftover cards that are never played), ``trick`` (PUBLIC:
the cards of the trick being played, in playing order), ``played`` (PUBLIC: finished tricks)
and ``thrown`` (HIDDEN: snatch prices, never shown during play).

Every field below is public knowledge: seats and tokens, never the identity of a card.
"""

from __future__ import annotations

from dataclasses import dataclass

from fairdeal import Card, GameState, Move, Suit

from .trick import may_snatch

TURN = Move("turn")
SNATCH = Move("snatch")
PASS = Move("pass")

ASIDE = "aside"
TRICK = "trick"
PLAYED = "played"
THROWN = "thrown"


def decks_for(players: int) -> int:
    """One 32-card deck up to five players, two above."""
    return 2 if players > 5 else 1


def pile(seat: int) -> str:
    """The zone name of ``seat``'s pile."""
    return f"pile{seat}"


@dataclass(frozen=True)
class SnatchState(GameState):
    """A Snatch! game in progress (one viewer's table plus public fields).

    ``order`` lists the seats that turned a card in the current trick, parallel to the
    ``trick`` zone. ``window`` is True from a turn until that card's snatch choice is made
    (or could not be offered). ``trump`` is None until the first snatch: the first card's
    suit rules until then.
    """

    opener: int = -1  # who opens the current trick; -1 until the joint random choice
    order: tuple[int, ...] = ()
    sideways: frozenset[int] = frozenset()  # tokens of this trick's snatched cards
    window: bool = False
    first: int | None = None  # token of the game's very first card
    trump: Suit | None = None
    count: int = 0  # snatches since the count last (re)started: the next costs count + 1
    out: tuple[int, ...] = ()  # seats that are out, in the order they left
    paid: frozenset[int] = frozenset()  # of those, the ones who paid with their whole pile
    winner: int | None = None
    ended: str = ""  # why the game ended without a winner ("" while it goes on)
    tricks: int = 0  # tricks judged so far
    last_taker: int | None = None  # who took the previous trick
    last_token: int | None = None  # and with which card (a public token)
    last_trick: tuple[int, ...] = ()  # the previous trick's tokens, in playing order (public)
    last_order: tuple[int, ...] = ()  # and who played them


def first_suit(state: SnatchState) -> Suit | None:
    """The game's first suit (None before the first card is known)."""
    card = state.table.card(state.first)
    return None if card is None else card.suit


def trump_of(state: SnatchState) -> Suit | None:
    """The trump standing now."""
    return state.trump if state.trump is not None else first_suit(state)


def trick_cards(state: SnatchState) -> list[Card] | None:
    """The cards of the current trick in playing order; None if one is not known yet."""
    t = state.table
    cards = []
    for token in t.tokens(TRICK):
        card = t.card(token)
        if card is None:
            return None
        cards.append(card)
    return cards


def snatch_open(state: SnatchState) -> bool:
    """Whether the player who just turned a card may snatch with it now."""
    if not state.window or state.winner is not None or state.ended:
        return False
    cards = trick_cards(state)
    return cards is not None and may_snatch(cards, trump_of(state))


def price(state: SnatchState, suit: Suit | None) -> int:
    """What a snatch making ``suit`` trump costs now: 1 when it brings back the first suit."""
    return 1 if suit is not None and suit is first_suit(state) else state.count + 1


def is_out(state: SnatchState, seat: int) -> bool:
    return seat in state.out


def active(state: SnatchState) -> list[int]:
    """Seats still playing, in seat order."""
    return [p for p in range(state.table.players) if p not in state.out]


def next_after(state: SnatchState, seat: int, skip: frozenset[int] | set[int] = frozenset()) -> int | None:
    """The first seat after ``seat`` in seat order that is active and not in ``skip``."""
    n = state.table.players
    for step in range(1, n + 1):
        p = (seat + step) % n
        if p not in state.out and p not in skip:
            return p
    return None


def next_to_turn(state: SnatchState) -> int | None:
    """Who turns the next card of this trick; None when every active player has played."""
    if not state.order:
        return state.opener
    return next_after(state, state.order[-1], set(state.order))
