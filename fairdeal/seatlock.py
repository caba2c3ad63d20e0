"""One seat, one process: a lock beside a seat's log, held while a process plays that seat.

:func:`lock_seat` takes ``LOG.lock`` with ``flock`` (exclusive, never waiting) and writes the
process id into it. A second process for the same seat (``resume``, or ``join`` with the code
of the game) is refused at once with :class:`SeatBusy`, naming the process that holds it, and
changes nothing. The kernel releases a ``flock`` when its holder ends, however it ends, so a
lock left by a process that crashed is simply taken: the lock file still names the old process,
and the caller is told (``SeatLock.took_over``) to say so. A process that ends normally removes
the file (:meth:`SeatLock.release`).

The lock file is opened as a secret is read (:mod:`fairdeal._private`): never through a symbolic
link, without blocking, and only if it is a regular file; anything else there (a FIFO, a folder,
a link) is refused in one line, and left as it is.

Where there is no ``fcntl`` (Windows), seats are not locked.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path
from typing import Final

from fairdeal.core.errors import ConfigError

SUFFIX: Final = ".lock"
_TRIES: Final = 5
#: Never through a link, never blocking (a FIFO, a device), not inherited by a child process.
_FLAGS: Final = (
    os.O_RDWR
    | os.O_CREAT
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]


class SeatBusy(ConfigError):
    """Another process plays this seat now (its pid in :attr:`pid`, None if it could not be read)."""

    hint = "Go on where it runs, or stop it first: its log and seed are kept."

    def __init__(self, pid: int | None) -> None:
        who = f"pid {pid}" if pid is not None else "its pid unknown"
        super().__init__(f"this game is being played by another fairdeal process ({who}) on this machine")
        self.pid = pid


def lock_path(log: Path) -> Path:
    """The lock file of the seat whose log is ``log``."""
    return log.with_name(log.name + SUFFIX)


def _pid(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isdigit() and len(text) <= 10 else None


class SeatLock:
    """The lock of one seat, held by this process until :meth:`release` (or its end)."""

    def __init__(self, path: Path, fd: int, took_over: int | None) -> None:
        self.path, self._fd = path, fd
        #: The pid a lock file left behind named: a process that ended without releasing it.
        self.took_over = took_over

    @property
    def held(self) -> bool:
        return self._fd >= 0

    def release(self) -> None:
        """Remove the lock file and let go (idempotent)."""
        if self._fd < 0:
            return
        with contextlib.suppress(OSError):
            if os.path.samestat(os.fstat(self._fd), os.stat(self.path)):
                os.unlink(self.path)  # while still holding it: nobody locks a file that is going
        os.close(self._fd)
        self._fd = -1


class NotALockFile(ConfigError):
    """Something other than a regular file is where a seat's lock file goes."""

    hint = "Move it away and try again: fairdeal keeps a small file of its own there."


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a file"


def _open(path: Path, log: Path) -> int:
    """A descriptor of the lock file at ``path`` (made if there is none): never through a link,
    never blocking, and only of a regular file; NotALockFile or ConfigError otherwise."""
    try:
        fd = os.open(path, _FLAGS, 0o600)
    except OSError as exc:
        if exc.errno == errno.ELOOP or path.is_symlink():
            raise NotALockFile(f"the lock file {path} is a symbolic link: it is not followed") from None
        if exc.errno == errno.EISDIR:
            raise NotALockFile(f"the lock file {path} is not a regular file (a folder)") from None
        raise ConfigError(f"cannot lock {log} for this process: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError as exc:
        os.close(fd)
        raise ConfigError(f"cannot lock {log} for this process: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotALockFile(f"the lock file {path} is not a regular file ({_kind(mode)})")
    return fd


def lock_seat(log: Path) -> SeatLock:
    """Take the lock of the seat of ``log`` for this process; :class:`SeatBusy` when another holds it,
    :class:`NotALockFile` when something else than a regular file is at ``LOG.lock``."""
    path = lock_path(log)
    if fcntl is None:  # pragma: no cover
        return SeatLock(path, -1, None)
    for _ in range(_TRIES):
        fd = _open(path, log)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _pid(os.pread(fd, 32, 0).decode("ascii", "replace"))
            os.close(fd)
            raise SeatBusy(holder) from None
        except OSError as exc:
            os.close(fd)
            raise ConfigError(f"cannot lock {log} for this process: {exc.strerror or exc}") from None
        try:
            same = os.path.samestat(os.fstat(fd), os.lstat(path))
        except OSError:
            same = False
        if not same:  # the holder removed the file as it ended: lock the one that is there now
            os.close(fd)
            continue
        left = _pid(os.pread(fd, 32, 0).decode("ascii", "replace"))
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return SeatLock(path, fd, left if left != os.getpid() else None)
    raise ConfigError(f"cannot lock {log} for this process: its lock file keeps changing")


__all__ = ["SUFFIX", "NotALockFile", "SeatBusy", "SeatLock", "lock_path", "lock_seat"]
