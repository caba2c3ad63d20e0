"""Games on the local network: announcements checked field by field, and real mDNS packets between
real ``fairdeal`` processes inside a network namespace this test makes (only its loopback exists
there, with multicast turned on), so nothing reaches any other network."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairdeal.core.identity import Identity
from fairdeal.net.invite import PUBLIC_RELAY, Endpoint, Invite, decode_invite
from fairdeal.net.mdns import Announcement, LanRecordError, parse_record

from .peers import Peer, check_logs, flat, same_results, wait_for_code

FP = Identity.from_seed(b"L" * 32).fingerprint
CODE = Invite(FP, bytes(16), (Endpoint("192.168.1.5", 7700),), PUBLIC_RELAY, 1).encode()
GOOD = Announcement("ecarte", "Alice", FP, 1, 2, CODE).properties()


def _props(**changes: str | None) -> dict[bytes, bytes | None]:
    out = {k.encode(): v.encode() for k, v in GOOD.items()}
    for k, v in changes.items():
        if v is None:
            out.pop(k.encode(), None)
        else:
            out[k.encode()] = v.encode()
    return out


def test_a_good_record_reads_back() -> None:
    g = parse_record("Alice - ecarte", _props(), ["192.168.1.5", "fe80::1", "224.0.0.1", "junk"], 7700)
    assert (g.game, g.host_name, g.fingerprint, g.taken, g.seats, g.free) == ("ecarte", "Alice", FP, 1, 2, 1)
    assert g.invite == decode_invite(CODE) and g.addresses == (Endpoint("192.168.1.5", 7700),)
    assert g.json()["code"] == CODE and g.json()["seats_taken"] == 1


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"code": None}, "lacks code"),
        ({"v": "2"}, "another version"),
        ({"game": "Ecarte!"}, "game name"),
        ({"host": " "}, "host name"),
        ({"host": "a\u202eb"}, "host name"),
        ({"host": "a\u2028b"}, "host name"),
        ({"host": "a\u2029b"}, "host name"),
        ({"fp": "fd1-nope"}, "fingerprint is not valid"),
        ({"fp": Identity.from_seed(b"X" * 32).fingerprint}, "not the one in its own code"),
        ({"seats": "3"}, "TAKEN/TOTAL"),
        ({"seats": "3/2"}, "impossible"),
        ({"seats": "0/2"}, "impossible"),
        ({"seats": "1/11"}, "impossible"),
        ({"seats": "\u0661/\u0662"}, "TAKEN/TOTAL"),  # Arabic-Indic digits: ASCII ones only
        ({"seats": "1/\uff12"}, "TAKEN/TOTAL"),  # a fullwidth 2
        ({"code": "fd1:aaaa"}, "code is not valid"),
        ({"code": CODE[:-1] + ("a" if CODE[-1] != "a" else "b")}, "code is not valid"),
        ({"pad": "x" * 1000}, "too large"),
    ],
)
def test_bad_records_are_refused_with_a_reason(changes: dict[str, str | None], words: str) -> None:
    with pytest.raises(LanRecordError, match=words):
        parse_record("x", _props(**changes), ["192.168.1.5"], 7700)


def test_records_with_odd_bytes_are_refused() -> None:
    with pytest.raises(LanRecordError, match="not UTF-8"):
        parse_record("x", {**_props(), b"host": b"\xff\xfe"}, [], None)
    with pytest.raises(LanRecordError, match="has no value"):
        parse_record("x", {**_props(), b"game": None}, [], None)
    many = {**_props(), **{f"k{i}".encode(): b"v" for i in range(20)}}
    with pytest.raises(LanRecordError, match="too large"):
        parse_record("x", many, [], None)


# -- real packets in a network namespace --------------------------------------------------------------
def _ip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)


@pytest.fixture(scope="module")
def netns() -> Iterator[list[str]]:
    """The command prefix that runs a process in a fresh namespace with only a multicast loopback."""
    if not sys.platform.startswith("linux"):
        pytest.skip("network namespaces are a Linux feature")
    if os.geteuid() != 0:
        pytest.skip("making a network namespace needs root")
    if shutil.which("ip") is None:
        pytest.skip("the ip command (iproute2) is not installed")
    name = f"fdlan{os.getpid()}{secrets.token_hex(2)}"
    made = _ip("netns", "add", name)
    if made.returncode != 0:
        pytest.skip(f"cannot make a network namespace here: {made.stderr.strip()}")
    try:
        for step in (
            ("link", "set", "lo", "up"),
            ("link", "set", "lo", "multicast", "on"),
            ("route", "add", "224.0.0.0/4", "dev", "lo"),
        ):
            r = _ip("-n", name, *step)
            assert r.returncode == 0, r.stderr
        yield ["ip", "netns", "exec", name]
    finally:
        _ip("netns", "del", name)


LAN_ENV = {"FAIRDEAL_LAN": "all", "FAIRDEAL_RELAY": "none"}


def _lan_host(tmp: Path, prefix: list[str], game: str, *extra: str, label: str = "host") -> tuple[Peer, str]:
    code_file = tmp / f"{label}-invite.txt"
    peer = Peer(
        tmp, label, ["host", game, "--seat", "bot", "--invite-file", str(code_file), *extra],
        prefix=prefix, env=LAN_ENV, stderr_file=tmp / f"{label}.err",
    )  # fmt: skip
    return peer, wait_for_code(code_file, peer)


def host_err(peer: Peer) -> str:
    """What a running peer has written on stderr so far."""
    return peer.stderr_file.read_text() if peer.stderr_file and peer.stderr_file.exists() else ""


def _lan(tmp: Path, prefix: list[str], seconds: float = 5) -> tuple[list[dict[str, object]], str]:
    p = Peer(tmp, "lan", ["lan", "--json", "--wait", str(seconds)], prefix=prefix, env=LAN_ENV, log=False)
    assert p.wait(60) == 0, p.err
    return json.loads(p.out), p.err


@pytest.mark.slow
def test_a_game_announced_on_the_lan_is_found_and_joined_without_a_code(
    tmp_path: Path, netns: list[str]
) -> None:
    host, code = _lan_host(tmp_path, netns, "snatch", "--players", "3")
    invite = decode_invite(code)
    try:
        games, _ = _lan(tmp_path, netns)
        assert len(games) == 1, games
        g = games[0]
        assert (g["game"], g["seats_taken"], g["seats"], g["fingerprint"]) == (
            "snatch",
            1,
            3,
            invite.fingerprint,
        )
        assert g["code"] == code and g["host"] == "Bot 0 (shrewd)"
        first = Peer(tmp_path, "first", ["join", "--seat", "bot", "--wait", "3"], prefix=netns, env=LAN_ENV,
                     stdin="1\n")  # fmt: skip
        end = time.monotonic() + 60
        while time.monotonic() < end and "took seat 1" not in flat(host_err(host)):
            time.sleep(0.05)
        games, _ = _lan(tmp_path, netns)  # the announcement follows the lobby
        assert [(x["seats_taken"], x["seats"]) for x in games] == [(2, 3)], games
        second = Peer(tmp_path, "second", ["join", "--seat", "bot", "--wait", "3"], prefix=netns, env=LAN_ENV,
                      stdin="1\n")  # fmt: skip
        assert first.wait() == 0, first.err
        assert second.wait() == 0, second.err
        assert host.wait() == 0, host.err
    finally:
        host.kill()
    peers = [host, first, second]
    same_results(peers)
    check_logs(peers)
    text = flat(first.err)
    assert (
        "Join which game?" in text
        and f"Joining snatch hosted by Bot 0 (shrewd) ({invite.fingerprint})" in text
    )
    assert "Connected directly to 127.0.0.1:" in text and "as the announcement says" in text
    assert "Announced on the local network" in flat(host.err)
    assert _lan(tmp_path, netns, 2)[0] == []  # withdrawn when the host stopped


_ROGUE = textwrap.dedent(
    """
    import socket, sys, time
    from zeroconf import IPVersion, ServiceInfo, Zeroconf

    address, port, lie, missing, inconsistent = sys.argv[1], int(sys.argv[2]), *sys.argv[3:6]
    zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)

    def announce(name, props):
        zc.register_service(ServiceInfo(
            "_fairdeal._tcp.local.", name + "._fairdeal._tcp.local.",
            addresses=[socket.inet_aton(address)], port=port, properties=props,
            server=name.replace(" ", "-") + ".local."))

    fp, code = lie.split("|")
    good = {"v": "1", "game": "ecarte", "host": "Mallory", "fp": fp, "seats": "1/2", "code": code}
    announce("liar", good)
    announce("missing", {k: v for k, v in good.items() if k != "code"} | {"x": missing})
    announce("huge", good | {f"pad{i}": "x" * 240 for i in range(8)})
    announce("inconsistent", good | {"fp": inconsistent})
    print("announced", flush=True)
    time.sleep(60)
    """
)


@pytest.mark.slow
def test_a_lying_announcement_seats_nobody_and_bad_ones_are_ignored(tmp_path: Path, netns: list[str]) -> None:
    # A real host that does not announce itself; the rogue announces its address under another identity.
    real, code = _lan_host(tmp_path, netns, "ecarte", "--private", label="real")
    rogue_file = tmp_path / "rogue.py"
    rogue_file.write_text(_ROGUE)
    target = decode_invite(code).direct[0]
    shown = Identity.from_seed(b"M" * 32).fingerprint
    lie = Invite(shown, secrets.token_bytes(16), (target,)).encode()
    other = Identity.from_seed(b"O" * 32).fingerprint
    rogue = subprocess.Popen(
        [*netns, sys.executable, str(rogue_file), target.host, str(target.port), f"{shown}|{lie}", "1",
         other],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert rogue.stdout is not None
        end = time.monotonic() + 30
        while time.monotonic() < end and rogue.stdout.readline().strip() != "announced":
            pass
        games, err = _lan(tmp_path, netns)
        assert [(g["host"], g["fingerprint"]) for g in games] == [("Mallory", shown)], (games, err)
        ignored = flat(err)
        assert "lacks code" in ignored and "too large" in ignored and "not the one in its own code" in ignored
        guest = Peer(tmp_path, "guest", ["join", "--seat", "bot", "--wait", "5"], prefix=netns, env=LAN_ENV,
                     stdin="1\n")  # fmt: skip
        assert guest.wait() == 2, guest.err
        assert "host identity does not match the invite" in guest.err
        assert real.proc.poll() is None  # still waiting for a player: nobody was seated
    finally:
        rogue.kill()
        rogue.communicate()
        real.kill()
    assert "took seat" not in real.err and not real.log.exists()


def test_no_game_on_the_lan_and_mdns_turned_off_end_in_one_line(tmp_path: Path, netns: list[str]) -> None:
    guest = Peer(tmp_path, "guest", ["join", "--seat", "bot", "--wait", "1"], prefix=netns, env=LAN_ENV,
                 stdin="")  # fmt: skip
    assert guest.wait(60) == 2
    assert "no game found on the local network" in guest.err
    off = Peer(tmp_path, "off", ["lan", "--wait", "1"], env={"FAIRDEAL_LAN": "off"}, log=False)
    assert off.wait(60) == 2 and "turned off here" in off.err


@pytest.mark.slow
def test_a_game_being_played_stays_announced_and_is_watched_from_the_lan(
    tmp_path: Path, netns: list[str]
) -> None:
    host, code = _lan_host(tmp_path, netns, "spite-malice", "--option", "max_games=1")
    try:
        # A person at the guest's seat who has not answered yet: the game stays on until the
        # end of their input (they resign), however quickly the machine plays.
        guest = Peer(tmp_path, "guest", ["join", code], prefix=netns, env=LAN_ENV, hold=True)
        end = time.monotonic() + 60
        while time.monotonic() < end and not (host.log.exists() and host.log.stat().st_size > 20_000):
            time.sleep(0.05)
        games, _ = _lan(tmp_path, netns, 3)  # the table is full, and it takes watchers
        assert [(x["seats_taken"], x["seats"], x["code"]) for x in games] == [(2, 2, code)], games
        watcher = Peer(tmp_path, "watcher", ["watch", "--wait", "3"], prefix=netns, env=LAN_ENV, stdin="1\n",
                       stderr_file=tmp_path / "watcher.err")  # fmt: skip
        end = time.monotonic() + 30
        while time.monotonic() < end and "A watcher joined" not in host_err(host):
            time.sleep(0.05)
        guest.release()
        assert guest.wait() == 0, guest.err
        assert watcher.wait() == 0, watcher.err
        assert host.wait() == 0, host.err
    finally:
        host.kill()
    check_logs([host, guest, watcher])
    assert "Watching spite-malice hosted by" in flat(watcher.err)
