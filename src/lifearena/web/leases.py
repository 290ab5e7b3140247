"""The leases of the games this replica owns, kept alive in the background.

A replica that owns a game holds its lease on the :class:`~lifearena.web.broker.Broker`; a
:class:`LeaseKeeper` renews every lease it holds each ``ttl_s / 3`` seconds, so that two
renewals in a row may fail before the lease runs out. A lease it cannot renew is **lost**:
the broker answered that someone else holds it (or nobody: it expired, or Redis restarted
empty), or the broker could not be reached for a whole TTL, after which another replica may
have taken it. The keeper drops a lost lease and tells ``on_lost``, and the owner of the
keeper stops serving that game (its next write would be refused by the store anyway: the
fencing token, see :mod:`lifearena.web.broker`).

:meth:`LeaseKeeper.claim` takes a game whose lease is free or expired (its owner died or
gave it up); with leases of ``ttl_s`` seconds, the games of a replica killed with ``kill -9``
can be claimed by the others at most ``ttl_s`` seconds after its last renewal.

>>> import asyncio
>>> from lifearena.web.broker import MemoryBroker
>>> async def demo() -> tuple[int | None, int | None, dict[str, int]]:
...     broker = MemoryBroker()
...     async with LeaseKeeper(broker, "replica-a", ttl_s=3) as mine, \\
...             LeaseKeeper(broker, "replica-b", ttl_s=3) as theirs:
...         return await mine.claim("g1"), await theirs.claim("g1"), mine.held
>>> asyncio.run(demo())
(1, None, {'g1': 1})
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from types import TracebackType

from lifearena.errors import BadParameterError
from lifearena.web.broker import Broker, BrokerUnavailable
from lifearena.web.stopping import cancel_and_wait

log = logging.getLogger(__name__)

LostCallback = Callable[[str], Awaitable[None] | None]
"""Told the id of each game whose lease was lost (a plain or an async function)."""


class LeaseKeeper:
    """Holds the leases ``{prefix}{game_id}`` of ``owner`` on ``broker`` for ``ttl_s``
    seconds each and renews them in a background task (started by ``async with`` or
    :meth:`start`) every ``ttl_s / 3`` seconds; ``on_lost`` hears of each one lost."""

    def __init__(self, broker: Broker, owner: str, ttl_s: float, *,
                 on_lost: LostCallback | None = None, prefix: str = "game:") -> None:
        if not (isinstance(ttl_s, int | float) and 0 < ttl_s < 3600):
            raise BadParameterError(f"lease ttl_s={ttl_s!r}; expected seconds in (0, 3600)")
        if not owner:
            raise BadParameterError("lease owner ''; expected a name for this replica")
        self.broker = broker
        self.owner = owner
        self.ttl_s = float(ttl_s)
        self.prefix = prefix
        self.on_lost = on_lost
        self.renewals = 0
        """How many renewal rounds have run (for tests and monitoring)."""
        self._tokens: dict[str, int] = {}
        self._renewed_at: dict[str, float] = {}
        self._task: asyncio.Task[None] | None = None

    @property
    def held(self) -> dict[str, int]:
        """The games held now, each with the fencing token of its acquisition."""
        return dict(self._tokens)

    def token(self, game_id: str) -> int | None:
        """The fencing token of ``game_id``'s lease, or None if it is not held here."""
        return self._tokens.get(game_id)

    def key(self, game_id: str) -> str:
        """The lease's key on the broker."""
        return f"{self.prefix}{game_id}"

    async def claim(self, game_id: str, *, after: int = 0) -> int | None:
        """Take ``game_id``'s lease if it is free (or expired): its fencing token (above
        ``after``, the highest the store has seen), or None when another replica holds it.
        A game already held here answers its token."""
        if game_id in self._tokens:
            return self._tokens[game_id]
        started = time.monotonic()
        token = await self.broker.acquire(self.key(game_id), self.owner, self.ttl_s,
                                          after=after)
        if token is not None:
            self._tokens[game_id] = token
            self._renewed_at[game_id] = started
        return token

    async def release(self, game_id: str) -> None:
        """Give ``game_id``'s lease up (a game that ended or moved elsewhere)."""
        if self._tokens.pop(game_id, None) is not None:
            self._renewed_at.pop(game_id, None)
            await self.broker.release(self.key(game_id), self.owner)

    async def renew_all(self) -> list[str]:
        """Renew every lease held, all in one round trip to the broker; the games lost
        (already dropped and reported)."""
        held = list(self._tokens)
        started = time.monotonic()
        try:
            kept = await self.broker.renew_many([self.key(g) for g in held], self.owner,
                                                self.ttl_s)
        except BrokerUnavailable as error:
            # the leases may still be ours on a broker we cannot reach: each is lost only
            # once a whole TTL has passed since the last renewal that reached it
            kept = [started - self._renewed_at.get(g, started) < self.ttl_s for g in held]
            if held:
                log.warning("renewing the leases of %s: %s", self.owner, error)
        else:
            for game_id, renewed in zip(held, kept, strict=True):
                if renewed and game_id in self._renewed_at:
                    self._renewed_at[game_id] = started
        lost: list[str] = []
        for game_id, renewed in zip(held, kept, strict=True):
            if not renewed and game_id in self._tokens:
                del self._tokens[game_id]
                self._renewed_at.pop(game_id, None)
                lost.append(game_id)
        self.renewals += 1
        for game_id in lost:
            await self._report(game_id)
        return lost

    async def _report(self, game_id: str) -> None:
        if self.on_lost is None:
            return
        try:
            answer = self.on_lost(game_id)
            if inspect.isawaitable(answer):
                await answer
        except Exception:  # one failing callback must not stop the renewals of the others
            log.exception("the callback for the lost lease of %s failed", game_id)

    async def _run(self) -> None:
        interval = self.ttl_s / 3
        while True:
            started = time.monotonic()
            try:
                await self.renew_all()
            except Exception:  # an unforeseen error must not end the renewals for good
                log.exception("renewing the leases of %s", self.owner)
            await asyncio.sleep(max(0.0, interval - (time.monotonic() - started)))

    def start(self) -> None:
        """Start renewing in the background (on the running event loop)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"lease keeper of {self.owner}")

    async def stop(self, *, release: bool = True) -> None:
        """Stop renewing and (unless ``release`` is false, as when a replica dies) give
        every lease up so that others may claim the games at once."""
        if self._task is not None:
            await cancel_and_wait([self._task])
            self._task = None
        if release:
            for game_id in list(self._tokens):
                with contextlib.suppress(BrokerUnavailable):
                    await self.release(game_id)
        self._tokens.clear()
        self._renewed_at.clear()

    async def __aenter__(self) -> LeaseKeeper:
        self.start()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await self.stop()
