"""The commands as a program or a script meets them (click's CliRunner): output, exit status, errors."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from fairdeal.cli.main import cli

COMMANDS = ["games", "rules", "play", "verify", "replay", "id"]


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private FAIRDEAL_HOME, and no NO_COLOR / COLUMNS from the environment running the tests."""
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("COLUMNS", raising=False)
    return tmp_path / "home"


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One finished bot game's log, shared by the log commands' tests."""
    path = tmp_path_factory.mktemp("logs") / "ecarte.fdlog"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FAIRDEAL_HOME", str(path.parent / "home"))
        result = run("play", "ecarte", "--seat", "bot", "--seat", "bot", "--seed", "7", "--log", str(path))
    assert result.exit_code == 0, result.output
    return path


def _one_line_error(result: Result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [x for x in result.output.splitlines() if x.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("fairdeal: ")
    for w in words:
        assert w in lines[0]


# -- help ------------------------------------------------------------------------------------------------
def test_top_level_help_lists_commands_examples_and_completion() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for command in COMMANDS:
        assert f"  {command} " in result.output
    assert "Examples:" in result.output
    assert "_FAIRDEAL_COMPLETE=bash_source fairdeal" in result.output


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_help_has_an_example(command: str) -> None:
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.output
    assert f"fairdeal {command}" in result.output.split("Example", 1)[1]


def test_shell_completion_of_game_names_and_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.shell_completion import ShellComplete

    complete = ShellComplete(cli, {}, "fairdeal", "_FAIRDEAL_COMPLETE")
    assert [c.value for c in complete.get_completions(["play"], "ec")] == ["ecarte"]
    assert "replay" in [c.value for c in complete.get_completions([], "re")]
    seats = [c.value for c in complete.get_completions(["play", "ecarte", "--seat"], "b")]
    assert seats[0] == "bot" and "bot:classic" in seats


# -- games and rules -------------------------------------------------------------------------------------
def test_games() -> None:
    result = run("games")
    assert result.exit_code == 0
    for name in ("ecarte", "snatch", "spite-malice"):
        assert name in result.output
    assert "Écarté" in result.output and "players" in result.output
    assert "bots: classic (default), expert, random" in result.output


def test_rules() -> None:
    result = run("rules", "ecarte")
    assert result.exit_code == 0
    assert "trump" in result.output.lower()
    assert "Options (--option name=value):" in result.output


# -- mistakes: one line, exit 2, never a traceback ---------------------------------------------------
def test_unknown_game() -> None:
    _one_line_error(run("play", "poker"), "unknown game 'poker'", "ecarte")
    _one_line_error(run("rules", "poker"), "unknown game")


def test_bad_rule_option() -> None:
    _one_line_error(run("play", "ecarte", "--seat", "bot", "--seat", "bot", "--option", "nonsense=3"))


def test_bad_seat() -> None:
    _one_line_error(run("play", "ecarte", "--seat", "wizard"), "human, bot or bot:NAME", "wizard")
    _one_line_error(run("play", "ecarte", "--seat", "human", "--seat", "human"), "at most one")


def test_unknown_command_line_flag() -> None:
    result = CliRunner().invoke(cli, ["play", "ecarte", "--colour"])
    assert result.exit_code == 2
    assert "No such option '--colour'" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_file_that_cannot_be_read_has_a_status_of_its_own(tmp_path: Path) -> None:
    """Missing or unreadable input is not "undecided" (2) nor "not a log" (3): it is 4."""
    missing = "/nonexistent/game.fdlog"
    for args in (("verify", missing), ("replay", missing), ("verify", str(tmp_path))):
        result = run(*args)
        assert result.exit_code == 4, result.output
        assert "Traceback" not in result.output
        assert (
            result.output.startswith(f"fairdeal: cannot read {args[1]}: ") and result.output.count("\n") == 1
        )
    report = run("verify", missing, "--json")
    assert report.exit_code == 4 and json.loads(report.output)["verdict"] is None
    assert "cannot read" in json.loads(report.output)["error"]


def test_another_log_that_cannot_be_read(game_log: Path) -> None:
    result = run("verify", str(game_log), "/nonexistent/theirs.fdlog")
    assert result.exit_code == 4, result.output
    assert result.output == "fairdeal: cannot read /nonexistent/theirs.fdlog: No such file or directory\n"


@pytest.mark.parametrize(
    "content",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"entries": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        b'{"reason": ' + b'{"a": ' * 50_000 + b"1" + b"}" * 50_001,
    ],
    ids=["a deep list", "deep entries", "a deep object"],
)
def test_evidence_nested_too_deeply_is_a_clear_error(game_log: Path, tmp_path: Path, content: bytes) -> None:
    deep = tmp_path / "deep.json"
    deep.write_bytes(content)
    result = run("verify", str(game_log), str(deep))
    assert result.exit_code == 3, result.output  # not "cheating" (1)
    assert "Traceback" not in result.output
    assert result.output.startswith(
        f"fairdeal: {deep} is neither a fairdeal log nor evidence kept beside one "
        "(its JSON nests too deeply)\n  MORE are"
    )


@pytest.mark.parametrize("content", [b"hello", b"", b"[1, 2]", b'"FDLOG1"', b"\xff\xfe"])
def test_another_file_that_is_neither_a_log_nor_evidence(
    game_log: Path, tmp_path: Path, content: bytes
) -> None:
    junk = tmp_path / "junk"
    junk.write_bytes(content)
    result = run("verify", str(game_log), str(junk))
    assert result.exit_code == 3, result.output
    assert result.output.startswith(
        f"fairdeal: {junk} is neither a fairdeal log nor evidence kept beside one\n  MORE are"
    )
    assert "Traceback" not in result.output


def test_evidence_is_read_as_before(game_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """verify_log finds in the evidence the CLI hands it the very entries it finds in the file."""
    from fairdeal.cli import logs
    from fairdeal.core.session.logfile import parse_log
    from fairdeal.core.session.verify import entries_of, verify_log

    entries = parse_log(game_log.read_bytes()).entries
    kept = tmp_path / "kept.json"
    evidence = {
        "reason": [[["x"]]],
        "log": "l",
        "entries": [entries[1].hex(), 5, [[entries[2].hex()]], "zz", entries[3].hex()],
        "relayed_instead": entries[4].hex(),
    }
    kept.write_text(json.dumps(evidence))
    handed: list[bytes] = []

    def spy(data: bytes, resolve: object, others: list[bytes]) -> object:
        handed.extend(others)
        return verify_log(data, resolve, others)  # type: ignore[arg-type]

    monkeypatch.setattr(logs, "verify_log", spy)
    assert run("verify", str(game_log), str(kept), str(game_log)).exit_code == 0
    assert entries_of(handed[0]) == entries_of(kept.read_bytes()) == [entries[1], entries[3], entries[4]]
    assert handed[1] == game_log.read_bytes()


# -- playing ---------------------------------------------------------------------------------------------
def test_play_bots_json(tmp_path: Path) -> None:
    log = tmp_path / "g.fdlog"
    result = run(
        "play", "ecarte", "--seat", "bot", "--seat", "bot", "--seed", "3", "--option", "target=2", "--json",
        "--log", str(log),
    )  # fmt: skip
    assert result.exit_code == 0
    obj = json.loads(result.output)  # stdout is exactly one JSON object
    assert set(obj) == {
        "game", "seats", "names", "winner", "scores", "reason", "standing",
        "verdict", "findings", "aborted", "log", "error", "adjourned",
    }  # fmt: skip
    assert obj["game"] == "ecarte"
    assert obj["verdict"] == "fair" and obj["findings"] == [] and obj["aborted"] is None
    assert obj["log"] == str(log) and log.exists()


def test_play_bots_summary(tmp_path: Path) -> None:
    log = tmp_path / "g.fdlog"
    result = run("play", "ecarte", "--seat", "bot", "--seat", "bot", "--seed", "5", "--log", str(log))
    assert result.exit_code == 0
    out = result.output
    assert "Game over" in out
    assert "wins:" in out or "No winner" in out
    assert "Scores — " in out and "Standing: " in out
    assert "(you)" not in out and "You win" not in out  # bots only: nobody here is "you"
    assert "✔ Fair game: every shuffle proven, every move checked with every card known." in out
    assert f"Log: {log}" in out
    assert f"fairdeal verify {log}" in out and f"fairdeal replay {log}" in out
    assert "\x1b" not in out  # not a terminal: plain text
    assert all(len(x) <= 80 for x in out.splitlines() if str(log) not in x)  # paths stay whole


def test_play_as_a_human_through_stdin(tmp_path: Path) -> None:
    """A few moves typed on stdin, help, a wrong word, then quit: the resignation is recorded."""
    log = tmp_path / "h.fdlog"
    typed = "1\nhelp\nfoo bar\n1\nlog\nquit\nn\nquit\ny\n"
    args = ["play", "ecarte", "--seat", "human", "--seat", "bot", "--seed", "2", "--name", "Ann"]
    result = run(*args, "--log", str(log), input=typed)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Écarté — your turn" in out
    assert "You (Ann) · Bot 1 (classic)" in out  # one name per person: "You" for the viewer
    assert "Your moves:" in out and "  1. play " in out
    assert "Commands:" in out  # help
    assert "'foo bar' is not a move or a command" in out
    assert "Recent actions, oldest first:" in out  # log
    assert "Not resigning; the game goes on." in out
    assert "Bot 1 (classic) wins: You resigned." in out
    assert "Traceback" not in out
    assert run("verify", str(log)).exit_code == 0


def test_end_of_input_resigns(tmp_path: Path) -> None:
    log = tmp_path / "eof.fdlog"
    result = run(
        "play", "ecarte", "--seat", "human", "--seat", "bot", "--seed", "3", "--log", str(log), input=""
    )
    assert result.exit_code == 0, result.output
    assert "End of input: you resign this game." in result.output
    assert "resigned" in result.output
    assert json.loads(run("verify", str(log), "--json").output)["reason"].endswith("resigned")


def test_ascii_play_is_plain_ascii(tmp_path: Path) -> None:
    log = tmp_path / "a.fdlog"
    args = ["play", "ecarte", "--seat", "human", "--seat", "bot", "--seed", "3", "--ascii", "--name", "Ann"]
    result = run(*args, "--log", str(log), input="1\n1\nquit\ny\n")
    assert result.exit_code == 0
    body = result.output.replace(str(log), "")
    assert body.isascii(), [line for line in body.splitlines() if not line.isascii()][:3]
    assert re.search(r"\n  You <  +Hand: ", body) and "Game over" in body
    assert "OK Fair game" in body


def test_human_json_keeps_stdout_for_the_result(tmp_path: Path) -> None:
    log = tmp_path / "j.fdlog"
    runner = CliRunner()
    args = ["play", "ecarte", "--seat", "human", "--seat", "bot", "--seed", "3", "--json", "--log", str(log)]
    result = runner.invoke(cli, args, input="quit\ny\n")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["reason"].endswith("resigned")
    assert "Your moves:" in result.stderr


# -- logs and identity -----------------------------------------------------------------------------------
def test_verify_a_good_log(game_log: Path) -> None:
    result = run("verify", str(game_log))
    assert result.exit_code == 0
    assert "FAIR: every signature, shuffle, card and move checks out." in result.output
    report = run("verify", str(game_log), "--json")
    assert report.exit_code == 0 and json.loads(report.output)["verdict"] == "fair"


def test_verify_a_damaged_log(game_log: Path, tmp_path: Path) -> None:
    data = bytearray(game_log.read_bytes())
    data[len(data) // 2] ^= 0x01
    bad = tmp_path / "bad.fdlog"
    bad.write_bytes(bytes(data))
    result = CliRunner().invoke(cli, ["verify", str(bad), "--json"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["verdict"] == "damaged" and report["findings"]
    assert all(f["seat"] is None for f in report["findings"])
    plain = CliRunner().invoke(cli, ["verify", str(bad)])
    assert plain.exit_code == 1 and "DAMAGED OR ALTERED" in plain.output


def test_verify_a_log_cut_short(game_log: Path, tmp_path: Path) -> None:
    data = game_log.read_bytes()
    cut = tmp_path / "cut.fdlog"
    cut.write_bytes(data[: len(data) // 2])
    result = CliRunner().invoke(cli, ["verify", str(cut), "--json"])
    assert result.exit_code == 2
    assert json.loads(result.output)["verdict"] == "undecided"


def test_replay_no_step(game_log: Path) -> None:
    result = run("replay", str(game_log), "--no-step")
    assert result.exit_code == 0
    out = result.output
    assert "Écarté — replay" in out
    assert "seat 0 Bot 0 (classic), seat 1 Bot 1 (classic)" in out
    assert " played " in out and "Trick:" in out
    assert "End" in out and "Scores" in out
    assert out.rstrip().splitlines()[-1].startswith("Verdict: FAIR")  # it ends with the verdict
    ascii = run("replay", str(game_log), "--no-step", "--ascii")
    assert ascii.exit_code == 0 and ascii.output.isascii()


@pytest.mark.parametrize(
    "content", [b"hello", b"", b"FDLOG", b"FDLOG1", b"FDLOG1" + bytes(40), b"FDLOG1\r\n"]
)
def test_a_file_that_is_not_a_log_is_an_error_of_its_own_in_one_wording(
    tmp_path: Path, content: bytes
) -> None:
    junk = tmp_path / "junk.fdlog"
    junk.write_bytes(content)
    for command in ("verify", "replay"):
        result = run(command, str(junk))
        assert result.exit_code == 3, result.output  # not "undecided" (2)
        assert "Traceback" not in result.output
        assert result.output.startswith(
            f"fairdeal: {junk} is not a fairdeal log (a log begins with the line FDLOG1)\n"
        ), result.output
    report = run("verify", str(junk), "--json")
    assert report.exit_code == 3 and json.loads(report.output)["verdict"] is None


def test_replay_reveals_every_hand_after_a_fair_audit(game_log: Path) -> None:
    result = run("replay", str(game_log), "--no-step", "--reveal")
    assert result.exit_code == 0, result.output
    assert "Bot 0 (classic)'s hand: " in result.output and "Bot 1 (classic)'s hand: " in result.output


def test_id(home: Path) -> None:
    first = run("id")
    assert first.exit_code == 0
    assert "Created a new identity in" in first.output
    fingerprint = first.stdout.splitlines()[-1]
    second = run("id")
    assert second.stdout.strip() == fingerprint  # the fingerprint alone on stdout, for scripts
    assert "The others see you as " in second.stderr  # and the name others see, for people
    assert (home / "config" / "identity.key").exists()


def test_lazy_commands_show_their_own_short_help() -> None:
    """``fairdeal --help`` lists the commands without importing them: the words are the commands' own
    (the first paragraph of each command's help, shortened the same way)."""
    from fairdeal.cli.main import LAZY_COMMANDS, short_help

    ctx = click.Context(cli)
    limit = 80 - 6 - max(len(n) for n in cli.list_commands(ctx))
    for name, (_, first) in LAZY_COMMANDS.items():
        command = cli.get_command(ctx, name)
        assert command is not None and command.help is not None
        assert " ".join(command.help.split("\n\n")[0].split()) == first, name
        assert command.get_short_help_str(limit) == short_help(first, limit), name


def test_help_and_games_do_not_import_the_game_machinery() -> None:
    import subprocess

    code = (
        "import sys; from fairdeal.cli.main import cli\n"
        "try:\n    cli(['--help'])\nexcept SystemExit: pass\n"
        "heavy = ('trio', 'textual', 'fairdeal.net', 'fairdeal.core.session')\n"
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
