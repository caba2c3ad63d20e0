"""Entries several seats owe at once: written at once, put in the log in any order.

The keys, the shares of one reveal, random commitments and then reveals, the final
reveal: each seat writes its entry as soon as it owes it, answering the entry that made
it owed (its anchor), and the host places it wherever it arrives. Whatever the order,
every peer writes the same log and checks every entry exactly as before; an entry sent
twice, after its obligation was met, or by a seat that does not owe it is refused with
that seat named.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.session import HostCheated
from fairdeal.core.session.envelope import decode_envelope, entry_hash


def placed(t: Any, data: bytes) -> bytes:
    """``data`` as the host puts it: at the end of the log (its author's signature holds)."""
    s = t.seats[0]
    return decode_envelope(data).place(s.seq, s.last_hash, t.ids[0]).encode()


def owing(t: Any) -> list[Any]:
    return list(t.seats[0].owing())


def written_at_once(t: Any) -> dict[int, bytes]:
    """What every owing seat writes now, each from its own session, before any is placed."""
    return {w.seat: t.seats[w.seat].due() for w in owing(t) if not w.decision}


def step_concurrently(t: Any, order: Any) -> None:
    """Deliver the next owed entries: a group written at once is placed in ``order``'s order."""
    group = owing(t)
    if len(group) == 1:
        t.deliver(placed(t, t.step()))
        return
    built = written_at_once(t)
    assert set(built) == {w.seat for w in group} and all(built.values())
    for seat in order(sorted(built)):
        t.deliver(placed(t, built[seat]))


def test_a_public_reveal_among_ten_seats_is_one_group_written_at_once(stepper: Any) -> None:
    t = stepper("snatch", 10, {})

    def group_of_shares(t: Any) -> bool:
        return len(owing(t)) > 1 and all("shares" in w.what for w in owing(t))

    t.run_until(group_of_shares)
    built = written_at_once(t)
    assert len(built) >= 9  # one round trip for every seat's share, not one each
    # every share answers the entry that made it owed
    assert {decode_envelope(b).anchor for b in built.values()} == {entry_hash(t.log[-1])}
    for seat in reversed(sorted(built)):  # the last seat's arrives first
        t.deliver(placed(t, built[seat]))
    t.finish()
    assert all(s.verdict is not None and s.verdict.fair for s in t.everyone)


def test_shares_of_one_reveal_in_every_order_give_one_game(stepper: Any) -> None:
    results = set()
    for perm in itertools.permutations(range(3)):
        t = stepper("snatch", 3, {}, seed=5)

        def in_perm(seats: list[int], perm: tuple[int, ...] = perm) -> list[int]:
            return sorted(seats, key=perm.index)

        for _ in range(5000):
            if t.seats[0].waiting() is None:
                break
            step_concurrently(t, in_perm)
        logs = {tuple(s.script) == tuple(t.seats[0].script) for s in t.seats}
        assert logs == {True}
        assert all(s.verdict is not None and s.verdict.fair for s in t.everyone)
        results.add((t.seats[0].result, t.seats[0].verdict))
    assert len(results) == 1  # the order of concurrent entries changes nothing of the game


def test_an_entry_the_host_places_twice_or_late_blames_the_host(stepper: Any) -> None:
    t = stepper("snatch", 4, {}, seed=2)
    t.run_until(lambda t: len(owing(t)) > 2 and all("shares" in w.what for w in owing(t)))
    built = written_at_once(t)
    seats = sorted(built, key=lambda s: s == 0)  # a guest's first (the host's own are its anyway)
    first, second = seats[0], seats[1]
    t.deliver(placed(t, built[first]))
    for s in t.everyone:  # the same entry again, its author's own included: the host placed it twice
        with pytest.raises(HostCheated) as info:
            s.receive(placed(t, built[first]))
        assert info.value.seat == 0 and "a second time" in info.value.reason
        assert info.value.evidence == (placed(t, built[first]),)
    for seat in seats[1:]:
        t.deliver(placed(t, built[seat]))
    # after the reveal is complete, the copy of an entry the log holds is the host's doing too
    for s in t.everyone:
        with pytest.raises(HostCheated):
            s.receive(placed(t, built[second]))
    t.finish()
    assert all(s.verdict is not None and s.verdict.fair for s in t.everyone)


def test_an_entry_of_a_seat_that_owes_nothing_is_refused_naming_it(stepper: Any) -> None:
    t = stepper("snatch", 4, {}, seed=2)
    t.run_until(lambda t: len(owing(t)) > 2 and all("shares" in w.what for w in owing(t)))
    built = written_at_once(t)
    for seat in sorted(built):
        t.deliver(placed(t, built[seat]))
    # a second, different entry for a point where the log holds the seat's: its own equivocation
    seat = max(built)
    env = decode_envelope(built[seat])
    row = list(env.body["shares"][0])
    row[3] = bytes(31) + b"\x01"  # another proof: another writing for the same point of the log
    other = replace(env, body={**env.body, "shares": [row, *env.body["shares"][1:]]}).signed(t.ids[seat])
    for s in t.everyone:
        if s is t.seats[seat]:
            continue
        with pytest.raises(RemoteProtocolError) as info:
            s.receive(placed(t, other.encode()))
        assert info.value.seat == seat and not isinstance(info.value, HostCheated)


def test_an_entry_answering_another_point_of_the_log_is_refused(stepper: Any) -> None:
    t = stepper("snatch", 3, {}, seed=2)
    t.run_until(lambda t: len(owing(t)) > 1 and len(t.log) > 5)
    built = written_at_once(t)
    seat = sorted(built)[-1]
    host = t.seats[0]
    k = host.seq - 2  # a point of this log, but not the one the entry is owed at
    env = decode_envelope(built[seat])
    moved = replace(env, anchor_seq=k, anchor=host.hashes[k], anchor_sig=host._chain.placements[k]).signed(
        t.ids[seat]
    )
    for s in t.everyone:
        if s is t.seats[seat]:
            continue
        with pytest.raises(RemoteProtocolError, match="another point of the log") as info:
            s.receive(placed(t, moved.encode()))
        assert info.value.seat == seat


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_any_arrival_order_leaves_every_peer_in_the_same_state(stepper: Any, seed: int) -> None:
    rng = random.Random(seed)
    t = stepper("ecarte", 2, {"target": 1}, seed=4)

    def shuffled(seats: list[int]) -> list[int]:
        rng.shuffle(seats)
        return seats

    for _ in range(5000):
        if t.seats[0].waiting() is None:
            break
        step_concurrently(t, shuffled)
    states = {(s.seq, s.last_hash, s.result, s.verdict) for s in t.everyone}
    assert len(states) == 1
    assert all(s.verdict is not None and s.verdict.fair for s in t.everyone)
