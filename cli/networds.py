"""The words of network play that line mode and the table say alike, one sentence per event.

:func:`said` is asked first for every event by both front ends
(:class:`~fairdeal.cli.netlines.LineReport`, :class:`~fairdeal.cli.tui.netshow.NetShow`);
what else an event changes (the absences, the waiting screen, the lobby) stays with each.
"""

from __future__ import annotations

import re

from fairdeal.net import events as ev
from fairdeal.net.lobbyterms import OWN_IDENTITY

from .waiting import away_words, clock

HOST_LEFT = "The host left the game: it stops here (this seat can go on if the host resumes it)."
HOST_LEFT_WATCHING = "The host left the game: it stops here (watch again if the host goes on with it)."
#: The host's own words for a connection with its own identity (its refusal says the joiner's).
OWN_IDENTITY_HOST = "it came with this host's own identity (a terminal of this profile: use --profile NAME)"
_DOOR = re.compile(r" \(door \d+\)$")


def came_from(address: str) -> str:
    """Where a connection came from, as a person reads it: ``from 192.0.2.7:5000`` or ``through
    relay tcp:relay.example:4001`` (which door of the relay it came in by says nothing to them)."""
    if address.startswith("relay "):
        return f"through {_DOOR.sub('', address)}"
    return f"from {address}"


def refusal_words(text: str, *, watching: bool = False) -> str:
    """A refusal (or an error that carries one) as this end reads it: a watcher told to use another
    profile is told to watch with it, not to join."""
    if watching and OWN_IDENTITY in text:
        return text.replace(OWN_IDENTITY, OWN_IDENTITY.replace("join with", "watch from"))
    return text


def relay_down(relay: str, reason: str) -> str:
    """The relay cannot be used for now, and why, in one sentence (the reason may name the relay)."""
    told = reason if relay in reason else f"the relay {relay} cannot be used for now: {reason}"
    return f"{told[:1].upper()}{told[1:]}"


def reaching_host(seconds: float) -> str:
    """What a resumed seat is told while it tries to reach the host."""
    return (
        f"Reaching the host: it may not be running yet (it goes on with  fairdeal resume ); "
        f"trying for {clock(seconds)}."
    )


def leave_question(seat: int | None, *, watching: bool = False, told: bool = True) -> str:
    """What the person is asked before leaving, saying what leaving does for this end: a watcher
    stops watching, the host's guests keep their seats, a guest's leaving ends the game for all
    (``told``: network play tells the others; otherwise nobody is told)."""
    if watching:
        return "Stop watching? You can watch again with the same code."
    if not told:
        return "Leave the game now? It stops here; the log keeps every move so far."
    if seat == 0:
        return (
            "Leave the game now? The others are told and keep their seats; you go on later with  "
            "fairdeal resume ."
        )
    return "Leave the game now? It stops here for everyone, and the log names you as leaving."


def chat_refused(watching: bool) -> str:
    """Why there is no chat at this table: a watcher only watches; a game against bots has nobody
    to read it."""
    if watching:
        return "Watchers cannot chat: the chat is the players'"
    return "No chat in a game against bots: nobody here would read it"


def said(event: ev.NetEvent) -> str | None:
    """The sentence for ``event``, when both front ends say the same; None otherwise."""
    match event:
        case ev.LeftLobby(joiner, reason, _):
            return f"{joiner.name} left seat {joiner.seat} before the start ({reason})."
        case ev.Rejected(address, reason) if reason == OWN_IDENTITY:
            return f"Turned away a connection {came_from(address)}: {OWN_IDENTITY_HOST}."
        case ev.Rejected(address, reason):
            return f"Dropped a connection {came_from(address)}: {reason}."
        case ev.RejectedMany(count, reasons, seconds):
            why = ", ".join(f"{n} {reason}" for reason, n in reasons.items())
            return f"Dropped {count} more connections in the last {seconds:g} s ({why})."
        case ev.RelayStatus(relay, True):
            return f"Players who cannot reach you directly come through relay {relay}."
        case ev.ShortCode(code, _, first):
            return (
                f"Short code for the next player (one player each; they type  fairdeal join {code}): {code}"
                if first
                else f"Code for the next player: {code}"
            )
        case ev.ShortCodeUsed(code, True):
            return f"Short code {code} was used: its player has the invite and is on the way."
        case ev.ShortCodeUsed(code, False, reason):
            return f"Short code {code} is burned ({reason})."
        case ev.MailboxStatus(mailbox, True):
            return f"The mailbox {mailbox} answers again: short codes work."
        case ev.MailboxStatus(mailbox, False, reason):
            where = "" if mailbox in reason else f" ({mailbox})"
            return (
                f"No short code for now: {reason}{where}; retrying in the background. "
                "The long code works all the same."
            )
        case ev.LinkFlooded(_, name, reason):
            return f"Dropped {name}'s connection: {reason}."
        case ev.Announced():
            return "Announced on the local network: players nearby can type  fairdeal join  (no code)."
        case ev.AnnounceFailed(reason):
            return (
                f"Could not announce the game on the local network ({reason}); the code works all the same."
            )
        case ev.Away(_, name, seconds, _, resuming):
            return away_words(name, seconds, resuming)
        case ev.Back(_, name):
            return f"{name} is back: the game goes on."
        case ev.HostLeft(watching):
            return HOST_LEFT_WATCHING if watching else HOST_LEFT
        case ev.ReachingHost(seconds):
            return reaching_host(seconds)
        case ev.HostBusy(seconds):
            return f"The host is busy catching up other watchers: asking again in {clock(seconds)}."
        case ev.WatcherCame(watchers):
            return f"A watcher joined ({watchers} watching now)."
        case ev.WatcherLeft(watchers):
            return f"A watcher left ({watchers} watching now)."
        case ev.WatcherWaiting(fingerprint, address):
            return f"A watcher ({fingerprint}, {came_from(address)}) waits for the game to start."
        case ev.Adjourned(entries):
            return f"Every player agreed: the game is adjourned after {entries} entries."
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
