"""The host's waiting screen says at once when its relay cannot be reached — in words, never an
errno — and what still works, and says so again when the relay answers; nobody has to join first."""

from __future__ import annotations

import asyncio

import trio

from fairdeal.cli.tui.app import TableApp
from fairdeal.cli.tui.netview import TableReport
from fairdeal.core.identity import Identity
from fairdeal.net import events as ev
from fairdeal.net.invite import SECRET_BYTES, Endpoint, Invite
from fairdeal.net.reasons import os_words

RELAY = Endpoint("relay.invalid", 4001)


def test_the_waiting_screen_says_the_relay_is_unreachable_then_back() -> None:
    import socket

    invite = Invite(
        Identity.generate().fingerprint, bytes(SECRET_BYTES), (Endpoint("127.0.0.1", 7700),), RELAY, 1
    )
    lookup = os_words(socket.gaierror(socket.EAI_NONAME, "Name or service not known"))
    assert lookup is not None and "-2" not in lookup and "-3" not in lookup

    async def game() -> None:
        await trio.sleep_forever()

    async def main() -> None:
        report = TableReport(None)
        app = TableApp("Écarté", None, game)
        report.app = app
        async with app.run_test(size=(80, 24)) as pilot:
            report(ev.Listening(invite.encode(), invite, ("127.0.0.1:7700",)))
            await pilot.pause()
            assert "Nobody has joined yet." in app.lobby_lines
            assert not any("cannot" in line for line in app.lobby_lines)
            report(ev.RelayStatus(str(RELAY), False, f"cannot reach the relay at {RELAY}: {lookup}"))
            await pilot.pause()
            shown = " ".join(app.lobby_lines)
            assert f"Cannot reach the relay at {RELAY}: {lookup}." in shown, shown
            assert "Only players who can reach this computer directly can join" in shown
            assert "Unknown error" not in shown and "Nobody has joined yet." in shown
            report(ev.RelayStatus(str(RELAY), True))
            await pilot.pause()
            shown = " ".join(app.lobby_lines)
            assert "works again" in shown and "Cannot reach" not in shown
            await pilot.press("ctrl+c")

    asyncio.run(main())
