"""The full-screen table's title bar: the game and its facts on the left, the scores on the
right, in the width given, the names in it shortened (then the scores' label dropped, then the
facts cut) until it fits (:func:`title_line`)."""

from __future__ import annotations

from rich.text import Text

from fairdeal.core.tableview import TableView

from ..render import score_name, score_words
from ._faces import NAME_ROOM, WHO_ROOM, Namer, short, words_text


def title_line(title: str, view: TableView | None, names: Namer, width: int, ascii: bool) -> Text:
    """The title bar in ``width`` cells: the game, its facts on the left, the scores on the right.

    When it is too long the names in it are shortened (a remark in brackets goes first, then
    the name is cut), then the scores lose their label (``Points —``), and only then is the end
    of the facts cut.
    """
    tries = [(room, True) for room in (None, NAME_ROOM, WHO_ROOM)] + [(WHO_ROOM, False), (5, False)]
    for room, label in tries:
        namer = names if room is None else (lambda seat, r=room: short(names(seat), r))
        left = Text(title, style="bold")
        right = Text()
        if view is not None:
            for fact in view.facts:
                left.append(" · ", style="dim")
                left.append_text(words_text(fact, namer, ascii))
            words = score_words(view)
            right = words_text(words if label else words[1:], namer, ascii)
            if label:
                right.stylize("dim", 0, len(score_name(view)) + 2)
        if left.cell_len + 2 + right.cell_len <= width:
            break
    room_left = max(0, width - right.cell_len - 2)
    if left.cell_len > room_left:
        left.truncate(room_left, overflow="ellipsis")
    pad = max(1, width - left.cell_len - right.cell_len)
    return left + Text(" " * pad) + right


__all__ = ["title_line"]
