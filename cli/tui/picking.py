"""Picking a move on the table: cards to choose, the places each can go, buttons, keys.

Pure. A :class:`Picker` is built from the legal moves, what each move is made of on the
table (:class:`~fairdeal.core.tableview.MoveParts`) and its words. It offers:

* the cards that can be picked, in the order the table shows them, each once: of two
  equal cards from the same pile only the first is offered, and the same holds for
  moves: no choice appears twice;
* for a card, the piles it can go to (keys ``1``–``9``, ``0``, stable for the game: the
  table's target piles numbered middle first, then the viewer's own) and the moves that
  take it without a place (``play``, ``discard``);
* the moves with no card as buttons with a letter key.

:func:`picker_for` builds one for a seat's turn; :func:`read_card` reads a card typed by
name (``8c``, ``10h``, ``qs``) key by key. How keys and clicks walk these to one move is
:mod:`.choosing`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fairdeal.core.cards import Card, rank_text
from fairdeal.core.rules import Game, GameState, Move
from fairdeal.core.tableview import MoveParts, TableView
from fairdeal.i18n import language

from ..render import named, to_ascii
from .cardkeys import first_keys
from .cardkeys import read_card as read_card_in
from .layout import screen_order

TARGET_KEYS = "1234567890"
RANK_KEYS = {"a": 1, "j": 11, "q": 12, "k": 13, **{str(n): n for n in range(2, 10)}}
SUIT_KEYS = {"c": "C", "d": "D", "h": "H", "s": "S"}
#: Keys the table itself uses, never given to a button.
RESERVED = frozenset("?/")


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal move as the table offers it: ``index`` into the legal moves."""

    index: int
    card: int | None
    target: str | None
    verb: str
    words: str
    key: str = ""


def target_keys(view: TableView, viewer: int | None) -> dict[str, str]:
    """Zone → key for the piles moves can go to: middle first, then the viewer's own, then the others'."""
    rank = {None: 0, viewer: 1}
    regions = sorted(view.regions, key=lambda r: rank.get(r.owner, 2))
    zones = [p.zone for r in regions for p in r.piles if p.zone is not None]
    return {z: k for z, k in zip(zones, TARGET_KEYS, strict=False)}


