"""Shared test helpers."""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator, Sequence
from importlib import metadata
from pathlib import Path

import pytest
from hypothesis import settings

from fairdeal import Game, GameState, Move
from fairdeal.plugins.ecarte import ClassicBot, Ecarte, EcarteState
from fairdeal.plugins.ecarte.model import TRICK, hand

# Tests never reach beyond this machine: no public relay or mailbox by default, no mDNS on real
# interfaces (the processes the tests start inherit this). Tests of the relay, of short codes and
# of the LAN set their own.
os.environ["FAIRDEAL_RELAY"] = "none"
os.environ["FAIRDEAL_MAILBOX"] = "none"
os.environ["FAIRDEAL_LAN"] = "off"
# The suite speaks English whatever the machine's language; tests of other languages ask for theirs.
os.environ["FAIRDEAL_LANG"] = "en"

# No example has a time limit: the suite runs a worker per core, beside network tests that keep
# the CPU busy, and a property's worth is in its examples, not in how fast one ran.
settings.register_profile("fairdeal", deadline=None)
settings.load_profile("fairdeal")


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    """Each test starts in English: a ``--lang`` run through CliRunner keeps its language after."""
    from fairdeal import i18n

    i18n.use("en")
    yield
    i18n.use("en")


REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
EXAMPLE = REPO / "examples" / "crazy-eights"


def _installed() -> list[metadata.EntryPoint]:
    return [ep for ep in metadata.entry_points(group="fairdeal") if ep.name == "crazy-eights"]


@pytest.fixture
def example_entry_points(tmp_path: Path) -> Iterator[list[metadata.EntryPoint]]:
    """The example plugin's entry points, found through distribution metadata.

    If the example distribution is installed, its real metadata is used; otherwise a
    dist-info folder is written, as pip would, and the example's source is put on the path.
    The test never imports the plugin module itself.
    """
    eps = _installed()
    if eps:
        yield eps
        return
    info = tmp_path / "fairdeal_crazy_eights-1.0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fairdeal-crazy-eights\nVersion: 1.0.0\n")
    (info / "entry_points.txt").write_text("[fairdeal]\ncrazy-eights = fairdeal_crazy_eights:CrazyEights\n")
    sys.path.insert(0, str(EXAMPLE))
    try:
        dists = list(metadata.distributions(path=[str(tmp_path)]))
        yield [ep for d in dists for ep in d.entry_points if ep.group == "fairdeal"]
    finally:
        sys.path.remove(str(EXAMPLE))
        sys.modules.pop("fairdeal_crazy_eights", None)


@pytest.fixture
def shared_dir() -> Path:
    """The project's shared folder (rules, vectors); skip where it is absent."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED


class Renegade:
    """Plays like the classic Écarté bot, but once throws a card of another suit while holding the suit led.

    It reneges only where the other seat cannot see it (the card of the suit led is still hidden in
    its hand), and ``cheated`` says whether it has. Its seat plays by :meth:`own_rules`, which let
    the play through.
    """

    def __init__(self) -> None:
        self.inner = ClassicBot()
        self.cheated = False

    def choose(
        self, game: Game, state: GameState, player: int, moves: Sequence[Move], rng: random.Random
    ) -> Move:
        assert isinstance(state, EcarteState)
        t = state.table
        led = t.top_card(TRICK)
        if not self.cheated and led is not None:
            mine = t.known(hand(player))
            off = [x for x, c in mine if c.suit is not led.suit and c.suit is not state.trump]
            if off and any(c.suit is led.suit and not t.is_public(x) for x, c in mine):
                self.cheated = True
                return Move("play", (off[0],))
        return self.inner.choose(game, state, player, moves, rng)

    @staticmethod
    def own_rules() -> Ecarte:
        """The reneging seat's own copy of the rules, which lets its illegal play through."""
        return _Lenient()


class _Lenient(Ecarte):
    def is_legal(self, state: GameState, player: int, move: Move) -> bool:
        return True


@pytest.fixture
def renegade() -> Renegade:
    """A fresh reneging Écarté bot (test modules cannot import conftest under importlib mode)."""
    return Renegade()
