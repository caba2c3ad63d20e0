"""The exchanges of short codes over a mailbox: the host hands one joiner the long invite code.

:func:`keep_short_codes` is the host's side: one short code open at a time (a nameplate the
mailbox allocated, two random words); when a joiner claims it (its SPAKE2 message comes), the
next code is opened at once and the exchange is finished beside it: a sealed confirmation each
way, then, only to a joiner whose confirmation opened, the sealed invite. A confirmation that does
not open is a wrong guess: the code is burned, nobody got anything. Every code is released and
its mailbox closed when it is done or when the keeper is cancelled (the table is full, the game
ended). A mailbox that cannot be used is reported once and tried again with back-off.

:func:`fetch_invite` is the joiner's side: claim the nameplate, open its mailbox, send its SPAKE2
message and wait until the mailbox has delivered what it held (a ``ping``): no host's message
there means nobody holds this code (wrong, used, or the host stopped), said at once; otherwise
the confirmations, then the invite, each within :data:`ANSWER_WAIT`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import trio

from .events import MailboxStatus, Report, ShortCode, ShortCodeUsed
from .invite import Invite, InviteError, decode_invite
from .mailbox import Mailbox, MailboxError, Mood, open_mailbox
from .shortcode import APP_ID, CONFIRM, WRONG, Pake, WrongCode, new_code, seal, unseal
from .shortcode import ShortCode as Code

ANSWER_WAIT: Final = 30.0
"""Seconds either end waits for the other's next message once a code is claimed."""
RETRY: Final = (0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0)
"""Pauses before the host opens a code again after the mailbox failed (the last repeats)."""
NOBODY: Final = (
    f"{WRONG}: nobody holds it at the mailbox (each short code is for one player, once; "
    "the host shows a fresh one for the next player)"
)
MAX_INVITE: Final = 1024
MAX_SPENT: Final = 16
"""Spent codes the host keeps claimed at once (the oldest is let go past that)."""


class Spent:
    """The host's spent codes, each held (its nameplate claimed, its mailbox open) until the keeper
    ends, so that the mailbox never gives its number to another code while the table fills: a code
    typed again finds it taken ("already used"), never the next player's code. At most
    :data:`MAX_SPENT` at once."""

    def __init__(self) -> None:
        self.scopes: list[trio.CancelScope] = []

    async def hold(self) -> None:
        with trio.CancelScope() as scope:
            self.scopes.append(scope)
            if len(self.scopes) > MAX_SPENT:
                self.scopes.pop(0).cancel()
            try:
                await trio.sleep_forever()
            finally:
                if scope in self.scopes:
                    self.scopes.remove(scope)


# -- the joiner ---------------------------------------------------------------------------------------
async def fetch_invite(code: Code, url: str, *, answer_wait: float = ANSWER_WAIT) -> Invite:
    """The invite the host hands over for ``code`` at the mailbox ``url``.

    Raises :class:`WrongCode` when the code is wrong, used or expired (one guess, spent), and
    :class:`~.mailbox.MailboxError` when the mailbox cannot be used."""
    async with open_mailbox(url, APP_ID) as box:
        try:
            mailbox = await box.claim(code.nameplate)
        except MailboxError as exc:
            if exc.kind == "crowded":
                raise WrongCode(f"{WRONG}: another player holds it now") from None
            raise
        mood: Mood = "errory"
        try:
            await box.open(mailbox)
            pake = Pake("joiner", code)
            await box.add("pake", pake.message)
            await box.ping()
            theirs = box.held("pake")
            if theirs is None:
                mood = "lonely"
                raise WrongCode(NOBODY)
            invite, mood = await _joiner_exchange(box, pake, theirs, answer_wait)
            return invite
        except WrongCode:
            mood = "scary" if mood == "errory" else mood
            raise
        finally:
            with trio.CancelScope(shield=True):
                await box.leave(code.nameplate, mailbox, mood)


async def _joiner_exchange(box: Mailbox, pake: Pake, theirs: bytes, wait: float) -> tuple[Invite, Mood]:
    key = pake.finish(theirs)
    await box.add("confirm", seal(key, "joiner", "confirm", CONFIRM))
    with trio.move_on_after(wait):
        if unseal(key, "host", "confirm", await box.receive("confirm")) != CONFIRM:
            raise WrongCode(WRONG)
        sealed = await box.receive("invite")
        text = unseal(key, "host", "invite", sealed)
        try:
            return decode_invite(text.decode("ascii")), "happy"
        except (UnicodeDecodeError, InviteError):
            raise MailboxError("broken", "the host sent an invite that is not one") from None
    raise WrongCode(f"{WRONG}, or the host stopped: it did not answer through the mailbox within {wait:g} s")


