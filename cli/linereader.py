"""Line mode's input: each line read by a blocking ``ask`` in a thread of its own and handed to
trio through a channel (:class:`LineReader`), so a game that ends while it waits for a line
shuts down cleanly, and a line typed for a question given up on answers the next one."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

import trio


class LineReader:
    """Lines read one at a time by ``ask`` in a thread, handed to trio through a channel.

    A read given up on (the game moved on while the person was typing: an abort, a lost
    connection, an adjournment) is not lost: its thread goes on waiting, and the next read
    takes its line instead of starting a second reader on the same input.
    """

    def __init__(self, ask: Callable[[str], str]) -> None:
        self.ask = ask
        self._send, self._receive = trio.open_memory_channel[tuple[str, str]](8)
        self._busy = False

    async def read(self, prompt: str, prompt_again: Callable[[str], None]) -> str:
        """The next line (EOFError at the end of input)."""
        if self._receive.statistics().current_buffer_used == 0:
            if self._busy:
                prompt_again(prompt)  # the earlier question still waits for its line: this one takes it
            else:
                self._busy = True
                token = trio.lowlevel.current_trio_token()
                threading.Thread(target=self._run, args=(prompt, token), daemon=True).start()
        kind, line = await self._receive.receive()
        if kind == "eof":
            raise EOFError
        return line

    def _run(self, prompt: str, token: trio.lowlevel.TrioToken) -> None:
        try:
            item = ("line", self.ask(prompt))
        except EOFError:
            item = ("eof", "")
        except Exception:  # the input is gone (closed, not a text stream): as the end of input
            item = ("eof", "")

        def deliver() -> None:
            self._busy = False
            self._send.send_nowait(item)

        with contextlib.suppress(trio.RunFinishedError):
            trio.from_thread.run_sync(deliver, trio_token=token)


__all__ = ["LineReader"]
