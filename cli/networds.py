"""The words of network play that line mode and the table say alike, one sentence per event.

:func:`said` is asked first for every event by both front ends
(:class:`~fairdeal.cli.netlines.LineReport`, :class:`~fairdeal.cli.tui.netshow.NetShow`);
what else an event changes (the absences, the waiting screen, the lobby) stays with each.
"""

from __future__ import annotations

import re

from fairdeal.i18n import N_, ngettext
from fairdeal.i18n import gettext as _
from fairdeal.net import events as ev
from fairdeal.net.lobbyterms import OWN_IDENTITY

from .waiting import away_words, clock

#: Said when shown (``_(HOST_LEFT)``): marked here for the catalog.
HOST_LEFT = N_("The host left the game: it stops here (this seat can go on if the host resumes it).")
HOST_LEFT_WATCHING = N_("The host left the game: it stops here (watch again if the host goes on with it).")
#: The host's own words for a connection with its own identity (its refusal says the joiner's).
OWN_IDENTITY_HOST = N_(
    "it came with this host's own identity (a terminal of this profile: use --profile NAME)"
)
_DOOR = re.compile(r" \(door \d+\)$")


def came_from(address: str) -> str:
    """Where a connection came from, as a person reads it: ``from 192.0.2.7:5000`` or ``through
    relay tcp:relay.example:4001`` (which door of the relay it came in by says nothing to them)."""
    if address.startswith("relay "):
        return _("through {relay}").format(relay=_relay_words(_DOOR.sub("", address)))
    return _("from {address}").format(address=address)


def _relay_words(address: str) -> str:
    """``relay tcp:HOST:PORT`` (the network layer's words for an address) in the language spoken."""
    return _("relay {address}").format(address=address.removeprefix("relay "))


def refusal_words(text: str, *, watching: bool = False) -> str:
    """A refusal (or an error that carries one) as this end reads it: a watcher told to use another
    profile is told to watch with it, not to join."""
    if watching and OWN_IDENTITY in text:
        return text.replace(OWN_IDENTITY, OWN_IDENTITY.replace("join with", "watch from"))
    return text


def relay_down(relay: str, reason: str) -> str:
    """The relay cannot be used for now, and why, in one sentence (the reason may name the relay)."""
    if relay in reason:
        return f"{reason[:1].upper()}{reason[1:]}"
    return _("The relay {relay} cannot be used for now: {reason}").format(relay=relay, reason=reason)


def reaching_host(seconds: float) -> str:
    """What a resumed seat is told while it tries to reach the host."""
    return _(
        "Reaching the host: it may not be running yet (it goes on with  fairdeal resume ); "
        "trying for {clock}."
    ).format(clock=clock(seconds))


def leave_question(seat: int | None, *, watching: bool = False, told: bool = True) -> str:
    """What the person is asked before leaving, saying what leaving does for this end: a watcher
    stops watching, the host's guests keep their seats, a guest's leaving ends the game for all
    (``told``: network play tells the others; otherwise nobody is told)."""
    if watching:
        return _("Stop watching? You can watch again with the same code.")
    if not told:
        return _("Leave the game now? It stops here; the log keeps every move so far.")
    if seat == 0:
        return _(
            "Leave the game now? The others are told and keep their seats; you go on later with  "
            "fairdeal resume ."
        )
    return _("Leave the game now? It stops here for everyone, and the log names you as leaving.")


def chat_refused(watching: bool) -> str:
    """Why there is no chat at this table: a watcher only watches; a game against bots has nobody
    to read it."""
    if watching:
        return _("Watchers cannot chat: the chat is the players'")
    return _("No chat in a game against bots: nobody here would read it")


