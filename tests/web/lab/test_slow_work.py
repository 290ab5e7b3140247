"""The lab's slow work runs through the app's HeavyWork: in worker processes (so every
function and argument passed must pickle), off the event loop, bounded per client."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lifearena.core import Record
from lifearena.errors import ParseError
from lifearena.web import Settings
from lifearena.web.heavy import HeavyWork
from lifearena.web.lab import palace
from lifearena.web.lab.p2life import meanfield_json
from lifearena.web.lab.palace import compute_tile
from lifearena.web.lab.replays import replay_positions
from lifearena.web.lab.sandbox import read_pattern, write_pattern
from lifearena.web.lab.tournaments import games_of, record_of, report_of, runs_listing

from .conftest import RUN, make_app, until


def test_the_slow_functions_run_in_worker_processes(played: tuple[Path, str]) -> None:
    path = str(played[0])
    record = Record("blocking_queen", {"k": 2}, "9,14", ["", ""], ["5,10"])
    jobs: list[tuple[Callable[..., Any], tuple[Any, ...]]] = [
        (compute_tile, (2, 1, 0, 0)),
        (replay_positions, (record.to_json(),)),
        (replay_positions, (record.__dict__,)),
        (runs_listing, ([path],)),
        (report_of, (path, RUN)),
        (games_of, (path, RUN, "random|bloodlust", 0, 2)),
        (record_of, (path, RUN, "random|bloodlust", 0, 0)),
        (meanfield_json, ("p2life", 2)),
        (read_pattern, ("x = 3, y = 1\n3o!",)),
        (write_pattern, (1, 3, "111", "life")),
    ]
    heavy = HeavyWork("process", workers=1)

    async def run_all() -> list[Any]:
        return [await heavy.run("10.0.0.1", fn, *args) for fn, args in jobs]

    try:
        results = asyncio.run(run_all())
        # the same answers as in this process
        for (fn, args), result in zip(jobs, results, strict=True):
            if fn is compute_tile:
                assert (result.values == fn(*args).values).all()
            else:
                assert result == fn(*args), fn.__name__
        # a library error raised in a worker comes back as itself, message and all
        with pytest.raises(ParseError, match="record move 1"):
            asyncio.run(heavy.run("10.0.0.1", replay_positions, {
                **record.__dict__, "moves": ["10,10"]}))
    finally:
        heavy.close()


def test_a_cached_tile_is_answered_without_slow_work(client: TestClient) -> None:
    params = {"k": 7, "level": 3, "tx": 2, "ty": 1}
    before = palace.CACHE.computed
    first = client.get("/api/lab/palace/tile", params=params).json()
    heavy = client.app.state.heavy  # type: ignore[attr-defined]
    client.app.state.heavy = None  # type: ignore[attr-defined]  # a miss would fail now
    try:
        assert client.get("/api/lab/palace/tile", params=params).json() == first
    finally:
        client.app.state.heavy = heavy  # type: ignore[attr-defined]
    assert palace.CACHE.computed == before + 1


def test_a_client_over_its_bound_is_refused_while_others_are_answered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    entered = threading.Event()

    def slow_tile(k: int, level: int, tx: int, ty: int) -> Any:
        entered.set()
        release.wait(120)
        return compute_tile(k, level, tx, ty)

    monkeypatch.setattr(palace, "compute_tile", slow_tile)
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread"))
    with TestClient(app) as client:
        app.state.heavy = bounded = HeavyWork("thread", workers=1, per_client=1, queue=0)
        answers: list[Any] = []
        first = threading.Thread(target=lambda: answers.append(client.get(
            "/api/lab/palace/tile", params={"k": 9, "level": 0, "tx": 3, "ty": 3})))
        first.start()
        try:
            until(entered.is_set, 60, "the first tile to be computing")
            # the event loop is free: other requests are answered while the tile computes
            assert client.get("/api/lab/palace/limits").status_code == 200
            assert client.get("/api/lab/rules").status_code == 200
            # one more slow request of the same client is over its bound
            busy = client.get("/api/lab/palace/tile", params={"k": 9, "level": 0, "tx": 4,
                                                             "ty": 3})
            assert busy.status_code == 429
            assert "slow requests from this address are in flight" in busy.json()["error"]
        finally:
            release.set()
            first.join(120)
            bounded.close()
        assert answers and answers[0].status_code == 200, answers
        assert bounded.clients() == 0  # the table of clients empties again
