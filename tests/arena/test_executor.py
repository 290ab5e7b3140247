"""The executor gives the same results serially, over processes and on a local Dask cluster."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from lifearena.agents.random_agent import RandomAgent
from lifearena.arena.executor import Executor, run_tasks
from lifearena.arena.referee import play_game
from lifearena.errors import BadParameterError
from toy_games import Nim


def _games(seeds: list[int]) -> list[tuple[str, list[str], int | None]]:
    """A task: a few Nim games between seeded random agents, each from its own seed."""
    out = []
    for seed in seeds:
        result = play_game(Nim, [RandomAgent(seed), RandomAgent(seed + 1)], seed=seed)
        out.append((result.setup, result.moves, result.winner))
    return out


def _draws(seed: int) -> float:
    return float(np.random.default_rng(seed).normal())


def _fails(x: int) -> int:
    if x == 3:
        raise ZeroDivisionError("task 3 fails")
    return x


TASKS = [(_games, ([3 * k, 3 * k + 1, 3 * k + 2],)) for k in range(8)]


def _collect(executor: Executor) -> list:
    with executor:
        results = dict(executor.run(TASKS))
    assert sorted(results) == list(range(len(TASKS)))
    return [results[i] for i in range(len(TASKS))]


@pytest.fixture(scope="module")
def serial() -> list:
    return _collect(Executor(workers=1))


def test_serial_results_are_games(serial: list) -> None:
    assert len(serial) == 8 and all(len(chunk) == 3 for chunk in serial)
    assert len({tuple(m) for chunk in serial for _, m, _ in chunk}) > 5


def test_processes_equal_serial(serial: list) -> None:
    assert _collect(Executor(workers=2, in_flight=3)) == serial


def test_dask_threads_equal_serial(serial: list) -> None:
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        assert _collect(Executor(scheduler=client, in_flight=2)) == serial


def test_dask_process_cluster_by_address(serial: list) -> None:
    from distributed import Client, LocalCluster

    here = Path(__file__).resolve().parent
    with LocalCluster(n_workers=1, processes=True, threads_per_worker=1,
                      dashboard_address=None) as cluster:
        # the worker must import this test module and the tiny games, as any real cluster's
        # workers must import lifearena
        paths = [str(here.parent.parent), str(here)]
        with Client(cluster) as setup:  # a builtin, since this module cannot be sent yet
            setup.run(exec, f"import sys; sys.path[:0] = {paths!r}")
        assert _collect(Executor(scheduler=cluster.scheduler_address)) == serial
        assert list(run_tasks([(_draws, (1,))], scheduler=cluster.scheduler_address)) == \
            [(0, _draws(1))]


def test_map_keeps_order_and_errors_propagate() -> None:
    with Executor(workers=2) as ex:
        assert ex.map(_draws, [(s,) for s in range(10)]) == [_draws(s) for s in range(10)]
        with pytest.raises(ZeroDivisionError, match="task 3"):
            ex.map(_fails, [(x,) for x in range(6)])
    with pytest.raises(BadParameterError, match="workers=0"):
        Executor(workers=0)
    assert Executor(workers=1).kind == "serial" and Executor(workers=3).kind == "processes"


def _sleep_marked(folder: str, seconds: float) -> float:
    """A long task that first leaves an empty file named by its worker's process id in
    ``folder``, so the test sees when a worker is inside it."""
    Path(folder, str(os.getpid())).touch()
    time.sleep(seconds)
    return seconds


TASK_SECONDS = 120.0
"""How long each task would run if its worker were not stopped."""
STARTUP = 120.0
"""Seconds two workers may take to begin a task each on a busy machine."""


@pytest.mark.timeout(STARTUP + TASK_SECONDS + 60)
def test_an_interrupted_pool_stops_its_running_tasks_at_once(tmp_path: Path) -> None:
    """Ctrl-C (or an error) inside the block does not wait for the tasks still running: their
    workers are stopped, so a command interrupted during long games exits in a moment."""

    def ctrl_c(*_: object) -> None:
        raise KeyboardInterrupt

    main = threading.main_thread().ident
    assert main is not None
    interrupted: list[float] = []
    stop = threading.Event()

    def interrupt_once_both_run() -> None:
        # "Ctrl-C" (SIGALRM, so that pytest's own Ctrl-C is left alone) to the main thread,
        # blocked waiting for a result, as soon as both workers are inside a task; at the
        # deadline all the same, so that the test ends and its assertions say what was missing
        deadline = time.monotonic() + STARTUP
        while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline:
            if stop.wait(0.05):
                return
        interrupted.append(time.monotonic())
        signal.pthread_kill(main, signal.SIGALRM)

    previous = signal.signal(signal.SIGALRM, ctrl_c)
    watcher = threading.Thread(target=interrupt_once_both_run, daemon=True)
    try:
        with pytest.raises(KeyboardInterrupt), Executor(2) as executor:
            workers = list(executor._pool._processes.values())
            watcher.start()
            tasks = ((_sleep_marked, (str(tmp_path), TASK_SECONDS)) for _ in range(4))
            for _ in executor.run(tasks):
                pass
        ended = time.monotonic()
    finally:
        stop.set()
        if watcher.is_alive():
            watcher.join()
        signal.signal(signal.SIGALRM, previous)
    running = {int(marker.name) for marker in tmp_path.iterdir()}
    assert running == {w.pid for w in workers}, "both workers were not inside a task"
    assert ended - interrupted[0] < TASK_SECONDS / 4, "the block waited for its tasks"
    assert not any(w.is_alive() for w in workers)
