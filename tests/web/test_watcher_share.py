"""Spectators counted over replicas (:mod:`lifearena.web.watcher_share`): each replica's
pages reach the others' lists, a page closing is told, a replica that stops telling is
forgotten, and the listing of a replica counts the others' spectators."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from brokers import run_within, until
from lifearena.web.broker import MemoryBroker
from lifearena.web.rooms.presence import Presence
from lifearena.web.watcher_share import WatcherShare


async def replica(broker: MemoryBroker, name: str) -> tuple[Presence, WatcherShare]:
    presence = Presence(lambda game_id: None)
    share = WatcherShare(broker, name, presence=presence, send_s=0.01)
    await share.start()
    return presence, share


def test_each_replica_hears_the_others_spectators_come_and_go() -> None:
    async def scenario() -> None:
        broker = MemoryBroker()
        (here, a), (there, b), (third, c) = [await replica(broker, n) for n in "abc"]
        here.open("g1", "a1", [])
        here.open("g1", "a2", [1])  # a player's page is nobody watching
        there.open("g1", "b1", [])
        there.open("g1", "b2", [])
        third.open("g2", "c1", [])
        await until(lambda: (a.elsewhere("g1"), c.elsewhere("g1"), a.elsewhere("g2"))
                    == (2, 3, 1), "every count told")
        assert a.watched_elsewhere() == {"g1", "g2"} and b.elsewhere("g1") == 1
        there.close("g1", "b1")
        there.close("g1", "b2")
        await until(lambda: a.elsewhere("g1") == 0 and c.elsewhere("g1") == 1,
                    "the closed pages told")
        assert a.watched_elsewhere() == {"g2"}
        for share in (a, b, c):
            await share.stop()

    run_within(scenario)


def test_a_replica_that_stops_telling_is_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    from lifearena.web import watcher_share

    monkeypatch.setattr(watcher_share, "FORGET_S", 0.3)

    async def scenario() -> None:
        broker = MemoryBroker()
        (here, a), (_, b) = await replica(broker, "a"), await replica(broker, "b")
        here.open("g1", "a1", [])
        await until(lambda: b.elsewhere("g1") == 1, "a's spectator told")
        await a.stop()  # as a killed replica: nothing more from it
        await until(lambda: b.elsewhere("g1") == 0, "a forgotten")
        await b.stop()

    run_within(scenario)


def test_a_replicas_listing_counts_the_spectators_of_the_other(tmp_path: Path) -> None:
    """Two in-process replicas: a spectator's page open on ``two`` shows in ``one``'s
    list of games being played (the home page's "1 watching")."""
    from lifearena.web.models import NewGame

    from .test_replicas import in_process_replicas, leave_all, run_closing

    _, one, two, stores = in_process_replicas(tmp_path)

    async def scenario() -> None:
        await one.join()
        await two.join()
        made = one.create(NewGame(game="blocking_queen", opponent="hotseat"), "203.0.113.7")

        def watchers() -> int:
            listed = [g for g in one.recent()["games"] if g["id"] == made["id"]]
            return listed[0]["watchers"] if listed else -1

        assert watchers() == 0
        two.presence.open(made["id"], "a spectator's page on two", [])
        await until(lambda: watchers() == 1, "two's spectator in one's list")
        two.presence.close(made["id"], "a spectator's page on two")
        await until(lambda: watchers() == 0, "gone from one's list")
        await leave_all(one, two)

    run_closing(lambda: asyncio.wait_for(scenario(), 20), stores)
