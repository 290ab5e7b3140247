"""The broker between replicas of ``lifearena serve``: pub/sub, game leases and presence.

Several replicas behind one proxy serve one site when they share a store (PostgreSQL) and a
broker (Redis): each live game has one **owner** replica at a time, which holds its **lease**
(a key with an expiry that the owner renews); moves and socket messages that reach another
replica travel to the owner over **pub/sub**; who is online and whose turn it is live in
**presence** sets with expiry. One process on SQLite needs nothing of that: the
:class:`MemoryBroker` does the same in-process.

Two implementations of one :class:`Broker` protocol behave alike (``tests/web/test_broker.py``
runs every case on both):

* :class:`MemoryBroker` — in-process, nothing to run;
* :class:`RedisBroker` — redis-py's asyncio client on a ``redis://host:port/db`` URL.

What they promise:

* **Pub/sub is at most once**, as Redis's is. A message reaches the subscriptions open when
  it is published, in publication order per channel; a subscriber that is not there (or
  whose connection is down) never sees it. After a lost connection a
  :class:`Subscription` reconnects by itself and yields one ``gap`` :class:`Message` per
  channel first: whatever was published meanwhile is gone, so the reader resyncs from the
  store, which is the truth. Messages are JSON objects (the memory broker round-trips them
  through JSON too, so both refuse the same values). A subscription takes more channels
  and lets some go while it is read (:meth:`~Subscription.add`,
  :meth:`~Subscription.remove`: one connection for many channels); a channel added later
  yields one ``joined`` :class:`Message` once the broker confirms it, from which on its
  messages are delivered, so the reader reads the store then.
* **Leases** are exclusive keys with an expiry: :meth:`~Broker.acquire` takes a free (or
  expired) key and answers a **fencing token**, :meth:`~Broker.renew` and
  :meth:`~Broker.release` act only for the current owner, each atomically (a Lua script on
  Redis).
* **Fencing tokens** strictly increase per key, across owners: every successful acquire
  answers a larger one than any before it. A lease can be lost while its owner still
  believes it holds it (a pause longer than the TTL, a partition), so the store must refuse
  a stale owner's late write: the game's row keeps the highest token that wrote to it, and a
  write carries its owner's token and succeeds only where ``stored <= token``
  (``UPDATE games SET ..., fence = :token WHERE id = :id AND fence <= :token``; no row
  updated means "you are no longer the owner": drop the game). Redis without persistence
  forgets its counters when it restarts, so :meth:`~Broker.acquire` takes ``after``, the
  highest token the store has seen, and answers a token above it.
* **Presence** sets hold members with an expiry each (:meth:`~Broker.mark`); a member not
  marked again within its TTL leaves :meth:`~Broker.members`. On Redis the expiries are
  read on the server's clock, so replicas whose clocks differ agree.
* A broker that cannot be reached raises :class:`BrokerUnavailable`, naming the URL with
  its password hidden; a bad URL is a :class:`~lifearena.errors.BadParameterError`.

>>> import asyncio
>>> async def demo() -> list[object]:
...     broker = MemoryBroker()
...     first = await broker.acquire("game:g1", "replica-a", ttl_s=5)
...     second = await broker.acquire("game:g1", "replica-b", ttl_s=5)
...     owner = await broker.owner_of("game:g1")
...     await broker.close()
...     return [first, second, owner]
>>> asyncio.run(demo())
[1, None, 'replica-a']
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import math
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Protocol, runtime_checkable
from urllib.parse import urlsplit, urlunsplit

from lifearena.errors import BadParameterError
from lifearena.extras import MissingExtra

EXPECTED_URL = "expected redis://host:port/db"
"""What a broker URL should look like, as the errors about a bad one say."""

SUBSCRIBE_TIMEOUT_S = 5.0
"""How long a subscription waits for Redis to confirm it before giving up."""

RECONNECT_BACKOFF_S = (0.05, 0.1, 0.2, 0.5, 1.0)
"""The pauses between a subscription's attempts to reconnect (the last one repeats)."""


