"""Every rule of the session, each held by a test that breaks that rule and nothing else.

Each forged entry below is well formed and validly signed by the seat it names, so the
one rule it breaks is the one that must refuse it: the test checks the reason, the seat
blamed, and that the session is left as it was.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

import pytest

from fairdeal.core.deck import _group as g
from fairdeal.core.deck._reveals import share_context
from fairdeal.core.errors import LocalProtocolError, RemoteProtocolError
from fairdeal.core.session import DamagedEntry, HostCheated
from fairdeal.core.session.envelope import FORMAT_VERSION, Envelope, decode_envelope
from fairdeal.core.session.logfile import MAGIC, record
from fairdeal.core.session.verify import CHEATING, verify_log


def _refused(t: Any, data: bytes, seat: int | None, *words: str) -> None:
    """Every session but the author's refuses ``data``, blaming ``seat``, and is unchanged."""
    author = decode_envelope(data).seat
    for s in t.everyone:
        if s is t.seats[author]:
            continue
        before = (s.seq, s.waiting(), len(s.script))
        with pytest.raises(RemoteProtocolError) as info:
            s.receive(data)
        assert info.value.seat == seat, info.value
        for w in words:
            assert w in info.value.reason, (w, info.value.reason)
        assert (s.seq, s.waiting(), len(s.script)) == before


def _owes(what: str, seat: int | None = None) -> Any:
    def stop(t: Any) -> bool:
        w = t.seats[0].waiting()
        return w is not None and what in w.what and (seat is None or w.seat == seat)

    return stop


@pytest.fixture
def ecarte(stepper: Any) -> Any:
    return stepper("ecarte", 2, {"target": 1})


def test_an_entry_that_breaks_only_the_hash_chain_is_refused(ecarte: Any) -> None:
    t = ecarte
    t.run_until(_owes("shuffle pass", 1))
    honest = decode_envelope(t.step())
    # Placed by the host after another entry than the last of this log: the host's placement
    # signature proves it showed someone another log; the author, who signed only its anchor, is
    # not to blame.
    forged = t.forge(1, honest.kind, honest.body, prev=hashlib.sha256(b"another past").digest())
    _refused(t, forged, 0, "forked the log", f"entry {t.seats[0].seq - 1}")
    t.deliver(t.step())


def test_verify_names_a_host_that_re_signs_its_own_entry_with_another_past(ecarte: Any) -> None:
    t = ecarte
    t.finish()
    k = next(i for i, e in enumerate(t.log) if i > 3 and decode_envelope(e).seat == 0)
    env = decode_envelope(t.log[k])
    forged = env.place(env.seq, bytes(32), t.ids[0])
    log = [*t.log[:k], forged.encode(), *t.log[k + 1 :]]
    report = verify_log(MAGIC + b"".join(record(e) for e in log), lambda name: t.game)
    assert report.verdict == CHEATING
    assert (report.findings[0].seat, report.findings[0].entry) == (0, k)
    assert "forked the log" in report.findings[0].reason


def test_only_the_host_may_record_an_abort(ecarte: Any) -> None:
    t = ecarte
    t.run_until(_owes("to move"))
    _refused(t, t.forge(1, "abort", {"blame": [0], "reason": "I say so"}), 1, "only the host")
    _refused(t, t.forge(0, "abort", {"blame": [5], "reason": "no such seat"}), 0, "malformed abort")
    _refused(t, t.forge(0, "abort", {"blame": [1, 1], "reason": "twice"}), 0, "malformed abort")
    _refused(t, t.forge(0, "abort", {"blame": 1, "reason": "not a list"}), 0, "malformed abort")
    _refused(t, t.forge(0, "abort", {"blame": [1]}), 0, "malformed abort")
    t.deliver(t.forge(0, "abort", {"blame": [1], "reason": "it had to end"}))
    assert all(s.aborted is not None and s.aborted.blamed == (1,) for s in t.everyone)


