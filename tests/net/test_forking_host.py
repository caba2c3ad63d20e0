"""A host that forks the log, against two real ``fairdeal join`` processes over loopback TCP.

The host shows seat 1 and seat 2 the same game with the three keys in two orders: two logs
that differ at entry 2, each well chained. Seat 1's next entry answers its own log; relayed to
seat 2, it answers a point seat 2's log does not hold. Seat 2 must see that the host placed two
different entries at one point (the host's placement signatures prove it), blame the host and
not seat 1, and keep the evidence; ``verify`` with seat 2's log and that evidence, or with both
guests' logs, names the host.
"""

from __future__ import annotations

import copy
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
import trio

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.logfile import parse_log
from fairdeal.core.session.session import Session
from fairdeal.core.session.verify import verify_log
from fairdeal.net import GuardedSession, HostPlan, host_game, hosting
from fairdeal.net import events as ev
from fairdeal.net.driver import BotAgent, SeatOutcome, _produce
from fairdeal.storage import LogWriter

from .peers import LIMIT, RUN, Peer, join


def _place(view: Session, data: bytes, seat: int) -> bytes:
    """``data`` placed at the end of ``view``'s log, as the host places every entry."""
    return view.place(data, seat)


async def forking_run_host(
    session: Session, header: Any, agent: Any, roster: Any, observe: Any = None, *rest: Any, **kw: Any
) -> SeatOutcome:
    """Seat 1 sees the host's own log; seat 2 a twin of it in which the guests' keys came the
    other way round. Everything else is relayed to both, each placed at the end of its own log."""
    assert session.seq == 0 and session.identity is not None
    twin = GuardedSession(session.game, 0, session.identity, copy.deepcopy(session._rng))
    views: dict[int, Session] = {1: session, 2: twin}
    links = dict(roster.links)
    send, inbox = trio.open_memory_channel[tuple[int, bytes | None]](math.inf)

    async def pump(seat: int, link: Any) -> None:
        try:
            while True:
                send.send_nowait((seat, bytes(await link.receive_entry())))
        except Exception:
            send.send_nowait((seat, None))

    async def deliver(seat: int, data: bytes) -> None:
        view = views[seat]
        try:
            events = view.receive(data)
        except Exception:  # the twin refuses what does not fit its log: seat 2 gets it all the same
            events = []
        if view is session and observe is not None:
            observe(session, events)
        await links[seat].send_entry(data)

    async def own_entries() -> None:
        for _ in range(100):
            owing = [s for s, v in views.items() if not v.finished and any(w.seat == 0 for w in v.owing())]
            if not owing:
                return
            for seat in owing:
                data = await _produce(views[seat], agent)
                assert data is not None
                await deliver(seat, data)

    keys: dict[int, bytes] = {}
    async with trio.open_nursery() as nursery:
        for seat, link in links.items():
            nursery.start_soon(pump, seat, link)
        first = session.start(header)
        for seat in views:
            await deliver(seat, first)
        while not session.finished:
            await own_entries()
            seat, data = await inbox.receive()
            if data is None:
                break
            if decode_envelope(data).kind == "deck.key":
                keys[seat] = data
                if len(keys) == 2:  # the fork: the same two keys, in another order for seat 2
                    for view, order in ((1, (1, 2)), (2, (2, 1))):
                        for k in order:
                            await deliver(view, _place(views[view], keys[k], k))
                continue
            for view in views:
                await deliver(view, _place(views[view], data, seat))
        nursery.cancel_scope.cancel()
    return SeatOutcome(session, "forked")


class _TwoJoiners:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.guests: list[Peer] = []

    def __call__(self, event: ev.NetEvent) -> None:
        if isinstance(event, ev.Listening):
            self.guests = [join(self.tmp, f"guest{i}", event.code, "--name", f"Guest {i}") for i in (1, 2)]


def _seat_of(peer: Peer) -> int:
    header = decode_envelope(parse_log(peer.log.read_bytes()).entries[0])
    name = f"Guest {peer.log.stem[-1]}"
    return next(i for i, s in enumerate(header.body["seats"]) if s["name"] == name)


@pytest.mark.slow
def test_a_host_that_forks_the_log_is_named_and_not_the_guest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reg = registry.load()
    monkeypatch.setattr(hosting, "run_host", forking_run_host)
    plan = HostPlan(
        reg.game("snatch"),
        "snatch",
        "fairdeal",
        "0",
        {},
        3,
        Identity.generate(),
        "Eve",
        "bot",
        BotAgent(reg.bot("snatch").make(), random.Random(3)),
        bind="127.0.0.1",
        open_log=lambda header: LogWriter(tmp_path / "host.fdlog"),
        grace=0,
    )
    obs = _TwoJoiners(tmp_path)

    async def main() -> None:
        with trio.fail_after(LIMIT):
            await host_game(plan, obs)

    try:
        trio.run(main)
        for g in obs.guests:
            g.wait()
    finally:
        for g in obs.guests:
            g.kill()
    by_seat = {_seat_of(g): g for g in obs.guests}
    one, two = by_seat[1], by_seat[2]
    error = two.result()["error"] or ""
    # Seat 2 names the host, with what proves it, and does not blame seat 1.
    assert two.proc.returncode == 1, two.err
    assert "forked" in error and "the host" in error, error
    assert "seat 1:" not in error, error
    evidence = Path(f"{two.log}.evidence.json")
    kept = json.loads(evidence.read_text())
    assert kept["entries"], kept
    games = reg.game
    alone = verify_log(two.log.read_bytes(), games)
    assert alone.verdict == "undecided" and all(f.seat != 1 for f in alone.findings), alone.findings
    proven = verify_log(two.log.read_bytes(), games, others=[evidence.read_bytes()])
    assert proven.verdict == "cheating" and proven.findings[0].seat == 0, proven.findings
    assert "forked" in proven.findings[0].reason
    both = verify_log(two.log.read_bytes(), games, others=[one.log.read_bytes()])
    assert both.verdict == "cheating" and both.findings[0].seat == 0, both.findings
    assert both.findings[0].entry == 2
    # The command line says the same, given the evidence file or the other log.
    import subprocess
    import sys

    env = {"FAIRDEAL_HOME": str(two.home)}
    for extra in (evidence, one.log):
        cmd = subprocess.run(
            [sys.executable, "-c", RUN, "verify", str(two.log), str(extra)],
            env={**__import__("os").environ, **env},
            capture_output=True,
            text=True,
            timeout=LIMIT,
        )
        assert cmd.returncode == 1, cmd.stdout + cmd.stderr
        assert "seat 0" in cmd.stdout and "forked" in cmd.stdout, cmd.stdout
