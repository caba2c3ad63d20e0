"""A minute offline is not the end: ten players in ten homes, one home's Wi-Fi gone and back.

Every home is a network namespace that reaches only a public one, where a real
``twist transitrelay`` runs (:mod:`.netns`): every game goes through the relay. A drop is
the home's interface going down — nothing sent, no FIN, no RST — for longer than the step
timeout and shorter than the grace; the seat comes back on the same network or on another
one (another address). Every timeout is scaled down through the flags: a ping every second
(``--heartbeat 1.5``: a silent peer is dropped after 4.5 s), 4 s a step, 4 s a move.

Each game must finish with nobody blamed, every log byte-identical and fair; a drop longer
than the grace ends the game blaming that seat alone. For each drop the test checks, from
the host's log as it grew, that the seat really owed its entry while it was away, for
longer than the step timeout.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from .netns import Home, Internet, NoNamespaces, why_not
from .peers import Peer, check_logs, flat, wait_for_code
from .timeline import Seen, Timeline

pytestmark = pytest.mark.slow

PLAYERS = 10
STEP = 4.0  # --timeout and --move-timeout
DOWN = 8.0  # longer than a step, shorter than the grace
HEARTBEAT = ["--heartbeat", "1.5"]
LIMIT = 240.0


@pytest.fixture(scope="module")
def net() -> Iterator[Internet]:
    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    try:
        internet = Internet(PLAYERS, Path(sys.executable).parent / "twist")
    except NoNamespaces as exc:
        pytest.skip(str(exc))
    try:
        yield internet
    finally:
        internet.close()


@dataclass
class Table:
    """A game of ten: the host in home 0, a joiner in each other home; seats by arrival."""

    net: Internet
    host: Peer
    guests: list[Peer]
    timeline: Timeline
    homes: dict[int, Home]  # by seat
    peers: dict[int, Peer]  # by seat
    backs: dict[int, int] = field(default_factory=dict)  # "is back" lines of each seat before its drop

    @property
    def everyone(self) -> list[Peer]:
        return [self.peers[s] for s in sorted(self.peers)]

    def alive(self) -> bool:
        return self.host.proc.poll() is None

    def wait(self, test: object, limit: float = 90) -> float:
        return self.timeline.wait_for(test, limit, self.alive)  # type: ignore[arg-type]

    def drop(self, seat: int, *, move: bool = False, seconds: float = DOWN) -> tuple[float, float]:
        """Seat ``seat``'s home offline for ``seconds``, then back (on its other network with
        ``move``); when it went down and when it came back."""
        home = self.homes[seat]
        for s in [seat] if seat else [s for s in self.peers if s]:
            self.backs[s] = self.host_err().count(f"{self.name(s)} is back")
        down = time.monotonic()
        home.down()
        time.sleep(max(0.0, down + seconds - time.monotonic()))
        home.move() if move else home.up()
        return down, time.monotonic()

    def back_of(self, seat: int, limit: float = 60) -> None:
        """Wait until the host has taken seat ``seat`` back after its last drop."""
        back = f"{self.name(seat)} is back"
        end = time.monotonic() + limit
        text = ""
        while time.monotonic() < end and self.alive():
            text = self.host_err()
            if text.count(back) > self.backs[seat]:
                return
            time.sleep(0.02)
        raise AssertionError(f"seat {seat} did not come back; host:\n{text[-3000:]}")

    def name(self, seat: int) -> str:
        m = re.search(rf"seat {seat}: (.+?)  fd1-", self.host_err())
        assert m, self.host_err()
        return m.group(1)

    def host_err(self) -> str:
        assert self.host.stderr_file is not None
        return self.host.stderr_file.read_text()


def _table(tmp: Path, net: Internet, *host_flags: str, human: int | None = None, seed: int = 1) -> Table:
    """Host snatch for ten in home 0 and join from every other home (home ``human`` with a person
    in line mode whose input is held); returns once every seat is taken and the game began."""
    for home in net.homes:
        if home.active != 0:
            home.move()  # every home on its first network again
    code_file = tmp / "invite.txt"
    host = Peer(
        tmp, "host",
        ["host", "snatch", "--players", str(PLAYERS), "--seat", "bot", "--bind", "0.0.0.0",
         "--relay", net.relay_endpoint, "--invite-file", str(code_file), "--seed", str(seed),
         "--timeout", str(STEP), "--move-timeout", str(STEP), *HEARTBEAT, *host_flags],
        prefix=net.homes[0].prefix, stderr_file=tmp / "host.err",
    )  # fmt: skip
    code = wait_for_code(code_file, host, limit=30)
    guests = []
    for n in range(1, PLAYERS):
        kind = ["--seat", "human"] if n == human else ["--seat", "bot", "--seed", str(seed * 100 + n)]
        join = ["join", code, *kind, *HEARTBEAT]
        err = tmp / f"home{n}.err"
        home = net.homes[n].prefix
        guests.append(Peer(tmp, f"home{n}", join, prefix=home, stderr_file=err, hold=n == human))
    timeline = Timeline(host.log).start()
    table = Table(net, host, guests, timeline, {0: net.homes[0]}, {0: host})
    timeline.wait_for(lambda es: len(es) >= 1, 90, table.alive)
    for n, g in enumerate(guests, 1):
        assert g.stderr_file is not None
        end = time.monotonic() + 30
        while not (m := re.search(r"in seat (\d+) of", g.stderr_file.read_text())):
            assert time.monotonic() < end, g.stderr_file.read_text()
            time.sleep(0.02)
        seat = int(m.group(1))
        table.homes[seat], table.peers[seat] = net.homes[n], g
    return table


def _owed_while_away(t: Table, seat: int, down: float, up: float, kinds: Sequence[str]) -> Seen:
    """The first entry seat ``seat`` wrote after going down: of one of ``kinds``, accepted after it
    came back, and owed while it was away for longer than the step timeout."""
    t.wait(lambda es: any(e.seat == seat and e.at > down + 0.05 for e in es), 60)
    entry = t.timeline.first_from(seat, down + 0.05)
    assert entry is not None
    assert entry.kind in kinds, (entry, kinds)
    assert entry.at > up, f"seat {seat}'s {entry.kind} came before its link did ({entry.at - up:.2f} s)"
    owed = t.timeline.owed_since(entry)
    assert up - max(owed, down) > STEP, f"seat {seat} owed its {entry.kind} only {up - max(owed, down):.1f} s"
    return entry


def _finished(t: Table) -> None:
    for p in t.everyone:
        code = p.wait(LIMIT)
        assert code == 0, f"{p.proc.args}: exit {code}\n{p.err[-4000:]}"
        r = p.result()
        assert r["verdict"] == "fair" and r["error"] is None and r["aborted"] is None, r
        assert "Fatal Python error" not in p.err
    check_logs(t.everyone)


def test_ten_homes_one_offline_longer_than_a_step_in_the_shuffle_on_its_turn_and_owing_shares(
    tmp_path: Path, net: Internet
) -> None:
    t = _table(tmp_path, net, "--grace", "25", human=7)
    human = next(s for s, p in t.peers.items() if p is t.guests[6])
    try:
        # 1. The first shuffle: a seat whose pass comes two passes later goes offline.
        shuffler = 5 if human != 5 else 6
        t.wait(lambda es: sum(e.kind == "deck.shuffle" and e.seat == shuffler - 2 for e in es) == 1)
        down, up = t.drop(shuffler)
        t.back_of(shuffler)
        _owed_while_away(t, shuffler, down, up, ["deck.shuffle"])

        # 2. The person's turn: offline while the game waits for their move; back on another network.
        p = t.peers[human]
        assert p.stderr_file is not None
        end = time.monotonic() + 90
        while "Your move" not in p.stderr_file.read_text():
            assert time.monotonic() < end and t.alive(), p.stderr_file.read_text()[-2000:]
            time.sleep(0.02)
        down, up = t.drop(human, move=True)
        t.back_of(human)
        p.type("1\n" * 60)  # the move at once, and every later one
        _owed_while_away(t, human, down, up, ["move"])

        # 3. Play: a seat that owes the shares of the next card goes offline; back on another network.
        n = len(t.timeline.entries)

        found: list[int] = []  # the sharer the wait accepted, not one read again from later entries

        def moved_and_shared(es: Sequence[Seen]) -> bool:
            moves = [i for i, e in enumerate(es) if e.kind == "move" and i > n]
            if not moves:
                return False
            mover = es[moves[-1]].seat
            sharer = (mover - 1) % PLAYERS
            shares = [e for e in es[moves[-1] :] if e.kind == "deck.shares"]
            if sharer not in (0, human) and any(e.seat == sharer for e in shares) and len(shares) <= 7:
                found.append(sharer)
                return True
            return False

        t.wait(moved_and_shared)
        sharer = found[0]
        down, up = t.drop(sharer, move=True)
        t.back_of(sharer)
        _owed_while_away(t, sharer, down, up, ["deck.shares"])
        _finished(t)
    finally:
        t.timeline.stop()
        for peer in t.everyone:
            if peer.proc.poll() is None:
                peer.kill()
    host = flat(t.host.err)
    for seat in (shuffler, human, sharer):
        name = t.name(seat)
        assert f"{name}'s connection dropped: waiting for {name} to come back" in host
    assert "timed out" not in host


def test_the_host_offline_longer_than_a_step_holds_the_table_then_a_seat_away_too_long_is_blamed_alone(
    tmp_path: Path, net: Internet
) -> None:
    grace = 15
    t = _table(tmp_path, net, "--grace", str(grace), seed=2)
    try:
        # The host's own Wi-Fi goes while every seat owes the shares of a card, and comes back; then
        # it goes again, and the host comes back on another network (its relay doors lead nowhere).
        for moves, move in ((3, False), (8, True)):
            t.wait(lambda es, moves=moves: sum(e.kind == "move" for e in es) >= moves)  # type: ignore[misc]
            down, up = t.drop(0, move=move)
            for seat in range(1, PLAYERS):
                t.back_of(seat)
            # What reached the host before its link went is settled then; the first guest entry
            # after its return was owed while it was away, for longer than a step.
            t.wait(lambda es, up=up: any(e.at > up and e.seat != 0 for e in es))  # type: ignore[misc]
            first = next(e for e in t.timeline.entries if e.at > up and e.seat != 0)
            assert up - max(t.timeline.owed_since(first), down) > STEP, first
        assert not any(e.kind == "abort" for e in t.timeline.entries)
        # Then a guest stays away longer than the grace: the game ends, blaming it alone.
        moves = t.timeline.count("move")
        t.wait(lambda es: sum(e.kind == "move" for e in es) >= moves + 2)
        gone = 4
        t.drop(gone, seconds=grace + 6)
        others = [p for s, p in t.peers.items() if s != gone]
        for p in others:
            assert p.wait(LIMIT) == 1, p.err[-3000:]
            r = p.result()
            assert r["aborted"]["blamed"] == [gone], r
            assert f"did not come back within {grace} s" in r["aborted"]["reason"], r
        t.peers[gone].wait(LIMIT)
    finally:
        t.timeline.stop()
        for peer in t.everyone:
            if peer.proc.poll() is None:
                peer.kill()
    data = check_logs(others, verdict="undecided")
    assert data.startswith(t.peers[gone].log.read_bytes())
    for p in others[1:]:
        assert "trying to reach it again" in p.err and "Reached the host again" in p.err, p.err[-2000:]
