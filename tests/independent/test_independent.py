"""The verifier written from docs/protocol.md alone, against fresh logs of every game.

Each game's log is checked by ``tests/independent/verifier.py`` (which imports nothing of
fairdeal) and by ``fairdeal verify``: every shuffle pass must be checked, and the two verdicts
must agree, on the logs, on a cut log and on tampered copies.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from fairdeal.cli.main import cli

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import forge  # noqa: E402
import tampered  # noqa: E402
import verifier  # noqa: E402

pytestmark = pytest.mark.slow

# The cheapest logs that still hold what is to be checked: Snatch! deals once (one round, a
# random choice, public reveals); Écarté reshuffles for every deal, with face-up cards among
# the inputs, and ends with a final reveal; this Spite & Malice game ends its match in one game
# with seven rounds, reshuffles of the centre stacks with the stock among them.
GAMES = {
    "snatch": ["--seed", "1"],
    "ecarte": ["--seed", "1"],
    "spite-malice": ["--seed", "5", "--option", "target=1"],
}


def play(game: str, path: Path, *extra: str) -> None:
    seats = ["--seat", "bot"] * 2
    result = CliRunner().invoke(
        cli, ["play", game, *seats, *GAMES[game], *extra, "--log", str(path), "--json"]
    )
    assert result.exit_code == 0, result.output


def fairdeal_verdict(path: Path) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["verify", "--json", str(path)])
    if result.exit_code == 3:
        return {"verdict": "not a log", "findings": []}
    report: dict[str, Any] = json.loads(result.output)
    return report


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("independent")
    out = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FAIRDEAL_HOME", str(folder / "home"))
        for game in GAMES:
            out[game] = folder / f"{game}.fdlog"
            play(game, out[game])
    return out


def test_the_script_checks_every_pass_of_every_game_without_fairdeal(logs: dict[str, Path]) -> None:
    # Run as a stranger would: the script alone, and fairdeal never imported.
    code = (
        "import runpy, sys\n"
        "path = sys.argv[1]\n"
        "sys.argv = [path, '--json', *sys.argv[2:]]\n"
        "try:\n"
        "    runpy.run_path(path, run_name='__main__')\n"
        "except SystemExit as end:\n"
        "    status = end.code\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'fairdeal'], 'fairdeal was imported'\n"
        "sys.exit(status)\n"
    )
    paths = [str(p) for p in logs.values()]
    out = subprocess.run(
        [sys.executable, "-c", code, str(HERE / "verifier.py"), *paths],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    reports = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["game"] for r in reports] == list(GAMES)
    for report in reports:
        assert report["verdict"] == "fair", report
        assert report["passes_checked"] == report["passes_total"] > 0, report
        assert report["not_checked"] == [], report
        assert report["complete"]
    by_game = {r["game"]: r for r in reports}
    assert by_game["ecarte"]["rounds_complete"] > 1 and by_game["spite-malice"]["rounds_complete"] > 1
    assert len(by_game["snatch"]["choices"]) == 1
    for game, path in logs.items():
        assert fairdeal_verdict(path)["verdict"] == "fair", game


@pytest.mark.parametrize("cut", [30, 40, 60])
def test_a_cut_log_is_told_from_a_finished_one(logs: dict[str, Path], cut: int, tmp_path: Path) -> None:
    records = forge.read_records(logs["snatch"].read_bytes())
    assert len(records) > cut + 1
    path = tmp_path / "cut.fdlog"
    path.write_bytes(forge.write_records(records[:cut]))
    mine = verifier.verify_file(str(path))
    assert mine.verdict == "undecided" and not mine.complete
    assert "cut short" in mine.reason
    assert mine.passes_checked == mine.passes_total
    assert fairdeal_verdict(path)["verdict"] == "undecided"
    # The finished log's last entry alone missing is also told.
    path.write_bytes(forge.write_records(records[:-1]))
    assert verifier.verify_file(str(path)).verdict == "undecided"


SOME = [
    "proof bit (in place)",
    "two entries reordered",
    "an entry dropped",
    "the last end cut",
    "re-signed: pass proof e bit",
    "re-signed: reshuffle inputs swapped",
    "re-signed: face-up input listed as hidden",
    "re-signed: share point bit",
    "re-signed: a final reveal dropped",
    "re-signed: two concurrent shares swapped",
    # verify accepted these until it checked the order of a map's fields (protocol.md 8.1)
    "re-signed: options not sorted",
    "re-signed: a key's fields reordered",
    "re-signed: a proof's fields reordered",
]


@pytest.mark.parametrize("name", SOME)
def test_tampered_copies_get_the_same_verdict_from_both(
    logs: dict[str, Path], name: str, tmp_path: Path
) -> None:
    _, base, alter = next(c for c in tampered.CASES if c[0] == name)
    source = logs["ecarte" if base == "E" else "snatch"]
    path = tmp_path / "tampered.fdlog"
    path.write_bytes(alter(source.read_bytes()))
    mine = verifier.verify_file(str(path))
    theirs = fairdeal_verdict(path)
    assert mine.verdict == theirs["verdict"], (mine.reason, theirs["findings"])
    if mine.verdict == "cheating":
        assert [mine.seat, mine.entry] == [theirs["findings"][0]["seat"], theirs["findings"][0]["entry"]]
    expected = "fair" if "concurrent" in name else None
    assert (mine.verdict == "fair") == (expected == "fair")


def test_the_shuffle_proof_check_refuses_every_altered_element(logs: dict[str, Path]) -> None:
    """Past the signatures: each part of one real pass's proof, altered, is refused."""
    entries = forge.decode(logs["ecarte"].read_bytes())
    report = verifier.Report("x")
    state = verifier.Verifier(report)
    state.run(forge.encode(entries[:5]))  # the header, the keys, round 0's two passes
    assert report.passes_checked == 2
    first_pass, second = entries[3], entries[4]
    assert state.joint is not None
    inputs = [bytes(x) for x in first_pass[4]["deck"]]
    outputs = [bytes(x) for x in second[4]["deck"]]
    context = verifier.frame(b"shuffle-pass", second[1], 1, 0, 1)
    proof = second[4]["proof"]
    assert verifier.check_shuffle_proof(context, state.joint, inputs, outputs, proof) is None
    # (field, index, new value from the old): every kind of element of the proof
    flip31: Callable[[bytes], bytes] = lambda b: forge.flip(b, 31)  # noqa: E731
    alterations: list[tuple[str, int | None, Callable[[bytes], bytes]]] = [
        ("c", 0, lambda _: proof["c"][1]),
        ("c_hat", 2, lambda _: proof["c_hat"][3]),
        ("e", None, flip31),
        *[("s", k, flip31) for k in range(4)],
        ("s_hat", 4, flip31),
        ("s_prime", 5, flip31),
        ("s_prime", 0, lambda _: bytes(32)),
    ]
    for key, index, change in alterations:
        copy: dict[str, Any] = {k: (list(v) if isinstance(v, list) else v) for k, v in proof.items()}
        if index is None:
            copy[key] = change(copy[key])
        else:
            copy[key][index] = change(copy[key][index])
        assert verifier.check_shuffle_proof(context, state.joint, inputs, outputs, copy) is not None, key
    other = verifier.frame(b"shuffle-pass", second[1], 1, 0, 0)
    assert verifier.check_shuffle_proof(other, state.joint, inputs, outputs, proof) is not None
    swapped = [outputs[1], outputs[0], *outputs[2:]]
    assert verifier.check_shuffle_proof(context, state.joint, inputs, swapped, proof) is not None


def test_hash_to_curve_passes_the_rfc_vectors() -> None:
    data = json.loads((HERE.parent / "deck" / "data" / "rfc9380_secp256k1_sswu_ro.json").read_text())
    for vector in data["vectors"]:
        x, y = int(vector["P"]["x"], 16), int(vector["P"]["y"], 16)
        point = bytes([2 + (y & 1)]) + x.to_bytes(32, "big")
        assert verifier.hash_to_curve(vector["msg"].encode(), data["dst"].encode()) == point
