"""The broker's contract (``lifearena.web.broker``), the same on the in-process
:class:`MemoryBroker` and on :class:`RedisBroker`: pub/sub delivery and order, leases and
their fencing tokens, presence with expiry, the :class:`LeaseKeeper`, and on Redis alone a
server restarted mid-way, a bad URL and an unreachable server.

Every case runs in its own event loop (``asyncio.run``) and waits on conditions with
deadlines; the TTLs are a few hundred milliseconds.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brokers import RedisServer, free_port, need_redis_py
from lifearena.errors import BadParameterError
from lifearena.web.broker import (
    Broker,
    BrokerUnavailable,
    MemoryBroker,
    Message,
    RedisBroker,
    Subscription,
    open_broker,
)
from lifearena.web.leases import LeaseKeeper

T = TypeVar("T")
TTL = 0.3
"""A lease's or a presence's time to live in these tests, in seconds."""


@pytest.fixture(params=["memory", "redis"])
def url(request: pytest.FixtureRequest) -> str:
    """Where the brokers of a case meet: ``memory://`` or a Redis database of its own."""
    if request.param == "memory":
        return "memory://"
    found: str = request.getfixturevalue("redis_url")
    return found


def run(scenario: Callable[[], Awaitable[T]], within: float = 8.0) -> T:
    """Run ``scenario()`` in a fresh event loop, failing after ``within`` seconds."""
    async def bounded() -> T:
        return await asyncio.wait_for(scenario(), within)
    return asyncio.run(bounded())


class Replicas:
    """Two brokers as two replicas would hold them: two clients of one Redis database, or
    one :class:`MemoryBroker` (one process has one)."""

    def __init__(self, url: str) -> None:
        self.a = open_broker(url)
        self.b = self.a if isinstance(self.a, MemoryBroker) else open_broker(url)

    async def __aenter__(self) -> Replicas:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.a.close()
        if self.b is not self.a:
            await self.b.close()


