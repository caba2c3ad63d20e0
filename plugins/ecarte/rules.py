"""The Écarté rules engine: a step function over :class:`EcarteState`.

A match is one engine run: deals follow each other until a player reaches the target.
Every decision hangs on public fields; the follow-suit rules are checked against the
cards the viewer knows (strict for the mover and for the all-seeing replay of
``fairdeal verify``, permissive about cards the viewer cannot see).
"""

from __future__ import annotations

from fairdeal import (
    KING,
    Auto,
    Bot,
    Card,
    Chance,
    Config,
    Decide,
    Game,
    LocalProtocolError,
    Move,
    MoveWords,
    Option,
    Over,
    Result,
    RuledOut,
    Search,
    Seat,
    Step,
    Table,
    ecarte_32,
)

from ._words import CATALOG, N_, _, pgettext
from .bots import ClassicBot
from .model import (
    AGAINST_DECLINER,
    DISCARDS,
    KING_ANNOUNCED,
    KING_TURNED,
    MADE_TRICKS,
    NON_DEALER_UNEXCHANGED,
    PENALTIES,
    POWER,
    TALON,
    THE_VOLE,
    TRICK,
    TRICKS,
    TURNUP,
    ZONE_NAMES,
    EcarteState,
    Phase,
    Rules,
    beats,
    deal_points,
    deal_score,
    hand,
    limit,
    match_chance,
    may_announce,
    may_play,
    won,
    zones,
)
from .view import EcarteView


