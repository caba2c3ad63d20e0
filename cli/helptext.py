"""Command help in the language spoken: click reads a command's docstring and its options' help
once, at import, in English; :class:`Translated` says them through the catalog each time help is
shown (the docstrings are in the catalog as ``scripts/catalogs.py`` extracts them, the options'
help is marked ``N_``)."""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click

from fairdeal.i18n import click_gettext
from fairdeal.i18n import gettext as _


def translated(help: str) -> str:
    """A command's or an option's help in the language spoken: fairdeal's catalog (the docstring as
    click cleans it), else click's own (``--version``'s help, made when click was imported)."""
    text = inspect.cleandoc(help)
    said = _(text)
    return said if said != text else click_gettext(text)


@contextmanager
def said(items: Sequence[Any]) -> Iterator[None]:
    """Within it, the ``help`` of each of ``items`` (commands, options) is in the language spoken."""
    kept = [item.help for item in items]
    try:
        for item in items:
            if item.help:
                item.help = translated(item.help)
        yield
    finally:
        for item, help in zip(items, kept, strict=True):
            item.help = help


class Translated(click.Command):
    """A command whose help, short help and options' help are said in the language spoken."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with said([self]):
            super().format_help_text(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        with said([self]):
            return super().get_short_help_str(limit)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with said([p for p in self.get_params(ctx) if isinstance(p, click.Option)]):
            super().format_options(ctx, formatter)


__all__ = ["Translated", "said", "translated"]
