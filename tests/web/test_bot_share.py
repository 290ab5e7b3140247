"""Two replicas' bot API streams and challenges linked over one in-process broker, as over
Redis (:mod:`lifearena.web.bot_share`): a line told on one reaches the streams on the other,
a challenge made on one is answered on the other, one answer per challenge, a replica that
joins late learns what is open."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from brokers import run_within, until
from lifearena.web.bot_events import BotEvents
from lifearena.web.bot_share import BotShare
from lifearena.web.broker import Broker, MemoryBroker
from lifearena.web.feeds import Feed
from lifearena.web.player_challenges import ChallengeAnswered


async def linked(broker: Broker, name: str) -> BotEvents:
    hub = BotEvents(None)
    share = BotShare(broker, name, hub=hub)
    hub.share = share
    await share.start()
    return hub


async def stop(*hubs: BotEvents) -> None:
    for hub in hubs:
        assert isinstance(hub.share, BotShare)
        await hub.share.stop()


def lines(feed: Feed) -> list[dict[str, Any]]:
    """What ``feed`` holds unsent, read without waiting."""
    queue = feed._queue  # type: ignore[attr-defined]
    found = []
    while not queue.empty():
        line = queue.get_nowait()
        if line:
            found.append(json.loads(line))
    return found


def challenge(hub: BotEvents, challenger: str = "ann", dest: str = "robo") -> Any:
    made = hub.challenges.create(challenger, "203.0.113.7", dest, "blocking_queen", {"k": 2},
                                 None, False, 0)
    hub.challenge_made(made)
    return made


def test_a_challenge_made_on_one_replica_reaches_the_bots_stream_on_the_other() -> None:
    async def scenario() -> None:
        broker = MemoryBroker()
        a, b = await linked(broker, "a"), await linked(broker, "b")
        robo = b.open_events("robo", "t:robo")
        ann = a.open_events("ann", "t:ann")
        made = challenge(a)
        await until(lambda: made.id in b.challenges.open, "the copy on b")
        heard: list[dict[str, Any]] = []
        await until(lambda: bool(heard.extend(lines(robo)) or heard), "the line on b")
        assert [(m["type"], m["challenge"]["id"]) for m in heard] == [("challenge", made.id)]
        assert [m["type"] for m in lines(ann)] == ["challenge"]  # told once, where it was made
        assert [c.id for c in b.challenges.incoming("robo")] == [made.id]
        await b.claim(b.challenges.answerable(made.id, "robo"), "declined")
        b.challenges.close(b.challenges.get(made.id), "declined", reason="later")
        await until(lambda: made.id not in a.challenges.open, "closed on a")
        assert (a.challenges.get(made.id).status, a.challenges.get(made.id).reason) == (
            "declined", "later")
        told: list[dict[str, Any]] = []
        await until(lambda: bool(told.extend(lines(ann)) or told), "ann told on a")
        assert [m["type"] for m in told] == ["challengeDeclined"]
        assert [m["type"] for m in lines(robo)] == ["challengeDeclined"]  # once, on b
        await stop(a, b)

    run_within(scenario)


@pytest.mark.parametrize("second", ["accepted", "declined", "cancelled"])
def test_only_the_first_answer_of_a_challenge_wins(second: str) -> None:
    async def scenario() -> None:
        broker = MemoryBroker()
        a, b = await linked(broker, "a"), await linked(broker, "b")
        made = challenge(a)
        await until(lambda: made.id in b.challenges.open, "the copy on b")
        await b.claim(b.challenges.get(made.id), "accepted")
        with pytest.raises(ChallengeAnswered):
            await a.claim(a.challenges.get(made.id), second)
        assert a.challenges.get(made.id).status == "accepted"  # the lease said why
        await stop(a, b)

    run_within(scenario)


def test_expiry_is_told_by_each_replica_to_its_own_streams_once() -> None:
    async def scenario() -> None:
        broker = MemoryBroker()
        a, b = await linked(broker, "a"), await linked(broker, "b")
        now = [0.0]
        for hub in (a, b):
            hub.challenges.clock = lambda: now[0]
        robo_a, robo_b = a.open_events("robo", "t:1"), b.open_events("robo", "t:2")
        made = challenge(a)
        await until(lambda: made.id in b.challenges.open, "the copy on b")
        told: list[dict[str, Any]] = []
        await until(lambda: bool(told.extend(lines(robo_b)) or told), "the challenge on b")
        assert [m["type"] for m in told + lines(robo_a)] == ["challenge", "challenge"]
        now[0] = made.expires + 1
        a.challenges.sweep()
        b.challenges.sweep()
        for _ in range(50):  # anything (wrongly) sent between them would arrive meanwhile
            await asyncio.sleep(0.002)
        assert [m["type"] for m in lines(robo_a)] == ["challengeCanceled"]
        assert [m["type"] for m in lines(robo_b)] == ["challengeCanceled"]
        await stop(a, b)

    run_within(scenario)


def test_a_replica_linked_late_learns_the_open_challenges_and_an_answer_waits_for_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from lifearena.web import bot_share

    monkeypatch.setattr(bot_share, "ARRIVAL_S", 0.2)

    async def scenario() -> None:
        broker = MemoryBroker()
        a = await linked(broker, "a")
        made = challenge(a)
        late = await linked(broker, "late")
        await until(lambda: made.id in late.challenges.open, "learnt by the late one")
        other = challenge(a, "bea")
        assert not late.challenges.known(other.id)  # its news is still on its way
        await late.arrival(other.id)
        assert late.challenges.answerable(other.id, "robo").id == other.id
        loop = asyncio.get_running_loop()
        started = loop.time()
        await late.arrival("nonesuch0000")
        assert loop.time() - started >= 0.2
        started = loop.time()
        await late.arrival("x" * 200)
        assert loop.time() - started < 0.1
        await stop(a, late)

    run_within(scenario)
