"""A small internet in network namespaces: homes that reach only a public relay, and Wi-Fi that goes.

:class:`Internet` makes one *public* namespace, which holds a real ``twist transitrelay`` on
:data:`RELAY_ADDRESS`, and one namespace per *home*. Each home reaches the public namespace
through a veth pair of its own (``wan0``, 10.200.N.2/24, gateway 10.200.N.1) and has a second
one, down, for another network (``wan1``, 10.201.N.2/24): a phone hotspot. The public namespace
does not forward, and each home has no route to the others' networks, so homes cannot reach
each other: every game goes through the relay, as between homes behind routers.

:meth:`Home.down` is Wi-Fi gone: the home's interface goes down, nothing is sent (no FIN, no
RST), packets to it are lost. :meth:`Home.up` brings it back with the same address;
:meth:`Home.move` brings the home back on its other network, with another address.

Every name carries the creating process's id and a random tag, so runs side by side never
meet. :meth:`Internet.close` ends every process still running in the namespaces (the relay
included) and deletes them; use the object as a context manager, so it happens when a test
fails too. A run that was killed cannot clean up: the next one deletes the empty namespaces
of creators that are gone.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

RELAY_ADDRESS: Final = "10.99.0.1"
RELAY_PORT: Final = 4001
START_LIMIT: Final = 30.0


class NoNamespaces(Exception):
    """Network namespaces cannot be made here (not Linux, not root, no iproute2); says why."""


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)
    if check and done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done


def why_not() -> str | None:
    """Why network namespaces cannot be made here, or None when they can."""
    if not sys.platform.startswith("linux"):
        return "network namespaces are a Linux feature"
    if os.geteuid() != 0:
        return "making network namespaces needs root"
    if shutil.which("ip") is None:
        return "the ip command (iproute2) is not installed"
    return None


_OURS = re.compile(r"fd(\d+)x[0-9a-f]{4}(?:pub|h\d+)")


def _sweep() -> None:
    """Delete the namespaces left by runs that were killed: named by a creator that is gone, and empty."""
    for line in _ip("netns", "list", check=False).stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        m = _OURS.fullmatch(name)
        if m is None or os.path.exists(f"/proc/{m.group(1)}"):
            continue
        if not _ip("netns", "pids", name, check=False).stdout.split():
            _ip("netns", "del", name, check=False)


@dataclass
class Home:
    """One home's namespace and its two networks (``wan0`` first, ``wan1`` after a move)."""

    ns: str
    number: int
    active: int = 0
    events: list[tuple[float, str]] = field(default_factory=list)

    @property
    def prefix(self) -> list[str]:
        """The command prefix that runs a process in this home."""
        return ["ip", "netns", "exec", self.ns]

    def address(self, net: int | None = None) -> str:
        return f"10.{200 + (self.active if net is None else net)}.{self.number}.2"

    def _gateway(self, net: int) -> str:
        return f"10.{200 + net}.{self.number}.1"

    def _up(self, net: int) -> None:
        _ip("-n", self.ns, "link", "set", f"wan{net}", "up")
        # A link that goes down takes its routes with it: the default route is set again.
        _ip("-n", self.ns, "route", "replace", "default", "via", self._gateway(net), "dev", f"wan{net}")
        self.active = net

    def down(self) -> None:
        """Wi-Fi gone: the active interface goes down; nothing is sent, nothing arrives."""
        _ip("-n", self.ns, "link", "set", f"wan{self.active}", "down")
        self.events.append((time.monotonic(), "down"))

    def up(self) -> None:
        """The same network again, with the same address."""
        self._up(self.active)
        self.events.append((time.monotonic(), "up"))

    def move(self) -> None:
        """Another network (a phone hotspot): the active interface stays down, the other one comes up."""
        old = self.active
        _ip("-n", self.ns, "link", "set", f"wan{old}", "down")
        self._up(1 - old)
        self.events.append((time.monotonic(), "moved"))