class BrokerUnavailable(RuntimeError):
    """The broker cannot be reached (connection refused, reset, timed out); the message
    names its URL with the password hidden."""


@dataclass(frozen=True)
class Message:
    """One message of a subscription: its ``channel`` and its JSON object ``data``.

    ``gap`` marks the first message after a reconnection, one per channel, with empty
    ``data``: messages published on that channel while the connection was down are lost,
    and the reader should resync from the store. ``joined`` marks the confirmation of a
    channel given to :meth:`Subscription.add` (empty ``data``): what is published on it from
    then on is delivered."""

    channel: str
    data: dict[str, Any] = field(default_factory=dict)
    gap: bool = False
    joined: bool = False


class Subscription(Protocol):
    """Messages from some channels: an async context manager (entering subscribes, so a
    message published once ``async with`` has entered is delivered; leaving unsubscribes)
    and, inside it, an async iterator of :class:`Message`, which ends when the subscription
    is left or its broker closed (a reader in another task stops too)."""

    async def __aenter__(self) -> Subscription: ...

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None: ...

    def __aiter__(self) -> AsyncIterator[Message]: ...

    async def __anext__(self) -> Message: ...

    async def add(self, channels: Iterable[str]) -> None:
        """Subscribe to ``channels`` too (inside ``async with``); each yields a ``joined``
        message once its messages are delivered."""

    async def remove(self, channels: Iterable[str]) -> None:
        """Stop receiving ``channels`` (a message already on its way may still come)."""


