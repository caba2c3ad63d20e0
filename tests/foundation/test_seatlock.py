"""The seat's lock file (fairdeal/seatlock.py): taken only as a regular file of its own, never
through a link, never blocking; anything else at ``LOG.lock`` is one clear line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairdeal.core.errors import ConfigError
from fairdeal.seatlock import SeatBusy, lock_path, lock_seat

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX only")


def _not_a_file(log: Path) -> str:
    return f"the lock file {lock_path(log)} is not a regular file"


def test_a_fifo_at_the_lock_is_refused_in_words(tmp_path: Path) -> None:
    log = tmp_path / "g.fdlog"
    os.mkfifo(lock_path(log))
    with pytest.raises(ConfigError, match=_not_a_file(log)) as info:
        lock_seat(log)
    assert getattr(info.value, "hint", "")
    assert lock_path(log).exists(), "what is there is the user's: left as it is"


def test_a_folder_at_the_lock_is_refused_in_words(tmp_path: Path) -> None:
    log = tmp_path / "g.fdlog"
    lock_path(log).mkdir()
    with pytest.raises(ConfigError, match=_not_a_file(log)):
        lock_seat(log)


def test_a_link_at_the_lock_is_not_followed(tmp_path: Path) -> None:
    log = tmp_path / "g.fdlog"
    target = tmp_path / "someone-elses"
    target.write_text("keep me\n")
    lock_path(log).symlink_to(target)
    with pytest.raises(ConfigError, match=f"the lock file {lock_path(log)} is a symbolic link"):
        lock_seat(log)
    assert target.read_text() == "keep me\n"


def test_a_regular_lock_is_taken_held_and_let_go(tmp_path: Path) -> None:
    log = tmp_path / "g.fdlog"
    lock = lock_seat(log)
    assert lock.held and lock_path(log).read_text() == f"{os.getpid()}\n"
    assert lock_path(log).stat().st_mode & 0o777 == 0o600
    with pytest.raises(SeatBusy):
        lock_seat(log)  # a second open file description: flock refuses it
    lock.release()
    assert not lock_path(log).exists()


def test_resume_with_a_fifo_at_the_lock_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``fairdeal resume`` of a seat whose LOG.lock is a FIFO: no traceback, exit 2."""
    from fairdeal import registry
    from fairdeal.cli.main import cli
    from fairdeal.core.session.logfile import MAGIC, record
    from fairdeal.seedfile import SEED_BYTES, SeedFile, write_seed
    from fairdeal.testing import seat_sessions

    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "home"))
    seated = seat_sessions(registry.load().game("ecarte"), 2, 3)
    log = tmp_path / "g.fdlog"
    log.write_bytes(MAGIC + record(seated.sessions[0].start(seated.header)))
    guest = seated.identities[1]
    write_seed(
        log,
        SeedFile(
            role="guest", seat=1, game="ecarte", game_id=seated.header.game_id, identity=guest.fingerprint,
            seed=bytes(SEED_BYTES), invite="code", kind="bot", grace=60, identity_key=guest.seed(),
        ),
    )  # fmt: skip
    os.mkfifo(lock_path(log))
    result = CliRunner().invoke(cli, ["resume", str(log), "--plain"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and not isinstance(result.exception, OSError)
    assert result.output.startswith(f"fairdeal: {_not_a_file(log)}"), result.output