class Internet:
    """The public namespace with its relay, and ``homes`` homes (see the module)."""

    def __init__(self, homes: int, twist: Path) -> None:
        reason = why_not()
        if reason is not None:
            raise NoNamespaces(reason)
        _sweep()
        self.tag = f"{os.getpid()}x{secrets.token_hex(2)}"
        self.public = f"fd{self.tag}pub"
        self.homes: list[Home] = []
        self._made: list[str] = []
        self.relay: subprocess.Popen[str] | None = None
        self.relay_log: list[str] = []
        try:
            self._make(homes)
            self._start_relay(twist)
        except BaseException:
            self.close()
            raise

    @property
    def relay_endpoint(self) -> str:
        return f"tcp:{RELAY_ADDRESS}:{RELAY_PORT}"

    def _namespace(self, name: str) -> None:
        made = _ip("netns", "add", name, check=False)
        if made.returncode != 0:
            raise NoNamespaces(f"cannot make a network namespace here: {made.stderr.strip()}")
        self._made.append(name)
        _ip("-n", name, "link", "set", "lo", "up")

    def _make(self, homes: int) -> None:
        pub = self.public
        self._namespace(pub)
        _ip("-n", pub, "address", "add", f"{RELAY_ADDRESS}/32", "dev", "lo")
        subprocess.run(["ip", "netns", "exec", pub, "sysctl", "-qw", "net.ipv4.ip_forward=0"],
                       check=True, timeout=20)  # fmt: skip
        for n in range(homes):
            home = Home(f"fd{self.tag}h{n}", n)
            self._namespace(home.ns)
            for net in (0, 1):
                outside = f"h{n}n{net}"
                _ip("-n", pub, "link", "add", outside, "type", "veth", "peer", "name", f"wan{net}",
                    "netns", home.ns)  # fmt: skip
                _ip("-n", pub, "address", "add", f"10.{200 + net}.{n}.1/24", "dev", outside)
                _ip("-n", pub, "link", "set", outside, "up")
                _ip("-n", home.ns, "address", "add", f"10.{200 + net}.{n}.2/24", "dev", f"wan{net}")
            # Another home's address is no route from here (as behind a router, said at once).
            _ip("-n", home.ns, "route", "add", "unreachable", "10.200.0.0/15")
            home._up(0)
            self.homes.append(home)

    def _start_relay(self, twist: Path) -> None:
        self.relay = subprocess.Popen(
            ["ip", "netns", "exec", self.public, str(twist), "transitrelay",
             f"--port=tcp:{RELAY_PORT}:interface={RELAY_ADDRESS}"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        assert self.relay.stdout is not None
        end = time.monotonic() + START_LIMIT
        while time.monotonic() < end:
            line = self.relay.stdout.readline()
            if not line:
                break
            self.relay_log.append(line)
            if re.search(rf"starting on {RELAY_PORT}", line):
                break
        else:
            raise RuntimeError("the transit relay did not start:\n" + "".join(self.relay_log[-20:]))
        threading.Thread(target=self._drain, daemon=True).start()  # a full pipe would stop the relay
        probe = f"import socket; socket.create_connection(('{RELAY_ADDRESS}', {RELAY_PORT}), timeout=1)"
        while time.monotonic() < end:
            if subprocess.run([*self.homes[0].prefix, sys.executable, "-c", probe],
                              capture_output=True, timeout=20).returncode == 0:  # fmt: skip
                return
            time.sleep(0.1)
        raise RuntimeError("the transit relay does not accept connections:\n" + "".join(self.relay_log[-20:]))

    def _drain(self) -> None:
        assert self.relay is not None and self.relay.stdout is not None
        for line in self.relay.stdout:
            if len(self.relay_log) < 10_000:
                self.relay_log.append(line)

    def close(self) -> None:
        """End every process left in the namespaces and delete them (safe to call twice)."""
        for name in self._made:
            pids = _ip("netns", "pids", name, check=False).stdout.split()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, ValueError):
                    os.kill(int(pid), signal.SIGKILL)
        if self.relay is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.relay.wait(10)
        for name in reversed(self._made):
            _ip("netns", "del", name, check=False)
        self._made = []

    def __enter__(self) -> Internet:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def internet(homes: int, twist: Path) -> Iterator[Internet]:
    """An :class:`Internet` for the block, deleted after it."""
    net = Internet(homes, twist)
    try:
        yield net
    finally:
        net.close()


__all__ = ["RELAY_ADDRESS", "Home", "Internet", "NoNamespaces", "internet", "why_not"]
