"""One replica's link to the others on one broker channel: the shape the lobby's and the
pools' sharing have in common (:mod:`lifearena.web.lobby_share`,
:mod:`lifearena.web.pool_share`).

What a replica says (:meth:`ChannelLink.send`) is published on the channel in the order it
was said, each message marked with the replica's name; what the others say is read and
handed to :meth:`ChannelLink.received`, which a subclass writes. Each time the channel is
subscribed (the replica starts, or the subscription failed and is made again) the replica
first says ``hello``, to which the others answer with what they hold; a message that cannot
be read is logged and skipped, never fatal. Pub/sub is at most once: after a gap the hello
of the next subscription is what brings a replica up to date.

>>> import asyncio
>>> from lifearena.web.broker import MemoryBroker
>>> heard = []
>>> class Echo(ChannelLink):
...     channel, what = "echo", "the echo's"
...     def received(self, data: dict) -> None:
...         heard.append(f"{self.replica} heard {data['from']}'s {data['kind']}")
>>> async def demo() -> None:
...     broker = MemoryBroker()
...     one, two = Echo(broker, "one"), Echo(broker, "two")
...     await one.start()
...     await two.start()
...     two.send({"kind": "news"})
...     for _ in range(100):
...         await asyncio.sleep(0)
...     await one.stop()
...     await two.stop()
>>> asyncio.run(demo())
>>> for line in sorted(heard):  # two was not there yet when one said hello
...     print(line)
one heard two's hello
one heard two's news
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, ClassVar

from lifearena.web.broker import Broker, BrokerUnavailable, Message
from lifearena.web.stopping import cancel_and_wait

log = logging.getLogger("lifearena.web")

RETRY_S = 0.5
"""Seconds before a failed subscription is tried again."""


@dataclass
class ChannelLink:
    """A replica's link to the others on :attr:`channel` (see the module): ``broker`` is
    shared with them, ``replica`` names this one."""

    broker: Broker
    replica: str
    channel: ClassVar[str]
    """The broker channel of this kind of link."""
    what: ClassVar[str]
    """Whose channel it is, in the log's words ("the lobby's")."""
    unread: ClassVar[tuple[type[Exception], ...]] = (KeyError, TypeError, ValueError)
    """The errors of :meth:`received` that mean "a message not understood": logged,
    skipped."""
    _outgoing: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue,
                                                     init=False)
    _tasks: list[asyncio.Task[None]] = field(default_factory=list, init=False)
    _awaited: dict[str, asyncio.Event] = field(default_factory=dict, init=False)
    """What requests wait to hear of, by key (:meth:`news`, :meth:`heard_of`)."""

    async def news(self, key: str, seconds: float) -> None:
        """Wait up to ``seconds`` until :meth:`heard_of` ``key`` (a change another replica
        made a moment ago, its message still on its way); return either way."""
        event = self._awaited.setdefault(key, asyncio.Event())
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), seconds)
        finally:
            if self._awaited.get(key) is event:
                del self._awaited[key]

    def heard_of(self, key: str) -> None:
        """Wake the requests waiting for news of ``key``."""
        waiting = self._awaited.pop(key, None)
        if waiting is not None:
            waiting.set()

    def send(self, message: dict[str, Any]) -> None:
        """Tell the others ``message`` (a JSON object), after what was said before it."""
        self._outgoing.put_nowait({"from": self.replica, **message})

    def received(self, data: dict[str, Any]) -> None:
        """Act on another replica's message ``data`` (a JSON object with its ``kind``)."""
        raise NotImplementedError

    def _heard(self, message: Message) -> None:
        """After a gap, say hello again (the others answer with what they hold); skip this
        replica's own messages; hand the others' to :meth:`received`."""
        if message.gap:
            self.send({"kind": "hello"})
        elif message.data.get("from") != self.replica:
            self.received(message.data)

    def background(self) -> list[Coroutine[Any, Any, None]]:
        """Loops of the subclass to run beside the reading and the publishing."""
        return []

    async def _listen(self, ready: asyncio.Event) -> None:
        while True:
            try:
                async with self.broker.subscribe([self.channel]) as subscription:
                    self.send({"kind": "hello"})  # the others answer with what they hold
                    ready.set()
                    async for message in subscription:
                        try:
                            self._heard(message)
                        except self.unread as error:
                            log.warning("a message on %s channel unread (%s): %s", self.what,
                                        error, message)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("%s channel failed (%s); again", self.what, error)
            await asyncio.sleep(RETRY_S)

    async def _publish(self) -> None:
        while True:
            message = await self._outgoing.get()
            try:
                await self.broker.publish(self.channel, message)
            except BrokerUnavailable as error:  # the others resync at their gap's hello
                log.warning("publishing on %s channel: %s", self.what, error)

    async def start(self) -> None:
        """Subscribe and start telling (returns once subscribed, or after 10 s)."""
        ready = asyncio.Event()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen(ready), name=f"{self.channel} link"),
                       loop.create_task(self._publish(), name=f"{self.channel} link out"),
                       *(loop.create_task(work) for work in self.background())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready.wait(), 10)

    async def stop(self) -> None:
        """Stop hearing and telling."""
        await cancel_and_wait(self._tasks)
        self._tasks = []


__all__ = ["RETRY_S", "ChannelLink"]
