"""What a typed line means in line mode: :func:`interpret` reads it against the moves on offer
as a move's number, a command (:data:`COMMANDS`), the first words of a move (``draw``,
``play 7h``) or a card in it (``7h``, ``10♥``), and gives a :class:`Reply`; anything unclear
is an error naming the candidates, nothing is ever guessed. :func:`help_text` is the ``help``
answer, with examples taken from the moves."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from fairdeal.i18n import gettext as _
from fairdeal.i18n import ngettext, pgettext

from .render import card_token

#: Each command and the English words that call it (the whole reply must be one of them); the
#: language spoken adds its own word for each (:func:`command_words`).
COMMANDS: dict[str, tuple[str, ...]] = {
    "help": ("help", "h", "?"),
    "moves": ("moves", "list"),
    "table": ("table", "show"),
    "log": ("log", "history"),
    "rules": ("rules",),
    "quit": ("quit", "q", "resign", "exit"),
    "adjourn": ("adjourn",),
}
_COMMAND_OF = {word: name for name, words in COMMANDS.items() for word in words}
_WORD = re.compile(r"[^\s,;:()]+")
#: Persian and Arabic digits, typed for a move's number, as ASCII ones.
_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "01234567890123456789")
#: What a Persian keyboard may type differently in a word: the joiner, the Arabic forms of ی and ک.
_LETTERS = str.maketrans({"\u200c": None, "ي": "ی", "ك": "ک"})


def command_words() -> dict[str, str]:
    """Each command's word in the language spoken, as help shows it (the English words work too)."""
    return {
        "help": pgettext("line-mode command", "help"),
        "moves": pgettext("line-mode command", "moves"),
        "table": pgettext("line-mode command", "table"),
        "log": pgettext("line-mode command", "log"),
        "rules": pgettext("line-mode command", "rules"),
        "quit": pgettext("line-mode command", "quit"),
        "adjourn": pgettext("line-mode command", "adjourn"),
    }


def command_of(typed: str) -> str | None:
    """The command a whole typed reply calls (lower case): an English word, or the language's."""
    if typed in _COMMAND_OF:
        return _COMMAND_OF[typed]
    plain = typed.translate(_LETTERS)
    return next(
        (name for name, word in command_words().items() if word.lower().translate(_LETTERS) == plain), None
    )


@dataclass(frozen=True, slots=True)
class Reply:
    """What a typed line means: a move (``index`` into the moves), a command, or a problem.

    ``kind`` is ``"move"``, ``"command"``, ``"empty"`` or ``"error"`` (``message`` says why,
    in one line).
    """

    kind: str
    index: int = -1
    command: str = ""
    message: str = ""


def _tokens(text: str) -> list[str]:
    """Lower-case words of ``text``, cards as keys (``7♥`` → ``7h``)."""
    out = []
    for word in _WORD.findall(text.lower()):
        out.append(card_token(word) or word)
    return out


def _fits(typed: str, word: str) -> bool:
    """Whether one typed word stands for one word of a description."""
    if card_token(typed) is not None or (typed.isascii() and typed.isdigit()):
        return typed == word  # cards and numbers exactly: "1" must not mean "10"
    return word.startswith(typed)


def _leading(typed: list[str], words: list[str]) -> bool:
    return len(typed) <= len(words) and all(_fits(t, w) for t, w in zip(typed, words, strict=False))


def _in_order(typed: list[str], words: list[str]) -> bool:
    i = 0
    for w in words:
        if i < len(typed) and _fits(typed[i], w):
            i += 1
    return i == len(typed)


