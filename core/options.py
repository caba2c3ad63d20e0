"""Game options: a schema of typed rule variants with defaults, and their validation."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .errors import ConfigError

OptionValue = bool | int | str

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True, slots=True)
class Option:
    """One rule variant. Its type is the type of ``default`` (bool, int or str)."""

    name: str
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def __post_init__(self) -> None:
        if self.choices and self.default not in self.choices:
            raise ValueError(f"option {self.name}: default {self.default!r} is not among its choices")

    @property
    def kind(self) -> type:
        return type(self.default)

    def describe(self) -> str:
        """``name=a|b (default a)``: the form an error message or help text lists."""
        if self.kind is bool:
            form = "true|false"
        elif self.choices:
            form = "|".join(self.choices)
        elif self.kind is int:
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            form = f"N ({lo}..{hi})" if (lo or hi) else "N"
        else:
            form = "TEXT"
        default = str(self.default).lower() if self.kind is bool else str(self.default)
        return f"{self.name}={form} (default {default})"

    def _range(self) -> str:
        """``a whole number from 1 to 50`` (or ``of at least 1``, ``of at most 50``)."""
        if self.minimum is not None and self.maximum is not None:
            return f"a whole number from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"a whole number of at least {self.minimum}"
        return f"a whole number of at most {self.maximum}"

    def parse(self, raw: object) -> OptionValue:
        """Turn a command-line string (or an already-typed value) into a valid value."""
        if self.kind is bool:
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise ConfigError(f"option {self.name} takes true or false, not {raw!r}")
        if self.kind is int:
            if isinstance(raw, bool):
                raise ConfigError(f"option {self.name} takes a whole number, not {raw!r}")
            try:
                value = int(str(raw).strip())
            except ValueError:
                raise ConfigError(f"option {self.name} takes a whole number, not {raw!r}") from None
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise ConfigError(f"option {self.name} takes {self._range()}, not {value}")
            return value
        text = str(raw).strip()
        if self.choices and text not in self.choices:
            raise ConfigError(f"option {self.name} takes one of {', '.join(self.choices)}, not {raw!r}")
        return text

    def check(self, value: object) -> OptionValue:
        """``value`` as received from a peer: exactly of this option's type and within its range.

        Unlike :meth:`parse`, nothing is converted: ``1`` is not ``true`` and ``"5"`` is not 5.
        """
        if type(value) is not self.kind or self.parse(value) != value:
            raise ConfigError(f"option {self.name} takes {self.describe().split('=', 1)[1]}, not {value!r}")
        return value


@dataclass(frozen=True)
class Config:
    """A validated game configuration: player count and every option's value."""

    players: int
    options: Mapping[str, OptionValue] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    def __getitem__(self, name: str) -> Any:
        return self.options[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.options)

    def as_dict(self) -> dict[str, OptionValue]:
        return dict(self.options)


def make_config(
    game_name: str,
    schema: Sequence[Option],
    players: int,
    min_players: int,
    max_players: int,
    raw: Mapping[str, object] | None = None,
) -> Config:
    """Validate ``raw`` option values against ``schema``; fill in defaults."""
    if not min_players <= players <= max_players:
        span = str(min_players) if min_players == max_players else f"{min_players} to {max_players}"
        raise ConfigError(f"{game_name} is for {span} players, not {players}")
    by_name = {o.name: o for o in schema}
    values: dict[str, OptionValue] = {o.name: o.default for o in schema}
    for key, value in (raw or {}).items():
        opt = by_name.get(key)
        if opt is None:
            valid = "; ".join(o.describe() for o in schema) or "none"
            raise ConfigError(f"unknown option {key!r} for {game_name}; valid options: {valid}")
        values[key] = opt.parse(value)
    return Config(players, values)


def exact_config(
    game_name: str,
    schema: Sequence[Option],
    players: int,
    min_players: int,
    max_players: int,
    values: Mapping[str, object],
) -> Config:
    """Check option values that a peer sent (a log's header): every option of ``schema``,
    named once, each exactly of its type and within its range; nothing else."""
    by_name = {o.name: o for o in schema}
    extra = sorted(set(values) - set(by_name))
    if extra:
        raise ConfigError(f"unknown option {extra[0]!r} for {game_name}")
    missing = sorted(set(by_name) - set(values))
    if missing:
        raise ConfigError(f"option {missing[0]!r} is missing")
    config = make_config(game_name, schema, players, min_players, max_players)
    return Config(players, {**config.options, **{k: by_name[k].check(v) for k, v in values.items()}})


def parse_assignments(items: Sequence[str]) -> dict[str, str]:
    """Split ``["k=v", ...]`` from the command line; a malformed item is a ConfigError."""
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"options are written name=value, not {item!r}")
        out[key.strip()] = value.strip()
    return out
