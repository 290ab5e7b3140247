"""The home page's list of games being played: who counts as watching, and games left
alone (they leave the list; an untimed game against an agent is aborted)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from fastapi.testclient import TestClient

from lifearena.web.rooms import ABORT_AFTER

from .conftest import connect, create, view


def _listed(client: TestClient) -> dict[str, dict]:
    return {g["id"]: g for g in client.get("/api/games").json()["games"]}


def _age(db: Path, game_id: str, seconds: float) -> None:
    """Make ``game_id`` look as if nothing happened in it for ``seconds``."""
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET updated = ? WHERE id = ?",
                    (time.time() - seconds, game_id))


def test_a_players_own_page_is_not_counted_as_watching(client: TestClient) -> None:
    created = create(client, "blocking_queen", opponent="agent", level="random")
    with connect(client, created["id"], created["token"]) as mine:
        mine.receive_json()
        assert _listed(client)[created["id"]]["watchers"] == 0
        with connect(client, created["id"]) as spectator:
            spectator.receive_json()
            assert _listed(client)[created["id"]]["watchers"] == 1


def test_a_game_left_alone_leaves_the_list_unless_a_page_has_it_open(
        client: TestClient, db: Path) -> None:
    left = create(client, "life_for_two", opponent="online", join=False)["id"]
    kept = create(client, "life_for_two", opponent="online", join=False)["id"]
    for game_id in (left, kept):
        _age(db, game_id, 11 * 60)
    with connect(client, kept) as page:
        page.receive_json()
        assert set(_listed(client)) == {kept}
    assert _listed(client) == {}


def test_an_untimed_game_against_an_agent_left_alone_is_aborted(
        client: TestClient, db: Path) -> None:
    server = client.app.state.server  # type: ignore[attr-defined]
    idle = create(client, "losat", opponent="agent", level="random")
    open_page = create(client, "losat", opponent="agent", level="random")
    recent = create(client, "losat", opponent="agent", level="random")
    timed = create(client, "losat", opponent="agent", level="random",
                   clock={"kind": "correspondence", "days": 3})
    hotseat = create(client, "losat", opponent="hotseat")
    for created in (idle, open_page, timed, hotseat):
        _age(db, created["id"], ABORT_AFTER + 60)
    _age(db, recent["id"], ABORT_AFTER - 60)
    with connect(client, open_page["id"], open_page["token"]) as page:
        page.receive_json()
        aborted = client.portal.call(server.abort_idle)  # type: ignore[union-attr]
    assert aborted == [idle["id"]]
    outcome = view(client, idle["id"], idle["token"])["outcome"]
    assert (outcome["termination"], outcome["winner"]) == ("aborted", None)
    assert outcome["text"] == "aborted (no move in 10 minutes)"
    # stored so: listed as finished, and its record says so
    finished = {g["id"]: g for g in client.get("/api/games").json()["finished"]}
    assert finished[idle["id"]]["result"]["termination"] == "aborted"
    assert idle["id"] not in _listed(client)
    record = client.get(f"/api/games/{idle['id']}/record").json()
    assert record["outcome"]["termination"] == "aborted"
    # a move after it is refused in words
    refused = client.post(f"/api/games/{idle['id']}/moves", json={"move": "-K6", "ply": 0},
                          headers={"X-Seat-Token": idle["token"]})
    assert refused.status_code == 409 and "aborted" in refused.json()["error"]
    for created in (open_page, recent, timed, hotseat):
        assert view(client, created["id"])["outcome"] is None