class Ecarte(EcarteView, Game[EcarteState]):
    """Écarté for two, as RULES.md has it; a match to ``target`` points."""

    name = "ecarte"
    title = "Écarté"
    catalog = CATALOG
    summary = N_("The French two-player trick game: propose, discard, win three tricks of five.")
    min_players = 2
    max_players = 2
    options = (
        Option("target", 5, "points needed to win the game", minimum=1, maximum=50),
        Option("penalty", "classic", "who is penalised after play without exchange", choices=PENALTIES),
        Option("trump_when_void", False, "a player who cannot follow suit must trump if able"),
    )
    api = 2
    deck = ecarte_32()
    zones = tuple(zones())
    deck_zone = TALON
    bots = (Bot("classic", N_("the textbook player: jeux de règle, guarded suits"), ClassicBot),)
    # Per deal at most 21 exchanges of 4 moves, 21 discards, 10 cards, 1 announcement and a
    # stand; at most 2 * 49 + 1 deals to 50 points.
    max_moves = 20_000
    # The expert: 1,000 playouts a decision, a deal each (outlook), about half a second: 61 % of
    # 300 seeded matches against the classic bot (240 playouts: 59 %); bench/bots.py.
    search = Search(playouts=1000, tree=False)

    def setup(self, config: Config, table: Table) -> EcarteState:
        return EcarteState(table, rules=Rules.of(config))

    # -- what happens next -------------------------------------------------------------------------
    def next_step(self, state: EcarteState) -> Step:
        phase = state.phase
        # What the seat is to do, in the reader's language: to the reader of that seat after "Your
        # turn:" (said to "you"), to the others after the seat's name.
        viewer = state.table.viewer
        if phase is Phase.PLAY:
            mine = viewer == state.actor
            if state.table.size(TRICK):
                what = pgettext("your turn", "to play to the trick") if mine else _("to play to the trick")
            else:
                what = pgettext("your turn", "to lead") if mine else _("to lead")
            return Decide(state.actor, what)
        if phase is Phase.DISCARD:
            if viewer == state.actor:
                what = pgettext("your turn", "to discard (up to {n} more)")
            else:
                what = _("to discard (up to {n} more)")
            return Decide(state.actor, what.format(n=limit(state)))
        if phase is Phase.PROPOSE:
            if viewer == state.elder:
                return Decide(state.elder, pgettext("your turn", "to stand or propose an exchange"))
            return Decide(state.elder, _("to stand or propose an exchange"))
        if phase is Phase.ANSWER:
            if viewer == state.dealer:
                return Decide(state.dealer, pgettext("your turn", "to accept or refuse the proposal"))
            return Decide(state.dealer, _("to accept or refuse the proposal"))
        if phase is Phase.FIRST:
            return Chance(2, "first dealer")
        if phase is Phase.OVER:
            return Over(self._result(state))
        return Auto()

    def on_chance(self, state: EcarteState, value: int) -> EcarteState:
        return state.copy().but(dealer=value, deal_no=1, phase=Phase.DEAL)

    def advance(self, state: EcarteState) -> EcarteState:
        s = state.copy()
        t = s.table
        if s.phase is Phase.DEAL:
            for n in (2, 3):  # two then three at a time, non-dealer first
                t.deal(TALON, hand(s.elder), n)
                t.deal(TALON, hand(s.dealer), n)
            t.deal(TALON, TURNUP)
            return s.but(
                phase=Phase.TURNUP,
                trump=None,
                exchanges=0,
                declined=None,
                discarded=0,
                tricks=(0, 0),
                announced=None,
                last_winner=None,
                actor=-1,
            )
        if s.phase is Phase.TURNUP:
            card = t.top_card(TURNUP)
            if card is None:
                raise LocalProtocolError("ecarte: the turn-up is not known yet")
            s = s.but(trump=card.suit, phase=Phase.PROPOSE)
            if card.rank == KING:
                s = _score(s, s.dealer, 1, KING_TURNED)
            return s
        if s.phase is Phase.NEXT:
            t.shuffle_together(ZONE_NAMES, TALON)
            return s.but(
                phase=Phase.DEAL,
                dealer=s.elder,
                deal_no=s.deal_no + 1,
                tricks=(0, 0),
                trump=None,
                last_winner=None,
            )
        raise LocalProtocolError(f"ecarte: no automatic step in phase {s.phase}")

    # -- moves ---------------------------------------------------------------------------------------
    def legal_moves(self, state: EcarteState, player: int) -> list[Move]:
        """The moves of the phase; in play, the cards the follow rules allow of those this view
        knows (a card it does not know never forbids one: ``fairdeal verify`` checks them all)."""
        t = state.table
        phase = state.phase
        if phase is Phase.PROPOSE:
            return [Move("stand"), Move("propose")] if t.size(TALON) else [Move("stand")]
        if phase is Phase.ANSWER:
            return [Move("accept"), Move("refuse")]
        if phase is Phase.DISCARD:
            moves = [Move("discard", (tok,)) for tok in t.tokens(hand(player))] if limit(state) > 0 else []
            if player == state.dealer or state.discarded > 0:
                moves.append(Move("done"))
            return moves
        known = t.known(hand(player))
        led = t.top_card(TRICK)
        moves = []
        if may_announce(state, player):
            moves.extend(
                Move("announce", (tok,)) for tok, c in known if c.rank == KING and c.suit is state.trump
            )
        rw = state.rules.trump_when_void
        for tok, card in known:
            if may_play(card, (c for x, c in known if x != tok), led, state.trump, rw):
                moves.append(Move("play", (tok,)))
        return moves

    def apply(self, state: EcarteState, player: int, move: Move) -> EcarteState:
        s = state.copy()
        t = s.table
        action = move.action
        if action == "stand":
            return s.but(phase=Phase.PLAY, actor=s.elder, declined=s.elder if s.exchanges == 0 else None)
        if action == "propose":
            return s.but(phase=Phase.ANSWER)
        if action == "refuse":
            return s.but(phase=Phase.PLAY, actor=s.elder, declined=s.dealer if s.exchanges == 0 else None)
        if action == "accept":
            return s.but(
                phase=Phase.DISCARD, actor=s.elder, discarded=0, exchanges=s.exchanges + 1, declined=None
            )
        if action == "done":
            return _draw(s)
        token = move.args[0]
        assert isinstance(token, int)
        if action == "discard":
            t.move(token, DISCARDS)
            s = s.but(discarded=s.discarded + 1)
            return _draw(s) if limit(s) == 0 else s
        if action == "announce":
            t.flip(token)
            s = s.but(announced=player)
            return _score(s, player, 1, KING_ANNOUNCED)
        t.move(token, TRICK)
        if t.size(TRICK) == 1:
            return s.but(actor=1 - player)
        return _finish_trick(s, player)

    def remarks(self, before: EcarteState, after: EcarteState) -> list[MoveWords]:
        """The point a turned-up King gives the dealer: the one score no move makes."""
        if after.why == KING_TURNED and after.scores != before.scores:
            if after.table.viewer == after.dealer:  # "You scored ...": said to "you"
                return [(Seat(after.dealer), pgettext("you", "scored 1 point for the turned-up King"))]
            return [(Seat(after.dealer), _("scored 1 point for the turned-up King"))]
        return []

    def rules_out(self, state: EcarteState, player: int, move: Move) -> list[RuledOut]:
        """What the second card of a trick shows of the rest of its player's hand: not following
        suit, no card of the suit led (nor a trump, with ``trump_when_void``, unless it trumped);
        following low, no higher card of the suit led."""
        t = state.table
        led = t.top_card(TRICK)
        if move.action != "play" or state.phase is not Phase.PLAY or led is None:
            return []
        token = int(move.args[0])
        card = t.card(token)
        rest = frozenset(x for x in t.tokens(hand(player)) if x != token)
        if card is None or not rest:
            return []
        if card.suit is led.suit:
            beat = POWER[card.rank] > POWER[led.rank]
            out = set() if beat else {Card(r, led.suit) for r, p in POWER.items() if p > POWER[led.rank]}
        else:
            out = {Card(r, led.suit) for r in POWER}
            trump = state.trump
            if state.rules.trump_when_void and trump is not None and card.suit is not trump:
                out |= {Card(r, trump) for r in POWER}
        return [RuledOut(rest, frozenset(out))] if out else []

    def outlook(self, state: EcarteState) -> tuple[float, float] | None:
        """Once a deal is scored (and the match goes on), each seat's chance of the match from
        the score alone (:func:`~.model.match_chance`): what the next deals hold is luck."""
        if state.phase is not Phase.NEXT:
            return None
        first = match_chance(state.scores[0], state.scores[1], state.rules.target)
        return (first, 1.0 - first)

    # -- results and words ------------------------------------------------------------------------
    def _result(self, state: EcarteState) -> Result:
        """The result, in English whatever the language (it goes into the log): made of the marked
        messages of :data:`REASONS` and :data:`STANDINGS`, which front ends say again in theirs."""
        w = state.winner
        if w is None:  # not reached: the match only ends when someone reaches the target
            return Result(None, state.scores, N_("the game ended without a winner"))
        return Result(w, state.scores, reason(state), standing(state.deal_no))


