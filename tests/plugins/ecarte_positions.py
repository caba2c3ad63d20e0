"""Écarté positions built card by card, for the tests of its table, words and story."""

from __future__ import annotations

from typing import Any

from fairdeal import parse_card
from fairdeal.plugins.ecarte import Ecarte, EcarteState, Phase, Rules
from fairdeal.plugins.ecarte.model import TALON, TRICK, TURNUP, hand, won, zones
from fairdeal.testing import build_table

GAME = Ecarte()


def mid_play(**rules: Any) -> EcarteState:
    """Deal 3 at 2 to 4, seat 0 deals and holds Q♥ 8♦ 9♦ 10♦ with trumps ♣ (10♣ turned up); seat 1
    holds K♣ 9♠ 7♦ A♦, won the first trick (K♠ Q♠) and led J♠; ``rules`` as :class:`Rules` takes
    them (target 7 unless said)."""
    c = parse_card
    placed = {
        hand(0): [c(x) for x in ["QH", "8D", "9D", "10D"]],
        hand(1): [c(x) for x in ["KC", "9S", "7D", "AD"]],
        TURNUP: [c("10C")],
        TRICK: [c("JS")],
        won(1): [c("KS"), c("QS")],
    }
    used = {card for cs in placed.values() for card in cs}
    talon = [card for card in GAME.deck_for(GAME.config(2)) if card not in used][:11]
    table = build_table(zones(), 2, {TALON: talon, **placed})
    return EcarteState(
        table,
        rules=Rules(**{"target": 7, **rules}),
        phase=Phase.PLAY,
        dealer=0,
        deal_no=3,
        scores=(2, 4),
        trump=c("10C").suit,
        actor=0,
        tricks=(0, 1),
        last_winner=1,
    )
