"""The seed file: private, atomic, strictly read; every way it can be wrong is a clear message."""

from __future__ import annotations

import json
import os
import stat
from dataclasses import replace
from pathlib import Path

import pytest

from fairdeal import seedfile, storage
from fairdeal.core.errors import ConfigError
from fairdeal.core.session.logfile import MAGIC, parse_log, record


@pytest.fixture(autouse=True)
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "home"))
    return tmp_path


GUEST = seedfile.SeedFile(
    role="guest",
    seat=2,
    game="snatch",
    game_id=bytes(range(16)),
    identity="fd1-aaaa-bbbb-cccc-dddd",
    seed=b"s" * 32,
    invite="fd1:abc",
    kind="bot:random",
    grace=120,
    identity_key=b"k" * 32,
    extra_direct=("10.0.0.2:7700",),
    sent=b"\x98\x01",
    chat=(3, 0, 7),
)
HOST = replace(
    GUEST,
    role="host",
    seat=0,
    identity_key=None,
    sent=None,
    host=seedfile.HostParams("0.0.0.0", 7700, True, 30.0, None, 16, "cards.example.org:7700"),
)


@pytest.mark.parametrize("seed", [GUEST, HOST], ids=["guest", "host"])
def test_round_trip_private_and_listed(tmp_path: Path, seed: seedfile.SeedFile) -> None:
    log = tmp_path / "games" / "g.fdlog"
    log.parent.mkdir()
    log.write_bytes(MAGIC)
    seedfile.write_seed(log, seed)
    path = seedfile.seed_path(log)
    assert path.name == "g.fdlog.seed"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert seedfile.read_seed(log) == seed
    assert seedfile.unfinished_logs() == [log.resolve()]
    changed = seedfile.update_seed(log, sent=None, adjourned=True)
    assert seedfile.read_seed(log) == changed and changed.adjourned and changed.sent is None
    assert not list(path.parent.glob(".*.tmp")), "no temporary file is left behind"
    seedfile.delete_seed(log)
    assert not path.exists() and seedfile.unfinished_logs() == []


def test_logs_in_the_data_directory_are_listed_without_a_pointer() -> None:
    log = storage.data_dir() / "logs" / "ecarte-0011.fdlog"
    log.parent.mkdir(parents=True)
    log.write_bytes(MAGIC)
    seedfile.seed_path(log).write_text("{}")
    assert seedfile.unfinished_logs() == [log.resolve()]


def test_a_missing_seed_file_says_the_secrets_are_gone(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"no seed file next to .*secrets are gone"):
        seedfile.read_seed(tmp_path / "x.fdlog")


def test_a_seed_file_others_can_read_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "x.fdlog"
    seedfile.write_seed(log, GUEST)
    os.chmod(seedfile.seed_path(log), 0o644)
    with pytest.raises(ConfigError, match=r"can be read by other users.*chmod 600"):
        seedfile.read_seed(log)


@pytest.mark.parametrize("target_mode", [0o600, 0o644])
def test_a_seed_file_that_is_a_symbolic_link_is_refused(tmp_path: Path, target_mode: int) -> None:
    """A link is refused wherever it points, a private target included: the file checked is the one read."""
    elsewhere = tmp_path / "elsewhere.fdlog"
    seedfile.write_seed(elsewhere, GUEST)
    target = seedfile.seed_path(elsewhere)
    os.chmod(target, target_mode)
    log = tmp_path / "x.fdlog"
    seedfile.seed_path(log).symlink_to(target)
    with pytest.raises(ConfigError, match=r"is a symbolic link"):
        seedfile.read_seed(log)
    os.chmod(target, 0o600)
    assert seedfile.read_seed(elsewhere) == GUEST  # the file itself is read as before


def test_a_seed_file_that_is_not_a_regular_file_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "x.fdlog"
    path = seedfile.seed_path(log)
    os.mkfifo(path, 0o600)  # opened without blocking, and refused for what it is
    with pytest.raises(ConfigError, match=r"not a regular file"):
        seedfile.read_seed(log)
    path.unlink()
    path.mkdir(mode=0o700)
    with pytest.raises(ConfigError, match=r"seed file .* (not a regular file|cannot read)"):
        seedfile.read_seed(log)


def _damage(obj: dict[str, object], **changes: object) -> dict[str, object]:
    return {**obj, **changes}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "other"}, "not a fairdeal seed file"),
        ({"version": 99}, "another version of fairdeal"),
        ({"seed": "00" * 31}, "damaged"),
        ({"seed": "zz" * 32}, "damaged"),
        ({"seat": 0}, "damaged"),  # a guest in the host's seat
        ({"role": "dealer"}, "damaged"),
        ({"game_id": 7}, "damaged"),
        ({"grace": -1}, "damaged"),
        ({"sent": "0x"}, "damaged"),
        ({"chat": [-1]}, "damaged"),
        ({"chat": [2**32]}, "damaged"),
        ({"chat": "3"}, "damaged"),
        ({"chat": [0] * 11}, "damaged"),
        ({"host": {"bind": "x"}}, "damaged"),
        ({"unknown": 1}, "wrong fields"),
    ],
)
def test_a_damaged_seed_file_is_a_clear_error(tmp_path: Path, change: dict[str, object], words: str) -> None:
    log = tmp_path / "x.fdlog"
    seedfile.write_seed(log, GUEST)
    path = seedfile.seed_path(log)
    obj = json.loads(path.read_text())
    path.write_text(json.dumps(_damage(obj, **change)))
    with pytest.raises(ConfigError, match=words):
        seedfile.read_seed(log)


def test_not_json_is_damaged(tmp_path: Path) -> None:
    log = tmp_path / "x.fdlog"
    seedfile.write_seed(log, GUEST)
    seedfile.seed_path(log).write_bytes(b"\x00garbage")
    with pytest.raises(ConfigError, match=r"damaged \(not JSON"):
        seedfile.read_seed(log)


def test_a_reopened_log_loses_only_a_torn_last_record(tmp_path: Path) -> None:
    path = tmp_path / "g.fdlog"
    with storage.LogWriter(path) as log:
        log.append(b"one")
        log.append(b"two")
    whole = path.read_bytes()
    path.write_bytes(whole + record(b"three")[:5])  # a crash in the middle of a write
    with storage.LogWriter.reopen(path) as log:
        log.append(b"three")
    assert parse_log(path.read_bytes()).entries == (b"one", b"two", b"three")
    path.write_bytes(whole + b"\x00\x00\x00\x00rest")  # damage, not a tear: never cut away
    with pytest.raises(ConfigError, match="damaged"):
        storage.LogWriter.reopen(path)
