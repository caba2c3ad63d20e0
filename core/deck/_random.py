"""Joint random choices: commit, then reveal, from every active seat; nobody can bias the result.

Choice i in ``range(n)``: each participant s commits ``digest(random-commit, game_id, s,
i, n, v_s)`` to a secret 32-byte value v_s (derived from its seed), then, once all have
committed, reveals v_s. The result is drawn without bias from a stream keyed with every
participant's value in seat order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import LocalProtocolError, RemoteProtocolError
from ..rng import below
from . import _group as g
from ._common import Context, Me, Obligation, Stream
from ._limits import MAX_CHOICE, MAX_INDEX
from ._messages import RandomCommit, RandomReveal
from ._wire import KIND_RANDOM_COMMIT, KIND_RANDOM_REVEAL


@dataclass(frozen=True, slots=True)
class Choice:
    index: int
    n: int
    participants: tuple[int, ...]


class RandomChoices:
    """The joint random choice in progress and the results of those made."""

    __slots__ = ("choice", "commits", "ctx", "results", "reveals")

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.choice: Choice | None = None
        self.commits: dict[int, bytes] = {}
        self.reveals: dict[int, bytes] = {}
        self.results: list[int] = []

    def copy(self) -> RandomChoices:
        new = RandomChoices.__new__(RandomChoices)
        new.ctx = self.ctx
        new.choice = self.choice
        new.commits = dict(self.commits)
        new.reveals = dict(self.reveals)
        new.results = list(self.results)
        return new

    def obligations(self) -> list[Obligation]:
        c = self.choice
        if c is None:
            return []
        missing = [s for s in c.participants if s not in self.commits]
        if missing:
            return [
                Obligation(s, KIND_RANDOM_COMMIT, f"commitment to random choice {c.index}") for s in missing
            ]
        return [
            Obligation(s, KIND_RANDOM_REVEAL, f"reveal of random choice {c.index}")
            for s in c.participants
            if s not in self.reveals
        ]

    def begin(self, n: int, participants: Sequence[int]) -> None:
        """Begin a joint random choice in ``range(n)`` among ``participants``."""
        if type(n) is not int or not 1 <= n < MAX_CHOICE:
            raise LocalProtocolError("a random choice is in range(n) for 1 <= n < 2**63")
        if len(self.results) >= MAX_INDEX:
            raise LocalProtocolError("too many random choices")
        self.choice = Choice(len(self.results), n, tuple(participants))

    def result(self) -> int | None:
        """The outcome of the last choice; None while one is in progress or none was made."""
        if self.choice is not None or not self.results:
            return None
        return self.results[-1]

    def value(self, me: Me, index: int) -> bytes:
        """This seat's secret contribution to choice ``index``."""
        return g.digest(g.TAG_SECRETS, me.seed, "random", self.ctx.game_id, index)

    def commitment(self, seat: int, choice: Choice, value: bytes) -> bytes:
        return g.digest(g.TAG_RANDOM_COMMIT, self.ctx.game_id, seat, choice.index, choice.n, value)

    def _mine(self) -> tuple[Me, Choice]:
        me = self.ctx.need_me()
        c = self.choice
        if c is None:
            raise LocalProtocolError("no random choice in progress")
        if me.seat not in c.participants:
            raise LocalProtocolError("this seat takes no part in this random choice")
        return me, c

    def commit_message(self) -> RandomCommit:
        """Commit to this seat's contribution to the choice in progress."""
        me, c = self._mine()
        return RandomCommit(me.seat, c.index, self.commitment(me.seat, c, self.value(me, c.index)), c.n)

    def reveal_message(self) -> RandomReveal:
        """Reveal the contribution, once every seat has committed."""
        me, c = self._mine()
        if any(s not in self.commits for s in c.participants):
            raise LocalProtocolError("not every seat has committed yet")
        return RandomReveal(me.seat, c.index, self.value(me, c.index))

    def receive_commit(self, m: RandomCommit) -> None:
        s = m.seat
        c = self.choice
        if c is None or m.index != c.index:
            raise RemoteProtocolError(
                f"commitment to random choice {m.index}, which is not in progress", seat=s
            )
        if s not in c.participants:
            raise RemoteProtocolError("seat takes no part in this random choice", seat=s)
        if s in self.commits:
            raise RemoteProtocolError("duplicate random commitment", seat=s)
        if m.n != c.n:
            raise RemoteProtocolError(f"commitment to a choice in range({m.n}), not range({c.n})", seat=s)
        if not (isinstance(m.commitment, bytes) and len(m.commitment) == 32):
            raise RemoteProtocolError("random commitment must be 32 bytes", seat=s)
        self.commits[s] = m.commitment

    def receive_reveal(self, m: RandomReveal) -> None:
        s = m.seat
        c = self.choice
        if c is None or m.index != c.index:
            raise RemoteProtocolError(f"reveal of random choice {m.index}, which is not in progress", seat=s)
        if s not in c.participants:
            raise RemoteProtocolError("seat takes no part in this random choice", seat=s)
        if any(p not in self.commits for p in c.participants):
            raise RemoteProtocolError("random reveal before every seat has committed", seat=s)
        if s in self.reveals:
            raise RemoteProtocolError("duplicate random reveal", seat=s)
        if not isinstance(m.value, bytes) or self.commitment(s, c, m.value) != self.commits[s]:
            raise RemoteProtocolError("random reveal does not match its commitment", seat=s)
        self.reveals[s] = m.value
        if all(p in self.reveals for p in c.participants):
            parts: list[g.Part] = []
            for p in c.participants:
                parts += [p, self.reveals[p]]
            stream = Stream(g.digest(g.TAG_RANDOM_RESULT, self.ctx.game_id, c.index, c.n, *parts))
            self.results.append(below(stream, c.n))
            self.choice = None
            self.commits = {}
            self.reveals = {}
