"""The class of bug behind an early end-of-game opening: a seat accepts only the entry that is owed.

Every built-in game is played to its end by bots, one session per seat plus a silent
observer. At every point of the game, before the owed entry goes out, every seat in
turn plays the attacker: it builds every entry kind it can from its own state —
well formed, correctly signed, with the right sequence number and previous hash —
that is not the one owed (every kind, for a seat that owes nothing). Each is sent to
every other session, and each must be refused with the attacker named, leaving the
session exactly as it was: same position, same obligation, and the same bytes it
would send next. The honest entry then goes on, and the game ends fair for everyone.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from fairdeal import registry
from fairdeal.core.deck import ShuffleProof
from fairdeal.core.deck import _group as g
from fairdeal.core.deck import _shuffle_proof as sp
from fairdeal.core.deck._reveals import share_context
from fairdeal.core.deck._wire import (
    KIND_FINAL,
    KIND_KEY,
    KIND_LEAVE,
    KIND_RANDOM_COMMIT,
    KIND_RANDOM_REVEAL,
    KIND_SHARES,
    KIND_SHUFFLE,
)
from fairdeal.core.errors import RemoteProtocolError
from fairdeal.core.rules import Move
from fairdeal.core.session.envelope import FORMAT_VERSION, Envelope
from fairdeal.core.session.session import ABORT, END, HEADER, MOVE, RESIGN, Session
from fairdeal.testing import seat_sessions

KINDS = (
    HEADER,
    KIND_KEY,
    KIND_SHUFFLE,
    KIND_SHARES,
    KIND_RANDOM_COMMIT,
    KIND_RANDOM_REVEAL,
    KIND_LEAVE,
    KIND_FINAL,
    MOVE,
    RESIGN,
    END,
    ABORT,
)


class Forger:
    """Builds a well-formed body of any entry kind for one seat, from that seat's own state."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._passes: dict[tuple[int, int], dict[str, Any]] = {}
        self._shares: dict[tuple[int, bool], list[Any]] = {}

    def body(self, kind: str) -> Any:
        s = self.session
        deck = s.deck
        me = deck.ctx.need_me()
        if kind == HEADER:
            return s.header.to_body()
        if kind == KIND_KEY:  # built by hand: a seat that has left may still try
            e, z = g.schnorr_prove(deck.game_id, me.seat, deck.players, me.x, me.public, me.seed)
            return {"public": me.public, "e": e, "z": z}
        if kind == KIND_SHUFFLE:
            return self._pass()
        if kind == KIND_SHARES:
            return {"shares": [self._share(mine=False)]}
        if kind == KIND_RANDOM_COMMIT:
            index = len(deck._random.results)
            n = deck._random.choice.n if deck._random.choice is not None else 2
            value = deck._random.value(me, index)
            return {
                "index": index,
                "n": n,
                "commitment": g.digest(g.TAG_RANDOM_COMMIT, deck.game_id, me.seat, index, n, value),
            }
        if kind == KIND_RANDOM_REVEAL:
            index = len(deck._random.results)
            return {"index": index, "value": deck._random.value(me, index)}
        if kind == KIND_LEAVE:
            return {"secret": me.x}
        if kind == KIND_FINAL:  # what its final reveal would be: its private cards, opened to all
            return {"shares": [self._share(mine=True)]}
        if kind == MOVE:
            return {"move": self._move().to_wire(), "shares": None}
        if kind == RESIGN:
            return {}
        if kind == END:  # the end of the game as this seat sees it now
            r = s.result
            scores = list(r.scores) if r else [0] * s.header.players
            return {"winner": r.winner if r else None, "scores": scores, "reason": "over"}
        assert kind == ABORT
        return {"blame": None, "reason": "forged"}

    def _pass(self) -> dict[str, Any]:
        deck = self.session.deck
        me = deck.ctx.need_me()
        shuffles = deck._deck
        rnd = shuffles.current() or (shuffles.rounds[-1] if shuffles.rounds else None)
        joint = deck._keys.joint
        if rnd is None or joint is None:  # no deck yet: a well-formed pass all the same
            point = g.base(g.hash_scalar(b"test", 1))
            scalar = g.hash_scalar(b"test", 2)
            proof = ShuffleProof(
                (point,) * 32, (point,) * 32, scalar, *(scalar,) * 4, (scalar,) * 32, (scalar,) * 32
            )
            return {"round": 0, "deck": [point + point] * 32, "proof": sp.encode_proof(proof)}
        k = len(rnd.passes) if not rnd.done else 0
        key = (rnd.index, k)
        if key not in self._passes:
            perm, scalars, seed = shuffles.secrets(me, rnd, k)
            out = shuffles.apply(rnd, k, perm, scalars, joint)
            ctx = sp.proof_context(deck.game_id, me.seat, rnd.index, k)
            proof = sp.prove_shuffle(ctx, joint, shuffles._input(rnd, k), out, perm, scalars, seed)
            self._passes[key] = {"round": rnd.index, "deck": list(out), "proof": sp.encode_proof(proof)}
        return self._passes[key]

    def _share(self, mine: bool) -> list[Any]:
        """A public share with its proof: of a card this seat saw alone (``mine``), or of another."""
        deck = self.session.deck
        me = deck.ctx.need_me()
        private = [
            t
            for t in deck.final_tokens()
            if deck.card(t) is not None and (t, me.seat) not in deck._reveals.shares
        ]
        live = [t for t in deck.live_tokens() if (t, me.seat) not in deck._reveals.shares]
        pool = private if mine and private else live
        token = pool[0] if pool else 0
        if (token, mine) not in self._shares:
            ct = deck._deck.cts.get(token) or (g.base(g.hash_scalar(b"test", 2)) * 2)
            share = g.mul(me.x, ct[:33])
            ctx = share_context(deck.game_id, me.seat, token, ct, None)
            e, z = g.dleq_prove(ctx, me.x, me.public, ct[:33], share, me.seed)
            self._shares[(token, mine)] = [token, None, share, e, z]
        return self._shares[(token, mine)]

    def _move(self) -> Move:
        view = self.session.view()
        if view is not None:
            try:
                moves = list(self.session.game.legal_moves(view, self.session.seat))
            except Exception:
                moves = []
            if moves:
                return moves[0]
        return Move("pass")


