"""Fixtures of the web tests: an app over a fresh SQLite file, a test client, game helpers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lifearena.web import Settings, create_app

QUICK_WAR = "[[[2,2],[2,3],[3,2]],[[6,6],[6,7],[7,6]]]"
"""A War of Life position that ends in two moves (blue's block dies)."""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(db, agent_workers="thread"))) as test_client:
        yield test_client


def create(client: TestClient, game: str, opponent: str = "online", **extra: Any) -> dict:
    """Create a game; fail the test unless the server accepted it."""
    response = client.post("/api/games", json={"game": game, "opponent": opponent, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def tokens_of(created: dict) -> tuple[str, str]:
    """The two seat tokens of an online game, from its links."""
    links = created["links"]
    return links["seat0"].split("#t=")[1], links["seat1"].split("#t=")[1]


def view(client: TestClient, game_id: str, token: str | None = None) -> dict:
    headers = {"X-Seat-Token": token} if token else {}
    response = client.get(f"/api/games/{game_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def move(client: TestClient, game_id: str, token: str | None, text: str,
         seat: int | None = None) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    body: dict[str, Any] = {"move": text}
    if seat is not None:
        body["seat"] = seat
    return client.post(f"/api/games/{game_id}/moves", json=body, headers=headers)
