"""The check made once every card is known: replay every move with full knowledge.

At the table each seat judges a move only as far as its own view can tell (an
unknown card never forbids a move). After the final reveal every card that any seat
saw is known to all, so the recorded game can be replayed by an all-seeing replica
that knows them: a move that broke a rule nobody else could see (a renege from a
hidden hand) is found, with its seat and entry. A card nobody saw stays unknown; it
cannot make a move illegal, since rules decide what a seat may do from what it sees.
Every seat runs this at the end of a game, and so does ``fairdeal verify``: both
report the same thing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import Card
from ..dealer import Finding
from ..replica import Replica
from ..rules import Game, Over, Result
from ..table import EVERYONE

#: What a verdict says it checked, once the replay found nothing.
REPLAYED = "every move replayed with every card known"


def replay_with_full_knowledge(
    game: Game[Any],
    config: Any,
    script: Sequence[tuple[Any, ...]],
    cards: Mapping[int, Card],
) -> tuple[list[Finding], Result | None]:
    """Replay a recorded game knowing every card; return what broke the rules and the result.

    ``script`` is what a session recorded (:attr:`Session.script`); a finding names the
    seat and, in ``entry``, the log entry of the move (or of a false "I do not hold it").
    """
    replica: Replica[Any] | None = None
    for item in script:
        kind = item[0]
        if kind == "start":
            replica = Replica.start(game, config, item[1], EVERYONE, cards)
            continue
        assert replica is not None
        if kind == "learn":
            replica.learn(item[1], cards)
        elif kind == "shuffled":
            replica.shuffled(item[1], item[2], cards)
        elif kind == "auto":
            replica.auto()
        elif kind == "chance":
            replica.chance(item[1])
        elif kind == "found":
            _, card, holder, candidates, claims = item
            for seat, entry in claims:
                held = seat != holder and any(cards.get(t) == card for t in candidates.get(seat, ()))
                if held:
                    reason = f"said it does not hold {card}, which it held (every card known)"
                    return [Finding(seat, f"entry {entry}", reason, entry)], None
            replica.found(holder)
        elif kind == "move":
            _, seat, move, shown, entry = item
            if not game.is_legal(replica.state, seat, move):
                text = game.describe(replica.state, seat, move)
                reason = f"illegal move with every card known: {text} ({move})"
                return [Finding(seat, f"entry {entry}", reason, entry)], None
            replica.apply(seat, move, shown)
    if replica is None:
        return [], None
    step = game.next_step(replica.state) if replica.table.settled() else None
    return [], step.result if isinstance(step, Over) else None


def knowing_every_card(
    game: Game[Any],
    config: Any,
    script: Sequence[tuple[Any, ...]],
    cards: Mapping[int, Card],
    result: Result | None,
) -> list[Finding]:
    """Every finding of the full-knowledge replay, the result included (empty: all fair).

    ``result`` is the one the seats agreed on at the table; it is compared only when the
    replay reaches an end of its own (a resignation ends a game before its rules do).
    """
    findings, replayed = replay_with_full_knowledge(game, config, script, cards)
    if findings:
        return findings
    if result is not None and replayed is not None and replayed != result:
        return [Finding(None, "the result", "the result differs when every card is known")]
    return []
