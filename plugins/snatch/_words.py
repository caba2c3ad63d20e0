"""The game's own words in the language spoken (:class:`fairdeal.Catalog`: its catalogs are in
``locale/`` beside this module; scripts/catalogs.py extracts and compiles them).

What the game writes into the log stays English (a result's ``reason`` and ``standing``, made from
messages marked with :func:`N_`, a seat written ``seat N``); :meth:`SnatchCatalog.again` says it in
the reader's language. A standing is made of several messages (who won after how many tricks, then
who is out and why), so it is said again part by part.
"""

from __future__ import annotations

import re

from fairdeal import N_, Catalog

#: The parts of a standing, as :func:`~fairdeal.plugins.snatch.view.standing` writes them (English).
WON = N_("{seat} won after {n} tricks")
NO_WINNER = N_("no winner after {n} tricks")
OUT = N_("out: {seats}")
OUT_SEAT = N_("{seat} ({why})")
#: Between the parts of a standing, and between the seats that are out (as written in the log).
PARTS, SEATS = "; ", ", "

_WON = re.compile(r"seat \d+ won after \d+ tricks")
_NO_WINNER = re.compile(r"no winner after \d+ tricks")
_OUT_SEAT = re.compile(r"(seat \d+) \((.+)\)")


class SnatchCatalog(Catalog):
    """Snatch!'s catalog: :meth:`again` says a whole standing too, part by part."""

    def again(self, text: str) -> str:
        parts = text.split(PARTS)
        if len(parts) == 1 and not text.startswith("out: "):
            return super().again(text)
        said = []
        for part in parts:
            words = self._part(part)
            if words is None:  # not a standing of this game: as the catalog finds it
                return super().again(text)
            said.append(words)
        return self.pgettext("between the parts of the end's standing", "; ").join(said)

    def _part(self, part: str) -> str | None:
        if _WON.fullmatch(part) or _NO_WINNER.fullmatch(part):
            return super().again(part)
        if not part.startswith("out: "):
            return None
        seats = []
        for item in part.removeprefix("out: ").split(SEATS):
            found = _OUT_SEAT.fullmatch(item)
            if found is None:
                return None
            why = super().again(found.group(2))
            seats.append(self.gettext(OUT_SEAT).format(seat=found.group(1), why=why))
        joined = self.pgettext("between the players who are out", ", ").join(seats)
        return self.gettext(OUT).format(seats=joined)


CATALOG = SnatchCatalog(__package__ or __name__.rpartition(".")[0])
_ = CATALOG.gettext
ngettext = CATALOG.ngettext
pgettext = CATALOG.pgettext

__all__ = [
    "CATALOG",
    "NO_WINNER",
    "N_",
    "OUT",
    "OUT_SEAT",
    "PARTS",
    "SEATS",
    "WON",
    "_",
    "ngettext",
    "pgettext",
]
