"""The game's own words in the language spoken (:class:`fairdeal.Catalog`: its catalogs are in
``locale/`` beside this module; scripts/catalogs.py extracts and compiles them)."""

from __future__ import annotations

from fairdeal import N_, Catalog

CATALOG = Catalog(__package__ or __name__.rpartition(".")[0])
_ = CATALOG.gettext
ngettext = CATALOG.ngettext

__all__ = ["CATALOG", "N_", "_", "ngettext"]
