"""fairdeal's message catalogs, with Babel: extract the template, update each language's .po, compile.

    .venv/bin/python scripts/catalogs.py extract   # fairdeal/locale/fairdeal.pot from the sources
    .venv/bin/python scripts/catalogs.py update    # each .po gets the new messages (none fuzzy)
    .venv/bin/python scripts/catalogs.py compile   # each .po to its .mo (both are committed)
    .venv/bin/python scripts/catalogs.py all       # the three in turn
    .venv/bin/python scripts/catalogs.py extract FILE  # the template into FILE (a test compares)

Messages are what the sources pass to ``_``/``gettext``, ``ngettext`` (singular and plural),
``pgettext`` (with its context), ``N_`` (marked here, translated where shown), the help of a game
option (``Option``'s third argument) and the docstring of every click command of ``cli/`` (its
help, as click cleans it: ``cli/helptext.py`` says it through the catalog). Translate the new
entries of each ``fairdeal/locale/LANG/LC_MESSAGES/fairdeal.po``, then compile:
tests/i18n/test_catalogs.py fails on a message without a translation, a fuzzy one, placeholders
that differ from the English, or a .mo that is not its .po compiled.

A second domain, ``click``, holds click's own messages (usage, help, errors), which click ships
no translations of: ``extract`` reads them from the installed click (``click.pot``), and
fairdeal.i18n hands click the translations in the language spoken.
"""

from __future__ import annotations

import ast
import inspect
import os
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface

REPO = Path(__file__).resolve().parents[1]
LOCALE = REPO / "fairdeal" / "locale"
DOMAIN = "fairdeal"
#: fairdeal's messages, and click's (translated here: click ships none).
DOMAINS = (DOMAIN, "click")
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
    add_command_help(output)


def command_docstrings(folder: Path = REPO / "cli") -> list[tuple[str, str, int]]:
    """(help, file, line) of every function of ``folder`` decorated as a click command or group."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            calls = [d.func for d in node.decorator_list if isinstance(d, ast.Call)]
            if any(isinstance(f, ast.Attribute) and f.attr in ("command", "group") for f in calls):
                doc = ast.get_docstring(node, clean=False)
                if doc:
                    found.append((inspect.cleandoc(doc), path.relative_to(REPO).as_posix(), node.lineno))
    return found


def add_command_help(template: Path) -> None:
    """Add the commands' help (their docstrings, as click cleans them) to ``template``."""
    from babel.messages.pofile import read_po, write_po

    with template.open("rb") as f:
        catalog = read_po(f)
    for text, file, _line in command_docstrings():
        catalog.add(text, locations=[(file, None)])
    with template.open("wb") as f:
        write_po(f, catalog, width=100, sort_by_file=True, include_lineno=False)


def extract_click(output: Path = LOCALE / "click.pot") -> None:
    from importlib import metadata, util

    spec = util.find_spec("click")
    assert spec is not None and spec.origin is not None
    pybabel(
        "extract",
        "--project=click",
        f"--version={metadata.version('click')}",
        "--add-location=never",
        "--width=100",
        f"--output-file={output}",
        str(Path(spec.origin).parent),
    )


def update() -> None:
    for domain in DOMAINS:
        _update(domain)


def _update(domain: str) -> None:
    template = LOCALE / f"{domain}.pot"
    for lang in LANGUAGES:
        po = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
        where = ["-D", domain, "-i", str(template), "-d", str(LOCALE), "-l", lang]
        if po.exists():
            pybabel("update", "--no-fuzzy-matching", "--width=100", *where)
        else:
            pybabel("init", "--width=100", *where)


def compile_all() -> None:
    for domain in DOMAINS:
        pybabel("compile", "--statistics", "-D", domain, "-d", str(LOCALE))


def main(argv: list[str]) -> None:
    os.chdir(REPO)  # the template names files from the top of the repository
    if len(argv) == 2 and argv[0] == "extract":  # into another file (the tests compare it)
        extract(Path(argv[1]).resolve())
        return
    steps = {
        "extract": [extract, extract_click],
        "update": [update],
        "compile": [compile_all],
        "all": [extract, extract_click, update, compile_all],
    }
    if len(argv) != 1 or argv[0] not in steps:
        sys.exit(__doc__)
    for step in steps[argv[0]]:
        step()


if __name__ == "__main__":
    main(sys.argv[1:])
