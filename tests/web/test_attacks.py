"""Every attack on ``lifearena serve`` that the security review found, as a test.

Each test names the attack; docs/security.md lists them with the promise each one checks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from lifearena.core import Record, State, presentation_of, replay
from lifearena.web import Settings, create_app
from lifearena.web import app as web_app
from lifearena.web.heavy import HeavyWork
from lifearena.web.limits import SOCKETS_PER_ADDRESS
from lifearena.web.rooms import cache as rooms_cache
from lifearena.web.rooms import runner as rooms_runner
from lifearena.web.store import GameRow

from .conftest import claim, connect, create, move, tokens_of, view, wait_until, ws_url

# -- a game's creator holds its own seat only --------------------------------------------------

def shown(state: State) -> dict[str, Any]:
    """What a spectator's page draws of ``state``."""
    return presentation_of(state).display(state, None)


def test_the_creator_cannot_read_or_play_the_invited_seat(client: TestClient) -> None:
    created = create(client, "life_for_two", join=False)
    game_id, mine = created["id"], created["token"]
    assert "seat1" not in created["links"] and created["token"] not in created["links"]["invite"]
    joined = claim(client, created).json()
    theirs = joined["token"]
    assert move(client, game_id, theirs, "3,3 3,4 4,4").status_code == 200
    seen = view(client, game_id, mine)
    assert seen["chosen"] == [1] and seen["mine"] == {}
    assert "3,4" not in json.dumps({k: v for k, v in seen.items() if k != "legal"})
    # nor can the creator move for the invited seat, or claim it a second time
    assert move(client, game_id, mine, "1,1 1,2 2,2", seat=1).status_code == 403
    assert claim(client, created, token=mine).status_code in (403, 409)
    assert view(client, game_id, theirs)["mine"] == {"1": "3,3 3,4 4,4"}


def test_a_seat_token_in_the_socket_url_is_refused(client: TestClient) -> None:
    created = create(client, "war_of_life")
    blue, _ = tokens_of(created)
    with client.websocket_connect(ws_url(created["id"], f"?token={blue}")) as page:
        refused = page.receive_json()
    assert refused["type"] == "error" and "URL" in refused["error"]


# -- one malformed request breaks nothing -------------------------------------------------------


@pytest.mark.parametrize("seat", [0.0, 1.0, True, "1", "0.0", -1, 2, 10**30])
def test_a_malformed_seat_is_refused_and_the_game_still_plays(client: TestClient, db: Path,
                                                              seat: Any) -> None:
    created = create(client, "life_for_two")
    first, second = tokens_of(created)
    game_id = created["id"]
    response = client.post(f"/api/games/{game_id}/moves", headers={"X-Seat-Token": first},
                           json={"move": "1,1 1,2 2,2", "ply": 0, "seat": seat})
    assert response.status_code == 400 and "seat" in response.json()["error"]
    assert view(client, game_id)["chosen"] == []
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT pending FROM games WHERE id = ?", (game_id,)).fetchone() == (
            "{}",)
    assert move(client, game_id, first, "1,1 1,2 2,2").status_code == 200
    assert move(client, game_id, second, "5,5 5,4 4,5").json()["move_number"] == 1


@pytest.mark.parametrize("body", [
    '{"game": "losat", "side": 1.0}',
    '{"game": "losat", "side": true}',
    '{"game": "losat", "params": {"width": ' + "9" * 5000 + "}}",
    '{"game": "losat", "params": {"width": 1e999}}',
    '{"game": "losat", "params": {"width": NaN}}',
    '{"game": "losat", "opponent": "online", "extra": 1}',
    '{"game": "losat", "params": ' + "[" * 5000 + "]" * 5000 + "}",
    '{"game": ["losat"]}',
    '"losat"',
])
def test_malformed_new_game_bodies_get_a_4xx_not_a_5xx(client: TestClient, body: str) -> None:
    response = client.post("/api/games", content=body,
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error and "\n" not in error


def test_a_damaged_stored_game_says_so_and_takes_no_other_game_with_it(db: Path) -> None:
    settings = Settings(db, agent_workers="thread")
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        broken = create(client, "life_for_two")
        fine = create(client, "war_of_life")
    # a row written by a faulty version: a pending choice under a seat that does not exist
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET pending = ? WHERE id = ?",
                    ('{"0.0": "1,1 1,2 2,2"}', broken["id"]))
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        for path in (f"/api/games/{broken['id']}", f"/api/games/{broken['id']}/record"):
            response = client.get(path)
            assert response.status_code == 410, response.text
            assert "record is damaged" in response.json()["error"]
        with connect(client, broken["id"]) as page:
            assert page.receive_json()["status"] == 410
        assert client.get(f"/play/{broken['id']}").status_code == 200  # the page says why
        assert view(client, fine["id"])["game"] == "war_of_life"
        blue, _ = tokens_of(fine)
        legal = view(client, fine["id"], blue)["legal"]["0"]["moves"][0]["move"]
        assert move(client, fine["id"], blue, legal).status_code == 200


# -- moves say what they answer ----------------------------------------------------------------


def test_a_delayed_duplicate_choice_is_refused_not_applied_to_the_next_turn(
        client: TestClient) -> None:
    created = create(client, "life_for_two")
    first, second = tokens_of(created)
    game_id = created["id"]
    assert move(client, game_id, first, "1,1 1,2 2,2", ply=0).status_code == 200
    assert move(client, game_id, second, "5,5 5,4 4,5", ply=0).status_code == 200
    before = view(client, game_id)
    late = move(client, game_id, first, "3,3", ply=0)
    assert late.status_code == 409 and "chosen at move 0" in late.json()["error"]
    after = view(client, game_id)
    assert after["chosen"] == [] and after["moves"] == before["moves"]


