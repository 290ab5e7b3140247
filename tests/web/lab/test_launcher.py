"""Tournaments started from the lab's page: start, live progress, stop, resume, the
operator's token and the launcher's bounds (running, kept, disk).

Every wait is a polled condition with a generous deadline (:func:`until`): these tests run
child processes and must pass on a loaded machine.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lifearena.arena.storage import ResultsDB
from lifearena.arena.tournament import run_tournament
from lifearena.web import Settings
from lifearena.web.lab.admin import NEEDS_ADMIN, NO_ADMIN, WRONG_LINK
from lifearena.web.lab.launcher import Launcher, LaunchSpec, budget_message, folder_size
from lifearena.web.lab.tournaments import report_json

from .conftest import ADMIN, make_app, until

RUN = "tournament-life_for_two"
# greedy Life for Two plays a block of 4 games in about 0.2 s on an idle machine: 96 games
# in 24 blocks last seconds, long enough to be seen running and stopped midway
SLOW = {"game": "life_for_two", "agents": ["random", "greedy"], "games": 24, "seed": 11}
# 2,000 games: far more than a small disk budget holds
LONG = {"game": "life_for_two", "agents": ["random", "greedy"], "games": 500, "seed": 3}
QUICK = {"game": "blocking_queen", "agents": ["random", "greedy"], "games": 1, "seed": 2}
OPERATOR = {"X-Admin-Token": ADMIN}
START = "/api/lab/tournaments/start"


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[TestClient]:
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread",
                            tournaments_running=1), ADMIN)
    with TestClient(app, base_url="http://localhost") as client:
        yield client


def _games(lab: TestClient) -> int:
    return int(lab.get("/api/lab/tournaments").json()["files"][0]["runs"][0]["games"])


def _launch(lab: TestClient) -> dict[str, Any]:
    return lab.get("/api/lab/tournaments").json()["files"][0]["launch"]


def test_start_stop_resume_reaches_the_uninterrupted_tournament(lab: TestClient) -> None:
    started = lab.post(START, json=SLOW, headers=OPERATOR)
    assert started.status_code == 201, started.text
    launch = started.json()
    assert launch["state"] == "running" and launch["total"] == 96
    url = f"/api/lab/tournaments/{launch['id']}/{RUN}"
    first = lab.get(url).json()
    assert first["total"] == 96 and first["done"] < 96
    # one more is over this server's bound of one running tournament
    over = lab.post(START, json=SLOW, headers=OPERATOR)
    assert over.status_code == 429 and "at most 1" in over.json()["error"]
    # progress is live: games appear while the run goes on (the list of runs is the
    # cheap way to follow it; the report is computed anew each time)
    until(lambda: _games(lab) > first["done"], what="games stored while running")
    stopped = lab.post(f"/api/lab/tournaments/{launch['id']}/stop", json={},
                       headers=OPERATOR).json()
    assert stopped["state"] == "stopped" and stopped["message"] == "", stopped
    halfway = lab.get(url).json()
    assert halfway["status"] == "interrupted" and 0 < halfway["done"] < 96
    assert halfway["launch"]["state"] == "stopped"
    listed = lab.get("/api/lab/tournaments").json()
    assert [f["id"] for f in listed["files"]] == [launch["id"]]
    bounds = listed["launcher"]
    assert {k: bounds[k] for k in ("limit", "running", "max_launches", "disk_budget")} == {
        "limit": 1, "running": 0, "max_launches": 50, "disk_budget": 1 << 30}
    assert 0 < bounds["disk_used"] < 1 << 20
    resumed = lab.post(f"/api/lab/tournaments/{launch['id']}/resume", json={},
                       headers=OPERATOR).json()
    assert resumed["state"] == "running"
    until(lambda: _launch(lab)["state"] == "done", what="the resumed run to finish")
    final = lab.get(url).json()
    assert final["status"] == "done" and final["done"] == 96
    # the same tournament played in one go, in this process
    spec = LaunchSpec.from_json(SLOW)
    with ResultsDB(":memory:") as db:
        result = run_tournament(spec.config(), db=db)
        alone = report_json(result, db.get_run(RUN).summaries())
    assert final["crosstable"] == alone["crosstable"]
    assert final["ranking"] == alone["ranking"]
    again = lab.post(f"/api/lab/tournaments/{launch['id']}/resume", json={}, headers=OPERATOR)
    assert again.status_code == 400 and "done" in again.json()["error"]


@pytest.mark.parametrize(("change", "named"), [
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"agents": ["random", "bot"]}, "agent 'bot'"),
    ({"agents": ["random", "random"]}, "name one twice"),
    ({"games": 1_000_000, "agents": ["random", "greedy", "mcts", "alphabeta"]},
     "expected at most"),
    # the declared body: exact JSON types and bounds, unknown fields refused
    ({"agents": []}, "agents: List should have at least 1 item"),
    ({"agents": ["random"] * 13}, "agents: List should have at most 12 items"),
    ({"agents": ["r" * 65]}, "agents.0: String should have at most 64 characters"),
    ({"agents": "random"}, "agents: Input should be a valid list"),
    ({"games": 0}, "games: Input should be greater than or equal to 1"),
    ({"games": "2"}, "games: Input should be a valid integer"),
    ({"games": 2.0}, "games: Input should be a valid integer"),
    ({"games": True}, "games: Input should be a valid integer"),
    ({"seed": -1}, "seed: Input should be greater than or equal to 0"),
    ({"seed": 2**40}, "seed: Input should be less than or equal to 4294967295"),
    ({"game": None}, "game: Input should be a valid string"),
    ({"workers": 8}, "workers: Extra inputs are not permitted"),
])
def test_bad_fields_are_refused_with_a_message(lab: TestClient, change: dict[str, Any],
                                               named: str) -> None:
    answer = lab.post(START, json={**SLOW, **change}, headers=OPERATOR)
    assert answer.status_code == 400, answer.text
    assert named in answer.json()["error"]
    assert len(answer.json()["error"].splitlines()) == 1
    assert lab.get("/api/lab/tournaments").json()["files"] == []


@pytest.mark.parametrize("body", [b"", b"[]", b"not json", b'{"game": "losat"', b"null",
                                  b'"text"', b"[" * 5000])
def test_a_body_that_is_no_object_is_a_400(lab: TestClient, body: bytes) -> None:
    answer = lab.post(START, content=body, headers={**OPERATOR,
                                                    "Content-Type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert len(answer.json()["error"].splitlines()) == 1


def test_unknown_launches_and_a_server_that_starts_none(lab: TestClient,
                                                        tmp_path: Path) -> None:
    for unknown in ("lab-7", "..%2Fx", "1", "x" * 300):
        answer = lab.post(f"/api/lab/tournaments/{unknown}/stop", json={}, headers=OPERATOR)
        assert answer.status_code in (404, 400), (unknown, answer.text)
    assert lab.post("/api/lab/tournaments/lab-7/stop", json={},
                    headers=OPERATOR).status_code == 404
    form = lab.get("/api/lab/tournaments/form", params={"game": "losat"},
                   headers=OPERATOR).json()
    assert form["enabled"] and form["admin"] and form["reason"] == ""
    assert "bot" not in form["agents"] and "greedy" in form["agents"]
    app = make_app(Settings(tmp_path / "other.sqlite", agent_workers="thread",
                            tournaments_running=0), ADMIN)
    with TestClient(app, base_url="http://localhost") as closed:
        form = closed.get("/api/lab/tournaments/form", headers=OPERATOR).json()
        assert not form["enabled"] and "starts no tournaments" in form["reason"]
        refused = closed.post(START, json=SLOW, headers=OPERATOR)
        assert refused.status_code == 400 and "starts no tournaments" in refused.json()["error"]


def test_without_the_admin_token_nothing_starts_stops_or_resumes(lab: TestClient) -> None:
    started = lab.post(START, json=QUICK, headers=OPERATOR).json()
    control = [f"/api/lab/tournaments/{started['id']}/stop",
               f"/api/lab/tournaments/{started['id']}/resume"]
    for headers in ({}, {"X-Admin-Token": ""}, {"X-Admin-Token": "wrong"},
                    {"X-Admin-Token": ADMIN[:-1]}, {"X-Admin-Token": ADMIN + "x"},
                    {"X-Admin-Token": "x" * 5000}, {"X-Admin-Token": ADMIN.upper()}):
        for path in [START, *control]:
            refused = lab.post(path, json=QUICK if path == START else {}, headers=headers)
            assert refused.status_code == 403, (path, headers, refused.text)
            assert refused.json() == {"error": NEEDS_ADMIN}
        # the token is checked before the body: a bad body without it is still a 403
        assert lab.post(START, json={"x": 1}, headers=headers).status_code == 403
    listed = lab.get("/api/lab/tournaments").json()
    assert [f["id"] for f in listed["files"]] == [started["id"]]
    # the page learns whether its token is the server's, and why not
    form = lab.get("/api/lab/tournaments/form").json()
    assert form["enabled"] and not form["admin"] and form["reason"] == NEEDS_ADMIN
    form = lab.get("/api/lab/tournaments/form", headers={"X-Admin-Token": "stale"}).json()
    assert not form["admin"] and form["reason"] == WRONG_LINK
    until(lambda: _launch(lab)["state"] == "done", what="the quick tournament to finish")


def test_a_server_without_an_admin_token_is_read_only(tmp_path: Path) -> None:
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread",
                            tournaments_running=2), admin=None)
    with TestClient(app, base_url="http://localhost") as client:
        form = client.get("/api/lab/tournaments/form", headers=OPERATOR).json()
        # the page is no dead end: it says how to start a server that can start tournaments
        assert (form["enabled"], form["admin"], form["reason"]) == (False, False, NO_ADMIN)
        assert "lifearena serve --lab-admin" in form["reason"]
        for path in (START, "/api/lab/tournaments/lab-1/stop",
                     "/api/lab/tournaments/lab-1/resume"):
            for headers in ({}, OPERATOR, {"X-Admin-Token": "None"}):
                refused = client.post(path, json=QUICK, headers=headers)
                assert refused.status_code == 403 and refused.json() == {"error": NEEDS_ADMIN}
        listed = client.get("/api/lab/tournaments").json()
        assert listed["files"] == [] and listed["launcher"]["running"] == 0


def test_the_admin_link_carries_the_token_the_server_checks(tmp_path: Path) -> None:
    from urllib.parse import urlsplit

    from lifearena.web.lab import admin_link, new_admin_token

    token = new_admin_token()
    assert token != new_admin_token() and len(token) >= 32
    link = urlsplit(admin_link("http://127.0.0.1:8000", token))
    assert (link.path, link.fragment) == ("/lab/tournaments", f"admin={token}")
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread"), token)
    with TestClient(app, base_url="http://localhost") as client:
        sent = {"X-Admin-Token": link.fragment.removeprefix("admin=")}
        assert client.get("/api/lab/tournaments/form", headers=sent).json()["admin"]
        started = client.post(START, json=QUICK, headers=sent)
        assert started.status_code == 201, started.text
        assert client.post(START, json=QUICK, headers=OPERATOR).status_code == 403
        until(lambda: _launch(client)["state"] == "done", what="the tournament to finish")


def test_a_server_keeps_at_most_max_launches(tmp_path: Path) -> None:
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread"), ADMIN,
                   max_launches=2)
    with TestClient(app, base_url="http://localhost") as client:
        for _ in range(2):
            assert client.post(START, json=QUICK, headers=OPERATOR).status_code == 201
            until(lambda: all(f["launch"]["state"] == "done" for f in client.get(
                "/api/lab/tournaments").json()["files"]), what="the tournaments to finish")
        over = client.post(START, json=QUICK, headers=OPERATOR)
        assert over.status_code == 429
        assert over.json()["error"].startswith("this server keeps 2 started tournaments, "
                                               "its most; expected fewer")
        assert client.get("/api/lab/tournaments").json()["launcher"]["max_launches"] == 2
        assert len(client.get("/api/lab/tournaments").json()["files"]) == 2


def test_the_disk_budget_stops_a_running_tournament_by_itself(tmp_path: Path) -> None:
    """Nothing polls the server meanwhile: the launcher's own watcher stops the run."""
    folder = tmp_path / "launched"
    budget = 300_000
    launcher = Launcher(folder, limit=1, disk_budget=budget)
    try:
        launch = launcher.start(LaunchSpec.from_json(LONG))
        assert launch.process is not None and folder_size(folder) < budget
        until(lambda: launch.process is not None and launch.process.poll() is not None,
              seconds=300, what="the watcher to stop the tournament")
        # (the folder may be under the budget again: SQLite folds its -wal file into the
        # results file when the process closes it)
        assert launch.why == budget_message(budget)
        described = launch.describe()
        assert described["state"] == "stopped"
        assert described["message"] == ("stopped: the server's disk budget for tournaments "
                                         "(0.30 MB) is used up")
        assert launch.run_status() == "interrupted"
        assert launcher.describe()["launches"][0]["state"] == "stopped"
    finally:
        launcher.close()


