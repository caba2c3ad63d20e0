"""The bounds on how long one seat holds a step (:mod:`fairdeal.net.steps`), at chosen moments."""

from __future__ import annotations

import math

import pytest

from fairdeal.net.steps import Steps

T, GRACE = 30.0, 120.0
A, B = b"a" * 32, b"b" * 32


def test_a_steps_time_runs_while_its_seat_is_there_and_not_while_it_is_away() -> None:
    s = Steps(GRACE)
    s.owe(1, A, T, 0.0)
    assert s.runs_out(1, 0.0) == T
    s.owe(1, A, T, 10.0)  # the same step, asked again: nothing starts again
    assert s.runs_out(1, 10.0) == T
    s.went_away(1, 10.0)
    s.came_back(1, 70.0)
    assert s.used(1, 70.0) == 10.0 and s.away(1, 70.0) == 60.0
    assert s.runs_out(1, 70.0) == 70.0 + T  # back: its whole time again (10 s used, 40 allowed)


def test_coming_back_again_and_again_gives_no_more_than_twice_the_steps_time() -> None:
    s = Steps(GRACE)
    s.owe(1, A, T, 0.0)
    now = 0.0
    for _ in range(100):  # there 5 s, away an instant, back
        now += 5.0
        s.went_away(1, now)
        now += 0.01
        s.came_back(1, now)
    assert s.used(1, now) == pytest.approx(500.0)
    assert s.runs_out(1, now) == pytest.approx(now + 2 * T - 500.0)  # long past: blamed when heard


def test_absences_during_a_step_add_up_to_the_grace_period() -> None:
    s = Steps(GRACE)
    s.owe(1, A, math.inf, 0.0)
    for k in range(3):  # away 100 s, back for an instant, three times
        s.went_away(1, 100.0 * k + 1)
        s.came_back(1, 100.0 * k + 100)
    assert s.away(1, 300.0) == pytest.approx(297.0)
    s.went_away(1, 301.0)
    assert s.grace_ends(1, 301.0) == pytest.approx(301.0 + GRACE - 297.0)  # long past: blamed now


def test_an_absence_counts_for_a_step_only_from_when_it_was_owed_and_a_new_step_starts_afresh() -> None:
    s = Steps(GRACE)
    s.went_away(1, 0.0)
    s.owe(1, A, T, 50.0)  # owed while away
    assert s.away(1, 60.0) == 10.0 and s.grace_ends(1, 60.0) == 50.0 + GRACE
    s.came_back(1, 60.0)
    s.owe(1, B, T, 61.0)  # it wrote its entry: the next step is timed from its start
    assert s.away(1, 70.0) == 0.0 and s.runs_out(1, 70.0) == 61.0 + T
