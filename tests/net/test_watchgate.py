"""The budgets of watchers' catch-ups (:mod:`fairdeal.net.watchgate`), on a clock the test moves."""

from __future__ import annotations

import pytest

from fairdeal.net.lobbyterms import busy, busy_for
from fairdeal.net.watchgate import Budget, CatchUpLimits, WatchGate, address_key

LOG = 3_000_000  # a long game's log, in bytes


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _gate(**limits: object) -> tuple[WatchGate, Clock]:
    clock = Clock()
    return WatchGate(CatchUpLimits(**limits), clock), clock  # type: ignore[arg-type]


def test_one_identity_gets_its_burst_then_waits_as_long_as_its_budget_takes_to_fill() -> None:
    gate, clock = _gate()  # 8 MiB an identity, 4 MiB a minute
    me = b"watcher"
    assert [gate.admit(me, "10.0.0.1:4000", LOG) for _ in range(3)] == [None, None, None]  # 9 MB: past 8 MiB
    wait = gate.admit(me, "10.0.0.1:4000", LOG)
    assert wait is not None and wait == pytest.approx((3 * LOG - 8 * 2**20) / (4 * 2**20 / 60))
    clock.now += wait - 1
    assert gate.admit(me, "10.0.0.1:4000", LOG) is not None  # not yet
    clock.now += 1.01
    assert gate.admit(me, "10.0.0.1:4000", LOG) is None
    assert gate.admit(b"another", "10.0.0.1:4000", LOG) is None  # another identity, same address: room


def test_new_identities_from_one_address_share_its_budget_and_other_addresses_are_not_held_up() -> None:
    gate, _ = _gate()  # 16 MiB an address
    admitted = 0
    for n in range(100):
        if gate.admit(b"id %d" % n, f"10.0.0.1:{4000 + n}", LOG) is None:
            admitted += 1
    assert admitted == 6  # 16 MiB, and the catch-up that took it below zero
    assert gate.admit(b"elsewhere", "10.0.0.2:4000", LOG) is None


def test_every_address_and_identity_together_are_held_to_the_total() -> None:
    gate, clock = _gate()  # 32 MiB in all, 16 MiB a minute
    sent = 0.0
    for minute in range(10):
        for n in range(1000):
            if gate.admit(b"%d-%d" % (minute, n), f"10.{minute}.{n // 256}.{n % 256}:1", LOG) is None:
                sent += LOG
        clock.now += 60
    assert sent <= 32 * 2**20 + 9 * 16 * 2**20 + 10 * LOG  # the burst, the rate, one log over each time
    assert sent >= 9 * 16 * 2**20  # and no less than the rate allows


def test_a_catch_up_of_nothing_always_starts_and_a_log_larger_than_a_budget_still_does() -> None:
    gate, _ = _gate(identity=Budget(1000, 100))
    assert gate.admit(b"w", "10.0.0.1:1", 50_000) is None  # more than its whole budget: sent once
    assert gate.admit(b"w", "10.0.0.1:1", 50_000) is not None
    assert gate.admit(b"w", "10.0.0.1:1", 0) is None  # it holds everything: nothing to send


def test_whose_address_a_connection_draws_on() -> None:
    assert address_key("192.0.2.7:40000") == "192.0.2.7"
    assert address_key("[2001:db8:1:2:3:4:5:6]:40000") == "2001:db8:1:2::/64"
    assert address_key("[2001:db8:1:2:ffff::1]:1") == address_key("[2001:db8:1:2::9]:2")
    assert address_key("[::ffff:192.0.2.7]:1") == "192.0.2.7"
    assert address_key("relay relay.example:4001 (door 2)") is None  # the relay hides where it comes from
    assert address_key("?") == "?"


def test_through_the_relay_only_the_identity_and_the_total_count() -> None:
    gate, _ = _gate(address=Budget(1, 1))
    relayed = [gate.admit(b"%d" % n, f"relay r:1 (door {n})", LOG) for n in range(6)]
    assert relayed == [None] * 6


def test_the_gate_remembers_a_bounded_number_of_identities_and_addresses() -> None:
    gate, clock = _gate(remembered=50)
    for n in range(5000):
        clock.now += 0.001
        gate.admit(b"%d" % n, f"10.0.{n // 256}.{n % 256}:1", 10)
    assert len(gate._identities) <= 50 and len(gate._addresses) <= 50


def test_a_busy_refusal_says_when_to_watch_again() -> None:
    assert busy_for(busy(12.2)) == 13 and busy_for(busy(0.01)) == 1
    assert busy_for("the game has not started yet: watch again once it has begun") is None