@runtime_checkable
class Broker(Protocol):
    """What the replicas share besides the store (see the module's docstring)."""

    async def ping(self) -> None:
        """Check that the broker answers; :class:`BrokerUnavailable` if not."""

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Send a JSON object to the subscriptions open on ``channel`` (at most once)."""

    def subscribe(self, channels: Iterable[str]) -> Subscription:
        """The messages of ``channels``, once the answer is entered with ``async with``."""

    async def acquire(self, key: str, owner: str, ttl_s: float, *,
                      after: int = 0) -> int | None:
        """Take the lease ``key`` for ``owner`` for ``ttl_s`` seconds if nobody holds it:
        the fencing token of this acquisition (larger than ``after`` and than every token
        answered before for ``key``), or None when the key is held (by anyone, ``owner``
        included: an owner renews)."""

    async def renew(self, key: str, owner: str, ttl_s: float) -> bool:
        """Extend the lease to ``ttl_s`` seconds from now if ``owner`` still holds it."""

    async def renew_many(self, keys: Sequence[str], owner: str, ttl_s: float) -> list[bool]:
        """:meth:`renew` each of ``keys`` (in one round trip where the broker allows):
        whether each is still held."""

    async def release(self, key: str, owner: str) -> bool:
        """Give the lease up if ``owner`` holds it; whether it did."""

    async def owner_of(self, key: str) -> str | None:
        """Who holds the lease ``key`` now, or None."""

    async def mark(self, key: str, member: str, ttl_s: float) -> None:
        """Put ``member`` in the presence set ``key`` for ``ttl_s`` seconds from now."""

    async def unmark(self, key: str, member: str) -> None:
        """Take ``member`` out of the presence set ``key`` now."""

    async def members(self, key: str) -> set[str]:
        """The members of the presence set ``key`` whose time has not run out."""

    async def owners_of(self, keys: Sequence[str]) -> list[str | None]:
        """:meth:`owner_of` each of ``keys``, in one round trip."""

    async def mark_all(self, marks: Sequence[tuple[str, str, bool]], ttl_s: float) -> None:
        """For each ``(key, member, present)``: :meth:`mark` it for ``ttl_s`` seconds
        where ``present``, else :meth:`unmark` it; in one round trip."""

    async def members_of(self, keys: Sequence[str]) -> list[set[str]]:
        """:meth:`members` of each of ``keys``, in one round trip."""

    async def count(self, key: str, ttl_s: float) -> int:
        """Add one to the counter ``key`` (made at zero with ``ttl_s`` seconds to live when
        absent or run out) and answer its new value, atomically."""

    async def close(self) -> None:
        """Let go of connections and subscriptions."""


def _ttl_ms(ttl_s: float) -> int:
    if not (isinstance(ttl_s, int | float) and math.isfinite(ttl_s) and ttl_s > 0):
        raise BadParameterError(f"ttl_s={ttl_s!r}; expected a positive number of seconds")
    return max(1, round(ttl_s * 1000))


def _as_json(message: dict[str, Any]) -> str:
    if not isinstance(message, dict):
        raise BadParameterError(f"message {message!r}; expected a JSON object (a dict)")
    return json.dumps(message, separators=(",", ":"), allow_nan=False)


def _channel_list(channels: Iterable[str]) -> list[str]:
    names = [channels] if isinstance(channels, str) else list(channels)
    if not names or not all(isinstance(name, str) and name for name in names):
        raise BadParameterError(f"channels {names!r}; expected one or more channel names")
    return list(dict.fromkeys(names))


# ---------------------------------------------------------------------------- in-process


class _MemorySubscription:
    """A subscription of the :class:`MemoryBroker`: a queue that publishers fill."""

    def __init__(self, broker: MemoryBroker, channels: list[str]) -> None:
        self._broker = broker
        self.channels = channels
        self.queue: asyncio.Queue[Message | None] = asyncio.Queue()
        self._entered = False

    async def __aenter__(self) -> _MemorySubscription:
        self._broker._attach(self)
        self._entered = True
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        self._broker._detach(self)
        self.queue.put_nowait(None)  # a reader in another task stops too

    def __aiter__(self) -> _MemorySubscription:
        return self

    async def add(self, channels: Iterable[str]) -> None:
        """See :meth:`Subscription.add`."""
        new = [c for c in _channel_list(channels) if c not in self.channels]
        self.channels.extend(new)
        self._broker._attach(self, new)
        for channel in new:
            self.queue.put_nowait(Message(channel, joined=True))

    async def remove(self, channels: Iterable[str]) -> None:
        """See :meth:`Subscription.remove`."""
        gone = [c for c in _channel_list(channels) if c in self.channels]
        self.channels = [c for c in self.channels if c not in gone]
        self._broker._detach(self, gone)

    async def __anext__(self) -> Message:
        if not self._entered:
            raise RuntimeError("enter the subscription with `async with` before reading it")
        message = await self.queue.get()
        if message is None:  # the broker closed
            raise StopAsyncIteration
        return message


class MemoryBroker:
    """The broker of a single process: the same behaviour as :class:`RedisBroker`, kept in
    this process's memory (expiries on :func:`time.monotonic`)."""

    url = "memory://"

    def __init__(self) -> None:
        self._subscriptions: dict[str, set[_MemorySubscription]] = collections.defaultdict(set)
        self._leases: dict[str, tuple[str, float]] = {}
        self._fences: dict[str, int] = {}
        self._presence: dict[str, dict[str, float]] = collections.defaultdict(dict)
        self._counters: dict[str, tuple[int, float]] = {}

    def _attach(self, subscription: _MemorySubscription,
                channels: list[str] | None = None) -> None:
        for channel in subscription.channels if channels is None else channels:
            self._subscriptions[channel].add(subscription)

    def _detach(self, subscription: _MemorySubscription,
                channels: list[str] | None = None) -> None:
        for channel in subscription.channels if channels is None else channels:
            self._subscriptions[channel].discard(subscription)

    async def ping(self) -> None:
        """Always answers: there is nothing to reach."""

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Queue ``message`` (a copy through JSON) for every open subscription of
        ``channel``."""
        data = json.loads(_as_json(message))
        for subscription in self._subscriptions.get(channel, ()):
            subscription.queue.put_nowait(Message(channel, data))

    def subscribe(self, channels: Iterable[str]) -> _MemorySubscription:
        """The messages of ``channels`` from entering ``async with`` on."""
        return _MemorySubscription(self, _channel_list(channels))

    def _holder(self, key: str) -> str | None:
        held = self._leases.get(key)
        if held is None:
            return None
        if held[1] <= time.monotonic():
            del self._leases[key]
            return None
        return held[0]

    async def acquire(self, key: str, owner: str, ttl_s: float, *,
                      after: int = 0) -> int | None:
        """See :meth:`Broker.acquire`."""
        ttl = _ttl_ms(ttl_s)
        if self._holder(key) is not None:
            return None
        self._leases[key] = (owner, time.monotonic() + ttl / 1000)
        token = max(self._fences.get(key, 0), after) + 1
        self._fences[key] = token
        return token

    async def renew(self, key: str, owner: str, ttl_s: float) -> bool:
        """See :meth:`Broker.renew`."""
        ttl = _ttl_ms(ttl_s)
        if self._holder(key) != owner:
            return False
        self._leases[key] = (owner, time.monotonic() + ttl / 1000)
        return True

    async def renew_many(self, keys: Sequence[str], owner: str, ttl_s: float) -> list[bool]:
        """See :meth:`Broker.renew_many`."""
        return [await self.renew(key, owner, ttl_s) for key in keys]

    async def release(self, key: str, owner: str) -> bool:
        """See :meth:`Broker.release`."""
        if self._holder(key) != owner:
            return False
        del self._leases[key]
        return True

    async def owner_of(self, key: str) -> str | None:
        """See :meth:`Broker.owner_of`."""
        return self._holder(key)

    async def mark(self, key: str, member: str, ttl_s: float) -> None:
        """See :meth:`Broker.mark`."""
        self._presence[key][member] = time.monotonic() + _ttl_ms(ttl_s) / 1000

    async def unmark(self, key: str, member: str) -> None:
        """See :meth:`Broker.unmark`."""
        self._presence[key].pop(member, None)

    async def owners_of(self, keys: Sequence[str]) -> list[str | None]:
        """See :meth:`Broker.owners_of`."""
        return [self._holder(key) for key in keys]

    async def mark_all(self, marks: Sequence[tuple[str, str, bool]], ttl_s: float) -> None:
        """See :meth:`Broker.mark_all`."""
        for key, member, present in marks:
            if present:
                await self.mark(key, member, ttl_s)
            else:
                await self.unmark(key, member)

    async def members_of(self, keys: Sequence[str]) -> list[set[str]]:
        """See :meth:`Broker.members_of`."""
        return [await self.members(key) for key in keys]

    async def count(self, key: str, ttl_s: float) -> int:
        """See :meth:`Broker.count`."""
        now = time.monotonic()
        value, until = self._counters.get(key, (0, 0.0))
        if until <= now:
            value, until = 0, now + _ttl_ms(ttl_s) / 1000
        self._counters[key] = (value + 1, until)
        return value + 1

    async def members(self, key: str) -> set[str]:
        """See :meth:`Broker.members`."""
        now = time.monotonic()
        present = self._presence.get(key, {})
        for member in [m for m, until in present.items() if until <= now]:
            del present[member]
        return set(present)

    async def close(self) -> None:
        """End every open subscription's iteration."""
        for subscriptions in self._subscriptions.values():
            for subscription in subscriptions:
                subscription.queue.put_nowait(None)
        self._subscriptions.clear()


