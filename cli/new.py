"""``fairdeal new NAME``: start a game plugin, a package that installs and passes its tests at once.

The package holds a tiny complete game (a trick game of three cards each) written to the
plugin API, its rules in ``rules.txt``, the ``pyproject.toml`` whose entry point names the
game class, and a test that runs the conformance kit and plays the game's bots over the
real protocol. ``docs/plugins.md`` explains every line of it.
"""

from __future__ import annotations

import re
from pathlib import Path

import click

from fairdeal.core.errors import ConfigError
from fairdeal.i18n import N_
from fairdeal.i18n import gettext as _

from .main import cli, friendly_errors, load_registry

_NAME = re.compile(r"^[a-z][a-z0-9-]{0,31}$")


def names(name: str) -> dict[str, str]:
    """What the files say for game ``name``: its module, class and title, and the distribution."""
    words = name.split("-")
    return {
        "name": name,
        "module": "fairdeal_" + name.replace("-", "_"),
        "cls": "".join(w.capitalize() for w in words) or "Game",
        "title": " ".join(w.capitalize() for w in words),
        "dist": f"fairdeal-{name}",
    }


def plugin_files(name: str) -> dict[str, str]:
    """The files of a new plugin for game ``name``, by path inside its folder."""
    n = names(name)
    return {
        "pyproject.toml": _PYPROJECT.format(**n),
        "README.md": _README.format(**n),
        f"{n['module']}/__init__.py": _GAME.format(**n),
        f"{n['module']}/rules.txt": _RULES.format(**n),
        f"tests/test_{n['module']}.py": _TEST.format(**n),
    }


def write_plugin(name: str, folder: Path) -> list[Path]:
    """Write the plugin for game ``name`` into ``folder`` (which must not exist); return the files."""
    if not _NAME.match(name):
        bad = _("{name} cannot name a game: lower-case letters, digits and dashes, a letter first")
        raise ConfigError(bad.format(name=repr(name)))
    if folder.exists():
        raise ConfigError(
            _("{folder} exists already: give another name or --into a new folder").format(folder=folder)
        )
    written = []
    for rel, text in plugin_files(name).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


@cli.command()
@click.argument("name")
@click.option(
    "--into",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help=N_("The folder to make (default: ./fairdeal-NAME)."),
)
@friendly_errors
def new(name: str, into: Path | None) -> None:
    """Start a game plugin called NAME: a package with a tiny complete game, ready to change.

    It writes a folder (fairdeal-NAME) with the game module, its rules, the pyproject.toml
    that registers it and a test; install it next to fairdeal and it is one of your games.
    docs/plugins.md explains every line.

    \b
    Example:
      fairdeal new go-fish
      .venv/bin/pip install -e "./fairdeal-go-fish[test]"
      fairdeal games
      cd fairdeal-go-fish && ../.venv/bin/python -m pytest
    """
    if _NAME.match(name):
        reg = load_registry()
        if name in reg.games:
            entry = reg.entry(name)
            taken = _("a game called {name} is installed already (from {distribution})")
            raise ConfigError(taken.format(name=repr(name), distribution=entry.distribution))
    folder = into if into is not None else Path(f"fairdeal-{name}")
    write_plugin(name, folder)
    n = names(name)
    made = _("Made {folder}/: the game {title} in {module}/__init__.py, its rules in rules.txt.")
    click.echo(made.format(folder=folder, title=n["title"], module=n["module"]))
    pip, python = _tools()
    click.echo(_("Install it next to fairdeal, with its test extra (pytest), then play it and run its test:"))
    click.echo(f'  {pip} install -e "{folder}[test]"')
    click.echo(f"  fairdeal play {name} --seat human --seat bot")
    click.echo(f"  {python} -m pytest {folder}")


def _tools() -> tuple[str, str]:
    """The pip and python of the environment fairdeal runs from (./play.sh's .venv has no pytest
    until the plugin's test extra brings it), spelled as a person types them there."""
    import os
    import sys

    here = Path(sys.executable)
    pip = here.with_name("pip")
    if not pip.exists():
        return f"{sys.executable} -m pip", sys.executable
    rel = os.path.relpath(here.parent)
    folder = str(here.parent) if rel.startswith("..") else rel  # .venv/bin from the project's folder
    return f"{folder}/pip", f"{folder}/python"


_PYPROJECT = """\
[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "{dist}"
version = "0.1.0"
description = "{title}, a card game for fairdeal"
requires-python = ">=3.11"
dependencies = ["fairdeal"]

[project.optional-dependencies]
test = ["pytest"]

# What makes this a fairdeal plugin: an entry point in the `fairdeal` group naming the game class.
[project.entry-points.fairdeal]
{name} = "{module}:{cls}"

[tool.setuptools]
packages = ["{module}"]

[tool.setuptools.package-data]
{module} = ["rules.txt"]
"""

_README = """\
# {dist}

{title}, a card game for fairdeal, made with `fairdeal new {name}`.

    pip install -e ".[test]"  # with the pip of the environment fairdeal runs from; [test] brings pytest
    fairdeal games            # {name} is listed
    fairdeal play {name} --seat human --seat bot
    python -m pytest          # the conformance kit and a game over the real protocol

The game is `{module}/__init__.py`, its rules `{module}/rules.txt`. fairdeal's
`docs/plugins.md` explains every line.
"""

