"""A host cannot frame a guest by where it puts the guest's entry (docs/protocol.md 8.4).

With only its own key, a host can place a guest's once-signed entry a second time, after the point
it was owed at, or after its own abort. Where an entry sits is the host's choice alone, so an
entry its author wrote honestly where it was owed — the log already holds it as written, or its
author owed an entry of that kind answering that very point — blames the host, live and in
``fairdeal verify``, whatever the kind of entry and the game.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from fairdeal import registry
from fairdeal.core.session import HostCheated, Session
from fairdeal.core.session.envelope import FORMAT_VERSION, Envelope, decode_envelope
from fairdeal.core.session.logfile import MAGIC, record
from fairdeal.core.session.verify import verify_log
from fairdeal.testing import Stepper

GAMES = [("ecarte", 2, {"target": 1}), ("snatch", 3, {}), ("spite-malice", 2, {"target": 1, "max_games": 1})]


def _played(name: str, players: int, options: dict[str, object]) -> Stepper:
    t = Stepper(registry.load().game(name), players, 5, options, any_order=True)
    t.finish()
    return t


def _observer(t: Stepper, entries: list[bytes]) -> Session:
    s = Session(t.game, None)
    for e in entries:
        s.receive(e)
    return s


def _abort(t: Stepper, obs: Session) -> bytes:
    """The host's abort at the end of the log ``obs`` holds."""
    point = obs.point(None)
    body = {"blame": [], "reason": "stopped"}
    env = Envelope(FORMAT_VERSION, t.header.game_id, 0, "abort", body, *point).signed(t.ids[0])
    return env.place(obs.seq, obs.last_hash, t.ids[0]).encode()


def _placed_again(t: Stepper, obs: Session, data: bytes) -> bytes:
    """``data`` as the host places it once more, at the end of the log ``obs`` holds."""
    return decode_envelope(data).place(obs.seq, obs.last_hash, t.ids[0]).encode()


def _log(entries: list[bytes]) -> bytes:
    return MAGIC + b"".join(record(e) for e in entries)


@pytest.mark.parametrize(("name", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_guest_entry_placed_twice_or_after_an_abort_blames_the_host(
    name: str, players: int, options: dict[str, object]
) -> None:
    t = _played(name, players, options)
    game = t.game
    guests = [i for i, e in enumerate(t.log) if decode_envelope(e).seat != 0]
    kinds: dict[str, int] = {}
    for i in guests:  # one entry of each kind a guest writes, and a few more at random
        kinds.setdefault(decode_envelope(t.log[i]).kind, i)
    picked = sorted({*kinds.values(), *random.Random(1).sample(guests, 4)})
    for i in picked:
        later = min(i + 3, len(t.log))  # again a little later, where it is not owed
        for prefix, how in ((t.log[:later], "twice"), (t.log[: i + 1], "after its abort")):
            if how == "after its abort" and i + 1 == len(t.log):
                continue  # nothing may follow a finished game, an abort neither
            obs = _observer(t, prefix)
            extra = [_abort(t, obs)] if how == "after its abort" else []
            if extra:
                obs.receive(extra[0])
            again = _placed_again(t, obs, t.log[i])
            with pytest.raises(HostCheated) as info:
                obs.receive(again)
            assert info.value.evidence == (again,)
            report = verify_log(_log([*prefix, *extra, again]), lambda _: game)
            where = f"{name}: entry {i} ({decode_envelope(t.log[i]).kind}) placed {how}"
            assert report.verdict == "cheating", where
            assert [(f.seat, f.entry) for f in report.findings] == [(0, len(prefix) + len(extra))], where


@pytest.mark.parametrize(("name", "players", "options"), GAMES[::2], ids=[g[0] for g in GAMES[::2]])
def test_a_guest_end_placed_after_the_end_of_the_game_blames_the_host(
    name: str, players: int, options: dict[str, object]
) -> None:
    t = _played(name, players, options)
    ends = [i for i, e in enumerate(t.log) if decode_envelope(e).kind == "end" and decode_envelope(e).seat]
    last_guest_end = ends[-1]
    obs = _observer(t, t.log)
    again = _placed_again(t, obs, t.log[last_guest_end])
    with pytest.raises(HostCheated, match="a second time"):
        obs.receive(again)
    report = verify_log(_log([*t.log, again]), lambda _: t.game)
    assert report.verdict == "cheating" and report.findings[0].seat == 0


def test_every_honest_seat_blames_the_host_live(stepper: Any) -> None:
    t = stepper("ecarte", 2, {"target": 1})
    t.run_until(lambda t: len(t.log) > 12)
    guest = max(i for i, e in enumerate(t.log) if decode_envelope(e).seat == 1)
    again = decode_envelope(t.log[guest]).place(t.seats[0].seq, t.seats[0].last_hash, t.ids[0]).encode()
    for s in t.everyone:  # the guest who wrote it too: it does not blame itself
        with pytest.raises(HostCheated) as info:
            s.receive(again)
        assert info.value.seat == 0
