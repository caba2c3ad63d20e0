"""The kit's one exception, :class:`ConformanceError`: a module of its own, so that every part of the
kit can raise it."""

from __future__ import annotations


class ConformanceError(AssertionError):
    """The game broke a rule of the rules API."""
