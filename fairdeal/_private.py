"""Reading a file that holds secrets (a seed file, the identity key) only if it is private.

A secret is read from the file itself, never through a symbolic link (a link's target can be
anyone's), only from a regular file (a FIFO would block), and only while its owner alone can
read it: its mode has no bits for the group or others. The mode checked is that of the file
opened, not of the name looked up.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from fairdeal.core.errors import ConfigError

_NOFOLLOW: Final = getattr(os, "O_NOFOLLOW", 0)


@dataclass(frozen=True)
class Secret:
    """How a kind of private file is named in what the user reads."""

    what: str  # "the seed file"
    holds: str  # "this seat's secrets"
    again: str  # "resume again": what to do once the file is mended
    lost: str  # "this seat cannot go on": what a damaged file means


def read_private(path: Path, kind: Secret, max_size: int) -> bytes:
    """The bytes of the file at ``path`` (at most ``max_size``), if it is a regular file that is
    its owner's alone. FileNotFoundError if there is none; ConfigError, saying what to do, if it
    is a link, not a regular file, readable by others, larger than ``max_size`` or unreadable."""
    try:
        if path.is_symlink():  # also where O_NOFOLLOW does not exist
            raise OSError(errno.ELOOP, "a symbolic link")
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ConfigError(
                f"{kind.what} {path} is a symbolic link: {kind.holds} are read only from the file "
                f"itself. Put the file there in place of the link and {kind.again}"
            ) from None
        raise ConfigError(f"cannot read {kind.what} {path}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ConfigError(f"{kind.what} {path} is not a regular file; {kind.lost}")
        if st.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise ConfigError(
                f"{kind.what} {path} can be read by other users: it holds {kind.holds}. "
                f"Make it yours alone (chmod 600 {path}) and {kind.again}"
            )
        if st.st_size > max_size:
            raise ConfigError(f"{kind.what} {path} is damaged (too large); {kind.lost}")
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read(max_size + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read {kind.what} {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
