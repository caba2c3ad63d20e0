"""The game's own words in the language spoken (:class:`fairdeal.Catalog`: its catalogs are in
``locale/`` beside this module; scripts/catalogs.py extracts and compiles them), and the words it
writes into the log, which stay English.

Every seat signs a result's ``reason`` and ``standing`` into the log and compares them byte for
byte, so they are written in English from the messages of :data:`LOG` (:class:`Said`), whatever
the language spoken; a seat is a placeholder whose English value is ``seat N``. Front ends show
them in their language with :meth:`Words.again`, which finds the message a text was made from —
with its plural, and the list of games a standing holds, each game in words of its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from fairdeal import N_, Catalog

#: What the English value of a log message's placeholder looks like: a seat, a list of games,
#: else a number.
_SEATS = frozenset({"seat", "first", "second"})
_ANY = frozenset({"games"})
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def _pattern(message: str) -> re.Pattern[str]:
    """A pattern that matches ``message`` formatted in English, each placeholder a named group."""
    parts, last = [], 0
    for m in _PLACEHOLDER.finditer(message):
        parts.append(re.escape(message[last : m.start()]))
        name = m.group(1)
        value = r"seat \d+" if name in _SEATS else ".+" if name in _ANY else r"-?\d+"
        parts.append(f"(?P<{name}>{value})")
        last = m.end()
    parts.append(re.escape(message[last:]))
    return re.compile("".join(parts), re.DOTALL)


@dataclass(frozen=True)
class Said:
    """A message the game writes into the log: English whatever the language spoken, shown in the
    reader's language by :meth:`Words.again`.

    ``plural`` is the English plural of a message with one (:meth:`ngettext`), ``count`` the
    placeholder that holds its number; ``items`` a placeholder that holds a list of other log
    messages joined by :data:`JOIN` (a standing's games).
    """

    message: str
    plural: str = ""
    count: str = ""
    items: str = ""

    @classmethod
    def ngettext(cls, singular: str, plural: str, count: str, items: str = "") -> Said:
        """A message with a plural (named so that the extractor reads its two forms as one message
        with a plural, as it reads ``ngettext``): ``count`` names the placeholder that holds n."""
        return cls(singular, plural, count, items)

    def english(self, **values: object) -> str:
        """The message in English, as the log holds it."""
        message = self.message
        if self.plural and values[self.count] != 1:
            message = self.plural
        return message.format(**values)

    def match(self, text: str) -> dict[str, str] | None:
        """The values ``text`` was made with, if it is this message in English."""
        for form in (self.message, self.plural) if self.plural else (self.message,):
            found = _pattern(form).fullmatch(text)
            if found is not None:
                return found.groupdict()
        return None

    def again(self, words: Catalog, values: Mapping[str, str]) -> str:
        """The message made with ``values`` in the language of ``words``."""
        if self.plural:
            message = words.ngettext(self.message, self.plural, int(values[self.count]))
        else:
            message = words.gettext(self.message)
        shown = dict(values)
        if self.items in shown:
            items = [words.again(item) for item in shown[self.items].split(SEPARATOR)]
            joined = items[0]
            for item in items[1:]:
                joined = words.gettext(JOIN).format(games=joined, game=item)
            shown[self.items] = joined
        try:
            return message.format(**shown)
        except (KeyError, IndexError, ValueError):
            return self.english(**shown)


#: A list of games in a standing: the games so far, then one more.
JOIN = N_("{games}; {game}")
SEPARATOR = "; "

#: How a game of the match ended (kept in the state; its words are in the standing).
EMPTIED = Said(N_("{seat} emptied the payoff pile"))
STOCK_RAN_OUT = Said(N_("the stock ran out: drawn game"))
TOO_LONG = Said(N_("the game reached {moves} moves: drawn (safety rule)"))
#: A finished game in the standing.
GAME_DRAWN = Said(N_("game {number}: drawn"))
GAME_WON = Said(N_("game {number}: {seat} +{points}"))
#: The match's standing: each seat's points, how many games, and each game.
STANDING = Said.ngettext(
    "{first} {a}, {second} {b} after {n} game ({games})",
    "{first} {a}, {second} {b} after {n} games ({games})",
    "n",
    "games",
)
#: Why the match ended.
REACHED = Said.ngettext("{seat} reached {points} point", "{seat} reached {points} points", "points")
LEVEL = Said.ngettext(
    "{n} games played (safety rule): level, drawn match",
    "{n} games played (safety rule): level, drawn match",
    "n",
)
LEADS = Said.ngettext(
    "{n} games played (safety rule): {seat} leads",
    "{n} games played (safety rule): {seat} leads",
    "n",
)
#: Every message of the log, the most specific first.
LOG: tuple[Said, ...] = (
    STANDING,
    LEVEL,
    LEADS,
    REACHED,
    TOO_LONG,
    STOCK_RAN_OUT,
    EMPTIED,
    GAME_WON,
    GAME_DRAWN,
)


def seat(n: int) -> str:
    """A seat in the log's words (front ends write the seat's name there)."""
    return f"seat {n}"


class Words(Catalog):
    """The game's catalog: :meth:`again` also knows the log's messages with a plural and the games
    listed in a standing."""

    def again(self, text: str) -> str:
        for said in LOG:
            values = said.match(text)
            if values is not None:
                return said.again(self, values)
        return super().again(text)


CATALOG = Words(__package__ or __name__.rpartition(".")[0])
_ = CATALOG.gettext
ngettext = CATALOG.ngettext

__all__ = ["CATALOG", "LOG", "N_", "Said", "Words", "_", "ngettext", "seat"]
