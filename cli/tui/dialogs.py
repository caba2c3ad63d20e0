"""The questions the table asks before it acts: to adjourn, on another player's proposal, to leave.

Each pushes a :class:`~.screens.ConfirmScreen` on the app with what its answer does: the app's key
actions ask them (F3, Ctrl-Q), and so does a vote of another player (:class:`Proposal`, asked once
however many votes come while it is up).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App

from fairdeal.i18n import gettext as _

from ..adjourning import Adjourning
from ..phrases import and_list, resign_question
from .player import TablePlayer
from .screens import ConfirmScreen


class Proposal(ConfirmScreen):
    """Another player proposed to adjourn: does this one agree?"""


def ask_to_adjourn(app: App[Any], adjourning: Adjourning, vote: Callable[[bool], object]) -> None:
    """F3: propose, or agree to, adjourning (every player must agree); a yes votes ``vote(True)``."""

    def answered(yes: bool | None) -> None:
        if yes:
            vote(True)

    if adjourning.asking:
        question = _("Agree to adjourn? The game stops now; everyone goes on later with  fairdeal resume .")
    else:
        question = _(
            "Propose to adjourn? If every player agrees, the game stops now and everyone goes on "
            "later with  fairdeal resume ."
        )
    app.push_screen(ConfirmScreen(question), answered)


def ask_on_a_proposal(app: App[Any], adjourning: Adjourning, vote: Callable[[bool], object]) -> None:
    """Another player proposed to adjourn: ask this one (unless it is asked already) and vote the answer."""
    if not adjourning.asking or any(isinstance(s, Proposal) for s in app.screen_stack):
        return
    who = and_list(adjourning.agreed)

    def answered(yes: bool | None) -> None:
        vote(bool(yes))

    question = _("{who} proposed to adjourn: stop now and go on later with  fairdeal resume ?").format(
        who=who
    )
    app.push_screen(Proposal(question), answered)


def ask_to_leave(
    app: App[Any],
    player: TablePlayer | None,
    leave: Callable[[], object],
    question: str | None = None,
) -> None:
    """Ctrl-Q: on this player's turn resign (the log records it), else leave, once the person says
    yes to ``question`` (what leaving does here); which of the two is decided when they answer."""

    def answered(yes: bool | None) -> None:
        if not yes:
            return
        if player is not None and player.deciding:
            player.resign()
        else:
            leave()

    if player is not None and player.deciding and player.session is not None:
        app.push_screen(ConfirmScreen(resign_question(player.session)), answered)
    else:
        said = question or _("Leave the game now? It stops here; the log keeps every move so far.")
        app.push_screen(ConfirmScreen(said), answered)


__all__ = ["Proposal", "ask_on_a_proposal", "ask_to_adjourn", "ask_to_leave"]
