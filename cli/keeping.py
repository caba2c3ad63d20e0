"""A seat's seed file as the commands keep it: written at the start, updated, deleted at the end.

:class:`SeedKeeper` is the :class:`~fairdeal.net.keeper.Keeper` of ``host``, ``join`` and
``resume``: it writes the seat's seed file (:mod:`fairdeal.seedfile`) next to its log as
soon as the header is in the log (before the first entry that uses the seed), keeps
each decision before it is sent and the chat counters before a line goes out or is shown,
marks an adjourned game, and deletes the file when the game is over.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from fairdeal import seedfile
from fairdeal.core.errors import FairdealError
from fairdeal.core.session.header import Header
from fairdeal.i18n import gettext as _
from fairdeal.seedfile import HostParams, Role, SeedFile
from fairdeal.storage import profile


class SeedKeeper:
    """Keeps one seat's seed file. ``where()`` gives the log's path and header once the log is open.

    A host gives ``host`` (its parameters; the code and port come with :meth:`table`); a guest
    gives ``invite``. ``identity_key`` is the seed of a bot seat's own identity (not the
    profile's). ``resumed`` is the seed file of a seat that goes on with a game.
    """

    def __init__(
        self,
        role: Role,
        kind: str,
        fingerprint: str,
        where: Callable[[], tuple[Path | None, Header | None]],
        *,
        invite: str = "",
        host: HostParams | None = None,
        identity_key: bytes | None = None,
        extra_direct: Sequence[str] = (),
        resumed: SeedFile | None = None,
    ) -> None:
        self.role, self.kind, self.fingerprint, self.where = role, kind, fingerprint, where
        self.invite, self.host, self.identity_key = invite, host, identity_key
        self.extra_direct = tuple(extra_direct)
        self.current = resumed
        self.marks: tuple[int, ...] = resumed.chat if resumed is not None else ()
        self.problem: str | None = None

    @property
    def log(self) -> Path | None:
        return self.where()[0]

    def table(self, code: str, port: int) -> None:
        self.invite = code
        if self.host is not None:
            self.host = replace(self.host, port=port)

    def begin(self, seat: int, seed: bytes, grace: int) -> None:
        log, header = self.where()
        if log is None or header is None:
            return
        self.current = SeedFile(
            role=self.role,
            seat=seat,
            game=header.game,
            game_id=header.game_id,
            identity=self.fingerprint,
            seed=seed,
            invite=self.invite,
            kind=self.kind,
            grace=grace,
            identity_key=self.identity_key,
            extra_direct=self.extra_direct,
            host=self.host,
            profile=profile(),
            chat=self.marks,
        )
        self._write()

    def _write(self) -> None:
        log = self.log
        if log is None or self.current is None:
            return
        try:
            seedfile.write_seed(log, self.current)
        except OSError as exc:  # the game goes on; it just could not be resumed after a crash
            why = _("could not keep the seed file next to {path}: {reason}")
            self.problem = why.format(path=log, reason=exc.strerror or exc)

    def sent(self, data: bytes) -> None:
        if self.current is not None:
            self.current = replace(self.current, sent=data)
            self._write()

    def chat(self, marks: tuple[int, ...]) -> None:
        self.marks = marks  # kept for begin() too: a line may come before the seed file is written
        if self.current is not None:
            self.current = replace(self.current, chat=marks)
            self._write()

    def adjourned(self) -> None:
        if self.current is not None:
            self.current = replace(self.current, adjourned=True)
            self._write()

    def resuming(self) -> None:
        """The game goes on: it is no longer adjourned."""
        if self.current is not None and self.current.adjourned:
            self.current = replace(self.current, adjourned=False)
            self._write()

    def finished(self) -> None:
        log = self.log
        self.current = None
        if log is not None:
            with contextlib.suppress(OSError, FairdealError):
                seedfile.delete_seed(log)


__all__ = ["SeedKeeper"]
