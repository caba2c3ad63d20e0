"""A seat's seed file: what it needs to go on with a game and cannot recompute from the log.

Every secret of a seat (its deck key, shuffle permutations, nonces) derives from one
32-byte seed, so a seat that has its log and its seed can rebuild its exact state by
replaying the log, and writes exactly the bytes it would have written. The seed file
(``LOG.seed``, next to the log) keeps that seed and what else the seat cannot find in
the log: its role and seat, the invite code (the table's secret, the host's addresses),
the host's listening parameters, a bot seat's own identity key, an entry sent to
the host whose echo has not come back yet (so that it is sent again, byte for byte,
never decided anew), and the chat counters (the last line it sent, and the last it
accepted of every other seat, so that after a crash its lines are not taken for old ones
and old lines are not taken for new).

The file holds secrets: it is created readable and writable by its owner only (mode
0600) and read only if it still is, from the file itself (never through a symbolic link),
replaced atomically, written before the first entry that depends on it, and
deleted when the game is over. A pointer in the data directory (``unfinished/``) lists
the games that can be resumed, wherever their logs are.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final, Literal

from fairdeal.core.errors import ConfigError

from ._private import Secret, read_private
from .storage import data_dir

FORMAT: Final = "fairdeal-seed"
VERSION: Final = 2
SUFFIX: Final = ".seed"
SEED_BYTES: Final = 32
MAX_FILE: Final = 4 * 1024 * 1024
Role = Literal["host", "guest"]


@dataclass(frozen=True)
class HostParams:
    """How the host listened and judged, to listen again the same way on resume."""

    bind: str
    port: int
    announce: bool
    timeout: float
    move_timeout: float | None
    watchers: int
    advertise: str | None = None


@dataclass(frozen=True)
class SeedFile:
    """One seat's seed file (see the module docstring). ``game_id`` is the header's."""

    role: Role
    seat: int
    game: str
    game_id: bytes
    identity: str  # the seat's fingerprint
    seed: bytes
    invite: str
    kind: str
    grace: int
    identity_key: bytes | None = None  # a bot seat's own identity (not the profile's)
    extra_direct: tuple[str, ...] = ()
    host: HostParams | None = None
    sent: bytes | None = None
    adjourned: bool = False
    profile: str | None = None
    chat: tuple[int, ...] = ()  # by seat: the last chat line sent (its own) or accepted

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "role": self.role,
            "seat": self.seat,
            "game": self.game,
            "game_id": self.game_id.hex(),
            "identity": self.identity,
            "seed": self.seed.hex(),
            "invite": self.invite,
            "kind": self.kind,
            "grace": self.grace,
            "identity_key": None if self.identity_key is None else self.identity_key.hex(),
            "extra_direct": list(self.extra_direct),
            "host": None if self.host is None else _host_json(self.host),
            "sent": None if self.sent is None else self.sent.hex(),
            "adjourned": self.adjourned,
            "profile": self.profile,
            "chat": list(self.chat),
        }

    @staticmethod
    def from_json(obj: Any, where: Path) -> SeedFile:
        """Check every field; ConfigError saying what is wrong with the file at ``where``."""

        def bad(reason: str) -> ConfigError:
            return ConfigError(f"the seed file {where} is damaged ({reason}); this seat cannot go on")

        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise bad("not a fairdeal seed file")
        if obj.get("version") != VERSION:
            raise ConfigError(f"the seed file {where} was written by another version of fairdeal")
        want = {
            "format", "version", "role", "seat", "game", "game_id", "identity", "seed", "invite", "kind",
            "grace", "identity_key", "extra_direct", "host", "sent", "adjourned", "profile", "chat",
        }  # fmt: skip
        if set(obj) != want:
            raise bad("wrong fields")
        try:
            role = obj["role"]
            if role not in ("host", "guest"):
                raise ValueError("role")
            seat = _int(obj["seat"], 0, 9)
            if (role == "host") != (seat == 0):
                raise ValueError("seat")
            seed = _hex(obj["seed"], SEED_BYTES)
            game_id = _hex(obj["game_id"], 16)
            key = None if obj["identity_key"] is None else _hex(obj["identity_key"], 32)
            sent = None if obj["sent"] is None else _hex(obj["sent"], None)
            host = None if obj["host"] is None else _host_from(obj["host"])
            if (role == "host") != (host is not None):
                raise ValueError("host")
            for name in ("game", "identity", "invite", "kind"):
                if not isinstance(obj[name], str) or not 0 < len(obj[name]) <= 600:
                    raise ValueError(name)
            extra = obj["extra_direct"]
            if not isinstance(extra, list) or not all(isinstance(x, str) and len(x) < 300 for x in extra):
                raise ValueError("extra_direct")
            if not isinstance(obj["adjourned"], bool):
                raise ValueError("adjourned")
            if obj["profile"] is not None and not isinstance(obj["profile"], str):
                raise ValueError("profile")
            chat = obj["chat"]
            if not isinstance(chat, list) or len(chat) > 10:
                raise ValueError("chat")
            marks = tuple(_int(n, 0, 2**32 - 1) for n in chat)
            return SeedFile(
                role=role,
                seat=seat,
                game=obj["game"],
                game_id=game_id,
                identity=obj["identity"],
                seed=seed,
                invite=obj["invite"],
                kind=obj["kind"],
                grace=_int(obj["grace"], 0, 7 * 24 * 3600),
                identity_key=key,
                extra_direct=tuple(extra),
                host=host,
                sent=sent,
                adjourned=obj["adjourned"],
                profile=obj["profile"],
                chat=marks,
            )
        except (ValueError, TypeError, KeyError) as exc:
            raise bad(f"field {exc}") from None


def _int(v: Any, lo: int, hi: int) -> int:
    if type(v) is not int or not lo <= v <= hi:
        raise ValueError("a number out of range")
    return v


def _hex(v: Any, n: int | None) -> bytes:
    if not isinstance(v, str):
        raise ValueError("not hex")
    b = bytes.fromhex(v)
    if n is not None and len(b) != n:
        raise ValueError(f"not {n} bytes")
    return b


def _host_json(h: HostParams) -> dict[str, Any]:
    return {
        "bind": h.bind,
        "port": h.port,
        "announce": h.announce,
        "timeout": h.timeout,
        "move_timeout": h.move_timeout,
        "watchers": h.watchers,
        "advertise": h.advertise,
    }


def _host_from(obj: Any) -> HostParams:
    if not isinstance(obj, dict) or set(obj) != {
        "bind", "port", "announce", "timeout", "move_timeout", "watchers", "advertise",
    }:  # fmt: skip
        raise ValueError("host")
    if not isinstance(obj["bind"], str) or not isinstance(obj["announce"], bool):
        raise ValueError("host")
    timeout = obj["timeout"]
    move = obj["move_timeout"]
    if not isinstance(timeout, int | float) or isinstance(timeout, bool) or not timeout > 0:
        raise ValueError("timeout")
    if move is not None and (not isinstance(move, int | float) or isinstance(move, bool) or not move > 0):
        raise ValueError("move_timeout")
    if obj["advertise"] is not None and not isinstance(obj["advertise"], str):
        raise ValueError("advertise")
    return HostParams(
        obj["bind"],
        _int(obj["port"], 1, 65535),
        obj["announce"],
        float(timeout),
        None if move is None else float(move),
        _int(obj["watchers"], 0, 1000),
        obj["advertise"],
    )


# -- on disk ----------------------------------------------------------------------------------------
def seed_path(log: Path) -> Path:
    """Where the seed file of ``log`` is kept: next to it."""
    return log.with_name(log.name + SUFFIX)


def _pointers() -> Path:
    return data_dir() / "unfinished"


def _pointer(log: Path) -> Path:
    key = hashlib.sha256(str(log.resolve()).encode()).hexdigest()[:24]
    return _pointers() / f"{key}.path"


def _write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically; the file is the owner's alone (0600)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_seed(log: Path, seed: SeedFile) -> None:
    """Write (or replace) the seed file of ``log``, and list the game as unfinished."""
    _write_private(seed_path(log), (json.dumps(seed.to_json(), indent=1) + "\n").encode())
    pointer = _pointer(log)
    if not pointer.exists():
        _write_private(pointer, (str(log.resolve()) + "\n").encode())


def read_seed(log: Path) -> SeedFile:
    """The seed file of ``log``: ConfigError, with what to do, when it is missing, unsafe or damaged.

    The file checked is the file read: it is opened without following a symbolic link (a link
    is refused, wherever it points), and its mode and kind are those of the open file.
    """
    path = seed_path(log)
    try:
        data = read_private(path, _SEED_FILE, MAX_FILE)
    except FileNotFoundError:
        raise ConfigError(
            f"there is no seed file next to {log} (expected {path.name}): without it this seat's secrets "
            "are gone, and the game cannot be resumed from here"
        ) from None
    try:
        obj = json.loads(data)
    except ValueError:
        raise ConfigError(f"the seed file {path} is damaged (not JSON); this seat cannot go on") from None
    return SeedFile.from_json(obj, path)


_SEED_FILE: Final = Secret(
    what="the seed file", holds="this seat's secrets", again="resume again", lost="this seat cannot go on"
)


def update_seed(log: Path, **changes: Any) -> SeedFile:
    """Change some fields of the seed file of ``log`` (it must exist)."""
    new = replace(read_seed(log), **changes)
    write_seed(log, new)
    return new


def delete_seed(log: Path) -> None:
    """The game is over: forget the seed (its secrets are of no use any more) and the pointer."""
    for path in (seed_path(log), _pointer(log)):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def unfinished_logs() -> list[Path]:
    """The logs of this profile's games that can be resumed, newest first."""
    found: dict[Path, None] = {}
    folder = _pointers()
    if folder.is_dir():
        for pointer in folder.glob("*.path"):
            try:
                log = Path(pointer.read_text().strip())
            except OSError:
                continue
            if seed_path(log).exists():
                found[log] = None
            else:  # the game was finished or its files moved away: the pointer is stale
                with contextlib.suppress(OSError):
                    pointer.unlink()
    logs = data_dir() / "logs"
    if logs.is_dir():
        for seed in logs.glob("*" + SUFFIX):
            found[seed.with_name(seed.name[: -len(SUFFIX)]).resolve()] = None
    existing = [p for p in found if p.exists()]
    return sorted(existing, key=lambda p: p.stat().st_mtime, reverse=True)


__all__ = [
    "SUFFIX",
    "HostParams",
    "SeedFile",
    "delete_seed",
    "read_seed",
    "seed_path",
    "unfinished_logs",
    "update_seed",
    "write_seed",
]