# -- the host ----------------------------------------------------------------------------------------
async def keep_short_codes(
    url: str,
    invite: str,
    tell: Report,
    on_code: Callable[[str], None] | None = None,
    *,
    answer_wait: float = ANSWER_WAIT,
) -> None:
    """Until cancelled, keep one short code for ``invite`` open at the mailbox ``url`` (see the
    module's words); ``on_code`` is called with each code as it opens (``host --code-file``)."""
    if len(invite) > MAX_INVITE:
        raise ValueError("an invite code that long cannot go through a mailbox")
    failures = 0
    down = False
    first = True
    spent = Spent()
    async with trio.open_nursery() as nursery:
        while True:
            try:
                await nursery.start(_one_code, url, invite, tell, on_code, first, down, answer_wait, spent)
            except MailboxError as exc:
                if not down:
                    tell(MailboxStatus(url, False, str(exc)))
                    down = True
                await trio.sleep(RETRY[min(failures, len(RETRY) - 1)])
                failures += 1
                continue
            first, down, failures = False, False, 0


async def _one_code(
    url: str,
    invite: str,
    tell: Report,
    on_code: Callable[[str], None] | None,
    first: bool,
    down: bool,
    wait: float,
    spent: Spent,
    *,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Open one code and wait for its claim (until then, a failure is the caller's); then tell the
    caller it was claimed and finish the exchange (a failure now burns this code only)."""
    claimed = trio.Event()
    try:
        await _offer(url, invite, tell, on_code, first, down, wait, claimed, spent, task_status)
    except MailboxError:
        if not claimed.is_set():
            raise
        # closing the WebSocket failed once the code was used: said already, nothing else to do


async def _offer(
    url: str,
    invite: str,
    tell: Report,
    on_code: Callable[[str], None] | None,
    first: bool,
    down: bool,
    wait: float,
    claimed: trio.Event,
    spent: Spent,
    task_status: trio.TaskStatus[None],
) -> None:
    async with open_mailbox(url, APP_ID) as box:
        nameplate = await box.allocate()
        mailbox = await box.claim(nameplate)
        mood: Mood = "lonely"
        try:
            await box.open(mailbox)
            code = new_code(nameplate)
            pake = Pake("host", code)
            await box.add("pake", pake.message)
            await box.ping()  # stored at the mailbox before anyone can read the code
            if down:
                tell(MailboxStatus(url, True))
            tell(ShortCode(code.text, url, first))
            if on_code is not None:
                on_code(code.text)
            theirs = await box.receive("pake")
            claimed.set()
            task_status.started()
            mood = await _hand_over(box, code.text, pake, theirs, invite, tell, wait)
            await spent.hold()  # claimed by this side until the table is full: never reused meanwhile
        finally:
            with trio.CancelScope(shield=True):
                await box.leave(nameplate, mailbox, mood)


async def _hand_over(
    box: Mailbox, code: str, pake: Pake, theirs: bytes, invite: str, tell: Report, wait: float
) -> Mood:
    """The claimed code's exchange: the invite goes only to a joiner whose confirmation opens."""
    shown = code  # spent: no longer a secret
    try:
        with trio.fail_after(wait):
            key = pake.finish(theirs)
            await box.add("confirm", seal(key, "host", "confirm", CONFIRM))
            if unseal(key, "joiner", "confirm", await box.receive("confirm")) != CONFIRM:
                raise WrongCode(WRONG)
            await box.add("invite", seal(key, "host", "invite", invite.encode("ascii")))
            await box.ping()  # the joiner reads it from the mailbox even once this end is gone
    except WrongCode:
        tell(ShortCodeUsed(shown, False, "someone tried it with wrong words: nobody got the invite"))
        return "scary"
    except trio.TooSlowError:
        tell(ShortCodeUsed(shown, False, f"its player did not finish within {wait:g} s"))
        return "lonely"
    except MailboxError as exc:
        tell(ShortCodeUsed(shown, False, f"the mailbox failed while it was used ({exc})"))
        return "errory"
    tell(ShortCodeUsed(shown, True))
    return "happy"


__all__ = ["ANSWER_WAIT", "NOBODY", "fetch_invite", "keep_short_codes"]
