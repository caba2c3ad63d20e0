"""Every shuffle proven as it happens, over the real protocol: live, by verify, and at the end.

* A seat whose pass does not prove is refused by the host at once: the game is aborted,
  the seat named. Verify of that log says which shuffles are proven fair and what stays
  undecided; a log that holds a bad pass anyway (a host that let it through) is
  cheating, naming the seat and the entry of the pass.
* A game of every built-in game verifies fair, and at its end every card any seat saw is
  known to every seat and to verify: the final reveal opened exactly the cards one seat
  saw alone.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.logfile import MAGIC, parse_log, record
from fairdeal.core.session.session import Session
from fairdeal.core.session.verify import CHEATING, FAIR, UNDECIDED, verify_log
from fairdeal.testing import play_with_protocol

SEED = 4


def _reg() -> Any:
    return registry.load()


def _swapped(body: dict[str, Any]) -> dict[str, Any]:
    """A pass whose first two cards are swapped after its proof was made."""
    deck = list(body["deck"])
    deck[0], deck[1] = deck[1], deck[0]
    return {**body, "deck": deck}


class BadShuffler(Session):
    """Swaps two cards of its pass of round 1, after proving the pass it would have sent."""

    def due(self) -> bytes | None:
        data = super().due()
        w = self.waiting()
        if data is not None and w is not None and w.what == "shuffle pass of round 1":
            env = decode_envelope(data)
            return self._envelope(env.kind, _swapped(env.body))
        return data


def test_a_pass_that_does_not_prove_aborts_the_game_and_verify_says_what_is_proven() -> None:
    reg = _reg()
    game = reg.game("ecarte")

    def make(g: Any, seat: int, identity: Any, rng: Any) -> Session:
        return (BadShuffler if seat == 1 else Session)(g, seat, identity, rng)

    played = play_with_protocol(
        game, 2, SEED, {"target": 5}, [reg.bot("ecarte").make()] * 2, make_session=make
    )
    host = played.outcomes[0].session
    assert host.aborted is not None and host.aborted.blame == 1
    assert host.aborted.reason == "the proof of shuffle pass 1 of round 1 does not verify"
    kinds = [decode_envelope(e).kind for e in parse_log(played.log).entries]
    assert kinds[-1] == "abort" and kinds.count("deck.shuffle") == 3  # the bad pass is not in the log

    report = verify_log(played.log, reg.game)
    assert report.verdict == UNDECIDED and report.exit_code == 2
    aborted, undecided = report.findings
    assert (aborted.seat, aborted.entry) == (1, len(kinds) - 1)
    assert "the proof of shuffle pass 1 of round 1 does not verify" in aborted.reason
    assert "undecided: whether every move was legal with every card known" in undecided.reason
    assert (
        "shuffles proven fair: 3 passes, 1 complete round (every pass in the log); "
        "round 1 stops after 1 of its 2 passes"
    ) in report.checked


def test_a_log_that_holds_a_bad_pass_is_cheating_with_the_seat_and_the_entry() -> None:
    reg = _reg()
    game = reg.game("ecarte")
    played = play_with_protocol(game, 2, SEED, {"target": 1}, [reg.bot("ecarte").make()] * 2)
    entries = list(parse_log(played.log).entries)
    at = next(
        i for i, e in enumerate(entries) if (v := decode_envelope(e)).kind == "deck.shuffle" and v.seat == 1
    )
    env = decode_envelope(entries[at])
    # Seat 1's own key signs the bad pass: only its proof gives it away.
    seat1 = Identity.generate(SeededRng(SEED).fork("identity-1"))
    host = Identity.generate(SeededRng(SEED).fork("identity-0"))
    forged = replace(env, body=_swapped(env.body)).signed(seat1).place(env.seq, env.prev, host)
    log = MAGIC + b"".join(record(e) for e in entries[:at]) + record(forged.encode())
    report = verify_log(log, reg.game)
    assert report.verdict == CHEATING and report.exit_code == 1
    (finding,) = report.findings
    assert (finding.seat, finding.entry) == (1, at)
    assert finding.reason == "the proof of shuffle pass 1 of round 0 does not verify"
    assert "shuffles proven fair: 1 pass, 0 complete rounds" in report.checked[1]
    # The honest entry in its place goes on.
    honest = MAGIC + b"".join(record(e) for e in entries[: at + 1])
    assert verify_log(honest, reg.game).verdict == UNDECIDED


def test_a_log_cut_in_the_middle_proves_the_shuffles_it_holds() -> None:
    reg = _reg()
    played = play_with_protocol(reg.game("ecarte"), 2, SEED, {"target": 5}, [reg.bot("ecarte").make()] * 2)
    entries = list(parse_log(played.log).entries)
    passes = [i for i, e in enumerate(entries) if decode_envelope(e).kind == "deck.shuffle"]
    assert len(passes) >= 4
    cut = passes[3] + 1  # two complete rounds
    report = verify_log(MAGIC + b"".join(record(e) for e in entries[:cut]), reg.game)
    assert report.verdict == UNDECIDED
    assert report.checked[1] == "shuffles proven fair: 4 passes, 2 complete rounds (every pass in the log)"
    assert report.findings[0].reason.startswith("the log ends before the game is over")


GAMES = [
    pytest.param("ecarte", 2, {"target": 3}, id="ecarte"),
    pytest.param("snatch", 3, {}, id="snatch"),
    pytest.param("spite-malice", 2, {"target": 1, "max_games": 1}, id="spite-malice", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_every_built_in_game_verifies_fair_and_ends_knowing_every_card_a_seat_saw(
    name: str, players: int, options: dict[str, object]
) -> None:
    reg = _reg()
    game = reg.game(name)
    rng = random.Random(SEED)
    bots = [reg.bot(name).make() for _ in range(players)]
    played = play_with_protocol(game, players, rng.randrange(100), options, bots)
    report = verify_log(played.log, reg.game)
    assert report.verdict == FAIR, report.findings
    assert "every pass in the log" in report.checked[1] and "stops after" not in report.checked[1]
    sessions = [o.session for o in played.outcomes]
    known = sessions[0].deck.revealed_cards()
    for s in sessions:
        assert s.verdict is not None and s.verdict.fair
        assert s.deck.revealed_cards() == known
        # every card this seat ever decrypted, the others and verify now know too
        mine = s.deck._reveals.known
        assert {t: known.get(t) for t in mine} == mine
    envs = [decode_envelope(e) for e in parse_log(played.log).entries]
    assert "deck.opening" not in {e.kind for e in envs}
    # The final reveal opened what one seat saw alone, each card by its only missing share.
    final = sessions[0].deck.final_tokens()
    assert set(final) <= set(known)
    opened = [(e.seat, row[0]) for e in envs if e.kind == "deck.final-reveal" for row in e.body["shares"]]
    assert sorted(t for _, t in opened) == final  # (no seat that saw a card alone left the game)
    for seat, token in opened:
        assert token in sessions[seat].deck._reveals.known  # its own card
