"""One viewer's copy of a running game, advanced by the same events on every seat.

Every seat keeps a :class:`Replica` of the game as it sees it. All replicas go
through the same sequence of events (reveals, shuffles, moves, random choices),
differing only in which card identities they hold, and so they agree on what
happens next. :meth:`Replica.need` says what that is: reveals or a reshuffle the
dealer owes, or the game's own next step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic

from .cards import Card
from .dealer import Reveal
from .errors import IllegalMove, LocalProtocolError, RemoteProtocolError
from .options import Config
from .rules import Decide, Game, Move, S, Step
from .table import EVERYONE, ShuffleRequest, Table, Visibility


@dataclass(frozen=True, slots=True)
class NeedReveals:
    """The dealer owes these reveals (owed by where cards now lie)."""

    reveals: tuple[Reveal, ...]


@dataclass(frozen=True, slots=True)
class NeedShuffle:
    """The dealer owes this reshuffle; ``public`` are the face-up cards among its tokens."""

    request: ShuffleRequest
    public: Mapping[int, Card]


Need = NeedReveals | NeedShuffle | Step


class Replica(Generic[S]):
    """A game state as ``viewer`` sees it, plus the rules that move it on."""

    def __init__(self, game: Game[S], config: Config, state: S, viewer: int | None) -> None:
        self.game = game
        self.config = config
        self.state = state
        self.viewer = viewer
        self.moves = 0

    @classmethod
    def start(
        cls,
        game: Game[S],
        config: Config,
        tokens: Sequence[int],
        viewer: int | None,
        cards: Mapping[int, Card] | None = None,
        *,
        custody: bool = True,
    ) -> Replica[S]:
        """Set up the game on a freshly shuffled deck (``cards``: what the viewer knows of it).

        ``custody``: a card in a hand is handed over to the hand's owner whenever another seat
        alone can open it (:attr:`Table.custody`; False only to replay a game of log protocol 3)."""
        zones = list(game.zones_for(config))
        table = Table(zones, config.players, viewer, game.deck_for(config))
        table.custody = custody
        deck_zone = game.deck_zone_for(config)
        if table.specs[deck_zone].visibility is not Visibility.HIDDEN:
            raise LocalProtocolError(f"{game.name}: the deck zone {deck_zone!r} must be HIDDEN")
        table.place(deck_zone, tokens)
        if cards and viewer == EVERYONE:
            for t in tokens:
                if t in cards:
                    table._cards[t] = cards[t]
        return cls(game, config, game.setup(config, table), viewer)

    def copy(self) -> Replica[S]:
        r = Replica(self.game, self.config, self.state.copy(), self.viewer)
        r.moves = self.moves
        return r

    @property
    def table(self) -> Table:
        return self.state.table

    def need(self) -> Need:
        """What must happen next, identical on every replica of the game."""
        reqs = self.state.table.requirements()
        if reqs:
            return NeedReveals(tuple(reqs))
        shuffles = self.state.table.pending_shuffles()
        if shuffles:
            req = shuffles[0]
            table = self.state.table
            public = {t: c for t in req.tokens if t in table.public and (c := table.card(t)) is not None}
            return NeedShuffle(req, public)
        return self.game.next_step(self.state)

    # -- events ------------------------------------------------------------------------------------
    def learn(self, reveals: Sequence[Reveal], cards: Mapping[int, Card]) -> None:
        """Record reveals; ``cards`` holds identities, of which this viewer keeps its own."""
        table = self.state.table
        for r in reveals:
            entitled = r.to is None or r.to == self.viewer or self.viewer == EVERYONE
            table.learn(r, cards.get(r.token) if entitled else None)

    def shuffled(
        self, request: ShuffleRequest, fresh: Sequence[int], cards: Mapping[int, Card] | None = None
    ) -> None:
        self.state.table.replace_shuffled(request, fresh, cards if self.viewer == EVERYONE else None)

    def move_reveals(self, player: int, move: Move) -> list[int]:
        """Tokens that ``move`` shows to everyone and ``player`` alone can open (its own cards).

        The mover sends these reveals with the move so that every seat can judge it at once.
        A card the move shows that another seat alone can open is opened by that seat after it.
        """
        trial = self.game.apply(self.state.copy(), player, move)
        table = trial.table
        return [r.token for r in table.requirements() if r.to is None and table.opened_to(r.token) == player]

    def check_move(self, player: int, move: Move, *, remote: bool = True) -> None:
        """Raise if ``move`` is not legal for ``player`` as far as this replica can tell."""
        step = self.game.next_step(self.state) if self.state.table.settled() else None
        if not isinstance(step, Decide) or step.player != player:
            who = "not your turn" if remote else "it is not this seat's turn"
            raise (RemoteProtocolError if remote else IllegalMove)(f"{who} to move", seat=player)
        if not self.game.is_legal(self.state, player, move):
            error = RemoteProtocolError if remote else IllegalMove
            hidden = self._unrevealed(player, move)
            if hidden:  # judged without a card the move shows: the mover did not reveal it
                raise error(f"the move shows card {hidden[0]} without revealing it", seat=player)
            raise error(f"illegal move {move}", seat=player)

    def _unrevealed(self, player: int, move: Move) -> list[int]:
        """The cards of the mover's that ``move`` would show and this replica does not know."""
        try:
            trial = self.game.apply(self.state.copy(), player, move)
        except Exception:  # an illegal move may well make the rules choke: no diagnosis then
            return []
        table = trial.table
        return [
            r.token
            for r in table.requirements()
            if r.to is None and table.opened_to(r.token) == player and table.card(r.token) is None
        ]

    def apply(self, player: int, move: Move, shown: Sequence[int] = ()) -> None:
        """Apply a checked move; ``shown`` are the tokens revealed along with it.

        Raises RemoteProtocolError if the move did not bring every shown card into view.
        """
        new = self.game.apply(self.state, player, move)
        if new is self.state:
            raise LocalProtocolError(f"{self.game.name}.apply returned its input state")
        table = new.table
        table.rule_out(self.game.rules_out(self.state, player, move))
        table.mark_played(player)
        for t in shown:
            zone = table.zone_of(t)
            if zone is None or not (table.specs[zone].visibility is Visibility.PUBLIC or t in table.faceup):
                raise RemoteProtocolError(f"revealed card {t} that the move does not show", seat=player)
        self.state = new
        self.moves += 1

    def auto(self) -> None:
        self.state = self.game.advance(self.state)

    def chance(self, value: int) -> None:
        self.state = self.game.on_chance(self.state, value)

    def found(self, seat: int | None) -> None:
        """A ``Find`` is over: ``seat`` held the card (its reveal already learnt), or nobody did."""
        self.state = self.game.on_found(self.state, seat)
