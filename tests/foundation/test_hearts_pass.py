"""The pass of Hearts, written the natural way, is private over the real protocol.

Seat 0 passes three cards to seat 1: each goes from seat 0's hand to seat 1's (through seat 0's
"to pass" pile, so that nobody sees the cards passed to it before choosing its own). Read as an
attacker would read the log (``fairdeal.testing.Openings``: every ciphertext, share and mask, and
a seat's own secrets), seats 2 and 3 and any watcher cannot decrypt one of them; seat 1 can, and
so can seat 0, who passed them. Seat 1 plays them like any of its cards, and the log verifies fair.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.logfile import MAGIC, record
from fairdeal.core.session.verify import verify_log
from fairdeal.testing import Openings, Stepper
from fairdeal.testing._privacy import Party

HEARTS = Path(__file__).resolve().parents[2] / "examples" / "hearts"


@pytest.fixture(scope="module")
def hearts() -> Iterator[Any]:
    sys.path.insert(0, str(HEARTS))
    try:
        import fairdeal_hearts

        yield fairdeal_hearts
    finally:
        sys.path.remove(str(HEARTS))


def _party(t: Stepper, seat: int | None) -> Party:
    if seat is None:
        return Party()
    s = t.seats[seat]
    return Party(seat, s.deck.ctx.need_me().x, s.deck)


def test_seat_0s_passed_cards_are_read_by_seat_1_and_nobody_else(hearts: Any) -> None:
    game = hearts.Hearts()
    openings: list[Openings] = []

    def note(t: Stepper, data: bytes) -> None:
        if not openings:
            openings.append(Openings(t.header.game_id, game.deck_for(game.config(4)), 4, t.header.protocol))
        openings[0].note(data, t.watcher)

    t = Stepper(game, 4, 7, {"target": 30}, policies=[hearts.Careful()] * 4, on_entry=note)
    t.run_until(lambda t: t.watcher.view() is not None and t.watcher.view().table.size("passing0") == 3)
    passed = t.watcher.view().table.tokens("passing0")
    truth = {tok: t.seats[0].view().table.card(tok) for tok in passed}
    t.run_until(lambda t: t.watcher.view().passed and not t.seats[0].revealing())
    o = openings[0]
    assert all(t.watcher.view().table.zone_of(tok) == "hand1" for tok in passed)
    for tok in passed:
        assert o.card(tok, _party(t, 1)) == truth[tok]  # the receiver
        assert o.card(tok, _party(t, 0)) == truth[tok]  # the passer remembers what it passed
        for other in (2, 3, None):
            assert o.card(tok, _party(t, other)) is None, (tok, other)
        assert t.seats[1].view().table.card(tok) == truth[tok]
        assert t.seats[2].view().table.card(tok) is None and t.watcher.view().table.card(tok) is None
    kinds = [decode_envelope(e) for e in t.log]
    handing = [e.seat for e in kinds if e.kind == "deck.shares" and e.body["handovers"]]
    assert sorted(handing) == [0, 1, 2, 3]  # every seat hands its three over, all at once: no shuffle
    # seat 1 plays every card it was passed, each with its own share alone
    t.run_until(lambda t: all(t.watcher.view().table.is_public(tok) for tok in passed))
    for tok in passed:
        assert t.watcher.view().table.card(tok) == truth[tok]
    t.finish()
    report = verify_log(MAGIC + b"".join(record(e) for e in t.log), lambda _: game)
    assert report.verdict == "fair", report.findings
