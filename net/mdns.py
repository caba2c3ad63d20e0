"""Games on the local network: announce a hosted game and find the ones announced (mDNS / DNS-SD).

A host announces one service of type ``_fairdeal._tcp.local.`` per game with the
``zeroconf`` package: its SRV and A records give the host's LAN addresses and port, and
its TXT record holds (``docs/protocol.md`` 2.4)::

    v=1  game=ecarte  host=NAME  fp=fd1-xxxx-xxxx-xxxx-xxxx  seats=TAKEN/TOTAL  code=fd1:...

``code`` is the game's invite code, so anyone on the network may take a free seat; a
``--private`` host announces nothing. The announcement follows the lobby (``seats``) and
is withdrawn when the table is full or the host stops.

A record is only a hint, and it can lie: :func:`parse_record` refuses one that is
malformed, too large, or whose ``fp`` is not the fingerprint in its own code; a joiner
checks the host's identity against that fingerprint in the handshake, wherever the
announced addresses lead. ``zeroconf`` runs its own threads: this module hands their
results to trio and never blocks the trio thread.
"""

from __future__ import annotations

import contextlib
import ipaddress
import math
import re
import secrets
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import trio

from fairdeal.core.errors import FairdealError

from . import wire
from .invite import Endpoint, Invite, InviteError, decode_invite
from .reasons import os_words

SERVICE: Final = "_fairdeal._tcp.local."
RECORD_VERSION: Final = "1"
MAX_RECORD: Final = 1024
"""Largest TXT record read, in bytes (a real one is about 200)."""
MAX_KEYS: Final = 16
MAX_ADDRESSES: Final = 8
RESOLVE_MS: Final = 1500
CLOSE_LIMIT: Final = 5.0
_GAME = re.compile(r"[a-z][a-z0-9-]{0,31}")
_FINGERPRINT = re.compile(r"fd1-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}")
_SEATS = re.compile(r"([0-9]{1,2})/([0-9]{1,2})")  # ASCII digits only (\d matches every script's)
_KEYS: Final = frozenset({"v", "game", "host", "fp", "seats", "code"})


class LanRecordError(FairdealError):
    """An announcement that cannot be used: malformed, too large, or inconsistent."""


@dataclass(frozen=True)
class Announcement:
    """What a host says about its game on the local network."""

    game: str
    host_name: str
    fingerprint: str
    taken: int
    seats: int
    code: str

    def properties(self) -> dict[str, str]:
        return {
            "v": RECORD_VERSION,
            "game": self.game,
            "host": self.host_name,
            "fp": self.fingerprint,
            "seats": f"{self.taken}/{self.seats}",
            "code": self.code,
        }


@dataclass(frozen=True)
class LanGame:
    """A game found on the local network (checked by :func:`parse_record`)."""

    instance: str
    game: str
    host_name: str
    fingerprint: str
    taken: int
    seats: int
    invite: Invite
    addresses: tuple[Endpoint, ...] = field(default=())

    @property
    def free(self) -> int:
        return self.seats - self.taken

    def json(self) -> dict[str, Any]:
        """The game as ``fairdeal lan --json`` prints it."""
        return {
            "game": self.game,
            "host": self.host_name,
            "fingerprint": self.fingerprint,
            "seats_taken": self.taken,
            "seats": self.seats,
            "addresses": [str(a) for a in self.addresses],
            "code": self.invite.encode(),
        }


def _text(value: bytes | None, key: str) -> str:
    if value is None:
        raise LanRecordError(f"{key} has no value")
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        raise LanRecordError(f"{key} is not UTF-8 text") from None


