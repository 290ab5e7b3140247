"""Two lobbies linked over one in-process broker, as two replicas' are over Redis
(:mod:`lifearena.web.lobby_share`): what one makes the other lists, one outcome per
challenge, a late joiner learns what is open."""

from __future__ import annotations

import asyncio

import pytest

from brokers import need_redis_py, own_redis, run_within, until
from lifearena.web.broker import Broker, MemoryBroker, RedisBroker
from lifearena.web.lobby import ChallengeClosed, Lobby
from lifearena.web.lobby_share import LobbyShare
from lifearena.web.models import NewChallenge

CHALLENGE = {"game": "blocking_queen", "colour": 0}


async def linked(broker: Broker, name: str) -> Lobby:
    lobby = Lobby()
    lobby.share = LobbyShare(broker, name, lobby=lobby)
    await lobby.share.start()
    return lobby


def test_a_challenge_made_on_one_is_listed_and_closed_on_the_other() -> None:
    async def scenario() -> None:
        broker = MemoryBroker()
        a, b = await linked(broker, "a"), await linked(broker, "b")
        made = a.create(NewChallenge.model_validate(CHALLENGE), "203.0.113.7")
        await until(lambda: made["id"] in b.open, "listed on b")
        assert b.addresses == {"203.0.113.7": 1}
        challenge = b.take(made["id"], None)
        assert b.share is not None
        await b.share.claim(challenge, "accepted")
        b.accepted(challenge, "g1", 0, "creator-token")
        await until(lambda: made["id"] not in a.open, "closed on a")
        closed = a.get(made["id"])
        assert (closed.status, closed.game_id, closed.token) == ("accepted", "g1",
                                                                 "creator-token")
        await a.stop()
        await b.stop()

    run_within(scenario)


@pytest.mark.parametrize("second", ["accepted", "cancelled"])
def test_only_the_first_claim_of_a_challenge_wins(second: str) -> None:
    async def scenario() -> None:
        broker = MemoryBroker()
        a, b = await linked(broker, "a"), await linked(broker, "b")
        made = a.create(NewChallenge.model_validate(CHALLENGE), "203.0.113.7")
        await until(lambda: made["id"] in b.open, "listed on b")
        assert a.share is not None and b.share is not None
        await b.share.claim(b.get(made["id"]), "accepted")
        with pytest.raises(ChallengeClosed):
            await a.share.claim(a.get(made["id"]), second)  # type: ignore[arg-type]
        assert a.get(made["id"]).status == "accepted"  # the lease told why
        await a.stop()
        await b.stop()

    run_within(scenario)


def test_a_lobby_linked_late_learns_the_open_challenges() -> None:
    async def scenario() -> None:
        broker = MemoryBroker()
        a = await linked(broker, "a")
        made = a.create(NewChallenge.model_validate(CHALLENGE), "203.0.113.7")
        late = await linked(broker, "late")
        await until(lambda: made["id"] in late.open, "learnt by the late one")
        assert late.owners[made["owner"]] == made["id"]
        await a.stop()
        await late.stop()

    run_within(scenario)


def test_a_lobby_learns_what_was_made_while_redis_was_down() -> None:
    """Redis stops while a challenge is made on one replica (its news cannot be sent) and
    comes back empty: the other replica's subscription comes back with a gap, its hello
    asks what is open, and the challenge is listed there."""
    need_redis_py()
    with own_redis() as server:
        async def scenario() -> None:
            brokers = [RedisBroker(server.url()), RedisBroker(server.url())]
            a, b = await linked(brokers[0], "a"), await linked(brokers[1], "b")
            server.stop()
            made = a.create(NewChallenge.model_validate(CHALLENGE), "203.0.113.7")
            server.start()
            await until(lambda: made["id"] in b.open, "learnt by b after the restart")
            assert b.owners[made["owner"]] == made["id"]
            for lobby in (a, b):
                await lobby.stop()
            for broker in brokers:
                await broker.close()

        run_within(scenario, within=30)


def test_a_request_for_a_challenge_still_on_its_way_waits_for_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Accepting (or asking after) a challenge made on another replica a moment ago waits
    for its news instead of answering 404; an id that never comes is given up after
    ARRIVAL_S, and one no challenge could have at once."""
    from lifearena.web import lobby_share

    monkeypatch.setattr(lobby_share, "ARRIVAL_S", 0.2)

    async def scenario() -> None:
        broker = MemoryBroker()
        a, b = await linked(broker, "a"), await linked(broker, "b")
        made = a.create(NewChallenge.model_validate(CHALLENGE), "203.0.113.7")
        assert not b.known(made["id"])  # its news is still on its way
        await b.reached(made["id"])
        assert b.take(made["id"], None).id == made["id"]
        loop = asyncio.get_running_loop()
        started = loop.time()
        await b.reached("nonesuch0000")
        assert not b.known("nonesuch0000") and loop.time() - started >= 0.2
        started = loop.time()
        await b.reached("x" * 200)
        assert loop.time() - started < 0.1
        assert b.share is not None and b.share._awaited == {}  # type: ignore[attr-defined]
        await a.stop()
        await b.stop()

    run_within(scenario)


def test_a_creator_asking_after_an_acceptance_elsewhere_waits_for_its_news() -> None:
    """The challenge is accepted on another replica: its lease says so at once, its news
    (with the creator's game and seat) follows; the creator's status request waits for the
    news instead of answering "open". An open challenge nobody took answers at once."""
    async def scenario() -> None:
        broker = MemoryBroker()
        a, b = await linked(broker, "a"), await linked(broker, "b")
        made = a.create(NewChallenge.model_validate(CHALLENGE), "203.0.113.7")
        await until(lambda: made["id"] in b.open, "listed on b")
        assert a.share is not None and b.share is not None
        loop = asyncio.get_running_loop()
        started = loop.time()
        await a.share.settled(a.get(made["id"]))  # nobody took it: no wait
        assert loop.time() - started < 0.5 and a.get(made["id"]).status == "open"
        challenge = b.take(made["id"], None)
        await b.share.claim(challenge, "accepted")
        b.accepted(challenge, "g1", 0, "creator-token")
        assert a.get(made["id"]).status == "open"  # the news is on its way
        await a.share.settled(a.get(made["id"]))
        assert a.status(made["id"], made["owner"])["game"] == "g1"
        await a.stop()
        await b.stop()

    run_within(scenario)


def test_a_challenge_remade_on_another_replica_after_a_cancellation_waits_for_its_news(
        ) -> None:
    """An address at its bound of open challenges cancels one on one replica and makes one
    on another at once: the second waits for the cancellation's news instead of refusing
    (429), and the bound still holds once it has come."""
    from lifearena.web.lobby import TooMany

    async def scenario() -> None:
        broker = MemoryBroker()
        a, b = await linked(broker, "a"), await linked(broker, "b")
        made = [a.create(NewChallenge.model_validate(CHALLENGE), "203.0.113.7")
                for _ in range(a.per_address)]
        await until(lambda: all(m["id"] in b.open for m in made), "all listed on b")
        with pytest.raises(TooMany):
            b.create(NewChallenge.model_validate(CHALLENGE), "203.0.113.7")
        a.cancel(made[0]["id"], made[0]["owner"])  # its news is on its way to b
        await b.room_for("203.0.113.7")
        again = b.create(NewChallenge.model_validate(CHALLENGE), "203.0.113.7")
        await until(lambda: again["id"] in a.open, "the new one listed on a")
        with pytest.raises(TooMany):
            a.create(NewChallenge.model_validate(CHALLENGE), "203.0.113.7")
        await a.stop()
        await b.stop()

    run_within(scenario)
