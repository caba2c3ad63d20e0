"""Nothing of the log depends on the language: the same seed writes the same bytes in German and in
Persian, and verify and replay report in the reader's language whatever language the players used."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from fairdeal import i18n
from fairdeal.cli.logs import NOT_A_LOG_SENTENCE
from fairdeal.cli.main import cli
from fairdeal.core.session.logfile import NOT_A_LOG


def _run(args: list[str], **env: str | None) -> Result:
    return CliRunner().invoke(cli, args, env={"FAIRDEAL_LANG": None, **env}, catch_exceptions=False)


def _play(tmp_path: Path, name: str, **env: str | None) -> bytes:
    log = tmp_path / f"{name}.fdlog"
    args = ["play", "snatch", "--seat", "bot", "--seat", "bot", "--seat", "bot", "--seed", "11"]
    result = _run([*args, "--json", "--log", str(log)], FAIRDEAL_HOME=str(tmp_path / name), **env)
    assert result.exit_code == 0, result.output
    return log.read_bytes()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    tmp = tmp_path_factory.mktemp("langs")
    try:
        return {
            "de": _play(tmp, "de", LANG="de_DE.UTF-8"),
            "fa": _play(tmp, "fa", LANG="fa_IR.UTF-8"),
            "el": _play(tmp, "el", FAIRDEAL_LANG="el"),
        }
    finally:
        i18n.use("en")


def test_a_log_written_in_german_and_one_in_persian_are_byte_identical(logs: dict[str, bytes]) -> None:
    assert logs["de"] == logs["fa"] == logs["el"]


@pytest.mark.parametrize(
    ("lang", "verdict", "replayed"),
    [
        ("en", "FAIR: every signature", "Verdict: FAIR — every"),
        ("de", "FAIR: jede Unterschrift", "Urteil: FAIR – jede"),
        ("ru", "ЧЕСТНО: все подписи", "Вердикт: ЧЕСТНО — все"),
        ("el", "ΤΙΜΙΟ: κάθε υπογραφή", "Ετυμηγορία: ΤΙΜΙΟ — κάθε"),
        ("fa", "منصفانه: همه‌ی امضاها", "رأی: منصفانه — همه‌ی"),
    ],
)
def test_verify_and_replay_speak_the_reader_s_language(
    tmp_path: Path, logs: dict[str, bytes], lang: str, verdict: str, replayed: str
) -> None:
    log = tmp_path / "game.fdlog"
    log.write_bytes(logs["fa"])  # written by players who spoke Persian
    checked = _run(["--lang", lang, "verify", str(log)], FAIRDEAL_HOME=str(tmp_path))
    assert checked.exit_code == 0 and verdict in checked.output
    replay = _run(["--lang", lang, "replay", "--no-step", str(log)], FAIRDEAL_HOME=str(tmp_path))
    assert replay.exit_code == 0 and replayed in replay.output
    as_json = _run(["--lang", lang, "verify", "--json", str(log)], FAIRDEAL_HOME=str(tmp_path))
    assert json.loads(as_json.output)["verdict"] == "fair"  # for programs: never translated
    i18n.use("en")


def test_errors_are_translated_for_people_and_stay_english_for_programs(tmp_path: Path) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_text("hello")
    said = _run(["--lang", "de", "verify", str(junk)], FAIRDEAL_HOME=str(tmp_path))
    assert said.exit_code == 3 and "ist kein fairdeal-Spielprotokoll" in said.output
    machine = _run(["--lang", "de", "verify", "--json", str(junk)], FAIRDEAL_HOME=str(tmp_path))
    assert json.loads(machine.output)["error"] == f"{junk} is {NOT_A_LOG}"
    assert NOT_A_LOG_SENTENCE.format(path=junk) == f"{junk} is {NOT_A_LOG}"
    i18n.use("en")
