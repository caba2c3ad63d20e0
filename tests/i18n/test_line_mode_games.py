"""A line-mode game in each language: a short Écarté played with ``--plain`` by the installed
command, a person fed from stdin (always the first move) against a bot. The game speaks the
language (its headings, prompts and end, from the catalog), and its log verifies fair and is the
same bytes whatever the language (the same seed, the same identity, the same moves)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fairdeal import i18n

pytestmark = pytest.mark.slow  # five games, then verify: some fifteen seconds

FAIRDEAL = Path(sys.executable).with_name("fairdeal")
LANGS = list(i18n.LANGUAGES)
#: Words line mode says in every game, which the catalog translates (each must differ from English).
SAID = (
    "Your moves:",
    "Game over",
    "Fair game: every shuffle proven, every move checked with every card known.",
)


def _flat(text: str) -> str:
    """Text with its line breaks and runs of spaces as one space (line mode wraps at 80 columns)."""
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, bytes]]:
    """Each language's game: what it wrote, and its log (one home: one identity for the person)."""
    home = tmp_path_factory.mktemp("home")
    out = {}
    for lang in LANGS:
        log = home / f"{lang}.fdlog"
        env = {**os.environ, "FAIRDEAL_HOME": str(home), "FAIRDEAL_LANG": lang, "FAIRDEAL_NAME": "Ann"}
        env.pop("LANGUAGE", None)
        played = subprocess.run(
            [
                str(FAIRDEAL),
                "play",
                "ecarte",
                "--plain",
                "--seed",
                "5",
                "--option",
                "target=1",
                "--log",
                str(log),
            ],
            input="1\n" * 200,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert played.returncode == 0, played.stdout + played.stderr
        out[lang] = (played.stdout, log.read_bytes())
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_a_line_mode_game_speaks_the_language(games: dict[str, tuple[str, bytes]], lang: str) -> None:
    said, _log = games[lang]
    words = i18n.catalog(lang)
    for english in SAID:
        wanted = words.gettext(english)
        assert lang == "en" or wanted != english, f"no {lang} for {english!r}"
        assert _flat(wanted) in _flat(said), f"{wanted!r} not in the {lang} game:\n{said}"
    if lang != "en":
        assert "Your moves:" not in said and "Game over" not in said


@pytest.mark.parametrize("lang", LANGS)
def test_its_log_verifies_fair(games: dict[str, tuple[str, bytes]], lang: str, tmp_path: Path) -> None:
    log = tmp_path / "game.fdlog"
    log.write_bytes(games[lang][1])
    env = {**os.environ, "FAIRDEAL_HOME": str(tmp_path), "FAIRDEAL_LANG": lang}
    checked = subprocess.run(
        [str(FAIRDEAL), "verify", "--json", str(log)], capture_output=True, text=True, env=env, timeout=120
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)["verdict"] == "fair"


def test_the_logs_are_the_same_bytes_in_every_language(games: dict[str, tuple[str, bytes]]) -> None:
    logs = {lang: log for lang, (_said, log) in games.items()}
    assert len(set(logs.values())) == 1, {lang: len(log) for lang, log in logs.items()}
