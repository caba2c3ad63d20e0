"""A real magic-wormhole transit relay on 127.0.0.1 for the tests that need one."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from fairdeal.net.invite import Endpoint

START_LIMIT = 30.0


def _twist() -> Path:
    twist = Path(sys.executable).parent / "twist"
    if not twist.exists():
        pytest.fail("twist (magic-wormhole-transit-relay, a test dependency) is not installed")
    return twist


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class RelayProcess:
    """``twist transitrelay`` listening on a free port of 127.0.0.1, stopped by :meth:`stop`
    (``command``: another ``twist`` plugin and its options, logging its port the same way)."""

    def __init__(self, command: Sequence[str] = ("transitrelay", "--port=tcp:0:interface=127.0.0.1")) -> None:
        self.proc = subprocess.Popen(
            [str(_twist()), *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        self.port = self._wait_for_port()
        self.endpoint = Endpoint("127.0.0.1", self.port)
        # Keep reading what it logs, or a full pipe would stop the relay.
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for _ in self.proc.stdout:
            pass

    def _wait_for_port(self) -> int:
        assert self.proc.stdout is not None
        end = time.monotonic() + START_LIMIT
        seen: list[str] = []
        while time.monotonic() < end:
            line = self.proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            try:
                text = json.loads(line).get("log_text", "")
            except ValueError:
                text = line
            m = re.search(r"starting on (\d+)", str(text))
            if m:
                port = int(m.group(1))
                while time.monotonic() < end and not _accepts(port):
                    time.sleep(0.05)
                if _accepts(port):
                    return port
                break
        self.stop()
        raise AssertionError("the transit relay did not start:\n" + "".join(seen[-20:]))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture(scope="session")
def transit_relay() -> Iterator[Endpoint]:
    """The address of a real transit relay (one for the whole test session)."""
    relay = RelayProcess()
    try:
        yield relay.endpoint
    finally:
        relay.stop()


class MailboxProcess(RelayProcess):
    """``twist wormhole-mailbox`` (magic-wormhole-mailbox-server) on a free port of 127.0.0.1, its
    database in ``folder``; ``url`` is its WebSocket's."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        db = folder / "channel.sqlite"
        super().__init__(("wormhole-mailbox", "--port=tcp:0:interface=127.0.0.1", f"--channel-db={db}"))
        self.url = f"ws://127.0.0.1:{self.port}/v1"


@pytest.fixture(scope="session")
def mailbox_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a real mailbox server (one for the whole test session)."""
    mailbox = MailboxProcess(tmp_path_factory.mktemp("mailbox"))
    try:
        yield mailbox.url
    finally:
        mailbox.stop()


@pytest.fixture
def own_mailbox(tmp_path: Path) -> Iterator[MailboxProcess]:
    """A real mailbox server of this test's own, to stop (or kill) in the middle."""
    mailbox = MailboxProcess(tmp_path / "mailbox")
    try:
        yield mailbox
    finally:
        mailbox.stop()
