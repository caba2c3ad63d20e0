"""The session engine: one seat's sans-I/O view of a game whose log is the game.

A :class:`Session` consumes log entries (signed envelopes, already put in order by
the host) and tells its front end what happened and what it owes. At every point
exactly one seat may append the next entry: the deck protocol's obligations
(keys, proven shuffle passes, decryption shares, random-choice commitments and
reveals, the final reveal) in seat order, or the move of the seat whose turn it is. The session
builds its own obligations by itself (:meth:`Session.due`); the front end only
makes the local player's decisions (:meth:`Session.make_move`).

Every entry is checked — format, game id, sequence number, previous hash, the
sender's signature, whose turn it is, every proof, the move's legality as far as
this seat can see — on a copy of the state; a refused entry raises
:class:`~fairdeal.core.errors.RemoteProtocolError` naming the seat and leaves
the session unchanged.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .._msgpack import pack
from ..cards import Card
from ..dealer import Reveal, Verdict
from ..deck import CheckedProofs, DeckSeat, Shares
from ..deck import decode as decode_deck
from ..deck import encode as encode_deck
from ..errors import ConfigError, IllegalMove, LocalProtocolError, RemoteProtocolError
from ..identity import Identity
from ..replica import NeedReveals, NeedShuffle, Replica
from ..rng import Rng, SystemRng
from ..rules import Auto, Chance, Decide, Find, Game, GameState, Move, Over, Result
from ..table import ShuffleRequest
from ..text import MAX_REASON, clean_text, shows_as_is
from ._chain import Chain
from ._knowledge import REPLAYED, knowing_every_card
from .envelope import FORMAT_VERSION, GENESIS, Envelope, decode_envelope
from .events import Aborted, Audited, EntryAccepted, Event, GameOver, MoveMade, Waiting
from .faults import AlteredEntry, DamagedEntry, HostCheated
from .header import HEADER, HOST, Header

MOVE = "move"
RESIGN = "resign"
ABORT = "abort"
END = "end"

DECISIONS = frozenset({MOVE, RESIGN})


@dataclass
class _Core:
    """The part of a session that entries change; copied to apply an entry atomically."""

    seq: int = 0
    last_hash: bytes = GENESIS
    header: Header | None = None
    deck: DeckSeat | None = None
    replica: Replica[Any] | None = None
    phase: str = "header"  # header, keys, shuffle, play, audit, end, done, aborted
    # ("reveal", reveals) | ("shuffle", request) | ("random", n) | ("leave", seat) |
    # ("find", (step, candidates, claims: ((seat, entry), ...)))
    activity: Any = None
    departed: frozenset[int] = frozenset()
    ended: frozenset[int] = frozenset()  # the seats whose end of the game is in the log
    result: Result | None = None
    verdict: Verdict | None = None
    abort: Aborted | None = None
    moves: int = 0
    script: list[tuple[Any, ...]] = field(default_factory=list)  # what this entry did to the game
    # What may come next, and for each of it the anchor its entry must carry: the hash of the
    # entry after which it became owed (see envelope.py).
    owed: tuple[Waiting, ...] = ()
    anchors: dict[int, int] = field(default_factory=dict)  # by seat: the sequence number of the entry

    def fork(self) -> _Core:
        c = copy.copy(self)
        c.deck = self.deck.copy() if self.deck is not None else None
        c.replica = self.replica.copy() if self.replica is not None else None
        c.script = []
        c.anchors = dict(self.anchors)
        return c

    def note(self, *item: Any) -> None:
        self.script.append(item)


class Session:
    """One seat's session (``seat=None``: a silent observer that checks everything)."""

    def __init__(
        self,
        game: Game[Any],
        seat: int | None,
        identity: Identity | None = None,
        rng: Rng | None = None,
        checked: CheckedProofs | None = None,
    ) -> None:
        """``checked``: the proofs and signatures other seats of this process checked (local play only)."""
        if (seat is None) != (identity is None):
            raise LocalProtocolError("a seat needs an identity; an observer has none")
        self.game = game
        self.seat = seat
        self.identity = identity
        self._rng = rng or SystemRng()
        self._checked = checked
        self._c = _Core()
        self._outstanding: bytes | None = None  # our entry, sent to the host, not yet relayed back
        #: (seat, anchor) -> (sequence number, what it signed) of every accepted entry: an abort's
        #: evidence of equivocation is checked against them.
        self._written: dict[tuple[int, bytes], tuple[int, bytes]] = {}
        #: The hash and the host's placement signature of every accepted entry, and the checks of the next.
        self._chain = Chain(checked)
        #: (seat, sequence number) -> the kinds of entry ``seat`` owed answering that entry: an entry
        #: its author wrote where it was owed, placed elsewhere, is the host's doing (docs/protocol.md 8.4).
        self._owed_at: dict[tuple[int, int], frozenset[str]] = {}
        #: The entry that ended the log (an abort, or the last end), once there is one.
        self._ended_at: int | None = None
        #: Every step the game took, for the replay with full knowledge at the end:
        #: ("start", tokens), ("learn", reveals), ("shuffled", request, fresh),
        #: ("move", seat, move, shown, entry), ("auto",), ("chance", value),
        #: ("found", card, holder, candidates, claims).
        self.script: list[tuple[Any, ...]] = []

    # -- reading ----------------------------------------------------------------------------------
    @property
    def header(self) -> Header:
        if self._c.header is None:
            raise LocalProtocolError("no header yet")
        return self._c.header

    @property
    def seq(self) -> int:
        """The number of entries accepted so far."""
        return self._c.seq

    @property
    def phase(self) -> str:
        return self._c.phase

    @property
    def result(self) -> Result | None:
        return self._c.result

    @property
    def verdict(self) -> Verdict | None:
        return self._c.verdict

    @property
    def aborted(self) -> Aborted | None:
        return self._c.abort

    @property
    def finished(self) -> bool:
        return self._c.phase in ("done", "aborted")

    @property
    def departed(self) -> frozenset[int]:
        return self._c.departed

    @property
    def signed_end(self) -> frozenset[int]:
        """The seats whose signed end of the game (their result) is in the log."""
        return self._c.ended

    @property
    def deck(self) -> DeckSeat:
        if self._c.deck is None:
            raise LocalProtocolError("no deck yet")
        return self._c.deck

    def revealing(self) -> tuple[Reveal, ...]:
        """The reveals under way: cards being opened, which every seat they open to learns once
        all the shares and hand-overs of the batch are in; from the end of the game on, the final
        reveal's (every card some seat saw, opened to all; no view learns them)."""
        c = self._c
        if c.deck is not None and c.deck.final_reveal_begun:
            return tuple(Reveal(t, None) for t in c.deck.final_tokens())
        if c.activity is not None and c.activity[0] == "find" and c.deck is not None:
            shown = c.deck.shown()
            return () if shown is None else (Reveal(shown[1], None),)
        return tuple(c.activity[1]) if c.activity is not None and c.activity[0] == "reveal" else ()

    def view(self) -> GameState | None:
        """This seat's view of the game (a copy), or None before the deal."""
        r = self._c.replica
        return r.state.copy() if r is not None else None

    def name(self, seat: int) -> str:
        """Seat ``seat``'s name as people read it (two equal names told apart)."""
        return self.header.names[seat]

    def waiting(self) -> Waiting | None:
        """Who owes the next entry (the first, when several seats owe at once); None when finished."""
        owed = self._c.owed if self._c.seq else self._owed(self._c)
        return owed[0] if owed else None

    def owing(self) -> tuple[Waiting, ...]:
        """Every entry that may come next: one seat's, or several seats' written at once."""
        return self._c.owed if self._c.seq else self._owed(self._c)

    def _owed(self, c: _Core) -> tuple[Waiting, ...]:
        """What may come next, by this seat's own state (empty: the game is over).

        Every entry but the host's ``abort`` must meet one of these: its seat and one of its
        kinds. Nothing a peer sends can make a seat owe, or accept, anything else. Several
        seats owe at once when their entries do not depend on one another (keys, the shares
        of one reveal, random commitments, then reveals, the final reveal).
        """
        if c.phase == "header":
            return (Waiting(HOST, "the game header", kinds=frozenset({HEADER})),)
        if c.phase in ("done", "aborted"):
            return ()
        if c.phase == END:
            assert c.header is not None
            owing = [s for s in range(c.header.players) if s not in c.departed | c.ended]
            return tuple(Waiting(s, "its signed result", kinds=frozenset({END})) for s in owing)
        assert c.deck is not None
        acceptable = c.deck.acceptable()
        if acceptable:
            return tuple(Waiting(o.seat, o.what, kinds=frozenset({o.kind})) for o in acceptable)
        assert c.phase == "play" and c.activity is None and c.replica is not None
        step = self.game.next_step(c.replica.state)
        assert isinstance(step, Decide)
        return (Waiting(step.player, f"{self.name(step.player)} to move", True, DECISIONS),)

    def _mine(self) -> Waiting | None:
        """What this seat owes now, if anything."""
        return next((w for w in self.owing() if w.seat == self.seat), None)

    def legal_moves(self) -> list[Move]:
        """The local player's legal moves, if it is its turn to decide."""
        w = self._mine()
        if w is None or not w.decision or self._c.replica is None:
            return []
        return list(self.game.legal_moves(self._c.replica.state, w.seat))

    # -- writing ----------------------------------------------------------------------------------
    def _envelope(self, kind: str, body: Any) -> bytes:
        """An entry of this seat's at the end of the log as this seat knows it (the host may
        place it later, after entries others wrote at the same time: the anchor holds)."""
        if self.seat is None or self.identity is None:
            raise LocalProtocolError("an observer cannot send")
        c = self._c
        game_id = self.header.game_id
        point = self.point(None if kind == ABORT else self.seat)
        env = Envelope(FORMAT_VERSION, game_id, self.seat, kind, body, *point).signed(self.identity)
        if self.seat == HOST:  # the host writes at the end of its own log
            env = env.place(c.seq, c.last_hash, self.identity, game_id)
        return env.encode()

    def start(self, header: Header) -> bytes:
        """The host (seat 0) writes the header, the log's first entry."""
        if self.seat != HOST or self._c.seq != 0:
            raise LocalProtocolError("only the host writes the header, first")
        if self.identity is None or header.seats[HOST].identity != self.identity.public_key:
            raise LocalProtocolError("the host must sit in seat 0 with its own identity")
        env = Envelope(FORMAT_VERSION, header.game_id, HOST, HEADER, header.to_body()).signed(self.identity)
        return env.place(0, GENESIS, self.identity).encode()

    def place(self, data: bytes, seat: int) -> bytes:
        """The host puts ``data``, an entry that came on ``seat``'s connection, at the end of its log,
        with its placement signature. Raises RemoteProtocolError (for that seat) when it is not an
        entry signed by ``seat`` for this game; whether it is owed there, :meth:`receive` says."""
        if self.seat != HOST or self.identity is None or self._c.header is None:
            raise LocalProtocolError("only the host places entries, once the header is written")
        header = self._c.header
        try:
            env = decode_envelope(data)
        except RemoteProtocolError as exc:
            raise RemoteProtocolError(exc.reason, seat=seat) from None
        if env.seat != seat:
            raise RemoteProtocolError(f"sent an entry in the name of seat {env.seat}", seat=seat)
        if env.game_id != header.game_id:
            raise RemoteProtocolError("entry for another game", seat=seat)
        if not 0 < seat < header.players or not self._chain.signed_by(header.seats[seat].identity, env):
            raise RemoteProtocolError(f"bad signature: the entry is not signed by seat {seat}", seat=seat)
        return env.place(self._c.seq, self._c.last_hash, self.identity, header.game_id).encode()

    def due(self) -> bytes | None:
        """The entry this seat owes now and builds by itself (not a decision), if any."""
        w = self._mine()
        if w is None or w.decision:
            return None
        if END in w.kinds:
            return self._envelope(END, self._end_body(self._c))
        assert self._c.deck is not None
        msg = self._c.deck.due_message()
        if msg is None:
            return None
        kind, body = encode_deck(msg, self.header.protocol)
        return self._envelope(kind, body)

    def make_move(self, move: Move) -> bytes:
        """The local player's move as an entry, with the reveals of the cards it shows."""
        c = self._c
        w = self._mine()
        if w is None or not w.decision or c.replica is None or c.deck is None:
            raise IllegalMove("it is not your turn to move")
        c.replica.check_move(w.seat, move, remote=False)  # w.seat is this seat (an int, for mypy)
        try:  # what every peer will check of the move's words, named here as the game's fault
            Move.from_wire(move.to_wire())
        except RemoteProtocolError as e:
            why = f"the game made a move its peers would refuse ({e.reason}): {move!r}"
            raise LocalProtocolError(why) from None
        shown = c.replica.move_reveals(w.seat, move)
        shares = None
        if shown:
            trial = c.deck.copy()
            trial.request([Reveal(t, None) for t in shown])
            shares = encode_deck(trial.shares_message(shown), self.header.protocol)[1]
        return self._envelope(MOVE, {"move": move.to_wire(), "shares": shares})

    def resign(self) -> bytes:
        """Give up: allowed on this seat's own turn to decide."""
        w = self._mine()
        if w is None or not w.decision:
            raise IllegalMove("you can resign on your own turn")
        return self._envelope(RESIGN, {})

    def abort(self, blame: int | Sequence[int] | None, reason: str, evidence: bytes | None = None) -> bytes:
        """The host ends the game, blaming ``blame`` (a seat, several, or None) for ``reason``;
        ``evidence``: an entry the one blamed seat signed for a point where the log holds another."""
        if self.seat != HOST:
            raise LocalProtocolError("only the host records an abort")
        blamed = [] if blame is None else [blame] if isinstance(blame, int) else sorted(set(blame))
        body: dict[str, Any] = {"blame": blamed, "reason": clean_text(reason, MAX_REASON)}
        if evidence is not None:
            body["evidence"] = evidence
        return self._envelope(ABORT, body)

    def point(self, seat: int | None) -> tuple[int, bytes, bytes]:
        """The point of the log that ``seat``'s owed entry answers (None: the last entry, as an
        abort does): the entry's sequence number, hash and the host's placement signature of it."""
        at = self._c.seq - 1 if seat is None else self._c.anchors.get(seat, self._c.seq - 1)
        return at, self._chain.hashes[at], self._chain.placements[at]

    def anchor(self, seat: int) -> bytes:
        """The anchor ``seat``'s owed entry must carry: the hash of the entry that made it owed."""
        if not self._chain.hashes:
            return GENESIS
        return self._chain.hashes[self._c.anchors.get(seat, self._c.seq - 1)]

    @property
    def hashes(self) -> tuple[bytes, ...]:
        """The hash of every accepted entry, by sequence number."""
        return tuple(self._chain.hashes)

    @property
    def last_hash(self) -> bytes:
        """The hash of the last accepted entry (where the next one goes)."""
        return self._c.last_hash

    @property
    def awaiting_echo(self) -> bool:
        """Whether an entry this seat sent has not come back from the host yet."""
        return self._outstanding is not None

    def written_at(self, seat: int, anchor: bytes) -> int | None:
        """Where the log holds ``seat``'s entry answering ``anchor`` (its sequence number), if it does."""
        held = self._written.get((seat, anchor))
        return held[0] if held is not None else None

    # -- receiving --------------------------------------------------------------------------------
    def sent(self, data: bytes) -> None:
        """``data``, an entry this seat built, went to the host, which relays it back to everyone.

        Until it comes back, an entry in this seat's name must be it as written (the host
        places it: ``seq`` and ``prev`` may differ, nothing signed may); anything else
        raises :class:`AlteredEntry` and is not applied. Other seats' entries may come first.
        """
        self._outstanding = data

    @property
    def outstanding(self) -> bytes | None:
        """The entry this seat sent (:meth:`sent`) that has not come back yet, if any."""
        return self._outstanding

    def _check_echo(self, data: bytes, env: Envelope) -> None:
        mine = self._outstanding
        if mine is None or env.seat != self.seat or data == mine:
            return
        if not decode_envelope(mine).same_writing(env):
            raise AlteredEntry("the host altered your entry", mine, data)

    def receive(self, data: bytes, *, peer: str | None = None) -> list[Event]:
        """Check and apply the next log entry. Atomic: a refused entry changes nothing.

        Who is blamed for a refusal is what the signatures prove (see ``docs/protocol.md``, 8.3):
        :class:`DamagedEntry` (nobody: the host did not place this entry here),
        :class:`HostCheated` (the host's own placement signatures prove it), or a
        RemoteProtocolError naming the author of a correctly placed and signed entry.
        """
        try:
            env = decode_envelope(data, peer=peer)
        except RemoteProtocolError as exc:
            raise DamagedEntry(f"not an entry: {exc.reason}", peer=peer) from None
        self._check_echo(data, env)
        # These read the state only, so they run before the (costly) copy the rest works on.
        c = self._c
        header = self._chain.placement(c.header, c.seq, c.last_hash, env, data, peer)
        self._chain.author(header, env, data, peer)
        if c.header is not None and env.kind == HEADER:
            raise RemoteProtocolError("a second header", seat=env.seat)
        self._chain.anchor(c.header, header, env, data, peer)
        try:
            self._check_owed(self._c, env)
        except RemoteProtocolError:
            self._misplaced(env, data, peer)
            raise
        mine = env.seat == self.seat
        c = self._c.fork()
        events: list[Event] = []
        if env.kind == HEADER:
            self._on_header(c, header, env)
        elif env.kind == ABORT:
            self._on_abort(c, env, events)
        elif env.kind == RESIGN:
            self._on_resign(c, env, events)
        elif env.kind == MOVE:
            self._on_move(c, env, events)
        elif env.kind == END:
            self._on_end(c, env)
        else:
            self._on_deck(c, env)
        c.seq += 1
        c.last_hash = env.hash(header.game_id)
        events.insert(0, EntryAccepted(env.seq, env.seat, env.kind, data))
        self._settle(c, events)
        self._reanchor(c, env.seat)
        if c.script:
            self.script.extend(c.script)
            c.script = []
        self._c = c
        self._chain.accept(c.last_hash, env.placed)
        self._written[(env.seat, env.anchor)] = (env.seq, env.writing())
        for w in c.owed:
            key = (w.seat, c.anchors.get(w.seat, c.seq - 1))
            self._owed_at[key] = self._owed_at.get(key, frozenset()) | w.kinds
        if c.phase in ("done", "aborted") and self._ended_at is None:
            self._ended_at = env.seq
        if mine:
            self._outstanding = None
        return events

    def _misplaced(self, env: Envelope, data: bytes, peer: str | None) -> None:
        """Raise :class:`HostCheated` if ``env``, not owed where it sits, is an entry its author wrote
        honestly where it was owed — the log already holds it as written, it answers a point before
        the entry that ended the log, or its author owed an entry of its kind answering the very point
        it answers — so that only the host, which placed it here, can be to blame. (Another entry for
        a point where the log holds one of the author's is the author's equivocation, and stays the
        author's.)"""
        if env.seat == HOST or env.kind in (ABORT, HEADER):
            return
        held = self._written.get((env.seat, env.anchor))
        if held is not None:
            if held[1] == env.writing():
                raise HostCheated(
                    f"the host placed seat {env.seat}'s entry {held[0]} a second time, as entry {env.seq}",
                    (data,),
                    peer=peer,
                )
            return
        ended = self._ended_at
        if ended is not None and env.anchor_seq < ended:
            raise HostCheated(
                f"the host placed as entry {env.seq} seat {env.seat}'s {env.kind}, which answers entry "
                f"{env.anchor_seq}, after entry {ended} ended the game",
                (data,),
                peer=peer,
            )
        if env.kind in self._owed_at.get((env.seat, env.anchor_seq), ()):
            raise HostCheated(
                f"the host placed as entry {env.seq} seat {env.seat}'s {env.kind}, owed after entry "
                f"{env.anchor_seq}, where it is no longer owed",
                (data,),
                peer=peer,
            )

    def _reanchor(self, c: _Core, author: int) -> None:
        """Note what is owed after this entry and the anchor each must carry.

        An obligation that was owed before this entry and is still owed keeps its anchor,
        unless this entry's author is its seat (a seat owes one entry at a time, so what it
        owes now is new): concurrent entries all answer the entry that made them owed.
        """
        before = {w.seat: w for w in c.owed}
        owed = self._owed(c)
        anchors = {}
        for w in owed:
            kept = before.get(w.seat)
            same = kept is not None and kept.kinds == w.kinds and w.seat != author
            anchors[w.seat] = c.anchors[w.seat] if same and w.seat in c.anchors else c.seq - 1
        c.owed, c.anchors = owed, anchors

    def _check_owed(self, c: _Core, env: Envelope) -> None:
        """Refuse any entry but one that is owed now, answering the point it was owed at.

        The anchor is a point of this log (:meth:`Chain.anchor`), so the author saw this log up to
        there, and what it owes from there is what this seat's rules say: a refusal is the author's.
        The host's ``abort`` may come at any point of the game, answering the entry before it.
        """
        owed = c.owed if c.seq else self._owed(c)
        if not owed:
            raise RemoteProtocolError(f"{env.kind} after the end of the game", seat=env.seat)
        if env.kind == ABORT and c.header is not None:
            if env.anchor_seq != c.seq - 1:
                raise RemoteProtocolError("an abort must answer the entry before it", seat=env.seat)
            return  # _on_abort checks that it is the host's
        w = next((w for w in owed if w.seat == env.seat), None)
        if w is None:
            who = " and ".join(f"seat {x.seat}" for x in owed)
            raise RemoteProtocolError(
                f"{env.kind} out of turn: waiting on {who} for {owed[0].what}", seat=env.seat
            )
        if env.kind not in w.kinds:
            kinds = " or ".join(sorted(w.kinds))
            raise RemoteProtocolError(f"{env.kind} refused: this seat owes {w.what} ({kinds})", seat=env.seat)
        if c.seq and env.anchor_seq != c.anchors.get(env.seat, c.seq - 1):
            raise RemoteProtocolError(
                f"{env.kind} answers another point of the log than the one it is owed at", seat=env.seat
            )

    def _on_header(self, c: _Core, header: Header, env: Envelope) -> None:
        if header.game != self.game.name:
            raise RemoteProtocolError(f"the header is for {header.game}, not {self.game.name}", seat=HOST)
        try:
            self.game.exact_config(header.players, header.options)
        except ConfigError as exc:
            raise RemoteProtocolError(f"bad header: {exc}", seat=HOST) from None
        if self.seat is not None:
            if self.seat >= header.players:
                raise RemoteProtocolError(f"the header has no seat {self.seat}", seat=HOST)
            if self.identity is not None and header.seats[self.seat].identity != self.identity.public_key:
                raise RemoteProtocolError("the header gives this seat another identity", seat=HOST)
        c.header = header
        if self.seat is None:
            c.deck = DeckSeat.observer(header.game_id, header.players, header.protocol)
        else:
            rng = self._rng.fork(f"deck-{self.seat}")
            c.deck = DeckSeat(header.game_id, self.seat, header.players, rng, self._checked, header.protocol)
        c.phase = "keys"

    def _expect_turn(self, c: _Core, env: Envelope) -> Decide:
        if c.phase != "play" or c.activity is not None or c.replica is None:
            raise RemoteProtocolError(f"{env.kind} out of turn", seat=env.seat)
        step = self.game.next_step(c.replica.state)
        if not isinstance(step, Decide) or step.player != env.seat:
            raise RemoteProtocolError(f"{env.kind} out of turn", seat=env.seat)
        return step

    def _on_move(self, c: _Core, env: Envelope, events: list[Event]) -> None:
        self._expect_turn(c, env)
        body = env.body
        if not isinstance(body, dict) or list(body) != ["move", "shares"]:
            raise RemoteProtocolError("malformed move entry", seat=env.seat)
        move = Move.from_wire(body["move"], env.seat)
        assert c.replica is not None and c.deck is not None
        shown: list[int] = []
        if body["shares"] is not None:
            assert c.header is not None
            msg = decode_deck("deck.shares", env.seat, body["shares"], c.header.protocol)
            assert isinstance(msg, Shares)
            if msg.handovers:
                raise RemoteProtocolError("a move carries no hand-over", seat=env.seat)
            shown = [s.token for s in msg.shares]
            table = c.replica.table
            for t in shown:
                if table.opened_to(t) != env.seat or table.zone_of(t) is None:
                    raise RemoteProtocolError(
                        f"a move may reveal only the mover's own cards (token {t})", seat=env.seat
                    )
            reveals = [Reveal(t, None) for t in shown]
            c.deck.request(reveals)
            c.deck.receive(msg)
            if c.deck.waiting_on():
                raise RemoteProtocolError("the move's reveals are incomplete", seat=env.seat)
            self._learn(c, reveals)
        assert c.header is not None
        try:
            c.replica.check_move(env.seat, move)
            text = self.game.narrate(c.replica.state, env.seat, move, c.header.names[env.seat])
            c.replica.apply(env.seat, move, shown)
        except RemoteProtocolError:
            raise
        except Exception:  # the rules choked on what a peer sent: refuse it, never crash
            raise RemoteProtocolError(
                f"the rules of {self.game.name} cannot judge the move '{move}'", seat=env.seat
            ) from None
        for r in c.replica.table.requirements():
            if r.to is None and c.replica.table.opened_to(r.token) == env.seat:
                raise RemoteProtocolError(
                    f"the move shows card {r.token} without revealing it", seat=env.seat
                )
        c.moves += 1
        c.note("move", env.seat, move, tuple(shown), env.seq)
        events.append(MoveMade(env.seat, move, text))

    def _on_resign(self, c: _Core, env: Envelope, events: list[Event]) -> None:
        self._expect_turn(c, env)
        if env.body != {}:
            raise RemoteProtocolError("malformed resign entry", seat=env.seat)
        assert c.header is not None
        active = [s for s in range(c.header.players) if s != env.seat and s not in c.departed]
        winner = active[0] if len(active) == 1 else None
        reason = f"{c.header.seats[env.seat].name} resigned"
        self._end(c, Result(winner, self._scores_so_far(c), reason), events)

    def _scores_so_far(self, c: _Core) -> tuple[int, ...]:
        """The scores the table shows everyone now (public, so every seat finds the same), or zeros."""
        assert c.header is not None and c.replica is not None
        zeros = (0,) * c.header.players
        try:
            scores = self.game.table_view(c.replica.state, None).scores
        except Exception:  # a plugin's table must never stop a resignation
            return zeros
        ok = scores is not None and len(scores) == len(zeros) and all(type(x) is int for x in scores)
        return tuple(scores) if ok and scores is not None else zeros

    def _on_abort(self, c: _Core, env: Envelope, events: list[Event]) -> None:
        assert c.header is not None
        body = env.body
        if env.seat != HOST:
            raise RemoteProtocolError("only the host may record an abort", seat=env.seat)
        blame = body.get("blame") if isinstance(body, dict) else None
        if not (
            isinstance(body, dict)
            and list(body) in (["blame", "reason"], ["blame", "reason", "evidence"])
            and shows_as_is(body["reason"], MAX_REASON, empty=True)
            and isinstance(blame, list)
            and len(set(blame)) == len(blame)
            and all(type(x) is int and 0 <= x < c.header.players for x in blame)
        ):
            raise RemoteProtocolError("malformed abort entry", seat=env.seat)
        evidence = body.get("evidence")
        if "evidence" in body:
            self._check_equivocation(c, blame, evidence)
        c.abort = Aborted(tuple(blame), body["reason"], evidence)
        c.phase = "aborted"
        events.append(c.abort)

    def _check_equivocation(self, c: _Core, blamed: list[int], evidence: Any) -> None:
        """The abort's evidence must be an entry the one blamed seat signed, answering a point of this
        log where the log holds a different entry of its own: two signed entries for one obligation.
        Else the host blames without proof, and it is the host's entry that is refused."""
        assert c.header is not None

        def bad(why: str) -> RemoteProtocolError:
            return RemoteProtocolError(f"the abort's evidence {why}", seat=HOST)

        if len(blamed) != 1 or not isinstance(evidence, bytes):
            raise bad("must be an entry of the one blamed seat")
        blame = blamed[0]
        try:
            other = decode_envelope(evidence)
        except RemoteProtocolError:
            raise bad("is not an entry") from None
        if other.game_id != c.header.game_id or other.seat != blame:
            raise bad(f"is not an entry of seat {blame} in this game")
        if not other.verify(c.header.seats[blame].identity):
            raise bad(f"is not signed by seat {blame}")
        held = self._written.get((blame, other.anchor))
        if held is None:
            raise bad(f"answers no point of the log where seat {blame} wrote")
        if held[1] == other.writing():
            raise bad(f"does not differ from seat {blame}'s own entry {held[0]}")

    def _end_body(self, c: _Core) -> dict[str, Any]:
        """What every seat signs when the game is over: the result as its own rules found it."""
        r = c.result
        assert r is not None
        return {"winner": r.winner, "scores": list(r.scores), "reason": clean_text(r.reason, MAX_REASON)}

    def _on_end(self, c: _Core, env: Envelope) -> None:
        """A seat says the game is over, with its result: the very one this seat's rules found."""
        if pack(env.body) != pack(self._end_body(c)):  # exactly: true is not 1
            raise RemoteProtocolError(
                "its end of the game states another result than the rules", seat=env.seat
            )
        c.ended = c.ended | {env.seat}
        if not self._owed(c):
            c.phase = "done"

    def _on_deck(self, c: _Core, env: Envelope) -> None:
        assert c.deck is not None and c.header is not None
        c.deck.receive(decode_deck(env.kind, env.seat, env.body, c.header.protocol))  # checks it is owed
        if env.kind == "deck.find":  # which entry answered for which seat, for the check at the end
            step, candidates, claims = c.activity[1]
            c.activity = ("find", (step, candidates, (*claims, (env.seat, env.seq))))
        if env.kind == "deck.leave":
            c.departed = c.departed | {env.seat}

    # -- moving the game on -----------------------------------------------------------------------
    def _learn(self, c: _Core, reveals: Sequence[Reveal]) -> None:
        assert c.deck is not None and c.replica is not None
        cards: dict[int, Card] = {}
        for r in reveals:
            if r.to is None or r.to == self.seat:
                card = c.deck.card(r.token)
                if card is None and self.seat is not None:
                    raise RemoteProtocolError(f"card {r.token} does not decrypt to a card of the deck")
                if card is not None:
                    cards[r.token] = card
        c.replica.learn(reveals, cards)
        c.note("learn", tuple(reveals))

    def _settle(self, c: _Core, events: list[Event]) -> None:
        """Run the game forward until some seat owes the next entry."""
        assert c.header is not None
        deck = c.deck
        if deck is None or c.phase == "aborted":
            return
        config = self.game.config(c.header.players, dict(c.header.options))
        for _ in range(100_000):
            if c.phase == "keys":
                if deck.waiting_on():
                    return
                deck.start(self.game.deck_for(config))
                c.phase = "shuffle"
            elif c.phase == "shuffle":
                if deck.waiting_on():
                    return
                custody = c.header.protocol >= 4
                c.replica = Replica.start(self.game, config, deck.round_tokens(), self.seat, custody=custody)
                c.note("start", tuple(deck.round_tokens()))
                c.phase = "play"
            elif c.phase == "play":
                if c.activity is not None:
                    if deck.waiting_on():
                        return
                    self._finish_activity(c)
                    continue
                assert c.replica is not None
                leaving = sorted(self.game.departed(c.replica.state) - c.departed)
                if leaving:
                    deck.begin_leave(leaving[0])
                    c.activity = ("leave", leaving[0])
                    continue
                need = c.replica.need()
                if isinstance(need, NeedReveals):
                    deck.request(need.reveals)
                    c.activity = ("reveal", need.reveals)
                elif isinstance(need, NeedShuffle):
                    deck.reshuffle(need.request.tokens, need.public)
                    c.activity = ("shuffle", need.request)
                elif isinstance(need, Auto):
                    c.replica.auto()
                    c.note("auto")
                elif isinstance(need, Chance):
                    deck.begin_random(need.n)
                    c.activity = ("random", need.n)
                elif isinstance(need, Find):
                    shown = c.replica.table.shown_in(need.card, need.zones)
                    if shown is not None:  # known to everyone already: nobody is asked
                        c.replica.found(shown)
                        c.note("found", need.card, shown, {}, ())
                        continue
                    candidates = c.replica.table.hands(need.zones)
                    deck.begin_find(need.card, candidates)
                    c.activity = ("find", (need, candidates, ()))
                elif isinstance(need, Decide):
                    return
                elif isinstance(need, Over):
                    self._end(c, need.result, events)
            elif c.phase == "audit":
                if deck.waiting_on():
                    return
                c.verdict = self._audit_verdict(c, config)
                c.phase = END  # every seat still in the game signs the result
                if not self._owed(c):  # nobody is left in the game to sign it
                    c.phase = "done"
                events.append(Audited(c.verdict))
                return
            else:
                return
        raise LocalProtocolError(f"{self.game.name} does not settle: an Auto step loops")

    def _end(self, c: _Core, result: Result, events: list[Event]) -> None:
        """This seat's own rules say the game is over: the final reveal (the audit) begins."""
        assert c.deck is not None
        c.result = result
        c.phase = "audit"
        c.activity = None
        c.deck.begin_final_reveal()
        events.append(GameOver(result))

    def _audit_verdict(self, c: _Core, config: Any) -> Verdict:
        """The deck's verdict and, when it is fair, every move replayed with every card known."""
        assert c.deck is not None
        verdict = c.deck.verdict()
        assert verdict is not None  # the final reveal is complete
        if not verdict.fair:
            return verdict
        script = [*self.script, *c.script]
        findings = knowing_every_card(self.game, config, script, c.deck.revealed_cards(), c.result)
        if findings:
            return Verdict(False, tuple(findings), verdict.checked)
        return Verdict(True, (), f"{verdict.checked}; {REPLAYED}")

    def _learn_opened_by_leaving(self, c: _Core, seat: int) -> None:
        """The seat that left showed every card it has seen (its secret, now public, opens them):
        every view learns those still on the table."""
        assert c.replica is not None
        shown = c.replica.table.shown_by_leaving(seat)
        if shown:
            self._learn(c, shown)

    def _finish_activity(self, c: _Core) -> None:
        assert c.deck is not None and c.replica is not None
        kind, value = c.activity
        c.activity = None
        if kind == "leave":  # the deck took its secret; c.departed has it
            self._learn_opened_by_leaving(c, value)
        elif kind == "reveal":
            self._learn(c, value)
        elif kind == "shuffle":
            assert isinstance(value, ShuffleRequest)
            c.replica.shuffled(value, c.deck.round_tokens())
            c.note("shuffled", value, tuple(c.deck.round_tokens()))
        elif kind == "random":
            result = c.deck.random_result()
            assert result is not None
            c.replica.chance(result)
            c.note("chance", result)
        elif kind == "find":
            step, candidates, claims = value
            holder = c.deck.found()
            if holder is not None:
                self._learn(c, [Reveal(holder[1], None)])
            seat = None if holder is None else holder[0]
            c.replica.found(seat)
            c.note("found", step.card, seat, candidates, claims)


__all__ = ["ABORT", "DECISIONS", "END", "HEADER", "MOVE", "RESIGN", "Session"]
