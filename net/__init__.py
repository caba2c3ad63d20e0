"""Network play: the Noise XX secure channel, links, invite codes, the lobby, host and join."""

from .driver import BotAgent, Link, PeerGone, Timeouts, run_guest, run_host
from .invite import Invite, InviteError, decode_invite
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
    "BotAgent",
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
    "SecureChannel",
    "SecureStream",
    "Table",
    "Timeouts",
    "decode_invite",
    "host_game",
    "join_game",
    "run_guest",
    "run_host",
    "secure_connect",
]
