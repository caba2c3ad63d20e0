from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "crazy-eights"


@pytest.fixture(scope="session")
def eights() -> Iterator[object]:
    """The example game's rules object (imported directly: these tests are about sessions)."""
    sys.path.insert(0, str(EXAMPLE))
    try:
        from fairdeal_crazy_eights import CrazyEights

        yield CrazyEights()
    finally:
        sys.path.remove(str(EXAMPLE))
