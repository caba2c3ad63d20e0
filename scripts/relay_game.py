"""CI: the installed fairdeal plays a bot game through a transit relay on 127.0.0.1.

    python scripts/relay_game.py TWIST WORKDIR

TWIST is the ``twist`` of an environment with ``magic-wormhole-transit-relay``; this
script runs under the Python whose fairdeal is checked (the wheel's). The joiner's code
keeps only the relay, so the game can only go through it. Every wait is bounded.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from fairdeal.net.invite import Invite, decode_invite

LIMIT = 120


def main(twist: str, work: Path) -> int:
    relay = subprocess.Popen(
        [twist, "transitrelay", "--port=tcp:0:interface=127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert relay.stdout is not None
        port, end = 0, time.monotonic() + 30
        while not port and time.monotonic() < end and (line := relay.stdout.readline()):
            m = re.search(r"starting on (\d+)", line)
            port = int(m.group(1)) if m else 0
        if not port:
            print("the transit relay did not start", file=sys.stderr)
            return 1
        threading.Thread(target=lambda: [None for _ in relay.stdout or ()], daemon=True).start()
        env = {
            **os.environ,
            "FAIRDEAL_HOME": str(work / "relay-home"),
            "FAIRDEAL_LAN": "off",
            "FAIRDEAL_MAILBOX": "none",
        }
        # Run from WORKDIR: from the source tree, "-m fairdeal" would find the source folder
        # fairdeal/ (which holds no fairdeal.core) before the installed package.
        fairdeal = [sys.executable, "-m", "fairdeal"]
        code_file = work / "relay-code.txt"
        host = subprocess.Popen(
            [*fairdeal, "host", "ecarte", "--seat", "bot", "--bind", "127.0.0.1", "--option", "target=1",
             "--relay", f"tcp:127.0.0.1:{port}", "--invite-file", str(code_file),
             "--log", str(work / "h.fdlog")],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=work,
        )  # fmt: skip
        end = time.monotonic() + LIMIT
        while time.monotonic() < end and not (code_file.exists() and code_file.read_text().strip()):
            if host.poll() is not None:
                break
            time.sleep(0.1)
        if not (code_file.exists() and code_file.read_text().strip()):
            host.kill()
            print("the host wrote no invite code:", host.communicate()[1][-2000:], file=sys.stderr)
            return 1
        real = decode_invite(code_file.read_text().strip())
        relayed = Invite(real.fingerprint, real.secret, (), real.relay, real.doors).encode()
        guest = subprocess.run(
            [*fairdeal, "--profile", "guest", "join", relayed, "--seat", "bot",
             "--log", str(work / "g.fdlog")],
            env=env, capture_output=True, text=True, timeout=LIMIT, cwd=work,
        )  # fmt: skip
        _, host_err = host.communicate(timeout=LIMIT)
        same = (work / "h.fdlog").read_bytes() == (work / "g.fdlog").read_bytes()
        through = f"Connected through relay 127.0.0.1:{port}" in " ".join(guest.stdout.split())
        if guest.returncode or host.returncode or not same or not through:
            print(guest.stdout[-2000:], guest.stderr[-2000:], host_err[-2000:], sep="\n", file=sys.stderr)
            return 1
        print(f"a game through the relay at 127.0.0.1:{port}: both logs the same")
        return 0
    finally:
        relay.terminate()
        relay.wait(10)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], Path(sys.argv[2])))
