"""The lobby shared by two replicas of one site (real processes over PostgreSQL and Redis,
the cluster of ``test_replicas``): a challenge made on one is listed, accepted and closed
on the other, and two acceptances racing on both seat one game."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from .conftest import wait_until
from .test_replicas import (
    LASTING,
    Cluster,
    Page,
    Replica,
    cluster,
    first_legal,
    websockets_sync,
)

__all__ = ["cluster"]  # the module's fixture, shared by these tests

CHALLENGE = {"game": "blocking_queen", "colour": 0}


def lobby_page(replica: Replica, owners: list[str] | None = None) -> Page:
    """A lobby socket on ``replica``, past its snapshot (and its ``mine`` answer when it
    names ``owners``)."""
    socket = websockets_sync.connect(replica.url.replace("http", "ws") + "/ws/lobby",
                                     open_timeout=10).__enter__()
    page = Page(socket)
    page.read_until(lambda m: m.get("type") == "snapshot", "the lobby's snapshot")
    if owners is not None:
        socket.send(json.dumps({"type": "hello", "owners": owners}))
        page.read_until(lambda m: m.get("type") == "mine", "the answer to hello")
    return page


def changed(kind: str, challenge_id: str) -> Any:
    """Whether a lobby message tells ``kind`` (added or removed) of ``challenge_id``."""
    def check(message: dict[str, Any]) -> bool:
        for change in message.get("changes", []):
            found = change.get("challenge", {}).get("id") if kind == "challenge-added" \
                else change.get("id")
            if change.get("type") == kind and found == challenge_id:
                return True
        return False
    return check


def listed(replica: Replica) -> list[str]:
    """The ids of the open challenges ``replica`` lists."""
    return [c["id"] for c in replica.get("/api/challenges").json()["challenges"]]


def token_of(client: httpx.Client, made: dict[str, Any]) -> dict[str, Any] | None:
    """The creator's seat once its challenge ``made`` is accepted (None until then)."""
    answer = client.get(f"/api/challenges/{made['id']}",
                        headers={"X-Challenge-Owner": made["owner"]}).json()
    return answer if answer.get("token") else None


def make(replica: Replica) -> dict[str, Any]:
    made = replica.post("/api/challenges", CHALLENGE)
    assert made.status_code == 201, made.text
    return dict(made.json())


def test_a_challenge_made_on_one_replica_is_accepted_on_the_other(cluster: Cluster) -> None:
    a, b = cluster.replicas
    creator = lobby_page(a)
    watcher = lobby_page(b)
    try:
        made = make(a)
        creator.socket.send(json.dumps({"type": "hello", "owners": [made["owner"]]}))
        watcher.read_until(changed("challenge-added", made["id"]), "the challenge on B")
        assert made["id"] in listed(b)
        accepted = b.post(f"/api/challenges/{made['id']}/accept", {})
        assert accepted.status_code == 200, accepted.text
        game = accepted.json()
        seated = creator.read_until(lambda m: m.get("type") == "seated",
                                    "the creator's seat, told on A")
        assert seated["game"] == game["id"] and seated["seat"] == 1 - game["seat"]
        creator.read_until(changed("challenge-removed", made["id"]), "the removal on A")
        assert made["id"] not in listed(a)
        for replica, token in ((a, seated["token"]), (b, game["token"])):
            view = replica.get(f"/api/games/{game['id']}", token).json()
            assert view["id"] == game["id"]
        again = a.post(f"/api/challenges/{made['id']}/accept", {})
        assert again.status_code == 409, again.text
    finally:
        creator.close()
        watcher.close()


def test_two_acceptances_racing_on_two_replicas_seat_one_game(cluster: Cluster) -> None:
    a, b = cluster.replicas
    watcher = lobby_page(b)
    try:
        made = make(a)
        watcher.read_until(changed("challenge-added", made["id"]), "the challenge on B")
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(
                lambda r: httpx.post(f"{r.url}/api/challenges/{made['id']}/accept", json={},
                                     timeout=15), (a, b)))
        codes = sorted(answer.status_code for answer in answers)
        assert codes == [200, 409], [answer.text for answer in answers]
    finally:
        watcher.close()


