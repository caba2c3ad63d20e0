"""docs/plugins.md runs: its Python, put together, is the example game; its files are the example's
files; its commands work.

The guide's Python blocks are run in order as one module (a block that starts indented goes on
with the class of the block before), with the rules text block written beside it; the
functions it defines as tests are then called. The walkthrough's blocks are pieces of the
example module, word for word, and the game they make plays as the example does. The ``pip``
lines are run by ``test_new_plugin.py`` (the slow test installs the example and a new plugin).
(``ruff format`` formats the guide's Python too; the blocks that go on with a class sit between
``<!-- fmt: off -->`` and ``<!-- fmt: on -->``, which it leaves alone.)
"""

from __future__ import annotations

import random
import re
import shlex
import sys
import tomllib
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

from fairdeal import registry
from fairdeal.cli.main import cli
from fairdeal.core.dealer import PlainDealer
from fairdeal.core.rng import SeededRng
from fairdeal.core.runner import play_game

REPO = Path(__file__).resolve().parents[2]
GUIDE = REPO / "docs" / "plugins.md"
EXAMPLE = REPO / "examples" / "crazy-eights"
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```\n", re.M | re.S)


def blocks(text: str) -> list[tuple[str, str]]:
    """Every fenced code block of ``text``: (language, code)."""
    return [(m.group(1), m.group(2)) for m in _BLOCK.finditer(text)]


def _walkthrough(text: str) -> list[str]:
    part = text[text.index("## Part 2") : text.index("## Part 3")]
    return [code for lang, code in blocks(part) if lang == "python"]


def _module(tmp: Path) -> ModuleType:
    """The guide's Python as one module, with the guide's rules text beside it."""
    found = blocks(GUIDE.read_text())
    rules = [code for lang, code in found if lang == "text"]
    assert len(rules) == 1
    (tmp / "rules.txt").write_text(rules[0])
    pieces: list[str] = []
    for lang, code in found:
        if lang == "python":
            if code[:1].isspace() and pieces:
                pieces[-1] += "\n" + code
            else:
                pieces.append(code)
    source = "\n\n".join(pieces)
    path = tmp / "guide_example.py"
    path.write_text(source)
    module = ModuleType("guide_example")
    module.__file__ = str(path)
    sys.modules["guide_example"] = module  # its dataclasses look their module up
    try:
        exec(compile(source, str(path), "exec"), module.__dict__)
    except BaseException:
        sys.modules.pop("guide_example", None)
        raise
    return module


@pytest.fixture
def guide(tmp_path: Path) -> Any:
    module = _module(tmp_path)
    yield module
    sys.modules.pop("guide_example", None)


def test_every_python_block_runs_and_its_tests_pass(guide: Any) -> None:
    tests = [v for k, v in vars(guide).items() if k.startswith("test_") and callable(v)]
    assert len(tests) == 3
    for test in tests:
        test()


def test_the_walkthrough_is_the_example_module_word_for_word() -> None:
    example = (EXAMPLE / "fairdeal_crazy_eights" / "__init__.py").read_text()
    pieces = _walkthrough(GUIDE.read_text())
    assert len(pieces) >= 8
    at = 0
    for piece in pieces:
        where = example.find(piece, at)
        assert where >= 0, f"not in the example module, in this order:\n{piece}"
        at = where + len(piece)
    code = [line for line in example.splitlines() if line.strip()]
    shown = {line for piece in pieces for line in piece.splitlines() if line.strip()}
    left_out = [line for line in code if line not in shown]
    assert all(line.startswith(('"""', "The entry point", "are in")) for line in left_out), left_out


def test_the_guide_game_plays_as_the_example_does(guide: Any, example_entry_points: Any) -> None:
    example = registry.load(example_entry_points).game("crazy-eights")
    mine = guide.CrazyEights()
    for players, seed in [(2, 1), (3, 2), (5, 3)]:
        config = example.config(players)
        games = [
            play_game(
                g,
                config,
                PlainDealer(players, SeededRng(seed)),
                [b() for _ in range(players)],
                random.Random(1),
            )
            for g, b in ((example, lambda: example.bots[0].make()), (mine, guide.GreedyEights))
        ]
        assert games[0].moves == games[1].moves and games[0].result == games[1].result


def test_the_package_files_are_the_examples() -> None:
    found = blocks(GUIDE.read_text())
    tomls = [code for lang, code in found if lang == "toml"]
    assert [tomllib.loads(t) for t in tomls] == [tomllib.loads((EXAMPLE / "pyproject.toml").read_text())]
    rules = [code for lang, code in found if lang == "text"]
    assert rules == [(EXAMPLE / "fairdeal_crazy_eights" / "rules.txt").read_text()]


def _commands() -> list[list[str]]:
    out = []
    for lang, code in blocks(GUIDE.read_text()):
        if lang == "sh":
            for line in code.splitlines():
                line = line.split("#")[0].strip()
                if line:
                    out.append(shlex.split(line))
    return out


def test_every_command_of_the_guide_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, example_entry_points: list[metadata.EntryPoint]
) -> None:
    """The fairdeal commands run here, with the example installed (the pip line: test_new_plugin.py)."""
    installed = registry.discover()
    monkeypatch.setattr(registry, "discover", lambda: [*installed, *example_entry_points])
    monkeypatch.chdir(tmp_path)
    env = {"FAIRDEAL_HOME": str(tmp_path / "home")}
    commands = _commands()
    assert [c[0] for c in commands if c[0] != "fairdeal"] == [".venv/bin/pip"]
    for command in commands:
        if command[0] != "fairdeal":
            assert command[1:] == ["install", "./examples/crazy-eights"]
            continue
        result = CliRunner().invoke(cli, command[1:], input="", env=env)
        assert result.exit_code == 0, (command, result.output)
        if command[1] == "games":
            assert "crazy-eights" in result.output and "Crazy Eights" in result.output
        if command[1] == "rules":
            assert "An 8 is wild" in result.output and "hand=N" in result.output
        if command[1:4] == ["--lang", "de", "rules"]:
            assert "Eine 8 ist frei" in result.output and "hand=N" in result.output
        if command[1:4] == ["--lang", "de", "play"]:  # the game's own words in German (locale/de)
            assert "Ablagestapel" in result.output and "Nachziehstapel" in result.output
        if command[1] == "play":
            assert "You resign" in result.output or "you resign" in result.output
    assert (tmp_path / "fairdeal-go-fish" / "fairdeal_go_fish" / "rules.txt").exists()


def test_the_guides_catalog_recipe_makes_the_examples_catalog(tmp_path: Path) -> None:
    """The guide's pybabel lines, run on a copy of the example package, make its German catalog."""
    import shutil
    import subprocess

    (recipe,) = [code for lang, code in blocks(GUIDE.read_text()) if lang == "console"]
    package = tmp_path / "fairdeal_crazy_eights"
    shutil.copytree(EXAMPLE / "fairdeal_crazy_eights", package, ignore=shutil.ignore_patterns("locale"))
    here = tmp_path
    for line in recipe.splitlines():
        words = shlex.split(line.split("#")[0])
        if not words:
            continue
        if words[0] == "cd":
            here = here / words[1]
            continue
        if words[:2] == ["mkdir", "-p"]:
            (here / words[2]).mkdir(parents=True, exist_ok=True)
            continue
        assert words[0] == "pybabel", line
        subprocess.run([sys.executable, "-m", "babel.messages.frontend", *words[1:]], cwd=here, check=True)
    pot = (package / "locale" / "fairdeal_crazy_eights.pot").read_text()
    for message in (
        "{seat} emptied their hand",
        "discard pile",
        "cards dealt to each (0: 7 for two, else 5)",
    ):
        assert f'msgid "{message}"' in pot
    assert (package / "locale" / "de" / "LC_MESSAGES" / "fairdeal_crazy_eights.mo").is_file()
