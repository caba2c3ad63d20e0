"""fairdeal's message catalogs, with Babel: extract the template, update each language's .po, compile.

    .venv/bin/python scripts/catalogs.py extract   # fairdeal/locale/fairdeal.pot from the sources
    .venv/bin/python scripts/catalogs.py update    # each .po gets the new messages (none fuzzy)
    .venv/bin/python scripts/catalogs.py compile   # each .po to its .mo (both are committed)
    .venv/bin/python scripts/catalogs.py all       # the three in turn
    .venv/bin/python scripts/catalogs.py extract FILE  # the template into FILE (a test compares)

Messages are what the sources pass to ``_``/``gettext``, ``ngettext`` (singular and plural),
``N_`` (marked here, translated where shown) and the help of a game option (``Option``'s third
argument). Translate the new entries of each ``fairdeal/locale/LANG/LC_MESSAGES/fairdeal.po``,
then compile: tests/i18n/test_catalogs.py fails on a message without a translation, a fuzzy one,
placeholders that differ from the English, or a .mo that is not its .po compiled.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

REPO = Path(__file__).resolve().parents[1]
LOCALE = REPO / "fairdeal" / "locale"
DOMAIN = "fairdeal"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
LANGUAGES = ("de", "ru", "el", "fa")
#: The folders whose Python is read (fairdeal/ itself is not descended into its links to the others).
SOURCES = ("fairdeal", "cli", "core", "net", "plugins")


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract(output: Path = TEMPLATE) -> None:
    pybabel(
        "extract",
        "--project=fairdeal",
        "--keywords=N_ Option:3",
        "--add-location=file",
        "--sort-by-file",
        "--width=100",
        f"--output-file={output}",
        *SOURCES,
    )


def update() -> None:
    for lang in LANGUAGES:
        po = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        if po.exists():
            pybabel(
                "update",
                "--no-fuzzy-matching",
                "--width=100",
                "-D",
                DOMAIN,
                "-i",
                str(TEMPLATE),
                "-d",
                str(LOCALE),
                "-l",
                lang,
            )
        else:
            pybabel("init", "--width=100", "-D", DOMAIN, "-i", str(TEMPLATE), "-d", str(LOCALE), "-l", lang)


def compile_all() -> None:
    pybabel("compile", "--statistics", "-D", DOMAIN, "-d", str(LOCALE))


def main(argv: list[str]) -> None:
    os.chdir(REPO)  # the template names files from the top of the repository
    if len(argv) == 2 and argv[0] == "extract":  # into another file (the tests compare it)
        extract(Path(argv[1]).resolve())
        return
    steps = {
        "extract": [extract],
        "update": [update],
        "compile": [compile_all],
        "all": [extract, update, compile_all],
    }
    if len(argv) != 1 or argv[0] not in steps:
        sys.exit(__doc__)
    for step in steps[argv[0]]:
        step()


if __name__ == "__main__":
    main(sys.argv[1:])
