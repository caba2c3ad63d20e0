"""The game's own words in the language spoken (:class:`fairdeal.Catalog`: its catalogs are in
``locale/`` beside this module; scripts/catalogs.py extracts and compiles them)."""

from __future__ import annotations

from fairdeal import N_, Catalog

CATALOG = Catalog(__package__ or __name__.rpartition(".")[0])
_ = CATALOG.gettext
ngettext = CATALOG.ngettext
#: A message as meant in a context: ``pgettext("you", ...)`` is said to the reader of their own
#: seat (the English is the same; other languages conjugate for "you").
pgettext = CATALOG.pgettext

__all__ = ["CATALOG", "N_", "_", "ngettext", "pgettext"]
