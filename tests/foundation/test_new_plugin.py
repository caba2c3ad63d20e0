"""``fairdeal new NAME`` writes a plugin that ``pip install -e`` installs, ``fairdeal games`` lists
and whose own test passes at once; the example of docs/plugins.md installs as the guide says.

The plugin is installed into a virtual environment of its own made for the test, which sees
this one's packages (fairdeal, pytest) through a ``.pth`` file: nothing is installed into the
environment the tests run in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairdeal.cli.main import cli
from fairdeal.cli.new import names, plugin_files, write_plugin
from fairdeal.core.errors import ConfigError


def _venv_over_this_one(where: Path) -> Path:
    """A virtual environment at ``where`` that also sees this environment's packages; its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True, timeout=120)
    python = where / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.strip()
    ours = sysconfig.get_paths()["purelib"]
    Path(site, "fairdeal-test-parent.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    return python


def _run(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{args} failed:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.mark.slow
def test_a_new_plugin_installs_is_listed_and_passes_its_test(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {**os.environ, "FAIRDEAL_HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONPATH", None)
    made = CliRunner().invoke(cli, ["new", "go-fish", "--into", str(tmp_path / "fairdeal-go-fish")], env=env)
    assert made.exit_code == 0, made.output
    assert "pip install -e" in made.output
    plugin = tmp_path / "fairdeal-go-fish"
    python = _venv_over_this_one(tmp_path / "venv")
    # As a plugin author installs it (pip fetches the build backend, as it did for fairdeal).
    _run(str(python), "-m", "pip", "install", "-q", "--no-deps", "-e", str(plugin), cwd=tmp_path, env=env)
    # The example of docs/plugins.md, as the guide installs it (a wheel: its rules must be in it).
    example = tmp_path / "crazy-eights"  # a copy: building writes beside the sources
    shutil.copytree(Path(__file__).resolve().parents[2] / "examples" / "crazy-eights", example)
    _run(str(python), "-m", "pip", "install", "-q", "--no-deps", str(example), cwd=tmp_path, env=env)
    listed = _run(str(python), "-m", "fairdeal", "games", cwd=tmp_path, env=env)
    assert "go-fish" in listed.stdout and "Go Fish" in listed.stdout and "warning" not in listed.stderr
    assert "crazy-eights" in listed.stdout
    eights = _run(str(python), "-m", "fairdeal", "rules", "crazy-eights", cwd=tmp_path, env=env)
    assert "An 8 is wild" in eights.stdout
    assert "suit led" in _run(str(python), "-m", "fairdeal", "rules", "go-fish", cwd=tmp_path, env=env).stdout
    tested = _run(str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=plugin, env=env)
    assert "3 passed" in tested.stdout
    played = _run(
        str(python), "-m", "fairdeal", "play", "go-fish", "--seat", "bot", "--seat", "bot", "--seed", "1",
        "--plain", "--log", str(tmp_path / "g.fdlog"),
        cwd=tmp_path,
        env=env,
    )  # fmt: skip
    assert "took the most tricks" in played.stdout or "tied" in played.stdout
    _run(str(python), "-m", "fairdeal", "verify", str(tmp_path / "g.fdlog"), cwd=tmp_path, env=env)


def test_the_plugin_says_its_names_everywhere() -> None:
    n = names("go-fish")
    assert n == {
        "name": "go-fish",
        "module": "fairdeal_go_fish",
        "cls": "GoFish",
        "title": "Go Fish",
        "dist": "fairdeal-go-fish",
    }
    files = plugin_files("go-fish")
    project = tomllib.loads(files["pyproject.toml"])
    assert project["project"]["entry-points"]["fairdeal"] == {"go-fish": "fairdeal_go_fish:GoFish"}
    assert project["tool"]["setuptools"]["package-data"] == {"fairdeal_go_fish": ["rules.txt"]}
    assert "class GoFish(Game[" in files["fairdeal_go_fish/__init__.py"]
    assert 'name = "go-fish"' in files["fairdeal_go_fish/__init__.py"]


def test_a_bad_name_or_a_folder_in_the_way_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot name a game"):
        write_plugin("Go Fish", tmp_path / "x")
    (tmp_path / "taken").mkdir()
    with pytest.raises(ConfigError, match="exists already"):
        write_plugin("go-fish", tmp_path / "taken")
    result = CliRunner().invoke(cli, ["new", "ecarte", "--into", str(tmp_path / "e")])
    assert result.exit_code == 2 and "installed already" in result.output
    assert not (tmp_path / "e").exists()


def test_the_new_game_is_a_game_the_kit_accepts(tmp_path: Path) -> None:
    """The generated module, imported as it is written (the slow test installs it)."""
    write_plugin("tiny-tricks", tmp_path / "p")
    sys.path.insert(0, str(tmp_path / "p"))
    try:
        import fairdeal_tiny_tricks

        from fairdeal.testing import check_game

        game = fairdeal_tiny_tricks.TinyTricks()
        report = check_game(game, players=[2, 4], seeds=range(5))
        assert report.games == 10
        assert "suit led" in game.rules_text()
    finally:
        sys.path.remove(str(tmp_path / "p"))
        sys.modules.pop("fairdeal_tiny_tricks", None)