def test_a_resignation_out_of_turn_is_refused(ecarte: Any) -> None:
    t = ecarte
    t.run_until(_owes("shares"))  # not a decision at all: no resignation
    w = t.seats[0].waiting()
    _refused(t, t.forge(w.seat, "resign", {}), w.seat, "resign refused")
    t.run_until(_owes("to move", 1))
    _refused(t, t.forge(0, "resign", {}), 0, "out of turn")


def test_a_move_may_reveal_only_the_movers_own_cards(ecarte: Any) -> None:
    t = ecarte
    t.run_until(_owes("to move"))
    mover = t.seats[0].waiting().seat
    s = t.seats[mover]
    deck = s.deck
    me = deck.ctx.need_me()
    view = s.view()
    # A card the mover does not know (in the other hand, or face down): a valid share of it.
    hidden = next(
        x for x in deck.live_tokens() if not view.table.knows(mover, x) and not view.table.is_public(x)
    )
    ct = deck.ciphertext(hidden)
    share = g.mul(me.x, ct[:33])
    e, z = g.dleq_prove(
        share_context(deck.game_id, mover, hidden, ct, None), me.x, me.public, ct[:33], share, me.seed
    )
    move = s.legal_moves()[0]
    body = {"move": move.to_wire(), "shares": {"shares": [[hidden, None, share, e, z]], "handovers": []}}
    _refused(
        t, t.forge(mover, "move", body), mover, f"may reveal only the mover's own cards (token {hidden})"
    )


def test_a_key_without_a_valid_proof_is_refused(ecarte: Any) -> None:
    t = ecarte
    t.run_until(_owes("public key", 1))
    honest = decode_envelope(t.step()).body
    wrong = {**honest, "z": g.sc_add(honest["z"], (1).to_bytes(32, "big"))}
    _refused(t, t.forge(1, "deck.key", wrong), 1, "proof of knowledge")
    _refused(t, t.forge(1, "deck.key", {**honest, "public": g.base((7).to_bytes(32, "big"))}), 1, "proof")


def test_a_random_reveal_must_match_its_commitment(ecarte: Any) -> None:
    t = ecarte
    t.run_until(_owes("reveal of random choice", 0))
    honest = decode_envelope(t.step()).body
    lie = {**honest, "value": bytes(32)}
    _refused(t, t.forge(0, "deck.random-reveal", lie), 0, "does not match its commitment")
    t.deliver(t.step())


def test_a_resignation_keeps_the_scores_the_table_shows(stepper: Any) -> None:
    t = stepper("ecarte", 2, {"target": 5})

    def scored_and_deciding(t: Any) -> bool:
        w = t.seats[0].waiting()
        view = t.seats[0].view()
        return bool(w and w.decision and view and any(t.game.table_view(view, None).scores or ()))

    t.run_until(scored_and_deciding)
    shown = t.game.table_view(t.seats[0].view(), None).scores
    w = t.seats[0].waiting()
    t.deliver(t.seats[w.seat].resign())
    for s in t.everyone:
        assert s.result is not None and s.result.scores == shown and "resigned" in s.result.reason


def _second_move(t: Any) -> tuple[int, bytes, bytes]:
    """A seat's move as delivered, and another move it signed for the same obligation (an equivocation)."""
    t.run_until(_owes("to move"))
    w = t.seats[0].waiting()
    mover = t.seats[w.seat]
    moves = mover.legal_moves()
    assert len(moves) > 1
    first, second = mover.make_move(moves[0]), mover.make_move(moves[1])
    t.deliver(first)
    return w.seat, first, second


