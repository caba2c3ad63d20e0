"""Every shipped catalog is complete: each message of the sources translated, none fuzzy, the same
placeholders as the English, and each .mo the compiled .po (scripts/catalogs.py makes them)."""

from __future__ import annotations

import io
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from fairdeal import i18n

REPO = Path(__file__).resolve().parents[2]
LOCALE = REPO / "fairdeal" / "locale"
DOMAINS = ("fairdeal", "click")  # click: its own messages, which click ships no catalogs of
LANGS = [lang for lang in i18n.LANGUAGES if lang != "en"]
#: Each game's own catalogs (fairdeal.Catalog), beside its package: (domain, folder, languages).
GAMES = [
    ("spite_malice", REPO / "plugins" / "spite_malice", LANGS),
    ("ecarte", REPO / "plugins" / "ecarte", LANGS),
    ("snatch", REPO / "plugins" / "snatch", LANGS),
    ("fairdeal_crazy_eights", REPO / "examples" / "crazy-eights" / "fairdeal_crazy_eights", ["de"]),
]
#: Every catalog shipped: (domain, its locale folder, its template, language).
SHIPPED = [(d, LOCALE, LOCALE / f"{d}.pot", lang) for d in DOMAINS for lang in LANGS] + [
    (d, folder / "locale", folder / "locale" / f"{d}.pot", lang)
    for d, folder, langs in GAMES
    for lang in langs
]


def _catalog(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _po(domain: str, lang: str, locale: Path = LOCALE) -> Path:
    return locale / lang / "LC_MESSAGES" / f"{domain}.po"


def _ids(cat: Catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in cat if m.id}


def placeholders(text: str) -> set[str]:
    """The names of a message's ``{placeholders}``."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _problems(message: Message) -> list[str]:
    ids = [message.id] if isinstance(message.id, str) else list(message.id)
    strings = [message.string] if isinstance(message.string, str) else list(message.string)
    wanted = set().union(*(placeholders(i) for i in ids))
    out = []
    if message.fuzzy:
        out.append("fuzzy")
    if not all(strings):
        out.append("not translated")
    for s in strings:
        if s and placeholders(s) - wanted:
            out.append(f"placeholders {sorted(placeholders(s))} are not the English {sorted(wanted)}")
    if len(strings) == 1 and strings[0] and placeholders(strings[0]) != wanted:
        out.append(f"placeholders {sorted(placeholders(strings[0]))} are not the English {sorted(wanted)}")
    return out


@pytest.mark.parametrize(("domain", "locale", "pot", "lang"), SHIPPED)
def test_every_message_is_translated_with_the_english_placeholders(
    domain: str, locale: Path, pot: Path, lang: str
) -> None:
    template = _ids(_catalog(pot))
    cat = _catalog(_po(domain, lang, locale), lang)
    assert not cat.fuzzy, "the catalog's header is fuzzy"
    assert _ids(cat) >= template, f"not in the {lang} catalog: {sorted(template - _ids(cat))}"
    problems = {m.id: p for m in cat if m.id and (p := _problems(m))}
    assert not problems, problems


@pytest.mark.parametrize(("domain", "locale", "pot", "lang"), SHIPPED)
def test_each_mo_is_its_po_compiled(domain: str, locale: Path, pot: Path, lang: str) -> None:
    out = io.BytesIO()
    write_mo(out, _catalog(_po(domain, lang, locale), lang))
    assert (locale / lang / "LC_MESSAGES" / f"{domain}.mo").read_bytes() == out.getvalue(), (
        "run: .venv/bin/python scripts/catalogs.py compile"
    )


def test_the_template_holds_every_message_of_the_sources(tmp_path: Path) -> None:
    """A message the sources say and the template lacks would never be translated."""
    out = tmp_path / "fresh.pot"
    subprocess.run([sys.executable, str(REPO / "scripts" / "catalogs.py"), "extract", str(out)], check=True)
    fresh = _ids(_catalog(out))
    committed = _ids(_catalog(LOCALE / "fairdeal.pot"))
    assert fresh == committed, (
        f"new: {sorted(fresh - committed)}; gone: {sorted(committed - fresh)} "
        "(run: .venv/bin/python scripts/catalogs.py all, then translate)"
    )


@pytest.mark.parametrize(("domain", "folder"), [(d, f) for d, f, _langs in GAMES])
def test_a_games_template_holds_every_message_of_its_package(
    tmp_path: Path, domain: str, folder: Path
) -> None:
    out = tmp_path / "fresh.pot"
    script = str(REPO / "scripts" / "catalogs.py")
    subprocess.run([sys.executable, script, "extract-game", domain, str(out)], check=True)
    fresh = _ids(_catalog(out))
    committed = _ids(_catalog(folder / "locale" / f"{domain}.pot"))
    assert fresh == committed, f"new: {sorted(fresh - committed)}; gone: {sorted(committed - fresh)}"
    assert fresh, f"{domain} says nothing through its catalog"


def test_a_fuzzy_or_untranslated_entry_is_refused() -> None:
    """The checks above do fail: on a fuzzy entry, a missing translation, other placeholders."""
    assert _problems(Message("{name} wins", "{name} gewinnt")) == []
    assert _problems(Message("{name} wins", "{name} gewinnt", flags=["fuzzy"])) == ["fuzzy"]
    assert _problems(Message("{name} wins", "")) == ["not translated"]
    assert _problems(Message("{name} wins", "{nom} gewinnt"))
    assert _problems(Message(("{n} card", "{n} cards"), ("{n} Karte", "")))
