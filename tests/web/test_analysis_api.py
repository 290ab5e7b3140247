"""The analysis routes: a finished game's analysis (409 before), any record's, one
position's, all cached and shared, bad input a 4xx in one line."""

from __future__ import annotations

import asyncio
import contextlib
import json

from fastapi.testclient import TestClient

from lifearena.core import Record
from lifearena.web import analysis_routes
from lifearena.web.analysis_routes import SharedResults

from .conftest import create, move

QUEEN = Record("blocking_queen", {"k": 1}, "2,2", ["a", "b"], ["1,1", "0,0"])


def finished_queen_game(client: TestClient) -> str:
    made = create(client, "blocking_queen", "hotseat",
                  params={"k": 1, "start": "square", "x": 2, "y": 2})
    for text in ("1,1", "0,0"):
        assert move(client, made["id"], made["token"], text).status_code == 200
    return str(made["id"])


def test_a_game_is_analysed_once_finished_and_not_before(client: TestClient) -> None:
    made = create(client, "blocking_queen", "hotseat",
                  params={"k": 1, "start": "square", "x": 2, "y": 2})
    early = client.get(f"/api/games/{made['id']}/analysis")
    assert early.status_code == 409 and "not finished" in early.json()["error"]
    game_id = finished_queen_game(client)
    answer = client.get(f"/api/games/{game_id}/analysis")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert [p["sides"][0]["mark"] for p in data["plies"]] == ["blunder", None]
    assert data["finished"] and data["method"] == "exact (palace numbers)"


def test_a_record_s_analysis_is_computed_once_for_every_asker(client: TestClient,
                                                              monkeypatch) -> None:
    calls = []
    real = analysis_routes.analysis_of

    def counted(record: Record) -> dict:
        calls.append(record.game)
        return real(record)

    monkeypatch.setattr(analysis_routes, "analysis_of", counted)
    body = {"record": QUEEN.to_json()}
    first = client.post("/api/analysis", json=body)
    renamed = Record(**{**json.loads(QUEEN.to_json()), "players": ["x", "y"]})
    second = client.post("/api/analysis", json={"record": renamed.to_text()})
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json() and len(calls) == 1


def test_concurrent_askers_share_one_computation() -> None:
    async def scenario() -> tuple[list[dict], int]:
        shared, started = SharedResults(4), []
        gate = asyncio.Event()

        async def work() -> dict:
            started.append(1)
            await gate.wait()
            return {"done": True}

        askers = [asyncio.ensure_future(shared.get("k", work)) for _ in range(5)]
        await asyncio.sleep(0)
        gate.set()
        return list(await asyncio.gather(*askers)), len(started)

    results, computations = asyncio.run(scenario())
    assert results == [{"done": True}] * 5 and computations == 1


def test_a_failed_computation_is_not_kept() -> None:
    async def scenario() -> dict:
        shared = SharedResults(4)

        async def fails() -> dict:
            raise ValueError("no")

        async def works() -> dict:
            return {"ok": 1}

        with contextlib.suppress(ValueError):
            await shared.get("k", fails)
        return await shared.get("k", works)

    assert asyncio.run(scenario()) == {"ok": 1}


def test_a_position_gives_the_board_choices_and_verdict(client: TestClient) -> None:
    record = Record("war_of_life", {}, "[[[1,4],[2,2],[4,7],[5,8]],[[4,6],[6,7],[8,4]]]",
                    ["a", "b"], [])
    answer = client.post("/api/analysis/position", json={"record": record.to_json()})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["display"]["grid"]["rows"] == 8 and data["to_move"] == [0]
    assert data["interaction"]["0"]["kind"] == "piece-then-target"
    assert "[4,7,4,8]" in {c["move"] for c in data["choices"]["0"]}
    assert data["verdict"]["sides"][0]["best"] == ["[4,7,4,8]"]
    assert data["verdict"]["eval_first"] == 1.0


def test_bad_input_is_a_4xx_in_one_line(client: TestClient) -> None:
    cases = [
        ("/api/analysis", {"record": "not a record"}, 400),
        ("/api/analysis", {"record": Record("chess", {}, "x", [], []).to_json()}, 400),
        ("/api/analysis", {"record": QUEEN.to_json(), "extra": 1}, 400),
        ("/api/analysis/position",
         {"record": Record("blocking_queen", {"k": 1}, "2,2", [], ["9,9"]).to_json()}, 400),
        ("/api/analysis", {"record": "x" * 300_000}, 400),
    ]
    for path, body, status in cases:
        answer = client.post(path, json=body)
        assert answer.status_code in (status, 413), (path, answer.text)
        assert "\n" not in answer.json()["error"]
    assert client.get("/api/games/nope/analysis").status_code == 404


def test_the_pages_are_served(client: TestClient) -> None:
    assert client.get("/analysis").status_code == 200
    game_id = finished_queen_game(client)
    page = client.get(f"/analysis/{game_id}")
    assert page.status_code == 200 and "analysis" in page.text.lower()
    assert client.get("/analysis/nope").status_code == 404
