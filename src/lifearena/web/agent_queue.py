"""Fair turns for the agents' searches: a queue per client address, served onto a fixed set
of workers so that no address can make another wait behind its own searches.

Every game against the computer is counted under an address (whoever made the request that
gave its agent work: the person playing it). Each address has a queue of its games' searches,
one a game. When a worker is free, the next search comes from the address with the fewest
searches running, and among those the one served least recently; and an address runs at most
``slots - 1`` searches at once (all of them when there is one worker), so a worker is always
left for another address. A quiet address's search thus starts at once, or next, however many
searches a busy address has waiting. At most ``slots`` searches run at once.

A search is keyed by its game: :meth:`AgentQueue.cancel` drops it from its queue, or stops it
on its worker (:mod:`lifearena.web.agent_workers`) when it runs already, and its worker is
free again at once. The server cancels a game's search when the game ends, is resigned or
cancelled, or a move is taken back.

An address may have :attr:`AgentQueue.per_address` searches waiting or running; the server
refuses a new game against the computer from an address at that bound (:meth:`check_room`,
429). A search of one of its existing games past the bound waits in its queue (it is never
refused: it is the answer to a move the person already made).

Nothing here imports FastAPI; the queue runs on the server's event loop and never blocks it.

>>> import asyncio
>>> from lifearena.web.agent_workers import ThreadRunner
>>> async def demo() -> list[int]:
...     queue = AgentQueue(ThreadRunner(1))
...     try:
...         return await asyncio.gather(queue.run("10.0.0.1", "game1", sum, [1, 2]),
...                                     queue.run("10.0.0.2", "game2", sum, [3, 4]))
...     finally:
...         queue.close()
>>> asyncio.run(demo())
[3, 7]
"""

from __future__ import annotations

import asyncio
import collections
import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lifearena.web.agent_workers import Runner, SearchCancelled
from lifearena.web.limits import TooMany

PER_ADDRESS = 4
"""Searches one client address may have waiting or running before its new games against the
computer are refused."""


@dataclass(eq=False)
class _Search:
    address: str
    key: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    answer: asyncio.Future[Any]
    slot: int | None = None
    cancelled: bool = False


@dataclass
class _Address:
    waiting: collections.deque[_Search] = field(default_factory=collections.deque)
    running: int = 0
    served: int = 0
    """When its last search started (a counter): the least recently served goes first."""


