"""The verifier written from docs/protocol.md alone, against fresh logs of every game.

Each game's log is checked by ``tests/independent/verifier.py`` (which imports nothing of
fairdeal) and by ``fairdeal verify``: every shuffle pass must be checked, and the two verdicts
must agree, on the logs, on a cut log and on tampered copies — but where the document says they
differ: a verifier without the rules cannot tell that a game is decided before every end is in
(protocol.md 8.4, "fair"). None of the built-in games hands a card over (log protocol 4, 10.4.1):
logs of Traffic (``tests/foundation/traffic.py``), a test game whose moves carry cards every way
they can go, do; ``fairdeal verify`` checks them where a distribution's metadata names that game
(``tampered.games_env``). Logs of log protocol 3, kept in ``tests/session/data``, are read
by their own rules.
"""

from __future__ import annotations

import hashlib
import json
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest
from click.testing import CliRunner

from fairdeal.cli.main import cli

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import forge  # noqa: E402
import tampered  # noqa: E402
import verifier  # noqa: E402

sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent / "examples" / "hearts"))
from fairdeal_hearts import Hearts  # noqa: E402
from foundation.traffic import Traffic  # noqa: E402

from fairdeal.testing import play_with_protocol  # noqa: E402

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


def fairdeal_verify(path: Path, env: dict[str, str]) -> tuple[int, dict[str, Any]]:
    """``fairdeal verify --json`` in a process of its own, where it knows Traffic: (exit, report)."""
    fairdeal = Path(sys.executable).parent / "fairdeal"
    out = subprocess.run(
        [str(fairdeal), "verify", "--json", str(path)], capture_output=True, text=True, env=env, check=False
    )
    report: dict[str, Any] = json.loads(out.stdout)
    return out.returncode, report


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


@pytest.mark.parametrize("name", ["the last end cut", "torn last record", "re-signed: one end dropped"])
def test_a_decided_game_without_every_end_is_undecided_without_the_rules(
    logs: dict[str, Path], name: str, tmp_path: Path
) -> None:
    """protocol.md 8.4, "fair": the rules decide the game once the final reveal is complete, and a
    seat that does not sign cannot undo it; without the rules nothing says the game is over."""
    _, _, alter = next(c for c in tampered.CASES if c[0] == name)
    path = tmp_path / "tampered.fdlog"
    path.write_bytes(alter(logs["ecarte"].read_bytes()))
    mine = verifier.verify_file(str(path))
    assert mine.verdict == "undecided" and "cut short" in mine.reason, mine.reason
    assert tampered.BY_DESIGN[name] == ("undecided", "fair")
    assert fairdeal_verdict(path)["verdict"] == "fair"


def test_bytes_after_the_last_end_do_not_undo_the_game(logs: dict[str, Path], tmp_path: Path) -> None:
    path = tmp_path / "after.fdlog"
    for name in ("a record of length 0 after the end", "a record longer than 1 MiB after the end"):
        _, _, alter = next(c for c in tampered.CASES if c[0] == name)
        path.write_bytes(alter(logs["ecarte"].read_bytes()))
        mine = verifier.verify_file(str(path))
        assert mine.verdict == "fair" and mine.complete and "bytes after the last record" in mine.reason
        assert fairdeal_verdict(path)["verdict"] == "fair"


# -- log protocol 4's hand-overs, in logs of Traffic ----------------------------------------------

TRAFFIC = [(players, seed) for players in (2, 3, 4) for seed in (0, 1, 2)]


@pytest.fixture(scope="module")
def traffic(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[tuple[int, int], Path], dict[str, str]]:
    """Logs of Traffic over the real protocol (every seat its own session), and an environment in
    which ``fairdeal verify`` knows the game."""
    folder = tmp_path_factory.mktemp("traffic")
    out = {}
    for players, seed in TRAFFIC:
        out[players, seed] = folder / f"traffic-{players}-{seed}.fdlog"
        out[players, seed].write_bytes(play_with_protocol(Traffic(), players, seed).log)
    return out, tampered.games_env(folder / "plugin")


