"""The classic Écarté bot: the textbook way to propose, discard and play, and nothing deeper.

* Non-dealer: stand with a *jeu de règle* (a hand that should take three tricks unless the
  dealer holds two trumps), except when holding the King of trumps: then ask for cards,
  unless the hand looks good for the vole.
* Dealer: accept or refuse by the guarded-suits rule: refuse with a hand as strong as a
  jeu de règle, accept otherwise.
* The score: when the opponent needs two points, a deal played without exchange that goes
  wrong hands it the match (the penalty), so only a hand stronger than a jeu de règle stands
  or refuses; when it needs one, the penalty no longer matters and a hand a little weaker
  than a jeu de règle plays; a vole is only played for while its second point counts.
* Discards: low cards of the plain suits, keeping trumps, Kings, a Queen beside its King or in
  a suit of two or more, and a Jack under King and Queen (at least one card as non-dealer).
* Tricks: announce the King of trumps; lead trumps with three or more (or with the best
  trump and another), else from the guarded suit (its top card first), else the best
  single card; when second, win as cheaply as possible or throw the lowest card.

A plain suit is *guarded* when one holds its King, its Queen with another card of the
suit, or three of its cards. Every choice reads only the bot's own view and costs a
few hundred operations: no search, no state copies.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from fairdeal import KING, QUEEN, SUITS, Card, Game, GameState, Move, Suit

from .model import DISCARDS, POWER, TRICK, TURNUP, EcarteState, hand, won

JACK_POWER = POWER[11]


def suit_value(cards: Sequence[Card]) -> int:
    """Probable tricks of a plain suit: its King sequence (K, KQ, KQJ), else 1 if guarded."""
    powers = sorted((POWER[c.rank] for c in cards), reverse=True)
    run = 0
    for want in (POWER[KING], POWER[QUEEN], JACK_POWER):
        if run < len(powers) and powers[run] == want:
            run += 1
        else:
            break
    if run:
        return run
    return 1 if guarded(cards) else 0


def guarded(cards: Sequence[Card]) -> bool:
    """A plain suit is guarded by its King, its Queen and another card, or three cards."""
    ranks = [c.rank for c in cards]
    return KING in ranks or (QUEEN in ranks and len(ranks) >= 2) or len(ranks) >= 3


def strength(cards: Iterable[Card], trump: Suit | None) -> tuple[int, int]:
    """``(trumps, plain)``: trumps held, and the probable tricks of the guarded plain suits."""
    by_suit: dict[Suit, list[Card]] = {s: [] for s in SUITS}
    for c in cards:
        by_suit[c.suit].append(c)
    trumps = len(by_suit[trump]) if trump is not None else 0
    plain = sum(suit_value(cs) for s, cs in by_suit.items() if s is not trump)
    return trumps, plain


def jeu_de_regle(cards: Iterable[Card], trump: Suit | None, shift: int = 0) -> bool:
    """Whether the hand should be played without exchange: three probable tricks with a
    trump among them, or four without (``shift`` more, or fewer when negative)."""
    trumps, plain = strength(cards, trump)
    return trumps + plain >= (3 if trumps else 4) + shift


def risk(state: EcarteState, player: int) -> int:
    """How much stronger than a jeu de règle a hand must be to play without exchange, by the
    score: 1 when the opponent needs two points (the penalty would give them the match), -1 when
    it needs one (the penalty changes nothing), else 0."""
    need = state.rules.target - state.scores[1 - player]
    return 1 if need == 2 else -1 if need <= 1 else 0


def worth_keeping(card: Card, held: Sequence[Card], trump: Suit | None) -> bool:
    """What an exchange keeps: trumps, Kings, a Queen beside its King or with another card of its
    suit, a Jack under its King and Queen."""
    if card.suit is trump or card.rank == KING:
        return True
    suit = [c.rank for c in held if c.suit is card.suit]
    if card.rank == QUEEN:
        return KING in suit or len(suit) >= 2
    return card.rank == 11 and KING in suit and QUEEN in suit


class ClassicBot:
    """The classical player (see the module docstring)."""

    def choose(
        self, game: Game, state: GameState, player: int, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        assert isinstance(state, EcarteState)
        if len(moves) == 1:
            return moves[0]
        actions = {m.action for m in moves}
        mine = state.table.known(hand(player))
        cards = [c for _, c in mine]
        trump = state.trump
        shift = risk(state, player)
        if "propose" in actions:
            holds_king = any(c.rank == KING and c.suit is trump for c in cards)
            trumps, plain = strength(cards, trump)
            vole_counts = state.rules.target - state.scores[player] >= 2
            if holds_king and vole_counts:
                return Move("propose") if trumps + plain < 5 + max(shift, 0) else Move("stand")
            return Move("stand") if jeu_de_regle(cards, trump, shift) else Move("propose")
        if "refuse" in actions:
            return Move("refuse") if jeu_de_regle(cards, trump, shift) else Move("accept")
        if "discard" in actions or "done" in actions:
            return _discard(mine, trump, moves)
        for m in moves:
            if m.action == "announce":
                return m
        return _play(state, player, mine, moves)


def _discard(mine: list[tuple[int, Card]], trump: Suit | None, moves: Sequence[Move]) -> Move:
    allowed = {m.args[0] for m in moves if m.action == "discard"}
    held = [c for _, c in mine]
    junk = [(POWER[c.rank], tok) for tok, c in mine if tok in allowed and not worth_keeping(c, held, trump)]
    if junk:
        return Move("discard", (min(junk)[1],))
    done = Move("done")
    if done in moves or not allowed:
        return done
    # The non-dealer must discard one: the weakest card, a plain one before a trump.
    worst = min((c.suit is trump, POWER[c.rank], tok) for tok, c in mine if tok in allowed)
    return Move("discard", (worst[2],))


def _gone(state: EcarteState, player: int) -> set[Card]:
    """Cards this seat knows are out of the opponent's hand."""
    t = state.table
    seen: set[Card] = set()
    for zone in (won(0), won(1), TRICK, TURNUP, DISCARDS, hand(player)):
        seen.update(c for c in t.cards(zone) if c is not None)
    return seen