def _candidates(raw: str, picks: list[int], descriptions: Sequence[str], width: int) -> str:
    """One line naming the moves ``raw`` fits: their numbers, and where they differ if that fits."""

    def line(listed: str) -> str:
        n = len(picks)
        text = ngettext("{typed} fits {n} move: {moves} — type its number.",
                        "{typed} fits {n} moves: {moves} — type its number.", n)  # fmt: skip
        return text.format(typed=repr(raw), n=n, moves=listed)

    split = [descriptions[i].split() for i in picks]
    same = 0
    while all(len(w) > same + 1 for w in split) and len({w[same] for w in split}) == 1:
        same += 1
    keep = max(0, same - 1)  # one shared word for context: "…centre 1", "…centre 2"
    parts = [f"{i + 1} {'…' if keep else ''}{' '.join(w[keep:])}" for i, w in zip(picks, split, strict=True)]
    said = line(" · ".join(parts))
    if len(said) <= width:
        return said
    numbers = [str(i + 1) for i in picks]
    if len(numbers) > 12:
        numbers = [*numbers[:12], "…"]
    return line(", ".join(numbers))


def interpret(raw: str, descriptions: Sequence[str], width: int = 80) -> Reply:
    """Read a typed line against the moves described by ``descriptions`` (numbered from 1).

    Commands win when the line is exactly a command word. A move is found by number, by
    its first words (``play 7h`` for ``play 7♥ onto centre 2``; a word may be shortened)
    or, failing that, by words found in it in order (``7h``, ``7h centre 2``). Two or more
    moves fitting is an error listing them.
    """
    text = raw.strip()
    n = len(descriptions)
    if not text:
        return Reply("empty")
    low = text.lower()
    command = command_of(low)
    if command is not None:
        return Reply("command", command=command)
    number = low.translate(_DIGITS)  # Persian ۳ too, but never "²" (int() refuses it)
    if number.isascii() and number.isdigit():
        k = int(number)
        if 1 <= k <= n:
            return Reply("move", index=k - 1)
        no_move = _("There is no move {k}: type a number from 1 to {n}, or help.")
        return Reply("error", message=no_move.format(k=k, n=n))
    typed = _tokens(text)
    said = [_tokens(d) for d in descriptions]
    for test in (_leading, _in_order):
        picks = [i for i, w in enumerate(said) if test(typed, w)]
        if len(picks) == 1:
            return Reply("move", index=picks[0])
        if picks:
            return Reply("error", message=_candidates(text, picks, descriptions, width))
    cards = [t for t in typed if card_token(t) is not None]
    if cards and len(cards) == len(typed):
        no_move = _("No move with {cards}: type a number from 1 to {n}, or help.")
        return Reply("error", message=no_move.format(cards=text, n=n))
    nothing = _("{typed} is not a move or a command: type a number from 1 to {n}, or help.")
    return Reply("error", message=nothing.format(typed=repr(text), n=n))


def help_text(game_title: str, descriptions: Sequence[str]) -> list[str]:
    """The ``help`` answer, with examples taken from the moves on offer."""
    example = ""
    for d in descriptions:
        words = d.split()
        if len(words) >= 2 and card_token(words[1].rstrip(",:")):
            example = f"{words[0]} {card_token(words[1].rstrip(',:'))}"
            break
    if not example and descriptions:
        example = descriptions[0].split()[0]
    n = len(descriptions)
    if example:
        first = _('Type the number of a move (1 to {n}), or its first words ("{example}"), or a card in it '
                  '("7h", "10s").').format(n=n, example=example)  # fmt: skip
    else:
        first = _('Type the number of a move (1 to {n}), or its first words, or a card in it ("7h", "10s").')
        first = first.format(n=n)
    command = command_words()
    rows = [
        (command["help"], _("this text")),
        (command["moves"], _("list your moves again")),
        (command["table"], _("show the table again")),
        (command["log"], _("what happened lately")),
        (command["rules"], _("the rules of {game}").format(game=game_title)),
        (command["quit"], _("resign this game (asks first; the log records it)")),
        (command["adjourn"], _("propose to stop and go on later (a network game: every player must agree)")),
    ]
    column = max(8, *(len(word) + 1 for word, _what in rows))
    return [
        first,
        _("Commands:"),
        *(f"  {word.ljust(column)}{what}" for word, what in rows),
        _("Ctrl-D asks, then resigns (the end of piped input resigns at once); Ctrl-C leaves the game."),
    ]


__all__ = ["COMMANDS", "Reply", "command_of", "command_words", "help_text", "interpret"]
