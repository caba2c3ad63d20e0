"""Whole games between real ``fairdeal host`` / ``fairdeal join`` processes through a real transit
relay on 127.0.0.1, every direct address of the code refused; and direct beating the relay."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from fairdeal.net.invite import Endpoint, Invite, decode_invite

from .peers import check_logs, flat, host, join, same_results


def _dead(n: int) -> tuple[Endpoint, ...]:
    """``n`` loopback addresses where nothing listens: connecting is refused at once."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return tuple(Endpoint("127.0.0.1", s.getsockname()[1]) for s in socks)
    finally:
        for s in socks:
            s.close()


def _relay_only(code: str) -> str:
    """The same table's code with its direct addresses replaced by dead ones."""
    real = decode_invite(code)
    return Invite(real.fingerprint, real.secret, _dead(2), real.relay, real.doors).encode()


GAMES = [("ecarte", 2, ["--option", "target=3"]), ("snatch", 5, [])]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g for g, _, _ in GAMES])
def test_bots_play_a_whole_game_through_the_relay(
    tmp_path: Path, transit_relay: Endpoint, game: str, players: int, options: list[str]
) -> None:
    h, code = host(tmp_path, game, "--players", str(players), "--relay", f"tcp:{transit_relay}", *options)
    assert decode_invite(code).relay == transit_relay and decode_invite(code).doors == players - 1
    relayed = _relay_only(code)
    guests = [join(tmp_path, f"guest{i}", relayed) for i in range(1, players)]
    codes = [g.wait() for g in guests]
    assert h.wait() == 0, h.err
    assert codes == [0] * len(guests), [g.err for g in guests]
    peers = [h, *guests]
    result = same_results(peers)
    assert result["game"] == game and result["verdict"] == "fair" and result["aborted"] is None
    check_logs(peers)
    for g in guests:
        assert f"Connected through relay {transit_relay}" in flat(g.err), g.err
    assert flat(h.err).count(f"], through relay {transit_relay}") == players - 1, h.err  # each seat


def test_direct_beats_the_relay_when_both_work(tmp_path: Path, transit_relay: Endpoint) -> None:
    h, code = host(tmp_path, "ecarte", "--option", "target=1", "--relay", f"tcp:{transit_relay}")
    g = join(tmp_path, "guest", code)
    assert g.wait() == 0, g.err
    assert h.wait() == 0, h.err
    assert "Connected directly to 127.0.0.1:" in g.err and "relay" not in g.err.split("Connected")[1][:40]
    assert "from 127.0.0.1:" in flat(h.err) and "from relay" not in h.err
    check_logs([h, g])
