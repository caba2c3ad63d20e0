"""The table's canvas: lines of rich text being built with the clickable places on them
(:class:`Line`, each place a :class:`Hit`), blocks of such lines of one width (:class:`Block`),
and the two ways blocks are set on the table: side by side, wrapping when the width is full
(:func:`flow`), and small groups of lines in columns (:func:`pack`)."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text


@dataclass(frozen=True, slots=True)
class Hit:
    """Something clickable on line ``y`` between columns ``x0`` and ``x1`` (excluded)."""

    y: int
    x0: int
    x1: int
    token: int | None = None
    zone: str | None = None


class Line:
    """A line being built: text plus the hits on it (x positions relative to its start)."""

    def __init__(self) -> None:
        self.text = Text()
        self.hits: list[Hit] = []

    @property
    def width(self) -> int:
        return self.text.cell_len

    def add(
        self, part: Text | str, style: str = "", token: int | None = None, zone: str | None = None
    ) -> None:
        t = part if isinstance(part, Text) else Text(part, style=style)
        x0 = self.width
        self.text.append_text(t)
        if token is not None or zone is not None:
            self.hits.append(Hit(0, x0, self.width, token, zone))

    def pad(self, width: int) -> None:
        if self.width < width:
            self.text.append(" " * (width - self.width))


class Block:
    """Some lines of equal width, with their hits."""

    def __init__(self, lines: list[Line]) -> None:
        self.lines = lines
        self.width = max((ln.width for ln in lines), default=0)
        for ln in lines:
            ln.pad(self.width)

    @property
    def height(self) -> int:
        return len(self.lines)


def flow(blocks: list[Block], width: int, gap: int = 2) -> list[Line]:
    """Blocks set side by side, wrapping to the next band when the width is full."""
    out: list[Line] = []
    band: list[Block] = []
    used = 0

    def flush() -> None:
        if not band:
            return
        height = max(b.height for b in band)
        for r in range(height):
            line = Line()
            for i, b in enumerate(band):
                if i:
                    line.add(" " * gap)
                x0 = line.width
                if r < b.height:
                    src = b.lines[r]
                    line.text.append_text(src.text)
                    line.hits.extend(Hit(0, h.x0 + x0, h.x1 + x0, h.token, h.zone) for h in src.hits)
                else:
                    line.add(" " * b.width)
            out.append(line)

    for b in blocks:
        need = b.width + (gap if band else 0)
        if band and used + need > width:
            flush()
            band, used = [], 0
            need = b.width
        band.append(b)
        used += need
    flush()
    return out


def pack(groups: list[list[Line]], width: int) -> list[Line]:
    """Small regions (one or two lines each) set in columns, so ten players fit."""
    col = max(ln.width for g in groups for ln in g) + 3
    per_row = max(1, (width + 3) // col)
    out: list[Line] = []
    for start in range(0, len(groups), per_row):
        row_groups = groups[start : start + per_row]
        height = max(len(g) for g in row_groups)
        for r in range(height):
            line = Line()
            for i, g in enumerate(row_groups):
                x0 = i * col
                line.pad(x0)
                if r < len(g):
                    src = g[r]
                    base = line.width
                    line.text.append_text(src.text)
                    line.hits.extend(Hit(0, h.x0 + base, h.x1 + base, h.token, h.zone) for h in src.hits)
            out.append(line)
    return out


__all__ = ["Block", "Hit", "Line", "flow", "pack"]
