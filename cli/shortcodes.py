"""Short codes at the command line: ``--mailbox``, reading either kind of code, ``--code-file``.

``fairdeal join`` and ``fairdeal watch`` take a long code (``fd1:...``) or a short one
(``7-brave-otter``): :func:`read_code` turns either into the invite, asking the mailbox for a short
one (:func:`fairdeal.net.rendezvous.fetch_invite`). ``fairdeal host`` keeps a short code open for the
next player at the mailbox (:class:`CodeFile` writes each one to ``--code-file``).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Final

import click
import trio

from fairdeal.core.errors import ConfigError, FairdealError
from fairdeal.i18n import N_
from fairdeal.i18n import gettext as _
from fairdeal.net.invite import Invite, decode_invite
from fairdeal.net.mailbox import check_url
from fairdeal.net.rendezvous import fetch_invite
from fairdeal.net.shortcode import PUBLIC_MAILBOX, looks_short, parse_short_code

from .netlines import write_atomically
from .netseat import with_hint

MAILBOX_ENV: Final = "FAIRDEAL_MAILBOX"
"""The mailbox of short codes without --mailbox: a ws:// or wss:// URL, or ``none``."""
_OFF: Final = ("none", "off", "no")

_MAILBOX_HELP = N_(
    "The mailbox server of short codes (default: the public one magic-wormhole uses, "
    "ws://relay.magic-wormhole.io:4000/v1; FAIRDEAL_MAILBOX sets another); none: no short codes."
)
assert PUBLIC_MAILBOX in _MAILBOX_HELP, "the help names the public mailbox"
mailbox_option = click.option(
    "--mailbox",
    "mailbox_text",
    default=None,
    metavar="URL",
    help=_MAILBOX_HELP,
)


def mailbox_url(text: str | None) -> str | None:
    """The mailbox to use: ``--mailbox``'s, else ``FAIRDEAL_MAILBOX``'s, else the public one; None
    for ``none``. ConfigError for a URL that is not ``ws://`` or ``wss://``."""
    where = "--mailbox" if text is not None else MAILBOX_ENV
    value = (text if text is not None else os.environ.get(MAILBOX_ENV, "")).strip()
    if not value:
        return PUBLIC_MAILBOX
    if value.lower() in _OFF:
        return None
    try:
        return check_url(value)
    except ValueError:
        raise ConfigError(
            _("{where} {value} is not a ws:// or wss:// URL, nor none").format(where=where, value=repr(value))
        ) from None


def read_code(code: str, mailbox: str | None, say: Callable[[str], None]) -> Invite:
    """The invite of ``code``: decoded when it is a long code, asked of ``mailbox`` when it is a short
    one (which spends it). Errors are one line with a hint."""
    try:
        if not looks_short(code):
            return decode_invite(code)
        short = parse_short_code(code)
        if mailbox is None:
            raise ConfigError(
                _(
                    "a short code needs a mailbox, and this one is off "
                    "(--mailbox none or FAIRDEAL_MAILBOX=none)"
                )
            )
        say(_("Asking the mailbox {mailbox} for the game of the short code ...").format(mailbox=mailbox))
        return trio.run(fetch_invite, short, mailbox)
    except FairdealError as exc:
        raise with_hint(exc) from None


class CodeFile:
    """``host --code-file``: each short code, as it opens, written to ``path`` (mode 0600, in one
    step); ``opened`` lists them all (``--json``'s ``short_codes``)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.opened: list[str] = []
        if path is not None:
            try:
                write_atomically(path, "")  # can it be written? Said now, not after the start
            except OSError as exc:
                why = _("cannot write --code-file {path}: {reason}").format(
                    path=path, reason=exc.strerror or exc
                )
                raise ConfigError(why) from None

    def __call__(self, code: str) -> None:
        self.opened.append(code)
        if self.path is not None:
            # It could be written at the start; should it fail now, the screen shows the code.
            with contextlib.suppress(OSError):
                write_atomically(self.path, code + "\n")


__all__ = ["MAILBOX_ENV", "CodeFile", "mailbox_option", "mailbox_url", "read_code"]
