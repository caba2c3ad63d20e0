"""The end of a game as the host's driver runs it: a game that ends on the host's own move."""

from __future__ import annotations

from fairdeal import registry
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.core.session.logfile import parse_log
from fairdeal.core.session.session import Session
from fairdeal.core.session.verify import FAIR, verify_log
from fairdeal.net.driver import stalled
from fairdeal.testing import play_with_protocol

from .ending import check_clean_end


def test_a_game_the_hosts_own_move_ends_is_not_aborted_by_its_guests_leaving() -> None:
    """While the host's player decides, the host listens to its guests; when that move ends the
    game, the guests sign its end and close their links at once, and what the host heard meanwhile
    must not abort a game that is over (it did: "abort after the end of the game")."""
    reg = registry.load()
    played = play_with_protocol(reg.game("snatch"), 4, 10, {}, [reg.bot("snatch").make() for _ in range(4)])
    entries = [decode_envelope(e) for e in parse_log(played.log).entries]
    last = [e for e in entries if e.kind != "end"][-1]
    assert (last.seat, last.kind) == (0, "move")  # this seed's game ends on the host's move (then the ends)
    assert all(o.error is None and o.session.finished and o.session.aborted is None for o in played.outcomes)
    assert verify_log(played.log, reg.game).verdict == FAIR


def test_a_game_every_seat_left_ends_cleanly() -> None:
    """Snatch! takes out every seat of this four-seat game at once (each paid with its whole pile):
    every seat leaves, the final reveal is complete, and nobody is left to sign the end. The host's
    driver looked for the first seat owing (there was none) and crashed; the game is over there."""
    reg = registry.load()
    game = reg.game("snatch")
    played = play_with_protocol(game, 4, 7)
    assert played.session.departed == frozenset(range(4))
    check_clean_end(played, game)


class NothingOwed(Session):
    """A session that says, once every seat has left, that nothing is owed and the game is not over
    (as the session said before it ended such a game): no entry, not even an abort, can follow."""

    @property
    def finished(self) -> bool:
        return super().finished and len(self.departed) < self.header.players


def test_the_drivers_stop_cleanly_where_the_session_says_nobody_may_write() -> None:
    """Whatever the session says when no seat owes anything, the drivers neither crash nor wait for
    ever: the host hangs up every link and every seat stops, saying why, with the same log."""
    reg = registry.load()
    game = reg.game("snatch")
    played = play_with_protocol(game, 4, 7, make_session=NothingOwed)
    host = played.session
    assert host.owing() == () and not host.finished
    assert "nobody is left to sign" in stalled(host)
    for o in played.outcomes:
        assert o.error == stalled(o.session)
        assert (o.session.seq, o.session.last_hash) == (host.seq, host.last_hash)
    assert verify_log(played.log, reg.game).verdict == FAIR  # the log holds the whole game
