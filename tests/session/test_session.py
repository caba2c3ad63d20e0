"""The session engine and the log: every entry checked, refusals change nothing, verify finds cheats."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, ClassVar

import pytest

from fairdeal.core.errors import IllegalMove, RemoteProtocolError
from fairdeal.core.rules import Move
from fairdeal.core.session import DamagedEntry, HostCheated
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.logfile import MAGIC, parse_log, record
from fairdeal.core.session.session import MOVE, Session
from fairdeal.core.session.verify import CHEATING, DAMAGED, FAIR, UNDECIDED, verify_log
from fairdeal.testing import play_with_protocol


def resolver(game: Any) -> Any:
    def resolve(name: str) -> Any:
        assert name == game.name
        return game

    return resolve


@pytest.fixture(scope="module")
def two_player(eights: Any) -> Any:
    return play_with_protocol(eights, 2, seed=11)


def entry_offsets(log: bytes) -> list[tuple[int, int]]:
    pos, out = len(MAGIC), []
    for e in parse_log(log).entries:
        out.append((pos + 4, pos + 4 + len(e)))
        pos += 4 + len(e)
    return out


def test_full_game_every_seat_agrees_and_log_verifies(eights: Any, two_player: Any) -> None:
    sessions = [o.session for o in two_player.outcomes]
    assert all(s.phase == "done" for s in sessions)
    assert len({s.result for s in sessions}) == 1
    assert all(s.verdict is not None and s.verdict.fair for s in sessions)
    report = verify_log(two_player.log, resolver(eights))
    assert report.verdict == FAIR, report.findings
    assert report.result == sessions[0].result
    assert report.exit_code == 0


def test_three_player_game_verifies(eights: Any) -> None:
    game = play_with_protocol(eights, 3, seed=4)
    assert verify_log(game.log, resolver(eights)).verdict == FAIR


def test_same_seed_gives_byte_identical_logs(eights: Any, two_player: Any) -> None:
    assert play_with_protocol(eights, 2, seed=11).log == two_player.log
    assert play_with_protocol(eights, 2, seed=12).log != two_player.log


def identity(seat: int) -> Any:
    """Seat ``seat``'s identity in ``two_player`` (as play_with_protocol made it)."""
    from fairdeal.core.identity import Identity
    from fairdeal.core.rng import SeededRng

    return Identity.generate(SeededRng(11).fork(f"identity-{seat}"))


def written(at: Session, seat: int, kind: str, body: Any, *, author: Any = None) -> bytes:
    """An entry of ``kind`` by ``seat`` (signed by ``author``, default its own identity) answering
    where ``seat`` owes in ``at``, placed by the host at the end of ``at``'s log."""
    from fairdeal.core.session.envelope import FORMAT_VERSION, Envelope

    env = Envelope(FORMAT_VERSION, at.header.game_id, seat, kind, body, *at.point(seat))
    signed = env.signed(author or identity(seat))
    return signed.place(at.seq, at.last_hash, identity(0), at.header.game_id).encode()


def test_flipping_any_byte_of_any_entry_is_found_and_blames_nobody(eights: Any, two_player: Any) -> None:
    """Every byte of an entry is covered by the host's placement signature: a flipped one makes
    the log damaged at that entry, and no seat is named (no signature says who flipped it)."""
    log = two_player.log
    offsets = entry_offsets(log)
    rng = random.Random(3)
    for _ in range(120):
        index = rng.randrange(len(offsets))
        start, end = offsets[index]
        pos = rng.randrange(start, end)
        damaged = bytearray(log)
        damaged[pos] ^= 1 << rng.randrange(8)
        report = verify_log(bytes(damaged), resolver(eights))
        assert report.verdict == DAMAGED and report.exit_code == 1
        assert report.findings[0].entry == index, (index, pos, report.findings)
        assert report.findings[0].seat is None


