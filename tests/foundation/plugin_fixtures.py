"""Small plugin modules for registry tests (loaded by name, never installed)."""

from __future__ import annotations

from fairdeal import BotSpec, RandomPolicy, hookimpl


class GoodPlugin:
    def __init__(self, game: object) -> None:
        self.game = game

    @hookimpl
    def fairdeal_games(self) -> list[object]:
        return [self.game]


class UnknownHook:
    @hookimpl
    def fairdeal_gamez(self) -> list[object]:
        return []


class BrokenGames:
    @hookimpl
    def fairdeal_games(self) -> list[object]:
        raise RuntimeError("boom")


class InvalidGame:
    @hookimpl
    def fairdeal_games(self) -> list[object]:
        return ["not a game"]


class ExtraBot:
    @hookimpl
    def fairdeal_bots(self) -> list[object]:
        return [
            BotSpec("crazy-eights", "lucky", "random with a name", RandomPolicy),
            BotSpec("no-such-game", "x", "for nothing", RandomPolicy),
        ]
