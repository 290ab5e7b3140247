"""Where the server's agents think: a fixed number of workers, each running one search at a
time, any of which can be stopped while it runs.

:class:`~lifearena.web.agent_queue.AgentQueue` decides which search runs next and on which
worker (its *slot*); a runner here runs it there and stops it on request:

* :class:`ProcessRunner` (the server): one worker process per slot, started (and warmed up:
  :func:`lifearena.web.warmup.warm_up`) before the server answers. A search is stopped by a
  signal (``SIGUSR1``) whose handler raises :class:`SearchCancelled` inside it, so the worker
  is free again within a few milliseconds and keeps its warm engine; a worker that has not
  answered :data:`STOP_GRACE` seconds later (stuck in compiled code) is killed and replaced
  by a fresh one. A worker dies with the server, even by SIGKILL
  (:func:`~lifearena.arena.executor.exit_with_parent`), and one that dies by itself is
  replaced too.
* :class:`ThreadRunner` (tests): one thread per slot; a search is stopped by raising
  :class:`SearchCancelled` in its thread (``PyThreadState_SetAsyncExc``, which CPython
  delivers at the thread's next bytecode, as the signal does in a process).

Either way a stopped search answers :class:`SearchCancelled`, and a search answers at most
one stop.

>>> import asyncio
>>> async def demo() -> int:
...     runner = ThreadRunner(1)
...     try:
...         return await runner.submit(0, sum, ([1, 2, 3],))
...     finally:
...         runner.close()
>>> asyncio.run(demo())
6
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import pickle
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

from lifearena.arena.executor import exit_with_parent

log = logging.getLogger("lifearena.web.agents")

STOP_GRACE = 2.0
"""Seconds a worker process has to answer a stop before it is killed and replaced."""
STOP_SIGNAL = signal.SIGUSR1
"""The signal that stops a worker process's search."""


class SearchCancelled(BaseException):  # a stop, as asyncio's CancelledError is
    """A search stopped (or dropped before it started) because its game no longer waits for
    it: the game ended, was resigned or cancelled, or a move was taken back. Not an
    :class:`Exception`: raised inside a search, no ``except Exception`` there swallows it."""


class WorkerDied(RuntimeError):
    """A worker process ended in the middle of a search it was not asked to stop."""


class Runner(Protocol):
    """What :class:`~lifearena.web.agent_queue.AgentQueue` needs of its workers."""

    slots: int

    def submit(self, slot: int, fn: Callable[..., Any], args: tuple[Any, ...]
               ) -> asyncio.Future[Any]:
        """Run ``fn(*args)`` on worker ``slot`` (free: one search a slot at a time)."""
        ...

    def interrupt(self, slot: int) -> None:
        """Stop the search running on ``slot`` (it then answers :class:`SearchCancelled`)."""
        ...

    def close(self) -> None:
        """End every worker now, searching or not."""
        ...


# -- threads (tests) -----------------------------------------------------------------------------