_GAME = '''\
"""{title}: a fairdeal game (made by ``fairdeal new``; change it into yours).

Three cards each; each trick, every player plays one card, following suit if they can;
the highest card of the suit led takes it. Most tricks wins. See ``rules.txt``.
"""

import random
from dataclasses import dataclass, replace

from fairdeal import (
    Bot,
    Card,
    Config,
    Decide,
    Game,
    GameState,
    Move,
    MoveWords,
    Over,
    Result,
    Table,
    TableView,
    Verb,
    Zone,
)

HAND = 3


def hand(p: int) -> str:
    return f"hand{{p}}"


@dataclass(frozen=True)
class TrickState(GameState):
    turn: int = 0  # who plays next
    leader: int = 0  # who led the trick on the table
    tricks: tuple[int, ...] = ()  # tricks taken, by seat


class Highest:
    """Plays the highest card it may."""

    def choose(
        self, game: Game, state: GameState, player: int, moves: list[Move], rng: random.Random
    ) -> Move:
        return max(moves, key=lambda m: rank(state.table.card(int(m.args[0]))))


def rank(card: Card | None) -> int:
    return card.rank if card is not None else 0


class {cls}(Game[TrickState]):
    api = 3
    name = "{name}"
    summary = "Three cards each: follow suit, take tricks."
    min_players = 2
    max_players = 4
    bots = (Bot("highest", "plays its highest card", Highest),)

    def zones(self, config: Config) -> list[Zone]:
        hands = [Zone.hand(hand(p), p) for p in range(config.players)]
        return [*hands, Zone.hidden("deck"), Zone.trick("trick"), Zone.public("taken", "tricks taken")]

    def setup(self, config: Config, table: Table) -> TrickState:
        for _ in range(HAND):
            for p in range(config.players):
                table.deal("deck", hand(p))  # an OWNER zone: the core shows each card to its owner
        return TrickState(table, tricks=(0,) * config.players)

    def next_step(self, state: TrickState) -> Decide | Over:
        if state.table.size("taken") == HAND * state.table.players:
            return Over(self.result(state))
        return Decide(state.turn)

    def legal_moves(self, state: TrickState, player: int) -> list[Move]:
        t = state.table
        led = t.card(t.tokens("trick")[0]) if t.size("trick") else None
        cards = t.known(hand(player))
        follow = [Move("play", (tok,)) for tok, card in cards if led is not None and card.suit == led.suit]
        return follow or [Move("play", (tok,)) for tok, _ in cards]  # any card only if you cannot follow

    def apply(self, state: TrickState, player: int, move: Move) -> TrickState:
        s = state.copy()
        t, n = s.table, s.table.players
        t.move(int(move.args[0]), "trick")  # a PUBLIC zone: the card is shown with the move
        if t.size("trick") < n:
            return replace(s, turn=(player + 1) % n)
        cards = [c for c in t.cards("trick") if c is not None]
        best = max(range(n), key=lambda i: (cards[i].suit == cards[0].suit, cards[i].rank))
        taker = (s.leader + best) % n
        for token in t.tokens("trick"):
            t.move(token, "taken")
        tricks = tuple(x + (p == taker) for p, x in enumerate(s.tricks))
        return replace(s, turn=taker, leader=taker, tricks=tricks)

    def result(self, state: TrickState) -> Result:
        most = max(state.tricks)
        best = [p for p, x in enumerate(state.tricks) if x == most]
        if len(best) > 1:
            return Result(None, state.tricks, "the most tricks are tied")
        return Result(best[0], state.tricks, f"seat {{best[0]}} took the most tricks")

    def words(self, state: TrickState, player: int, move: Move) -> MoveWords:
        return (Verb("play", "played"), state.table.card(int(move.args[0])))

    def view(self, state: TrickState, viewer: int | None) -> TableView:
        return TableView.of(state.table, scores=state.tricks, score_name="tricks")
'''

_RULES = """\
{title} — 2 to 4 players, one 52-card deck.

Deal: three cards each, the rest stays face down. The first player leads.

Play: in turn, each player plays one card face up. You must play a card of the
suit led if you have one; if you have none, play any card. When everyone has
played, the highest card of the suit led takes the trick (Ace is low: Ace, 2 …
10, Jack, Queen, King), and whoever took it leads the next.

End: after three tricks, the player who took the most wins; a tie for the most
has no winner. Every player scores the tricks they took.
"""

_TEST = '''\
"""{title} passes the conformance kit and plays a fair game over the real protocol."""

from fairdeal.testing import check_game, check_privacy, play_with_protocol
from {module} import {cls}


def test_the_conformance_kit_passes() -> None:
    check_game({cls}(), players=[2, 3, 4], seeds=range(20))


def test_no_seat_can_decrypt_a_card_it_may_not_know() -> None:
    check_privacy({cls}(), [2, 4], seeds=range(2))


def test_a_game_of_bots_over_the_protocol_verifies_fair() -> None:
    game = {cls}()
    bots = [game.bots[0].make() for _ in range(3)]
    played = play_with_protocol(game, 3, seed=1, policies=bots)
    assert played.verify(game).verdict == "fair"
'''
