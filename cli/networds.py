"""The words of network play that line mode and the table say alike, one sentence per event.

:func:`said` is asked first for every event by both front ends
(:class:`~fairdeal.cli.netlines.LineReport`, :class:`~fairdeal.cli.tui.netshow.NetShow`);
what else an event changes (the absences, the waiting screen, the lobby) stays with each.
"""

from __future__ import annotations

from fairdeal.net import events as ev

from .waiting import away_words

HOST_LEFT = "The host left the game: it stops here (this seat can go on if the host resumes it)."


def said(event: ev.NetEvent) -> str | None:
    """The sentence for ``event``, when both front ends say the same; None otherwise."""
    match event:
        case ev.LeftLobby(joiner, reason, _):
            return f"{joiner.name} left seat {joiner.seat} before the start ({reason})."
        case ev.Rejected(address, reason):
            return f"Dropped a connection from {address}: {reason}."
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
        case ev.HostLeft():
            return HOST_LEFT
        case ev.WatcherCame(watchers):
            return f"A watcher joined ({watchers} watching now)."
        case ev.WatcherLeft(watchers):
            return f"A watcher left ({watchers} watching now)."
        case ev.WatcherWaiting(fingerprint, address):
            return f"A watcher ({fingerprint}, from {address}) waits for the game to start."
        case ev.Adjourned(entries):
            return f"Every player agreed: the game is adjourned after {entries} entries."
        case _:
            return None


__all__ = ["HOST_LEFT", "said"]
