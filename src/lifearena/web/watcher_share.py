"""How many pages watch each game, counted over the replicas of one site.

The home page and the lab list the games being played with the number of their
spectators ("3 watching"). Each replica knows its own pages
(:class:`~lifearena.web.rooms.presence.Presence`); a :class:`WatcherShare` tells the others,
on the broker's channel :data:`CHANNEL`, at most once every :data:`SEND_S` seconds:

* ``counts`` with ``full: false``: the games whose number of spectators here changed since
  the last message (0 for a game no longer watched here);
* ``counts`` with ``full: true``, every :data:`FULL_EVERY` messages and in answer to a
  ``hello``: every game watched here, which replaces what the others held of this replica.

The full message is also the replica's heartbeat: the counts of a replica not heard from in
:data:`FORGET_S` seconds (it died, or its subscription is down) are forgotten. So a count is
at most a couple of seconds late, and a dead replica's spectators leave the lists within
:data:`FORGET_S` seconds.

>>> import asyncio
>>> from lifearena.web.broker import MemoryBroker
>>> from lifearena.web.rooms.presence import Presence
>>> async def demo() -> tuple[int, int]:
...     broker = MemoryBroker()
...     here, there = Presence(lambda game_id: None), Presence(lambda game_id: None)
...     a = WatcherShare(broker, "a", presence=here, send_s=0.01)
...     b = WatcherShare(broker, "b", presence=there, send_s=0.01)
...     await a.start(); await b.start()
...     here.open("g1", "page 1", []); here.open("g1", "page 2", [0])  # a spectator, a player
...     there.open("g1", "page 3", [])
...     while b.elsewhere("g1") == 0 or a.elsewhere("g1") == 0:
...         await asyncio.sleep(0.01)
...     await a.stop(); await b.stop()
...     return a.elsewhere("g1"), b.elsewhere("g1")
>>> asyncio.run(demo())
(1, 1)
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

from lifearena.web.channel_link import ChannelLink
from lifearena.web.rooms.presence import Presence

CHANNEL = "watchers"
"""The broker channel the replicas tell each other their spectators on."""
SEND_S = 1.0
"""Seconds between two messages of one replica (when something changed)."""
FULL_EVERY = 5
"""Every this many rounds a replica sends all its counts (its heartbeat)."""
FORGET_S = 15.0
"""Seconds after which the counts of a replica not heard from are forgotten."""


@dataclass
class WatcherShare(ChannelLink):
    """One replica's spectator counts told to the others, and theirs (see the module)."""

    channel: ClassVar[str] = CHANNEL
    what: ClassVar[str] = "the spectators'"
    presence: Presence = field(kw_only=True)
    send_s: float = field(default=SEND_S, kw_only=True)
    _sent: dict[str, int] = field(default_factory=dict, init=False)
    _others: dict[str, tuple[float, dict[str, int]]] = field(default_factory=dict, init=False)
    """Each other replica's counts: when it was last heard from, and its counts by game."""
    _full_now: bool = field(default=True, init=False)

    def here(self) -> dict[str, int]:
        """The games watched on this replica and their numbers of spectators."""
        counts = {game_id: self.presence.spectators(game_id)
                  for game_id in self.presence.open_games()}
        return {game_id: n for game_id, n in counts.items() if n}

    def elsewhere(self, game_id: str) -> int:
        """The spectators of ``game_id`` on the other replicas, as last told."""
        now = time.monotonic()
        return sum(counts.get(game_id, 0) for heard, counts in self._others.values()
                   if now - heard < FORGET_S)

    def watched_elsewhere(self) -> set[str]:
        """The games some other replica's spectators watch."""
        now = time.monotonic()
        return {game_id for heard, counts in self._others.values() if now - heard < FORGET_S
                for game_id in counts}

    def background(self) -> list[Any]:
        """The loop that tells the others."""
        return [self._tell_often()]

    async def _tell_often(self) -> None:
        rounds = 0
        while True:
            await asyncio.sleep(self.send_s)
            rounds += 1
            counts = self.here()
            if self._full_now or rounds % FULL_EVERY == 0:
                self._full_now = False
                self.send({"kind": "counts", "full": True, "counts": counts})
            else:
                changed = {game_id: n for game_id, n in counts.items()
                           if self._sent.get(game_id) != n}
                changed.update({game_id: 0 for game_id in self._sent if game_id not in counts})
                if changed:
                    self.send({"kind": "counts", "full": False, "counts": changed})
            self._sent = counts

    def received(self, data: dict[str, Any]) -> None:
        """Act on another replica's message ``data`` on :data:`CHANNEL`."""
        kind = data.get("kind")
        if kind == "hello":
            self._full_now = True  # the newcomer learns every count at the next round
        elif kind == "counts":
            replica = str(data["from"])
            told = {str(game_id): int(n) for game_id, n in dict(data["counts"]).items()}
            _, counts = self._others.get(replica, (0.0, {}))
            counts = {} if data.get("full") else dict(counts)
            counts.update(told)
            self._others[replica] = (time.monotonic(),
                                     {game_id: n for game_id, n in counts.items() if n > 0})
            now = time.monotonic()
            for gone in [r for r, (heard, _) in self._others.items() if now - heard >= FORGET_S]:
                del self._others[gone]


__all__ = ["CHANNEL", "FORGET_S", "SEND_S", "WatcherShare"]
