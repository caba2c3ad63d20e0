"""The plugin guide names every hook; the wheel's package list matches the source tree."""

from __future__ import annotations

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
    mapping = config["package-dir"]
    found = set()
    for package, folder in mapping.items():
        root = REPO / folder
        for init in root.rglob("__init__.py"):
            rel = init.parent.relative_to(root)
            parts = [] if str(rel) == "." else list(rel.parts)
            found.add(".".join([package, *parts]))
    assert found == listed, f"missing: {sorted(found - listed)}, stale: {sorted(listed - found)}"
