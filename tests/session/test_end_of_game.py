"""A game that ends says so in the log: every seat still in it signs the result (``end``).

So a finished log and a cut one differ without the game's rules: a Snatch! game, where nobody
sees a card alone and no final reveal follows the last move, ends with an ``end`` entry of every
seat; cut anywhere before them, the log says it is cut. Each seat checks every other seat's
``end`` against its own rules: another result, or an end before the game is over, is refused
naming its author.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from fairdeal import registry
from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.logfile import MAGIC, parse_log, record
from fairdeal.core.session.verify import FAIR, UNDECIDED, verify_log


@cache
def _snatch() -> Any:
    from fairdeal.testing import play_with_protocol

    reg = registry.load()
    return play_with_protocol(reg.game("snatch"), 3, 3, {}, [reg.bot("snatch").make() for _ in range(3)])


def _log(entries: Any) -> bytes:
    return MAGIC + b"".join(record(e) for e in entries)


def test_a_finished_game_ends_with_every_seats_signed_result() -> None:
    played = _snatch()
    entries = parse_log(played.log).entries
    result = played.session.result
    kinds = [decode_envelope(e).kind for e in entries]
    assert "deck.final-reveal" not in kinds  # nobody saw a card alone: nothing to open at the end
    ends = [decode_envelope(e) for e in entries if decode_envelope(e).kind == "end"]
    still_in = [s for s in range(3) if s not in played.session.departed]  # a seat that went out signs nothing
    assert [e.seat for e in ends] == still_in and kinds[-len(ends) :] == ["end"] * len(ends)
    for e in ends:
        assert e.body == {"winner": result.winner, "scores": list(result.scores), "reason": result.reason}
    assert verify_log(played.log, registry.load().game).verdict == FAIR


@pytest.mark.parametrize("keep", [30, 40, 60, "all but one end", "no end"])
def test_a_cut_log_is_told_from_a_finished_one(keep: int | str) -> None:
    entries = parse_log(_snatch().log).entries
    first_end = next(i for i, e in enumerate(entries) if decode_envelope(e).kind == "end")
    upto = keep if isinstance(keep, int) else len(entries) - 1 if keep == "all but one end" else first_end
    report = verify_log(_log(entries[:upto]), registry.load().game)
    assert report.verdict == UNDECIDED, report.findings
    reason = report.findings[0].reason
    if not isinstance(keep, int):  # the game is over and every card checked: only signatures are missing
        assert "the log ends before every seat signed the end of the game" in reason
        assert len(report.findings) == 1
    else:
        assert "the log ends before the game is over" in reason


def test_an_end_that_states_another_result_or_comes_too_early_is_refused(stepper: Any) -> None:
    t = stepper("snatch", 3, {}, seed=4)
    t.run_until(lambda t: t.seats[0].phase == "end")
    result = t.seats[0].result
    lie = {"winner": (result.winner or 0) + 1, "scores": list(result.scores), "reason": result.reason}
    for seat in (0, 1):
        data = t.forge(seat, "end", lie)
        for s in t.everyone:
            if s is t.seats[seat]:
                continue
            with pytest.raises(RemoteProtocolError, match="another result") as info:
                s.receive(data)
            assert info.value.seat == seat
    loose = {"winner": result.winner, "scores": [float(x) for x in result.scores], "reason": result.reason}
    assert loose == {"winner": result.winner, "scores": list(result.scores), "reason": result.reason}
    with pytest.raises(RemoteProtocolError, match="another result"):  # equal in Python, not the same
        t.seats[0].receive(t.forge(1, "end", loose))
    t.finish()
    assert all(s.phase == "done" and s.finished for s in t.everyone)
    early = stepper("snatch", 3, {}, seed=4)
    early.run_until(lambda t: len(t.log) > 20)
    with pytest.raises(RemoteProtocolError, match=r"end refused|out of turn") as info:
        early.seats[0].receive(early.forge(1, "end", lie))
    assert info.value.seat == 1
