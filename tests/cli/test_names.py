"""Names at the table: a real default kept in the profile, and two equal names told apart
wherever seats are named (the lobby, the table, the story, replay, verify)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import trio
from click.testing import CliRunner

from fairdeal import registry, storage
from fairdeal.cli import seats
from fairdeal.cli.main import cli
from fairdeal.cli.netlines import lobby_lines
from fairdeal.cli.tui.netshow import seat_lines
from fairdeal.core.session import EntryAccepted
from fairdeal.core.session.logfile import MAGIC, record
from fairdeal.core.text import distinct_names
from fairdeal.net import wire
from fairdeal.net.driver import BotAgent
from fairdeal.net.local import play_local
from fairdeal.testing import seat_sessions


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("FAIRDEAL_NAME", raising=False)
    monkeypatch.delenv("FAIRDEAL_PROFILE", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    storage.use_profile(None)
    return tmp_path / "home"


def test_equal_names_are_told_apart_in_seat_order() -> None:
    assert distinct_names(["Ann", "Bob", "Ann", "Ann", "Ann (2)"]) == (
        "Ann",
        "Bob",
        "Ann (2)",
        "Ann (3)",
        "Ann (2) (2)",
    )
    long = "x" * 40
    told = distinct_names([long, long])
    assert told[1] == "x" * 36 + " (2)" and len(told[1]) == 40


def test_the_default_name_is_the_system_user_kept_in_the_profile(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seats.getpass, "getuser", lambda: "carol\x1b[31m")
    assert seats.table_name(None) == "carol [31m"  # the printable rule: the escape is gone
    assert storage.load_name() == "carol [31m"
    monkeypatch.setattr(seats.getpass, "getuser", lambda: "somebody-else")
    assert seats.table_name(None) == "carol [31m"  # the profile's name, once kept
    assert seats.table_name("Carol") == "Carol"  # --name is kept for the next games
    assert seats.table_name(None) == "Carol"
    monkeypatch.setenv("FAIRDEAL_NAME", "Caz")
    assert seats.table_name(None) == "Caz"
    assert storage.load_name() == "Carol"


def test_no_system_user_is_a_player(monkeypatch: pytest.MonkeyPatch) -> None:
    def nobody() -> str:
        raise KeyError("no such user")

    monkeypatch.setattr(seats.getpass, "getuser", nobody)
    assert seats.table_name(None) == "Player"


def test_each_profile_keeps_its_own_name() -> None:
    assert seats.table_name("Ann") == "Ann"
    storage.use_profile("second")
    try:
        assert storage.load_name() is None
        assert seats.table_name("Bob") == "Bob"
    finally:
        storage.use_profile(None)
    assert storage.load_name() == "Ann"


def test_a_local_game_is_played_under_the_kept_name(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(seats.getpass, "getuser", lambda: "dora")
    log = tmp_path / "g.fdlog"
    args = ["play", "ecarte", "--seat", "human", "--seat", "bot", "--seed", "3", "--plain", "--log", str(log)]
    result = CliRunner().invoke(cli, args, input="quit\ny\n", catch_exceptions=False)
    assert "You (dora) · Bot 1 (classic)" in result.output
    replay = CliRunner().invoke(cli, ["replay", str(log)], catch_exceptions=False)
    assert "seat 0 dora, seat 1 Bot 1 (classic)" in replay.output


def test_the_lobby_tells_equal_names_apart() -> None:
    lobby = wire.Lobby(
        (wire.LobbySeat("Ann", "fd:aaaa", "human"), None, wire.LobbySeat("Ann", "fd:bbbb", "human"))
    )
    for lines in (lobby_lines(lobby), seat_lines(lobby)):
        assert "Ann  fd:aaaa" in lines[0] and "(free)" in lines[1] and "Ann (2)  fd:bbbb" in lines[2]


@pytest.fixture(scope="module")
def twins_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished Écarté between two seats both called Ann."""
    game = registry.load().game("ecarte")
    table = seat_sessions(game, 2, 5, {"target": 1}, names=["Ann", "Ann"], kinds=["bot", "bot"])
    bot = registry.load().bot("ecarte")
    agents = [BotAgent(bot.make(), random.Random(i)) for i in range(2)]
    data = bytearray(MAGIC)

    def observe(session: Any, events: Any) -> None:
        if session.seat == 0:
            for ev in events:
                if isinstance(ev, EntryAccepted):
                    data.extend(record(ev.data))

    outcomes = trio.run(play_local, table.header, table.sessions, agents, observe)
    assert outcomes[0].session.result is not None
    assert [outcomes[0].session.name(s) for s in (0, 1)] == ["Ann", "Ann (2)"]  # the table's names
    path = tmp_path_factory.mktemp("twins") / "twins.fdlog"
    path.write_bytes(bytes(data))
    return path


def test_replay_and_verify_tell_equal_names_apart(twins_log: Path) -> None:
    replay = CliRunner().invoke(cli, ["replay", str(twins_log)], catch_exceptions=False).output
    assert "seat 0 Ann, seat 1 Ann (2)" in replay
    assert "Ann (2) played" in replay or "Ann (2) stood" in replay or "Ann (2) proposed" in replay
    verify = CliRunner().invoke(cli, ["verify", str(twins_log)], catch_exceptions=False).output
    assert "ecarte: Ann (" in verify and ", Ann (2) (" in verify


def test_replay_and_verify_name_the_winner_where_the_game_said_seat_n(twins_log: Path) -> None:
    """The game's result says "seat 1 reached 1 point": people read names."""
    import re

    verify = CliRunner().invoke(cli, ["verify", str(twins_log)], catch_exceptions=False).output
    result = next(line for line in verify.splitlines() if line.startswith("result: "))
    standing = next(line for line in verify.splitlines() if line.startswith("standing: "))
    assert not re.search(r"\bseat \d", result + standing), (result, standing)
    assert re.search(r"Ann( \(2\))? reached 1 point", result) and "deal" in standing
    replay = CliRunner().invoke(cli, ["replay", str(twins_log)], catch_exceptions=False).output
    end = replay.split("End", 1)[1].split("Verdict")[0]
    assert not re.search(r"\bseat \d", end) and "reached 1 point" in end, end


def test_a_named_profile_plays_under_its_own_name_until_told_another(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seats.getpass, "getuser", lambda: "root")
    storage.use_profile("ann")
    try:
        assert seats.table_name(None) == "Ann"  # two people on one machine are not both "root"
        assert storage.load_name() == "Ann"
        assert seats.table_name("Annie") == "Annie"
        assert seats.table_name(None) == "Annie"
    finally:
        storage.use_profile(None)
    assert seats.table_name(None) == "root"  # the default profile: the login name
