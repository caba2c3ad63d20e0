"""The words issue 42 found wrong, each as a person met it: the rules' options said twice and
garbled at the table, a name capitalised, a card not held said to be "not playable now", a
watcher asked which game to join or told to join, a watcher's log blamed on bots, jargon."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from fairdeal import registry
from fairdeal.cli import lan
from fairdeal.cli.console import UI
from fairdeal.cli.main import cli
from fairdeal.cli.networds import came_from, chat_refused, leave_question, refusal_words
from fairdeal.cli.render import reflow, sentence
from fairdeal.core.session.logfile import MAGIC, parse_log, record
from fairdeal.net.lobbyterms import OWN_IDENTITY
from fairdeal.testing import play_with_protocol


def test_the_rules_say_their_options_once() -> None:
    out = CliRunner().invoke(cli, ["rules", "ecarte"]).output
    assert out.count("(--option name=value)") == 1, out
    assert "trump_when_void=true" in out and "penalty=classic|seed" in out


def test_the_rules_at_the_table_keep_the_options_table_whole() -> None:
    """F2 flows the rules to the screen: an option's help hangs under its words, never joined to the
    next option, never cut into a paragraph of its own."""
    text = registry.load().game("ecarte").rules_text()
    for width in (74, 50):
        lines = reflow(text, width)
        start = lines.index("Options (--option name=value):")
        table = lines[start + 1 :]
        terms = [ln for ln in table if ln.startswith("  ") and not ln.startswith("   ")]
        assert [t.split()[0] for t in terms] == ["target=N", "trump_when_void=true", "penalty=classic|seed"]
        column = terms[0].index("points")
        assert all(ln.startswith(" " * column) for ln in table if ln.startswith("   ")), table
        assert all(len(ln) <= width for ln in lines), [ln for ln in lines if len(ln) > width]


def test_a_remark_that_begins_with_a_name_keeps_the_name_as_written() -> None:
    names = ["root", "Bob"]
    assert sentence("seat 0 scored 1 point", names) == "root scored 1 point"
    assert sentence("seat 0 scored 1 point", names, you=0) == "You scored 1 point"
    assert sentence("the deal goes to seat 1", names) == "The deal goes to Bob"


def test_a_watcher_is_asked_which_game_to_watch(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    monkeypatch.setattr(lan, "look", lambda ui, seconds, quiet=False: ["a game"])
    ui = UI(plain=True, file=io.StringIO(), status=False)
    monkeypatch.setattr(ui, "ask", lambda prompt: asked.append(prompt) or "1")
    assert lan.pick(ui, 0.1, watching=True) == "a game"
    assert lan.pick(ui, 0.1) == "a game"
    assert asked[0].startswith("Watch which game?") and asked[1].startswith("Join which game?"), asked


def test_a_watcher_with_the_hosts_identity_is_told_to_watch_from_another_profile() -> None:
    told = refusal_words(f"the host refused: {OWN_IDENTITY}", watching=True)
    assert "watch from another profile: --profile NAME" in told and "join" not in told
    assert refusal_words(OWN_IDENTITY) == OWN_IDENTITY  # a joiner's words are the host's


def test_no_chat_says_why_for_a_watcher_and_in_a_game_against_bots() -> None:
    assert chat_refused(True) == "Watchers cannot chat: the chat is the players'"
    assert "in this process" not in chat_refused(False) and "against bots" in chat_refused(False)


def test_leaving_asks_what_it_does_for_this_end() -> None:
    assert "keep their seats" in leave_question(0) and "resume" in leave_question(0)
    assert "stops here for everyone" in leave_question(1)
    assert leave_question(None, watching=True).startswith("Stop watching?")
    assert "stops here" in leave_question(1, told=False)


def test_a_relay_door_is_not_said() -> None:
    assert came_from("relay tcp:relay.example:4001 (door 0)") == "through relay tcp:relay.example:4001"
    assert came_from("192.0.2.7:50000") == "from 192.0.2.7:50000"


def test_resuming_a_watchers_log_says_it_is_a_watchers(tmp_path: Path) -> None:
    game = registry.load().game("ecarte")
    entries = parse_log(play_with_protocol(game, 2, 3, {"target": 1}).log).entries[:9]
    log = tmp_path / "ecarte-0123456789ab-watch.fdlog"
    log.write_bytes(MAGIC + b"".join(record(e) for e in entries))
    result = CliRunner().invoke(cli, ["resume", str(log)])
    assert result.exit_code == 2, result.output
    words = " ".join(result.output.split())
    assert "is a watcher's log" in words and "fairdeal watch CODE" in words, words
    assert "bots" not in words, words


def _unfinished(home: Path) -> Path:
    """A guest's game left unfinished in the profile at ``home`` (its log and seed file)."""
    from fairdeal.core.session.verify import read_header
    from fairdeal.net.invite import Endpoint, Invite
    from fairdeal.seedfile import SeedFile, write_seed

    game = registry.load().game("ecarte")
    entries = parse_log(play_with_protocol(game, 2, 3, {"target": 1}).log).entries[:9]
    header = read_header(entries[0])
    logs = home / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"ecarte-{header.game_id.hex()[:12]}.fdlog"
    log.write_bytes(MAGIC + b"".join(record(e) for e in entries))
    invite = Invite(header.seats[0].fingerprint, bytes(16), (Endpoint("127.0.0.1", 9),)).encode()
    seed = SeedFile(
        "guest", 1, "ecarte", header.game_id, header.seats[1].fingerprint, bytes(32), invite, "human", 120
    )
    write_seed(log, seed)
    return log


