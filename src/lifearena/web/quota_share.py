"""The creation quota of each client address, counted across the replicas of one site.

One server counts each address's game creations in the last minute
(:class:`~lifearena.web.limits.CreationRate`, ``--creates-per-minute``). Replicas count their
own, so a client whose requests a load balancer spreads over N replicas would get N times
its quota. With a broker, every creation a replica counts also adds one to the address's
counter of the current minute on the broker (``count:creations:{address}:{minute}``: one
command, sent by a background task, never awaited by the request), which answers the
site-wide count; the replica keeps the latest answer per address, and refuses a creation
(429, one line) while that count has reached the quota.

A replica learns an address's site-wide count from its own creations only, so past its
quota a client gets at most one more creation on each replica that has not counted one for
it this minute, and those whose count is on its way. When the broker does not answer, the
replicas fall back on their own counts (the quota is not enforced site-wide then, and no
creation is refused for want of a broker).

>>> import asyncio
>>> from lifearena.web.broker import MemoryBroker
>>> async def demo() -> list[str]:
...     broker = MemoryBroker()
...     a, b = SharedCreations(broker, 2), SharedCreations(broker, 2)
...     for replica in (a, b):
...         replica.start()
...     a.count("203.0.113.7"); await a.settled()  # a heard 1
...     b.count("203.0.113.7"); await b.settled()  # b heard 2, the quota
...     said = []
...     for name, replica in (("a", a), ("b", b)):
...         try:
...             replica.check("203.0.113.7")
...             said.append(f"{name}: one more")
...         except Exception as refusal:
...             said.append(f"{name}: {str(refusal).split(';')[0]}")
...         await replica.stop()
...     return said
>>> asyncio.run(demo())  # doctest: +NORMALIZE_WHITESPACE
['a: one more',
 'b: 2 games created from this address on this site this minute, the most allowed']
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable

from lifearena.web.broker import Broker, BrokerUnavailable
from lifearena.web.limits import MAX_ADDRESSES, BoundedTable, TooMany
from lifearena.web.stopping import cancel_and_wait

log = logging.getLogger("lifearena.web.quota_share")

MINUTE = 60.0
"""The length of one counted window, in seconds (the broker's counters are per minute)."""
WAITING = 10_000
"""Creations whose count waits to be sent, at most; past it the oldest is not sent (a
broker that stopped answering must not grow a replica's memory)."""


class SharedCreations:
    """The site-wide creation counts of one replica (see the module)."""

    def __init__(self, broker: Broker, per_minute: int, *,
                 clock: Callable[[], float] = time.time,
                 max_addresses: int = MAX_ADDRESSES) -> None:
        self.broker = broker
        self.per_minute = per_minute
        self.clock = clock
        self.known: BoundedTable[str, tuple[int, int]] = BoundedTable(max_addresses)
        """Each address's latest site-wide count: (its minute, the count)."""
        self._waiting: asyncio.Queue[tuple[str, int]] = asyncio.Queue(WAITING)
        self._task: asyncio.Task[None] | None = None
        self._failing = False

    def _minute(self) -> int:
        return math.floor(self.clock() / MINUTE)

    def check(self, address: str) -> None:
        """:class:`~lifearena.web.limits.TooMany` when ``address``'s latest site-wide count
        of this minute reached the quota; counts nothing."""
        minute = self._minute()
        known = self.known.peek(address)
        if known is not None and known[0] == minute and known[1] >= self.per_minute:
            wait = max(1, math.ceil((minute + 1) * MINUTE - self.clock()))
            raise TooMany(f"{self.per_minute} games created from this address on this site "
                          f"this minute, the most allowed; try again in {wait} s")

    def count(self, address: str) -> None:
        """One creation of ``address`` was counted here: add it to the site-wide count (in
        the background)."""
        item = (address, self._minute())
        if self._waiting.full():
            self._waiting.get_nowait()
        self._waiting.put_nowait(item)

    async def _send(self) -> None:
        while True:
            address, minute = await self._waiting.get()
            try:
                total = await self.broker.count(f"creations:{address}:{minute}", 2 * MINUTE)
            except BrokerUnavailable as error:
                if not self._failing:
                    log.warning("the creation quota is counted per replica until the broker "
                                "answers again: %s", error)
                self._failing = True
            else:
                self._failing = False
                known = self.known.peek(address)
                if known is None or known[0] != minute or known[1] < total:
                    self.known[address] = (minute, total)
            finally:
                self._waiting.task_done()

    async def settled(self) -> None:
        """Wait until every creation counted here so far has been sent (for tests)."""
        await self._waiting.join()

    def start(self) -> None:
        """Start sending counts on the running loop."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._send(),
                                                                name="creation counts")

    async def stop(self) -> None:
        """Stop sending counts."""
        if self._task is not None:
            await cancel_and_wait([self._task])
            self._task = None


__all__ = ["MINUTE", "SharedCreations"]
