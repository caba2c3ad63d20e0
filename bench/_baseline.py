"""Run a benchmark worker on this tree and on an older revision, on the same machine, in one run.

The product keeps no old protocol code for comparisons: :func:`baseline_tree` checks the
revision out of git into a temporary folder (``git archive``), laid out so that
``import fairdeal`` finds it first (``PYTHONPATH``); :func:`run_worker` runs a worker
script in a fresh process on either tree and returns what it printed as JSON. A worker
may only use what both trees have.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: main just before every shuffle pass carried a proof (hash commitments, opened by the audit).
BASELINE = "436f3ffd18cb6b740ddc6d1e22bb91b5b32eb98a"
#: Folder in the repository -> sub-package of ``fairdeal`` (fairdeal/ links to them since the layout
#: became visible to tools; older revisions are laid out here by copying).
PACKAGES = {"core": "core", "net": "net", "plugins": "plugins", "cli": "cli"}


@contextmanager
def baseline_tree(rev: str = BASELINE) -> Iterator[Path]:
    """A folder to put on ``PYTHONPATH`` so that ``fairdeal`` is revision ``rev``'s."""
    with tempfile.TemporaryDirectory(prefix="fairdeal-baseline-") as tmp:
        base = Path(tmp)
        archive = base / "tree.tar"
        with archive.open("wb") as out:
            subprocess.run(
                ["git", "-C", str(ROOT), "archive", "--format=tar", rev, "fairdeal", *PACKAGES],
                stdout=out,
                check=True,
            )
        src = base / "src"
        with tarfile.open(archive) as tar:
            tar.extractall(src, filter="data")
        pkgs = base / "pkgs"
        # The links fairdeal/core -> ../core ... of newer revisions are left out: the folders follow.
        shutil.copytree(src / "fairdeal", pkgs / "fairdeal", ignore=shutil.ignore_patterns(*PACKAGES))
        for folder, name in PACKAGES.items():
            shutil.copytree(src / folder, pkgs / "fairdeal" / name)
        yield pkgs


def run_worker(script: Path, args: Sequence[str], tree: Path | None = None) -> Any:
    """Run ``script args`` in a new process (on ``tree`` when given) and parse its JSON output."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    # Bytecode caches, as an installed package has them: a worker that imports while it is timed
    # would otherwise time the compiling of every module it imports (more for a bigger tree).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    done = subprocess.run(
        [sys.executable, str(script), *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{script.name} {' '.join(args)} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def which_tree() -> str:
    """Where ``fairdeal.core`` comes from, for a worker to report (a check that the layout works)."""
    import fairdeal.core

    return str(Path(fairdeal.core.__file__).resolve().parent)
