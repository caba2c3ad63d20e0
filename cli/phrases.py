"""Small pieces of sentences that many of the command line's and the table's sentences share, in
the language spoken: the reader as a seat ("You", "you"), a list of names ("Ann, Bob and Carol"), a
typed yes, and where a card lies ("Your payoff", "Bob's payoff")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fairdeal.i18n import gettext as _
from fairdeal.i18n import language, pgettext

if TYPE_CHECKING:
    from fairdeal.core.session.session import Session


def you() -> str:
    """The reader's own seat where a sentence or a line begins: ``You``."""
    return _("You")


def you_within() -> str:
    """The reader's own seat inside a sentence: ``won by you``."""
    return _("you")


def and_list(items: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Carol``."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    head = _(", ").join(items[:-1])
    return _("{first} and {last}").format(first=head, last=items[-1])


def yes_key() -> str:
    """The key that answers yes at the table besides ``y``: the language's (German ``j``)."""
    return pgettext("key that answers yes", "y")


def no_key() -> str:
    """The key that answers no at the table besides ``n``: the language's (Russian ``н``)."""
    return pgettext("key that answers no", "n")


def is_yes(answer: str) -> bool:
    """Whether a typed answer says yes: ``y``, ``yes``, or the language's own words (``j``, ``ja``)."""
    said = answer.strip().lower()
    words = {"y", "yes", yes_key().lower(), *pgettext("typed answer", "y yes").lower().split()}
    return bool(said) and said in words


def is_no(answer: str) -> bool:
    """Whether a typed answer says no: ``n``, ``no``, or the language's own words."""
    said = answer.strip().lower()
    words = {"n", "no", no_key().lower(), *pgettext("typed answer", "n no").lower().split()}
    return bool(said) and said in words


def pile_name(label: str, owner: int | None, viewer: int | None, name: str) -> str:
    """Where a card lies, in words: a pile of the middle by its label (``Turn-up``), one's own
    (``Your payoff``), another seat's (``Bob's payoff``; ``name`` is that seat's)."""
    if owner is None:
        return label
    pile = label if language() == "de" else label.lower()  # German nouns keep their capital
    if owner == viewer:
        return _("Your {pile}").format(pile=pile)
    return _("{name}'s {pile}").format(name=name, pile=pile)


def resign_question(session: Session) -> str:
    """What resigning does, asked before ``session``'s seat does it. A resignation ends the game
    for every seat (the protocol's ``resign``); only one other seat still in the game wins by it,
    so with more the question says nobody will."""
    if session.header.players - len(session.departed) - 1 >= 2:
        return _("Resign this game? It ends the game for everyone, with no winner; the log records it.")
    return _("Resign this game? The log records it.")


def turned_up() -> str:
    """Where a card lies that no pile of the table shows."""
    return _("Turned up")


__all__ = [
    "and_list",
    "is_no",
    "is_yes",
    "no_key",
    "pile_name",
    "resign_question",
    "turned_up",
    "yes_key",
    "you",
    "you_within",
]
