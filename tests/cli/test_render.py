"""Terminal rendering: cards, colour and plain text, the waiting line, move lookup, the summary."""

from __future__ import annotations

import contextlib
import io
import random
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import trio
from rich.text import Text

from fairdeal import registry
from fairdeal.cli.console import UI, is_interrupt, wants_plain
from fairdeal.cli.linemode import help_text, interpret
from fairdeal.cli.outcome import summary_lines
from fairdeal.cli.render import card_token, line_rich, line_text, styled, table_lines, to_ascii
from fairdeal.cli.waiting import StatusLine, describe_waiting
from fairdeal.core.cards import Card, Suit
from fairdeal.core.dealer import Finding, Verdict
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng
from fairdeal.core.rules import FaceDown, Result
from fairdeal.core.session.header import Header, SeatInfo
from fairdeal.core.session.session import Session
from fairdeal.net.driver import BotAgent
from fairdeal.net.local import play_local

SEVEN_H = Card(7, Suit.HEARTS)
QUEEN_S = Card(12, Suit.SPADES)
TEN_D = Card(10, Suit.DIAMONDS)


def _styles(text: Text) -> dict[str, str]:
    """What each styled span of ``text`` covers: {"7♥": "bold red", ...}."""
    return {text.plain[s.start : s.end]: str(s.style) for s in text.spans}


# -- lines -----------------------------------------------------------------------------------------------
def test_line_text_joins_segments_with_single_spaces() -> None:
    line = ("Your hand:", SEVEN_H, QUEEN_S, TEN_D, "  3 cards")
    assert line_text(line) == "Your hand: 7♥ Q♠ 10♦  3 cards"
    assert line_text(line, ascii=True) == "Your hand: 7H QS 10D  3 cards"


def test_face_down_cards() -> None:
    assert line_text(("Seat 1: ", FaceDown(4), "  4 cards")) == "Seat 1: [?]×4  4 cards"
    assert line_text(("Seat 1: ", FaceDown(4)), ascii=True) == "Seat 1: [?]x4"
    assert line_text(("Pile:", FaceDown(1))) == "Pile: [?]"
    assert line_text(("Pile:", FaceDown(0), "empty")) == "Pile: empty"


def test_cards_are_red_or_black() -> None:
    styles = _styles(line_rich(("Trick:", SEVEN_H, QUEEN_S, FaceDown(2))))
    assert styles["7♥"] == "bold red"
    assert styles["Q♠"] == "bold"
    assert "[?]×2" in styles


def test_ascii_has_no_colour_and_no_symbols() -> None:
    text = line_rich(("Trick:", SEVEN_H, " trump ♦ diamonds"), ascii=True)
    assert text.spans == []
    assert text.plain == "Trick: 7H trump D diamonds"


def test_cards_inside_words_are_coloured() -> None:
    text = styled("Bob played 7♥ from his hand onto centre 2; trump ♠, then 10♦")
    styles = _styles(text)
    assert styles == {"7♥": "bold red", "♠": "bold", "10♦": "bold red"}
    assert to_ascii("Bob played 7♥ onto Q♠") == "Bob played 7H onto QS"


def test_card_tokens() -> None:
    assert card_token("7h") == card_token("7♥") == card_token("7H") == "7h"
    assert card_token("10s") == card_token("10♠") == "10s"
    assert card_token("Qd") == "qd"
    for word in ("7", "h", "1h", "11s", "play", "7hh"):
        assert card_token(word) is None


