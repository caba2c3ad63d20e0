"""Leaving on purpose, one seat per process, and line mode's input at the end: through the real CLI.

A host stopped with Ctrl-C tells the table, and its guests stop with "the host left the
game" instead of trying to reach it again; a guest stopped so is blamed for leaving, not
held as a dropped link; a resignation is told as one. A second process for a seat that
is being played (``resume``, or ``join`` with the code of the game) is refused at once and
changes nothing. A person's line mode whose game ends while it waits for input exits
cleanly. Real processes over loopback TCP; every wait bounded.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from fairdeal.seatlock import lock_path
from fairdeal.seedfile import seed_path

from .peers import Peer, check_logs, flat, host, join

pytestmark = pytest.mark.slow

ECARTE = ["ecarte", "--option", "target=3"]
SNATCH = ["snatch", "--players", "3"]


def _until(test: object, limit: float, what: str) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if test():  # type: ignore[operator]
            return
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def _entries(p: Peer) -> int:
    from fairdeal.core.session.logfile import parse_log

    return len(parse_log(p.log.read_bytes()).entries) if p.log.exists() else 0


def test_a_host_that_leaves_tells_the_table_and_its_guests_stop_without_trying_to_reach_it(
    tmp_path: Path,
) -> None:
    h, code = host(tmp_path, *SNATCH, "--seed", "91")
    guests = [join(tmp_path, f"guest{i}", code, "--seed", str(91 + i)) for i in (1, 2)]
    _until(lambda: _entries(h) >= 4, 60, "the game to be under way")
    h.interrupt()
    assert h.wait() == 130 and "Leaving the game: telling the others" in h.err
    assert h.result()["error"] == "you left the game"
    assert seed_path(h.log).exists(), "the host goes on later with resume"
    for g in guests:
        assert g.wait() == 1, g.err
        assert g.result()["error"] == "the host left the game"
        assert "The host left the game: it stops here" in flat(g.err)
        assert "trying to reach it again" not in g.err
        assert seed_path(g.log).exists(), "the seat can go on if the host resumes"


def test_a_guest_that_leaves_is_blamed_for_leaving_and_one_that_resigns_is_told_as_resigned(
    tmp_path: Path,
) -> None:
    h, code = host(tmp_path, *SNATCH, "--seed", "92")
    g1 = join(tmp_path, "guest1", code, "--seed", "93")
    g2 = join(tmp_path, "guest2", code, "--seed", "94")
    _until(lambda: _entries(h) >= 4, 60, "the game to be under way")
    g2.interrupt()
    assert g2.wait() == 130
    seat = int(re.search(r"in seat (\d+) of", g2.err).group(1))  # type: ignore[union-attr]
    for p in (h, g1):
        assert p.wait() == 1, p.err
        aborted = p.result()["aborted"]
        assert aborted["reason"] == "left the game" and aborted["blamed"] == [seat], aborted
    assert "connection dropped" not in h.err and "trying to reach it again" not in g1.err

    # A person who resigns in line mode: the others are told "NAME resigned".
    (tmp_path / "r").mkdir()
    h2, code2 = host(tmp_path / "r", *ECARTE, "--seed", "95")
    g = join(tmp_path / "r", "person", code2, "--seat", "human", "--name", "Bob", stdin="quit\ny\n")
    for p in (h2, g):
        assert p.wait() == 0, p.err
        assert p.result()["reason"] == "Bob resigned", p.result()
    assert "connection dropped" not in h2.err and "trying to reach it again" not in g.err


def test_a_second_process_for_a_seat_being_played_is_refused_at_once_and_changes_nothing(
    tmp_path: Path,
) -> None:
    # The host is a person who has not answered yet: the game waits while the others try.
    err = tmp_path / "host.err"
    h, code = host(tmp_path, *ECARTE, "--seat", "human", "--seed", "96", hold=True, stderr_file=err)
    g = join(tmp_path, "guest", code, "--seed", "97")
    _until(lambda: "Your move" in err.read_text(), 60, "the host's first decision")
    _until(lambda: seed_path(g.log).exists() and lock_path(g.log).exists(), 60, "the guest's seed and lock")
    assert lock_path(g.log).read_text().strip() == str(g.proc.pid)
    _until(lambda: g.log.read_bytes() == h.log.read_bytes(), 30, "the guest to hold every entry")
    before = g.log.read_bytes()
    refusal = f"this game is being played by another fairdeal process (pid {g.proc.pid}) on this machine"
    again = Peer(tmp_path, "again", ["resume", str(g.log), "--json"], home=g.home, log=False)
    assert again.wait(30) == 2, again.err
    assert refusal in flat(again.err) and "Traceback" not in again.err
    rejoin = Peer(tmp_path, "rejoin", ["join", code, "--seat", "bot", "--json"], home=g.home, log=False)
    assert rejoin.wait(30) == 2, rejoin.err
    assert refusal in flat(rejoin.err) and "unfinished game at this table" in flat(rejoin.err)
    assert g.proc.poll() is None and g.log.read_bytes() == before, "the seat's own process goes on, untouched"
    h.type("1\n" * 300)
    h.release()
    for p in (h, g):
        assert p.wait() == 0, p.err
    check_logs([h, g])
    assert "connection dropped" not in h.err, "the seat's connection was never taken from it"
    assert not lock_path(g.log).exists() and not lock_path(h.log).exists(), "a process that ends lets go"


def test_line_mode_whose_game_ends_while_it_waits_for_input_exits_cleanly(tmp_path: Path) -> None:
    # The person never answers; the host's move timeout ends the game while their input is read.
    h, code = host(tmp_path, *ECARTE, "--move-timeout", "1", "--seed", "98")
    g = join(tmp_path, "person", code, "--seat", "human", "--plain", hold=True)
    for p in (h, g):
        assert p.wait() == 1, p.err
        assert "timed out waiting for" in p.result()["aborted"]["reason"]
    assert "Fatal Python error" not in g.err and "Traceback" not in g.err, g.err[-2000:]
    g.release()
