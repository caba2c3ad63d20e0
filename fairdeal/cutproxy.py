"""A TCP proxy for tests and benchmarks of a game that survives drops: it forwards
connections to a target on loopback and cuts them on demand.

``CutProxy`` runs in trio (``nursery.start(proxy.run)``). ``cut()`` closes every
connection it carries at once (both sides see the connection end, as when a Wi-Fi link
goes); ``hold(True)`` makes it close new connections as they come (a network that is
down), ``hold(False)`` lets them through again.
"""

from __future__ import annotations

import trio


class CutProxy:
    """Listens on 127.0.0.1 (``port`` once running) and forwards every connection to ``target``."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = 0
        self.connections = 0
        self.cuts = 0
        self._scopes: set[trio.CancelScope] = set()
        self._down = False

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        task_status.started()
        await trio.serve_listeners(self._handle, listeners)

    def cut(self) -> int:
        """Close every connection the proxy carries now; how many were cut."""
        n = len(self._scopes)
        for scope in list(self._scopes):
            scope.cancel()
        self.cuts += 1
        return n

    def hold(self, down: bool) -> None:
        """While down, new connections are closed at once (and the ones open now are cut)."""
        self._down = down
        if down:
            self.cut()

    async def _handle(self, client: trio.SocketStream) -> None:
        if self._down:
            await trio.aclose_forcefully(client)
            return
        try:
            server = await trio.open_tcp_stream(*self.target)
        except OSError:
            await trio.aclose_forcefully(client)
            return
        self.connections += 1
        with trio.CancelScope() as scope:
            self._scopes.add(scope)
            try:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(self._pipe, client, server, nursery.cancel_scope)
                    nursery.start_soon(self._pipe, server, client, nursery.cancel_scope)
            finally:
                self._scopes.discard(scope)
        await trio.aclose_forcefully(client)
        await trio.aclose_forcefully(server)

    @staticmethod
    async def _pipe(src: trio.SocketStream, dst: trio.SocketStream, scope: trio.CancelScope) -> None:
        try:
            while data := await src.receive_some(65536):
                await dst.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass
        scope.cancel()