def test_moves_racing_evictions_land_once_in_memory_and_store_alike(db: Path) -> None:
    """With a cache of one game, every request for another game evicts the last one; moves
    of one game raced against views of two others still apply to the one copy the store
    writes, in order, and a fresh replay of the store equals the game in memory."""
    app = create_app(Settings(db, agent_workers="thread", max_cached=1))
    server = app.state.server

    async def scenario() -> None:
        transport = httpx.ASGITransport(app=app)
        async with app.router.lifespan_context(app), httpx.AsyncClient(
                transport=transport, base_url="http://localhost") as http:
            async def new(game: str) -> dict:
                made = (await http.post("/api/games", json={
                    "game": game, "opponent": "hotseat",
                    "params": {"start": "random", "seed": 4} if game == "war_of_life"
                    else {}})).json()
                return made

            target = await new("war_of_life")
            others = [await new("blocking_queen"), await new("losat")]
            headers = {"X-Seat-Token": target["token"]}

            async def play(count: int) -> None:
                for _ in range(count):
                    state = (await http.get(f"/api/games/{target['id']}",
                                            headers=headers)).json()
                    if state["outcome"]:
                        return
                    seat = state["awaiting"][0]
                    text = state["legal"][str(seat)]["moves"][0]["move"]
                    answer = await http.post(f"/api/games/{target['id']}/moves",
                                             json={"move": text, "ply": state["ply"],
                                                   "seat": seat}, headers=headers)
                    assert answer.status_code in (200, 409), answer.text

            async def churn(count: int) -> None:
                for i in range(count):
                    await http.get(f"/api/games/{others[i % 2]['id']}")

            await asyncio.gather(play(12), play(12), churn(60), churn(60))
            stored = server.store.get(target["id"])
            live = await server.game(target["id"])
            assert stored.moves == live.row.moves and len(stored.moves) >= 6
            again = replay(Record(stored.game, stored.params, stored.setup, ["", ""],
                                  stored.moves))
            assert shown(again) == shown(live.state)

    asyncio.run(scenario())


# -- heavy work off the event loop --------------------------------------------------------------


SLOW = 2.0
"""Seconds a stand-in replay takes (asleep: it holds no lock the server needs)."""


def _slow_position(*args: Any) -> dict[str, Any]:
    time.sleep(SLOW)
    return {"slow": True}


@contextlib.contextmanager
def _browsing(client: TestClient, game_id: str, count: int) -> Iterator[list[int]]:
    """``count`` slow position requests in flight from this client (waited for, with a
    deadline) for the block's length; then their statuses, once all have answered."""
    answers: list[int] = []

    def browse() -> None:
        answers.append(client.get(f"/api/games/{game_id}/position?upto=0").status_code)

    threads = [threading.Thread(target=browse) for _ in range(count)]
    for thread in threads:
        thread.start()
    heavy = client.app.state.server.heavy
    deadline = time.monotonic() + 30
    while heavy.in_flight("testclient") < count:
        assert time.monotonic() < deadline, "the replays never started"
        time.sleep(0.01)
    yield answers
    for thread in threads:
        thread.join(30)


def _slow_replays(client: TestClient, monkeypatch: pytest.MonkeyPatch, **bounds: int) -> str:
    """A hot-seat game whose position replays take :data:`SLOW` seconds, through a worker
    pool of ``bounds``; answer its id."""
    monkeypatch.setattr(web_app, "position_after", _slow_position)
    client.app.state.server.heavy = client.app.state.heavy = HeavyWork("thread", **bounds)
    return str(create(client, "blocking_queen", opponent="hotseat")["id"])


