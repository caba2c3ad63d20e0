"""Real ``fairdeal`` processes for the end-to-end network tests: start, wait (bounded), compare."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fairdeal import registry
from fairdeal.core.session.verify import verify_log

RUN = "from fairdeal.cli.main import main; main()"
LIMIT = 90  # seconds for any one process; games here take a few


class Peer:
    """One ``fairdeal`` process with its own home folder.

    ``prefix`` runs it under another command (``ip netns exec NAME``); ``stdin`` is typed in
    (as bytes of text); ``env`` adds variables; ``log`` False leaves out ``--log`` and ``--json``;
    ``stderr_file`` sends stderr to a file that can be read while the process runs; ``hold``
    keeps stdin open and empty (a person who has not answered yet) until :meth:`release`, and
    :meth:`type` answers. The process takes SIGINT as at a terminal (:meth:`interrupt` is Ctrl-C),
    even when the tests run with it ignored (``./test.sh &``).
    """

    def __init__(
        self,
        tmp: Path,
        label: str,
        args: Sequence[str],
        *,
        prefix: Sequence[str] = (),
        stdin: str | None = None,
        env: Mapping[str, str] | None = None,
        log: bool = True,
        home: Path | None = None,
        stderr_file: Path | None = None,
        hold: bool = False,
    ) -> None:
        self.home = home or tmp / f"home-{label}"
        self.log = tmp / f"{label}.fdlog"
        environ = {**os.environ, "FAIRDEAL_HOME": str(self.home), "PYTHONUNBUFFERED": "1", **(env or {})}
        extra = ["--log", str(self.log), "--json"] if log else []
        self.stderr_file = stderr_file
        self._err = open(stderr_file, "w") if stderr_file else None  # noqa: SIM115 - closed in wait
        self.proc = subprocess.Popen(
            [*prefix, sys.executable, "-c", RUN, *args, *extra],
            env=environ,
            stdout=subprocess.PIPE,
            stderr=self._err or subprocess.PIPE,
            stdin=subprocess.PIPE if stdin is not None or hold else subprocess.DEVNULL,
            text=True,
            preexec_fn=_sigint_as_at_a_terminal,
        )
        if stdin is not None:  # typed at once, as a person answering the prompt would
            assert self.proc.stdin is not None
            self.proc.stdin.write(stdin)
            self.proc.stdin.close()
            self.proc.stdin = None  # communicate() must not touch it again
        self.out = self.err = ""

    def type(self, text: str) -> None:
        """Type ``text`` into a held stdin."""
        assert self.proc.stdin is not None, "stdin is not held"
        self.proc.stdin.write(text)
        self.proc.stdin.flush()

    def interrupt(self) -> None:
        """Ctrl-C."""
        self.proc.send_signal(signal.SIGINT)

    def release(self) -> None:
        """Close a held stdin: the end of input."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
            self.proc.stdin = None

    def wait(self, limit: float = LIMIT) -> int:
        try:
            self.out, self.err = self.proc.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.out, self.err = self.proc.communicate()
            raise AssertionError(f"timed out; stderr:\n{self._stderr()}") from None
        finally:
            self._close_err()
        self.err = self._stderr()
        return self.proc.returncode

    def _stderr(self) -> str:
        if self.stderr_file is None:
            return self.err or ""
        return self.stderr_file.read_text() if self.stderr_file.exists() else ""

    def _close_err(self) -> None:
        if self._err is not None:
            self._err.close()
            self._err = None

    def result(self) -> dict[str, Any]:
        lines = self.out.strip().splitlines()
        assert lines, f"no JSON on stdout; stderr:\n{self.err}"
        return json.loads(lines[-1])

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        out, err = self.proc.communicate()
        self.out = self.out or out or ""
        self._close_err()
        self.err = self._stderr() if self.stderr_file else self.err or err or ""


def _sigint_as_at_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # an ignored signal stays ignored across exec


def wait_for_code(path: Path, host: Peer, limit: float = 20) -> str:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if path.exists() and path.read_text().strip():
            return path.read_text().strip()
        if host.proc.poll() is not None:
            break
        time.sleep(0.05)
    host.proc.kill()
    raise AssertionError(f"no invite code; host stderr:\n{host.proc.communicate()[1]}")


def host(tmp: Path, game: str, *extra: str, **kwargs: Any) -> tuple[Peer, str]:
    code_file = tmp / "invite.txt"
    peer = Peer(
        tmp,
        "host",
        ["host", game, "--seat", "bot", "--bind", "127.0.0.1", "--port", "0", "--invite-file", str(code_file),
         *extra],
        **kwargs,
    )  # fmt: skip
    return peer, wait_for_code(code_file, peer)


def join(tmp: Path, label: str, code: str, *extra: str, **kwargs: Any) -> Peer:
    return Peer(tmp, label, ["join", code, "--seat", "bot", *extra], **kwargs)


def flat(text: str) -> str:
    """``text`` with its line wrapping undone."""
    return " ".join(text.split())


def check_logs(peers: Sequence[Peer], verdict: str = "fair") -> bytes:
    data = peers[0].log.read_bytes()
    for p in peers[1:]:
        assert p.log.read_bytes() == data, f"{p.log} differs from {peers[0].log}"
    report = verify_log(data, registry.load().game)
    assert report.verdict == verdict, report.findings
    cmd = subprocess.run(
        [sys.executable, "-c", RUN, "verify", str(peers[0].log)],
        env={**os.environ, "FAIRDEAL_HOME": str(peers[0].home)},
        capture_output=True,
        text=True,
        timeout=LIMIT,
    )
    if "No such command" not in cmd.stderr:
        assert cmd.returncode == {"fair": 0, "cheating": 1, "undecided": 2}[verdict], cmd.stdout + cmd.stderr
    return data


def same_results(peers: Sequence[Peer]) -> dict[str, Any]:
    results = [p.result() for p in peers]
    for p, r in zip(peers, results, strict=True):
        assert r.pop("log") == str(p.log)
    assert all(r == results[0] for r in results)
    return results[0]


async def sit_down(invite: Any, name: str = "Mallory") -> tuple[Any, Any, Any]:
    """A guest of a test's own making takes a seat at the host ``invite`` leads to, over real Noise on
    loopback: its new identity, its secure stream and the host's welcome."""
    import trio

    from fairdeal.core.identity import Identity
    from fairdeal.net import wire
    from fairdeal.net.stream import secure_connect

    me = Identity.generate()
    stream = await trio.open_tcp_stream(invite.direct[0].host, invite.direct[0].port)
    s = await secure_connect(stream, me, initiator=True, expected_peer_fingerprint=invite.fingerprint)
    await s.send(wire.encode(wire.Hello(invite.session)))
    welcome = wire.decode(await s.receive())
    assert isinstance(welcome, wire.Welcome)
    await s.send(wire.encode(wire.Ready(name, "bot")))
    return me, s, welcome