# -- the console -----------------------------------------------------------------------------------------
def test_plain_when_no_color_ascii_or_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert not wants_plain(False, Tty())
    assert wants_plain(True, Tty())
    assert wants_plain(False, io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert wants_plain(False, Tty())
    monkeypatch.setenv("NO_COLOR", "")  # empty means unset (no-color.org)
    assert not wants_plain(False, Tty())


def test_colour_and_plain_output() -> None:
    line = ("Your hand:", SEVEN_H, QUEEN_S)
    colour = io.StringIO()
    UI(plain=False, file=colour, status=False).line(line)
    assert "\x1b[" in colour.getvalue() and "7♥" in colour.getvalue()
    plain = io.StringIO()
    UI(plain=True, file=plain, status=False).line(line)
    assert plain.getvalue() == "  Your hand: 7♥ Q♠\n"
    ascii = io.StringIO()
    ui = UI(ascii=True, file=ascii, status=False)
    ui.line(line)
    ui.rule("Game over")
    assert "\x1b" not in ascii.getvalue()
    assert ascii.getvalue().isascii()
    assert "Your hand: 7H QS" in ascii.getvalue()


def test_long_lines_wrap_within_80_columns() -> None:
    out = io.StringIO()
    ui = UI(plain=True, file=out, status=False)
    long_line = ("Trick:", *[f"seat {i} {c}" for i, c in enumerate(["8♥ (snatched)", "A♥", "Q♠"] * 6)])
    ui.line(long_line)
    ui.say("word " * 40)
    ui.rule("title")
    lines = out.getvalue().splitlines()
    assert len(lines) > 4
    assert all(len(x) <= 80 and x == x.rstrip() for x in lines)
    assert lines[0].startswith("  Trick: ") and lines[1].startswith("    seat")  # wrapped lines hang
    out.seek(0)
    out.truncate()
    ui.say("Rules:\n  1. follow suit\n\n  2. win")  # a text's own lines and indents are kept
    assert out.getvalue() == "Rules:\n  1. follow suit\n\n  2. win\n"


def test_seats_break_between_names() -> None:
    from fairdeal.cli.linemode import TerminalAgent

    names = tuple(f"Bot {i} (shrewd)" for i in range(6))
    session: Any = SimpleNamespace(seat=2, header=SimpleNamespace(names=names))
    agent = TerminalAgent(UI(plain=True, file=io.StringIO(), status=False))
    rows = [r.plain for r in agent._seats_lines(session)]
    assert rows == [
        "Bot 0 (shrewd) · Bot 1 (shrewd) · You (Bot 2 (shrewd)) · Bot 3 (shrewd)",
        "Bot 4 (shrewd) · Bot 5 (shrewd)",
    ]


def test_every_game_table_renders_within_80_columns() -> None:
    """Render each installed game's table after a few moves; nothing passes column 80."""
    from fairdeal.core.dealer import PlainDealer
    from fairdeal.core.rules import RandomPolicy
    from fairdeal.core.runner import GameTooLong, play_game

    reg = registry.load()
    for name in sorted(reg.games):
        game = reg.game(name)
        n = game.min_players
        out = io.StringIO()
        ui = UI(plain=True, file=out, status=False)

        def draw(ev: Any, replicas: Any, game: Any = game, ui: UI = ui) -> None:
            if ev.kind == "move":
                view = game.table_view(replicas[0].state, 0)
                names = {0: "You"}.get
                ui.print(
                    *table_lines(view, 0, lambda s: names(s) or "Bot 10 (shrewd)", ui.width - 2), indent=2
                )

        with contextlib.suppress(GameTooLong):  # forty moves are enough to look at
            play_game(
                game,
                game.config(n),
                PlainDealer(n, SeededRng(1)),
                [RandomPolicy()] * n,
                random.Random(1),
                observe=draw,
                max_moves=40,
            )
        text = out.getvalue()
        assert text, name
        assert max(len(x) for x in text.splitlines()) <= 80, name


# -- the waiting line ------------------------------------------------------------------------------------
def _wait_for(predicate: Any, timeout: float = 3.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def test_waiting_line_shows_only_after_the_delay_then_prints_news_at_once() -> None:
    out = io.StringIO()
    ui = UI(plain=True, file=out, status=False)
    line = StatusLine(ui, spinner=False, lines=True, delay=0.3)
    line.wait("waiting for Bob to move")
    line.news(Text("Alice played 7♥"))
    assert out.getvalue() == ""  # nothing yet: a quick answer never shows a waiting line
    assert _wait_for(lambda: "waiting for Bob" in out.getvalue())
    assert out.getvalue() == "  Alice played 7♥\n… waiting for Bob to move\n"
    line.news(Text("Bob played Q♠"))  # shown: news appears as it happens
    assert out.getvalue().endswith("  Bob played Q♠\n")
    line.wait(None)
    line.news(Text("Carol played 2♦"))  # not waiting: kept for the next table
    assert "Carol" not in out.getvalue()
    assert [t.plain for t in line.unseen()] == ["Carol played 2♦"]  # type: ignore[union-attr]
    line.close()


def test_quick_waits_show_nothing() -> None:
    out = io.StringIO()
    ui = UI(plain=True, file=out, status=False)
    line = StatusLine(ui, spinner=False, lines=True, delay=0.5)
    for i in range(5):
        line.wait(f"shuffling — {i} of 5 seats done")
        line.wait(None)
    time.sleep(0.6)
    assert out.getvalue() == ""
    line.close()


def test_spinner_on_a_terminal() -> None:
    out = io.StringIO()
    ui = UI(plain=False, file=out, status=True, delay=0.01)
    assert ui.status.enabled
    ui.status.wait("dealing — waiting for Bob's decryption shares")
    assert _wait_for(lambda: "decryption shares" in out.getvalue())
    ui.status.news(Text("Bob played 7♥"))
    ui.close()
    assert "Bob played" in out.getvalue()


def test_no_waiting_line_into_a_file() -> None:
    out = io.StringIO()
    ui = UI(file=out, delay=0.01)
    assert not ui.status.enabled
    ui.status.wait("waiting for Bob to move")
    time.sleep(0.05)
    assert out.getvalue() == ""


def test_describe_waiting_through_a_whole_game() -> None:
    """Every wait of a real local game (the protocol included) is said in words."""
    reg = registry.load()
    game = reg.game("ecarte")
    master = SeededRng(11)
    ids = [Identity.generate(master.fork(f"id-{i}")) for i in range(2)]
    names = ["Alice", "Bob"]
    header = Header(
        master.fork("game-id").bytes(16),
        game.name,
        "ecarte",
        "fairdeal",
        "0",
        dict(game.config(2).options),
        tuple(SeatInfo(names[i], ids[i].public_key, "bot") for i in range(2)),
    )
    sessions = [Session(game, i, ids[i], master.fork(f"seat-{i}")) for i in range(2)]
    bots = [BotAgent(reg.bot("ecarte").make(), random.Random(i)) for i in range(2)]
    seen: list[str] = []

    def observe(session: Session, events: Any) -> None:
        if session.seat == 1:
            said = describe_waiting(session)
            if said is not None and (not seen or seen[-1] != said):
                seen.append(said)

    trio.run(play_local, header, sessions, bots, observe)
    assert describe_waiting(sessions[1]) is None
    assert "exchanging keys — 1 of 2 seats done" in seen
    assert "shuffling — 0 of 2 seats done" in seen
    assert "shuffling — 1 of 2 seats done" in seen
    assert "your move" in seen and "waiting for Alice to move" in seen
    assert any(s.startswith("dealing — waiting for Alice's decryption shares") for s in seen)
    assert any(s.startswith("dealing — waiting for your decryption shares") for s in seen)
    assert any(s.startswith("showing the cards seen alone — waiting for") for s in seen)
    assert all("seat" not in s or "seats done" in s for s in seen)  # names, not seat numbers


def test_interrupt_is_recognised_inside_groups() -> None:
    assert is_interrupt(KeyboardInterrupt())
    assert is_interrupt(BaseExceptionGroup("x", [KeyboardInterrupt()]))
    assert not is_interrupt(BaseExceptionGroup("x", [KeyboardInterrupt(), ValueError()]))
    assert not is_interrupt(ValueError())


# -- typing a move ---------------------------------------------------------------------------------------
MOVES = [
    "play A♣ from your hand onto centre 1",
    "play A♣ from your hand onto centre 2",
    "play 7♥ from your hand onto centre 1",
    "put 3♠ on side stack 1 (ends your turn)",
    "draw a card",
    "play 10♦ from your hand onto centre 1",
]


def test_numbers_and_commands() -> None:
    assert interpret("3", MOVES).index == 2
    assert interpret(" 1 ", MOVES).index == 0
    bad = interpret("9", MOVES)
    assert bad.kind == "error" and "1 to 6" in bad.message
    assert interpret("0", MOVES).kind == "error"
    assert interpret("", MOVES).kind == "empty"
    for other in ("²", "\uff13", "\u0e53"):  # a superscript, full-width and Thai digits: not a number
        assert interpret(other, MOVES).kind == "error"
    assert interpret("\u06f3", MOVES).index == 2  # a Persian keyboard's ۳ is a 3
    assert interpret("\u0663", MOVES).index == 2  # and so is an Arabic one
    for word, command in [("help", "help"), ("?", "help"), ("Q", "quit"), ("quit", "quit"), ("log", "log")]:
        reply = interpret(word, MOVES)
        assert (reply.kind, reply.command) == ("command", command)
    assert interpret("rules", MOVES).command == "rules"
    assert interpret("table", MOVES).command == "table"


def test_first_words_and_cards() -> None:
    assert interpret("draw", MOVES).index == 4
    assert interpret("dr", MOVES).index == 4
    assert interpret("7h", MOVES).index == 2
    assert interpret("play 7♥", MOVES).index == 2
    assert interpret("10d", MOVES).index == 5
    assert interpret("put", MOVES).index == 3
    assert interpret("ac centre 2", MOVES).index == 1
    assert interpret("3s", MOVES).index == 3


def test_never_a_guess() -> None:
    reply = interpret("ac", MOVES)
    assert reply.kind == "error"
    assert reply.message == "'ac' fits 2 moves: 1 …centre 1 · 2 …centre 2 — type its number."
    reply = interpret("play", MOVES)
    assert reply.kind == "error" and "fits 4 moves: 1, 2, 3, 6 —" in reply.message
    assert "\n" not in reply.message and len(reply.message) <= 80
    # "1" is a number, never the start of "10♦"; "1h" is no card.
    assert interpret("play 1", MOVES).kind == "error"


def test_a_card_in_no_move() -> None:
    reply = interpret("QH", MOVES)
    assert reply.kind == "error" and reply.message == "No move with QH: type a number from 1 to 6, or help."


def test_nonsense_gets_one_line() -> None:
    reply = interpret("xyzzy plugh", MOVES)
    assert reply.kind == "error"
    assert "'xyzzy plugh' is not a move or a command" in reply.message and "help" in reply.message
    assert "\n" not in reply.message


def test_help_gives_examples_from_the_moves() -> None:
    text = "\n".join(help_text("Spite & Malice", MOVES))
    assert '"play ac"' in text
    assert "quit" in text and "rules of Spite & Malice" in text


# -- the end -------------------------------------------------------------------------------------------
def _fake_session(**kw: Any) -> Any:
    seats = (SimpleNamespace(name="Alice"), SimpleNamespace(name="Bob"))
    header = SimpleNamespace(seats=seats, names=("Alice", "Bob"))
    base = dict(result=None, aborted=None, verdict=None, seat=0, header=header, game=None)
    base.update(kw)
    return SimpleNamespace(**base)


def test_summary_of_a_fair_win(tmp_path: Path) -> None:
    s = _fake_session(
        result=Result(0, (5, 3), "seat 0 reached 5 points", "5 to 3 for seat 0 after 4 deals"),
        verdict=Verdict.ok(),
    )
    log = tmp_path / "a game.fdlog"
    lines = summary_lines(s, log)
    assert lines[0] == "You win: reached 5 points."  # one name per person: seats named
    assert lines[1] == "Scores — You: 5 · Bob: 3"
    assert lines[2] == "Standing: 5 to 3 for you after 4 deals"
    assert "Fair game: every shuffle proven, every move checked with every card known." in lines[3]
    assert f"fairdeal verify '{log}'" in "\n".join(lines)  # quoted: the path has a space
    assert f"fairdeal replay '{log}'" in "\n".join(lines)


def test_summary_names_the_cheat() -> None:
    s = _fake_session(
        result=Result(1, (0, 5), "seat 1 reached 5 points"),
        verdict=Verdict(False, (Finding(1, "entry 12", "shuffle pass does not open"),)),
    )
    lines = summary_lines(s, None, ascii=True)
    assert lines[0] == "Bob wins: reached 5 points."
    assert "!! CHEATING FOUND by the audit:" in lines
    assert "  Bob (seat 1) at entry 12: shuffle pass does not open" in lines
    assert all(x.isascii() for x in lines)


def test_summary_when_nobody_here_plays() -> None:
    s = _fake_session(result=Result(0, (5, 3), "seat 0 reached 5 points"), verdict=Verdict.ok())
    lines = summary_lines(s, None, you=None)
    assert lines[:2] == ["Alice wins: reached 5 points.", "Scores — Alice: 5 · Bob: 3"]


def test_summary_of_an_abort() -> None:
    s = _fake_session(
        aborted=SimpleNamespace(blame=1, blamed=(1,), reason="timed out waiting for Bob to move")
    )
    lines = summary_lines(s, None)
    assert lines[0] == (
        "The game was stopped before its end — Bob (seat 1) is blamed: timed out waiting for Bob to move."
    )
    assert "Not audited" in lines[1]


def test_many_short_moves_take_two_columns() -> None:
    from fairdeal.cli.linemode import TerminalAgent

    out = io.StringIO()
    agent = TerminalAgent(UI(plain=True, file=out, status=False))
    cards = ["A♣", "2♦", "3♦", "3♠", "Q♥", "10♠", "J♥", "9♣", "8♦", "7♠", "K♥", "K♣"]
    agent.show_moves(None, [f"play {c}" for c in cards] + ["draw a card"])  # type: ignore[arg-type]
    lines = out.getvalue().splitlines()
    assert lines[0] == "Your moves:"
    assert lines[1] == "  1. play A♣         8. play 9♣"
    assert lines[6] == "  6. play 10♠       13. draw a card"
    assert lines[7] == "  7. play J♥" and len(lines) == 8
    out.seek(0)
    out.truncate()
    agent.show_moves(None, [f"put {c} on side stack {k} (ends your turn)" for c in cards for k in (1, 2)])  # type: ignore[arg-type]
    assert len(out.getvalue().splitlines()) == 25  # too wide for two columns: one a line


def test_options_are_written_as_typed_on_the_command_line() -> None:
    from fairdeal.cli.render import option_text

    assert option_text("trump_when_void", False) == "trump_when_void=false"  # never Python's False
    assert option_text("target", 7) == "target=7"


def test_rules_text_flows_to_the_width_there_is() -> None:
    from fairdeal.cli.render import reflow

    RULES = registry.load().game("spite-malice").rules_text()

    for width in (40, 60, 100):
        lines = reflow(RULES, width)
        assert all(len(x) <= width for x in lines)
        lone = [x for x in lines if len(x.split()) == 1]
        assert len(lone) <= 4, lone  # wrapped once, not twice: no lone words on every other line
    assert " ".join(reflow(RULES, 60)).split() == RULES.split()
