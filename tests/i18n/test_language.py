"""The language chosen as gettext chooses it, overridden by FAIRDEAL_LANG and --lang; messages and
plural forms from the catalogs; English when nothing else is asked or a language has no catalog."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairdeal import i18n
from fairdeal.cli.main import cli


@pytest.fixture(autouse=True)
def restore_language() -> Iterator[None]:
    yield
    i18n.use("en")


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "el_GR.UTF-8"}, "el"),
        ({"LANG": "ru_RU.UTF-8", "LC_ALL": "fa_IR.UTF-8", "LC_MESSAGES": "el_GR"}, "fa"),
        ({"LANG": "de_DE.UTF-8", "LANGUAGE": "fr:ru:de"}, "ru"),  # the first with a catalog
        ({"LANGUAGE": "fr:C:de"}, "en"),  # C stops the search, as in gettext
        ({"LANG": "pt_BR.UTF-8"}, "en"),  # no catalog: English
        ({"LANG": "de_AT@euro", "LANGUAGE": ""}, "de"),  # an empty variable is not set
        ({"LANG": "de_DE.UTF-8", "FAIRDEAL_LANG": "fa"}, "fa"),
        ({"LANGUAGE": "ru", "FAIRDEAL_LANG": "xx"}, "en"),  # asked for, and it has no catalog
        ({"FAIRDEAL_LANG": "el-GR"}, "el"),
    ],
)
def test_the_language_chosen_from_the_environment(env: dict[str, str], lang: str) -> None:
    assert i18n.choose(None, env) == lang


def test_lang_overrides_fairdeal_lang_and_the_system() -> None:
    env = {"LANG": "de_DE.UTF-8", "FAIRDEAL_LANG": "fa"}
    assert i18n.choose("ru", env) == "ru"
    assert i18n.choose("zz", env) == "en"


def test_messages_and_plural_forms_come_from_the_catalog() -> None:
    one, many = "{n} entry read.", "{n} entries read."
    i18n.use("ru")
    assert [i18n.ngettext(one, many, n).format(n=n) for n in (1, 3, 5, 21)] == [
        "Прочитана 1 запись.",
        "Прочитаны 3 записи.",
        "Прочитано 5 записей.",
        "Прочитана 21 запись.",
    ]
    assert i18n.gettext("End") == "Конец"
    assert i18n.gettext("a sentence no catalog has") == "a sentence no catalog has"
    assert i18n.gettext("") == ""
    i18n.use("de")
    assert i18n.ngettext(one, many, 1).format(n=1) == "1 Eintrag gelesen."
    assert i18n.use("xx") == "en" and i18n.gettext("End") == "End"


def test_persian_is_written_right_to_left() -> None:
    assert i18n.right_to_left("fa")
    assert not any(i18n.right_to_left(lang) for lang in ("en", "de", "ru", "el"))


def _run(*args: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_lang_on_the_group_and_on_a_command(tmp_path: Path) -> None:
    assert "Optionen (--option name=wert):" in _run("--lang", "de", "rules", "ecarte")
    assert "Параметры (--option имя=значение):" in _run("rules", "ecarte", "--lang", "ru")
    assert "Options (--option name=value):" in _run("rules", "ecarte")  # nothing stays of a run
    assert "گزینه‌ها" in _run("rules", "ecarte", env={"FAIRDEAL_LANG": "fa"})
    assert "Options (--option" in _run("--lang", "en", "rules", "ecarte", env={"FAIRDEAL_LANG": "fa"})
    assert "Speak LANG" in _run("--help")


def test_click_says_its_own_words_in_the_language_spoken() -> None:
    """click ships no catalogs: fairdeal's click domain translates usage, help and errors."""
    assert "Использование: cli [OPTIONS]" in _run("--lang", "ru", "--help")
    assert "Показать эту справку и выйти." in _run("--lang", "ru", "--help")
    assert "Показать эту справку и выйти." in _run("rules", "--help", "--lang", "ru")
    assert "Diese Hilfe zeigen und beenden." in _run("rules", "--help", env={"FAIRDEAL_LANG": "de"})
    assert "کاربرد: cli" in _run("--help", env={"FAIRDEAL_LANG": "fa"})
    assert "Usage: cli" in _run("--help")
    wrong = CliRunner().invoke(cli, ["--lang", "de", "rulez"])
    assert wrong.exit_code == 2
    assert "Fehler: Kein solcher Befehl: 'rulez'. Meintest du 'rules'?" in wrong.output
    el = CliRunner().invoke(cli, ["--lang", "el", "replay"])
    assert "Σφάλμα: Λείπει όρισμα 'LOG'." in el.output


def test_line_mode_reads_a_card_typed_in_the_language_spoken() -> None:
    from fairdeal.cli.interpreting import interpret

    moves = ["play Q♥ onto centre 1", "play 8♣ onto centre 1", "draw"]
    i18n.use("ru")
    assert interpret("дч", moves).index == 0  # дама червей
    assert interpret("8с", moves).index == 1  # a Cyrillic с: the C key of a Russian keyboard
    i18n.use("de")
    assert interpret("Dh", moves).index == 0 and interpret("8kr", moves).index == 1
    i18n.use("en")
    assert interpret("дч", moves).kind == "error" and interpret("qh", moves).index == 0