def test_a_game_that_can_never_go_on_is_dropped_from_resumes_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fairdeal.seedfile import seed_path

    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "home"))
    log = _unfinished(tmp_path / "home" / "data")
    listed = CliRunner().invoke(cli, ["resume"], input="d 1\nn\nq\n")
    text = " ".join(listed.output.split())
    assert "Unfinished games:" in text and "d and a number drops one" in text, text
    assert "Kept." in text and seed_path(log).exists()
    rows = [ln for ln in listed.output.splitlines() if ln.startswith("  ") and str(log) not in ln]
    assert rows and all(len(ln) <= 80 for ln in rows), listed.output
    dropped = CliRunner().invoke(cli, ["resume"], input="d 1\ny\n")
    assert "Dropped" in dropped.output and not seed_path(log).exists() and log.exists(), dropped.output
    assert "no unfinished game here" in CliRunner().invoke(cli, ["resume"]).output
    _unfinished(tmp_path / "home" / "data")
    direct = CliRunner().invoke(cli, ["resume", "--drop", str(log)])
    assert direct.exit_code == 0 and "Dropped" in direct.output, direct.output
    again = CliRunner().invoke(cli, ["resume", "--drop", str(log)])
    assert again.exit_code == 2 and "nothing to drop" in again.output, again.output


def test_a_mistyped_game_is_met_with_the_nearest_and_rules_alone_lists_the_games() -> None:
    mistyped = CliRunner().invoke(cli, ["play", "ecart"])
    assert mistyped.exit_code == 2 and "Did you mean ecarte?" in mistyped.output, mistyped.output
    alone = CliRunner().invoke(cli, ["rules"])
    assert (
        alone.exit_code == 2 and "fairdeal rules GAME, one of: ecarte, snatch, spite-malice" in alone.output
    )


def test_an_old_code_says_the_host_is_not_running_before_what_the_relay_did() -> None:
    from fairdeal.cli.netseat import hint_for

    error = (
        "could not reach the host (192.0.2.2:35277: nothing answers there (connection refused); relay "
        "transit.magic-wormhole.io:4001: cannot reach the relay at transit.magic-wormhole.io:4001: its "
        "address cannot be found (name lookup failed: no such name))"
    )
    hint = hint_for(error) or ""
    assert hint.startswith("Nothing answers at the host's address: check that the host still runs"), hint


def test_ctrl_d_at_a_terminal_asks_before_it_resigns() -> None:
    import random

    import trio

    from fairdeal.cli.linemode import TerminalAgent
    from fairdeal.net.driver import BotAgent
    from fairdeal.net.local import play_local
    from fairdeal.testing import seat_sessions

    reg = registry.load()
    table = seat_sessions(reg.game("ecarte"), 2, 2, {"target": 1}, names=["Ann", "Bob"])
    typed = iter([EOFError, "n", EOFError, EOFError])  # Ctrl-D, no; Ctrl-D twice

    def ask(prompt: str) -> str:
        answer = next(typed)
        if answer is EOFError:
            raise EOFError
        return str(answer)

    out = io.StringIO()
    person = TerminalAgent(UI(plain=True, file=out, status=False), ask=ask)
    person.at_terminal = True
    bot = BotAgent(reg.bot("ecarte").make(), random.Random(2))
    outcomes = trio.run(play_local, table.header, table.sessions, [person, bot])
    result = outcomes[0].session.result
    assert result is not None and result.reason == "Ann resigned", result
    text = " ".join(out.getvalue().split())
    assert "Not resigning; the game goes on." in text and "End of input: you resign this game." in text, text


def test_a_long_code_pasted_in_pieces_is_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal that wrapped the code hands it over in pieces (pasted unquoted: two arguments)."""
    from fairdeal.cli import join as joining
    from fairdeal.net.invite import Endpoint, Invite

    code = Invite("fd1-amqq-4gkn-iwpe-q7wr", bytes(16), (Endpoint("192.0.2.7", 7700),)).encode()
    read: list[str] = []

    def stop(text: str, mailbox: object, say: object) -> None:
        read.append(text)
        raise SystemExit(0)

    monkeypatch.setattr(joining, "read_code", stop)
    result = CliRunner().invoke(cli, ["join", code[:40], code[40:]])
    assert result.exit_code == 0, result.output
    from fairdeal.net.invite import decode_invite

    assert decode_invite(read[0]) == decode_invite(code)


@pytest.mark.parametrize(("game", "bots", "ends_for_all"), [("snatch", 2, True), ("ecarte", 1, False)])
def test_resigning_in_line_mode_says_first_when_it_ends_the_game_for_everyone(
    game: str, bots: int, ends_for_all: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Snatch! question with two others still in: a resignation ends the game for all, no winner."""
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path))
    seats = ["--seat", "human"] + ["--seat", "bot"] * bots
    out = CliRunner().invoke(cli, ["play", game, *seats, "--plain", "--seed", "3"], input="quit\ny\n").output
    said = " ".join(out.split())
    assert "Resign this game?" in said, out
    assert ("It ends the game for everyone, with no winner" in said) == ends_for_all, out
    assert "You resigned" in said, out
