"""Tournaments started from the lab's page: start, live progress, stop, resume, bounds."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lifearena.arena.storage import ResultsDB
from lifearena.arena.tournament import run_tournament
from lifearena.web import Settings, create_app
from lifearena.web.lab.launcher import LaunchSpec
from lifearena.web.lab.tournaments import report_json

RUN = "tournament-life_for_two"
# greedy Life for Two plays a block of 4 games in about 0.2 s: 48 games in 12 blocks last
# seconds, long enough to be seen running and stopped midway
SLOW = {"game": "life_for_two", "agents": ["random", "greedy"], "games": 12, "seed": 11}


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(tmp_path / "games.sqlite", agent_workers="thread",
                              tournaments_running=1))
    with TestClient(app) as client:
        yield client


def _until(check: Callable[[], Any], seconds: float = 120) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("timed out")


def _games(lab: TestClient) -> int:
    return int(lab.get("/api/lab/tournaments").json()["files"][0]["runs"][0]["games"])


def test_start_stop_resume_reaches_the_uninterrupted_tournament(lab: TestClient) -> None:
    started = lab.post("/api/lab/tournaments/start", json=SLOW)
    assert started.status_code == 201, started.text
    launch = started.json()
    assert launch["state"] == "running" and launch["total"] == 48
    url = f"/api/lab/tournaments/{launch['id']}/{RUN}"
    first = lab.get(url).json()
    assert first["total"] == 48 and first["done"] < 48
    # one more is over this server's bound of one running tournament
    over = lab.post("/api/lab/tournaments/start", json=SLOW)
    assert over.status_code == 429 and "at most 1" in over.json()["error"]
    # progress is live: games appear while the run goes on (the list of runs is the
    # cheap way to follow it; the report is computed anew each time)
    _until(lambda: _games(lab) > first["done"])
    stopped = lab.post(f"/api/lab/tournaments/{launch['id']}/stop").json()
    assert stopped["state"] == "stopped", stopped
    halfway = lab.get(url).json()
    assert halfway["status"] == "interrupted" and 0 < halfway["done"] < 48
    assert halfway["launch"]["state"] == "stopped"
    listed = lab.get("/api/lab/tournaments").json()
    assert [f["id"] for f in listed["files"]] == [launch["id"]]
    assert listed["launcher"] == {"limit": 1, "running": 0}
    resumed = lab.post(f"/api/lab/tournaments/{launch['id']}/resume").json()
    assert resumed["state"] == "running"
    _until(lambda: lab.get("/api/lab/tournaments").json()["files"][0]["launch"]["state"]
           == "done")
    final = lab.get(url).json()
    assert final["status"] == "done" and final["done"] == 48
    # the same tournament played in one go, in this process
    spec = LaunchSpec.from_json(SLOW)
    with ResultsDB(":memory:") as db:
        result = run_tournament(spec.config(), db=db)
        alone = report_json(result, db.get_run(RUN).summaries())
    assert final["crosstable"] == alone["crosstable"]
    assert final["ranking"] == alone["ranking"]
    again = lab.post(f"/api/lab/tournaments/{launch['id']}/resume")
    assert again.status_code == 400 and "done" in again.json()["error"]


@pytest.mark.parametrize(("change", "named"), [
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"agents": []}, "agents []"),
    ({"agents": ["random", "bot"]}, "agent 'bot'"),
    ({"agents": ["random", "random"]}, "name one twice"),
    ({"games": 0}, "games per pairing 0"),
    ({"games": "2"}, "games per pairing 2"),
    ({"seed": -1}, "seed -1"),
    ({"games": 1_000_000, "agents": ["random", "greedy", "mcts", "alphabeta"]},
     "expected at most"),
])
def test_bad_fields_are_refused_with_a_message(lab: TestClient, change: dict[str, Any],
                                               named: str) -> None:
    answer = lab.post("/api/lab/tournaments/start", json={**SLOW, **change})
    assert answer.status_code == 400
    assert named in answer.json()["error"]
    assert lab.get("/api/lab/tournaments").json()["files"] == []


def test_unknown_launches_and_a_server_that_starts_none(lab: TestClient,
                                                        tmp_path: Path) -> None:
    assert lab.post("/api/lab/tournaments/lab-7/stop").status_code == 404
    assert lab.post("/api/lab/tournaments/../x/stop").status_code == 404
    form = lab.get("/api/lab/tournaments/form", params={"game": "losat"}).json()
    assert form["enabled"] and "bot" not in form["agents"] and "greedy" in form["agents"]
    app = create_app(Settings(tmp_path / "other.sqlite", agent_workers="thread",
                              tournaments_running=0))
    with TestClient(app) as closed:
        assert not closed.get("/api/lab/tournaments/form").json()["enabled"]
        refused = closed.post("/api/lab/tournaments/start", json=SLOW)
        assert refused.status_code == 400 and "starts no tournaments" in refused.json()["error"]


def test_a_restarted_server_lists_its_launches_again(tmp_path: Path) -> None:
    from lifearena.web.lab.launcher import Launcher

    folder = tmp_path / "launched"
    quick = LaunchSpec.from_json({"game": "blocking_queen", "agents": ["random", "greedy"],
                                  "games": 1, "seed": 2})
    first = Launcher(folder, limit=1)
    launch = first.start(quick)
    assert launch.process is not None and launch.process.wait(60) == 0
    assert launch.state() == "done"
    # the next server finds it by its note: done, from its file; a new id follows it
    again = Launcher(folder, limit=1)
    assert [d["id"] for d in again.describe()["launches"]] == ["lab-1"]
    assert again.get("lab-1").state() == "done" and again.get("lab-1").spec == quick
    for damaged in ("{not json", "[1]", "null"):
        (folder / "lab-1.json").write_text(damaged)
        assert Launcher(folder).describe()["launches"] == []
    # a note whose results file was removed is not listed either
    (folder / "lab-1.json").write_text(json.dumps({**asdict(quick), "agents": ["random"]}))
    assert [d["id"] for d in Launcher(folder).describe()["launches"]] == ["lab-1"]
    (folder / "lab-1.sqlite").unlink()
    assert Launcher(folder).describe()["launches"] == []
