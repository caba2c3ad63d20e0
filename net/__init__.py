"""Network play: the Noise XX secure channel, links, invite codes, the lobby, host and join,
the transit relay and games on the local network."""

from .connect import Connected, connect_host
from .driver import BotAgent, Link, PeerGone, Timeouts, run_guest, run_host
from .errors import RelayError
from .invite import PUBLIC_RELAY, Endpoint, Invite, InviteError, decode_invite, parse_endpoint
from .link import Keepalive, LinkStats, NetLink
from .lobby import Joiner, Lobby, LobbyLimits, LobbyObserver, Table
from .netplay import (
    HostPlan,
    JoinPlan,
    NetError,
    NetObserver,
    NetOutcome,
    Prepared,
    host_game,
    join_game,
)
from .secure import DEFAULT_PROLOGUE, HandshakeComplete, MessageReceived, SecureChannel
from .stream import PeerClosed, SecureStream, secure_connect

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
    "LobbyObserver",
    "MessageReceived",
    "NetError",
    "NetLink",
    "NetObserver",
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
