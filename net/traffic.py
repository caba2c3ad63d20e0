"""The traffic of a seat's links, added up."""

from __future__ import annotations

from collections.abc import Iterable

from .link import LinkStats


def total(stats: Iterable[LinkStats]) -> LinkStats:
    """What ``stats`` (the links a seat had, one after another) sent and received, added up."""
    into = LinkStats()
    for x in stats:
        for tag, n in x.sent.items():
            into.sent[tag] = into.sent.get(tag, 0) + n
        for tag, n in x.received.items():
            into.received[tag] = into.received.get(tag, 0) + n
        into.bytes_sent += x.bytes_sent
        into.bytes_received += x.bytes_received
        into.tcp_sent += x.tcp_sent
        into.tcp_received += x.tcp_received
    return into


__all__ = ["total"]
