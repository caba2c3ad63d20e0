"""The plugin guide names every hook; the wheel's package list matches the source tree."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from fairdeal import hookspecs

REPO = Path(__file__).resolve().parents[2]


def hook_names() -> list[str]:
    return [n for n in dir(hookspecs) if n.startswith("fairdeal_")]


def test_every_hook_is_documented_in_the_plugin_guide() -> None:
    guide = (REPO / "docs" / "plugins.md").read_text()
    assert hook_names(), "no hooks found"
    missing = [name for name in hook_names() if f"`{name}()`" not in guide and f"{name}(" not in guide]
    assert not missing, f"docs/plugins.md does not document: {missing}"


def test_hooks_are_prefixed() -> None:
    for name in hook_names():
        assert getattr(getattr(hookspecs, name), "fairdeal_spec", None) is not None, name


def test_pyproject_lists_every_package() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    root = REPO / "fairdeal"
    found = set()
    for folder, _, files in os.walk(root, followlinks=True):  # fairdeal/core -> ../core ...
        if "__init__.py" in files:
            found.add(".".join(["fairdeal", *Path(folder).relative_to(root).parts]))
    assert found == listed, f"missing: {sorted(found - listed)}, stale: {sorted(listed - found)}"


def test_the_package_links_to_the_top_level_folders() -> None:
    """``fairdeal/core`` is ``core/`` (and so on): one copy of each file, seen at its import path."""
    for name in ("core", "net", "plugins", "cli"):
        link = REPO / "fairdeal" / name
        assert link.is_symlink() and link.resolve() == (REPO / name).resolve(), name
    assert (REPO / "src" / "fairdeal").resolve() == (REPO / "fairdeal").resolve()
    importable = [n for p in (REPO / "src").iterdir() if (n := p.name.removesuffix(".py")).isidentifier()]
    assert importable == ["fairdeal"]  # the editable install puts src/ on sys.path: nothing else there
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    # One root for every package: no mapping of sub-packages to folders, which the type checker
    # cannot follow and which makes setuptools install a meta path finder with a warning.
    assert config["package-dir"] == {"": "src"}