class AgentQueue:
    """The searches of every address, waiting and running, over ``runner``'s workers."""

    def __init__(self, runner: Runner, per_address: int = PER_ADDRESS) -> None:
        if per_address < 1:
            raise ValueError(f"per_address {per_address!r}; expected at least 1")
        self.runner = runner
        self.per_address = per_address
        self._free = list(range(runner.slots))
        self._addresses: dict[str, _Address] = {}
        self._searches: dict[str, _Search] = {}
        self._turn = itertools.count(1)

    @property
    def slots(self) -> int:
        """Searches that may run at once (the runner's workers)."""
        return self.runner.slots

    @property
    def per_address_running(self) -> int:
        """Searches one address may run at once: all workers but one (one of one)."""
        return max(1, self.slots - 1)

    def in_flight(self, address: str) -> int:
        """Searches of ``address`` waiting or running."""
        entry = self._addresses.get(address)
        return 0 if entry is None else entry.running + len(entry.waiting)

    def running(self) -> int:
        """Searches running now, every address's."""
        return self.slots - len(self._free)

    def addresses(self) -> int:
        """Addresses with a search waiting or running (the table's size)."""
        return len(self._addresses)

    def searching(self, key: str) -> bool:
        """Whether the search ``key`` is waiting or running."""
        return key in self._searches

    def check_room(self, address: str) -> None:
        """Refuse (:class:`TooMany`, 429) a new game against the computer from ``address``
        when it already has :attr:`per_address` searches waiting or running."""
        count = self.in_flight(address)
        if count >= self.per_address:
            raise TooMany(f"{count} searches of the computer for this address are waiting or "
                          f"running, the most allowed ({self.per_address}); wait for its "
                          "replies before starting another game against it")

    async def run(self, address: str, key: str, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on a worker, in ``address``'s turn; answer its value, or raise
        :class:`SearchCancelled` when :meth:`cancel` (``key``) stopped it first."""
        if key in self._searches:
            raise RuntimeError(f"a search for {key!r} is already waiting or running")
        search = _Search(address, key, fn, tuple(args),
                         asyncio.get_running_loop().create_future())
        # answered once whoever waits for it is gone (the server stopping): not an error
        search.answer.add_done_callback(lambda f: f.cancelled() or f.exception())
        self._searches[key] = search
        self._addresses.setdefault(address, _Address()).waiting.append(search)
        self._dispatch()
        try:
            return await asyncio.shield(search.answer)
        except asyncio.CancelledError:  # the caller went (the server stops): so does this
            self.cancel(key)
            raise

    def cancel(self, key: str) -> bool:
        """Drop the search ``key`` if it waits, or stop it if it runs; answer whether there
        was one. Its caller gets :class:`SearchCancelled`."""
        search = self._searches.get(key)
        if search is None or search.cancelled:
            return False
        search.cancelled = True
        if search.slot is None:  # waiting: gone from its queue, and answered now
            entry = self._addresses[search.address]
            entry.waiting.remove(search)
            self._forget(search)
            search.answer.set_exception(SearchCancelled("dropped before it started"))
        else:  # running: its worker stops it; _finished frees the slot
            self.runner.interrupt(search.slot)
        return True

    def close(self) -> None:
        """Drop every search and end the workers (the server stops)."""
        for key in list(self._searches):
            self.cancel(key)
        self.runner.close()

    # -- turns -----------------------------------------------------------------------------------

    def _next(self) -> _Search | None:
        """The search to start on a free worker: from the address with the fewest running,
        then the one served least recently; ``None`` when nobody may start one."""
        best: tuple[int, int] | None = None
        chosen: _Address | None = None
        for entry in self._addresses.values():
            if not entry.waiting or entry.running >= self.per_address_running:
                continue
            rank = (entry.running, entry.served)
            if best is None or rank < best:
                best, chosen = rank, entry
        if chosen is None:
            return None
        chosen.served = next(self._turn)
        return chosen.waiting.popleft()

    def _dispatch(self) -> None:
        while self._free:
            search = self._next()
            if search is None:
                return
            slot = search.slot = self._free.pop()
            self._addresses[search.address].running += 1
            try:
                running = self.runner.submit(slot, search.fn, search.args)
            except Exception as error:  # the worker could not take it: said to its caller
                self._finished(search, None, error=error)
                continue
            running.add_done_callback(functools.partial(self._finished, search, error=None))

    def _finished(self, search: _Search, done: asyncio.Future[Any] | None, *,
                  error: BaseException | None) -> None:
        assert search.slot is not None
        self._free.append(search.slot)
        entry = self._addresses[search.address]
        entry.running -= 1
        self._forget(search)
        if done is not None:
            if done.cancelled():
                error = SearchCancelled("the worker's task was cancelled")
            else:
                error = done.exception()
        if not search.answer.done():
            if search.cancelled:  # the game moved on: whatever came back is void
                search.answer.set_exception(SearchCancelled("stopped by the server"))
            elif error is not None:
                search.answer.set_exception(error)
            else:
                assert done is not None
                search.answer.set_result(done.result())
        self._dispatch()

    def _forget(self, search: _Search) -> None:
        if self._searches.get(search.key) is search:
            del self._searches[search.key]
        entry = self._addresses.get(search.address)
        if entry is not None and not entry.waiting and entry.running == 0:
            del self._addresses[search.address]


__all__ = ["PER_ADDRESS", "AgentQueue"]