async def eventually(check: Callable[[], Awaitable[T]], what: str,
                     within: float = 3.0) -> T:
    """Await ``check()`` until it answers something true, and answer that; fail naming
    ``what`` after ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        found = await check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {within:g} s")
        await asyncio.sleep(0.01)


class Collector:
    """Reads a subscription into ``messages`` in a task of its own."""

    def __init__(self, subscription: Subscription) -> None:
        self.messages: list[Message] = []
        self.task = asyncio.get_running_loop().create_task(self._read(subscription))

    async def _read(self, subscription: Subscription) -> None:
        async for message in subscription:
            self.messages.append(message)

    async def count(self, n: int) -> list[Message]:
        async def enough() -> bool:
            return len(self.messages) >= n
        await eventually(enough, f"{n} messages (have {self.messages})")
        return self.messages

    async def stop(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


# ------------------------------------------------------------------------------ pub/sub


def test_publish_reaches_subscribers_in_order_per_channel(url: str) -> None:
    async def scenario() -> None:
        async with Replicas(url) as replicas:
            await replicas.a.publish("moves", {"n": -1})  # nobody listens yet: lost
            async with replicas.b.subscribe(["moves", "chat"]) as both, \
                    replicas.b.subscribe(["chat"]) as chat_only:
                everything, chat = Collector(both), Collector(chat_only)
                sent = [("moves", 0), ("chat", 0), ("moves", 1), ("moves", 2), ("chat", 1)]
                for channel, n in sent:
                    await replicas.a.publish(channel, {"n": n, "text": "é"})
                got = await everything.count(len(sent))
                for channel in ("moves", "chat"):
                    assert [m.data["n"] for m in got if m.channel == channel] == \
                        [n for c, n in sent if c == channel]
                assert all(m.data["text"] == "é" and not m.gap for m in got)
                assert [(m.channel, m.data["n"]) for m in await chat.count(2)] == \
                    [("chat", 0), ("chat", 1)]
                await everything.stop()
                await chat.stop()
            # unsubscribed on leaving: a later message reaches nobody and harms nothing
            await replicas.a.publish("moves", {"n": 3})

    run(scenario)


def test_a_subscription_takes_channels_and_lets_them_go_while_it_is_read(url: str) -> None:
    """One connection, many channels: a channel added while a reader reads yields
    ``joined`` once confirmed, and its messages from then on; a channel removed delivers
    nothing more; the others are untouched."""
    async def scenario() -> None:
        async with Replicas(url) as replicas, \
                replicas.b.subscribe(["moves"]) as subscription:
            got = Collector(subscription)
            await subscription.add(["game:1", "game:2", "moves"])  # "moves": already in
            joined = await got.count(2)
            assert sorted(m.channel for m in joined) == ["game:1", "game:2"]
            assert all(m.joined and not m.gap and m.data == {} for m in joined)
            await subscription.remove(["game:1"])
            for channel, n in [("game:1", 0), ("game:2", 1), ("moves", 2), ("game:1", 3)]:
                await replicas.a.publish(channel, {"n": n})
            await replicas.a.publish("moves", {"n": 4})  # the last: all before it came
            after = (await got.count(5))[2:]
            assert [(m.channel, m.data["n"], m.joined) for m in after] == [
                ("game:2", 1, False), ("moves", 2, False), ("moves", 4, False)]
            await got.stop()

    run(scenario)


def test_leaving_or_closing_ends_a_reader_in_another_task(url: str) -> None:
    async def scenario() -> None:
        broker = open_broker(url)
        try:
            async with broker.subscribe(["moves"]) as moves:
                left = Collector(moves)
            await asyncio.wait_for(left.task, 3)  # ended, not cancelled
            async with broker.subscribe(["moves"]) as moves:
                closed = Collector(moves)
                await broker.publish("moves", {"n": 1})
                await closed.count(1)
                await broker.close()
                await asyncio.wait_for(closed.task, 3)
        finally:
            await broker.close()

    run(scenario)


def test_messages_must_be_json_objects(url: str) -> None:
    async def scenario() -> None:
        async with Replicas(url) as replicas:
            for bad in (["a list"], "text", {"x": float("nan")}):
                with pytest.raises(ValueError):
                    await replicas.a.publish("moves", bad)  # type: ignore[arg-type]
            with pytest.raises(BadParameterError, match="channel"):
                replicas.a.subscribe([])

    run(scenario)


# ------------------------------------------------------------------------------ leases


def test_leases_are_exclusive_until_they_expire(url: str) -> None:
    async def scenario() -> None:
        async with Replicas(url) as replicas:
            first = await replicas.a.acquire("game:g1", "a", TTL)
            assert first is not None and first >= 1
            assert await replicas.b.acquire("game:g1", "b", TTL) is None
            assert await replicas.a.acquire("game:g1", "a", TTL) is None  # owners renew
            assert await replicas.b.owner_of("game:g1") == "a"
            assert await replicas.b.acquire("game:g2", "b", TTL) is not None  # other key

            async def free() -> bool:
                return await replicas.b.owner_of("game:g1") is None
            await eventually(free, "the lease's expiry")
            second = await replicas.b.acquire("game:g1", "b", TTL)
            assert second is not None and second > first
            assert await replicas.a.owner_of("game:g1") == "b"

    run(scenario)


def test_only_the_owner_renews_and_renewing_extends(url: str) -> None:
    async def scenario() -> None:
        async with Replicas(url) as replicas:
            await replicas.a.acquire("game:kept", "a", TTL)
            await replicas.a.acquire("game:left", "a", TTL)
            assert not await replicas.b.renew("game:kept", "b", 30)
            assert await replicas.a.renew("game:kept", "a", 30)

            async def left_expired() -> bool:
                return await replicas.a.owner_of("game:left") is None
            await eventually(left_expired, "the expiry of the lease not renewed")
            assert await replicas.b.owner_of("game:kept") == "a"
            assert not await replicas.a.renew("game:left", "a", 30)  # too late
            assert not await replicas.a.renew("game:nothing", "a", 30)

    run(scenario)


def test_renewing_many_leases_at_once_renews_each_as_renew_would(url: str) -> None:
    async def scenario() -> None:
        async with Replicas(url) as replicas:
            await replicas.a.acquire("game:mine", "a", TTL)
            await replicas.b.acquire("game:theirs", "b", TTL)
            assert await replicas.a.renew_many([], "a", 30) == []
            assert await replicas.a.renew_many(
                ["game:mine", "game:theirs", "game:nothing", "game:mine"], "a", 30) == [
                    True, False, False, True]

            async def theirs_expired() -> bool:
                return await replicas.a.owner_of("game:theirs") is None
            await eventually(theirs_expired, "the expiry of the lease b did not renew")
            assert await replicas.b.owner_of("game:mine") == "a"  # renewed past TTL

    run(scenario)


def test_only_the_owner_releases(url: str) -> None:
    async def scenario() -> None:
        async with Replicas(url) as replicas:
            await replicas.a.acquire("game:g1", "a", 30)
            assert not await replicas.b.release("game:g1", "b")
            assert await replicas.b.owner_of("game:g1") == "a"
            assert await replicas.a.release("game:g1", "a")
            assert await replicas.a.owner_of("game:g1") is None
            assert not await replicas.a.release("game:g1", "a")
            assert await replicas.b.acquire("game:g1", "b", 30) is not None

    run(scenario)


def test_fencing_tokens_strictly_increase_per_key(url: str) -> None:
    async def scenario() -> None:
        async with Replicas(url) as replicas:
            tokens = []
            for turn in range(6):
                broker, owner = (replicas.a, "a") if turn % 2 else (replicas.b, "b")
                token = await broker.acquire("game:g1", owner, 30)
                assert token is not None
                tokens.append(token)
                assert await broker.release("game:g1", owner)
            assert tokens == sorted(set(tokens)) and len(tokens) == 6
            # refused acquisitions use no token; keys count apart
            assert await replicas.a.acquire("game:g2", "a", 30) == 1
            assert await replicas.b.acquire("game:g2", "b", 30) is None
            # a floor from the store (after a Redis that forgot its counters)
            await replicas.a.release("game:g2", "a")
            assert await replicas.b.acquire("game:g2", "b", 30, after=100) == 101
            await replicas.b.release("game:g2", "b")
            assert await replicas.a.acquire("game:g2", "a", 30, after=5) == 102

    run(scenario)


def test_bad_lease_times_are_refused(url: str) -> None:
    async def scenario() -> None:
        async with Replicas(url) as replicas:
            for ttl in (0, -1, float("inf"), float("nan")):
                with pytest.raises(BadParameterError, match="expected a positive number"):
                    await replicas.a.acquire("game:g1", "a", ttl)

    run(scenario)


# ------------------------------------------------------------------------------ presence


def test_presence_members_leave_when_their_time_runs_out(url: str) -> None:
    async def scenario() -> None:
        async with Replicas(url) as replicas:
            await replicas.a.mark("online", "ann", TTL)
            await replicas.b.mark("online", "bob", 30)
            await replicas.b.mark("turn:g1", "ann", 30)
            assert await replicas.a.members("online") == {"ann", "bob"}

            async def ann_gone() -> bool:
                return await replicas.b.members("online") == {"bob"}
            await eventually(ann_gone, "ann's presence expiring")
            assert await replicas.a.members("turn:g1") == {"ann"}  # sets count apart
            await replicas.a.mark("online", "bob", TTL)  # marking again sets the expiry
            await replicas.a.unmark("turn:g1", "ann")
            assert await replicas.a.members("turn:g1") == set()
            assert await replicas.a.members("never") == set()

            async def bob_gone() -> bool:
                return await replicas.b.members("online") == set()
            await eventually(bob_gone, "bob's shortened presence expiring")

    run(scenario)


def test_counters_count_across_replicas_and_start_afresh_when_their_time_runs_out(
        url: str) -> None:
    async def scenario() -> None:
        async with Replicas(url) as replicas:
            counted = await asyncio.gather(*(broker.count("made:a", TTL)
                                             for broker in (replicas.a, replicas.b) * 5))
            assert sorted(counted) == list(range(1, 11))  # each addition seen once
            assert await replicas.b.count("made:b", 30) == 1  # counters count apart

            async def afresh() -> bool:
                return await replicas.a.count("made:a", TTL) == 1
            await eventually(afresh, "the counter gone with its time")
            with pytest.raises(BadParameterError):
                await replicas.a.count("made:c", 0)

    run(scenario)


def test_the_batched_calls_answer_as_one_call_each_would(url: str) -> None:
    """owners_of, mark_all and members_of (one round trip each on Redis) against
    owner_of, mark, unmark and members called one by one."""
    async def scenario() -> None:
        async with Replicas(url) as replicas:
            await replicas.a.acquire("game:g1", "a", 30)
            await replicas.b.acquire("game:g3", "b", 30)
            keys = ["game:g1", "game:g2", "game:g3"]
            assert await replicas.a.owners_of(keys) == [
                await replicas.b.owner_of(k) for k in keys] == ["a", None, "b"]
            assert await replicas.a.owners_of([]) == []
            await replicas.a.mark("pages:g1", "old", 30)
            await replicas.a.mark_all([("pages:g1", "a:0", True), ("pages:g1", "old", False),
                                       ("pages:g2", "a:1", True), ("pages:g9", "x", False)],
                                      TTL)
            await replicas.a.mark_all([], TTL)
            sets = ["pages:g1", "pages:g2", "pages:none"]
            assert await replicas.b.members_of(sets) == [
                await replicas.a.members(k) for k in sets] == [{"a:0"}, {"a:1"}, set()]

            async def marks_expired() -> bool:  # marked with the TTL given to mark_all
                return await replicas.b.members_of(sets) == [set(), set(), set()]
            await eventually(marks_expired, "the expiry of the batched marks")
            assert await replicas.b.members_of([]) == []

    run(scenario)


# ------------------------------------------------------------------------------ keeper


def test_the_keeper_renews_its_leases(url: str) -> None:
    async def scenario() -> None:
        async with Replicas(url) as replicas, \
                LeaseKeeper(replicas.a, "a", TTL) as keeper:
            assert await keeper.claim("g1") == 1
            assert await keeper.claim("g1") == 1  # already held here
            rounds = keeper.renewals

            async def past_ttl() -> bool:  # five rounds a third of a TTL apart
                return keeper.renewals >= rounds + 5
            await eventually(past_ttl, "five renewal rounds")
            assert await replicas.b.owner_of("game:g1") == "a"
            assert await replicas.b.acquire("game:g1", "b", TTL) is None
            assert keeper.held == {"g1": 1}
        assert await replicas_owner(url, replicas, "game:g1") is None  # released on leaving

    run(scenario)


async def replicas_owner(url: str, replicas: Replicas, key: str) -> str | None:
    """Who holds ``key``, asked on a fresh client (the replicas' are closed)."""
    if isinstance(replicas.a, MemoryBroker):
        return await replicas.a.owner_of(key)
    broker = open_broker(url)
    try:
        return await broker.owner_of(key)
    finally:
        await broker.close()


def test_the_keeper_reports_a_lease_taken_by_another_owner(url: str) -> None:
    async def scenario() -> None:
        lost: list[str] = []

        async def on_lost(game_id: str) -> None:
            lost.append(game_id)

        async with Replicas(url) as replicas, \
                LeaseKeeper(replicas.a, "a", TTL, on_lost=on_lost) as keeper:
            await keeper.claim("g1")
            await keeper.claim("g2")
            # as if a's lease had run out during a pause: b takes the key
            assert await replicas.b.release("game:g1", "a")
            taken = await replicas.b.acquire("game:g1", "b", 30)
            assert taken == 2

            async def reported() -> list[str]:
                return lost
            assert await eventually(reported, "the lost lease reported") == ["g1"]
            assert keeper.held == {"g2": 1}
            assert await replicas.a.owner_of("game:g1") == "b"
            assert await replicas.a.owner_of("game:g2") == "a"

    run(scenario)


def test_a_dead_replicas_games_are_claimed_after_the_ttl(url: str) -> None:
    async def scenario() -> None:
        async with Replicas(url) as replicas:
            dead = LeaseKeeper(replicas.a, "a", TTL)
            dead.start()
            first = await dead.claim("g1")
            assert first is not None
            await dead.stop(release=False)  # kill -9: nothing given back
            async with LeaseKeeper(replicas.b, "b", TTL) as heir:
                assert await heir.claim("g1") is None
                started = time.monotonic()

                async def claimed() -> int | None:
                    return await heir.claim("g1")
                token = await eventually(claimed, "the dead replica's game claimed")
                assert token > first
                assert time.monotonic() - started < TTL + 0.5

    run(scenario)


def test_the_keeper_refuses_a_bad_ttl() -> None:
    with pytest.raises(BadParameterError, match="ttl_s"):
        LeaseKeeper(MemoryBroker(), "a", 0)


# ------------------------------------------------------------------------------ Redis


def test_a_restarted_redis_loses_messages_and_the_broker_reconnects(
        redis_server: RedisServer) -> None:
    async def scenario() -> None:
        url = redis_server.url(0)
        publisher, subscriber = RedisBroker(url), RedisBroker(url)
        lost: list[str] = []
        keeper = LeaseKeeper(subscriber, "b", 30, on_lost=lost.append)
        try:
            before = await keeper.claim("g1")
            assert before == 1
            async with subscriber.subscribe(["moves"]) as moves:
                collected = Collector(moves)
                await publisher.publish("moves", {"n": 1})
                await collected.count(1)

                redis_server.stop()
                with pytest.raises(BrokerUnavailable, match=f"127.0.0.1:{redis_server.port}"):
                    await publisher.publish("moves", {"n": 2})  # lost, and said so
                with pytest.raises(BrokerUnavailable):
                    await publisher.acquire("game:g2", "a", 30)
                redis_server.start()

                got = await collected.count(2)  # the subscription came back by itself
                assert got[1] == Message("moves", {}, gap=True)
                await publisher.publish("moves", {"n": 3})
                got = await collected.count(3)
                assert [(m.data.get("n"), m.gap) for m in got] == \
                    [(1, False), (None, True), (3, False)]
                await collected.stop()

            # the server came back empty: the lease is gone, and the keeper says so
            assert await keeper.renew_all() == ["g1"] and lost == ["g1"]
            after = await keeper.claim("g1", after=before)
            assert after is not None and after > before
        finally:
            await keeper.stop()
            await publisher.close()
            await subscriber.close()

    run(scenario, within=15)


def test_a_dropped_subscription_connection_comes_back_with_a_gap(
        redis_server: RedisServer) -> None:
    """The server stays up but drops the subscriber's connection (CLIENT KILL, as a proxy
    or a network blip would): the client reconnects at once and says what may be lost."""
    import redis

    async def scenario() -> None:
        broker = RedisBroker(redis_server.url(0))
        admin = redis.asyncio.Redis.from_url(redis_server.url(0))
        try:
            async with broker.subscribe(["moves", "chat"]) as moves:
                collected = Collector(moves)
                await broker.publish("moves", {"n": 1})
                await collected.count(1)
                assert await admin.client_kill_filter(_type="pubsub") == 1
                got = await collected.count(3)
                assert sorted(m.channel for m in got[1:]) == ["chat", "moves"]
                assert all(m.gap and m.data == {} for m in got[1:])
                await broker.publish("moves", {"n": 2})
                assert (await collected.count(4))[3] == Message("moves", {"n": 2})
                await collected.stop()
        finally:
            await admin.aclose()
            await broker.close()

    run(scenario)


def test_the_keeper_gives_up_a_lease_it_cannot_renew_for_a_whole_ttl(
        redis_server: RedisServer) -> None:
    async def scenario() -> None:
        lost: list[str] = []
        broker = RedisBroker(redis_server.url(0))
        keeper = LeaseKeeper(broker, "a", TTL, on_lost=lost.append)
        try:
            await keeper.claim("g1")
            keeper.start()
            rounds = keeper.renewals

            async def renewed() -> bool:
                return keeper.renewals >= rounds + 2
            await eventually(renewed, "two renewal rounds")
            redis_server.stop()  # within a poll (10 ms) of the last renewal that reached it
            stopped = time.monotonic()

            async def reported() -> list[str]:
                return lost
            assert await eventually(reported, "the unrenewable lease reported") == ["g1"]
            # not before a whole TTL since the last renewal that reached the server (giving
            # up at the first failure would report it a third of a TTL after the stop)
            assert time.monotonic() - stopped >= TTL - 0.02
            assert keeper.held == {}
        finally:
            await keeper.stop()
            await broker.close()

    run(scenario)


@pytest.mark.parametrize("bad", [
    "http://127.0.0.1:6379/0", "redis://", "redis://host:port/0", "redis://host:6379/x",
    "redis://host:6379/0/1", "redis://:s3cret@host:99999/0", "127.0.0.1:6379", "",
])
def test_a_bad_url_is_one_line_naming_the_expected_form(bad: str) -> None:
    with pytest.raises(BadParameterError) as caught:
        open_broker(bad)
    message = str(caught.value)
    assert "expected redis://host:port/db" in message
    assert "\n" not in message and "s3cret" not in message


def test_an_unreachable_server_is_one_clear_error_without_the_password() -> None:
    need_redis_py()
    async def scenario() -> None:
        url = f"redis://:s3cret@127.0.0.1:{free_port()}/0"
        broker = RedisBroker(url)
        try:
            for action in (broker.ping(), broker.publish("moves", {}),
                           broker.acquire("game:g1", "a", 1), broker.members("online")):
                with pytest.raises(BrokerUnavailable) as caught:
                    await action
                assert "redis://:***@127.0.0.1" in str(caught.value)
                assert "s3cret" not in str(caught.value)
            with pytest.raises(BrokerUnavailable):
                async with broker.subscribe(["moves"]):
                    pass
        finally:
            await broker.close()

    run(scenario)


def test_both_brokers_are_brokers() -> None:
    need_redis_py()
    assert isinstance(MemoryBroker(), Broker)
    assert isinstance(open_broker("redis://127.0.0.1:6379/0"), Broker)


KEYS = st.sampled_from(["k1", "k2"])
OWNERS = st.sampled_from(["a", "b", "c"])
OPERATIONS = st.lists(st.one_of(
    st.tuples(st.just("acquire"), KEYS, OWNERS, st.integers(0, 4)),
    st.tuples(st.sampled_from(["renew", "release", "mark", "unmark"]), KEYS, OWNERS),
    st.tuples(st.sampled_from(["owner_of", "members"]), KEYS),
), max_size=30)
_examples = itertools.count()


async def answers(broker: Broker, operations: list[tuple[Any, ...]]) -> list[object]:
    """What ``broker`` answers to each of ``operations`` (TTLs too long to run out)."""
    found: list[object] = []
    for name, key, *rest in operations:
        if name == "acquire":
            found.append(await broker.acquire(key, rest[0], 60, after=rest[1]))
        elif name == "renew":
            found.append(await broker.renew(key, rest[0], 60))
        elif name == "release":
            found.append(await broker.release(key, rest[0]))
        elif name == "mark":
            found.append(await broker.mark(key, rest[0], 60))
        elif name == "unmark":
            found.append(await broker.unmark(key, rest[0]))
        else:
            found.append(await getattr(broker, name)(key))
    return found


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_redis_answers_as_the_memory_broker_does(redis_url: str,
                                                 operations: list[tuple[Any, ...]]) -> None:
    async def scenario() -> tuple[list[object], list[object]]:
        redis = RedisBroker(redis_url, prefix=f"example{next(_examples)}:")
        try:
            return await answers(MemoryBroker(), operations), await answers(redis, operations)
        finally:
            await redis.close()

    in_memory, on_redis = run(scenario)
    assert on_redis == in_memory
