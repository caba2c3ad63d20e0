"""Write ``core/_hidden_chars.py``: the characters no text of the protocol may hold, by Unicode 14.0.

    python scripts/hidden_chars.py          # print what would change, exit 1 if anything would
    python scripts/hidden_chars.py --write  # (re)write the file

"Printable" (docs/protocol.md, section 5) refuses every character of Unicode general category C
(Cc, Cf, Cs, Co, Cn) and Zl, Zp. Which code points those are changes with the Unicode version
(unassigned ones get assigned), and each Python has its own: were the check to ask the running
Python, two peers on different Pythons would disagree on one entry. So the set is fixed at Unicode
14.0.0 (Python 3.11's ``unicodedata``), written out as ranges, and every peer reads the same table.
Run this with Python 3.11.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "core" / "_hidden_chars.py"
VERSION = "14.0.0"


def ranges() -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    start = None
    for cp in range(0x110000):
        cat = unicodedata.category(chr(cp))
        hidden = cat[0] == "C" or cat in ("Zl", "Zp")
        if hidden and start is None:
            start = cp
        elif not hidden and start is not None:
            out.append((start, cp - 1))
            start = None
    if start is not None:
        out.append((start, 0x10FFFF))
    return out


def text() -> str:
    words = [f"{a:X}-{b:X}" for a, b in ranges()]
    lines, line = [], ""
    for w in words:
        if len(line) + len(w) + 1 > 96:
            lines.append(line)
            line = ""
        line += w + " "
    lines.append(line.rstrip())
    body = "\n".join(f'    "{x}"' for x in lines)
    return (
        '"""The characters of Unicode general category C (Cc, Cf, Cs, Co, Cn) and Zl, Zp, by Unicode\n'
        f"{VERSION}: no text of the protocol holds one. Written by scripts/hidden_chars.py; do not edit.\n"
        '"""\n\n'
        f'UNICODE_VERSION = "{VERSION}"\n\n'
        "#: Inclusive ranges of code points, hexadecimal ``FIRST-LAST`` separated by spaces, in order.\n"
        f"HIDDEN_RANGES = (\n{body}\n)\n"
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if unicodedata.unidata_version != VERSION:
        print(f"run this with a Python whose unicodedata is {VERSION} (3.11)", file=sys.stderr)
        return 2
    new = text()
    if args.write:
        OUT.write_text(new)
        return 0
    same = OUT.exists() and OUT.read_text() == new
    print("up to date" if same else f"{OUT} would change")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