def test_a_log_torn_in_its_last_end_is_decided_and_says_what_is_missing(eights: Any, two_player: Any) -> None:
    log = two_player.log
    report = verify_log(log[: int(len(log) * 0.999)], resolver(eights))
    assert report.verdict == FAIR and report.exit_code == 0
    assert "did not sign the end" in report.checked[-2] and "cut short" in report.checked[-1]


@pytest.mark.parametrize("fraction", [0.1, 0.5, 0.9])
def test_a_cut_log_is_undecided_and_checked_up_to_the_cut(
    eights: Any, two_player: Any, fraction: float
) -> None:
    log = two_player.log
    cut = int(len(log) * fraction)
    report = verify_log(log[:cut], resolver(eights))
    assert report.verdict == UNDECIDED and report.exit_code == 2
    whole = len(parse_log(log[:cut]).entries)
    assert report.entries == whole
    assert "cut short" in report.findings[0].reason
    # Damage before the cut is still found: the entries before it were all checked.
    start, end = entry_offsets(log)[whole // 2]
    damaged = bytearray(log[:cut])
    damaged[(start + end) // 2] ^= 0x40
    assert verify_log(bytes(damaged), resolver(eights)).verdict == DAMAGED


def test_refused_entries_leave_the_session_unchanged(eights: Any, two_player: Any) -> None:
    entries = parse_log(two_player.log).entries
    watcher = Session(eights, None)
    for e in entries[:20]:
        watcher.receive(e)
    seq = watcher.seq
    with pytest.raises(DamagedEntry, match="out of place"):
        watcher.receive(entries[19])  # a replay
    with pytest.raises(DamagedEntry, match="out of place"):
        watcher.receive(entries[21])  # out of order
    forged = bytearray(entries[20])
    forged[-3] ^= 1  # inside the host's placement signature
    with pytest.raises(DamagedEntry, match="not placed by the host") as damaged:
        watcher.receive(bytes(forged))
    assert damaged.value.seat is None
    # The host placed what its author did not sign: the host's signature says so, not the author's.
    env = decode_envelope(entries[20])
    author = env.seat
    bad = replace(env, sig=bytes(64)).place(env.seq, env.prev, identity(0)).encode()
    with pytest.raises(HostCheated, match=f"an entry that seat {author} did not sign") as err:
        watcher.receive(bad)
    assert err.value.seat == 0 and err.value.evidence == (bad,)
    with pytest.raises(DamagedEntry, match="not msgpack"):
        watcher.receive(b"\xc1garbage")
    assert watcher.seq == seq
    for e in entries[20:]:
        watcher.receive(e)
    assert watcher.phase == "done" and watcher.verdict is not None and watcher.verdict.fair


def test_an_entry_signed_by_the_wrong_seat_is_refused(eights: Any, two_player: Any) -> None:
    entries = parse_log(two_player.log).entries
    s1 = two_player.outcomes[1].session
    watcher = Session(eights, None)
    watcher.receive(entries[0])
    # Seat 1 writes an entry claiming to be seat 0; the host (seat 0 itself) places it.
    env = decode_envelope(entries[1])
    fake = written(watcher, 0, env.kind, env.body, author=s1.identity)
    with pytest.raises(HostCheated, match="an entry that seat 0 did not sign"):
        watcher.receive(fake)
    # The host places nothing a seat did not sign: it refuses it, naming the connection's seat.
    host = Session(eights, 0, identity(0))
    host.receive(entries[0])
    unplaced = replace(decode_envelope(fake), seq=0, prev=bytes(32), placed=bytes(64)).encode()
    with pytest.raises(RemoteProtocolError, match="in the name of seat 0") as err:
        host.place(unplaced, 1)
    assert err.value.seat == 1


@pytest.mark.parametrize("rules", ["sound", "fragile", "careless"])
@pytest.mark.parametrize("args", [("x",), (10**9,), (-1,), (), (1, 2, 3, "many")])
def test_a_hostile_move_is_refused_not_a_crash(
    eights: Any, two_player: Any, args: tuple[Any, ...], rules: str
) -> None:
    """Refused with the mover blamed, whether the rules say no, choke on the move (``fragile``)
    or let it through to a table that refuses it (``careless``)."""

    class Fragile(type(eights)):  # type: ignore[misc]
        def is_legal(self, state: Any, player: int, move: Move) -> bool:
            int(move.args[0])  # raises on a string or on no arguments
            return bool(super().is_legal(state, player, move))

    class Careless(type(eights)):  # type: ignore[misc]
        def is_legal(self, state: Any, player: int, move: Move) -> bool:
            return move.action == "play" and len(move.args) == 1 and isinstance(move.args[0], int)

    entries = parse_log(two_player.log).entries
    watcher = Session({"sound": eights, "fragile": Fragile(), "careless": Careless()}[rules], None)
    i = 0
    while True:  # up to the first decision
        watcher.receive(entries[i])
        i += 1
        w = watcher.waiting()
        if w is not None and w.decision:
            break
    entry = written(watcher, w.seat, MOVE, {"move": ["play", list(args)], "shares": None})
    seq = watcher.seq
    with pytest.raises(RemoteProtocolError) as err:
        watcher.receive(entry)
    assert err.value.seat == w.seat
    assert watcher.seq == seq
    watcher.receive(entries[i])  # the real move still goes through


def test_waiting_says_who_owes_what(eights: Any, two_player: Any) -> None:
    entries = parse_log(two_player.log).entries
    watcher = Session(eights, None)
    w = watcher.waiting()
    assert w is not None and w.seat == 0 and "header" in w.what
    watcher.receive(entries[0])
    w = watcher.waiting()
    assert w is not None and w.seat == 0 and "key" in w.what
    watcher.receive(entries[1])
    w = watcher.waiting()
    assert w is not None and w.seat == 1


def test_local_move_checks(eights: Any, two_player: Any) -> None:
    s = two_player.outcomes[0].session
    with pytest.raises(IllegalMove):
        s.make_move(Move("draw"))  # the game is over
    with pytest.raises(IllegalMove):
        s.resign()


class Cheater(Session):
    """A client that draws instead of playing a card it holds (others cannot see its hand)."""

    cheats: ClassVar[list[int]] = []

    def make_move(self, move: Move) -> bytes:
        view = self.view()
        assert view is not None
        if move.action in ("play", "eight") and view.table.size("stock") > 0:
            Cheater.cheats.append(self.seq)
            return self._envelope(MOVE, {"move": Move("draw").to_wire(), "shares": None})
        return super().make_move(move)


def test_a_cheating_client_is_named_by_verify(eights: Any) -> None:
    class Lenient(type(eights)):  # type: ignore[misc]
        """The cheater's own copy of the rules lets it pass its own illegal moves."""

        def is_legal(self, state: Any, player: int, move: Move) -> bool:
            return True

    def make(game: Any, seat: int, identity: Any, rng: Any) -> Session:
        if seat == 1:
            return Cheater(Lenient(), seat, identity, rng)
        return Session(game, seat, identity, rng)

    Cheater.cheats = []
    game = play_with_protocol(eights, 2, seed=5, make_session=make)
    assert Cheater.cheats, "the cheater never had the chance"
    # Unseen at the table, but the honest seat finds it at the end, as verify does.
    honest = game.outcomes[0].session.verdict
    assert honest is not None and not honest.fair
    (live,) = honest.findings
    assert live.seat == 1 and live.entry == Cheater.cheats[0] and "illegal move" in live.reason
    report = verify_log(game.log, resolver(eights))
    assert report.verdict == CHEATING
    (finding,) = report.findings
    assert finding.seat == 1 and finding.entry == Cheater.cheats[0]
    assert "illegal move" in finding.reason


def test_log_records_roundtrip() -> None:
    data = MAGIC + record(b"abc") + record(b"de")
    assert parse_log(data).entries == (b"abc", b"de")
    assert parse_log(data[:-1]).problem.startswith("the log is cut short")
    assert parse_log(b"nope").problem.startswith("not a fairdeal log")
