"""The agents' fair queue (``web/agent_queue.py``) over a runner the test drives by hand, and
the two runners of ``web/agent_workers.py`` stopping a search that runs."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lifearena.web.agent_queue import AgentQueue
from lifearena.web.agent_workers import ProcessRunner, SearchCancelled, ThreadRunner
from lifearena.web.limits import TooMany


class HandRunner:
    """Workers whose searches end when the test says (``finish``), in order of start."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.started: list[str] = []  # each search's name (its first argument), in order
        self.running: dict[int, tuple[str, asyncio.Future[Any]]] = {}
        self.interrupted: list[str] = []

    def submit(self, slot: int, fn: Callable[..., Any], args: tuple[Any, ...]
               ) -> asyncio.Future[Any]:
        assert slot not in self.running, "two searches on one worker"
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.started.append(args[0])
        self.running[slot] = (args[0], future)
        future.add_done_callback(lambda _: self.running.pop(slot, None))
        return future

    def finish(self, name: str) -> None:
        slot = next(s for s, (n, _) in self.running.items() if n == name)
        self.running[slot][1].set_result(f"move of {name}")

    def interrupt(self, slot: int) -> None:
        name, future = self.running[slot]
        self.interrupted.append(name)
        future.set_exception(SearchCancelled("stopped"))

    def close(self) -> None:
        pass


async def _settle() -> None:
    """Let the loop run the callbacks now due (the queue's own answers are callbacks)."""
    for _ in range(5):
        await asyncio.sleep(0)


def _submit(queue: AgentQueue, address: str, name: str) -> asyncio.Task[Any]:
    return asyncio.ensure_future(queue.run(address, name, str, name))


def test_a_quiet_address_goes_next_however_many_a_busy_one_has_waiting() -> None:
    async def scenario() -> list[str]:
        runner = HandRunner(1)
        queue = AgentQueue(runner, per_address=10)
        busy = [_submit(queue, "A", f"a{i}") for i in range(6)]
        await _settle()
        assert runner.started == ["a0"]
        quiet = _submit(queue, "B", "b0")
        await _settle()
        runner.finish("a0")
        await _settle()
        assert runner.started == ["a0", "b0"]  # B next, not a1
        runner.finish("b0")
        await _settle()
        assert await quiet == "move of b0"
        for i in range(1, 6):
            runner.finish(f"a{i}")
            await _settle()
        assert [await task for task in busy] == [f"move of a{i}" for i in range(6)]
        assert queue.addresses() == 0 and queue.running() == 0
        return runner.started

    assert asyncio.run(scenario()) == ["a0", "b0", "a1", "a2", "a3", "a4", "a5"]


def test_an_address_leaves_a_worker_for_the_others() -> None:
    async def scenario() -> None:
        runner = HandRunner(3)
        queue = AgentQueue(runner, per_address=10)
        for i in range(5):
            _submit(queue, "A", f"a{i}")
        await _settle()
        assert runner.started == ["a0", "a1"]  # two of three workers: one is left
        _submit(queue, "B", "b0")
        await _settle()
        assert runner.started == ["a0", "a1", "b0"]  # at once, on the worker left
        assert queue.running() == 3

    asyncio.run(scenario())


def test_addresses_take_turns() -> None:
    async def scenario() -> list[str]:
        runner = HandRunner(1)
        queue = AgentQueue(runner, per_address=10)
        for address in "ABC":
            for i in range(2):
                _submit(queue, address, f"{address}{i}")
        for _ in range(6):
            await _settle()
            runner.finish(runner.started[-1])
        await _settle()
        return runner.started

    assert asyncio.run(scenario()) == ["A0", "B0", "C0", "A1", "B1", "C1"]


def test_cancelling_drops_a_waiting_search_and_frees_a_running_ones_worker() -> None:
    async def scenario() -> None:
        runner = HandRunner(1)
        queue = AgentQueue(runner, per_address=10)
        running = _submit(queue, "A", "a0")
        waiting = _submit(queue, "A", "a1")
        other = _submit(queue, "B", "b0")
        await _settle()
        assert queue.cancel("a1") and not queue.searching("a1")
        with pytest.raises(SearchCancelled):
            await waiting
        assert queue.cancel("a0")  # running: its worker is told to stop
        with pytest.raises(SearchCancelled):
            await running
        await _settle()
        assert runner.interrupted == ["a0"] and runner.started == ["a0", "b0"]
        assert not queue.cancel("a0")  # once only
        runner.finish("b0")
        assert await other == "move of b0"
        assert queue.addresses() == 0 and queue.running() == 0

    asyncio.run(scenario())


def test_an_answer_that_comes_after_a_cancel_is_void() -> None:
    """A worker that answers anyway (the stop came too late) does not bring a move of a game
    that moved on."""

    class LateRunner(HandRunner):
        def interrupt(self, slot: int) -> None:
            self.interrupted.append(self.running[slot][0])  # ...and finishes all the same

    async def scenario() -> None:
        runner = LateRunner(1)
        queue = AgentQueue(runner)
        task = _submit(queue, "A", "a0")
        await _settle()
        queue.cancel("a0")
        runner.finish("a0")
        with pytest.raises(SearchCancelled):
            await task

    asyncio.run(scenario())


