"""What each seat, watcher and reader of the log can *decrypt*, checked against what its view knows.

A view says which cards a seat knows; the cryptography decides which it can read. The two must
agree at every entry of the log, for every game, whatever its moves do with the cards. This
check does not ask the views or the deck protocol's own bookkeeping which cards a seat may open:
it reads the log as an attacker would (:class:`Openings`): every ciphertext each token has had,
every decryption share and hand-over mask published for it, the secret of every seat that left,
and, for a seat, its own secret key and the masks of its own hand-overs. A card is readable by a
party when it can put together every seat's share of one of the token's ciphertexts and the
result is the card's point.

:func:`check_privacy` plays games among bots over the real protocol (every seat its own session
and keys, a watcher beside them) and, after every entry, compares for every seat and for the
watcher the cards it can read with the cards its view holds: one it can read and does not know
is a leak (unless the card is being opened to it right then); one it knows and cannot read is a
view that claims more than the protocol gave. (Once every other seat has left, the last one holds
every secret still kept, and may read any card: its reading is no longer checked.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fairdeal.core.cards import Card
from fairdeal.core.deck import FindClaim, Handover, Leave, Shares, decode
from fairdeal.core.deck import _group as g
from fairdeal.core.rules import Game, Policy
from fairdeal.core.session.envelope import decode_envelope
from fairdeal.testing._errors import ConformanceError
from fairdeal.testing._stepping import Stepper


@dataclass
class _Version:
    """One ciphertext a token had: the shares of it the log publishes, and the hand-over that made it."""

    ct: bytes
    shares: dict[int, bytes] = field(default_factory=dict)
    author: int | None = None  # the seat that handed the token over, making this ciphertext
    to: int | None = None
    masks: dict[int, bytes] = field(default_factory=dict)  # seat -> s·H_seat, as published


@dataclass(frozen=True)
class Party:
    """Who reads: a seat (its secret key, and its deck state for the masks of its own hand-overs),
    or, with no seat, anyone holding the log."""

    seat: int | None = None
    secret: bytes | None = None
    deck: Any = None


class Openings:
    """Everything the log gives towards opening each card, read from its entries as they come."""

    def __init__(self, game_id: bytes, deck: Iterable[Card], players: int, protocol: int) -> None:
        self.players = players
        self.protocol = protocol
        self.points = {g.card_point(game_id, c.name): c for c in deck}
        self.versions: dict[int, list[_Version]] = {}
        self.keys: dict[int, bytes] = {}
        self.left: dict[int, bytes] = {}

    def note(self, data: bytes, observer: Any) -> None:
        """Take in an entry ``observer`` (a watcher's session) has just accepted."""
        env = decode_envelope(data)
        if env.kind == "deck.key":
            self.keys[env.seat] = env.body["public"]
        deck = observer.deck if observer.phase not in ("header", "keys") else None
        if deck is not None:
            for t in deck.live_tokens():
                if t not in self.versions:
                    ct = deck.ciphertext(t)
                    assert ct is not None
                    self.versions[t] = [_Version(ct)]
        body = env.body
        if env.kind == "move" and body.get("shares") is not None:
            self._shares(env.seat, decode("deck.shares", env.seat, body["shares"], self.protocol))
        elif env.kind in ("deck.shares", "deck.final-reveal"):
            self._shares(env.seat, decode(env.kind, env.seat, body, self.protocol))
        elif env.kind == "deck.find":
            claim = decode(env.kind, env.seat, body, self.protocol)
            assert isinstance(claim, FindClaim)
            if claim.share is not None:
                self.versions[claim.share.token][-1].shares[env.seat] = claim.share.share
        elif env.kind == "deck.leave":
            msg = decode(env.kind, env.seat, body, self.protocol)
            assert isinstance(msg, Leave)
            self.left[env.seat] = msg.secret

    def _shares(self, seat: int, msg: Any) -> None:
        for sp in msg.shares:
            self.versions[sp.token][-1].shares[seat] = sp.share
        for h in msg.handovers if isinstance(msg, Shares) else ():
            self._handover(seat, h)

    def _handover(self, seat: int, h: Handover) -> None:
        active = [s for s in range(self.players) if s not in self.left]
        others = [s for s in active if s not in (seat, h.to)]
        version = _Version(
            h.ciphertext, {seat: h.share.share}, seat, h.to, dict(zip(others, h.masks, strict=True))
        )
        self.versions[h.token].append(version)

    def card(self, token: int, party: Party) -> Card | None:
        """The card ``party`` can read behind ``token`` from the log and its own secrets, if any."""
        versions = self.versions.get(token, [])
        for v in range(len(versions) - 1, -1, -1):
            shares = [self._share(token, v, s, party) for s in range(self.players)]
            if all(d is not None for d in shares):
                try:
                    m = g.sub(versions[v].ct[g.POINT_BYTES :], g.add_all([d for d in shares if d]))
                except g.GroupError:
                    continue
                card = self.points.get(m)
                if card is not None:
                    return card
        return None

    def _share(self, token: int, v: int, seat: int, party: Party) -> bytes | None:
        """Seat ``seat``'s share of ciphertext ``v`` of ``token``, if ``party`` can work it out."""
        version = self.versions[token][v]
        c1 = version.ct[: g.POINT_BYTES]
        if seat in version.shares:
            return version.shares[seat]
        secret = party.secret if seat == party.seat else self.left.get(seat)
        if secret is not None:
            return g.mul(secret, c1)
        if version.author is None:
            return None
        mask = version.masks.get(seat)
        if mask is None and party.seat == version.author and version.to is not None:
            s = party.deck.handover_mask(token, self.versions[token][v - 1].ct, version.to)
            mask = g.mul(s, self.keys[seat])
        before = self._share(token, v - 1, seat, party) if mask is not None else None
        return None if before is None or mask is None else g.add(before, mask)


def check_privacy(
    game: Game[Any],
    players: int | Sequence[int] | None = None,
    options: Mapping[str, object] | None = None,
    seeds: Iterable[int] = range(3),
    *,
    policies: Sequence[Policy] | None = None,
    protocol: int | None = None,
) -> int:
    """Play ``game`` over the real protocol (random bots unless ``policies``) and check, after every
    entry, that every seat and the watcher can decrypt exactly the cards their views know; raise
    :class:`ConformanceError` on the first difference. Returns the number of entries checked."""
    counts = [players] if isinstance(players, int) else list(players or {game.min_players, game.max_players})
    checked = 0
    for n in counts:
        for seed in seeds:
            where = f"{game.name}, {n} players, seed {seed}"
            checked += _check_one(game, n, seed, options, policies, protocol, where)
    return checked


def _check_one(
    game: Game[Any],
    n: int,
    seed: int,
    options: Mapping[str, object] | None,
    policies: Sequence[Policy] | None,
    protocol: int | None,
    where: str,
) -> int:
    state: dict[str, Any] = {"openings": None, "entries": 0}

    def on_entry(t: Stepper, data: bytes) -> None:
        if state["openings"] is None:
            config = game.config(n, dict(options or {}))
            h = t.header
            state["openings"] = Openings(h.game_id, game.deck_for(config), n, h.protocol)
        state["openings"].note(data, t.watcher)
        state["entries"] += 1
        _compare(t, state["openings"], f"{where}, entry {len(t.log) - 1} ({decode_envelope(data).kind})")

    stepper = Stepper(
        game, n, seed, options, policies=policies, protocol=protocol, any_order=True, on_entry=on_entry
    )
    stepper.finish(limit=100 * game.max_moves + 10_000)
    entries: int = state["entries"]
    return entries


def _compare(t: Stepper, openings: Openings, where: str) -> None:
    """Every seat's and the watcher's readable cards against their views, now."""
    compare(openings, t.watcher, t.seats, where)


def compare(openings: Openings, watcher: Any, seats: Sequence[Any], where: str) -> None:
    """What the log gives a reader (``watcher``, a seatless session that has read it all) and each of
    ``seats`` (their sessions, at the same point) against their views; raise
    :class:`ConformanceError` on the first card one can read and its view does not know, or knows
    and cannot read."""
    view = watcher.view()
    if view is None:
        return
    on_table = list(view.table.all_tokens())
    parties = [(Party(), watcher)]
    if len([s for s in range(view.table.players) if s not in watcher.departed]) > 1:
        # (the last seat at the table holds every secret still kept: it reads all)
        parties += [(Party(s.seat, s.deck.ctx.need_me().x, s.deck), s) for s in seats]
    for party, session in parties:
        seen = session.view()
        assert seen is not None  # the watcher has dealt, so has every seat
        _compare_one(openings, party, seen.table, on_table, _being_opened(session, party.seat), where)


def _compare_one(
    openings: Openings, party: Party, table: Any, on_table: list[int], owed: set[int], where: str
) -> None:
    who = "the log (any watcher)" if party.seat is None else f"seat {party.seat}"
    for token in on_table:
        readable = openings.card(token, party)
        known = table.card(token)
        if readable is not None and known is None and token not in owed:
            raise ConformanceError(
                f"{where}: {who} can decrypt token {token} ({readable}), which its view does not "
                f"know (it lies in {table.zone_of(token)!r})"
            )
        if known is not None and readable != known:
            raise ConformanceError(
                f"{where}: the view of {who} holds {known} for token {token}, which it "
                + ("cannot decrypt" if readable is None else f"decrypts to {readable}")
            )


def check_log_privacy(game: Game[Any], log: bytes, seats: Sequence[Any] = ()) -> int:
    """Read a finished game's log (the bytes of its file) as an attacker would and check, after every
    entry, that it opens only the cards a watcher's view knows; then that each of ``seats`` (their
    sessions at the end of the game, e.g. from the network's outcomes) can decrypt exactly what its
    view knows. Returns the number of entries checked."""
    from fairdeal.core.session.logfile import parse_log
    from fairdeal.core.session.session import Session

    watcher: Any = Session(game, None)
    openings: Openings | None = None
    entries = parse_log(log).entries
    for i, data in enumerate(entries):
        watcher.receive(data)
        if openings is None:
            h = watcher.header
            openings = Openings(
                h.game_id, game.deck_for(game.config(h.players, dict(h.options))), h.players, h.protocol
            )
        openings.note(data, watcher)
        compare(openings, watcher, (), f"{game.name}, entry {i}")
    if openings is not None:
        compare(openings, watcher, seats, f"{game.name}, at the end")
    return len(entries)


def _being_opened(session: Any, seat: int | None) -> set[int]:
    """The tokens a reveal under way opens to ``seat`` (or to everyone): readable a moment before the
    view learns them, once the batch is complete."""
    return {r.token for r in session.revealing() if r.to is None or r.to == seat}
