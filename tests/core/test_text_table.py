"""Printable text is the same on every Python: category C, Zl and Zp by Unicode 14.0, a fixed table."""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from fairdeal.core.text import WHITE_SPACE, shows_as_is

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(unicodedata.unidata_version != "14.0.0", reason="the table is of Unicode 14.0.0")
def test_the_table_is_what_the_script_writes_from_unicode_14() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "hidden_chars.py")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr


def test_characters_assigned_after_unicode_14_are_refused_as_unassigned() -> None:
    assert not shows_as_is("a\U0001fae8b", 10)  # SHAKING FACE, Unicode 15.0: unassigned in 14.0
    assert not shows_as_is("a\u2028b", 10) and not shows_as_is("a\u200eb", 10)
    assert shows_as_is("Émile ♥ 10", 20) and shows_as_is("a\u3000b", 10)


def test_white_space_is_a_fixed_set() -> None:
    for c in WHITE_SPACE:
        assert not shows_as_is(f"{c}a", 5) and not shows_as_is(f"a{c}", 5)
    assert shows_as_is("a\u200bb", 5) is False  # ZERO WIDTH SPACE is a format character (Cf)