def test_an_abort_proves_equivocation_with_the_other_signed_entry(ecarte: Any) -> None:
    t = ecarte
    seat, first, second = _second_move(t)
    assert decode_envelope(first).anchor == decode_envelope(second).anchor and first != second
    t.deliver(t.seats[0].abort(seat, "signed two entries for one obligation", evidence=second))
    for s in t.everyone:
        assert s.aborted is not None and s.aborted.blame == seat and s.aborted.evidence == second
    report = verify_log(MAGIC + b"".join(record(e) for e in t.log), lambda name: t.game)
    assert report.verdict == CHEATING
    f = report.findings[0]
    assert (f.seat, f.entry) == (seat, decode_envelope(t.log[-2]).seq) and "equivocation" in f.reason


def test_evidence_that_proves_nothing_is_the_hosts_fault(ecarte: Any) -> None:
    t = ecarte
    seat, first, second = _second_move(t)
    other = 1 - seat
    env = decode_envelope(second)

    def signed(**change: Any) -> bytes:
        fields = {"anchor": env.anchor, "seat": env.seat, "game_id": env.game_id, **change}
        by = t.ids[fields.pop("by", fields["seat"])]
        e = replace(env, game_id=fields["game_id"], seat=fields["seat"], anchor=fields["anchor"])
        return e.signed(by).encode()

    def abort(blame: Any, evidence: Any) -> bytes:
        return t.forge(0, "abort", {"blame": blame, "reason": "equivocation", "evidence": evidence})

    placed_elsewhere = (
        decode_envelope(first).place(99, bytes(32), t.ids[0]).encode()
    )  # the same writing, moved
    cases = [
        (abort([seat], first), "does not differ"),  # the very entry the log holds
        (abort([seat], placed_elsewhere), "does not differ"),  # the same entry as written, placed elsewhere
        (abort([other], second), "not an entry of seat"),  # blames a seat that did not sign it
        (abort([], second), "must be an entry of the one blamed seat"),
        (abort([0, 1], second), "must be an entry of the one blamed seat"),
        (abort([seat], None), "must be an entry of the one blamed seat"),
        (abort([seat], b"\x00garbage"), "is not an entry"),
        (abort([seat], signed(by=other)), "not signed by seat"),  # the host cannot sign in a guest's name
        (abort([seat], signed(game_id=bytes(16))), "not an entry of seat"),
        (abort([seat], signed(anchor=b"\x05" * 32)), "answers no point of the log"),
    ]
    for data, words in cases:
        _refused(t, data, 0, "evidence", words)


def test_an_abort_reason_is_at_most_200_characters(ecarte: Any) -> None:
    t = ecarte
    t.run_until(_owes("to move"))
    _refused(t, t.forge(0, "abort", {"blame": [], "reason": "x" * 201}), 0, "malformed abort")
    t.deliver(t.forge(0, "abort", {"blame": [], "reason": "x" * 200}))
    assert all(s.aborted is not None and len(s.aborted.reason) == 200 for s in t.everyone)


def test_only_the_host_writes_the_header_and_only_first(ecarte: Any) -> None:
    t = ecarte
    with pytest.raises(LocalProtocolError, match="only the host writes the header, first"):
        t.seats[0].start(t.header)  # a second header
    with pytest.raises(LocalProtocolError, match="only the host writes the header, first"):
        t.seats[1].start(t.header)


def test_a_move_that_shows_a_card_without_its_share_is_refused(ecarte: Any) -> None:
    t = ecarte

    def plays_a_card(t: Any) -> bool:
        w = t.seats[0].waiting()
        return bool(w and w.decision and any(m.action == "play" for m in t.seats[w.seat].legal_moves()))

    t.run_until(plays_a_card)
    mover = t.seats[0].waiting().seat
    move = next(m for m in t.seats[mover].legal_moves() if m.action == "play")
    body = {"move": move.to_wire(), "shares": None}  # the card goes face up, its share is missing
    _refused(t, t.forge(mover, "move", body), mover, "without revealing it")


