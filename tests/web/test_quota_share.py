"""The creation quota counted across replicas (:mod:`lifearena.web.quota_share`): a client
that spreads its creations over two replicas gets its quota and at most one more creation
per replica, not twice its quota; a replica whose broker stops answering counts alone."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from lifearena.web.broker import BrokerUnavailable, MemoryBroker
from lifearena.web.limits import CreationRate, TooMany
from lifearena.web.quota_share import SharedCreations

ADDRESS = "203.0.113.7"


def linked(broker: Any, per_minute: int) -> CreationRate:
    rate = CreationRate(per_minute)
    rate.shared = SharedCreations(broker, per_minute)
    rate.shared.start()
    return rate


async def made_alternately(replicas: list[CreationRate], tries: int) -> int:
    """Creations of one address let through when it alternates between ``replicas``, each
    creation's count sent before the next request."""
    made = 0
    for attempt in range(tries):
        rate = replicas[attempt % len(replicas)]
        try:
            rate.check(ADDRESS)
        except TooMany:
            continue
        rate.count(ADDRESS)
        made += 1
        if isinstance(rate.shared, SharedCreations):
            await rate.shared.settled()
    return made


def test_a_client_spreading_its_creations_over_replicas_gets_its_quota_and_one_more_each(
        ) -> None:
    async def scenario() -> tuple[int, int]:
        broker = MemoryBroker()
        shared = [linked(broker, 3), linked(broker, 3)]
        apart = [CreationRate(3), CreationRate(3)]  # the same replicas, counting alone
        counts = await made_alternately(shared, 12), await made_alternately(apart, 12)
        for rate in shared:
            assert isinstance(rate.shared, SharedCreations)
            await rate.shared.stop()
        return counts

    shared, apart = asyncio.run(asyncio.wait_for(scenario(), 10))
    assert apart == 6  # three on each replica
    assert shared == 4  # a, b, a, then b, which had last heard 2


class DownBroker(MemoryBroker):
    async def count(self, key: str, ttl_s: float) -> int:
        raise BrokerUnavailable("the broker at redis://127.0.0.1:1 cannot be reached")


def test_without_its_broker_a_replica_counts_alone(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> int:
        rate = linked(DownBroker(), 2)
        made = await made_alternately([rate], 5)
        assert isinstance(rate.shared, SharedCreations)
        await rate.shared.stop()
        return made

    assert asyncio.run(asyncio.wait_for(scenario(), 10)) == 2  # its own quota still holds
    assert [r.message for r in caplog.records].count(
        "the creation quota is counted per replica until the broker answers again: the "
        "broker at redis://127.0.0.1:1 cannot be reached") == 1  # said once, not per request


def test_replicas_share_the_quota_of_the_new_game_form(tmp_path: Path) -> None:
    """Two in-process replicas (rooms over one memory broker): the new-game form's
    creations of one address count on both."""
    from lifearena.web.models import NewGame
    from lifearena.web.rooms.cluster import ReplicatedRooms
    from lifearena.web.settings import Settings
    from lifearena.web.sockets import LocalTransport
    from lifearena.web.store import Store

    broker = MemoryBroker()
    stores = [Store(tmp_path / "games.sqlite") for _ in range(2)]
    replicas = [ReplicatedRooms(Settings(tmp_path / "games.sqlite", agent_workers="thread"),
                                store, LocalTransport(), broker=broker, replica=name,
                                creations=CreationRate(2))
                for store, name in zip(stores, ("one", "two"), strict=True)]

    async def scenario() -> list[str]:
        for rooms in replicas:
            await rooms.join()
        said = []
        for rooms in (*replicas, *replicas):
            try:
                rooms.create(NewGame(game="blocking_queen", opponent="hotseat"), ADDRESS)
                said.append("made")
            except TooMany as refusal:
                said.append(str(refusal).split(" from")[0])
            assert isinstance(rooms.creations.shared, SharedCreations)
            await rooms.creations.shared.settled()
        for rooms in replicas:
            await rooms.leave()
            for task in list(rooms.tasks):
                task.cancel()
        return said

    try:
        said = asyncio.run(asyncio.wait_for(scenario(), 20))
    finally:
        for store in stores:
            store.close()
    assert said == ["made", "made", "made", "2 games created"]
