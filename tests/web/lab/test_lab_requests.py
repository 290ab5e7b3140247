"""Every lab request is declared: the OpenAPI schema describes its body and bounds, a body
or query that does not fit is one 400 line, and no input makes the lab answer 5xx."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lifearena.core import Record
from lifearena.web import Settings, catalog
from lifearena.web.lab.models import MAX_TEXT

from .conftest import ADMIN, make_app


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("requests")
    app = make_app(Settings(folder / "games.sqlite", agent_workers="thread"), ADMIN)
    with TestClient(app, raise_server_exceptions=False, base_url="http://localhost") as client:
        yield client


def _schema(client: TestClient) -> dict[str, Any]:
    return client.app.openapi()  # type: ignore[attr-defined]


def test_the_schema_declares_every_lab_body_with_its_bounds(lab: TestClient) -> None:
    schema = _schema(lab)
    bodies = {path: spec["post"]["requestBody"]["content"]["application/json"]["schema"]
              for path, spec in schema["paths"].items()
              if path.startswith("/api/lab/") and "post" in spec
              and "requestBody" in spec["post"]}
    assert {path: body["$ref"].rsplit("/", 1)[1] for path, body in bodies.items()} == {
        "/api/lab/tournaments/start": "LaunchBody", "/api/lab/rle/read": "RleText",
        "/api/lab/rle/write": "RleGrid", "/api/lab/replay": "ReplayBody"}
    models = schema["components"]["schemas"]
    for name in ("LaunchBody", "RleText", "RleGrid", "ReplayBody", "RecordObject"):
        assert models[name]["additionalProperties"] is False, name
    launch = models["LaunchBody"]["properties"]
    assert (launch["agents"]["minItems"], launch["agents"]["maxItems"]) == (1, 12)
    assert launch["agents"]["items"]["maxLength"] == 64
    assert (launch["games"]["minimum"], launch["games"]["maximum"]) == (1, 1_000_000)
    assert models["RleText"]["properties"]["text"]["maxLength"] == MAX_TEXT
    assert models["RleGrid"]["properties"]["height"]["maximum"] == 256
    assert models["RecordObject"]["properties"]["moves"]["maxItems"] == 1_000
    # the operator's header and the bounded queries are declared too
    start = schema["paths"]["/api/lab/tournaments/start"]["post"]
    assert [p["name"] for p in start["parameters"]] == ["X-Admin-Token"]
    tile = {p["name"]: p["schema"] for p in
            schema["paths"]["/api/lab/palace/tile"]["get"]["parameters"]}
    assert tile["k"] == {"type": "integer", "maximum": 64, "minimum": 1, "title": "K"}
    # stop and resume take no body: none is declared
    assert "requestBody" not in schema["paths"]["/api/lab/tournaments/{launch_id}/stop"]["post"]


@pytest.mark.parametrize(("path", "body", "words"), [
    ("/api/lab/rle/read", {}, "text: Field required"),
    ("/api/lab/rle/read", {"text": 3}, "text: Input should be a valid string"),
    ("/api/lab/rle/read", {"text": "x = 1, y = 1\no!", "rule": "life"},
     "rule: Extra inputs are not permitted"),
    ("/api/lab/rle/write", {"height": 2, "width": 2, "cells": "0000", "rule": 5},
     "rule: Input should be a valid string"),
    ("/api/lab/rle/write", {"height": "2", "width": 2, "cells": "0000"},
     "height: Input should be a valid integer"),
    ("/api/lab/rle/write", {"height": 0, "width": 2, "cells": ""},
     "height: Input should be greater than or equal to 1"),
    ("/api/lab/rle/write", {"height": 2, "width": 2, "cells": "0" * 70_000},
     "cells: String should have at most 65536 characters"),
    ("/api/lab/replay", {}, "record: Field required"),
    ("/api/lab/replay", {"record": 7}, "record"),
    ("/api/lab/replay", {"record": {"game": "losat"}}, "moves: Field required"),
    ("/api/lab/replay", {"record": {"game": "losat", "moves": [1]}}, "moves.0"),
    ("/api/lab/replay", {"record": {"game": "losat", "moves": [], "params": {"k": [1]}}},
     "params.k"),
    ("/api/lab/replay", {"record": {"game": "losat", "moves": [], "cheat": 1}},
     "cheat: Extra inputs are not permitted"),
    ("/api/lab/replay", {"record": {"game": "losat", "moves": ["a1"] * 1001}},
     "moves: List should have at most 1000 items"),
])
def test_bodies_that_do_not_fit_are_one_400_line(lab: TestClient, path: str,
                                                 body: dict[str, Any], words: str) -> None:
    answer = lab.post(path, json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert words in error and len(error.splitlines()) == 1, error


def test_a_record_as_the_replay_page_sends_it_is_opened(lab: TestClient) -> None:
    # a stored game's record (result and extra included), as the replay page posts it
    record = Record("blocking_queen", {"k": 2}, "9,14", ["random", "greedy"], ["5,10", "3,8"],
                    "player 0 wins", {"seed": 4, "forfeit": None})
    data = lab.post("/api/lab/replay", json={"record": json.loads(record.to_json())}).json()
    assert data["moves"] == ["5,10", "3,8"] and len(data["positions"]) == 3
    text = lab.post("/api/lab/replay", json={"record": record.to_text()}).json()
    assert text["positions"] == data["positions"]
    illegal = lab.post("/api/lab/replay", json={"record": {
        **json.loads(record.to_json()), "moves": ["10,10"]}})
    assert illegal.status_code == 400 and "move 1" in illegal.json()["error"]


JUNK_TEXT = st.one_of(
    st.text(max_size=300),
    st.sampled_from(["", "x = 0, y = 0\n!", "x = 3, y = 3, rule = B9/S\nbo!", "x=1,y=1\n9o!",
                     "x = 2, y = 2\n" + "$" * 5000 + "!", "x = 1, y = 1, rule = " + "A" * 5000,
                     "x = 256, y = 256\n" + "99999999999999999999o!", "{", '{"game": 1}',
                     '{"game": "losat", "params": {}, "setup": "", "players": [], "moves": []}',
                     "[Game \"losat\"]\n[Setup \"19\"]\n\n1. a1", "\x00\ud7ff\U0010ffff"]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(text=JUNK_TEXT)
def test_no_text_makes_the_lab_fail(lab: TestClient, text: str) -> None:
    for path, body in [("/api/lab/rle/read", {"text": text}), ("/api/lab/replay",
                                                                {"record": text})]:
        answer = lab.post(path, json=body)
        assert answer.status_code < 500, (path, text, answer.text)
    for path, params in [("/api/lab/rule", {"spec": text}),
                         ("/api/lab/p2life/meanfield", {"rule": text}),
                         ("/api/lab/tournaments/form", {"game": text}),
                         ("/api/lab/rle/write", None)]:
        if params is None:
            answer = lab.post(path, json={"height": 1, "width": 1, "cells": "1", "rule": text})
        else:
            answer = lab.get(path, params=params)
        assert answer.status_code < 500, (path, text, answer.text)


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=40),
                    st.sampled_from(["nan", "inf", "-0", "1e309", "0x10", "", "٣"]))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(values=st.lists(SCALARS, min_size=4, max_size=4),
       game=st.sampled_from([*catalog.GAMES, "chess", ""]))
def test_no_numbers_make_the_lab_fail(lab: TestClient, values: list[Any], game: str) -> None:
    a, b, c, d = values
    gets = [("/api/lab/palace/tile", {"k": a, "level": b, "tx": c, "ty": d}),
            ("/api/lab/soup", {"height": a, "width": b, "density": c, "seed": d}),
            ("/api/lab/p2life/meanfield", {"colours": a}),
            ("/api/lab/tournaments/form", {"game": game}),
            ("/api/lab/tournaments/lab-1/x/games", {"pairing": a, "offset": b, "limit": c}),
            ("/api/lab/tournaments/1/x/record", {"pairing": a, "index": b, "seat": c})]
    for path, params in gets:
        sent = {k: v for k, v in params.items() if v is not None}
        answer = lab.get(path, params=sent)
        assert answer.status_code < 500, (path, sent, answer.text)
    posts = [("/api/lab/rle/write", {"height": a, "width": b, "cells": c, "rule": d}),
             ("/api/lab/tournaments/start", {"game": game, "agents": [a, b], "games": c,
                                             "seed": d}),
             ("/api/lab/replay", {"record": {"game": game, "params": {"k": a, "width": b},
                                             "setup": c, "moves": [d]}})]
    for path, body in posts:
        answer = lab.post(path, json=body, headers={"X-Admin-Token": ADMIN})
        assert answer.status_code < 500 and answer.status_code != 201, (path, body,
                                                                        answer.text)


def test_odd_paths_and_headers_are_4xx(lab: TestClient, tmp_path: Path) -> None:
    for path in ("/api/lab/tournaments/lab-99999999999/x", "/api/lab/tournaments/%00/x",
                 "/api/lab/tournaments/" + "9" * 300 + "/x", "/api/lab/p2life/results/..",
                 "/api/lab/tournaments/lab-1/x/games?pairing=" + "a" * 1000):
        assert 400 <= lab.get(path).status_code < 500, path
    for token in ("é", "\t", "a" * 8000):
        answer = lab.post("/api/lab/tournaments/start", json={},
                          headers={"X-Admin-Token": token.encode("utf-8")})
        assert answer.status_code == 403, token
