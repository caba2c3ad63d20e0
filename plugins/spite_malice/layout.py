"""The table of Spite & Malice: sizes, zone names and the centre-stack building rule.

Zones are named for the wire (moves carry them): ``hand0``, ``payoff1``, ``side0-3``,
``centre2`` and ``stock``. Side stacks and centre stacks are numbered from 1 for people.
"""

from __future__ import annotations

from fairdeal import KING, N_, QUEEN, Visibility, Zone

PLAYERS = 2
PAYOFF_SIZE = 20
HAND_SIZE = 5
SIDE_STACKS = 4
CENTRE_STACKS = 3
#: A centre stack holding this many cards has reached Queen: it is complete.
COMPLETE = QUEEN
STOCK = "stock"


def hand(p: int) -> str:
    return f"hand{p}"


def payoff(p: int) -> str:
    return f"payoff{p}"


def side(p: int, i: int) -> str:
    """Side stack ``i`` (0-based) of seat ``p``."""
    return f"side{p}-{i + 1}"


def centre(i: int) -> str:
    """Centre stack ``i`` (0-based)."""
    return f"centre{i + 1}"


HANDS: tuple[str, ...] = tuple(hand(p) for p in range(PLAYERS))
PAYOFFS: tuple[str, ...] = tuple(payoff(p) for p in range(PLAYERS))
SIDES: tuple[tuple[str, ...], ...] = tuple(
    tuple(side(p, i) for i in range(SIDE_STACKS)) for p in range(PLAYERS)
)
CENTRES: tuple[str, ...] = tuple(centre(i) for i in range(CENTRE_STACKS))
#: zone name -> (owner, index) for side stacks; zone name -> index for centre stacks.
SIDE_INDEX: dict[str, tuple[int, int]] = {
    side(p, i): (p, i) for p in range(PLAYERS) for i in range(SIDE_STACKS)
}
CENTRE_INDEX: dict[str, int] = {c: i for i, c in enumerate(CENTRES)}
ALL_ZONES: tuple[str, ...] = (*HANDS, *PAYOFFS, *(z for s in SIDES for z in s), *CENTRES, STOCK)


def zones() -> list[Zone]:
    """Every zone, with the visibility it has at a real table."""
    out: list[Zone] = []
    for p in range(PLAYERS):
        out.append(Zone(hand(p), Visibility.OWNER, p, N_("hand")))
        # Face down; the engine flips the top card, so only that one is public.
        out.append(Zone(payoff(p), Visibility.HIDDEN, p, N_("payoff pile")))
        out.extend(
            Zone(side(p, i), Visibility.PUBLIC, p, N_("side stack {side}").format(side=i + 1))
            for i in range(SIDE_STACKS)
        )
    out.extend(
        Zone(centre(i), Visibility.PUBLIC, title=N_("centre stack {centre}").format(centre=i + 1))
        for i in range(CENTRE_STACKS)
    )
    out.append(Zone(STOCK, Visibility.HIDDEN, None, N_("stock")))
    return out


def fits(rank: int, value: int) -> bool:
    """Whether a card of ``rank`` may go on a centre stack whose value is ``value`` (0: empty).

    A centre stack is built from Ace up, one card per rank, so its value is its size;
    a King stands for the rank needed next.
    """
    return value < COMPLETE and (rank == KING or rank == value + 1)
