"""Fixtures of the web tests: an app over a fresh SQLite file, a test client, game helpers;
``games_db``, a fresh games database of each backend (SQLite, then PostgreSQL: see
``tests/databases.py``); ``redis_url`` and ``redis_server``, Redis for the broker's tests
(``tests/brokers.py``)."""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from brokers import RedisServer, fresh_redis, own_redis, redis_program
from databases import fresh_postgres
from lifearena.web import Settings, create_app

QUICK_WAR = "[[[2,2],[2,3],[3,2]],[[6,6],[6,7],[7,6]]]"
"""A War of Life position that ends in two moves (blue's block dies)."""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database's URL (the test skips without a server to make it on)."""
    with fresh_postgres() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def games_db(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """A fresh games database: a SQLite file's path, or a PostgreSQL database's URL."""
    if request.param == "sqlite":
        return tmp_path / "games.sqlite"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    """A client that keeps no cookies: it acts by seat tokens alone, as a program does (the
    players' tests make clients that keep their session cookies, as browsers do)."""
    app = create_app(Settings(db, agent_workers="thread"))
    with TestClient(app, base_url="http://localhost") as test_client:
        yield tokens_only(test_client)


class _NoCookies(http.cookiejar.DefaultCookiePolicy):
    def set_ok(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        return False


def tokens_only(client: TestClient) -> TestClient:
    """``client``, made to keep no cookie (each request is nobody's but by its token)."""
    client.cookies.jar.set_policy(_NoCookies())
    return client


def create(client: TestClient, game: str, opponent: str = "online", *, join: bool = True,
           **extra: Any) -> dict:
    """Create a game; fail the test unless the server accepted it. An online game's
    invitation is claimed at once (``join=False`` leaves it open), and ``created["tokens"]``
    holds both seats' tokens."""
    response = client.post("/api/games", json={"game": game, "opponent": opponent, **extra})
    assert response.status_code == 201, response.text
    created = response.json()
    if opponent == "online" and join:
        claimed = claim(client, created)
        assert claimed.status_code == 200, claimed.text
        tokens = [created["token"], created["token"]]
        tokens[claimed.json()["seat"]] = claimed.json()["token"]
        created["tokens"] = tokens
    return created


def invitation_of(created: dict) -> str:
    """The secret of an online game's invitation link."""
    return created["links"]["invite"].split("#i=")[1]


def claim(client: TestClient, created: dict, token: str | None = None) -> Any:
    """Open an online game's invitation (as a newcomer, or as the holder of ``token``)."""
    headers = {"X-Seat-Token": token} if token else {}
    return client.post(f"/api/games/{created['id']}/claim",
                       json={"invitation": invitation_of(created)}, headers=headers)


def tokens_of(created: dict) -> tuple[str, str]:
    """The two seat tokens of an online game made by :func:`create`."""
    first, second = created["tokens"]
    return first, second


@contextlib.contextmanager
def connect(client: TestClient, game_id: str, token: str | None = None) -> Iterator[Any]:
    """A game's socket that has said hello (as a seat's holder, or a spectator)."""
    with client.websocket_connect(ws_url(game_id)) as socket:
        socket.send_text(json.dumps({"type": "hello", "token": token}))
        yield socket


def ws_url(game_id: str, query: str = "") -> str:
    """A game's socket address as the test client reaches it (under a host name the server
    answers to: its Host check refuses the client's default ``testserver``)."""
    return f"ws://localhost/ws/{game_id}{query}"


def move_message(text: str, ply: int, **extra: Any) -> str:
    """A move as a page sends it over the socket."""
    return json.dumps({"type": "move", "move": text, "ply": ply, **extra})


def view(client: TestClient, game_id: str, token: str | None = None) -> dict:
    headers = {"X-Seat-Token": token} if token else {}
    response = client.get(f"/api/games/{game_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def move(client: TestClient, game_id: str, token: str | None, text: str,
         seat: int | None = None, ply: int | None = None) -> Any:
    """Post a move; its ply is the game's current one unless given."""
    headers = {"X-Seat-Token": token} if token else {}
    if ply is None:
        ply = view(client, game_id)["ply"]
    body: dict[str, Any] = {"move": text, "ply": ply}
    if seat is not None:
        body["seat"] = seat
    return client.post(f"/api/games/{game_id}/moves", json=body, headers=headers)


SERVED: dict[str, Any] = {}
"""The app behind each running :func:`live_server`, by its URL (a test may reach the
server's insides, as an operator's tools would)."""


@contextlib.contextmanager
def live_server(db: Path, start_within: float = 30, **settings: Any) -> Iterator[str]:
    """A real server of the app over the games file ``db`` on a free loopback port, in a
    thread; yields its URL and stops it (waiting for it to end) on leaving. ``settings``
    go to its :class:`~lifearena.web.Settings` (``shortest_clock=0.01`` lets a test's
    clock run out within seconds). Every browser of a test comes from 127.0.0.1, so a
    module's games add up under one address: the bound of games in progress per address is
    lifted unless the test names it (``tests/web/test_attacks.py`` checks the bound)."""
    import uvicorn

    settings.setdefault("games_in_progress", 10_000)
    app = create_app(Settings(db, agent_workers="thread", **settings))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # the bot API's streams never end by themselves: a stopping server cuts them
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_within
    while not server.started:  # a condition with a deadline
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    SERVED[url] = app
    try:
        yield url
    finally:
        SERVED.pop(url, None)
        server.should_exit = True
        thread.join(timeout=10)
        assert not thread.is_alive(), "the test server did not stop"


def wait_until(check: Callable[[], Any], what: str = "the condition",
               within: float = 20.0) -> Any:
    """Poll ``check()`` until it answers something true, and answer that; fail naming
    ``what`` after ``within`` seconds (a condition with a deadline, never a fixed wait)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"{what}: not within {within:g} s")


@pytest.fixture(scope="session")
def session_redis() -> Iterator[RedisServer | None]:
    """A throwaway Redis server for the session when ``LIFEARENA_TEST_REDIS`` names none and
    ``redis-server`` is installed; else None (``redis_url`` then uses that variable, or
    skips)."""
    if os.environ.get("LIFEARENA_TEST_REDIS") or not shutil.which("redis-server"):
        yield None
        return
    with own_redis() as server:
        yield server


@pytest.fixture
def redis_url(session_redis: RedisServer | None) -> Iterator[str]:
    """The URL of a Redis database of this test's own, empty (see ``tests/brokers.py``)."""
    with fresh_redis(session_redis) as url:
        yield url


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A Redis server of this test's own, which it may stop and start again."""
    redis_program()
    with own_redis() as server:
        yield server
