"""A seat's agent that gives up deciding when the game moves on without it: an entry comes in
from the host (an abort, say) or the link goes away, and the decision is dropped
(:class:`Interrupted`) so the follower can apply what came, or come back, and ask again."""

from __future__ import annotations

from typing import Any

import trio

from fairdeal.core.session.session import Session

from .driver import Agent
from .link import NetLink


class Interrupted(Exception):
    """An entry arrived, or the link closed, while this seat was deciding."""


class Interruptible:
    """An agent whose decision is dropped as soon as the host sends something (an abort) or the
    link goes away; the link changes when the seat comes back."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.link: NetLink | None = None

    async def decide(self, session: Session, moves: list[Any]) -> Any:
        box: list[Any] = []
        link = self.link
        async with trio.open_nursery() as nursery:

            async def think() -> None:
                box.append(await self.agent.decide(session, moves))
                nursery.cancel_scope.cancel()

            async def watch() -> None:
                if link is not None:
                    await link.wait_activity()
                    nursery.cancel_scope.cancel()

            nursery.start_soon(think)
            nursery.start_soon(watch)
        if not box:
            raise Interrupted
        return box[0]


__all__ = ["Interrupted", "Interruptible"]
