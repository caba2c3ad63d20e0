"""The cutting proxy the tests control (:mod:`fairdeal.cutproxy`), and ``ThreadedProxy``,
which runs one in a thread of its own for tests that drive real ``fairdeal`` processes."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import trio

from fairdeal.cutproxy import CutProxy

__all__ = ["CutProxy", "ThreadedProxy"]


class ThreadedProxy:
    """A :class:`CutProxy` in a thread of its own; ``cut``/``hold`` may be called from any thread."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.proxy = CutProxy(target)
        self._token: trio.lowlevel.TrioToken | None = None
        self._ready = threading.Event()
        self._stop: trio.Event | None = None
        self._thread = threading.Thread(target=trio.run, args=(self._main,), daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise AssertionError("the proxy did not start")

    async def _main(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        self._stop = trio.Event()
        async with trio.open_nursery() as nursery:
            await nursery.start(self.proxy.run)
            self._ready.set()
            await self._stop.wait()
            nursery.cancel_scope.cancel()

    @property
    def port(self) -> int:
        return self.proxy.port

    def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        assert self._token is not None
        return trio.from_thread.run_sync(fn, *args, trio_token=self._token)

    def cut(self) -> int:
        return int(self._call(self.proxy.cut))

    def hold(self, down: bool) -> None:
        self._call(self.proxy.hold, down)

    def close(self) -> None:
        if self._stop is not None and self._token is not None:
            self._call(self._stop.set)
        self._thread.join(10)
