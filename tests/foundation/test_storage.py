from __future__ import annotations

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


def test_damaged_identity_is_a_clear_error() -> None:
    storage.identity_path().parent.mkdir(parents=True)
    storage.identity_path().write_bytes(b"short")
    with pytest.raises(ConfigError, match="damaged"):
        storage.load_identity()


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
