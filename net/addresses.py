"""Where this machine may be reached: the addresses put in an invite code."""

from __future__ import annotations

import ipaddress
import socket
from typing import Final

from .invite import Endpoint, parse_endpoint
from .plans import (
    ANY_ADDRESS,
    HostPlan,
)

MAX_HINTS: Final = 4
"""Direct addresses put in an invite code (``--advertise`` first), to keep codes short."""
_ROUTE_PROBE: Final = ("192.0.2.1", 9)  # TEST-NET-1: only a route lookup, no packet is ever sent


def guess_address() -> str:
    """The IPv4 address other machines most likely reach this one at (127.0.0.1 if none).

    A UDP socket is pointed at a documentation address: the kernel picks the outgoing
    interface; nothing is sent.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(_ROUTE_PROBE)
            address = str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"
    return address if address and address != ANY_ADDRESS else "127.0.0.1"


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses others on the LAN may reach, best guess first (loopback and
    link-local left out; 127.0.0.1 if there is nothing else)."""
    import ifaddr

    found: list[str] = []
    try:
        adapters = ifaddr.get_adapters()
    except OSError:
        adapters = []
    for adapter in adapters:
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue
            a = ipaddress.ip_address(ip.ip)
            if not (a.is_loopback or a.is_link_local or a.is_unspecified or a.is_multicast):
                found.append(str(a))
    guess = guess_address()
    ordered = list(dict.fromkeys([guess, *found] if guess in found else found))
    return ordered or ["127.0.0.1"]


def direct_hints(plan: HostPlan, port: int) -> list[Endpoint]:
    """The direct addresses of the invite: ``--advertise`` first, then where the host listens."""
    hints: list[Endpoint] = []
    if plan.advertise:
        try:
            hints.append(parse_endpoint(plan.advertise))
        except ValueError:
            hints.append(Endpoint(plan.advertise, port))
    if plan.bind in (ANY_ADDRESS, "::", ""):
        hints += [Endpoint(a, port) for a in lan_addresses()]
    else:
        hints.append(Endpoint(plan.bind, port))
    return list(dict.fromkeys(hints))[:MAX_HINTS]


__all__ = ["MAX_HINTS", "direct_hints", "guess_address", "lan_addresses"]