def test_a_move_may_not_reveal_a_card_already_face_up(ecarte: Any) -> None:
    t = ecarte
    t.run_until(_owes("to move"))
    mover = t.seats[0].waiting().seat
    s = t.seats[mover]
    deck, table = s.deck, s.view().table
    me = deck.ctx.need_me()
    public = next(x for x in deck.live_tokens() if table.is_public(x) and table.zone_of(x) is not None)
    ct = deck.ciphertext(public)
    share = g.mul(me.x, ct[:33])
    e, z = g.dleq_prove(
        share_context(deck.game_id, mover, public, ct, None), me.x, me.public, ct[:33], share, me.seed
    )
    move = s.legal_moves()[0]
    body = {"move": move.to_wire(), "shares": {"shares": [[public, None, share, e, z]], "handovers": []}}
    _refused(
        t, t.forge(mover, "move", body), mover, f"may reveal only the mover's own cards (token {public})"
    )


def test_a_move_entry_has_exactly_its_two_fields(ecarte: Any) -> None:
    t = ecarte
    t.run_until(_owes("to move"))
    mover = t.seats[0].waiting().seat
    move = t.seats[mover].legal_moves()[0]
    for body in (
        {"move": move.to_wire(), "shares": None, "extra": 1},
        {"move": move.to_wire()},
        {"shares": None, "move": move.to_wire()},  # the fields in another order
        [move.to_wire(), None],
    ):
        _refused(t, t.forge(mover, "move", body), mover, "malformed move entry")


def test_a_header_that_gives_a_seat_another_identity_is_refused(stepper: Any) -> None:
    import dataclasses

    from fairdeal import registry
    from fairdeal.core.identity import Identity
    from fairdeal.core.rng import SeededRng
    from fairdeal.testing import seat_sessions

    game = registry.load().game("ecarte")
    table = seat_sessions(game, 2, 5, {"target": 1})
    stranger = Identity.generate(SeededRng(99).fork("stranger")).public_key
    seats = (table.header.seats[0], dataclasses.replace(table.header.seats[1], identity=stranger))
    header = dataclasses.replace(table.header, seats=seats)
    data = table.sessions[0].start(header)
    with pytest.raises(RemoteProtocolError) as info:
        table.sessions[1].receive(data)
    assert info.value.seat == 0 and "another identity" in info.value.reason
    assert table.sessions[1].seq == 0


def test_a_seats_own_entry_may_come_back_placed_after_others(ecarte: Any) -> None:
    t = ecarte  # after the header, every seat owes its key at once
    mine = t.seats[1].due()
    t.seats[1].sent(mine)
    t.deliver(t.seats[0].due())  # the host's key reached the log first
    placed = t.seats[0].place(mine, 1)
    assert placed != mine
    t.deliver(placed)  # the same writing at another place: taken as this seat's own entry
    assert t.seats[1].outstanding is None and all(s.seq == 3 for s in t.everyone)


def test_another_entry_in_this_seats_name_while_its_own_is_out_was_altered(ecarte: Any) -> None:
    from fairdeal.core.session import AlteredEntry

    t = ecarte
    t.run_until(_owes("to move"))
    seat = t.seats[0].waiting().seat
    mover = t.seats[seat]
    first, second = (mover.make_move(m) for m in mover.legal_moves()[:2])
    mover.sent(first)
    before = (mover.seq, len(mover.script))
    with pytest.raises(AlteredEntry) as info:
        mover.receive(second)  # validly signed by this seat, but not what it sent
    assert (info.value.sent, info.value.received) == (first, second)
    assert (mover.seq, len(mover.script)) == before
    t.deliver(first)
    assert mover.outstanding is None


def test_the_first_entry_must_be_the_hosts_header() -> None:
    from fairdeal import registry
    from fairdeal.testing import seat_sessions

    game = registry.load().game("ecarte")
    table = seat_sessions(game, 2, 5, {"target": 1})
    header = decode_envelope(table.sessions[0].start(table.header))

    def entry(seat: int, kind: str, body: object) -> bytes:
        e = Envelope(FORMAT_VERSION, header.game_id, seat, kind, body).signed(table.identities[seat])
        return e.place(0, bytes(32), table.identities[0]).encode()

    # Nothing before the header says whose keys sign: such a log is no game's, nobody is named.
    for data in (entry(1, "header", header.body), entry(0, "resign", {})):
        with pytest.raises(DamagedEntry) as info:
            table.sessions[1].receive(data)
        assert info.value.seat is None and "its first entry is not the host's header" in info.value.reason
        assert table.sessions[1].seq == 0


