"""One check per proof among the seats of one process, and never a proof taken unchecked."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from fairdeal.core.cards import standard_52
from fairdeal.core.dealer import Reveal
from fairdeal.core.deck import CheckedProofs, CryptoDealer, DeckSeat, ShufflePass, _keys, _reveals, _shuffles
from fairdeal.core.deck import _group as g
from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.rng import SeededRng

GAME = b"test-checked"


class Spy:
    """Counts the calls of a real check (it still runs)."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.calls = 0

    def __call__(self, *args: Any) -> bool:
        self.calls += 1
        return bool(self.real(*args))


@pytest.fixture
def spies(monkeypatch: pytest.MonkeyPatch) -> dict[str, Spy]:
    out = {
        "shuffle": Spy(_shuffles.verify_shuffle),
        "dleq": Spy(g.dleq_verify),
        "key": Spy(g.schnorr_verify),
    }
    monkeypatch.setattr(_shuffles, "verify_shuffle", out["shuffle"])
    monkeypatch.setattr(_reveals.g, "dleq_verify", out["dleq"])
    monkeypatch.setattr(_keys.g, "schnorr_verify", out["key"])
    return out


def seats(players: int, checked: CheckedProofs | None) -> list[DeckSeat]:
    rng = SeededRng(5)
    return [DeckSeat(GAME, i, players, rng.fork(f"seat-{i}"), checked) for i in range(players)]


def pump(table: list[DeckSeat]) -> None:
    while (sender := table[0].next_sender()) is not None:
        msg = table[sender].due_message()
        assert msg is not None
        for s in table:
            s.receive(msg)


@pytest.mark.parametrize("players", [3, 5])
def test_in_one_process_every_proof_is_checked_once(spies: dict[str, Spy], players: int) -> None:
    dealer = CryptoDealer(players, GAME, SeededRng(1))
    assert spies["key"].calls == players  # each key proof once, not players - 1 times
    tokens = dealer.start(standard_52()[:20])
    assert spies["shuffle"].calls == players  # one pass per seat, each checked once
    dealer.reveal([Reveal(tokens[0], None), Reveal(tokens[1], 0)])
    # The public card takes a share from every seat, the private one from every seat but 0.
    assert spies["dleq"].calls == players + players - 1
    assert dealer.checked.hits > 0


def test_seats_that_do_not_share_check_everything(spies: dict[str, Spy]) -> None:
    table = seats(4, None)
    pump(table)
    for s in table:
        s.start(standard_52()[:20])
    pump(table)
    assert spies["key"].calls == 4 * 3
    assert spies["shuffle"].calls == 4 * 3  # every pass by every other seat


def test_a_bad_proof_is_checked_by_every_seat_and_never_recorded(spies: dict[str, Spy]) -> None:
    checked = CheckedProofs()
    table = seats(3, checked)
    pump(table)
    for s in table:
        s.start(standard_52()[:16])
    honest = table[0].due_message()
    assert isinstance(honest, ShufflePass)
    # The same deck with another proof: one response changed (a canonical scalar still).
    s1 = g.sc_add(honest.proof.s1, g.hash_scalar(b"test", 1))
    forged = replace(honest, proof=replace(honest.proof, s1=s1))
    before = spies["shuffle"].calls
    for s in table[1:]:
        with pytest.raises(RemoteProtocolError, match="does not verify") as exc:
            s.receive(forged)
        assert exc.value.seat == 0
    assert spies["shuffle"].calls == before + 2  # refused by each seat, on its own check
    for s in table[1:]:  # and again: a refusal is never remembered as a pass
        with pytest.raises(RemoteProtocolError, match="does not verify"):
            s.receive(forged)
    assert spies["shuffle"].calls == before + 4
    for s in table:
        s.receive(honest)
    assert spies["shuffle"].calls == before + 5  # the honest pass: checked by seat 1, found by seat 2


