"""Bounds of the deck protocol that every part checks against."""

from __future__ import annotations

MAX_PLAYERS = 10
#: Most cards in one shuffle round (and shares in one message).
MAX_DECK = 1024
#: Bound of tokens, round and random-choice indices.
MAX_INDEX = 2**32
#: Most shuffle rounds in one game.
MAX_ROUNDS = 4096
#: Bound of the range of a joint random choice.
MAX_CHOICE = 2**63