def _is_master(card: Card, gone: set[Card]) -> bool:
    """No card that could still be against it ranks higher in its suit."""
    p = POWER[card.rank]
    return all(Card(r, card.suit) in gone for r, q in POWER.items() if q > p)


def _play(state: EcarteState, player: int, mine: list[tuple[int, Card]], moves: Sequence[Move]) -> Move:
    t = state.table
    trump = state.trump
    by_tok = dict(mine)
    options = [(tok, by_tok[tok]) for m in moves if m.action == "play" and (tok := int(m.args[0])) in by_tok]
    if not options:
        return moves[0]
    led = t.top_card(TRICK)
    if led is not None:
        wins = [
            (c.suit is trump and led.suit is not trump, POWER[c.rank], tok)
            for tok, c in options
            if (c.suit is led.suit and POWER[c.rank] > POWER[led.rank])
            or (c.suit is trump and led.suit is not trump)
        ]
        if wins:
            return Move("play", (min(wins)[2],))
        throw = min((c.suit is trump, POWER[c.rank], tok) for tok, c in options)
        return Move("play", (throw[2],))
    gone = _gone(state, player)
    trumps = sorted((c for _, c in options if c.suit is trump), key=lambda c: -POWER[c.rank])
    plain = [(tok, c) for tok, c in options if c.suit is not trump]
    tok_of = {c: tok for tok, c in options}
    if trumps and (len(trumps) >= 3 or (len(trumps) >= 2 and _is_master(trumps[0], gone)) or not plain):
        return Move("play", (tok_of[trumps[0]],))
    by_suit: dict[Suit, list[Card]] = {}
    for _, c in plain:
        by_suit.setdefault(c.suit, []).append(c)
    best = max(
        by_suit.items(),
        key=lambda kv: (
            any(_is_master(c, gone) for c in kv[1]),
            suit_value(kv[1]),
            len(kv[1]),
            max(POWER[c.rank] for c in kv[1]),
        ),
    )
    top = max(best[1], key=lambda c: POWER[c.rank])
    return Move("play", (tok_of[top],))
