"""Spite & Malice over the real protocol: whole games and a short match verify as fair."""

from __future__ import annotations

import pytest

from fairdeal import registry
from fairdeal.core.session import FAIR, decode_envelope, parse_log, verify_log
from fairdeal.plugins.spite_malice import SpiteMalice
from fairdeal.testing import play_with_protocol

GAME = SpiteMalice()


def resolve(name: str) -> SpiteMalice:
    assert name == GAME.name
    return GAME


@pytest.mark.parametrize(("seed", "options"), [(1, {"target": 1, "max_games": 1}), (2, {"target": 7})])
def test_games_between_planners_verify(seed: int, options: dict[str, object]) -> None:
    bot = registry.load().bot("spite-malice")
    played = play_with_protocol(GAME, 2, seed, options, [bot.make(), bot.make()])
    session = played.session
    assert session.phase == "done" and session.verdict is not None and session.verdict.fair
    report = verify_log(played.log, resolve)
    assert report.verdict == FAIR, report.findings
    assert report.result == session.result
    # Completed centre stacks went back into the stock by joint reshuffles, all audited.
    kinds = [decode_envelope(e).kind for e in parse_log(played.log).entries]
    assert kinds.count("deck.shuffle") > 2
    assert sum(1 for o in played.outcomes if o.session.result == session.result) == 2