# ---------------------------------------------------------------------------- Redis

# The lease's value is its owner; its fencing counter is a key of its own without expiry.
# Each script reads and writes in one step, so no other client acts between the check and
# the change.
_ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local counter = tonumber(redis.call('GET', KEYS[2]) or '0')
  local floor = tonumber(ARGV[3])
  if counter < floor then redis.call('SET', KEYS[2], floor) end
  return redis.call('INCR', KEYS[2])
end
return false
"""
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
# Presence: a sorted set scored by each member's expiry in milliseconds of the server's
# clock; the set itself expires with its last member.
_MARK = """
local now = redis.call('TIME')
local until_ms = now[1] * 1000 + math.floor(now[2] / 1000) + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], until_ms, ARGV[1])
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return until_ms
"""
_MEMBERS = """
local now = redis.call('TIME')
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now[1] * 1000 + math.floor(now[2] / 1000))
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""


def check_redis_url(url: str) -> str:
    """``url`` if it is a ``redis://`` (or TLS ``rediss://``) URL with a host, a valid port
    and a database number; :class:`BadParameterError` of one line if not.

    >>> check_redis_url("redis://127.0.0.1:6379/0")
    'redis://127.0.0.1:6379/0'
    >>> check_redis_url("http://localhost")
    Traceback (most recent call last):
    lifearena.errors.BadParameterError: broker URL 'http://localhost'; expected redis://host:port/db
    """
    bad = BadParameterError(f"broker URL {hide_password(url)!r}; {EXPECTED_URL}")
    if not isinstance(url, str):
        raise bad
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise bad from None
    database = parts.path.lstrip("/")
    if (parts.scheme not in ("redis", "rediss") or not parts.hostname
            or (port is not None and port == 0)
            or (database and not (database.isdigit() and int(database) < 10_000))
            or "/" in database or parts.fragment):
        raise bad
    return url