def parse_record(
    instance: str, properties: Mapping[bytes, bytes | None], addresses: Sequence[str], port: int | None
) -> LanGame:
    """Check an announcement and turn it into a :class:`LanGame`; LanRecordError says what is wrong."""
    size = sum(len(k) + len(v or b"") for k, v in properties.items())
    if size > MAX_RECORD or len(properties) > MAX_KEYS:
        raise LanRecordError(f"the record is too large ({size} bytes, {len(properties)} keys)")
    fields: dict[str, str] = {}
    for k, v in properties.items():
        key = k.decode("ascii", "replace")
        if key in _KEYS:
            fields[key] = _text(v, key)
    missing = sorted(_KEYS - set(fields))
    if missing:
        raise LanRecordError(f"the record lacks {', '.join(missing)}")
    if fields["v"] != RECORD_VERSION:
        raise LanRecordError(f"the record is of another version ({wire.clean_text(fields['v'], 8)})")
    game, host, fp = fields["game"], fields["host"], fields["fp"]
    if not _GAME.fullmatch(game):
        raise LanRecordError("the game name is not valid")
    if not wire.valid_name(host):
        raise LanRecordError("the host name is not valid")
    if not _FINGERPRINT.fullmatch(fp):
        raise LanRecordError("the fingerprint is not valid")
    m = _SEATS.fullmatch(fields["seats"])
    if m is None:
        raise LanRecordError("seats is not TAKEN/TOTAL")
    taken, seats = int(m.group(1)), int(m.group(2))
    if not (2 <= seats <= 10 and 1 <= taken <= seats):
        raise LanRecordError(f"{taken} of {seats} seats taken is impossible")
    try:
        invite = decode_invite(fields["code"])
    except InviteError as exc:
        raise LanRecordError(f"its code is not valid ({exc})") from None
    if invite.fingerprint != fp:
        raise LanRecordError("its fingerprint is not the one in its own code")
    return LanGame(
        wire.clean_text(instance, 63), game, host, fp, taken, seats, invite, _endpoints(addresses, port)
    )


def _endpoints(addresses: Sequence[str], port: int | None) -> tuple[Endpoint, ...]:
    if port is None or not 1 <= port <= 65535:
        return ()
    out: list[Endpoint] = []
    for a in addresses:
        try:
            ip = ipaddress.ip_address(a)
        except ValueError:
            continue
        if ip.is_multicast or ip.is_unspecified or (ip.version == 6 and ip.is_link_local):
            continue  # a link-local IPv6 address needs a scope the record does not give
        e = Endpoint(str(ip), port)
        if e not in out:
            out.append(e)
    return tuple(out[:MAX_ADDRESSES])


def _zeroconf(interfaces: Sequence[str] | None) -> Any:
    from zeroconf import InterfaceChoice, IPVersion, Zeroconf

    chosen: Any = list(interfaces) if interfaces else InterfaceChoice.All
    return Zeroconf(interfaces=chosen, ip_version=IPVersion.V4Only)


def _instance_name(a: Announcement) -> str:
    base = f"{a.host_name} - {a.game} {a.fingerprint[4:8]}{secrets.token_hex(2)}"
    base = base.replace(".", " ")
    while len(base.encode("utf-8")) > 63:
        base = base[:-1]
    return base


# -- announcing ------------------------------------------------------------------------------------
class LanAnnouncer:
    """Announces a game until cancelled; :meth:`update` changes the seats shown.

    Run :meth:`run` in a nursery (``await nursery.start(announcer.run)``); cancelling it
    withdraws the announcement. ``on_error`` hears once if announcing fails (the game
    goes on without it).
    """

    def __init__(
        self,
        announcement: Announcement,
        addresses: Sequence[str],
        port: int,
        *,
        interfaces: Sequence[str] | None = None,
        on_error: Callable[[str], None] | None = None,
        on_announced: Callable[[str], None] | None = None,
    ) -> None:
        self.announcement = announcement
        self.addresses = [a for a in addresses if _is_ipv4(a)] or ["127.0.0.1"]
        self.port = port
        self.interfaces = interfaces
        self.on_error = on_error
        self.on_announced = on_announced
        self._updates_in, self._updates_out = trio.open_memory_channel[Announcement](math.inf)

    def update(self, taken: int) -> None:
        """Show ``taken`` seats taken (the host's included)."""
        a = self.announcement
        self.announcement = Announcement(a.game, a.host_name, a.fingerprint, taken, a.seats, a.code)
        self._updates_in.send_nowait(self.announcement)

    def _info(self, name: str, announcement: Announcement) -> Any:
        from zeroconf import ServiceInfo

        return ServiceInfo(
            SERVICE,
            f"{name}.{SERVICE}",
            addresses=[socket.inet_aton(a) for a in self.addresses],
            port=self.port,
            properties=announcement.properties(),
            server=f"fairdeal-{secrets.token_hex(4)}.local.",
        )

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Announce, follow the updates, withdraw when cancelled; never raises for the network's sake."""
        task_status.started()
        zc: Any = None
        info: Any = None
        try:
            name = _instance_name(self.announcement)
            info = self._info(name, self.announcement)
            zc = await trio.to_thread.run_sync(_zeroconf, self.interfaces, abandon_on_cancel=True)
            await trio.to_thread.run_sync(
                lambda: zc.register_service(info, allow_name_change=True), abandon_on_cancel=True
            )
            if self.on_announced is not None:
                self.on_announced(info.name.removesuffix("." + SERVICE))
            async for announcement in self._updates_out:
                info = self._info(info.name.removesuffix("." + SERVICE), announcement)
                await trio.to_thread.run_sync(zc.update_service, info, abandon_on_cancel=True)
        except Exception as exc:  # mDNS is a convenience: its failure must not stop the game
            if self.on_error is not None:
                self.on_error(_why(exc))
        finally:
            if zc is not None:
                with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_LIMIT):
                    await trio.to_thread.run_sync(_withdraw, zc, info, abandon_on_cancel=True)


