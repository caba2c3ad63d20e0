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
from fairdeal.core.session import DamagedEntry
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


@pytest.mark.parametrize("keep", [30, 40, 60])
def test_a_cut_log_is_told_from_a_finished_one(keep: int) -> None:
    entries = parse_log(_snatch().log).entries
    report = verify_log(_log(entries[:keep]), registry.load().game)
    assert report.verdict == UNDECIDED, report.findings
    assert "the log ends before the game is over" in report.findings[0].reason


@pytest.mark.parametrize("keep", ["all but one end", "no end", "an abort for a missing end"])
def test_a_seat_that_does_not_sign_the_end_cannot_undo_a_decided_game(keep: str) -> None:
    """Once the final reveal is complete and every move checked, the rules have decided the game: a
    seat that never signs its end (gone, or unwilling to sign a loss) leaves it decided, and the
    report says who did not sign."""
    played = _snatch()
    entries = parse_log(played.log).entries
    first_end = next(i for i, e in enumerate(entries) if decode_envelope(e).kind == "end")
    kept = list(entries[: len(entries) - 1 if keep == "all but one end" else first_end])
    if keep == "an abort for a missing end":
        from fairdeal.core.session.envelope import FORMAT_VERSION, Envelope
        from fairdeal.core.session.session import Session
        from fairdeal.testing import seat_sessions

        host = seat_sessions(registry.load().game("snatch"), 3, 3).identities[0]
        obs = Session(registry.load().game("snatch"), None)
        for e in kept:
            obs.receive(e)
        body = {"blame": [1], "reason": "seat 1 did not sign within 60 s"}
        abort = Envelope(FORMAT_VERSION, obs.header.game_id, 0, "abort", body, *obs.point(None)).signed(host)
        kept.append(abort.place(obs.seq, obs.last_hash, host).encode())
    report = verify_log(_log(kept), registry.load().game)
    assert report.verdict == FAIR, report.findings
    assert report.result == played.session.result
    note = report.checked[-1]
    assert "did not sign the end of the game" in note and "the result stands" in note
    if keep == "an abort for a missing end":
        assert "the host aborted: seat 1 did not sign within 60 s" in note


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
    with pytest.raises(DamagedEntry, match="a float"):  # equal in Python, not the same: no float decodes
        t.seats[0].receive(t.forge(1, "end", loose))
    t.finish()
    assert all(s.phase == "done" and s.finished for s in t.everyone)
    early = stepper("snatch", 3, {}, seed=4)
    early.run_until(lambda t: len(t.log) > 20)
    with pytest.raises(RemoteProtocolError, match=r"end refused|out of turn") as info:
        early.seats[0].receive(early.forge(1, "end", lie))
    assert info.value.seat == 1
