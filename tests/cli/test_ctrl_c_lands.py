"""Ctrl-C in a network seat is raised in the seat's own task, at a checkpoint: a link's reader
or writer busy at that moment finishes its work (and so can still say ``bye``)."""

from __future__ import annotations

import os
import signal
import time

import pytest
import trio

from fairdeal.cli.netseat import run_seat


def test_ctrl_c_never_lands_inside_another_task_of_the_seat() -> None:
    finished: list[str] = []

    async def busy() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        end = time.monotonic() + 0.3
        while time.monotonic() < end:  # pure Python, no checkpoint: where an unrestricted Ctrl-C lands
            pass
        finished.append("busy")
        await trio.sleep(0)

    async def seat() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(busy)
            await trio.sleep(5)  # the seat's own task waits, as a host waits for its guests

    said: list[str] = []
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal
    try:
        with pytest.raises(SystemExit) as stopped:
            run_seat(said.append, seat)
    finally:
        signal.signal(signal.SIGINT, before)
    assert stopped.value.code == 130 and said and said[0].startswith("Interrupted: you left the game")
    assert finished == ["busy"]
