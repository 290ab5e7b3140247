"""Clocks: when they run, increments, flags falling (a loss, or a draw where the other side
could not win), simultaneous turns, correspondence, a restart, and agents within their time.

The server reads a fake ``now`` here, so no test sleeps; one test lets a real clock run out
and waits, with a deadline, for its flag to fall by itself."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lifearena.core import State
from lifearena.web import Settings, catalog, create_app
from lifearena.web.store import Store

from .conftest import create, move, tokens_of, view

WAR = {"start": "random", "seed": 11}
LIVE = {"kind": "live", "minutes": 1, "increment": 2}


class FakeNow:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.at = 1_700_000_000.0

    def __call__(self) -> float:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += seconds


@pytest.fixture
def now() -> FakeNow:
    return FakeNow()


@pytest.fixture
def timed(db: Path, now: FakeNow) -> Iterator[TestClient]:
    app = create_app(Settings(db, agent_workers="thread", now=now))
    with TestClient(app, base_url="http://localhost") as client:
        yield client


def play_one(client: TestClient, game_id: str, token: str) -> dict:
    legal = view(client, game_id, token)["legal"]
    text = next(iter(legal.values()))["moves"][0]["move"]
    response = move(client, game_id, token, text)
    assert response.status_code == 200, response.text
    return response.json()


def clock_of(client: TestClient, game_id: str) -> dict:
    return view(client, game_id)["clock"]


def test_the_clock_starts_with_the_first_move_and_gives_the_increment(
        timed: TestClient, now: FakeNow) -> None:
    created = create(timed, "war_of_life", params=WAR, clock=LIVE)
    blue, red = tokens_of(created)
    game_id = created["id"]
    start = clock_of(timed, game_id)
    assert start["remaining_ms"] == [60_000, 60_000] and start["running"] == []
    assert start["control"] == LIVE
    now.advance(30)  # before the first move nobody's time runs
    play_one(timed, game_id, blue)
    assert clock_of(timed, game_id)["remaining_ms"] == [60_000, 60_000]
    assert clock_of(timed, game_id)["running"] == [1]
    now.advance(10)
    shown = clock_of(timed, game_id)
    assert shown["remaining_ms"] == [60_000, 50_000]
    assert shown["server_now"] == round(now.at * 1000)
    play_one(timed, game_id, red)
    after = clock_of(timed, game_id)
    assert after["remaining_ms"] == [60_000, 52_000] and after["running"] == [0]
    now.advance(5)
    play_one(timed, game_id, blue)
    assert clock_of(timed, game_id)["remaining_ms"] == [57_000, 52_000]


def test_running_out_of_time_loses(timed: TestClient, now: FakeNow) -> None:
    created = create(timed, "war_of_life", params=WAR, clock=LIVE)
    blue, red = tokens_of(created)
    game_id = created["id"]
    play_one(timed, game_id, blue)
    now.advance(60.5)
    late = move(timed, game_id, red, "[1,1,1,2]")
    assert late.status_code == 409 and "over" in late.json()["error"]
    ended = view(timed, game_id)
    assert ended["outcome"]["termination"] == "timeout" and ended["outcome"]["winner"] == 0
    assert ended["clock"]["running"] == [] and ended["clock"]["remaining_ms"][1] == 0
    assert ended["awaiting"] == []
    assert game_id in [g["id"] for g in timed.get("/api/games").json()["finished"]]


def test_running_out_against_a_side_that_could_not_win_is_a_draw(
        timed: TestClient, now: FakeNow, monkeypatch: pytest.MonkeyPatch) -> None:
    created = create(timed, "war_of_life", params=WAR, clock=LIVE)
    blue, _ = tokens_of(created)
    play_one(timed, created["id"], blue)
    state_type = catalog.new_state("war_of_life", WAR).__class__
    monkeypatch.setattr(state_type, "could_win", lambda self, player: False)
    now.advance(61)
    outcome = view(timed, created["id"])["outcome"]
    assert outcome["winner"] is None and outcome["termination"] == "timeout"
    assert "could not win" in outcome["detail"]


def test_could_win_is_true_by_default_while_a_game_goes_on() -> None:
    state: State = catalog.new_state("blocking_queen", {"k": 2})
    assert state.could_win(0) and state.could_win(1)


def test_simultaneous_clocks_run_until_each_side_commits(timed: TestClient,
                                                        now: FakeNow) -> None:
    created = create(timed, "life_for_two", clock=LIVE)
    first, second = tokens_of(created)
    game_id = created["id"]
    assert move(timed, game_id, first, "3,4 3,3 4,3").status_code == 200
    assert move(timed, game_id, second, "5,5 4,5 5,4").status_code == 200
    clock = clock_of(timed, game_id)
    assert clock["running"] == [0, 1] and clock["remaining_ms"] == [60_000, 60_000]
    now.advance(10)
    assert move(timed, game_id, first, "1,1").status_code == 200
    chosen = clock_of(timed, game_id)
    assert chosen["running"] == [1] and chosen["remaining_ms"] == [52_000, 50_000]
    now.advance(5)
    assert move(timed, game_id, second, "1,5").status_code == 200
    both = clock_of(timed, game_id)
    assert both["running"] == [0, 1] and both["remaining_ms"] == [52_000, 47_000]
    now.advance(47.5)  # both run: the second side, with less time, runs out first
    outcome = view(timed, game_id)["outcome"]
    assert outcome["termination"] == "timeout" and outcome["winner"] == 0


def test_a_correspondence_move_gets_the_full_days_again(timed: TestClient,
                                                        now: FakeNow) -> None:
    created = create(timed, "war_of_life", params=WAR,
                     clock={"kind": "correspondence", "days": 1})
    blue, red = tokens_of(created)
    game_id = created["id"]
    play_one(timed, game_id, blue)
    now.advance(20 * 3600)
    assert clock_of(timed, game_id)["remaining_ms"][1] == 4 * 3600 * 1000
    play_one(timed, game_id, red)
    assert clock_of(timed, game_id)["remaining_ms"] == [86_400_000, 86_400_000]
    now.advance(86_401)
    assert view(timed, game_id)["outcome"]["winner"] == 1


@pytest.mark.parametrize(("clock", "fragment"), [
    ({"kind": "live", "minutes": 0.2}, "expected 0.5 to 180 minutes"),
    ({"kind": "live", "minutes": 181}, "minutes"),
    ({"kind": "live", "minutes": 5, "days": 2}, "not days"),
    ({"kind": "correspondence", "days": 15}, "days"),
    ({"kind": "correspondence", "days": 2, "increment": 5}, "days (1 to 14) only"),
    ({"kind": "blitz", "minutes": 5}, "kind"),
    ({"kind": "live", "minutes": "5"}, "minutes"),
])
def test_bad_time_controls_are_refused_in_one_line(timed: TestClient, clock: dict,
                                                   fragment: str) -> None:
    response = timed.post("/api/games", json={"game": "war_of_life", "opponent": "online",
                                              "clock": clock})
    assert response.status_code == 400, response.text
    assert fragment in response.json()["error"] and "\n" not in response.json()["error"]


def test_a_restart_keeps_the_clocks_without_charging_the_downtime(db: Path,
                                                                  now: FakeNow) -> None:
    settings = Settings(db, agent_workers="thread", now=now)
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        created = create(client, "war_of_life", params=WAR, clock=LIVE)
        blue, red = tokens_of(created)
        game_id = created["id"]
        play_one(client, game_id, blue)
        now.advance(10)
    now.advance(3600)  # the server is down for an hour
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        again = clock_of(client, game_id)
        assert again["remaining_ms"] == [60_000, 50_000] and again["running"] == [1]
        now.advance(5)
        assert clock_of(client, game_id)["remaining_ms"] == [60_000, 45_000]
        play_one(client, game_id, red)
        assert clock_of(client, game_id)["remaining_ms"] == [60_000, 47_000]


def test_after_a_crash_at_most_the_downtime_is_charged(games_db: str | Path,
                                                      now: FakeNow) -> None:
    db = games_db  # on each backend: the clock survives in the store
    settings = Settings(db, agent_workers="thread", now=now)
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        created = create(client, "war_of_life", params=WAR, clock=LIVE)
        blue, _ = tokens_of(created)
        play_one(client, created["id"], blue)
        now.advance(10)
        # a crash: the stored row is as the last move left it (running since then)
        crashed = Store(db)
        stored = crashed.get(created["id"])
        crashed.close()
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        store = client.app.state.server.store  # type: ignore[attr-defined]
        store.save_play(stored, None)
        client.app.state.server.games.clear()  # type: ignore[attr-defined]
        now.advance(20)
        assert clock_of(client, created["id"])["remaining_ms"] == [60_000, 30_000]


def test_a_rematch_has_the_same_time_control_afresh(timed: TestClient, now: FakeNow) -> None:
    created = create(timed, "war_of_life", params=WAR, clock=LIVE)
    blue, red = tokens_of(created)
    play_one(timed, created["id"], blue)
    now.advance(61)
    timed.post(f"/api/games/{created['id']}/rematch", json={"action": "offer"},
               headers={"X-Seat-Token": red})
    made = timed.post(f"/api/games/{created['id']}/rematch", json={"action": "accept"},
                      headers={"X-Seat-Token": blue}).json()["rematch"]
    fresh = clock_of(timed, made["id"])
    assert fresh["control"] == LIVE and fresh["remaining_ms"] == [60_000, 60_000]


def test_an_agent_thinks_within_its_clock(timed: TestClient, now: FakeNow,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    limits: list[Any] = []
    choose = catalog.choose_move

    def watched(state: Any, seat: int, name: str, limit: Any, seed: int) -> str:
        limits.append(limit)
        return choose(state, seat, name, limit, seed)

    monkeypatch.setattr(catalog, "choose_move", watched)
    created = create(timed, "war_of_life", "agent", params=WAR, level="random",
                     clock={"kind": "live", "minutes": 3, "increment": 1})
    play_one(timed, created["id"], created["token"])
    deadline = time.monotonic() + 20
    while len(view(timed, created["id"])["moves"]) < 2:
        assert time.monotonic() < deadline, "the agent never moved"
        time.sleep(0.02)
    assert limits and limits[0].time is not None
    assert limits[0].time <= 180 / 30 + 1


def test_a_short_clock_runs_out_by_itself(games_db: str | Path) -> None:
    db = games_db  # on each backend: another reader sees the flag fall in the store
    settings = Settings(db, agent_workers="thread", shortest_clock=0.01)
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        created = create(client, "war_of_life", params=WAR,
                         clock={"kind": "live", "minutes": 0.02, "increment": 0})
        blue, _ = tokens_of(created)
        play_one(client, created["id"], blue)  # red's 1.2 s run from here
        watcher = Store(db)  # reads the database: no request reaches the server
        deadline = time.monotonic() + 15
        while True:
            row = watcher.get(created["id"])
            assert row is not None
            if row.ending is not None:
                break
            assert time.monotonic() < deadline, "the flag did not fall by itself"
            time.sleep(0.05)
        watcher.close()
        assert row.ending["termination"] == "timeout" and row.ending["winner"] == 0