#: The result's reason for each way the last points were scored (the :mod:`.model` messages of
#: why): a target of 1 point, and of more.
REASONS: dict[str, tuple[str, str]] = {
    KING_TURNED: (
        N_("{seat} reached 1 point, the last for the turned-up King"),
        N_("{seat} reached {target} points, the last for the turned-up King"),
    ),
    KING_ANNOUNCED: (
        N_("{seat} reached 1 point, the last for announcing the King of trumps"),
        N_("{seat} reached {target} points, the last for announcing the King of trumps"),
    ),
    MADE_TRICKS: (
        N_("{seat} reached 1 point, the last for {made} tricks"),
        N_("{seat} reached {target} points, the last for {made} tricks"),
    ),
    THE_VOLE: (
        N_("{seat} reached 1 point, the last for the vole (all 5 tricks)"),
        N_("{seat} reached {target} points, the last for the vole (all 5 tricks)"),
    ),
    AGAINST_DECLINER: (
        N_("{seat} reached 1 point, the last for {made} tricks against a player who declined to exchange"),
        N_(
            "{seat} reached {target} points, the last for {made} tricks against a player who declined "
            "to exchange"
        ),
    ),
    NON_DEALER_UNEXCHANGED: (
        N_("{seat} reached 1 point, the last for {made} tricks as non-dealer without an exchange"),
        N_("{seat} reached {target} points, the last for {made} tricks as non-dealer without an exchange"),
    ),
}
#: The match's standing: the deals it took (who won, and the scores, are said beside it).
STANDINGS = (N_("1 deal played"), N_("{deals} deals played"))


def reason(state: EcarteState) -> str:
    """Why ``state.winner`` won, in English: the target reached, and what earned the last points."""
    w = state.winner
    assert w is not None
    target = state.rules.target
    why, made = state.why, 0
    if why not in (KING_TURNED, KING_ANNOUNCED):  # the end of a deal: its tricks say why
        _seat, _points, why, made = deal_score(state.tricks, state.elder, state.declined, state.rules.penalty)
        if why.format(made=made) != state.why:  # never so: the why as it was
            points = "1 point" if target == 1 else f"{target} points"
            return f"seat {w} reached {points}, the last for {state.why}"
    one, more = REASONS[why]
    return (one if target == 1 else more).format(seat=f"seat {w}", target=target, made=made)


def standing(deals: int) -> str:
    """How the match stands at its end, in English: the deals it took."""
    return STANDINGS[0] if deals == 1 else STANDINGS[1].format(deals=deals)


def _score(s: EcarteState, seat: int, points: int, why: str) -> EcarteState:
    """``seat`` scores ``points`` now; the match ends at once when it reaches the target."""
    scores = list(s.scores)
    scores[seat] += points
    news = f"seat {seat} scored {points} point{'s' if points != 1 else ''} for {why}"
    s = s.but(scores=(scores[0], scores[1]), news=news, why=why)
    if scores[seat] >= s.rules.target:
        return s.but(phase=Phase.OVER, winner=seat)
    return s


def _draw(s: EcarteState) -> EcarteState:
    """The discarding player draws as many as it discarded; the exchange goes on."""
    t = s.table
    t.deal(TALON, hand(s.actor), s.discarded)
    if t.size(TALON) == 0:
        return s.but(phase=Phase.PLAY, actor=s.elder, discarded=0)
    if s.actor == s.elder:
        return s.but(actor=s.dealer, discarded=0)
    return s.but(phase=Phase.PROPOSE, actor=-1, discarded=0)


def _finish_trick(s: EcarteState, second: int) -> EcarteState:
    """Both cards are down (and public): the trick goes to its winner."""
    t = s.table
    lead_tok, follow_tok = t.tokens(TRICK)
    lead, follow = t.card(lead_tok), t.card(follow_tok)
    if lead is None or follow is None:
        raise LocalProtocolError("ecarte: the cards of the trick are not known")
    winner = second if beats(follow, lead, s.trump) else 1 - second
    t.move(lead_tok, won(winner))
    t.move(follow_tok, won(winner))
    tricks = (s.tricks[0] + (winner == 0), s.tricks[1] + (winner == 1))
    s = s.but(tricks=tricks, actor=winner, last_winner=winner)
    if sum(tricks) < TRICKS:
        return s
    seat, points, why = deal_points(tricks, s.elder, s.declined, s.rules.penalty)
    s = _score(s.but(phase=Phase.NEXT, actor=-1), seat, points, why)
    return s


__all__ = ["REASONS", "STANDINGS", "Ecarte", "reason", "standing"]
