"""The one executor every long-running command uses: independent tasks over all cores, serially,
or on a Dask cluster, with results yielded as they complete.

A task is a picklable callable and its arguments (``(fn, args)``); a task should carry its own
seed so that its result never depends on where or when it ran. :meth:`Executor.run` yields
``(index, result)`` pairs as tasks finish, so the caller stores each result at once and drives
a progress bar; :meth:`Executor.map` returns the results in task order.

* ``workers=1``: in this process, one task after another (no pickling; easiest to debug).
* ``workers=None`` (all cores) or ``N > 1``: a :class:`~concurrent.futures.ProcessPoolExecutor`.
* ``scheduler="tcp://host:8786"`` (or a ``distributed.Client``): a Dask cluster.

At most a few tasks per worker are in flight at a time, so millions of tasks do not sit in
memory at once. ``tasks=`` (how many tasks there will be, when known) caps the processes
started: 500 workers asked for 50 tasks start 50. A worker process exits when the process
that started it dies, even by SIGKILL, so a killed run leaves no worker waiting forever.

>>> with Executor(workers=1) as ex:
...     ex.map(pow, [(2, 10), (3, 3)])
[1024, 27]
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from lifearena.errors import BadParameterError
from lifearena.extras import require

Task = tuple[Callable[..., Any], Sequence[Any]]


def available_cores() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _noop() -> None:
    return None


_PR_SET_PDEATHSIG = 1


def exit_with_parent(parent: int) -> None:
    """Worker initializer: die when ``parent`` dies.

    On Linux the kernel sends SIGKILL (``prctl(PR_SET_PDEATHSIG)``); elsewhere, and as a
    backstop, a daemon thread polls the parent's id once a second.
    """
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="lifearena-parent-watch", daemon=True).start()


def check_scheduler(address: str) -> str:
    """``address`` if it reads as a Dask scheduler address; else a BadParameterError.

    >>> check_scheduler("tcp://10.0.0.1:8786")
    'tcp://10.0.0.1:8786'
    >>> check_scheduler("bogus")
    Traceback (most recent call last):
    ...
    lifearena.errors.BadParameterError: bad Dask scheduler address 'bogus' (missing port \
number in address 'bogus'); expected an address such as tcp://10.0.0.1:8786
    """
    require("cluster", "a Dask scheduler address")
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import backends

    try:
        scheme, location = parse_address(address)
        if scheme not in backends:
            raise ValueError(f"unknown scheme {scheme!r}")
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except ValueError as error:
        raise BadParameterError(f"bad Dask scheduler address {address!r} ({error}); expected "
                                "an address such as tcp://10.0.0.1:8786") from None
    return address


class Executor:
    """Runs independent tasks serially, over processes, or on a Dask cluster.

    Use it as a context manager (it starts the pool or connects to the scheduler on entry and
    shuts them down on exit). ``in_flight`` bounds the tasks submitted but not finished
    (default: 4 per worker).
    """

    def __init__(self, workers: int | None = None, *, scheduler: Any = None,
                 in_flight: int | None = None, mp_context: str | None = None,
                 tasks: int | None = None) -> None:
        if workers is not None and workers < 1:
            raise BadParameterError(f"workers={workers}; expected at least 1")
        if tasks is not None and tasks < 0:
            raise BadParameterError(f"tasks={tasks}; expected a count of at least 0")
        if isinstance(scheduler, str):
            check_scheduler(scheduler)
        self.scheduler = scheduler
        self.workers = workers if workers is not None else available_cores()
        if tasks is not None:
            self.workers = max(1, min(self.workers, tasks))  # never more processes than tasks
        self.in_flight = in_flight
        # fork starts workers fast and shares what the parent has imported (test games too);
        # workers are started on entry, before any progress-bar thread exists
        methods = multiprocessing.get_all_start_methods()
        self.mp_context = mp_context or ("fork" if "fork" in methods else "spawn")
        self._pool: ProcessPoolExecutor | None = None
        self._client: Any = None
        self._own_client = False

    @property
    def kind(self) -> str:
        """``"serial"``, ``"processes"`` or ``"dask"``."""
        if self.scheduler is not None:
            return "dask"
        return "serial" if self.workers == 1 else "processes"

    def describe(self) -> str:
        """A short description for progress lines (``"2 processes"``, ``"dask tcp://..."``)."""
        if self.kind == "dask":
            return f"dask {self.scheduler if isinstance(self.scheduler, str) else 'client'}"
        return "1 process (serial)" if self.kind == "serial" else f"{self.workers} processes"

    def __enter__(self) -> Executor:
        if self.kind == "dask":
            if isinstance(self.scheduler, str):
                require("cluster", "running on a Dask cluster")
                from distributed import Client

                try:
                    self._client = Client(self.scheduler, timeout="10s")
                except (OSError, TimeoutError, ValueError) as error:
                    raise BadParameterError(f"cannot reach the Dask scheduler "
                                            f"{self.scheduler!r}: {error}") from None
                self._own_client = True
            else:
                self._client = self.scheduler
            if self.in_flight is None:
                cores = sum(self._client.ncores().values()) or 1
                self.in_flight = 4 * cores
        elif self.kind == "processes":
            context = multiprocessing.get_context(self.mp_context)
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                             initializer=exit_with_parent,
                                             initargs=(os.getpid(),))
            for future in [self._pool.submit(_noop) for _ in range(self.workers)]:
                future.result()
        if self.in_flight is None:
            self.in_flight = 4 * self.workers
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        if self._pool is not None:
            if exc_type is not None:
                # Ctrl-C or an error: the tasks still running are not waited for (a long
                # game could hold the exit for minutes; a resumed run plays it again), their
                # workers are stopped now. The pool keeps no public handle on its processes.
                for process in list((getattr(self._pool, "_processes", None) or {}).values()):
                    process.terminate()
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._client is not None and self._own_client:
            self._client.close()
        self._client = None

    def run(self, tasks: Iterable[Task]) -> Iterator[tuple[int, Any]]:
        """Yield ``(index, result)`` for each task as it completes (any order).

        An exception raised by a task is raised here (after the pool stops taking new tasks).
        """
        if self.kind == "serial":
            for index, (fn, args) in enumerate(tasks):
                yield index, fn(*args)
            return
        if self._pool is None and self._client is None:
            raise RuntimeError("use the Executor in a `with` block")
        if self.kind == "dask":
            yield from self._run_dask(tasks)
        else:
            yield from self._run_pool(tasks)

    def _run_pool(self, tasks: Iterable[Task]) -> Iterator[tuple[int, Any]]:
        assert self._pool is not None
        pending: dict[Future[Any], int] = {}
        source = enumerate(tasks)
        exhausted = False
        while True:
            while not exhausted and len(pending) < (self.in_flight or 1):
                item = next(source, None)
                if item is None:
                    exhausted = True
                    break
                index, (fn, args) = item
                pending[self._pool.submit(fn, *args)] = index
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                index = pending.pop(future)
                yield index, future.result()

    def _run_dask(self, tasks: Iterable[Task]) -> Iterator[tuple[int, Any]]:
        from distributed import as_completed

        client = self._client
        source = enumerate(tasks)
        indices: dict[str, int] = {}
        queue = as_completed()
        for _ in range(self.in_flight or 1):
            item = next(source, None)
            if item is None:
                break
            index, (fn, args) = item
            future = client.submit(fn, *args, pure=False)
            indices[future.key] = index
            queue.add(future)
        for future in queue:
            index = indices.pop(future.key)
            result = future.result()
            future.release()
            item = next(source, None)
            if item is not None:
                next_index, (fn, args) = item
                nxt = client.submit(fn, *args, pure=False)
                indices[nxt.key] = next_index
                queue.add(nxt)
            yield index, result

    def map(self, fn: Callable[..., Any], args_list: Iterable[Sequence[Any]]) -> list[Any]:
        """``[fn(*args) for args in args_list]``, computed by this executor, in order."""
        results: dict[int, Any] = dict(self.run((fn, args) for args in args_list))
        return [results[i] for i in range(len(results))]


def run_tasks(tasks: Iterable[Task], *, workers: int | None = None,
              scheduler: Any = None) -> Iterator[tuple[int, Any]]:
    """One-shot :meth:`Executor.run`: yields ``(index, result)`` as tasks complete."""
    with Executor(workers, scheduler=scheduler) as executor:
        yield from executor.run(tasks)
