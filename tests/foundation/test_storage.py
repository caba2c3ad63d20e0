from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from fairdeal import storage
from fairdeal.core.errors import ConfigError
from fairdeal.core.session.logfile import parse_log


@pytest.fixture(autouse=True)
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path))
    return tmp_path


def test_identity_is_created_once_and_kept_private(home: Path) -> None:
    first, created = storage.load_identity()
    assert created
    path = storage.identity_path()
    assert path.is_relative_to(home / "config")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again, created_again = storage.load_identity()
    assert not created_again and again.public_key == first.public_key
    assert first.fingerprint not in repr(path.read_bytes())


def _private_file(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    path.chmod(0o600)


@pytest.mark.parametrize("data", [b"short", bytes(33)])
def test_damaged_identity_is_a_clear_error(data: bytes) -> None:
    _private_file(storage.identity_path(), data)
    with pytest.raises(ConfigError, match=r"identity file .* damaged.*move it away"):
        storage.load_identity()


def test_identity_readable_by_others_is_refused_and_left_alone() -> None:
    storage.load_identity()
    path = storage.identity_path()
    path.chmod(0o640)
    before = path.read_bytes()
    with pytest.raises(ConfigError, match=r"identity file .* can be read by other users.*chmod 600"):
        storage.load_identity()
    assert path.read_bytes() == before  # never replaced by a new identity


def test_identity_through_a_link_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.key"
    _private_file(target, bytes(range(32)))
    path = storage.identity_path()
    path.parent.mkdir(parents=True)
    path.symlink_to(target)
    with pytest.raises(ConfigError, match=r"identity file .* is a symbolic link"):
        storage.load_identity()
    target.unlink()  # a dangling link is refused too, not taken for "no identity yet"
    with pytest.raises(ConfigError, match="is a symbolic link"):
        storage.load_identity()


def test_identity_that_is_not_a_file_is_refused() -> None:

    path = storage.identity_path()
    path.parent.mkdir(parents=True)
    os.mkfifo(path, 0o600)
    with pytest.raises(ConfigError, match=r"identity file .* not a regular file"):
        storage.load_identity()  # and does not block on the FIFO


def test_log_writer_appends_and_flushes_each_entry(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "g.fdlog"
    with storage.LogWriter(path) as log:
        log.append(b"one")
        assert parse_log(path.read_bytes()).entries == (b"one",)  # readable before close
        log.append(b"two")
    assert parse_log(path.read_bytes()).entries == (b"one", b"two")
    with pytest.raises(FileExistsError):
        storage.LogWriter(path)  # never overwrite a log
    other = storage.unique_log_path(path)
    assert other != path and other.parent == path.parent


def test_default_paths_follow_fairdeal_home(home: Path) -> None:
    assert storage.default_log_path("ecarte", bytes(16)).is_relative_to(home / "data")