def test_an_address_past_its_searches_is_refused_new_games() -> None:
    async def scenario() -> None:
        queue = AgentQueue(HandRunner(2), per_address=2)
        _submit(queue, "A", "a0")
        _submit(queue, "A", "a1")
        await _settle()
        with pytest.raises(TooMany, match="2 searches of the computer for this address"):
            queue.check_room("A")
        queue.check_room("B")
        with pytest.raises(RuntimeError, match="already"):
            await queue.run("A", "a0", str, "again")

    asyncio.run(scenario())


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4), st.lists(st.tuples(st.sampled_from(["submit", "finish", "cancel"]),
                                             st.integers(0, 3), st.integers(0, 50)),
                                   max_size=40))
def test_every_free_worker_is_used_fairly_and_within_the_bounds(
        slots: int, steps: list[tuple[str, int, int]]) -> None:
    """Whatever comes and goes: at most ``slots`` searches run, an address at most
    ``slots - 1`` (one of one), no worker stays free while a search could start, and every
    table is empty once all have gone."""

    async def scenario() -> None:
        runner = HandRunner(slots)
        queue = AgentQueue(runner, per_address=100)
        cap = max(1, slots - 1)
        names: list[str] = []
        for number, (kind, who, pick) in enumerate(steps):
            if kind == "submit":
                name = f"{'ABCD'[who]}{number}"
                names.append(name)
                _submit(queue, "ABCD"[who], name)
            elif kind == "finish" and runner.running:
                running = sorted(n for n, _ in runner.running.values())
                runner.finish(running[pick % len(running)])
            elif kind == "cancel" and names:
                queue.cancel(names[pick % len(names)])
            await _settle()
            counts = _running_by_address(runner)
            assert len(runner.running) <= slots
            assert all(count <= cap for count in counts.values())
            waiting = {n[0] for n in names if queue.searching(n)
                       and n not in {r for r, _ in runner.running.values()}}
            eligible = {a for a in waiting if counts.get(a, 0) < cap}
            assert not (eligible and len(runner.running) < slots), "a worker left idle"
        for name in list(names):
            queue.cancel(name)
        await _settle()
        assert queue.running() == 0 and queue.addresses() == 0

    asyncio.run(scenario())


def _running_by_address(runner: HandRunner) -> dict[str, int]:
    counts: dict[str, int] = {}
    for name, _ in runner.running.values():
        counts[name[0]] = counts.get(name[0], 0) + 1
    return counts


# -- the runners stop a search that runs ----------------------------------------------------------


def _slow(seconds: float) -> str:
    """A search in pure Python that takes ``seconds`` unless stopped."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        time.sleep(0.005)
    return "finished"


async def _until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    """Poll ``condition`` until it holds, failing after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the search did not start in time"
        await asyncio.sleep(0.01)


def _started_then_slow(started: threading.Event, seconds: float) -> str:
    started.set()
    return _slow(seconds)


def test_a_thread_search_is_stopped_and_its_worker_serves_the_next() -> None:
    async def scenario() -> tuple[float, str]:
        runner = ThreadRunner(1)
        started_event = threading.Event()
        try:
            search = runner.submit(0, _started_then_slow, (started_event, 30.0))
            await _until(started_event.is_set)
            started = time.perf_counter()
            runner.interrupt(0)
            with pytest.raises(SearchCancelled):
                await search
            took = time.perf_counter() - started
            return took, await runner.submit(0, _slow, (0.01,))
        finally:
            runner.close()

    took, after = asyncio.run(scenario())
    assert took < 10.0 and after == "finished"  # stopped, not run to its 30 s


def test_a_process_search_is_stopped_by_a_signal_and_a_stuck_one_replaced(
        tmp_path: Path) -> None:
    """A search stopped by the signal leaves its worker alive (the same process serves the
    next search); one that does not stop (it blocks the signal) is killed after the grace
    and its worker replaced. (A real search stops the same way: a hard Losat game resigned
    in a server with worker processes frees its worker within a few tens of ms.) Each search
    writes a file once it runs, which the test waits for before it interrupts."""
    polite_mark, stubborn_mark = tmp_path / "polite", tmp_path / "stubborn"
    polite = (f"import pathlib, time\npathlib.Path({str(polite_mark)!r}).touch()\n"
              "time.sleep(60)\n")
    stubborn = ("import pathlib, signal, time\n"
                "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})\n"
                f"pathlib.Path({str(stubborn_mark)!r}).touch()\n"
                "time.sleep(60)\n")

    async def scenario() -> None:
        runner = ProcessRunner(1, grace=5.0)
        try:
            await runner.start()
            [first] = runner.pids()
            search = runner.submit(0, exec, (polite,))
            await _until(polite_mark.exists)
            started = time.perf_counter()
            runner.interrupt(0)
            with pytest.raises(SearchCancelled):
                await search
            assert time.perf_counter() - started < 2.5  # the signal, not the 5 s grace
            assert await runner.submit(0, os.getpid, ()) == first
            search = runner.submit(0, exec, (stubborn,))
            await _until(stubborn_mark.exists)
            runner.interrupt(0)
            with pytest.raises(SearchCancelled):
                await search
            assert await runner.submit(0, os.getpid, ()) not in (first, 0)
        finally:
            runner.close()

    asyncio.run(scenario())
