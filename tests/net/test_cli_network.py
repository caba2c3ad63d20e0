"""The command line of network play: profiles (a second identity on one machine), the relay a
host uses by default, options that contradict each other, and what the joiner is told."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairdeal import storage
from fairdeal.cli.netseat import RELAY_ENV, default_relay
from fairdeal.core.errors import ConfigError
from fairdeal.core.identity import Identity
from fairdeal.net.invite import PUBLIC_RELAY, Endpoint, Invite, decode_invite

from .peers import RUN, Peer, flat, host, join

LIMIT = 60


def _run(home: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUN, *args],
        env={**os.environ, "FAIRDEAL_HOME": str(home), **(env or {})},
        capture_output=True,
        text=True,
        timeout=LIMIT,
        stdin=subprocess.DEVNULL,
    )


def _fingerprint(out: str) -> str:
    return next(w for w in out.split() if w.startswith("fd1-"))


def test_every_command_takes_a_profile_and_each_profile_has_its_own_identity(tmp_path: Path) -> None:
    default = _fingerprint(_run(tmp_path, "id").stdout)
    alice = _fingerprint(_run(tmp_path, "--profile", "alice", "id").stdout)
    bob = _fingerprint(_run(tmp_path, "id", "--profile", "bob").stdout)
    assert len({default, alice, bob}) == 3
    assert _fingerprint(_run(tmp_path, "id", "--profile", "alice").stdout) == alice
    assert _fingerprint(_run(tmp_path, "id", env={"FAIRDEAL_PROFILE": "bob"}).stdout) == bob
    assert (tmp_path / "config" / "profiles" / "alice" / "identity.key").exists()
    for args in (["games"], ["rules", "ecarte"], ["lan", "--wait", "1"], ["verify", "x"], ["host", "x"]):
        helped = _run(tmp_path, *args[:1], "--help")
        assert "--profile NAME" in helped.stdout, args
    bad = _run(tmp_path, "--profile", "Not/Valid", "id")
    assert bad.returncode == 2 and "cannot name a profile" in bad.stderr


def test_profiles_keep_logs_apart(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("FAIRDEAL_HOME", str(tmp_path))
    storage.use_profile("carol")
    try:
        assert storage.data_dir() == tmp_path / "data" / "profiles" / "carol"
        assert storage.identity_path() == tmp_path / "config" / "profiles" / "carol" / "identity.key"
    finally:
        storage.use_profile(None)
    assert storage.data_dir() == tmp_path / "data"
    with pytest.raises(ConfigError):
        storage.use_profile("../etc")


def test_the_host_uses_the_public_relay_unless_told_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(RELAY_ENV, raising=False)
    assert default_relay() == PUBLIC_RELAY == Endpoint("transit.magic-wormhole.io", 4001)
    monkeypatch.setenv(RELAY_ENV, "none")
    assert default_relay() is None
    monkeypatch.setenv(RELAY_ENV, "tcp:127.0.0.1:4001")
    assert default_relay() == Endpoint("127.0.0.1", 4001)
    monkeypatch.setenv(RELAY_ENV, "tcp:nowhere")
    with pytest.raises(ConfigError, match="not tcp:HOST:PORT"):
        default_relay()


def test_relay_options(tmp_path: Path) -> None:
    both = _run(tmp_path, "host", "ecarte", "--relay", "tcp:127.0.0.1:9", "--no-relay")
    assert both.returncode == 2 and "contradict" in both.stderr
    bad = _run(tmp_path, "host", "ecarte", "--relay", "127.0.0.1")
    assert bad.returncode == 2 and "is not tcp:HOST:PORT" in bad.stderr
    h, code = host(tmp_path, "ecarte", "--no-relay", "--advertise", "203.0.113.7:7000")
    try:
        invite = decode_invite(code)
        assert invite.relay is None and invite.doors == 0
        assert invite.direct[0] == Endpoint("203.0.113.7", 7000)
        assert invite.direct[1].host == "127.0.0.1"
    finally:
        h.kill()


def test_joining_with_the_hosts_own_identity_says_to_use_a_profile(tmp_path: Path) -> None:
    home = tmp_path / "one-machine"
    h, code = host(tmp_path, "ecarte", "--option", "target=1", home=home)
    try:
        same = Peer(tmp_path, "same", ["join", code], home=home)
        assert same.wait() == 2
        text = flat(same.err)
        assert "that is the host's own identity" in text and "--profile NAME" in text
        other = Peer(tmp_path, "other", ["--profile", "second", "join", code, "--seat", "bot"], home=home)
        assert other.wait() == 0, other.err
        assert "in seat 1 of 2" in flat(other.err)
        assert h.wait() == 0, h.err
    finally:
        h.kill()
    assert "took seat 1" in flat(h.err)


def test_a_dead_host_and_an_old_code_end_in_one_line(tmp_path: Path) -> None:
    old = join(tmp_path, "old", "fd1:aech6aaaagojlo7nlvay6qudtfbovvvn7hgcqndtn5e4npyg")
    assert old.wait() == 2 and "made by another version of fairdeal" in old.err
    h, code = host(tmp_path, "ecarte")
    h.kill()
    gone = join(tmp_path, "gone", code, "--connect-timeout", "5")
    assert gone.wait() == 2
    assert "(connection refused)" in gone.err and "still waiting" in flat(gone.err)


@contextlib.contextmanager
def _listener(backlog: int) -> Iterator[Endpoint]:
    """A socket on 127.0.0.1 that listens and never accepts: the system takes up to ``backlog``
    connections for it (here backlog+1, beyond that it leaves them unanswered) and nobody says a word."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(backlog)
        yield Endpoint("127.0.0.1", s.getsockname()[1])


def _code(where: Endpoint) -> str:
    return Invite(Identity.generate().fingerprint, os.urandom(16), (where,)).encode()


def test_a_listener_that_never_answers_is_named_even_before_the_handshake_gives_up(tmp_path: Path) -> None:
    # The joiner's connect timeout (2 s) ends before the handshake's (10 s).
    with _listener(8) as where:
        silent = join(tmp_path, "silent", _code(where), "--connect-timeout", "2")
        assert silent.wait(LIMIT) == 2
    text = flat(silent.err)
    # The seconds it had: 2, less the time the connection took to open (1.9 under load).
    silence = r"that is not a fairdeal host: it took the connection and said nothing in (2|1\.\d) s"
    assert re.search(silence, text), text
    assert "Another program listens at that address and port" in text
    # Where nothing takes the connection at all, that is no answer.
    with _listener(0) as where, socket.create_connection((where.host, where.port)):  # the queue is full
        with socket.socket() as probe:
            probe.settimeout(0.5)
            try:
                probe.connect((where.host, where.port))
            except TimeoutError:
                pass
            else:
                pytest.skip("this system takes a connection beyond a full listen queue")
        unanswered = join(tmp_path, "unanswered", _code(where), "--connect-timeout", "2")
        assert unanswered.wait(LIMIT) == 2
    text = flat(unanswered.err)
    assert f"could not reach the host ({where}: no answer within 2 s)" in text, text
    assert "said nothing" not in text