def _raise_in_thread(ident: int, error: type[BaseException] | None) -> None:
    """Raise ``error`` in thread ``ident`` at its next bytecode (``None``: forget a pending
    one)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(ident), ctypes.py_object(error) if error is not None else None)


class ThreadRunner:
    """Searches in threads of this process, one a slot (see the module)."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._pool = ThreadPoolExecutor(slots, thread_name_prefix="agent")
        self._lock = threading.Lock()
        self._armed: dict[int, int] = {}  # slot -> the thread whose search may be stopped

    def submit(self, slot: int, fn: Callable[..., Any], args: tuple[Any, ...]
               ) -> asyncio.Future[Any]:
        return asyncio.get_running_loop().run_in_executor(self._pool, self._call, slot, fn,
                                                          args)

    def _call(self, slot: int, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        ident = threading.get_ident()
        # a stop raises in this thread once at most; wherever it lands in here, it leaves
        # through the outer handler, and nothing of it is left pending for the pool's thread
        try:
            with self._lock:
                self._armed[slot] = ident
            try:
                return fn(*args)
            finally:
                self._disarm(slot, ident)
        except SearchCancelled:
            self._disarm(slot, ident)
            raise

    def _disarm(self, slot: int, ident: int) -> None:
        with self._lock:
            if self._armed.get(slot) == ident:
                del self._armed[slot]
            _raise_in_thread(ident, None)

    def interrupt(self, slot: int) -> None:
        with self._lock:
            ident = self._armed.pop(slot, None)
            if ident is not None:
                _raise_in_thread(ident, SearchCancelled)

    def close(self) -> None:
        for slot in list(self._armed):
            self.interrupt(slot)
        self._pool.shutdown(wait=False, cancel_futures=True)


# -- processes (the server) ----------------------------------------------------------------------


_searching = False
"""In a worker process: whether a search runs now (a stop that comes later is ignored)."""


def _on_stop(signum: int, frame: object) -> None:
    global _searching
    if _searching:
        _searching = False  # one stop, one exception
        raise SearchCancelled("stopped by the server")


def _search(payload: bytes) -> tuple[str, Any]:
    """In a worker process: ``fn(*args)`` of the pickled ``(fn, args)``, as ``("done",
    value)``, ``("cancelled", None)`` or ``("failed", error)``. Unpickled once a stop can land
    (unpickling may import modules, which can take a while)."""
    global _searching
    try:
        try:
            _searching = True
            fn, args = pickle.loads(payload)
            value = fn(*args)
        finally:
            _searching = False
        return "done", value
    except SearchCancelled:
        return "cancelled", None
    except Exception as error:
        return "failed", error


def serve_worker(conn: Connection, parent: int, warm: Callable[[], None] | None) -> None:
    """A worker process's life: die with ``parent``, warm up, say ready, then run the
    searches ``conn`` brings, one at a time, until it closes."""
    exit_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C is the server's to handle
    problem = None
    if warm is not None:
        try:
            warm()
        except Exception as error:  # the first search will say what is wrong
            problem = f"{type(error).__name__}: {error}"
    signal.signal(STOP_SIGNAL, _on_stop)
    conn.send(("ready", problem))
    while True:
        try:
            job, payload = conn.recv()
        except (EOFError, OSError):
            return
        answer = _search(payload)
        try:
            conn.send((job, answer))
        except (EOFError, OSError):
            return
        except Exception:  # an answer that does not pickle: said in words
            conn.send((job, ("failed", RuntimeError(f"{answer[1]!r}"[:500]))))


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    ready: asyncio.Future[None]
    job: int | None = None
    stopped: int | None = None
    """The job asked to stop (one stop a job)."""
    timers: list[asyncio.TimerHandle] = field(default_factory=list)


class ProcessRunner:
    """Searches in worker processes, one a slot (see the module). ``warm``: what each worker
    runs before it says it is ready (a module-level function)."""

    def __init__(self, slots: int, warm: Callable[[], None] | None = None, *,
                 grace: float = STOP_GRACE) -> None:
        self.slots = slots
        self.grace = grace
        self._warm = warm
        self._workers: list[_Worker] = []
        self._jobs = 0
        self._closed = False
        # one thread a slot reads its worker's answers (a slot waits on one thing at a time)
        self._readers = ThreadPoolExecutor(slots, thread_name_prefix="agent-reader")

    async def start(self) -> None:
        """Start every worker; return once all are warm (or failed to warm, which is
        logged)."""
        self._workers = [self._spawn() for _ in range(self.slots)]
        await asyncio.gather(*(w.ready for w in self._workers))

    def pids(self) -> list[int]:
        """The worker processes' ids, slot by slot."""
        return [w.process.pid or 0 for w in self._workers]

    def _spawn(self) -> _Worker:
        context = get_context("spawn")
        mine, theirs = context.Pipe()
        process = context.Process(target=serve_worker, args=(theirs, os.getpid(), self._warm),
                                  name="lifearena-agent", daemon=True)
        process.start()
        theirs.close()
        loop = asyncio.get_running_loop()
        worker = _Worker(process, mine, loop.create_future())
        task = loop.create_task(self._await_ready(worker))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return worker

    async def _await_ready(self, worker: _Worker) -> None:
        loop = asyncio.get_running_loop()
        try:
            _, problem = await loop.run_in_executor(self._readers, worker.conn.recv)
            if problem:
                log.warning("an agent worker's warm-up failed: %s", problem)
            worker.ready.set_result(None)
        except Exception as error:  # whatever it was, the slot must not wait for ever
            if not worker.ready.done():
                worker.ready.set_exception(WorkerDied(f"an agent worker did not start: {error}"))

    def submit(self, slot: int, fn: Callable[..., Any], args: tuple[Any, ...]
               ) -> asyncio.Future[Any]:
        return asyncio.ensure_future(self._run(slot, fn, args))

    async def _run(self, slot: int, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        worker = self._workers[slot]
        try:
            await worker.ready  # a replacement may still be warming up
        except WorkerDied:
            self._replace(slot, worker)  # the next search gets a fresh worker
            raise
        self._jobs += 1
        job = worker.job = self._jobs
        loop = asyncio.get_running_loop()
        try:
            worker.conn.send((job, pickle.dumps((fn, args))))
            got, (kind, value) = await loop.run_in_executor(self._readers, worker.conn.recv)
        except (EOFError, OSError, BrokenPipeError):
            stopped = worker.stopped == job
            self._replace(slot, worker)
            if stopped:
                raise SearchCancelled("stopped by the server (its worker was replaced)"
                                      ) from None
            raise WorkerDied("the agent's worker process ended during its search; it was "
                             "replaced") from None
        finally:
            worker.job = None
            for timer in worker.timers:
                timer.cancel()
            worker.timers.clear()
        assert got == job, (got, job)  # one search at a time on a worker
        if kind == "done":
            return value
        if kind == "cancelled":
            raise SearchCancelled("stopped by the server")
        raise value

    def interrupt(self, slot: int) -> None:
        worker = self._workers[slot]
        job = worker.job
        if job is None or worker.stopped == job or worker.process.pid is None:
            return
        worker.stopped = job
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker.process.pid, STOP_SIGNAL)
        worker.timers.append(asyncio.get_running_loop().call_later(
            self.grace, self._kill_if_stuck, worker, job))

    def _kill_if_stuck(self, worker: _Worker, job: int) -> None:
        if worker.job == job:
            log.warning("an agent worker did not stop its search within %.1f s; replacing it",
                        self.grace)
            worker.process.kill()  # its reader sees the pipe close: _run replaces it

    def _replace(self, slot: int, worker: _Worker) -> None:
        with contextlib.suppress(Exception):
            worker.process.kill()
            worker.conn.close()
        worker.process.join(timeout=1)  # killed: gone at once (this runs on the event loop)
        if not self._closed and self._workers[slot] is worker:
            self._workers[slot] = self._spawn()

    def close(self) -> None:
        """End every worker now (the server stops) and wait until they are gone."""
        self._closed = True
        for worker in self._workers:
            with contextlib.suppress(Exception):
                worker.process.terminate()
        for worker in self._workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(timeout=5)
            with contextlib.suppress(Exception):
                worker.conn.close()
        self._readers.shutdown(wait=False, cancel_futures=True)


__all__ = ["STOP_GRACE", "ProcessRunner", "Runner", "SearchCancelled", "ThreadRunner",
           "WorkerDied", "serve_worker"]
