"""fairdeal's message catalogs, with Babel: extract the template, update each language's .po, compile.

    .venv/bin/python scripts/catalogs.py extract   # fairdeal/locale/fairdeal.pot from the sources
    .venv/bin/python scripts/catalogs.py update    # each .po gets the new messages (none fuzzy)
    .venv/bin/python scripts/catalogs.py compile   # each .po to its .mo (both are committed)
    .venv/bin/python scripts/catalogs.py all       # the three in turn
    .venv/bin/python scripts/catalogs.py extract FILE  # the template into FILE (a test compares)
    .venv/bin/python scripts/catalogs.py extract-game DOMAIN FILE  # a game's template into FILE
    .venv/bin/python scripts/catalogs.py game DOMAIN  # one game's catalogs: extract, update, compile

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

Each game keeps its own words as a plugin does (``fairdeal.Catalog``, docs/plugins.md): a domain
named after its package, its catalogs in ``PACKAGE/locale`` beside its module (:data:`GAMES`: the
built-in games, and Crazy Eights, the guide's example, in German).
"""

from __future__ import annotations

import ast
import inspect
import os
import sys
from dataclasses import dataclass
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
SOURCES = ("fairdeal", "cli", "core", "net")


@dataclass(frozen=True)
class GameDomain:
    """A game's own catalogs: its package folder (read for messages, ``locale`` in it)."""

    domain: str
    folder: Path
    languages: tuple[str, ...] = LANGUAGES

    @property
    def locale(self) -> Path:
        return self.folder / "locale"

    @property
    def template(self) -> Path:
        return self.locale / f"{self.domain}.pot"


GAMES = (
    GameDomain("spite_malice", REPO / "plugins" / "spite_malice"),
    GameDomain("ecarte", REPO / "plugins" / "ecarte"),
    GameDomain("snatch", REPO / "plugins" / "snatch"),
    GameDomain(
        "fairdeal_crazy_eights", REPO / "examples" / "crazy-eights" / "fairdeal_crazy_eights", ("de",)
    ),
)
#: What a message is, to the extractor: the gettext names, ``N_`` (marked), an option's help.
KEYWORDS = "--keywords=N_ Option:3"


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract(output: Path = TEMPLATE) -> None:
    pybabel(
        "extract",
        "--project=fairdeal",
        KEYWORDS,
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


def extract_game(game: GameDomain, output: Path | None = None) -> None:
    """A game's template, from its package's Python (paths in it relative to the package)."""
    here = Path.cwd()
    os.chdir(game.folder)
    try:
        pybabel(
            "extract",
            f"--project={game.domain}",
            KEYWORDS,
            "--add-location=file",
            "--sort-by-file",
            "--width=100",
            f"--output-file={output or game.template}",
            ".",
        )
    finally:
        os.chdir(here)


def extract_games() -> None:
    for game in GAMES:
        game.locale.mkdir(exist_ok=True)
        extract_game(game)


def update() -> None:
    for domain in DOMAINS:
        _update(domain, LOCALE / f"{domain}.pot", LOCALE, LANGUAGES)
    for game in GAMES:
        _update(game.domain, game.template, game.locale, game.languages)


def _update(domain: str, template: Path, locale: Path, languages: tuple[str, ...]) -> None:
    for lang in languages:
        po = locale / lang / "LC_MESSAGES" / f"{domain}.po"
        where = ["-D", domain, "-i", str(template), "-d", str(locale), "-l", lang]
        if po.exists():
            pybabel("update", "--no-fuzzy-matching", "--width=100", *where)
        else:
            pybabel("init", "--width=100", *where)


def compile_all() -> None:
    for domain in DOMAINS:
        pybabel("compile", "--statistics", "-D", domain, "-d", str(LOCALE))
    for game in GAMES:
        pybabel("compile", "--statistics", "-D", game.domain, "-d", str(game.locale))


def main(argv: list[str]) -> None:
    os.chdir(REPO)  # the template names files from the top of the repository
    if len(argv) == 2 and argv[0] == "extract":  # into another file (the tests compare it)
        extract(Path(argv[1]).resolve())
        return
    if len(argv) == 3 and argv[0] == "extract-game":  # a game's template into another file
        game = next(g for g in GAMES if g.domain == argv[1])
        extract_game(game, Path(argv[2]).resolve())
        return
    if len(argv) == 2 and argv[0] == "game":  # one game's catalogs alone: extract, update, compile
        game = next(g for g in GAMES if g.domain == argv[1])
        game.locale.mkdir(exist_ok=True)
        extract_game(game)
        _update(game.domain, game.template, game.locale, game.languages)
        pybabel("compile", "--statistics", "-D", game.domain, "-d", str(game.locale))
        return
    steps = {
        "extract": [extract, extract_click, extract_games],
        "update": [update],
        "compile": [compile_all],
        "all": [extract, extract_click, extract_games, update, compile_all],
    }
    if len(argv) != 1 or argv[0] not in steps:
        sys.exit(__doc__)
    for step in steps[argv[0]]:
        step()


if __name__ == "__main__":
    main(sys.argv[1:])