def test_replays_run_off_the_event_loop_and_a_move_elsewhere_is_not_delayed(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    browsed = _slow_replays(client, monkeypatch, workers=4, per_client=4)
    other = create(client, "war_of_life")
    blue, _ = tokens_of(other)
    first = view(client, other["id"], blue)["legal"]["0"]["moves"][0]["move"]
    with _browsing(client, browsed, 4) as answers:
        started = time.perf_counter()
        assert move(client, other["id"], blue, first).status_code == 200
        took = time.perf_counter() - started
    assert took < SLOW / 2  # a replay on the event loop would hold this move for SLOW
    assert answers == [200] * 4


def _long_p2life_record(turns: int, limit: int | None = None) -> str:
    """A p2life record of ``turns`` turns of ``pass | pass`` on a 12x12 torus of two blocks
    (still lifes: the game lasts all ``turns`` generations, or ``limit``)."""
    rows = [["."] * 12 for _ in range(12)]
    for y, x, colour in ((2, 2, "w"), (7, 7, "b")):
        for dy in (0, 1):
            for dx in (0, 1):
                rows[y + dy][x + dx] = colour
    setup = "/".join("".join(row) for row in rows) + " 0:0"
    return Record("p2life", {"max_generations": limit or turns, "moves": 1, "torus": True,
                             "seed": 1},
                  setup, ["a", "b"], ["pass | pass"] * turns).to_json()


def test_long_uploads_and_first_loads_are_replayed_off_the_event_loop(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening a long record and loading a long stored game (after a restart or an
    eviction) replay it in a worker: a move elsewhere is not held up meanwhile."""
    long = rooms_cache.LOOP_REPLAY_MOVES + 1

    def slow(original: Any) -> Any:
        def replay_slowly(row: Any) -> Any:
            if len(row.moves) >= long:  # a replay on the event loop would hold it SLOW s
                time.sleep(SLOW)
            return original(row)
        return replay_slowly

    monkeypatch.setattr(rooms_runner, "replayed", slow(rooms_runner.replayed))
    monkeypatch.setattr(rooms_cache, "rebuild", slow(rooms_cache.rebuild))
    server = client.app.state.server
    server.heavy = client.app.state.heavy = HeavyWork("thread", workers=2, per_client=2)
    uploaded, took = _while_replaying(client, lambda: client.post(
        "/api/records", json={"record": _long_p2life_record(long)}))
    assert uploaded.status_code == 201, uploaded.text
    assert took < SLOW / 2  # a replay on the event loop would hold the move for SLOW
    opened = uploaded.json()["id"]
    server.games.pop(opened)  # as after a restart or an eviction: only the store has it
    loaded, took = _while_replaying(client, lambda: client.get(f"/api/games/{opened}"))
    assert loaded.status_code == 200 and loaded.json()["ply"] == long
    assert took < SLOW / 2 and opened in server.games


def _while_replaying(client: TestClient, request: Callable[[], Any]) -> tuple[Any, float]:
    """``request()``'s answer, made in a thread, and how long a move in another game took
    while the server's worker replayed for it."""
    answers: list[Any] = []
    thread = threading.Thread(target=lambda: answers.append(request()))
    thread.start()
    heavy = client.app.state.server.heavy
    deadline = time.monotonic() + 30
    while heavy.in_flight("testclient") < 1:
        assert time.monotonic() < deadline, "the replay never started"
        time.sleep(0.01)
    other = create(client, "war_of_life")
    blue, _ = tokens_of(other)
    text = view(client, other["id"], blue)["legal"]["0"]["moves"][0]["move"]
    started = time.perf_counter()
    assert move(client, other["id"], blue, text).status_code == 200
    took = time.perf_counter() - started
    thread.join(30)
    return answers[0], took


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's idle scheduling class")
def test_slow_work_runs_in_processes_that_take_only_an_idle_cpu() -> None:
    """A worker runs only when nothing else wants a core (a replay waits, not the moves),
    and a long game replayed there comes back whole."""
    heavy = HeavyWork("process", workers=1)
    record = Record.load(_long_p2life_record(40))
    row = GameRow("abcdefgh", record.game, dict(record.params), str(record.setup),
                  {"kind": "hotseat"}, ["t", "t"], list(record.moves))

    async def ask() -> tuple[int, Any]:
        return (await heavy.run("10.0.0.1", os.sched_getscheduler, 0),
                await heavy.run("10.0.0.1", rooms_runner.replayed, row))

    try:
        policy, live = asyncio.run(ask())
    finally:
        heavy.close()
    assert policy == os.SCHED_IDLE
    assert live.row.moves == row.moves
    assert shown(live.state) == shown(rooms_runner.replayed(row).state)


def test_slow_requests_past_a_clients_bound_are_refused(client: TestClient,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    browsed = _slow_replays(client, monkeypatch, workers=2, per_client=1, queue=1)
    with _browsing(client, browsed, 2) as answers:
        refused = client.get(f"/api/games/{browsed}/position?upto=0")
        assert refused.status_code == 429 and "slow requests" in refused.json()["error"]
    assert answers == [200, 200] and client.app.state.server.heavy.clients() == 0


# -- quotas -------------------------------------------------------------------------------------


def test_refused_creations_use_no_quota(db: Path) -> None:
    app = create_app(Settings(db, agent_workers="thread", creates_per_minute=2))
    with TestClient(app, base_url="http://localhost") as client:
        for _ in range(5):
            assert client.post("/api/games", json={"game": "chess"}).status_code == 400
        create(client, "blocking_queen", opponent="hotseat")
        create(client, "blocking_queen", opponent="hotseat")
        assert client.post("/api/games", json={"game": "blocking_queen"}).status_code == 429


def _resign(client: TestClient, game_id: str, token: str) -> Any:
    return client.post(f"/api/games/{game_id}/resign", json={},
                       headers={"X-Seat-Token": token})


def _rematch(client: TestClient, game_id: str, token: str) -> Any:
    return client.post(f"/api/games/{game_id}/rematch", json={"action": "offer"},
                       headers={"X-Seat-Token": token})


def test_a_rematch_chain_cannot_pass_the_creation_quota(db: Path) -> None:
    """Once POST /api/games answers 429, a resign and a rematch offer in a hot-seat game
    made a new game each time; a rematch is a creation like any other now."""
    app = create_app(Settings(db, agent_workers="thread", creates_per_minute=3))
    with TestClient(app, base_url="http://localhost") as client:
        made = create(client, "blocking_queen", opponent="hotseat")
        game_id, token = made["id"], made["token"]
        for _ in range(2):  # the quota spent on a chain of rematches...
            assert _resign(client, game_id, token).status_code == 200
            answer = _rematch(client, game_id, token)
            assert answer.status_code == 200, answer.text
            game_id = answer.json()["rematch"]["id"]
            token = answer.json()["rematch"]["link"].split("#t=")[1]
        refused = client.post("/api/games", json={"game": "blocking_queen"})
        assert refused.status_code == 429  # ...counts as new games did
        before = app.state.server.store.count()
        assert _resign(client, game_id, token).status_code == 200
        chained = _rematch(client, game_id, token)
        assert chained.status_code == 429, chained.text
        error = chained.json()["error"]
        assert "3 games created from this address" in error and "\n" not in error
        assert app.state.server.store.count() == before
        assert view(client, game_id, token)["rematch"] is None  # nothing half made


QUEEN_RECORD = Record("blocking_queen", {"k": 2}, "9,14", ["a", "b"], []).to_json()
"""A record of a queen game with no move yet (opened as a game in progress)."""


def test_games_in_progress_are_bounded_per_address_on_every_path(db: Path) -> None:
    """An address holds at most ``games_in_progress`` unfinished games, however it makes
    them: a new game, an opened record, a rematch, a challenge made or accepted, a claimed
    invitation; a game that ends no longer counts."""
    settings = Settings(db, agent_workers="thread", games_in_progress=3)
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        first = create(client, "blocking_queen", opponent="hotseat")
        create(client, "losat", opponent="hotseat")
        opened = client.post("/api/records", json={"record": QUEEN_RECORD})
        assert opened.status_code == 201, opened.text
        # a lobby challenge made elsewhere, and an invitation: refused at the bound too
        with TestClient(client.app, base_url="http://localhost",
                        client=("203.0.113.9", 1)) as other:
            challenge = other.post("/api/challenges", json={"game": "losat", "colour": 0})
            invited = other.post("/api/games", json={"game": "losat", "opponent": "online"})
        refusals = [
            client.post("/api/games", json={"game": "blocking_queen"}),
            client.post("/api/records", json={"record": QUEEN_RECORD}),
            client.post("/api/challenges", json={"game": "losat", "colour": 0}),
            client.post(f"/api/challenges/{challenge.json()['id']}/accept", json={}),
            claim(client, invited.json()),
        ]
        for refused in refusals:
            assert refused.status_code == 429, refused.text
            error = refused.json()["error"]
            assert "3 unfinished games" in error and "\n" not in error
        # a game that ends frees its place; its rematch takes it again
        assert _resign(client, first["id"], first["token"]).status_code == 200
        rematch = _rematch(client, first["id"], first["token"])
        assert rematch.status_code == 200, rematch.text
        assert client.post("/api/games", json={"game": "losat"}).status_code == 429
        accepted = client.post(f"/api/challenges/{challenge.json()['id']}/accept", json={})
        assert accepted.status_code == 429


def test_a_start_already_decided_is_refused_for_a_game_and_a_challenge(
        client: TestClient) -> None:
    """A typed start where one side has no pieces was accepted, and its acceptor lost with
    no move played."""
    decided = {"start": "prolog", "position": "[[[1,1],[1,2]],[]]"}
    answers = [client.post("/api/games", json={"game": "war_of_life", "opponent": opponent,
                                                "params": decided})
               for opponent in ("online", "hotseat", "agent")]
    answers.append(client.post("/api/challenges", json={"game": "war_of_life", "colour": 0,
                                                         "params": decided}))
    for answer in answers:
        assert answer.status_code == 400, answer.text
        error = answer.json()["error"]
        assert "already decided" in error and "\n" not in error
    assert client.get("/api/challenges").json()["challenges"] == []
    assert client.app.state.server.store.count() == 0


# -- one address's agents cannot hold up another's ------------------------------------------------


SLOW_SEARCH = 15.0
"""Seconds a stand-in search of the computer takes for the busy address's games."""


class SlowAgents:
    """``catalog.choose_move`` with Losat's searches slow (:data:`SLOW_SEARCH` s, in small
    steps, so a stop can land between them) and the other games' as they are; it notes when
    each search started, was stopped or finished."""

    def __init__(self, original: Callable[..., str]) -> None:
        self.original = original
        self.events: list[tuple[str, float]] = []

    def __call__(self, state: Any, seat: int, name: str, limit: Any, seed: int) -> str:
        if state.info.name != "losat":
            return self.original(state, seat, name, limit, seed)
        self.events.append(("started", time.perf_counter()))
        end = time.perf_counter() + SLOW_SEARCH
        try:
            while time.perf_counter() < end:
                time.sleep(0.005)
        except BaseException:
            self.events.append(("stopped", time.perf_counter()))
            raise
        self.events.append(("finished", time.perf_counter()))
        return str(state.action_to_string(state.legal_actions()[0], seat))

    def count(self, kind: str) -> int:
        return sum(1 for event, _ in self.events if event == kind)


@pytest.fixture
def slow_agents(monkeypatch: pytest.MonkeyPatch) -> SlowAgents:
    from lifearena.web import catalog

    agents = SlowAgents(catalog.choose_move)
    monkeypatch.setattr(catalog, "choose_move", agents)
    return agents


def test_one_addresss_slow_agents_do_not_delay_another_addresss_agent(
        db: Path, slow_agents: SlowAgents) -> None:
    """An address with its most games against the computer searching (and a fifth refused)
    does not delay another address's quick agent: that one finds a worker at once."""
    app = create_app(Settings(db, agent_workers="thread", workers=2))

    def client_at(address: str) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(address, 1)),
                                 base_url="http://localhost")

    async def agent_reply(quiet: httpx.AsyncClient) -> float:
        """Seconds from a new easy War of Life game to its agent's first move."""
        started = time.perf_counter()
        made = (await quiet.post("/api/games", json={
            "game": "war_of_life", "opponent": "agent", "level": "easy", "side": 1,
            "params": {"start": "random", "seed": 3}})).json()
        headers = {"X-Seat-Token": made["token"]}
        while (await quiet.get(f"/api/games/{made['id']}", headers=headers)
               ).json()["move_number"] < 1:
            assert time.perf_counter() - started < 30, "the quiet agent never moved"
            await asyncio.sleep(0.01)
        return time.perf_counter() - started

    async def scenario() -> float:
        async with app.router.lifespan_context(app), client_at("10.0.0.1") as busy, \
                client_at("10.0.0.2") as quiet:
            await agent_reply(quiet)  # the engine loaded (a process worker's warm-up does it)
            hard = {"game": "losat", "opponent": "agent", "level": "hard", "side": 1}
            for _ in range(4):  # the agent moves first: four searches queued at once
                assert (await busy.post("/api/games", json=hard)).status_code == 201
            deadline = time.monotonic() + 10
            while slow_agents.count("started") < 1:
                assert time.monotonic() < deadline, "the busy address's searches never began"
                await asyncio.sleep(0.01)
            took = await agent_reply(quiet)
            assert took < SLOW_SEARCH / 3, f"the quiet address's agent took {took:.2f} s"
            fifth = await busy.post("/api/games", json=hard)
            assert fifth.status_code == 429 and "searches" in fifth.json()["error"]
            return took

    asyncio.run(scenario())


def test_resigning_stops_the_agents_search_and_frees_its_worker(
        client: TestClient, slow_agents: SlowAgents) -> None:
    made = create(client, "losat", "agent", level="hard", side=1)
    wait_until(lambda: slow_agents.count("started") == 1, "the agent's search began")
    resigned = time.perf_counter()
    assert _resign(client, made["id"], made["token"]).status_code == 200
    wait_until(lambda: slow_agents.count("stopped") == 1, "the search stopped",
               within=SLOW_SEARCH / 3)
    stopped_at = dict(slow_agents.events)["stopped"]
    assert stopped_at - resigned < SLOW_SEARCH / 3 and slow_agents.count("finished") == 0
    server = client.app.state.server
    wait_until(lambda: server.agents.running() == 0, "the worker free",
               within=SLOW_SEARCH / 3)
    shown = view(client, made["id"], made["token"])
    assert not shown["thinking"] and shown["agent_error"] is None
    assert shown["outcome"] is not None and shown["move_number"] == 0


def test_sockets_from_one_address_are_bounded(client: TestClient) -> None:
    created = create(client, "war_of_life")
    with contextlib.ExitStack() as stack:
        for _ in range(SOCKETS_PER_ADDRESS):
            page = stack.enter_context(connect(client, created["id"]))
            assert page.receive_json()["type"] == "state"
        with client.websocket_connect(ws_url(created["id"])) as extra:
            refused = extra.receive_json()
        assert refused["status"] == 429 and "from this address" in refused["error"]


# -- another site cannot act on the server ------------------------------------------------------


def test_a_cross_site_form_post_creates_nothing(client: TestClient) -> None:
    before = client.app.state.server.store.count()
    simple = client.post("/api/games", content='{"game": "losat"}',
                         headers={"Content-Type": "text/plain"})
    assert simple.status_code == 415
    foreign = client.post("/api/games", json={"game": "losat"},
                          headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403
    fetched = client.post("/api/games", json={"game": "losat"},
                          headers={"Sec-Fetch-Site": "cross-site"})
    assert fetched.status_code == 403
    assert client.app.state.server.store.count() == before
    own = client.post("/api/games", json={"game": "losat"},
                      headers={"Origin": "http://localhost"})
    assert own.status_code == 201


def test_a_rebinding_host_name_is_refused(client: TestClient) -> None:
    response = client.get("/api/catalog", headers={"Host": "attacker.example"})
    assert response.status_code == 400 and "attacker.example" in response.json()["error"]
    from starlette.websockets import WebSocketDisconnect

    # the handshake itself is refused: the socket is closed before it is accepted
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
            ws_url("abcdefgh"), headers={"Origin": "http://evil.example"}):
        pass
    assert refused.value.code == 1008


# -- under a real server: forwarded addresses, a page that floods and never reads -----------------


@contextlib.contextmanager
def _served(db: Path, proxies: str | None, **settings: Any) -> Iterator[str]:
    """``create_app`` under uvicorn, configured as ``lifearena serve`` configures it."""
    with _serving(create_app(Settings(db, agent_workers="thread", **settings)),
                  proxies) as where:
        yield where


@contextlib.contextmanager
def _serving(app: Any, proxies: str | None = None) -> Iterator[str]:
    """``app`` under uvicorn, configured as ``lifearena serve`` configures it."""
    import uvicorn

    from lifearena.cli.serve import server_config

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(server_config(app, proxies, host="127.0.0.1", port=port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)


@pytest.mark.parametrize(("proxies", "accepted"), [(None, 2), ("127.0.0.1", 4)])
def test_x_forwarded_for_counts_only_from_the_proxies_the_operator_names(
        db: Path, proxies: str | None, accepted: int) -> None:
    with _served(db, proxies, creates_per_minute=2) as where:
        answers = [httpx.post(f"http://{where}/api/games", json={"game": "blocking_queen"},
                              headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
                   for i in range(4)]
    assert answers.count(201) == accepted and answers.count(429) == 4 - accepted


def test_a_spectator_that_floods_and_never_reads_slows_no_player(db: Path) -> None:
    """A page that sends junk as fast as it can and reads nothing is answered for a burst,
    then closed for flooding (1008) and its address held off; the players, from another
    address, play on as if it were not there."""
    from websockets.sync.client import connect as ws_connect

    with _served(db, None) as where:
        made = httpx.post(f"http://{where}/api/games",
                          json={"game": "war_of_life", "opponent": "hotseat",
                                "params": {"start": "random", "seed": 8}}).json()
        game_id, token = made["id"], made["token"]
        port = int(where.split(":")[1])
        # the flooder, from an address of its own: a raw handshake, a hello, then junk as
        # fast as the server takes it, and not one byte read back until the end
        flooder = _raw_socket(FLOODER, port, game_id, where)
        stop = threading.Event()

        def flood() -> None:
            frame = _masked(json.dumps({"type": "hello", "token": None}).encode())
            junk = _masked(json.dumps({"type": "junk"}).encode())  # each one refused
            with contextlib.suppress(OSError):
                flooder.sendall(frame)
                while not stop.is_set():
                    flooder.sendall(junk * 50)

        threading.Thread(target=flood, daemon=True).start()
        slowest = 0.0
        with ws_connect(f"ws://{where}/ws/{game_id}") as player:
            player.send(json.dumps({"type": "hello", "token": token}))
            state = json.loads(player.recv(timeout=10))
            for _ in range(12):
                if state["outcome"]:
                    break
                seat = state["awaiting"][0]
                text = state["legal"][str(seat)]["moves"][0]["move"]
                started = time.perf_counter()
                player.send(json.dumps({"type": "move", "move": text, "ply": state["ply"],
                                        "seat": seat}))
                while True:
                    answer = json.loads(player.recv(timeout=10))
                    if answer["type"] == "state" and answer["ply"] > state["ply"]:
                        break
                slowest = max(slowest, time.perf_counter() - started)
                state = answer
        stop.set()
        frames = _frames_until_closed(flooder)
        flooder.close()
        # and the flooder's address may not come straight back
        again = _raw_socket(FLOODER, port, game_id, where)
        again.sendall(_masked(json.dumps({"type": "hello", "token": None}).encode()))
        refused = _frames_until_closed(again)
        again.close()
    assert state["ply"] >= 2 and slowest < 2.0
    errors = [json.loads(payload)["error"] for opcode, payload in frames if opcode == 1
              and json.loads(payload)["type"] == "error"]
    assert errors and len(errors) <= 60  # a burst answered, then nothing more read
    assert any("slow down" in error for error in errors)  # told why before it was closed
    close = [payload for opcode, payload in frames if opcode == 8]
    assert close and int.from_bytes(close[0][:2], "big") == 1008
    assert b"flooding" in close[0]
    assert [json.loads(p)["status"] for o, p in refused if o == 1] == [429]
    assert [int.from_bytes(p[:2], "big") for o, p in refused if o == 8] == [4429]


FLOODER = "127.0.0.2"
"""The flooding page's address (Linux routes all of 127/8 to the loopback)."""


def _raw_socket(address: str, port: int, game_id: str, where: str) -> socket.socket:
    """A WebSocket handshake for ``game_id`` by hand, from ``address``, with a small receive
    buffer; returned once the server accepted it (frames sent before the server's answer
    could be read as part of the HTTP request)."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.settimeout(20)
    raw.bind((address, 0))
    raw.connect(("127.0.0.1", port))
    raw.sendall((f"GET /ws/{game_id} HTTP/1.1\r\nHost: {where}\r\nUpgrade: websocket\r\n"
                 "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while not head.endswith(b"\r\n\r\n"):  # byte by byte: not one byte of a frame read
        byte = raw.recv(1)
        assert byte, f"the server ended the handshake: {head!r}"
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head[:80]
    return raw


def _frames_until_closed(raw: socket.socket, timeout: float = 20.0) -> list[tuple[int, bytes]]:
    """Every frame the server sent on ``raw`` after its handshake (opcode, payload), read
    until its close frame or the end of the connection (past ``timeout`` the test fails)."""
    raw.settimeout(timeout)
    data, frames = b"", []
    with contextlib.suppress(ConnectionResetError):
        while chunk := raw.recv(65536):
            data += chunk
            while len(data) >= 2:
                opcode, size, at = data[0] & 0x0F, data[1] & 0x7F, 2
                if size == 126:
                    size, at = int.from_bytes(data[2:4], "big"), 4
                elif size == 127:
                    size, at = int.from_bytes(data[2:10], "big"), 10
                if len(data) < at + size:
                    break
                frames.append((opcode, data[at:at + size]))
                data = data[at + size:]
            if frames and frames[-1][0] == 8:
                break
    return frames


def _masked(payload: bytes) -> bytes:
    """One masked WebSocket text frame (a client's frames are masked)."""
    mask = b"\x01\x02\x03\x04"
    header = bytes([0x81, 0x80 | len(payload)]) if len(payload) < 126 else bytes(
        [0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big")
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


# -- big views and answers: built once, streamed, bounded in bytes --------------------------------


def _opened(client: TestClient, turns: int) -> dict[str, Any]:
    """A hot-seat p2life game of ``turns`` turns of passes, opened from its record (and
    going on)."""
    opened = client.post("/api/records", json={"record": _long_p2life_record(turns, 1000)})
    assert opened.status_code == 201, opened.text
    return dict(opened.json())


def test_a_view_is_built_once_per_change_however_many_read_it(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sixteen readers of a seat's view, sixteen of a spectator's and two spectators'
    sockets cost one build of each view, not one each; a move costs one build of each view
    read after it. Every reader gets the same bytes."""
    from lifearena.web.live import LiveGame

    opened = _opened(client, 40)
    game_id, token = opened["id"], opened["token"]
    builds: list[tuple[int, ...]] = []
    build = LiveGame._view_body

    def counted(self: LiveGame, seats: Any, legal: bool) -> dict[str, Any]:
        builds.append(tuple(seats))
        return build(self, seats, legal)

    monkeypatch.setattr(LiveGame, "_view_body", counted)
    path = f"/api/games/{game_id}"
    seat = {client.get(path, headers={"X-Seat-Token": token}).content for _ in range(16)}
    watched = {client.get(path).content for _ in range(16)}
    with connect(client, game_id) as one, connect(client, game_id) as two:
        pushed = {one.receive_text().encode(), two.receive_text().encode()}
        assert len(seat) == len(watched) == 1 and pushed == watched
        assert sorted(builds) == [(), (0, 1)]
        played = client.post(f"{path}/moves", headers={"X-Seat-Token": token},
                             json={"move": "pass", "seat": 0, "ply": 40})
        assert played.status_code == 200, played.text
        assert json.loads(one.receive_text())["chosen"] == [0]
        assert json.loads(two.receive_text())["chosen"] == [0]
    for _ in range(16):
        assert client.get(path).json()["chosen"] == [0]
    assert sorted(builds) == [(), (), (0, 1), (0, 1)]


def test_one_address_rereading_a_big_view_is_held_to_a_byte_rate(db: Path) -> None:
    """An address that GETs a big view over and over is refused (429, one line) once it
    fetched more than its bytes a second allow, cheaply; another address still reads the
    same view, and the first address still moves (only view reads are charged)."""
    from lifearena.web.limits import ByteRate

    app = create_app(Settings(db, agent_workers="thread"))
    with TestClient(app, base_url="http://localhost", client=("10.1.0.1", 5000)) as greedy, \
            TestClient(app, base_url="http://localhost", client=("10.1.0.2", 5000)) as quiet:
        # the server's rate, small and on a clock that stands still: nothing refills
        app.state.server.view_rate = ByteRate(5_000, 10_000, clock=lambda: 0.0)
        opened = _opened(greedy, 40)
        path = f"/api/games/{opened['id']}"
        size = len(greedy.get(path).content)
        assert size > 1_000
        # a burst of 10,000 bytes, and no time passes: refused once it is spent
        statuses = [greedy.get(path).status_code for _ in range(10_000 // size + 1)]
        assert 429 in statuses and statuses[0] == 200
        refused = greedy.get(path)
        assert refused.status_code == 429
        error = refused.json()["error"]
        assert "\n" not in error and "a second" in error and "try again" in error
        assert quiet.get(path).status_code == 200
        played = greedy.post(f"{path}/moves", headers={"X-Seat-Token": opened["token"]},
                             json={"move": "pass", "seat": 0, "ply": 40})
        assert played.status_code == 200, played.text


def test_the_cached_view_is_the_view_built_afresh() -> None:
    """The text every reader shares equals the view built afresh, for every seat list,
    through moves, offers and pending choices, and with the clocks read at answer time."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from lifearena.web import catalog
    from lifearena.web.live import LiveGame

    @settings(max_examples=25, deadline=None)
    @given(st.lists(st.integers(0, 10**6), max_size=12), st.booleans(), st.booleans())
    def check(picks: list[int], clocked: bool, presence: bool) -> None:
        state = catalog.new_state("war_of_life", {"start": "random", "seed": 3})
        row = GameRow("abcdefgh", "war_of_life", dict(state.params), state.setup(),
                      {"kind": "online"}, ["a", "b"])
        now = [1000.0]
        game = LiveGame.from_row(row)
        game.now = lambda: now[0]
        if clocked:
            from lifearena.web.clock import GameClock

            game.clock = GameClock.start({"kind": "live", "minutes": 5})
        for pick in picks:
            for seats in ([], [0], [1], [0, 1]):
                assert json.loads(game.view_text(seats)) == game.view(seats)
            seat = game.awaiting()[0] if game.awaiting() else None
            if seat is None:
                break
            if pick % 5 == 0:
                game.connected[pick % 2] = presence
            elif pick % 5 == 1:
                game.row.offers["draw"] = seat
            else:
                legal = game.state.legal_actions(seat)
                text = game.state.action_to_string(legal[pick % len(legal)], seat)
                game.play(text, seat, len(game.row.moves))
            now[0] += 1.5

    check()


def test_a_long_games_view_lists_its_last_moves_and_pages_the_rest(
        client: TestClient) -> None:
    """A game of 450 moves: its view lists the last 200 (a 10,000-move game's view is not
    half a megabyte), says how many come before, and the rest come in pages that join into
    the whole list; a page past the list or too long is refused."""
    from lifearena.web.live import MOVES_PAGE, VIEW_MOVES

    opened = _opened(client, 450)
    path = f"/api/games/{opened['id']}"
    seen = view(client, opened["id"])
    assert (seen["ply"], seen["moves_from"], len(seen["moves"])) == (450, 450 - VIEW_MOVES,
                                                                    VIEW_MOVES)
    assert len(seen["move_sides"]) == VIEW_MOVES
    assert seen["first_turn"] == 450 - VIEW_MOVES + 1  # a simultaneous move is a turn
    moves: list[str] = []
    while len(moves) < seen["moves_from"]:
        limit = min(100, seen["moves_from"] - len(moves))
        page = client.get(f"{path}/moves", params={"from": len(moves), "limit": limit}).json()
        assert page["from"] == len(moves) and page["count"] == 450
        assert page["first_turn"] == len(moves) + 1 and page["move_sides"] == [None] * limit
        moves += page["moves"]
    record = client.get(f"{path}/record").json()
    assert moves + seen["moves"] == record["moves"]
    for query in ({"from": 451}, {"from": -1}, {"limit": MOVES_PAGE + 1}, {"limit": 0}):
        refused = client.get(f"{path}/moves", params=query)
        assert refused.status_code == 400 and "\n" not in refused.json()["error"], query


def _asgi_post(app: Any, path: str, body: bytes, client: str = "127.0.0.1"
               ) -> list[dict[str, Any]]:
    """What ``app`` sends for a POST of ``body`` (JSON) to ``path``: its ASGI messages, as
    the server hands them on (a test client would join a streamed body)."""
    sent: list[dict[str, Any]] = []

    async def scenario() -> None:
        asked = False
        forever = asyncio.Event()

        async def receive() -> dict[str, Any]:
            nonlocal asked
            if not asked:
                asked = True
                return {"type": "http.request", "body": body, "more_body": False}
            await forever.wait()  # the peer stays until the answer is sent
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"},
                 "http_version": "1.1", "method": "POST", "scheme": "http", "path": path,
                 "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": [(b"host", b"localhost"), (b"content-type", b"application/json"),
                             (b"content-length", str(len(body)).encode())],
                 "client": (client, 40000), "server": ("localhost", 80)}
        async with app.router.lifespan_context(app):
            await app(scope, receive, send)

    asyncio.run(scenario())
    return sent


def test_a_replay_answer_is_encoded_in_a_worker_and_streamed_in_chunks(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lab's replay answer (megabytes for a long game on a big board) is built and
    encoded by the slow-work worker, off the event loop, and handed to the server in
    chunks, so the server's flow control paces it; its bytes are given back once sent."""
    from lifearena.web.answers import CHUNK
    from lifearena.web.lab import replays

    workers: list[int] = []
    encode = replays.replay_answer

    def in_worker(record: Any) -> bytes:
        workers.append(threading.get_ident())
        return encode(record)

    monkeypatch.setattr(replays, "replay_answer", in_worker)
    app = create_app(Settings(db, agent_workers="thread"))
    record = _long_p2life_record(300)
    sent = _asgi_post(app, "/api/lab/replay", json.dumps({"record": record}).encode())
    assert sent[0]["status"] == 200
    pieces = [m["body"] for m in sent[1:] if m["type"] == "http.response.body"]
    answer = b"".join(pieces)
    assert len(answer) > 4 * CHUNK and all(len(piece) <= CHUNK for piece in pieces)
    assert json.loads(answer) == replays.replay_positions(record)
    assert workers and threading.get_ident() not in workers
    assert app.state.answers.held() == 0 and app.state.answers.clients() == 0


BIG = 24 * 2**20
"""Bytes of the stand-in replay answer: more than loopback's socket buffers hold."""


def _big_positions(record: Any) -> dict[str, Any]:
    return {"positions": "x" * BIG}


def _unread_request(address: str, port: int, path: str, body: bytes) -> socket.socket:
    """A POST of ``body`` from ``address`` whose answer is never read (a small receive
    buffer, and not one byte taken from it)."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.bind((address, 0))
    raw.connect(("127.0.0.1", port))
    raw.sendall((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                 "Content-Type: application/json\r\n"
                 f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
    return raw


def test_unread_big_answers_are_bounded_per_address_in_bytes_and_released_on_disconnect(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An address whose big answers wait unread holds their bytes: past its budget its next
    big request is refused (429) while another address is answered; when the reader
    disconnects, the bytes are given back and the address is answered again."""
    from lifearena.web.lab import replays

    monkeypatch.setattr(replays, "replay_positions", _big_positions)
    app = create_app(Settings(db, agent_workers="thread", answer_bytes_per_address=2**20))
    answers = app.state.answers
    body = json.dumps({"record": _long_p2life_record(2)}).encode()
    greedy, other = "127.0.0.3", "127.0.0.4"
    with _serving(app) as where:
        port = int(where.split(":")[1])
        unread = _unread_request(greedy, port, "/api/lab/replay", body)
        try:
            wait_until(lambda: answers.held(greedy) > 0, "the unread answer held")

            def ask(address: str) -> httpx.Response:
                with httpx.Client(transport=httpx.HTTPTransport(local_address=address),
                                  timeout=30) as http:
                    return http.post(f"http://{where}/api/lab/replay", content=body,
                                     headers={"Content-Type": "application/json"})

            refused = ask(greedy)
            assert refused.status_code == 429, refused.text
            assert "not yet read" in refused.json()["error"]
            answered = ask(other)
            assert answered.status_code == 200 and len(answered.content) > BIG
            assert answers.held(other) == 0  # given back once sent in full
            assert answers.held(greedy) == BIG + len(b'{"positions":""}')
        finally:
            unread.close()  # the reader goes away, its answer unread
        wait_until(lambda: answers.held() == 0 and answers.clients() == 0,
                   "the bytes given back on disconnect")
        assert ask(greedy).status_code == 200


def test_a_big_answer_queued_for_a_client_that_left_is_not_built(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay request waiting for a worker is dropped when its client disconnects: the
    worker never builds an answer nobody will read (and a stopping server waits for none)."""
    from lifearena.web.lab import replays

    release, built = threading.Event(), []

    def held_replay(record: Any) -> dict[str, Any]:
        built.append(record)
        release.wait(30)
        return {"positions": []}

    monkeypatch.setattr(replays, "replay_positions", held_replay)
    app = create_app(Settings(db, agent_workers="thread"))
    heavy = app.state.server.heavy = app.state.heavy = HeavyWork("thread", workers=1,
                                                                per_client=1, queue=4)
    body = json.dumps({"record": _long_p2life_record(2)}).encode()
    address = "127.0.0.7"
    with _serving(app) as where:
        port = int(where.split(":")[1])
        running = _unread_request(address, port, "/api/lab/replay", body)
        wait_until(lambda: built, "the first replay building")
        queued = _unread_request(address, port, "/api/lab/replay", body)
        wait_until(lambda: heavy.in_flight(address) == 2, "the second replay queued")
        queued.close()
        wait_until(lambda: heavy.in_flight(address) == 1, "the departed client's replay dropped")
        release.set()
        running.settimeout(10)
        assert running.recv(64).startswith(b"HTTP/1.1 200")
        running.close()
        wait_until(lambda: heavy.in_flight(address) == 0, "the first replay done")
    assert len(built) == 1


# -- players: accounts, sessions, tokens, names, ratings ------------------------------------------


@contextlib.contextmanager
def _browsers(db: Path, **settings: Any) -> Iterator[Callable[[str], TestClient]]:
    """Browsers (clients that keep their cookies) of one app, each from the address given."""
    app = create_app(Settings(db, agent_workers="thread", **settings))
    with contextlib.ExitStack() as stack:
        def browser(address: str) -> TestClient:
            return stack.enter_context(TestClient(app, base_url="http://localhost",
                                                  client=(address, 5000)))
        yield browser


def _signup(client: TestClient, name: str, password: str = "long enough 1") -> None:
    answer = client.post("/api/account/signup", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text


def test_login_brute_force_is_refused_before_any_password_is_hashed(db: Path) -> None:
    with _browsers(db) as browser:
        owner, attacker = browser("10.2.0.1"), browser("10.2.0.2")
        _signup(owner, "Vault")
        hasher = attacker.app.state.identity.hasher
        checked = []
        real = hasher._check
        hasher._check = lambda stored, password: checked.append(password) or real(stored,
                                                                                  password)
        codes = [attacker.post("/api/account/login",
                               json={"name": "Vault", "password": f"try {n:05d}"}).status_code
                 for n in range(40)]
        assert codes.count(401) == len(checked) <= 8 and codes[-1] == 429
        # many accounts from one address: the address's own bound
        sprayed = [attacker.post("/api/account/login",
                                 json={"name": f"user{n}", "password": "x" * 8}).status_code
                   for n in range(30)]
        assert sprayed[-1] == 429 and len(checked) <= 20


def test_a_login_flood_does_not_slow_a_move(db: Path) -> None:
    import argon2

    with _browsers(db) as browser:
        player, flooder = browser("10.3.0.1"), browser("10.3.0.2")
        identity = player.app.state.identity
        identity.hasher._hasher = argon2.PasswordHasher(time_cost=8, memory_cost=65536)
        _signup(flooder, "Flooded")
        made = player.post("/api/games", json={"game": "blocking_queen",
                                               "opponent": "hotseat"}).json()
        stop = threading.Event()

        def flood() -> None:
            while not stop.is_set():
                flooder.post("/api/account/login", json={"name": "Flooded",
                                                         "password": "wrong pass"})
                flooder.post("/api/account/signup", json={"name": "Another",
                                                          "password": "some pass 1"})

        threads = [threading.Thread(target=flood) for _ in range(3)]
        for thread in threads:
            thread.start()
        try:
            wait_until(lambda: identity.hasher._waiting > 0, 30)
            timings = []
            for ply in range(6):
                legal = view(player, made["id"], made["token"])["legal"]
                text = next(iter(legal.values()))["moves"][0]["move"]
                started = time.perf_counter()
                answer = move(player, made["id"], made["token"], text, ply=ply)
                timings.append(time.perf_counter() - started)
                assert answer.status_code == 200, answer.text
                if answer.json()["outcome"] is not None:
                    break
        finally:
            stop.set()
            for thread in threads:
                thread.join(30)
        assert sorted(timings)[len(timings) // 2] < 0.25, timings


def test_a_session_fixed_before_login_is_worth_nothing_after_it(db: Path) -> None:
    from lifearena.web.identity import COOKIE

    with _browsers(db) as browser:
        victim, attacker = browser("10.4.0.1"), browser("10.4.0.2")
        _signup(browser("10.4.0.3"), "Victim")
        attacker.post("/api/me/name", json={"name": "Planter"})
        planted = attacker.cookies.get(COOKIE)
        victim.cookies.set(COOKIE, planted, domain="localhost.local")  # planted in the victim's
        login = victim.post("/api/account/login", json={"name": "Victim",
                                                        "password": "long enough 1"})
        assert login.status_code == 200
        assert login.cookies.get(COOKIE) not in (None, planted)  # a new session
        assert attacker.get("/api/me").json()["player"] is None  # the planted session ended


def test_tokens_never_travel_in_a_url_nor_reach_the_logs(db: Path, caplog: Any) -> None:
    import logging

    with _browsers(db) as browser:
        owner = browser("10.5.0.1")
        _signup(owner, "Logged")
        made = owner.post("/api/account/tokens", json={"label": "t", "scopes": ["board:read"]})
        secret = made.json()["token"]
        for query in (f"token={secret}", f"access_token={secret}", f"api_key={secret}"):
            refused = owner.get(f"/api/me?{query}")
            assert refused.status_code == 400 and "URL" in refused.json()["error"]
            assert secret not in refused.text
        with caplog.at_level(logging.DEBUG):
            program = browser("10.5.0.2")
            assert program.get("/api/me", headers={"Authorization": f"Bearer {secret}"}
                               ).status_code == 200
            program.get("/api/me", headers={"Authorization": f"Bearer {secret}x"})
        assert secret not in caplog.text
        stored = sqlite3.connect(db).execute("SELECT id FROM tokens").fetchall()
        assert stored and all(secret not in row[0] for row in stored)


def test_a_bot_token_sent_by_another_sites_page_is_refused(db: Path) -> None:
    with _browsers(db) as browser:
        owner = browser("10.6.0.1")
        _signup(owner, "Tokened")
        secret = owner.post("/api/account/tokens",
                            json={"label": "t", "scopes": ["board:read"]}).json()["token"]
        bearer = {"Authorization": f"Bearer {secret}"}
        page = browser("10.6.0.2")
        for headers in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
            answer = page.get("/api/me", headers={**bearer, **headers})
            assert answer.status_code == 403 and "another site" in answer.json()["error"]
        # and the server grants no CORS: a page elsewhere cannot even send the header
        preflight = page.options("/api/me", headers={
            "Origin": "https://evil.example", "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization"})
        assert "access-control-allow-origin" not in preflight.headers


def test_a_name_cannot_pass_for_another_nor_carry_markup(db: Path) -> None:
    with _browsers(db) as browser:
        _signup(browser("10.7.0.1"), "Magnus")
        mimic = browser("10.7.0.2")
        for name in ("magnus", "MAGNUS", "Mаgnus", "Magnus\u200d", "Magnus\u202e",
                     "<img src=x onerror=alert(1)>", "Magnus ", "deleted-player", "Anonymous"):
            answer = mimic.post("/api/account/signup", json={"name": name,
                                                             "password": "long enough 1"})
            assert answer.status_code in (400, 409), name
            assert "<img" not in answer.text or answer.headers["content-type"].startswith(
                "application/json")
        page = mimic.get("/api/players/Magnus").json()
        assert page["player"]["name"] == "Magnus"


def test_private_seats_and_invitations_never_show_in_player_lists(db: Path) -> None:
    with _browsers(db) as browser:
        maker, stranger = browser("10.8.0.1"), browser("10.8.0.2")
        _signup(maker, "Private")
        made = maker.post("/api/games", json={"game": "losat", "opponent": "online"}).json()
        secrets = [made["token"], made["links"]["invite"].split("#i=")[1]]
        answers = [stranger.get(path).text for path in (
            "/api/players/Private", "/api/players/Private/games", "/api/me/games",
            "/api/games", f"/api/games/{made['id']}", "/api/leaderboard?game=losat")]
        assert all(secret not in text for secret in secrets for text in answers)
        assert stranger.get("/api/me/games").json() == {"playing": [], "your_turn": 0}
        # a stranger's session acts as nobody's seat in it
        assert stranger.post(f"/api/games/{made['id']}/moves",
                             json={"move": "+bK7", "ply": 0}).status_code == 403


def test_two_accounts_of_one_address_cannot_trade_rating(db: Path) -> None:
    with _browsers(db) as browser:
        feeder, fed = browser("10.9.0.1"), browser("10.9.0.1")
        _signup(feeder, "Feeder")
        _signup(fed, "Fed")
        made = fed.post("/api/games", json={"game": "war_of_life", "opponent": "online",
                                            "rated": True}).json()
        invitation = made["links"]["invite"].split("#i=")[1]
        taken = feeder.post(f"/api/games/{made['id']}/claim", json={"invitation": invitation})
        assert taken.status_code == 403 and "one address" in taken.json()["error"]
        challenge = fed.post("/api/challenges", json={"game": "war_of_life", "rated": True})
        accepted = feeder.post(f"/api/challenges/{challenge.json()['id']}/accept", json={})
        assert accepted.status_code == 403 and "address" in accepted.json()["error"]
        for client in (feeder, fed):
            client.post("/api/pools/war_of_life/1d/join", json={"rated": True})
        feeder.app.state.pools.pair_round()
        assert feeder.get("/api/pools/me").json()["paired"] is None
        assert fed.get("/api/me").json()["ratings"] == {}
