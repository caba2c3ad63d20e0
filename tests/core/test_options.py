from __future__ import annotations

import pytest

from fairdeal.core.errors import ConfigError
from fairdeal.core.options import Option, exact_config, make_config, parse_assignments

SCHEMA = (
    Option("target", 5, "points to win", minimum=1, maximum=99),
    Option("penalty", "classic", "penalty rule", choices=("classic", "seed")),
    Option("trump_when_void", False, "must trump when void"),
)


def cfg(raw: dict[str, object], players: int = 2):  # type: ignore[no-untyped-def]
    return make_config("ecarte", SCHEMA, players, 2, 2, raw)


def test_defaults_and_parsing() -> None:
    c = cfg({})
    assert dict(c.options) == {"target": 5, "penalty": "classic", "trump_when_void": False}
    c = cfg({"target": "7", "penalty": "seed", "trump_when_void": "yes"})
    assert c["target"] == 7 and c["penalty"] == "seed" and c["trump_when_void"] is True


def test_unknown_option_lists_valid_ones() -> None:
    with pytest.raises(ConfigError) as e:
        cfg({"colour": "red"})
    text = str(e.value)
    assert "unknown option 'colour' for ecarte" in text
    assert "target=N (1..99) (default 5)" in text
    assert "penalty=classic|seed (default classic)" in text
    assert "trump_when_void=true|false (default false)" in text


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        ({"target": "many"}, "whole number"),
        ({"target": "0"}, "option target takes a whole number from 1 to 99, not 0"),
        ({"target": "100"}, "option target takes a whole number from 1 to 99, not 100"),
        ({"penalty": "harsh"}, "one of classic, seed"),
        ({"trump_when_void": "maybe"}, "true or false"),
    ],
)
def test_bad_values(raw: dict[str, object], needle: str) -> None:
    with pytest.raises(ConfigError, match=needle):
        cfg(raw)


def test_player_count_checked() -> None:
    with pytest.raises(ConfigError, match="for 2 players, not 3"):
        cfg({}, players=3)


def test_config_is_read_only() -> None:
    c = cfg({})
    with pytest.raises(TypeError):
        c.options["target"] = 9  # type: ignore[index]


def test_parse_assignments() -> None:
    assert parse_assignments(["a=1", " b = x "]) == {"a": "1", "b": "x"}
    with pytest.raises(ConfigError):
        parse_assignments(["novalue"])


# -- options a peer sent (a log's header, a host's welcome): typed exactly, all of them ---------------------
def _schema() -> tuple[Option, ...]:
    return (
        Option("flag", False, "a switch"),
        Option("target", 5, "points", minimum=1, maximum=10),
        Option("penalty", "seed", "kind", choices=("seed", "none")),
    )


def test_exact_config_takes_typed_values_only() -> None:
    good = {"flag": True, "target": 7, "penalty": "none"}
    assert exact_config("g", _schema(), 2, 2, 2, good).as_dict() == good
    for key, bad in [
        ("flag", 1),
        ("flag", "true"),
        ("target", True),
        ("target", "7"),
        ("target", 11),
        ("penalty", " none"),
        ("penalty", "other"),
    ]:
        with pytest.raises(ConfigError, match=key):
            exact_config("g", _schema(), 2, 2, 2, {**good, key: bad})
    with pytest.raises(ConfigError, match="missing"):
        exact_config("g", _schema(), 2, 2, 2, {"flag": True, "target": 7})
    with pytest.raises(ConfigError, match="unknown option"):
        exact_config("g", _schema(), 2, 2, 2, {**good, "extra": 1})
    with pytest.raises(ConfigError, match="players"):
        exact_config("g", _schema(), 3, 2, 2, good)
