"""The log's first entry: which game, which plugin and version, which options, which seats."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import RemoteProtocolError
from ..identity import PUBLIC_KEY_BYTES, fingerprint, key_problem
from ..options import OptionValue
from ..text import distinct_names, shows_as_is
from .envelope import GAME_ID_BYTES

#: The log protocol this fairdeal writes (docs/protocol.md), and those it reads: a log of protocol
#: 3 is checked by that protocol's rules (a card one seat alone could open was opened to the next
#: seat with its share, not handed over).
PROTOCOL = 4
PROTOCOLS = frozenset({3, 4})
# The header's fields and a seat's, in the order the log holds them (docs/protocol.md 9.1).
FIELDS = ("protocol", "game", "plugin", "distribution", "version", "options", "seats", "extra")
SEAT_FIELDS = ("name", "identity", "kind")
MAX_SEATS = 10
HOST = 0
"""The host's seat: it writes the header and places every entry."""
HEADER = "header"
"""The kind of the log's first entry, the header."""
MAX_NAME = 40
MAX_TEXT = 200


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat's public facts: a display name, its identity key and what plays it (as announced)."""

    name: str
    identity: bytes
    kind: str = "player"

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.identity)


@dataclass(frozen=True)
class Header:
    """Everything every peer must agree on before the first card moves."""

    game_id: bytes
    game: str
    plugin: str
    distribution: str
    version: str
    options: Mapping[str, OptionValue]
    seats: tuple[SeatInfo, ...]
    protocol: int = PROTOCOL
    extra: Mapping[str, str] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def names(self) -> tuple[str, ...]:
        """The seats' names as people read them: two equal names told apart (``Ann``, ``Ann (2)``)."""
        return distinct_names(s.name for s in self.seats)

    def to_body(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol,
            "game": self.game,
            "plugin": self.plugin,
            "distribution": self.distribution,
            "version": self.version,
            "options": dict(sorted(self.options.items())),
            "seats": [{"name": s.name, "identity": s.identity, "kind": s.kind} for s in self.seats],
            "extra": dict(sorted(self.extra.items())),
        }

    @staticmethod
    def from_body(game_id: bytes, body: Any) -> Header:
        """Strictly validate a header body received from a peer."""

        def bad(reason: str) -> RemoteProtocolError:
            return RemoteProtocolError(f"bad header: {reason}", seat=0)

        if not isinstance(body, dict) or list(body) != list(FIELDS):
            raise bad(f"the fields must be exactly {', '.join(FIELDS)}, in that order")
        protocol = body["protocol"]
        if type(protocol) is not int or protocol not in PROTOCOLS:
            raise bad(f"unsupported protocol {protocol!r}")
        for key in ("game", "plugin", "distribution", "version"):
            if not shows_as_is(body[key], MAX_TEXT):
                raise bad(f"{key} must be 1 to {MAX_TEXT} characters of plain text")
        options = body["options"]
        if (
            not isinstance(options, dict)
            or len(options) > 64
            or not all(
                shows_as_is(k, MAX_NAME)
                and isinstance(v, (bool, int, str))
                and (not isinstance(v, str) or shows_as_is(v, MAX_TEXT, empty=True))
                for k, v in options.items()
            )
        ):
            raise bad("options must map names to booleans, numbers or short plain text")
        if list(options) != sorted(options):
            raise bad("options must be sorted by name")
        seats = body["seats"]
        if not isinstance(seats, list) or not 2 <= len(seats) <= MAX_SEATS:
            raise bad(f"there must be 2 to {MAX_SEATS} seats")
        infos: list[SeatInfo] = []
        for s in seats:
            if not (
                isinstance(s, dict)
                and tuple(s) == SEAT_FIELDS
                and shows_as_is(s["name"], MAX_NAME)
                and shows_as_is(s["kind"], MAX_NAME)
                and isinstance(s["identity"], bytes)
                and len(s["identity"]) == PUBLIC_KEY_BYTES
            ):
                raise bad("malformed seat (its name and kind are 1 to 40 characters of plain text)")
            problem = key_problem(s["identity"])
            if problem is not None:  # a key of small order "signs" what anyone likes (8.2)
                raise bad(f"seat {len(infos)}'s identity is not a strict Ed25519 key: {problem}")
            infos.append(SeatInfo(s["name"], s["identity"], s["kind"]))
        if len({s.identity for s in infos}) != len(infos):
            raise bad("two seats share an identity")
        extra = body["extra"]
        if (
            not isinstance(extra, dict)
            or len(extra) > 16
            or not all(
                shows_as_is(k, MAX_NAME) and shows_as_is(v, MAX_TEXT, empty=True) for k, v in extra.items()
            )
        ):
            raise bad("malformed extra fields (names and values are short plain text)")
        if list(extra) != sorted(extra):
            raise bad("extra fields must be sorted by name")
        if len(game_id) != GAME_ID_BYTES:
            raise bad("bad game id")
        return Header(
            game_id,
            body["game"],
            body["plugin"],
            body["distribution"],
            body["version"],
            dict(options),
            tuple(infos),
            protocol,
            dict(extra),
        )