def test_a_header_without_this_seat_is_refused() -> None:
    from fairdeal import registry
    from fairdeal.core.identity import Identity
    from fairdeal.core.rng import SeededRng
    from fairdeal.core.session.session import Session
    from fairdeal.testing import seat_sessions

    game = registry.load().game("ecarte")
    table = seat_sessions(game, 2, 5, {"target": 1})
    third = Session(game, 2, Identity.generate(SeededRng(7).fork("third")))
    with pytest.raises(RemoteProtocolError) as info:
        third.receive(table.sessions[0].start(table.header))
    assert info.value.seat == 0 and "the header has no seat 2" in info.value.reason


def test_an_abort_blames_only_seats_of_the_table(ecarte: Any) -> None:
    t = ecarte
    t.run_until(_owes("to move"))
    _refused(t, t.forge(0, "abort", {"blame": [2], "reason": "one past the last seat"}), 0, "malformed abort")
    _refused(t, t.forge(0, "abort", {"blame": [-1], "reason": "before the first"}), 0, "malformed abort")
    t.deliver(t.forge(0, "abort", {"blame": [1], "reason": "the last seat"}))
    assert all(s.aborted is not None and s.aborted.blamed == (1,) for s in t.everyone)


def test_a_seat_moves_and_resigns_only_when_it_decides(ecarte: Any) -> None:
    from fairdeal.core.errors import IllegalMove
    from fairdeal.core.rules import Move

    t = ecarte
    t.run_until(_owes("shares"))  # a seat owes shares: nobody decides
    w = t.seats[0].waiting()
    for s in t.seats:
        with pytest.raises(IllegalMove, match="not your turn"):
            s.make_move(Move("play", (0,)))
        with pytest.raises(IllegalMove, match="on your own turn"):
            s.resign()
    assert w.seat in (0, 1)
    t.run_until(_owes("to move"))
    idle = t.seats[1 - t.seats[0].waiting().seat]  # owes nothing at all
    with pytest.raises(IllegalMove, match="not your turn"):
        idle.make_move(Move("play", (0,)))
    with pytest.raises(IllegalMove, match="on your own turn"):
        idle.resign()


def test_an_entry_from_a_seat_the_table_does_not_have_is_refused(ecarte: Any) -> None:
    t = ecarte
    t.run_until(_owes("to move"))
    s = t.seats[0]
    env = Envelope(FORMAT_VERSION, t.header.game_id, 2, "resign", {}, *s.point(None)).signed(t.ids[1])
    data = env.place(s.seq, s.last_hash, t.ids[0]).encode()
    for x in t.everyone:  # only the host can have placed it there
        with pytest.raises(HostCheated, match="seat 2, which this game does not have"):
            x.receive(data)


def test_the_host_writes_a_header_only_with_its_own_identity() -> None:
    import dataclasses

    from fairdeal import registry
    from fairdeal.testing import seat_sessions

    game = registry.load().game("ecarte")
    table = seat_sessions(game, 2, 5, {"target": 1})
    swapped = dataclasses.replace(table.header, seats=tuple(reversed(table.header.seats)))
    with pytest.raises(LocalProtocolError, match="the host must sit in seat 0 with its own identity"):
        table.sessions[0].start(swapped)


def test_nothing_is_owed_once_the_game_is_aborted(ecarte: Any) -> None:
    t = ecarte
    t.run_until(_owes("shares"))
    t.deliver(t.forge(0, "abort", {"blame": [], "reason": "stopped"}))
    assert all(s.waiting() is None and s.due() is None for s in t.seats)