def said(event: ev.NetEvent) -> str | None:
    """The sentence for ``event``, when both front ends say the same; None otherwise."""
    match event:
        case ev.LeftLobby(joiner, reason, _):
            left = _("{name} left seat {seat} before the start ({reason}).")
            return left.format(name=joiner.name, seat=joiner.seat, reason=reason)
        case ev.Rejected(address, reason) if reason == OWN_IDENTITY:
            away = _("Turned away a connection {where}: {reason}.")
            return away.format(where=came_from(address), reason=_(OWN_IDENTITY_HOST))
        case ev.Rejected(address, reason):
            return _("Dropped a connection {where}: {reason}.").format(
                where=came_from(address), reason=reason
            )
        case ev.RejectedMany(count, reasons, seconds):
            why = _(", ").join(f"{n} {reason}" for reason, n in reasons.items())
            dropped = ngettext(
                "Dropped {n} more connection in the last {seconds} s ({why}).",
                "Dropped {n} more connections in the last {seconds} s ({why}).",
                count,
            )
            return dropped.format(n=count, seconds=f"{seconds:g}", why=why)
        case ev.RelayStatus(relay, True):
            return _("Players who cannot reach you directly come through relay {relay}.").format(relay=relay)
        case ev.ShortCode(code, _unused, first):
            if first:
                return _(
                    "Short code for the next player (one player each; they type  fairdeal join {code}): "
                    "{code}"
                ).format(code=code)
            return _("Code for the next player: {code}").format(code=code)
        case ev.ShortCodeUsed(code, True):
            return _("Short code {code} was used: its player has the invite and is on the way.").format(
                code=code
            )
        case ev.ShortCodeUsed(code, False, reason):
            return _("Short code {code} is burned ({reason}).").format(code=code, reason=reason)
        case ev.MailboxStatus(mailbox, True):
            return _("The mailbox {mailbox} answers again: short codes work.").format(mailbox=mailbox)
        case ev.MailboxStatus(mailbox, False, reason):
            if mailbox in reason:
                none = _(
                    "No short code for now: {reason}; retrying in the background. "
                    "The long code works all the same."
                )
            else:
                none = _(
                    "No short code for now: {reason} ({mailbox}); retrying in the background. "
                    "The long code works all the same."
                )
            return none.format(reason=reason, mailbox=mailbox)
        case ev.LinkFlooded(_unused, name, reason):
            return _("Dropped {name}'s connection: {reason}.").format(name=name, reason=reason)
        case ev.Announced():
            return _("Announced on the local network: players nearby can type  fairdeal join  (no code).")
        case ev.AnnounceFailed(reason):
            failed = _(
                "Could not announce the game on the local network ({reason}); the code works all the same."
            )
            return failed.format(reason=reason)
        case ev.Away(_unused, name, seconds, _until, resuming):
            return away_words(name, seconds, resuming)
        case ev.Back(_unused, name):
            return _("{name} is back: the game goes on.").format(name=name)
        case ev.HostLeft(watching):
            return _(HOST_LEFT_WATCHING) if watching else _(HOST_LEFT)
        case ev.ReachingHost(seconds):
            return reaching_host(seconds)
        case ev.HostBusy(seconds):
            busy = _("The host is busy catching up other watchers: asking again in {clock}.")
            return busy.format(clock=clock(seconds))
        case ev.WatcherCame(watchers):
            return ngettext(
                "A watcher joined ({n} watching now).",
                "A watcher joined ({n} watching now).",
                watchers,
            ).format(n=watchers)
        case ev.WatcherLeft(watchers):
            return ngettext(
                "A watcher left ({n} watching now).",
                "A watcher left ({n} watching now).",
                watchers,
            ).format(n=watchers)
        case ev.WatcherWaiting(fingerprint, address):
            waits = _("A watcher ({fingerprint}, {where}) waits for the game to start.")
            return waits.format(fingerprint=fingerprint, where=came_from(address))
        case ev.Adjourned(entries):
            return ngettext(
                "Every player agreed: the game is adjourned after {n} entry.",
                "Every player agreed: the game is adjourned after {n} entries.",
                entries,
            ).format(n=entries)
        case _:
            return None


__all__ = [
    "HOST_LEFT",
    "HOST_LEFT_WATCHING",
    "OWN_IDENTITY_HOST",
    "came_from",
    "chat_refused",
    "leave_question",
    "reaching_host",
    "refusal_words",
    "relay_down",
    "said",
]
