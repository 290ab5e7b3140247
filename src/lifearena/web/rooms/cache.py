"""The games in memory: each stored game loaded once, under one lock, let go of when too
many are loaded.

:meth:`LiveGames.get` answers a game from memory or rebuilds it from the store (a long game
replayed in a slow-work worker, so the event loop never replays thousands of moves;
concurrent loads of one game share one rebuild). :meth:`LiveGames.locked` holds a game under
its lock: the copy every change goes to. Past ``max_cached`` games the least recently used
one that nobody needs (no page open, no search running, no lock held, no clock running:
``keep`` says) is let go of; it is rebuilt from the store when next asked for.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import AsyncIterator, Callable

from lifearena.errors import LifeArenaError
from lifearena.web.heavy import HeavyWork
from lifearena.web.live import LiveGame
from lifearena.web.store import GameRow, Store

LOOP_REPLAY_MOVES = 32
"""Moves a game may have for the event loop to replay it itself (at most about 0.15 ms a
move: a few milliseconds); a longer game is replayed in a slow-work worker."""


class NotFound(LifeArenaError):
    """No game with that id (404)."""


def valid_id(game_id: str) -> bool:
    """Whether ``game_id`` has the shape of a game id (6 to 32 URL-safe characters).

    >>> valid_id("a1B2-c_"), valid_id("../etc"), valid_id("x" * 40)
    (True, False, False)
    """
    return 6 <= len(game_id) <= 32 and all(c.isascii() and (c.isalnum() or c in "-_")
                                           for c in game_id)


def rebuild(row: GameRow) -> LiveGame:
    """A stored game, live again (run in a worker for a long game)."""
    return LiveGame.from_row(row)


class LiveGames:
    """The loaded games by id, least recently used first (see the module).

    ``loaded(live)`` is called once a game is rebuilt from the store and cached (its
    players, clock and agent); ``looked_at(live)`` on every other access (a flag that is
    due falls before anyone looks); ``keep(game_id, live)`` says a game must stay loaded."""

    def __init__(self, store: Store, heavy: Callable[[], HeavyWork], max_cached: int, *,
                 loaded: Callable[[LiveGame], None], looked_at: Callable[[LiveGame], None],
                 keep: Callable[[str, LiveGame], bool]) -> None:
        self.store = store
        self.heavy = heavy  # read when needed: an operator (a test) may swap the pool
        self.max_cached = max_cached
        self.loaded = loaded
        self.looked_at = looked_at
        self.keep = keep
        self.games: collections.OrderedDict[str, LiveGame] = collections.OrderedDict()
        self.locks: dict[str, asyncio.Lock] = {}
        self.loading: dict[str, asyncio.Future[LiveGame]] = {}
        """Games being rebuilt from the store, by id (every caller awaits the one rebuild)."""

    async def get(self, game_id: str, client: str = "server") -> LiveGame:
        """The live game ``game_id``: from memory, else rebuilt from the store for
        ``client``. :class:`NotFound` (404) for an unknown id,
        :class:`~lifearena.web.store.DamagedRow` (410) for a stored game that no longer
        loads, :class:`~lifearena.web.heavy.TooBusy` (429) past ``client``'s bound."""
        if not valid_id(game_id):
            raise NotFound(f"no game {game_id[:40]!r}")
        live = self.games.get(game_id)
        if live is not None:
            self.games.move_to_end(game_id)
            self.looked_at(live)
            return live
        loading = self.loading.get(game_id)
        if loading is None:
            loading = asyncio.ensure_future(self._load(game_id, client))
            self.loading[game_id] = loading
            loading.add_done_callback(lambda _: self.loading.pop(game_id, None))
        # shielded: a page that leaves does not end a load other pages wait for
        return await asyncio.shield(loading)

    async def _load(self, game_id: str, client: str) -> LiveGame:
        row = self.store.get(game_id)
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        if len(row.moves) <= LOOP_REPLAY_MOVES:
            live = rebuild(row)
        else:
            live = await self.heavy().run(client, rebuild, row)
        if live.row.game != row.game:  # a row of an earlier form, upgraded: stored so, once
            self.store.save_form(live.row, live.stored_outcome())
        # loads of one game are one task, and every change goes through a loaded copy: no
        # other copy can have arrived meanwhile
        self.games[game_id] = live
        self.loaded(live)
        self.evict()
        return live

    def add(self, live: LiveGame) -> None:
        """Keep a game just made (and stored)."""
        self.games[live.row.id] = live
        self.evict()

    def exists(self, game_id: str) -> bool:
        """Whether ``game_id`` is a game here (in memory or stored; not rebuilt)."""
        return valid_id(game_id) and (game_id in self.games
                                      or self.store.get(game_id) is not None)

    def is_locked(self, game_id: str) -> bool:
        """Whether someone holds ``game_id``'s lock now."""
        lock = self.locks.get(game_id)
        return lock is not None and lock.locked()

    @contextlib.asynccontextmanager
    async def locked(self, game_id: str, client: str = "server"
                     ) -> AsyncIterator[LiveGame]:
        """The game ``game_id`` held under its lock: the copy every change goes to. A game
        whose lock is held is never evicted, so no change lands on a copy the cache let go."""
        await self.get(game_id, client)  # an unknown id is refused before a lock is made
        lock = self.locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            yield await self.get(game_id, client)

    def evict(self) -> None:
        """Let go of the least recently used games past ``max_cached`` that nobody needs."""
        while len(self.games) > self.max_cached:
            for old, live in self.games.items():
                if not self.is_locked(old) and not self.keep(old, live):
                    del self.games[old]
                    self.locks.pop(old, None)
                    break
            else:
                return
