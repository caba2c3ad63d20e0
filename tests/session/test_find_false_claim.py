"""A seat that says it does not hold the card looked for, and holds it, is named at the end.

Nothing shows it at the table (a "no" proves nothing then), so the game goes on as the rules say
when nobody holds the card; after the final reveal every card any seat saw is known, and the replay
with every card known finds the false answer — in every seat's verdict and in ``fairdeal verify``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from fairdeal.core.deck import DeckSeat, FindClaim
from fairdeal.core.session.logfile import MAGIC, record
from fairdeal.core.session.verify import verify_log
from fairdeal.testing import Stepper

HEARTS = Path(__file__).resolve().parents[2] / "examples" / "hearts"


def test_a_false_no_is_found_with_every_card_known(monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(HEARTS))
    try:
        from fairdeal_hearts import Careful, Hearts
    finally:
        sys.path.remove(str(HEARTS))
    honest = DeckSeat.find_message
    liars: list[int] = []

    def lying(self: DeckSeat) -> FindClaim:
        claim = honest(self)
        if claim.share is None:
            return claim
        liars.append(claim.seat)
        return FindClaim(claim.seat, claim.card, None)  # it holds the 2♣ and says it does not

    monkeypatch.setattr(DeckSeat, "find_message", lying)
    t = Stepper(Hearts(), 4, 5, {"target": 1}, policies=[Careful()] * 4)
    t.finish()
    assert liars, "the holder was asked"
    liar = liars[0]
    verdicts: set[Any] = {s.verdict for s in t.everyone}
    assert len(verdicts) == 1
    (verdict,) = verdicts
    assert verdict is not None and not verdict.fair
    assert [f.seat for f in verdict.findings] == [liar]
    assert verdict.findings[0].reason.startswith("said it does not hold 2♣")
    report = verify_log(MAGIC + b"".join(record(e) for e in t.log), lambda _: Hearts())
    assert report.verdict == "cheating" and report.findings[0].seat == liar
    assert "said it does not hold 2♣, which it held" in report.findings[0].reason
