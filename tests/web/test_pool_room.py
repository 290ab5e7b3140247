"""Quick pairing over HTTP: players join pools, the server pairs them and starts their game,
both seats theirs, with the preset's clock; rated pools need accounts; a quiet seeker
leaves."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lifearena.web import Settings, create_app
from lifearena.web.pool_room import SEEK_FOR

Person = Callable[..., TestClient]


@pytest.fixture()
def site(tmp_path: Path) -> Iterator[tuple[Any, Person]]:
    app = create_app(Settings(tmp_path / "games.sqlite", agent_workers="thread"))
    with contextlib.ExitStack() as stack:
        count = [0]

        def person(address: str | None = None) -> TestClient:
            count[0] += 1
            return stack.enter_context(TestClient(
                app, base_url="http://localhost", client=(address or f"10.0.1.{count[0]}",
                                                          5000)))
        yield app, person


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def signup(client: TestClient, name: str) -> None:
    ok(client.post("/api/account/signup", json={"name": name, "password": "pool pass 1"}),
       201)


def paired(client: TestClient, within: float = 20.0) -> dict:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = ok(client.get("/api/pools/me"))["paired"]
        if found is not None:
            return found
        time.sleep(0.05)
    raise AssertionError("not paired in time")


def test_two_accounts_in_a_rated_pool_get_one_rated_game_with_its_clock(site) -> None:
    app, person = site
    ann, bob = person(), person()
    signup(ann, "Ann")
    signup(bob, "Bob")
    presets = ok(ann.get("/api/pools"))["presets"]
    assert [p["key"] for p in presets] == ["1+0", "3+2", "5+3", "10+5", "1d", "unlimited"]
    for client in (ann, bob):
        joined = ok(client.post("/api/pools/war_of_life/3+2/join", json={"rated": True}))
        assert joined["seeking"] == [{"game": "war_of_life", "preset": "3+2",
                                      "kind": "people"}]
    first, second = paired(ann), paired(bob)
    assert first == second and first["rated"] and first["preset"] == "3+2"
    views = [ok(c.get(f"/api/games/{first['id']}")) for c in (ann, bob)]
    assert sorted(v["seats"][0] for v in views) == [0, 1]
    assert views[0]["rated"] and views[0]["opponent"]["clock"] == {
        "kind": "live", "minutes": 3, "increment": 2}
    assert {p["name"] for p in views[0]["people"]} == {"Ann", "Bob"}
    assert ok(ann.get("/api/pools"))["waiting"] == []
    assert app.state.pools.waits and app.state.pools.rounds


def test_rated_pools_need_accounts_and_the_bots_pool_bots(site) -> None:
    _, person = site
    guest, member = person(), person()
    refused = guest.post("/api/pools/losat/5+3/join", json={"rated": True})
    assert refused.status_code == 403 and "account" in refused.json()["error"]
    ok(guest.post("/api/pools/losat/5+3/join", json={"rated": False}))
    signup(member, "Member")
    bots = member.post("/api/pools/losat/5+3/join", json={"kind": "bots"})
    assert bots.status_code == 403 and "bot accounts" in bots.json()["error"]
    for path in ("/api/pools/chess/3+2/join", "/api/pools/losat/2+1/join"):
        wrong = guest.post(path, json={})
        assert wrong.status_code == 400 and "expected one of" in wrong.json()["error"]


def test_two_accounts_of_one_address_are_not_paired_rated(site) -> None:
    app, person = site
    one, two = person("10.9.9.9"), person("10.9.9.9")
    signup(one, "OneA")
    signup(two, "OneB")
    for client in (one, two):
        ok(client.post("/api/pools/war_of_life/1d/join", json={"rated": True}))
    app.state.pools.pair_round()
    assert ok(one.get("/api/pools/me"))["paired"] is None


def test_a_seeker_that_goes_quiet_leaves_and_one_may_leave(site) -> None:
    app, person = site
    room = app.state.pools
    now = [1000.0]
    room.clock = lambda: now[0]
    quiet, leaver = person(), person()
    ok(quiet.post("/api/pools/blocking_queen/unlimited/join", json={}))
    ok(leaver.post("/api/pools/blocking_queen/10+5/join", json={}))
    assert ok(leaver.post("/api/pools/leave", json={}))["seeking"] == []
    now[0] += SEEK_FOR + 1
    room.pair_round()
    assert ok(quiet.get("/api/pools/me"))["seeking"] == []
    assert ok(quiet.get("/api/pools"))["waiting"] == []


def test_a_waiting_request_is_answered_when_its_player_is_paired(site) -> None:
    import threading

    _, person = site
    ann, bob = person(), person()
    ok(ann.post("/api/pools/losat/unlimited/join", json={}))
    answers: list[tuple[float, dict]] = []

    def wait() -> None:
        started = time.monotonic()
        answer = ok(ann.get("/api/pools/me", params={"wait": 20}))
        answers.append((time.monotonic() - started, answer))

    waiting = threading.Thread(target=wait)
    waiting.start()
    deadline = time.monotonic() + 10
    while not site[0].state.pools.waiters:  # the request waits in the room
        assert time.monotonic() < deadline, "the request did not wait"
        time.sleep(0.01)
    ok(bob.post("/api/pools/losat/unlimited/join", json={}))
    waiting.join(30)
    [(took, answer)] = answers
    assert answer["paired"] is not None and took < 10
    assert answer["paired"] == ok(bob.get("/api/pools/me"))["paired"]
    # nobody waiting: answered at once; a wait past the longest is refused
    assert ok(ann.get("/api/pools/me", params={"wait": 20}))["paired"] is not None
    assert ann.get("/api/pools/me", params={"wait": 600}).status_code == 400
