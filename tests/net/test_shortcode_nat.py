"""A host and a joiner in two homes that cannot reach each other meet by a short code: the mailbox
hands the invite over, the transit relay carries the game.

The homes and the public namespace are :mod:`.netns`'s; beside its ``twist transitrelay`` this test
starts a real ``twist wormhole-mailbox`` in the public namespace. Nothing leaves the namespaces.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .netns import RELAY_ADDRESS, Internet, NoNamespaces, why_not
from .peers import Peer, check_logs, flat, wait_for_code

pytestmark = pytest.mark.slow

MAILBOX_PORT = 4000
START_LIMIT = 30.0


@pytest.fixture(scope="module")
def net() -> Iterator[Internet]:
    reason = why_not()
    if reason is not None:
        pytest.skip(reason)
    try:
        internet = Internet(2, Path(sys.executable).parent / "twist")
    except NoNamespaces as exc:
        pytest.skip(str(exc))
    try:
        yield internet
    finally:
        internet.close()  # ends the mailbox too: every process in the namespaces


def _start_mailbox(net: Internet, folder: Path) -> str:
    """A mailbox in the public namespace, beside the relay; its URL once it accepts connections."""
    twist = Path(sys.executable).parent / "twist"
    log = folder / "mailbox.log"
    with open(log, "w") as out:
        subprocess.Popen(
            ["ip", "netns", "exec", net.public, str(twist), "wormhole-mailbox",
             f"--port=tcp:{MAILBOX_PORT}:interface={RELAY_ADDRESS}",
             f"--channel-db={folder / 'channel.sqlite'}"],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    probe = f"import socket; socket.create_connection(('{RELAY_ADDRESS}', {MAILBOX_PORT}), timeout=1)"
    end = time.monotonic() + START_LIMIT
    while time.monotonic() < end:
        if subprocess.run([*net.homes[0].prefix, sys.executable, "-c", probe],
                          capture_output=True, timeout=20).returncode == 0:  # fmt: skip
            return f"ws://{RELAY_ADDRESS}:{MAILBOX_PORT}/v1"
        time.sleep(0.1)
    raise AssertionError("the mailbox did not start:\n" + log.read_text()[-3000:])


def test_two_homes_meet_through_the_mailbox_and_play_through_the_relay(tmp_path: Path, net: Internet) -> None:
    url = _start_mailbox(net, tmp_path)
    short = tmp_path / "short.txt"
    host = Peer(
        tmp_path, "host",
        ["host", "ecarte", "--seat", "bot", "--option", "target=1", "--private", "--bind", "0.0.0.0",
         "--relay", net.relay_endpoint, "--mailbox", url, "--code-file", str(short)],
        prefix=net.homes[0].prefix,
    )  # fmt: skip
    code = wait_for_code(short, host, limit=30)
    guest = Peer(
        tmp_path, "guest", ["join", code, "--seat", "bot", "--mailbox", url], prefix=net.homes[1].prefix
    )
    assert guest.wait() == 0, guest.err
    assert host.wait() == 0, host.err
    check_logs([host, guest])
    said = flat(guest.err)
    assert f"Asking the mailbox {url}" in said
    assert f"Connected through relay {RELAY_ADDRESS}" in said, said
    assert f"Short code {code} was used" in flat(host.err)