def test_a_record_covers_exactly_the_bytes_checked() -> None:
    checked = CheckedProofs()
    ran: list[tuple[bytes, ...]] = []

    def run(*parts: bytes) -> bool:
        ran.append(parts)
        return parts[0] != b"bad"

    assert checked.check("a", (b"x", b"y"), run, b"x", b"y")
    assert checked.check("a", (b"x", b"y"), run, b"x", b"y")
    assert len(ran) == 1 and checked.hits == 1
    # Another kind, other bytes, or the same bytes split differently: each is a check of its own.
    assert checked.check("b", (b"x", b"y"), run, b"x", b"y")
    assert checked.check("a", (b"xy",), run, b"xy")
    assert checked.check("a", (b"x", b"z"), run, b"x", b"z")
    assert len(ran) == 4
    assert not checked.check("a", (b"bad",), run, b"bad")
    assert not checked.check("a", (b"bad",), run, b"bad")
    assert len(ran) == 6 and len(checked) == 4


def test_fairdeal_play_checks_each_pass_once_and_verify_checks_them_all(
    spies: dict[str, Spy], tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from fairdeal.cli.main import cli

    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "home"))
    log = tmp_path / "snatch.fdlog"
    seats = ["--seat", "bot"] * 5
    res = CliRunner().invoke(cli, ["play", "snatch", *seats, "--seed", "3", "--log", str(log), "--json"])
    assert res.exit_code == 0, res.output
    played = spies["shuffle"].calls
    res = CliRunner().invoke(cli, ["verify", str(log), "--json"])
    assert res.exit_code == 0, res.output
    verified = spies["shuffle"].calls - played
    # verify checks every pass once; play, with five seats in the process, no more than that.
    assert verified > 0
    assert played == verified


def test_fairdeal_play_checks_each_signature_once_and_every_seat_refuses_a_bad_one(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five seats in one process: each entry's signatures are checked once, not by every seat: its
    author's and the host's placement (the placement an entry's anchor quotes was checked with the
    entry it places)."""
    from click.testing import CliRunner

    from fairdeal.cli.main import cli
    from fairdeal.core.session import _chain as chain_module
    from fairdeal.core.session import envelope as envelope_module
    from fairdeal.core.session.logfile import parse_log

    spy = Spy(envelope_module.verify_signature)
    monkeypatch.setattr(envelope_module, "verify_signature", spy)  # Envelope.verify's
    monkeypatch.setattr(chain_module, "verify_signature", spy)
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "home"))
    log = tmp_path / "snatch.fdlog"
    seats = ["--seat", "bot"] * 5
    res = CliRunner().invoke(cli, ["play", "snatch", *seats, "--seed", "3", "--log", str(log), "--json"])
    assert res.exit_code == 0, res.output
    entries = len(parse_log(log.read_bytes()).entries)
    assert entries > 50
    assert spy.calls == 2 * entries  # twice an entry, not twice by each of the five seats


def test_a_badly_signed_entry_is_refused_by_every_seat_that_shares_checks() -> None:
    """A signature that failed is never recorded: every seat checks it, and refuses it."""
    from fairdeal import registry
    from fairdeal.core.session.envelope import decode_envelope
    from fairdeal.testing import seat_sessions

    game = registry.load().game("snatch")
    checked = CheckedProofs()
    table = seat_sessions(
        game, 3, 4, make_session=lambda g_, i, ident, rng: _session(g_, i, ident, rng, checked)
    )
    header = table.sessions[0].start(table.header)
    for s in table.sessions:
        s.receive(header, peer="host")
    entry = table.sessions[0].due()
    assert entry is not None
    env = decode_envelope(entry)
    # The author's signature broken, the entry placed again by the host: only the author's fails.
    bad = replace(env, sig=bytes([env.sig[0] ^ 1]) + env.sig[1:])
    forged = bad.place(env.seq, env.prev, table.identities[0], table.header.game_id).encode()
    for s in table.sessions[1:]:
        for _ in range(2):  # and again: a refusal is never remembered
            with pytest.raises(RemoteProtocolError, match="did not sign"):
                s.receive(forged, peer="host")
    for s in table.sessions[1:]:
        s.receive(entry, peer="host")  # the real one still goes in


def _session(game: Any, seat: int, identity: Any, rng: Any, checked: CheckedProofs) -> Any:
    from fairdeal.core.session.session import Session

    return Session(game, seat, identity, rng, checked)
