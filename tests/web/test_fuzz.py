"""No client input causes a 5xx or a dropped connection: schemathesis over the server's own
OpenAPI schema (every endpoint), and a hypothesis fuzzer of WebSocket messages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lifearena.web import Settings, create_app

from .conftest import connect


def _app(db: Path) -> Any:
    # the fuzzer's client calls itself "testserver": the operator's --allowed-host for it
    return create_app(Settings(db, agent_workers="thread", allowed_hosts=("testserver",)))


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, list[dict]]]:
    app = _app(tmp_path_factory.mktemp("fuzz") / "games.sqlite")
    with TestClient(app, base_url="http://localhost") as client:
        games = []
        for game, opponent in (("life_for_two", "online"), ("war_of_life", "hotseat"),
                               ("losat", "agent"), ("blocking_queen", "hotseat")):
            made = client.post("/api/games", json={"game": game, "opponent": opponent,
                                                   "level": "random"})
            assert made.status_code == 201, made.text
            games.append(made.json())
        invite = games[0]["links"]["invite"].split("#i=")[1]
        joined = client.post(f"/api/games/{games[0]['id']}/claim", json={"invitation": invite})
        assert joined.status_code == 200
        yield app, games


SCHEMA = schemathesis.openapi.from_asgi("/api/openapi.json", _app(Path("/nonexistent")))
"""Only read for its operations; each case is called on the module's own app."""


@pytest.fixture
def real(fuzzed: tuple[Any, list[dict]]) -> tuple[Any, list[dict]]:
    return fuzzed


@SCHEMA.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_the_schema_allows_or_not_gets_a_server_error(
        case: Any, real: tuple[Any, list[dict]]) -> None:
    app, games = real
    path = case.path_parameters or {}
    if "game_id" in path and isinstance(path["game_id"], str):
        # half the cases aim at a real game, with its creator's token some of the time
        pick = len(path["game_id"])
        if pick % 2 == 0:
            game = games[pick // 2 % len(games)]
            path["game_id"] = game["id"]
            if pick % 4 == 0:
                case.headers = {**(case.headers or {}), "X-Seat-Token": game["token"]}
    response = case.call(app=app)
    assert response.status_code < 500, (case.as_curl_command(), response.text)
    if response.status_code >= 400 and "json" in response.headers.get("content-type", ""):
        error = response.json().get("error")
        assert isinstance(error, str) and error and "\n" not in error


# -- the socket --------------------------------------------------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12)
_FIELD = st.one_of(_JSON, st.sampled_from([0, 1, 0.0, 1.0, True, "1", -1, 10**30, None]))
_MESSAGE = st.one_of(
    _JSON.map(json.dumps),
    st.fixed_dictionaries({"type": st.sampled_from(["move", "hello", "ping", "x", 1])},
                          optional={"move": _FIELD, "ply": _FIELD, "seat": _FIELD,
                                    "token": _FIELD}).map(json.dumps),
    st.text(max_size=60),
)


@pytest.fixture(scope="module")
def socket_game(fuzzed: tuple[Any, list[dict]]) -> tuple[Any, dict]:
    """An online Life for Two game (whose hidden choices matter most) of the fuzzed app that
    the schema's cases never aim at: they may resign or agree a draw in theirs, and an ended
    game answers every move that it is over."""
    app, _ = fuzzed
    client = TestClient(app, base_url="http://localhost")
    made = client.post("/api/games", json={"game": "life_for_two", "opponent": "online"})
    assert made.status_code == 201, made.text
    game = made.json()
    invite = game["links"]["invite"].split("#i=")[1]
    assert client.post(f"/api/games/{game['id']}/claim",
                       json={"invitation": invite}).status_code == 200
    return app, game


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(messages=st.lists(_MESSAGE, min_size=1, max_size=6))
def test_no_socket_message_breaks_the_socket_or_the_game(socket_game: tuple[Any, dict],
                                                         messages: list[str]) -> None:
    app, game = socket_game
    client = TestClient(app, base_url="http://localhost")
    before = client.get(f"/api/games/{game['id']}").json()
    with connect(client, game["id"], game["token"]) as socket:
        first = socket.receive_json()
        assert first["type"] == "state", first
        for message in messages:
            socket.send_text(message)
            socket.send_text(json.dumps({"type": "move", "move": "1,1", "ply": 10**6}))
            # every message gets nothing (a ping), an error with a 4xx, or the game; the
            # probe after it proves the socket still answers
            while True:
                answer = socket.receive_json()
                if answer["type"] == "error":
                    assert 400 <= answer["status"] < 500 and "\n" not in answer["error"]
                    if "chosen at move 1000000" in answer["error"]:
                        break
                else:
                    assert answer["type"] == "state"
    after = client.get(f"/api/games/{game['id']}").json()
    assert after["moves"] == before["moves"]
