"""Command help in every language: the group's and each command's help, their options' help and the
list of commands are said in the language spoken, and the list says each command's own first
sentence (``fairdeal --help`` does not import the commands to list them)."""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner

from fairdeal import i18n
from fairdeal.cli.helptext import translated
from fairdeal.cli.main import LAZY_COMMANDS, cli

LANGS = [lang for lang in i18n.LANGUAGES if lang != "en"]


@pytest.fixture(autouse=True)
def restore_language() -> Iterator[None]:
    yield
    i18n.use("en")


def _first(help: str) -> str:
    return " ".join(help.split("\n\n")[0].split())


@pytest.mark.parametrize("lang", LANGS)
def test_the_list_of_commands_says_each_commands_own_first_sentence(lang: str) -> None:
    ctx = click.Context(cli)
    for name, (_module, first) in LAZY_COMMANDS.items():
        command = cli.get_command(ctx, name)
        assert command is not None and command.help is not None
        i18n.use(lang)
        said = translated(command.help)
        assert said != command.help, f"{name}'s help is not translated into {lang}"
        assert _first(said) == i18n.gettext(first), (lang, name)
        i18n.use("en")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "command", ["", "play", "host", "join", "watch", "resume", "verify", "replay", "rules"]
)
def test_every_help_is_said_in_the_language(lang: str, command: str) -> None:
    args = [command] if command else []
    english = CliRunner().invoke(cli, [*args, "--lang", "en", "--help"]).output
    said = CliRunner().invoke(cli, [*args, "--lang", lang, "--help"]).output
    assert said != english
    help_lines = [line for line in english.splitlines() if line.startswith("  --")]
    for line in help_lines:  # no option's help is left in English
        words = line.split(None, 2)[-1]
        if len(words) > 12 and not words.startswith(("fairdeal", "tcp:")):
            assert words not in said, (lang, command, words)