def _forge(session: Session, forger: Forger, kind: str, host: Session) -> bytes:
    """An entry of ``kind`` signed by ``session``'s seat, answering where it owes now (or the last
    entry), placed by the host at the end of the log: well formed, signed and placed."""
    assert session.seat is not None and session.identity is not None and host.identity is not None
    game_id = session.header.game_id
    env = Envelope(
        FORMAT_VERSION, game_id, session.seat, kind, forger.body(kind), *session.point(session.seat)
    )
    return env.signed(session.identity).place(host.seq, host.last_hash, host.identity, game_id).encode()


def _snapshot(s: Session) -> tuple[Any, ...]:
    return (s.seq, s.phase, s.waiting(), s.due(), len(s.script), s.departed)


GAMES = [
    ("ecarte", 2, {"target": 1}),
    ("spite-malice", 2, {"target": 1, "max_games": 1}),
    ("snatch", 3, {}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_every_entry_that_is_not_owed_is_refused_at_every_point(
    name: str, players: int, options: dict[str, object]
) -> None:
    reg = registry.load()
    game = reg.game(name)
    table = seat_sessions(game, players, 3, options)
    header, seats = table.header, table.sessions
    watcher = Session(game, None)
    everyone = [*seats, watcher]
    forgers = [Forger(s) for s in seats]
    bots = [reg.bot(name).make() for _ in range(players)]
    rng = random.Random(3)
    tried = refused = 0
    data = seats[0].start(header)
    for step in range(5000):
        for s in everyone:
            s.receive(data)
        w = seats[0].waiting()
        if w is None:
            break
        # Every seat in turn attacks every other session with what is not owed.
        before = [_snapshot(s) for s in everyone]
        owing = {o.seat: o.kinds for o in seats[0].owing()}  # one seat, or several at once
        for attacker in seats:
            for kind in KINDS:
                if kind in owing.get(attacker.seat, ()):
                    continue
                if attacker.seat == 0 and kind == ABORT:
                    continue  # the host may end the game at any point: that is not an attack
                forged = _forge(attacker, forgers[attacker.seat], kind, seats[0])
                for victim in everyone:
                    if victim is attacker:
                        continue
                    tried += 1
                    with pytest.raises(RemoteProtocolError) as info:
                        victim.receive(forged)
                    assert info.value.seat == attacker.seat, (step, kind, attacker.seat, info.value)
                    refused += 1
        assert [_snapshot(s) for s in everyone] == before, f"a refused entry changed a session at {step}"
        owner = seats[w.seat]
        if w.decision:
            view = owner.view()
            assert view is not None
            move = bots[w.seat].choose(game, view, w.seat, owner.legal_moves(), rng)
            data = owner.make_move(move)
        else:
            due = owner.due()
            assert due is not None
            data = due
        if w.seat != 0:
            data = seats[0].place(data, w.seat)
    else:
        raise AssertionError("the game did not end")
    # every seat attacked every other session with about every kind, at every entry of the game
    assert tried == refused >= step * players * (players - 1) * (len(KINDS) - 3)
    for s in everyone:
        assert s.finished and s.verdict is not None and s.verdict.fair, s.verdict