def _is_ipv4(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).version == 4
    except ValueError:
        return False


def _withdraw(zc: Any, info: Any) -> None:
    try:
        if info is not None:
            zc.unregister_service(info)
    except Exception:  # closing below is what matters
        pass
    finally:
        zc.close()


# -- browsing --------------------------------------------------------------------------------------
async def browse(
    seconds: float,
    *,
    interfaces: Sequence[str] | None = None,
    on_change: Callable[[list[LanGame]], None] | None = None,
    on_bad: Callable[[str, str], None] | None = None,
) -> list[LanGame]:
    """The games announced on the local network, gathered for ``seconds`` seconds.

    ``on_change`` gets the list each time it changes; ``on_bad`` gets (instance, reason)
    for an announcement that cannot be used (once per instance and reason). Raises
    FairdealError if mDNS cannot be used at all here.
    """
    from zeroconf import ServiceBrowser, ServiceStateChange

    token = trio.lowlevel.current_trio_token()
    send, receive = trio.open_memory_channel[tuple[str, bool]](math.inf)
    games: dict[str, LanGame] = {}
    told: set[tuple[str, str]] = set()

    def handler(zeroconf: Any, service_type: str, name: str, state_change: Any) -> None:
        removed = state_change is ServiceStateChange.Removed
        with contextlib.suppress(trio.RunFinishedError, trio.ClosedResourceError):
            token.run_sync_soon(send.send_nowait, (name, removed))

    try:
        zc = await trio.to_thread.run_sync(_zeroconf, interfaces)
    except Exception as exc:
        raise FairdealError(f"cannot look for games on the local network ({_why(exc)})") from None

    def listing() -> list[LanGame]:
        return sorted(games.values(), key=lambda g: (g.game, g.host_name, g.instance))

    async def resolve(name: str) -> None:
        info = await trio.to_thread.run_sync(
            lambda: zc.get_service_info(SERVICE, name, RESOLVE_MS), abandon_on_cancel=True
        )
        instance = name.removesuffix("." + SERVICE)
        if info is None:
            return
        try:
            game = parse_record(instance, dict(info.properties), info.parsed_addresses(), info.port)
        except LanRecordError as exc:
            games.pop(name, None)
            key = (instance, exc.args[0] if exc.args else str(exc))
            if on_bad is not None and key not in told:
                told.add(key)
                on_bad(wire.clean_text(instance, 63), str(exc))
            return
        if games.get(name) != game:
            games[name] = game
            if on_change is not None:
                on_change(listing())

    browser: Any = None
    try:
        browser = await trio.to_thread.run_sync(lambda: ServiceBrowser(zc, SERVICE, handlers=[handler]))
        with trio.move_on_after(seconds):
            async with trio.open_nursery() as nursery:
                async for name, removed in receive:
                    if removed:
                        if games.pop(name, None) is not None and on_change is not None:
                            on_change(listing())
                    else:
                        nursery.start_soon(resolve, name)
    finally:
        with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_LIMIT):
            await trio.to_thread.run_sync(_close_browser, zc, browser, abandon_on_cancel=True)
    return listing()


def _close_browser(zc: Any, browser: Any) -> None:
    try:
        if browser is not None:
            browser.cancel()
    finally:
        zc.close()


def _why(exc: BaseException) -> str:
    """What went wrong with the local network, in words (an OS reason, else the message)."""
    words = os_words(exc) if isinstance(exc, OSError) else None
    return words or str(exc) or "the multicast service failed"


__all__ = [
    "SERVICE",
    "Announcement",
    "LanAnnouncer",
    "LanGame",
    "LanRecordError",
    "browse",
    "parse_record",
]