def hide_password(url: object) -> str:
    """``url`` with its password (if any) replaced by ``***``, fit to print.

    >>> hide_password("redis://:s3cret@cache:6379/1")
    'redis://:***@cache:6379/1'
    """
    text = str(url)
    try:
        parts = urlsplit(text)
    except ValueError:
        return text
    if parts.password is None:
        return text
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _message(raw: dict[str, Any]) -> Message:
    """A :class:`Message` from a message of redis-py's pub/sub."""
    return Message(_text(raw["channel"]), json.loads(raw["data"]))


class _RedisSubscription:
    """A subscription of the :class:`RedisBroker` on a pub/sub connection of its own, which
    it remakes (with backoff) when the connection is lost, then yields a ``gap`` message per
    channel.

    The connection comes from a client of the subscription's own, not from the broker's
    pool: a reader still waiting on it when the subscription closes must never share a
    connection with the broker's commands."""

    def __init__(self, broker: RedisBroker, channels: list[str]) -> None:
        self._broker = broker
        self.channels = channels
        self._pubsub: Any = None
        self._client: Any = None
        self._pending: collections.deque[Message] = collections.deque()
        self._closed = False
        self._gap_due = False
        self._joining: set[str] = set()
        """Channels given to :meth:`add` whose confirmation has not been read yet."""

    async def _open(self) -> None:
        """Subscribe on a new pub/sub connection; after a lost one, queue a gap message per
        channel first, ahead of anything the new connection receives."""
        if self._client is None:
            self._client = self._broker._new_client()
        pubsub: Any = self._client.pubsub()
        try:
            await pubsub.subscribe(*self.channels)
            if self._gap_due:
                self._gap_due = False
                self._joining.clear()  # their gaps tell the reader to read the store
                self._pending.extend(Message(channel, {}, gap=True)
                                     for channel in self.channels)
            # SUBSCRIBE is only sent: a message published before the server reads it would
            # miss this subscription, so wait for the server to confirm every channel
            waiting = set(self.channels)
            deadline = time.monotonic() + SUBSCRIBE_TIMEOUT_S
            while waiting:
                if time.monotonic() > deadline:
                    raise self._broker._timeout_error(
                        f"no confirmation of the subscription to {sorted(waiting)}")
                raw = await pubsub.get_message(timeout=0.2)
                if raw is not None and raw["type"] == "subscribe":
                    waiting.discard(_text(raw["channel"]))
                elif raw is not None and raw["type"] == "message":
                    self._pending.append(_message(raw))
        except BaseException:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            raise
        # redis-py may reconnect and resubscribe on its own inside a read's retries; this
        # callback, called after its resubscription, tells the reader of the gap
        pubsub.connection.register_connect_callback(self._on_reconnect)
        self._pubsub = pubsub

    async def _on_reconnect(self, connection: Any) -> None:
        self._joining.clear()
        self._pending.extend(Message(channel, {}, gap=True) for channel in self.channels)

    async def add(self, channels: Iterable[str]) -> None:
        """See :meth:`Subscription.add`: SUBSCRIBE on this subscription's connection; the
        server's confirmation, read by the reader, yields the ``joined`` message (after a
        lost connection the channel is subscribed again with the others, and yields a gap
        instead)."""
        new = [c for c in _channel_list(channels) if c not in self.channels]
        if not new:
            return
        self.channels.extend(new)
        self._joining.update(new)
        if self._pubsub is not None:
            with contextlib.suppress(*self._broker._connection_errors):
                await self._pubsub.subscribe(*new)  # else the reconnection subscribes them

    async def remove(self, channels: Iterable[str]) -> None:
        """See :meth:`Subscription.remove`."""
        gone = [c for c in _channel_list(channels) if c in self.channels]
        if not gone:
            return
        self.channels = [c for c in self.channels if c not in gone]
        self._joining.difference_update(gone)
        if self._pubsub is not None:
            with contextlib.suppress(*self._broker._connection_errors):
                await self._pubsub.unsubscribe(*gone)

    async def _drop(self) -> None:
        """Close the pub/sub connection (deregistering the callback, as the connection goes
        back to the pool); a broken one only needs dropping, so errors are ignored."""
        pubsub, self._pubsub = self._pubsub, None
        if pubsub is None:
            return
        if pubsub.connection is not None:
            pubsub.connection.deregister_connect_callback(self._on_reconnect)
        with contextlib.suppress(Exception):  # the connection may be gone already
            await pubsub.aclose()

    async def __aenter__(self) -> _RedisSubscription:
        self._broker._subscriptions.add(self)
        try:
            await self._broker._call(self._open())
        except BaseException:
            await self.aclose()
            raise
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Unsubscribe and let go of the connection."""
        self._closed = True
        self._broker._subscriptions.discard(self)
        await self._drop()
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):
                await client.aclose()

    def __aiter__(self) -> _RedisSubscription:
        return self

    async def _reconnect(self) -> None:
        await self._drop()
        self._gap_due = True
        attempt = 0
        while not self._closed:
            try:
                await self._open()
            except self._broker._connection_errors:
                await asyncio.sleep(RECONNECT_BACKOFF_S[min(attempt,
                                                            len(RECONNECT_BACKOFF_S) - 1)])
                attempt += 1
                continue
            return

    async def __anext__(self) -> Message:
        if self._pubsub is None and not self._closed:
            raise RuntimeError("enter the subscription with `async with` before reading it")
        while True:
            if self._pending:
                return self._pending.popleft()
            if self._closed:
                raise StopAsyncIteration
            try:
                # a timeout lets the client's health check notice a silent dead connection, and a
                # reader in another task see soon that the subscription was closed
                raw = await self._pubsub.get_message(timeout=0.25)
            except self._broker._connection_errors:
                if self._closed:
                    raise StopAsyncIteration from None
                await self._reconnect()
                continue
            except Exception:
                if self._closed:  # closed under a reader in another task
                    raise StopAsyncIteration from None
                raise
            if raw is None:
                continue
            if raw.get("type") == "subscribe" and _text(raw["channel"]) in self._joining:
                channel = _text(raw["channel"])
                self._joining.discard(channel)
                message = Message(channel, joined=True)
            elif raw.get("type") != "message":
                continue  # the confirmation of a resubscription, of an unsubscription
            elif _text(raw["channel"]) not in self.channels:
                continue  # of a channel let go of, already on its way
            else:
                message = _message(raw)
            if self._pending:  # a reconnection inside that read: its gaps come first
                self._pending.append(message)
                return self._pending.popleft()
            return message


class RedisBroker:
    """The broker of several replicas: a Redis server at ``url`` (``redis://host:port/db``,
    ``rediss://`` for TLS, a password as ``redis://:password@host:port/db``).

    Keys and channels are prefixed with ``prefix`` so that other programs may share the
    database. Commands that fail for want of a connection are retried briefly, then raise
    :class:`BrokerUnavailable`; the client reconnects by itself once the server is back.
    """

    def __init__(self, url: str, *, prefix: str = "lifearena:",
                 connect_timeout_s: float = 1.0) -> None:
        self.url = check_redis_url(url)
        try:
            import redis.asyncio as aioredis
            from redis.asyncio.retry import Retry
            from redis.backoff import ExponentialBackoff
            from redis.exceptions import ConnectionError as RedisConnectionError
            from redis.exceptions import TimeoutError as RedisTimeoutError
        except ImportError:  # pragma: no cover - the web extra installs it
            raise MissingExtra("a redis:// broker needs lifearena's web extra (redis is not "
                               "installed); install it with: pip install 'lifearena[web]'"
                               ) from None
        self.prefix = prefix
        self._connection_errors: tuple[type[BaseException], ...] = (
            RedisConnectionError, RedisTimeoutError, OSError)
        self._timeout_error = RedisTimeoutError

        def new_client() -> Any:
            return aioredis.Redis.from_url(
                url, socket_connect_timeout=connect_timeout_s, socket_timeout=5.0,
                health_check_interval=5,
                retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), retries=2),
                retry_on_error=[RedisConnectionError, RedisTimeoutError])

        self._new_client = new_client
        self._client = new_client()
        self._acquire = self._client.register_script(_ACQUIRE)
        self._renew = self._client.register_script(_RENEW)
        self._release = self._client.register_script(_RELEASE)
        self._mark = self._client.register_script(_MARK)
        self._members = self._client.register_script(_MEMBERS)
        self._subscriptions: set[_RedisSubscription] = set()

    def __repr__(self) -> str:
        return f"RedisBroker({hide_password(self.url)!r})"

    async def _call(self, command: Any) -> Any:
        """Await ``command``, turning a lost connection into :class:`BrokerUnavailable`."""
        try:
            return await command
        except self._connection_errors as error:
            raise BrokerUnavailable(f"the broker at {hide_password(self.url)} cannot be "
                                    f"reached: {error}") from error

    def _key(self, kind: str, key: str) -> str:
        return f"{self.prefix}{kind}:{key}"

    async def ping(self) -> None:
        """See :meth:`Broker.ping`."""
        await self._call(self._client.ping())

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """See :meth:`Broker.publish`."""
        await self._call(self._client.publish(self._key("channel", channel),
                                              _as_json(message)))

    def subscribe(self, channels: Iterable[str]) -> _RedisSubscription:
        """See :meth:`Broker.subscribe`; the :class:`Message` channels are given without
        the prefix."""
        return _PrefixedSubscription(self, _channel_list(channels))

    async def acquire(self, key: str, owner: str, ttl_s: float, *,
                      after: int = 0) -> int | None:
        """See :meth:`Broker.acquire`."""
        token = await self._call(self._acquire(
            keys=[self._key("lease", key), self._key("fence", key)],
            args=[owner, _ttl_ms(ttl_s), int(after)]))
        return None if token is None else int(token)

    async def renew(self, key: str, owner: str, ttl_s: float) -> bool:
        """See :meth:`Broker.renew`."""
        return bool(await self._call(self._renew(keys=[self._key("lease", key)],
                                                 args=[owner, _ttl_ms(ttl_s)])))

    async def renew_many(self, keys: Sequence[str], owner: str, ttl_s: float) -> list[bool]:
        """See :meth:`Broker.renew_many`: one pipeline, one round trip."""
        if not keys:
            return []
        ttl = _ttl_ms(ttl_s)

        async def renewed() -> list[Any]:
            async with self._client.pipeline(transaction=False) as pipe:
                for key in keys:
                    await self._renew(keys=[self._key("lease", key)], args=[owner, ttl],
                                      client=pipe)
                return list(await pipe.execute())
        return [bool(kept) for kept in await self._call(renewed())]

    async def release(self, key: str, owner: str) -> bool:
        """See :meth:`Broker.release`."""
        return bool(await self._call(self._release(keys=[self._key("lease", key)],
                                                   args=[owner])))

    async def count(self, key: str, ttl_s: float) -> int:
        """See :meth:`Broker.count`: ``SET NX PX`` then ``INCR``, in one transaction."""
        ttl = _ttl_ms(ttl_s)
        name = self._key("count", key)

        async def counted() -> int:
            async with self._client.pipeline(transaction=True) as pipe:
                pipe.set(name, 0, px=ttl, nx=True)
                pipe.incr(name)
                return int((await pipe.execute())[1])
        return int(await self._call(counted()))

    async def owner_of(self, key: str) -> str | None:
        """See :meth:`Broker.owner_of`."""
        owner = await self._call(self._client.get(self._key("lease", key)))
        return None if owner is None else owner.decode()

    async def mark(self, key: str, member: str, ttl_s: float) -> None:
        """See :meth:`Broker.mark`."""
        await self._call(self._mark(keys=[self._key("presence", key)],
                                    args=[member, _ttl_ms(ttl_s)]))

    async def unmark(self, key: str, member: str) -> None:
        """See :meth:`Broker.unmark`."""
        await self._call(self._client.zrem(self._key("presence", key), member))

    async def members(self, key: str) -> set[str]:
        """See :meth:`Broker.members`."""
        found = await self._call(self._members(keys=[self._key("presence", key)]))
        return {member.decode() for member in found}

    async def owners_of(self, keys: Sequence[str]) -> list[str | None]:
        """See :meth:`Broker.owners_of`: one ``MGET``."""
        if not keys:
            return []
        found = await self._call(self._client.mget([self._key("lease", k) for k in keys]))
        return [None if owner is None else owner.decode() for owner in found]

    async def mark_all(self, marks: Sequence[tuple[str, str, bool]], ttl_s: float) -> None:
        """See :meth:`Broker.mark_all`: one pipeline."""
        if not marks:
            return
        ttl = _ttl_ms(ttl_s)

        async def marked() -> None:
            async with self._client.pipeline(transaction=False) as pipe:
                for key, member, present in marks:
                    if present:
                        await self._mark(keys=[self._key("presence", key)],
                                         args=[member, ttl], client=pipe)
                    else:
                        pipe.zrem(self._key("presence", key), member)
                await pipe.execute()
        await self._call(marked())

    async def members_of(self, keys: Sequence[str]) -> list[set[str]]:
        """See :meth:`Broker.members_of`: one pipeline."""
        if not keys:
            return []

        async def found() -> list[Any]:
            async with self._client.pipeline(transaction=False) as pipe:
                for key in keys:
                    await self._members(keys=[self._key("presence", key)], client=pipe)
                return list(await pipe.execute())
        return [{member.decode() for member in members} for members in await self._call(found())]

    async def close(self) -> None:
        """Close every subscription and the connection pool."""
        for subscription in list(self._subscriptions):
            await subscription.aclose()
        await self._client.aclose()


class _PrefixedSubscription(_RedisSubscription):
    """A Redis subscription on prefixed channel names that yields them unprefixed."""

    def __init__(self, broker: RedisBroker, channels: list[str]) -> None:
        super().__init__(broker, [broker._key("channel", name) for name in channels])
        self._strip = len(broker._key("channel", ""))

    async def __anext__(self) -> Message:
        message = await super().__anext__()
        return Message(message.channel[self._strip:], message.data, message.gap,
                       message.joined)

    async def add(self, channels: Iterable[str]) -> None:
        """See :meth:`Subscription.add`."""
        await super().add([self._broker._key("channel", c) for c in _channel_list(channels)])

    async def remove(self, channels: Iterable[str]) -> None:
        """See :meth:`Subscription.remove`."""
        await super().remove([self._broker._key("channel", c)
                              for c in _channel_list(channels)])


def open_broker(url: str | None) -> Broker:
    """The broker a ``--broker`` option names: None or ``memory://`` for the in-process
    :class:`MemoryBroker`, a ``redis://`` URL for a :class:`RedisBroker`.

    >>> type(open_broker(None)).__name__
    'MemoryBroker'
    >>> open_broker("postgres://x")
    Traceback (most recent call last):
    lifearena.errors.BadParameterError: broker URL 'postgres://x'; expected redis://host:port/db
    """
    if url is None or url == MemoryBroker.url:
        return MemoryBroker()
    return RedisBroker(url)
