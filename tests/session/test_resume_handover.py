"""A seat rebuilt from its log and its seed, as ``fairdeal resume`` does, owes what it owed: a hand-over
half made is built again byte for byte, and the rebuilt seat reads the cards handed to it."""

from __future__ import annotations

import sys
from pathlib import Path

from fairdeal.core.rng import SeededRng
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.session import Session
from fairdeal.testing import Stepper

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "foundation"))
from traffic import Traffic


def test_a_seat_rebuilt_in_the_middle_of_hand_overs_goes_on_as_it_would_have() -> None:
    game, seed = Traffic(), 3
    t = Stepper(game, 3, seed)
    rebuilt_any = False
    for _ in range(600):
        owing = t.seats[0].owing()
        if not owing:
            break
        handing = [w for w in owing if "hand-over" in w.what]
        for w in handing:  # rebuild the seat that owes a hand-over from the log, and compare
            seat = w.seat
            again = Session(game, seat, t.ids[seat], SeededRng(seed).fork(f"seat-{seat}"))
            for entry in t.log:
                again.receive(entry)
            assert again.due() == t.seats[seat].due()
            assert again.view() is not None and again.view().table == t.seats[seat].view().table
            rebuilt_any = True
        data = t.step()
        assert data is not None
        t.deliver(data)
    assert rebuilt_any, "the game handed nothing over"
    assert t.seats[0].finished and any(
        decode_envelope(e).kind == "deck.shares" and decode_envelope(e).body["handovers"] for e in t.log
    )
