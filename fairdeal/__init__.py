"""fairdeal: card games peer to peer, with no trusted dealer.

This package top is the API for plugin authors: a game subclasses :class:`Game`,
its state subclasses :class:`GameState`, and its plugin module marks hook
implementations with :data:`hookimpl` (see ``docs/plugins.md``).
"""

from fairdeal.core.cards import (
    ACE,
    JACK,
    KING,
    QUEEN,
    SUITS,
    Card,
    Suit,
    build_deck,
    ecarte_32,
    parse_card,
    rank_text,
    rank_word,
    snatch_32,
    standard_52,
)
from fairdeal.core.errors import (
    ConfigError,
    FairdealError,
    IllegalMove,
    LocalProtocolError,
    PluginError,
    ProtocolError,
    RemoteProtocolError,
)
from fairdeal.core.options import Config, Option
from fairdeal.core.rules import (
    Auto,
    BotSpec,
    Chance,
    Decide,
    FaceDown,
    Game,
    GameState,
    Line,
    Move,
    Over,
    Policy,
    RandomPolicy,
    Result,
    Step,
)
from fairdeal.core.table import Table, Visibility, Zone
from fairdeal.core.tableview import Facing, MoveParts, Pile, Region, Seat, Spread, TableView, Words
from fairdeal.hookspecs import hookimpl

__version__ = "0.1.0"

__all__ = [
    "ACE",
    "JACK",
    "KING",
    "QUEEN",
    "SUITS",
    "Auto",
    "BotSpec",
    "Card",
    "Chance",
    "Config",
    "ConfigError",
    "Decide",
    "FaceDown",
    "Facing",
    "FairdealError",
    "Game",
    "GameState",
    "IllegalMove",
    "Line",
    "LocalProtocolError",
    "Move",
    "MoveParts",
    "Option",
    "Over",
    "Pile",
    "PluginError",
    "Policy",
    "ProtocolError",
    "RandomPolicy",
    "Region",
    "RemoteProtocolError",
    "Result",
    "Seat",
    "Spread",
    "Step",
    "Suit",
    "Table",
    "TableView",
    "Visibility",
    "Words",
    "Zone",
    "__version__",
    "build_deck",
    "ecarte_32",
    "hookimpl",
    "parse_card",
    "rank_text",
    "rank_word",
    "snatch_32",
    "standard_52",
]
