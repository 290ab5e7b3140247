"""Slow work of the server (replays, positions, palace tiles, tournament reports), run off
the event loop, with a bound per client.

Anything that can take more than a millisecond runs in a pool of worker processes (threads
in tests), so the event loop keeps answering moves and pushing views while it runs: threads
alone would not do, since a replay in pure Python holds the interpreter lock. A client
address has at most :attr:`HeavyWork.per_client` requests running and
:attr:`HeavyWork.queue` waiting; one more is refused with :class:`TooBusy` (HTTP 429) rather
than queued behind everyone else's work. The table of clients holds only those with work in
flight, so it never grows past what is running.

>>> import asyncio
>>> heavy = HeavyWork("thread", workers=1, per_client=1, queue=0)
>>> asyncio.run(heavy.run("10.0.0.1", sum, [1, 2, 3]))
6
>>> heavy.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, TypeVar

from lifearena.arena.executor import exit_with_parent
from lifearena.errors import LifeArenaError

T = TypeVar("T")

PER_CLIENT = 2
"""Slow requests of one client address that run at once."""
QUEUE = 16
"""Slow requests of one client address that may wait for a free slot."""


class TooBusy(LifeArenaError):
    """A client with more slow requests in flight than its bound (answered as 429)."""


@dataclass
class _Client:
    running: int = 0
    waiting: int = 0
    free: asyncio.Condition | None = None


class HeavyWork:
    """A pool for slow work and the per-client bounds in front of it.

    ``mode`` is ``"process"`` (the server) or ``"thread"`` (tests, and functions that
    cannot be pickled).
    """

    def __init__(self, mode: str = "process", workers: int = 2, per_client: int = PER_CLIENT,
                 queue: int = QUEUE) -> None:
        if mode not in ("process", "thread"):
            raise ValueError(f"mode {mode!r}; expected process or thread")
        self.mode = mode
        self.workers = workers
        self.per_client = per_client
        self.queue = queue
        self._pool: Executor | None = None
        self._clients: dict[str, _Client] = {}
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    @property
    def pool(self) -> Executor:
        """The executor, started on first use (a process pool spawns its workers then)."""
        if self._pool is None:
            if self.mode == "thread":
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="heavy")
            else:
                self._pool = ProcessPoolExecutor(
                    self.workers, mp_context=get_context("spawn"),
                    initializer=start_worker, initargs=(os.getpid(),))
        return self._pool

    def in_flight(self, client: str) -> int:
        """Requests of ``client`` running or waiting now."""
        entry = self._clients.get(client)
        return 0 if entry is None else entry.running + entry.waiting

    def clients(self) -> int:
        """Client addresses with work in flight (the size of the table)."""
        return len(self._clients)

    async def run(self, client: str, fn: Callable[..., T], *args: Any,
                  ready: Callable[[], None] | None = None) -> T:
        """``fn(*args)`` in the pool, for ``client``; :class:`TooBusy` past its bounds.

        ``fn`` and its arguments must pickle (a module-level function) in process mode.
        ``ready``, when given, is called once a worker is free for this request, just before
        the work is handed to it: whatever it raises refuses the request then (a big
        answer's byte budget, spent while the request waited: :mod:`lifearena.web.answers`).
        """
        entry = self._clients.get(client)
        if entry is None:
            entry = self._clients[client] = _Client(free=asyncio.Condition())
        assert entry.free is not None
        if entry.running >= self.per_client and entry.waiting >= self.queue:
            raise TooBusy(f"{entry.running + entry.waiting} slow requests from this address are "
                          f"in flight; expected at most {self.per_client + self.queue}: wait "
                          "for them to finish")
        entry.waiting += 1
        try:
            async with entry.free:
                await entry.free.wait_for(lambda: entry.running < self.per_client)
                entry.running += 1
        finally:
            entry.waiting -= 1
        try:
            # a free worker first (the pool runs no more at once), so that ``ready`` sees
            # the moment the work really starts
            async with self._free_workers():
                if ready is not None:
                    ready()
                return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)
        finally:
            entry.running -= 1
            async with entry.free:
                entry.free.notify()
            if entry.running == 0 and entry.waiting == 0:
                self._clients.pop(client, None)

    def _free_workers(self) -> asyncio.Semaphore:
        """The pool's free workers, counted on the running loop (a test may run the same
        pool under two loops, one after the other)."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(self.workers))
        return self._slots[1]

    def close(self) -> None:
        """End the workers now (the server is going away), running or not."""
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None


def stop_pool(pool: Executor) -> None:
    """End a pool's workers now, working or not, and wait until they are gone.

    Waiting matters: ``uvicorn`` ends a server stopped by SIGTERM by raising SIGTERM again
    once the app has shut down, and a process ended that way runs no exit handlers, so
    workers left to end by themselves outlived the server.
    """
    if isinstance(pool, ProcessPoolExecutor):
        terminate = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
        if terminate is not None:
            terminate()
        else:
            # no public way before 3.14: the pool's own table of its worker processes
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                with contextlib.suppress(Exception):
                    process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


WORKER_NICENESS = 19
"""How much lower than the server's a slow-work worker's scheduling priority is, where the
system has no idle scheduling class: a replay must never take the CPU from the event loop
that answers moves."""


def start_worker(parent: int) -> None:
    """A slow-work worker's initializer: die with the server, and yield the CPU to it."""
    exit_with_parent(parent)
    yield_the_cpu()


def yield_the_cpu() -> None:
    """Run this process only when nothing else wants the CPU (Linux's ``SCHED_IDLE``: even a
    nice 10 process takes a tenth of a busy core from the server), or, where that class does
    not exist, at the lowest niceness.

    On a machine whose cores are all busy, a replay then waits, instead of every move of
    every game waiting a little for it.
    """
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # type: ignore[attr-defined]
    except (OSError, AttributeError):  # not Linux, or not allowed
        with contextlib.suppress(OSError, AttributeError):  # not every system can renice
            os.nice(WORKER_NICENESS)


def client_of(scope_client: tuple[str, int] | None) -> str:
    """The address a request's bounds are counted against (uvicorn sets it from the socket,
    or from ``X-Forwarded-For`` only for the proxies the operator named)."""
    return scope_client[0] if scope_client else "?"


__all__ = ["PER_CLIENT", "QUEUE", "HeavyWork", "TooBusy", "client_of", "stop_pool"]
