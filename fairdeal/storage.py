"""Where fairdeal keeps things on disk: the identity key and the game logs.

The identity lives in the user's config directory, the logs in the data
directory, by platform conventions (``platformdirs``); ``FAIRDEAL_HOME`` puts
both under one folder instead (tests, portable installs).

A *profile* is a second (third, ...) identity with its own logs, for playing
yourself on one machine or keeping two personas apart: profile NAME keeps both in
``profiles/NAME`` under those folders. It is chosen with ``fairdeal --profile NAME``
(:func:`use_profile`) or ``FAIRDEAL_PROFILE``; without one, the default folders are used.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO, Final

import platformdirs

from fairdeal.core.errors import ConfigError
from fairdeal.core.identity import Identity
from fairdeal.core.session.logfile import MAGIC, record

from ._private import Secret, read_private

APP = "fairdeal"
HOME_ENV = "FAIRDEAL_HOME"
PROFILE_ENV = "FAIRDEAL_PROFILE"
_PROFILE = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
_profile: str | None = None


def check_profile(name: str) -> str:
    """``name`` if it can name a profile (1-32 of a-z 0-9 _ -, starting with a letter or digit)."""
    if not _PROFILE.fullmatch(name):
        raise ConfigError(f"{name!r} cannot name a profile: use 1 to 32 lower-case letters, digits, _ or -")
    return name


def use_profile(name: str | None) -> None:
    """Use profile ``name`` from now on in this process (None: back to ``FAIRDEAL_PROFILE``/default)."""
    global _profile
    _profile = None if name is None else check_profile(name)


def profile() -> str | None:
    """The profile in use, or None for the default one."""
    if _profile is not None:
        return _profile
    env = os.environ.get(PROFILE_ENV, "").strip()
    return check_profile(env) if env else None


def _base(kind: str, platform_dir: str) -> Path:
    home = os.environ.get(HOME_ENV)
    base = Path(home) / kind if home else Path(platform_dir)
    name = profile()
    return base / "profiles" / name if name else base


def config_dir() -> Path:
    return _base("config", platformdirs.user_config_dir(APP))


def data_dir() -> Path:
    return _base("data", platformdirs.user_data_dir(APP))


def identity_path() -> Path:
    return config_dir() / "identity.key"


_IDENTITY_BYTES: Final = 32
_IDENTITY_FILE: Final = Secret(
    what="the identity file",
    holds="your identity's private key",
    again="try again",
    lost="move it away to make a new identity",
)


def load_identity(create: bool = True) -> tuple[Identity, bool]:
    """The user's identity, created on first use; returns (identity, created_now). The key file
    is read only if it is private (see :mod:`fairdeal._private`)."""
    path = identity_path()
    try:
        data = read_private(path, _IDENTITY_FILE, _IDENTITY_BYTES)
    except FileNotFoundError:
        pass
    else:
        if len(data) != _IDENTITY_BYTES:
            raise ConfigError(
                f"the identity file {path} is damaged (expected {_IDENTITY_BYTES} bytes); move it away to "
                "make a new identity"
            )
        return Identity.from_seed(data), False
    if not create:
        raise ConfigError(f"no identity yet at {path}")
    path.parent.mkdir(parents=True, exist_ok=True)
    identity = Identity.generate()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(identity.seed())
    return identity, True


def name_path() -> Path:
    return config_dir() / "name.txt"


def load_name() -> str | None:
    """The name this profile plays under (``name.txt`` in its config folder), if one was kept."""
    try:
        text = name_path().read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text or None


def save_name(name: str) -> None:
    """Keep ``name`` as this profile's name at the table (for the next games)."""
    path = name_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(name + "\n", encoding="utf-8")
    os.replace(tmp, path)


def default_log_path(game: str, game_id: bytes) -> Path:
    return data_dir() / "logs" / f"{game}-{game_id.hex()[:12]}.fdlog"


class LogWriter:
    """Appends entries to a log file as the game goes, flushing each one to the OS at once.

    A crash of this process loses nothing already appended; the file is synced to disk
    when it is closed.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file: BinaryIO | None = open(path, "xb")  # noqa: SIM115 - kept open for the game
        self._file.write(MAGIC)
        self._file.flush()

    @classmethod
    def reopen(cls, path: Path) -> LogWriter:
        """Go on appending to the log at ``path`` (a resumed seat): a torn last record, left by a
        crash in the middle of a write, is cut off first. Returns the writer; the entries already
        in the file are read with :func:`~fairdeal.core.session.logfile.parse_log`."""
        from fairdeal.core.session.logfile import NOT_A_LOG, is_log, parse_log

        data = path.read_bytes()
        parsed = parse_log(data)
        if not is_log(data):
            raise ConfigError(f"{path} is {NOT_A_LOG}")
        if parsed.problem and "cut short" not in parsed.problem:
            raise ConfigError(f"the log {path} is damaged ({parsed.problem}); it cannot be continued")
        writer = cls.__new__(cls)
        writer.path = path
        writer._file = open(path, "r+b")  # noqa: SIM115 - kept open for the game
        writer._file.truncate(len(data) - parsed.trailing)
        writer._file.seek(0, os.SEEK_END)
        return writer

    def append(self, entry: bytes) -> None:
        if self._file is None:
            raise ValueError("the log is closed")
        self._file.write(record(entry))
        self._file.flush()

    def keep_evidence(self, reason: str, entries: Sequence[bytes], **named: bytes) -> Path:
        """Keep, beside the log, entries the host sent that prove it cheated (``entries``), with
        any named ones (``sent``, ``relayed_instead``: what this seat sent and what came instead).

        The file (``LOG.evidence.json``) holds them in hex: ``fairdeal verify LOG LOG.evidence.json``
        checks them against the log, and anyone can check who signed what.
        """
        path = unique_log_path(self.path.with_name(self.path.name + ".evidence.json"))
        evidence = {
            "reason": reason,
            "log": self.path.name,
            "entries": [e.hex() for e in entries],
            **{k: v.hex() for k, v in named.items()},
        }
        with open(path, "x") as f:
            json.dump(evidence, f, indent=2)
            f.write("\n")
        return path

    def close(self) -> None:
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def unique_log_path(path: Path) -> Path:
    """``path`` if free, else the same name with a short random suffix."""
    if not path.exists():
        return path
    return path.with_name(f"{path.stem}-{secrets.token_hex(3)}{path.suffix}")