def test_a_challenge_cancelled_on_one_replica_is_gone_on_the_other(cluster: Cluster) -> None:
    a, b = cluster.replicas
    watcher = lobby_page(b)
    try:
        made = make(a)
        watcher.read_until(changed("challenge-added", made["id"]), "the challenge on B")
        cancelled = httpx.post(f"{b.url}/api/challenges/{made['id']}/cancel", json={},
                               headers={"X-Challenge-Owner": made["owner"]}, timeout=15)
        assert cancelled.status_code == 200, cancelled.text
        watcher.read_until(changed("challenge-removed", made["id"]), "the removal on B")
        late = a.post(f"/api/challenges/{made['id']}/accept", {})
        assert late.status_code == 409, late.text
    finally:
        watcher.close()


@pytest.mark.parametrize("where", ["maker", "other"])
def test_a_page_saying_hello_on_either_replica_learns_its_own_challenge(
        cluster: Cluster, where: str) -> None:
    a, b = cluster.replicas
    made = make(a)
    wait_until(lambda: made["id"] in listed(b), "the challenge listed on B")
    page = lobby_page(a if where == "maker" else b)
    try:
        page.socket.send(json.dumps({"type": "hello", "owners": [made["owner"]]}))
        mine = page.read_until(lambda m: m.get("type") == "mine" and m["ids"], "its own")
        assert mine["ids"] == [made["id"]]
    finally:
        page.close()


def test_two_seekers_on_two_replicas_are_paired_into_one_game(cluster: Cluster) -> None:
    a, b = cluster.replicas
    with httpx.Client(base_url=a.url, timeout=15) as ann, \
            httpx.Client(base_url=b.url, timeout=15) as bob:
        for client in (ann, bob):
            joined = client.post("/api/pools/war_of_life/unlimited/join", json={})
            assert joined.status_code == 200, joined.text
        told = [client.get("/api/pools/me", params={"wait": 10}).json()["paired"]
                for client in (ann, bob)]
        assert told[0] is not None and told[1] is not None, told
        assert told[0]["id"] == told[1]["id"]
        for client in (ann, bob):
            assert client.get("/api/pools/me").json()["seeking"] == []


def test_your_turn_is_right_on_either_replica(cluster: Cluster) -> None:
    a, b = cluster.replicas
    with httpx.Client(base_url=a.url, timeout=15) as maker, \
            httpx.Client(base_url=b.url, timeout=15) as taker:
        made = maker.post("/api/challenges", json={"game": "war_of_life", "colour": 0,
                                                   "params": LASTING})
        assert made.status_code == 201, made.text
        wait_until(lambda: made.json()["id"] in listed(b), "the challenge listed on B")
        game = taker.post(f"/api/challenges/{made.json()['id']}/accept", json={}).json()
        mine = wait_until(lambda: token_of(maker, made.json()), "the maker's seat, on A")

        def turns(client: httpx.Client, url: str) -> int:
            answer = client.get(url + "/api/me/games")
            assert answer.status_code == 200, answer.text
            entry = [g for g in answer.json()["playing"] if g["id"] == game["id"]]
            assert entry, answer.text
            return int(entry[0]["your_turn"])

        # the maker plays seat 0 (it moves first), on whichever replica its page asks
        for url in (a.url, b.url):
            assert (turns(maker, url), turns(taker, url)) == (1, 0)
        seen, move = first_legal(b, game["id"], mine["token"])
        played = b.post(f"/api/games/{game['id']}/moves", {"move": move, "ply": seen["ply"]},
                        mine["token"])
        assert played.status_code == 200, played.text
        for url in (a.url, b.url):
            assert (turns(maker, url), turns(taker, url)) == (0, 1)
