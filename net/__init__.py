"""Network play: the Noise XX secure channel, links, invite codes, the lobby, host and join,
the transit relay and games on the local network."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .connect import Connected, connect_host
    from .driver import BotAgent, Link, PeerGone, Timeouts, run_guest, run_host
    from .errors import RelayError
    from .invite import PUBLIC_RELAY, Endpoint, Invite, InviteError, decode_invite, parse_endpoint
    from .link import Keepalive, LinkStats, NetLink
    from .lobby import Joiner, Lobby, LobbyLimits, Table
    from .netplay import HostPlan, JoinPlan, NetError, NetOutcome, Prepared, host_game, join_game
    from .secure import DEFAULT_PROLOGUE, HandshakeComplete, MessageReceived, SecureChannel
    from .stream import PeerClosed, SecureStream, secure_connect

#: Where each name of the package's API lives: imported when first used, so that local play
#: (which needs the driver alone) does not load the network's modules (Noise, the lobby, the relay).
_WHERE = {
    "Connected": "connect",
    "connect_host": "connect",
    "BotAgent": "driver",
    "Link": "driver",
    "PeerGone": "driver",
    "Timeouts": "driver",
    "run_guest": "driver",
    "run_host": "driver",
    "RelayError": "errors",
    "PUBLIC_RELAY": "invite",
    "Endpoint": "invite",
    "Invite": "invite",
    "InviteError": "invite",
    "decode_invite": "invite",
    "parse_endpoint": "invite",
    "Keepalive": "link",
    "LinkStats": "link",
    "NetLink": "link",
    "Joiner": "lobby",
    "Lobby": "lobby",
    "LobbyLimits": "lobby",
    "Table": "lobby",
    "HostPlan": "netplay",
    "JoinPlan": "netplay",
    "NetError": "netplay",
    "NetOutcome": "netplay",
    "Prepared": "netplay",
    "host_game": "netplay",
    "join_game": "netplay",
    "DEFAULT_PROLOGUE": "secure",
    "HandshakeComplete": "secure",
    "MessageReceived": "secure",
    "SecureChannel": "secure",
    "PeerClosed": "stream",
    "SecureStream": "stream",
    "secure_connect": "stream",
}


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_PROLOGUE",
    "PUBLIC_RELAY",
    "BotAgent",
    "Connected",
    "Endpoint",
    "HandshakeComplete",
    "HostPlan",
    "Invite",
    "InviteError",
    "JoinPlan",
    "Joiner",
    "Keepalive",
    "Link",
    "LinkStats",
    "Lobby",
    "LobbyLimits",
    "MessageReceived",
    "NetError",
    "NetLink",
    "NetOutcome",
    "PeerClosed",
    "PeerGone",
    "Prepared",
    "RelayError",
    "SecureChannel",
    "SecureStream",
    "Table",
    "Timeouts",
    "connect_host",
    "decode_invite",
    "host_game",
    "join_game",
    "parse_endpoint",
    "run_guest",
    "run_host",
    "secure_connect",
]
