"""fairdeal: card games peer to peer, with no trusted dealer.

This package top is the API for plugin authors (plugin API :data:`PLUGIN_API`): a game
subclasses :class:`Game`, its state subclasses :class:`GameState`, and an entry point in the
``fairdeal`` group names the game class (or a module whose hook implementations are marked
with :data:`hookimpl`). See ``docs/plugins.md``.
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
    PLUGIN_API,
    Auto,
    Bot,
    BotSpec,
    Chance,
    Decide,
    FaceDown,
    Find,
    Game,
    GameState,
    Line,
    Move,
    MoveWords,
    Over,
    Policy,
    RandomPolicy,
    Result,
    Search,
    Step,
    Verb,
)
from fairdeal.core.table import RuledOut, Table, Visibility, Zone
from fairdeal.core.tableview import Facing, MoveParts, Pile, Region, Seat, Spread, TableView, Words
from fairdeal.core.worlds import Worlds, sample_world
from fairdeal.hookspecs import hookimpl
from fairdeal.i18n import N_, Catalog

__version__ = "0.1.0"

__all__ = [
    "ACE",
    "JACK",
    "KING",
    "N_",
    "PLUGIN_API",
    "QUEEN",
    "SUITS",
    "Auto",
    "Bot",
    "BotSpec",
    "Card",
    "Catalog",
    "Chance",
    "Config",
    "ConfigError",
    "Decide",
    "FaceDown",
    "Facing",
    "FairdealError",
    "Find",
    "Game",
    "GameState",
    "IllegalMove",
    "Line",
    "LocalProtocolError",
    "Move",
    "MoveParts",
    "MoveWords",
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
    "RuledOut",
    "Search",
    "Seat",
    "Spread",
    "Step",
    "Suit",
    "Table",
    "TableView",
    "Verb",
    "Visibility",
    "Words",
    "Worlds",
    "Zone",
    "__version__",
    "build_deck",
    "ecarte_32",
    "hookimpl",
    "parse_card",
    "rank_text",
    "rank_word",
    "sample_world",
    "snatch_32",
    "standard_52",
]
