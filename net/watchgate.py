"""Watchers' catch-ups, bounded per identity, per address and in all.

A watcher that comes in is sent the log it lacks: for a new watcher the whole log, megabytes in
a long game, for a few bytes of its own. Anyone with the code may watch, and may come in again
and again, each time with a new identity if it likes. :class:`WatchGate` lets a catch-up start
only while three budgets of bytes allow it: its identity's, its address's (an IPv6 address
counts by its /64; a connection through the relay, which hides where it comes from, has none)
and the host's in all. Each budget is a bucket that fills at a steady rate up to its
size; a catch-up starts only while every bucket it draws on holds some bytes, and takes its whole
size from each, below zero if need be — so a log larger than a budget is still sent, and then
nothing more until the bucket is above zero again. A catch-up of nothing always starts.

What the host sends watchers in catch-ups is so at most ``total.size`` plus ``total.per_minute``
a minute, plus one log; an honest watcher needs one whole log, then what it missed while its
link was down.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, TypeVar

import trio

MIB: Final = 1 << 20
K = TypeVar("K", bytes, str)


@dataclass(frozen=True, slots=True)
class Budget:
    """A bucket of ``size`` bytes that fills at ``per_minute`` bytes a minute."""

    size: float
    per_minute: float

    @property
    def rate(self) -> float:
        """Bytes a second."""
        return self.per_minute / 60


@dataclass(frozen=True, slots=True)
class CatchUpLimits:
    """The budgets of watchers' catch-ups, and how many identities and addresses are remembered (the
    fullest, those that caught up least lately, are forgotten first)."""

    identity: Budget = field(default_factory=lambda: Budget(8 * MIB, 4 * MIB))
    address: Budget = field(default_factory=lambda: Budget(16 * MIB, 8 * MIB))
    total: Budget = field(default_factory=lambda: Budget(32 * MIB, 16 * MIB))
    remembered: int = 4096


class _Bucket:
    __slots__ = ("at", "level")

    def __init__(self, level: float, at: float) -> None:
        self.level, self.at = level, at

    def fill(self, budget: Budget, now: float) -> float:
        self.level = min(budget.size, self.level + (now - self.at) * budget.rate)
        self.at = now
        return self.level


def address_key(address: str) -> str | None:
    """Whose budget a connection from ``address`` (``host:port``, ``[v6]:port``, ``relay ...``) draws
    on: its host, an IPv6 host's /64; none for a connection through the relay, which hides where
    it comes from (one budget for all of them would be every honest watcher's there)."""
    if address.startswith("relay "):
        return None
    host = address[1 : address.find("]")] if address.startswith("[") else address.rpartition(":")[0]
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class WatchGate:
    """The host's budgets of watchers' catch-ups (see the module)."""

    def __init__(
        self, limits: CatchUpLimits | None = None, clock: Callable[[], float] = trio.current_time
    ) -> None:
        self.limits = limits or CatchUpLimits()
        self.clock = clock
        self._total = _Bucket(self.limits.total.size, clock())
        self._identities: dict[bytes, _Bucket] = {}
        self._addresses: dict[str, _Bucket] = {}

    def admit(self, identity: bytes, address: str, cost: int) -> float | None:
        """Take a catch-up of ``cost`` bytes for ``identity`` from ``address`` from every budget it
        draws on: None when it may start, else the seconds until it may."""
        if cost <= 0:
            return None
        now, lim = self.clock(), self.limits
        drawn = [
            (self._total, lim.total),
            (self._bucket(self._identities, identity, lim.identity, now), lim.identity),
        ]
        where = address_key(address)
        if where is not None:
            drawn.append((self._bucket(self._addresses, where, lim.address, now), lim.address))
        levels = [bucket.fill(budget, now) for bucket, budget in drawn]
        if min(levels) <= 0:
            return max(-level / budget.rate for level, (_, budget) in zip(levels, drawn, strict=True))
        for bucket, _ in drawn:
            bucket.level -= cost
        self._forget(self._identities, lim.identity, now)
        self._forget(self._addresses, lim.address, now)
        return None

    def _bucket(self, buckets: dict[K, _Bucket], key: K, budget: Budget, now: float) -> _Bucket:
        bucket = buckets.pop(key, None) or _Bucket(budget.size, now)
        buckets[key] = bucket  # the last one drawn on comes last
        return bucket

    def _forget(self, buckets: dict[K, _Bucket], budget: Budget, now: float) -> None:
        """Past ``remembered``, forget full buckets (they hold nothing a new one would not), then the
        ones drawn on longest ago."""
        if len(buckets) <= self.limits.remembered:
            return
        for key in [k for k, b in buckets.items() if b.fill(budget, now) >= budget.size]:
            del buckets[key]
        while len(buckets) > self.limits.remembered:
            del buckets[next(iter(buckets))]


__all__ = ["MIB", "Budget", "CatchUpLimits", "WatchGate", "address_key"]
