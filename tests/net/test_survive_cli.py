"""A game survives, end to end through the real CLI: ``kill -9`` of a guest or of the host at the
points that matter, then ``fairdeal resume``; links cut by a proxy; a watcher; adjourning and
resuming every seat. Real processes over loopback TCP; every wait bounded.

A process is killed at an exact point by ``FAIRDEAL_CRASH`` (``net/_fault.py``: the process
sends itself SIGKILL there: no cleanup, no goodbye), or from outside. Each game must
finish with every peer's log byte-identical and fair, and no entry lost or doubled.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from fairdeal.core.session.envelope import decode_envelope, entry_hash
from fairdeal.core.session.logfile import parse_log
from fairdeal.seatlock import lock_path
from fairdeal.seedfile import seed_path

from .peers import Peer, check_logs, flat, host, join
from .proxy import ThreadedProxy

pytestmark = pytest.mark.slow

ECARTE = ["ecarte", "--option", "target=3"]


def _resume(tmp: Path, peer: Peer, label: str, *extra: str, **kwargs: object) -> Peer:
    """``fairdeal resume LOG --json`` in ``peer``'s home; its log is ``peer``'s."""
    again = Peer(tmp, label, ["resume", str(peer.log), "--json", *extra], home=peer.home, log=False, **kwargs)
    again.log = peer.log
    return again


def _killed(peer: Peer) -> None:
    code = peer.wait()
    assert code == -9, f"expected a SIGKILL, got {code}: {peer.err}"


def _finished(*peers: Peer) -> None:
    for p in peers:
        code = p.wait()
        assert code == 0, f"{p.proc.args}: exit {code}\n{p.err}"
        r = p.result()
        assert r["verdict"] == "fair" and r["error"] is None, r


def _no_entry_twice(log: Path) -> None:
    entries = parse_log(log.read_bytes()).entries
    assert len({entry_hash(e) for e in entries}) == len(entries)
    assert [decode_envelope(e).seq for e in entries] == list(range(len(entries)))


@pytest.mark.parametrize(
    "point",
    ["accepted:deck.shuffle:1", "accepted:deck.shares:3", "sent:move:2", "audit:1"],
    ids=["mid-shuffle", "mid-reveal", "after-sending-a-move", "during-the-audit"],
)
def test_a_guest_killed_at_a_point_that_matters_resumes_and_the_game_finishes(
    tmp_path: Path, point: str
) -> None:
    h, code = host(tmp_path, *ECARTE, "--seed", "11")
    g = join(tmp_path, "guest", code, "--seed", "12", env={"FAIRDEAL_CRASH": point})
    _killed(g)
    assert seed_path(g.log).exists(), "the seed file was kept"
    assert lock_path(g.log).read_text().strip() == str(g.proc.pid), "the lock of a killed process stays"
    again = _resume(tmp_path, g, "guest-again")
    _finished(h, again)
    assert f"played this seat before (pid {g.proc.pid}) ended without letting go of it" in flat(again.err)
    assert not lock_path(g.log).exists(), "taken over, and let go at the end"
    assert not seed_path(g.log).exists() and not seed_path(h.log).exists(), (
        "seed files are deleted at the end"
    )
    check_logs([h, g])
    _no_entry_twice(h.log)
    assert "to come back" in h.err and "is back" in h.err


SNATCH = ["snatch", "--players", "3"]


@pytest.mark.parametrize(
    ("game", "point"),
    [
        (SNATCH, "accepted:deck.shuffle:2"),
        (SNATCH, "accepted:deck.shares:2"),
        (SNATCH, "heard:move:2"),
        (ECARTE, "audit:1"),
        (ECARTE, "audit:2"),
    ],
    ids=["mid-shuffle", "mid-reveal", "a-move-heard-not-relayed", "final-reveal-own", "final-reveal-last"],
)
def test_the_host_killed_at_a_point_that_matters_resumes_and_the_game_finishes(
    tmp_path: Path, game: list[str], point: str
) -> None:
    h, code = host(tmp_path, *game, "--seed", "21", env={"FAIRDEAL_CRASH": point})
    players = 3 if game is SNATCH else 2
    guests = [join(tmp_path, f"guest{i}", code, "--seed", str(21 + i)) for i in range(1, players)]
    _killed(h)
    assert seed_path(h.log).exists()
    again = _resume(tmp_path, h, "host-again")
    _finished(again, *guests)
    check_logs([h, *guests])
    _no_entry_twice(h.log)
    for g in guests:
        assert "trying to reach it again" in g.err and "Reached the host again" in g.err
        # A guest back before another hears it as not yet resumed, never as a dropped link.
        assert "connection dropped" not in g.err, g.err


def test_a_guest_killed_from_outside_resumes(tmp_path: Path) -> None:
    h, code = host(tmp_path, "spite-malice", "--option", "max_games=1", "--seed", "31",
                   stderr_file=tmp_path / "host.err")  # fmt: skip
    g = join(tmp_path, "guest", code, "--seed", "32")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (g.log.exists() and g.log.stat().st_size > 40_000):
        time.sleep(0.01)
    g.proc.kill()
    g.wait()
    # A closed connection is noticed at once, not after a keepalive timeout (60 s).
    seen = time.monotonic() + 10
    while time.monotonic() < seen and "connection dropped" not in (tmp_path / "host.err").read_text():
        time.sleep(0.02)
    assert "connection dropped" in (tmp_path / "host.err").read_text()
    again = _resume(tmp_path, g, "guest-again")
    _finished(h, again)
    check_logs([h, g])
    _no_entry_twice(h.log)


def test_links_cut_by_a_proxy_come_back_by_themselves(tmp_path: Path) -> None:
    from fairdeal.net.invite import Endpoint, Invite, decode_invite

    h, code = host(tmp_path, *ECARTE, "--seed", "41")
    real = decode_invite(code)
    proxy = ThreadedProxy((real.direct[0].host, real.direct[0].port))
    try:
        via = Invite(real.fingerprint, real.secret, (Endpoint("127.0.0.1", proxy.port),)).encode()
        g = join(tmp_path, "guest", via, "--seed", "42")
        for size in (6_000, 12_000, 18_000):
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not (g.log.exists() and g.log.stat().st_size > size):
                if g.proc.poll() is not None:
                    break
                time.sleep(0.01)
            proxy.cut()
        _finished(h, g)
    finally:
        proxy.close()
    check_logs([h, g])
    _no_entry_twice(h.log)
    assert g.err.count("Reached the host again") >= 1, g.err


def test_a_watcher_joins_mid_game_from_the_command_line_and_its_log_verifies(tmp_path: Path) -> None:
    h, code = host(tmp_path, "spite-malice", "--option", "max_games=1", "--seed", "51")
    guests = [join(tmp_path, "guest1", code, "--seed", "52")]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (h.log.exists() and h.log.stat().st_size > 20_000):
        time.sleep(0.01)
    w = Peer(tmp_path, "watcher", ["watch", code, "--plain"], stderr_file=tmp_path / "watcher.err")
    _finished(h, *guests)
    assert w.wait() == 0, w.err
    assert w.result()["verdict"] == "fair"
    check_logs([h, *guests, w])
    assert "A watcher joined" in h.err


def test_an_adjourned_game_resumes_on_every_seat(tmp_path: Path) -> None:
    # The host is a person in line mode: it plays the first move each time and proposes to adjourn
    # at its third decision; the bot guest agrees at once.
    moves = "1\n1\nadjourn\n" + "1\n" * 40
    h, code = host(tmp_path, *ECARTE, "--seat", "human", "--seed", "61", stdin=moves)
    g = join(tmp_path, "guest", code, "--seed", "62")
    assert h.wait() == 3 and g.wait() == 3, (h.err, g.err)
    first = h.log.read_bytes()
    assert g.log.read_bytes() == first
    assert h.result()["adjourned"] and g.result()["adjourned"]
    assert seed_path(h.log).exists() and seed_path(g.log).exists()
    assert json.loads(seed_path(h.log).read_text())["adjourned"]
    listed = Peer(tmp_path, "list", ["resume"], home=h.home, log=False, stdin="q\n")
    listed.wait()
    assert "adjourned" in listed.out and str(h.log) in listed.out
    # Later: the host resumes; the guest comes back by joining with the old code.
    h2 = _resume(tmp_path, h, "host-again", stdin="1\n" * 200)
    g2 = Peer(tmp_path, "guest-again", ["join", code, "--seat", "bot", "--json"], home=g.home, log=False)
    g2.log = g.log
    _finished(h2, g2)
    assert "unfinished game at this table" in g2.err
    data = check_logs([h, g])
    assert data.startswith(first) and len(data) > len(first)
    _no_entry_twice(h.log)


def test_a_seed_file_that_is_missing_damaged_or_from_another_game_stops_resume(tmp_path: Path) -> None:
    h, code = host(tmp_path, *ECARTE, "--seed", "71")
    g = join(tmp_path, "guest", code, "--seed", "72", env={"FAIRDEAL_CRASH": "accepted:deck.shares:2"})
    _killed(g)
    seed = seed_path(g.log)
    kept = seed.read_bytes()

    def resume() -> Peer:
        p = _resume(tmp_path, g, "again")
        p.wait()
        return p

    seed.unlink()
    p = resume()
    said = " ".join(p.err.split())
    assert p.proc.returncode == 2 and "Traceback" not in p.err, p.err
    assert "did not finish, and has no seed file to go on with" in said, said
    assert "nor a network seat whose seed file is gone" in said and "fairdeal replay" in said, said
    seed.write_bytes(b"{not json")
    seed.chmod(0o600)
    p = resume()
    assert p.proc.returncode == 2 and "is damaged" in p.err
    other = json.loads(kept)
    other["game_id"] = "00" * 16
    seed.write_text(json.dumps(other))
    seed.chmod(0o600)
    p = resume()
    assert p.proc.returncode == 2 and "from another game" in p.err
    seed.write_bytes(kept)
    seed.chmod(0o600)
    again = _resume(tmp_path, g, "guest-again")
    _finished(h, again)
    check_logs([h, g])


def test_a_guest_whose_host_never_comes_back_keeps_its_log_and_says_how_to_resume(tmp_path: Path) -> None:
    h, code = host(
        tmp_path, *ECARTE, "--grace", "1", "--seed", "81", env={"FAIRDEAL_CRASH": "accepted:deck.shares:2"}
    )
    g = join(tmp_path, "guest", code, "--seed", "82")
    _killed(h)
    assert g.wait() == 1, g.err
    result = g.result()
    assert "could not reach it again within 1 s" in result["error"], result
    assert "trying to reach it again" in g.err and f"resume {g.log}" in g.err.replace("\n  ", " ")
    assert seed_path(g.log).exists() and h.log.read_bytes().startswith(g.log.read_bytes())


def test_resume_of_a_log_that_is_not_there_says_so(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.fdlog"
    p = Peer(tmp_path, "resume", ["resume", str(missing)], log=False)
    assert p.wait() == 2
    assert f"fairdeal: there is no game log at {missing}" in p.err and "Traceback" not in p.err