class Picker:
    """The legal moves of one decision, arranged for picking on the table."""

    def __init__(
        self,
        parts: Sequence[MoveParts],
        words: Sequence[str],
        view: TableView,
        viewer: int | None,
        order: Sequence[int],
        cards: dict[int, Card | None],
        zones: dict[int, str],
        held: frozenset[Card] = frozenset(),
    ) -> None:
        self.keys = target_keys(view, viewer)
        position = {tok: i for i, tok in enumerate(order)}
        self.alias: dict[int, int] = {}  # an equal card's token → the token offered for it
        seen_card: dict[tuple[object, ...], int] = {}
        seen_move: set[tuple[object, ...]] = set()
        self.choices: list[Choice] = []
        for i, (p, w) in enumerate(zip(parts, words, strict=True)):
            card = p.card
            if card is not None:
                c = cards.get(card)
                same = (c.rank, c.suit, zones.get(card)) if c is not None else (card,)
                first = seen_card.setdefault(same, card)
                if first != card:
                    self.alias[card] = first
                card = first
            # A card's moves without a place differ by their words too ("call hearts", "call spades").
            key = (
                (card, p.target, p.verb, w if p.target is None else "")
                if p.card is not None
                else ("button", w)
            )
            if key in seen_move:
                continue
            seen_move.add(key)
            self.choices.append(Choice(i, card, p.target, p.verb, w))
        self.cards = sorted(
            {c.card for c in self.choices if c.card is not None}, key=lambda t: position.get(t, len(position))
        )
        #: What each card that can be picked is, where this viewer knows it.
        self.faces: dict[int, Card] = {t: c for t in self.cards if (c := cards.get(t)) is not None}
        #: The cards in the viewer's own area that it knows (what it holds, to say why a card is not offered).
        self.held = held
        self.buttons = self._keyed([c for c in self.choices if c.card is None])

    def _keyed(self, buttons: list[Choice]) -> list[Choice]:
        taken = set(RESERVED) | set(TARGET_KEYS)
        if self.cards:
            taken |= set(RANK_KEYS) | {"t"} | first_keys(language())  # a card's name in its letters too
        out = []
        for b in buttons:
            # The action's first free letter (pass: p, stand: s), else one of its words'.
            key = next((ch for ch in (b.verb + b.words).lower() if ch.isalpha() and ch not in taken), "")
            if key:
                taken.add(key)
            out.append(Choice(b.index, None, None, b.verb, b.words, key))
        return out

    # -- questions --------------------------------------------------------------------------------
    def canonical(self, token: int) -> int:
        return self.alias.get(token, token)

    def for_card(self, token: int) -> list[Choice]:
        token = self.canonical(token)
        return [c for c in self.choices if c.card == token]

    def places(self, token: int) -> dict[str, str]:
        """Zone → key of the piles ``token`` can go to."""
        return {c.target: self.keys.get(c.target, "?") for c in self.for_card(token) if c.target is not None}

    def at(self, token: int, zone: str) -> Choice | None:
        return next((c for c in self.for_card(token) if c.target == zone), None)

    def actions(self, token: int) -> list[Choice]:
        """The moves that take ``token`` without a place."""
        return [c for c in self.for_card(token) if c.target is None]

    def action_keys(self, token: int) -> dict[str, Choice]:
        """Keys for ``token``'s moves without a place: ``1``, ``2``… when it has no places (the
        digits are free then); none when it has a single one (Enter takes it) or has places."""
        actions = self.actions(token)
        if len(actions) < 2 or self.places(token):
            return {}
        return {k: c for k, c in zip(TARGET_KEYS, actions, strict=False)}

    def button(self, key: str) -> Choice | None:
        return next((b for b in self.buttons if b.key == key), None)

    @property
    def single(self) -> Choice | None:
        """The only move, when there is just one."""
        return self.choices[0] if len(self.choices) == 1 else None


def picker_for(
    game: Game[Any],
    state: GameState,
    seat: int,
    moves: Sequence[Move],
    *,
    ascii: bool = False,
    names: Sequence[str] = (),
) -> Picker:
    """The picker of ``seat``'s turn in ``state`` with its legal ``moves`` (words in ASCII with
    ``ascii``; a seat the words name written as its name, of ``names``)."""
    view = game.table_view(state, seat)
    parts = [game.move_parts(state, seat, m) for m in moves]
    words = [named(game.describe(state, seat, m), names) for m in moves]
    if ascii:
        words = [to_ascii(w) for w in words]
    t = state.table
    cards = {tok: t.card(tok) for tok in t.all_tokens()}
    zones = {tok: z for tok in t.all_tokens() if (z := t.zone_of(tok)) is not None}
    held = frozenset(c for r, p in view.piles() if r.owner == seat for c in p.cards if c is not None)
    return Picker(parts, words, view, seat, screen_order(view, seat), cards, zones, held)


#: What can have been typed of a card's name: nothing, a rank key, or the 1 of a 10.
TYPED = frozenset({"", "1", "10", *RANK_KEYS})


def read_card(typed: str, key: str) -> tuple[str, tuple[int, str] | None]:
    """A card's name typed key by key: a rank (``a 2``–``9 10 j q k``), then a suit (``c d h s``).

    ``typed``: the keys so far (one of :data:`TYPED`). Returns what is typed after ``key`` and
    the card, (rank, suit letter), once its name is whole; ``("", None)`` when ``key`` does not
    continue a name (nothing is typed then).
    """
    return read_card_in(typed, key)  # the Latin codes: English reads nothing else


def card_name(rank: int, suit: str) -> str:
    return f"{rank_text(rank)}{suit}"


__all__ = [
    "RANK_KEYS",
    "SUIT_KEYS",
    "TARGET_KEYS",
    "TYPED",
    "Choice",
    "Picker",
    "card_name",
    "picker_for",
    "read_card",
    "target_keys",
]
