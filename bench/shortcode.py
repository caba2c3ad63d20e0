"""Joining with a short code against joining with the long code, in one run.

    python bench/shortcode.py [--repeat 7] [--quick]

Starts a real mailbox server (``twist wormhole-mailbox``, from ``magic-wormhole-mailbox-server`` in
the test extras) on 127.0.0.1 and, in one process, a host (``host_game``, a bot, Écarté for 2)
that keeps a short code open there. The joiner's time is measured from its "Enter" (the start
of its work: reading the code) to its seat (the host's ``welcome``):

- the long code: ``join_game`` at once;
- a short code: ``fetch_invite`` through the mailbox (claim, SPAKE2, the sealed confirmations
  and invite), then ``join_game``.

Both with the mailbox on loopback and with 100 ms of round trip to it: a delaying TCP proxy
(:class:`DelayProxy`, 50 ms each way, bytes in order) sits between both ends and the mailbox,
as a mailbox across the internet would. The game's own connection is loopback in every row.
Median of the runs; each run is a new host and a new code.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import trio

from fairdeal import registry
from fairdeal.core.identity import Identity
from fairdeal.core.rng import SeededRng, python_random
from fairdeal.net import HostPlan, JoinPlan, Prepared, host_game, join_game, wire
from fairdeal.net import events as ev
from fairdeal.net.driver import BotAgent
from fairdeal.net.invite import Invite
from fairdeal.net.rendezvous import fetch_invite
from fairdeal.net.shortcode import parse_short_code

LIMIT = 60.0


# -- the mailbox ----------------------------------------------------------------------------------------
class Mailbox:
    """``twist wormhole-mailbox`` on a free port of 127.0.0.1, its database in a new folder."""

    def __init__(self) -> None:
        twist = Path(sys.executable).parent / "twist"
        self.folder = Path(tempfile.mkdtemp(prefix="fairdeal-mailbox-"))
        self.proc = subprocess.Popen(
            [str(twist), "wormhole-mailbox", "--port=tcp:0:interface=127.0.0.1",
             f"--channel-db={self.folder / 'channel.sqlite'}"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        end, self.port = time.monotonic() + 30, 0
        while time.monotonic() < end and not self.port and (line := self.proc.stdout.readline()):
            try:
                text = str(json.loads(line).get("log_text", ""))
            except ValueError:
                text = line
            m = re.search(r"starting on (\d+)", text)
            self.port = int(m.group(1)) if m else 0
        if not self.port:
            self.stop()
            raise SystemExit("the mailbox did not start (is magic-wormhole-mailbox-server installed?)")
        threading.Thread(target=lambda: [None for _ in self.proc.stdout or ()], daemon=True).start()

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


class DelayProxy:
    """Forwards every connection on 127.0.0.1 to ``target``, each byte ``delay`` seconds late in
    each direction (in order; no limit on throughput): a round trip of ``2 * delay``."""

    def __init__(self, target: int, delay: float) -> None:
        self.target, self.delay, self.port = target, delay, 0

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started()
        await trio.serve_listeners(self._handle, listeners)

    async def _handle(self, client: trio.SocketStream) -> None:
        server = await trio.open_tcp_stream("127.0.0.1", self.target)
        async with trio.open_nursery() as n:
            for src, dst in ((client, server), (server, client)):
                send, receive = trio.open_memory_channel[tuple[float, bytes]](1000)
                n.start_soon(self._read, src, send)
                n.start_soon(self._write, receive, dst, n.cancel_scope)

    async def _read(self, src: trio.SocketStream, send: trio.MemorySendChannel[tuple[float, bytes]]) -> None:
        async with send:
            try:
                while data := await src.receive_some(65536):
                    await send.send((trio.current_time() + self.delay, data))
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

    async def _write(
        self,
        receive: trio.MemoryReceiveChannel[tuple[float, bytes]],
        dst: trio.SocketStream,
        scope: trio.CancelScope,
    ) -> None:
        try:
            async for due, data in receive:
                await trio.sleep_until(due)
                await dst.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        scope.cancel()  # one side ended: so does the connection, after what was on its way


# -- one join -------------------------------------------------------------------------------------------
class _Host:
    def __init__(self) -> None:
        self.invite: Invite | None = None
        self.code: str | None = None

    def __call__(self, event: ev.NetEvent) -> None:
        match event:
            case ev.Listening(_, invite):
                self.invite = invite
            case ev.ShortCode(code):
                self.code = code
            case _:
                pass


class _Seated:
    def __init__(self) -> None:
        self.at: float | None = None
        self.done = trio.Event()

    def __call__(self, event: ev.NetEvent) -> None:
        if isinstance(event, ev.Seated):
            self.at = time.perf_counter()
            self.done.set()


def _bot(seat: int) -> BotAgent:
    return BotAgent(registry.load().bot("ecarte").make(), python_random(SeededRng(seat)))


async def one_join(url: str, short: bool) -> float:
    """Seconds from the joiner's start to its seat, with a short code or the long one."""
    reg = registry.load()
    entry = reg.entry("ecarte")
    plan = HostPlan(
        game=entry.game, plugin=entry.plugin, distribution=entry.distribution, version=entry.version,
        options=dict(entry.game.config(2, {}).options), players=2, identity=Identity.generate(),
        name="Host", kind="bot", agent=_bot(0), bind="127.0.0.1", mailbox=url,
    )  # fmt: skip
    hosting, seated = _Host(), _Seated()

    def prepare(w: wire.Welcome) -> Prepared:
        return Prepared(reg.game(w.game), _bot(1), "Guest", "bot")

    with trio.fail_after(LIMIT):
        async with trio.open_nursery() as n:
            n.start_soon(host_game, plan, hosting)
            while hosting.code is None:  # the host is ready: its short code is open
                await trio.sleep(0.005)
            t0 = time.perf_counter()
            if short:
                invite = await fetch_invite(parse_short_code(hosting.code), url)
            else:
                assert hosting.invite is not None
                invite = hosting.invite
            n.start_soon(join_game, JoinPlan(invite, Identity.generate(), prepare), seated)
            await seated.done.wait()
            n.cancel_scope.cancel()
    assert seated.at is not None
    return seated.at - t0


async def measure(mailbox_port: int, delay: float, repeat: int) -> dict[str, float]:
    async with trio.open_nursery() as n:
        port = mailbox_port
        if delay:
            proxy = DelayProxy(mailbox_port, delay)
            await n.start(proxy.run)
            port = proxy.port
        url = f"ws://127.0.0.1:{port}/v1"
        times: dict[str, list[float]] = {"long code": [], "short code": []}
        for _ in range(repeat):
            times["long code"].append(await one_join(url, short=False))
            times["short code"].append(await one_join(url, short=True))
        n.cancel_scope.cancel()
    return {k: statistics.median(v) for k, v in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs of each measurement")
    parser.add_argument("--quick", action="store_true", help="one run of each (a smoke test)")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else args.repeat
    mailbox = Mailbox()
    try:
        rows = {f"{int(d * 2000)} ms": trio.run(measure, mailbox.port, d, repeat) for d in (0.0, 0.05)}
    finally:
        mailbox.stop()
    print(f"Enter to seat, Écarté for 2, median of {repeat} (the game's connection on loopback):")
    print(f"  {'round trip to the mailbox':<28}{'long code ms':>14}{'short code ms':>15}{'extra ms':>10}")
    for name, row in rows.items():
        long, short = row["long code"] * 1000, row["short code"] * 1000
        print(f"  {name:<28}{long:>14.1f}{short:>15.1f}{short - long:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