def test_both_verifiers_find_traffic_fair_and_the_script_checks_every_hand_over(
    traffic: tuple[dict[tuple[int, int], Path], dict[str, str]],
) -> None:
    paths, env = traffic
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
    out = subprocess.run(
        [sys.executable, "-c", code, str(HERE / "verifier.py"), *map(str, paths.values())],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    reports = [json.loads(line) for line in out.stdout.splitlines()]
    handovers = 0
    for (players, seed), report in zip(paths, reports, strict=True):
        assert report["verdict"] == "fair" and report["complete"], (players, seed, report)
        assert report["protocol"] == 4 and report["game"] == "traffic"
        assert report["passes_checked"] == report["passes_total"] > 0
        assert report["not_checked"] == []
        assert report["handovers_checked"] > 0, (players, seed)
        handovers += report["handovers_checked"]
        status, theirs = fairdeal_verify(paths[players, seed], env)
        assert (status, theirs["verdict"]) == (0, "fair"), (players, seed, theirs)
    assert handovers >= 50, handovers


def test_logs_of_log_protocol_3_are_read_by_their_own_rules() -> None:
    data = HERE.parent / "session" / "data"
    paths = sorted(data.glob("*-protocol3.fdlog"))
    assert len(paths) == 3
    for path in paths:
        mine = verifier.verify_file(str(path))
        assert (mine.verdict, mine.protocol, mine.handovers_checked) == ("fair", 3, 0), (path, mine.reason)
        assert mine.passes_checked == mine.passes_total > 0
        assert fairdeal_verdict(path)["verdict"] == "fair"


HANDOVER_CASES = [c[0] for c in tampered.CASES if c[0].startswith("re-signed: hand-over")] + [
    "re-signed: a hand-over by a seat that is not the holder"
]
FIND_CASES = [c[0] for c in tampered.CASES if c[0].startswith("re-signed: find")]
PLACED_CASES = [c[0] for c in tampered.CASES if c[0].startswith("re-placed:")]


@pytest.fixture(scope="module")
def hearts(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Logs of the example Hearts, whose rules look for who holds the 2♣ (deck.find, 10.4.2) and
    whose pass hands cards over."""
    folder = tmp_path_factory.mktemp("hearts")
    out = []
    for seed in (0, 1):
        out.append(folder / f"hearts-{seed}.fdlog")
        out[-1].write_bytes(play_with_protocol(Hearts(), 4, seed, options={"target": 20}).log)
    return out


def test_both_verifiers_find_hearts_fair_and_the_script_checks_every_search(
    hearts: list[Path], traffic: tuple[dict[tuple[int, int], Path], dict[str, str]]
) -> None:
    _, env = traffic
    for path in hearts:
        mine = verifier.verify_file(str(path))
        assert (mine.verdict, mine.protocol, mine.complete) == ("fair", 4, True), mine.reason
        assert mine.finds_checked >= 4 and mine.handovers_checked > 0
        assert mine.passes_checked == mine.passes_total > 0
        status, theirs = fairdeal_verify(path, env)
        assert (status, theirs["verdict"]) == (0, "fair"), theirs


@pytest.mark.parametrize("name", HANDOVER_CASES + FIND_CASES + PLACED_CASES)
def test_a_tampered_hand_over_or_placement_gets_the_same_verdict_from_both(
    logs: dict[str, Path],
    traffic: tuple[dict[tuple[int, int], Path], dict[str, str]],
    hearts: list[Path],
    name: str,
    tmp_path: Path,
) -> None:
    """A hand-over altered and signed by its author is its author's cheating; an entry its author
    signed and the host placed twice, or after the abort while it answers a point before it, is
    the host's (8.4, check 9a) — but a second, different entry for one point is its author's."""
    paths, env = traffic
    _, base, alter = next(c for c in tampered.CASES if c[0] == name)
    source = {"T": paths[4, 0], "H": hearts[0]}.get(base, logs["ecarte"])
    path = tmp_path / "tampered.fdlog"
    path.write_bytes(alter(source.read_bytes()))
    mine = verifier.verify_file(str(path))
    status, theirs = fairdeal_verify(path, env)
    assert mine.verdict == theirs["verdict"] == "cheating", (mine.reason, theirs["findings"])
    assert status == 1
    assert [mine.seat, mine.entry] == [theirs["findings"][0]["seat"], theirs["findings"][0]["entry"]]
    if name in PLACED_CASES and "second, different" not in name:
        assert mine.seat == 0
    else:
        entries = forge.decode(path.read_bytes())
        assert mine.seat == entries[mine.entry][2] != 0  # the author, a guest


T8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")  # of order 8
NOT_CANONICAL = bytes.fromhex("ed" + "ff" * 30 + "7f")  # y = p


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({1: T8}, ("cheating", 0)),
        ({2: bytes.fromhex("01" + "00" * 31)}, ("cheating", 0)),  # the neutral point
        ({1: NOT_CANONICAL}, ("cheating", 0)),
        ({0: T8}, ("damaged", None)),
    ],
)
def test_a_header_key_that_is_not_strict(
    traffic: tuple[dict[tuple[int, int], Path], dict[str, str]],
    change: dict[int, bytes],
    expected: tuple[str, int | None],
    tmp_path: Path,
) -> None:
    """8.2 (a): a seat's key that is not strict is the host's header fault; the host's own leaves
    nothing signed at all."""
    paths, env = traffic
    path = tmp_path / "key.fdlog"
    path.write_bytes(forge.encode(forge.resign(forge.decode(paths[4, 0].read_bytes()), identities=change)))
    mine = verifier.verify_file(str(path))
    assert (mine.verdict, mine.seat, mine.entry) == (*expected, 0), mine.reason
    _, theirs = fairdeal_verify(path, env)
    assert theirs["verdict"] == expected[0]
    assert theirs["findings"][0]["seat"] == expected[1]
    assert verifier.strict_key(forge.signing_keys()[0].verify_key.encode())


def test_what_is_not_read(
    traffic: tuple[dict[tuple[int, int], Path], dict[str, str]], tmp_path: Path
) -> None:
    """Exit 3 for another log protocol or envelope format, 4 for a file that cannot be read, and a
    float of either width anywhere in an envelope does not decode (damaged)."""
    paths, env = traffic
    entries = forge.decode(paths[2, 0].read_bytes())
    other = tmp_path / "other.fdlog"
    for field, value in (("protocol", 5), ("protocol", -1), ("version", 4), ("version", "3")):
        copy = [list(e) for e in entries]
        if field == "protocol":
            copy[0][4] = dict(copy[0][4], protocol=value)
        else:
            copy[0][0] = value
        other.write_bytes(forge.encode(forge.resign(copy)))
        assert verifier.main([str(other)]) == 3
        assert verifier.verify_file(str(other)).verdict == "other version"
        assert fairdeal_verify(other, env)[0] == 3
    for missing in (tmp_path / "missing.fdlog", tmp_path):
        assert verifier.verify_file(str(missing)).verdict == "unreadable"
        assert verifier.main([str(missing)]) == 4
        assert fairdeal_verify(missing, env)[0] == 4
    k = forge.first(entries, lambda e: e[3] == "move")
    for single in (True, False):
        copy = [list(e) for e in entries[: k + 1]]
        copy[k][4] = dict(copy[k][4], move=[copy[k][4]["move"][0], [0.5]])
        signed = forge.resign(copy)
        keys, gid, e = forge.signing_keys(), signed[0][1], signed[k]
        items = msgpack.packb(e[:8], use_bin_type=True, use_single_float=single)
        e[8] = keys[e[2]].sign(b"fairdeal/envelope/v3\x00" + items).signature
        w = hashlib.sha256(b"fairdeal/writing/v1\x00fairdeal/envelope/v3\x00" + items + e[8]).digest()
        h = hashlib.sha256(b"fairdeal/entry/v3\x00" + gid + struct.pack(">I", k) + e[10] + w).digest()
        e[11] = keys[0].sign(b"fairdeal/placement/v1\x00" + gid + struct.pack(">I", k) + h).signature
        records = [msgpack.packb(x, use_bin_type=True) for x in signed[:k]]
        records.append(b"\x9c" + items[1:] + msgpack.packb(e[8:], use_bin_type=True)[1:])
        other.write_bytes(forge.write_records(records))
        mine = verifier.verify_file(str(other))
        assert (mine.verdict, mine.entry) == ("damaged", k), mine.reason
        assert fairdeal_verify(other, env)[1]["verdict"] == "damaged"


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