def test_a_used_up_budget_is_shown_and_refuses_more(tmp_path: Path) -> None:
    budget = 300_000
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread"), ADMIN,
                   disk_budget=budget)
    with TestClient(app, base_url="http://localhost") as client:
        started = client.post(START, json=LONG, headers=OPERATOR).json()
        launch = until(lambda: (d := _launch(client))["state"] != "running" and d,
                       seconds=300, what="the budget to stop the tournament")
        assert launch["state"] == "stopped"
        assert launch["message"] == budget_message(budget)
        report = client.get(f"/api/lab/tournaments/{started['id']}/{RUN}").json()
        assert report["launch"]["message"] == budget_message(budget)
        assert 0 < report["done"] < report["total"]
        # the stopped process folded its -wal file into the results file: fill the folder
        # past the budget for good, as an operator's other files would
        folder = tmp_path / "games-tournaments"
        (folder / "other.bin").write_bytes(bytes(budget))
        bounds = client.get("/api/lab/tournaments").json()["launcher"]
        assert bounds["disk_budget"] == budget and bounds["disk_used"] >= budget
        for path in (START, f"/api/lab/tournaments/{started['id']}/resume"):
            refused = client.post(path, json=QUICK if path == START else {},
                                  headers=OPERATOR)
            assert refused.status_code == 429, refused.text
            assert refused.json()["error"].startswith(
                "the server's disk budget for tournaments (0.30 MB) is used up (")
            assert len(refused.json()["error"].splitlines()) == 1


def test_a_restarted_server_lists_its_launches_again(tmp_path: Path) -> None:
    folder = tmp_path / "launched"
    quick = LaunchSpec.from_json(QUICK)
    first = Launcher(folder, limit=1)
    launch = first.start(quick)
    assert launch.process is not None and launch.process.wait(300) == 0
    assert launch.state() == "done"
    # the next server finds it by its note: done, from its file; a new id follows it
    again = Launcher(folder, limit=1)
    assert [d["id"] for d in again.describe()["launches"]] == ["lab-1"]
    assert again.get("lab-1").state() == "done" and again.get("lab-1").spec == quick
    for damaged in ("{not json", "[1]", "null", '{"game": "losat", "agents": [], "games": 1}'):
        (folder / "lab-1.json").write_text(damaged)
        assert Launcher(folder).describe()["launches"] == []
    # a note whose results file was removed is not listed either
    (folder / "lab-1.json").write_text(json.dumps({**asdict(quick), "agents": ["random"]}))
    assert [d["id"] for d in Launcher(folder).describe()["launches"]] == ["lab-1"]
    (folder / "lab-1.sqlite").unlink()
    assert Launcher(folder).describe()["launches"] == []

