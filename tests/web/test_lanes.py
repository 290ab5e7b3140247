"""Lanes (:mod:`lifearena.web.lanes`): a replica's games carry its lane in their ids, and
the paths nginx routes by lane are exactly the routes that name a game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from lifearena.cli.serve import check_lane_option
from lifearena.errors import BadParameterError
from lifearena.web import Settings, create_app
from lifearena.web.lanes import GAME_PATHS, MAX_LANES, NOT_GAMES, lane_of, new_game_id
from lifearena.web.rooms.cache import valid_id


@given(st.integers(0, MAX_LANES - 1))
def test_a_lanes_game_id_names_its_lane_and_is_a_valid_id(lane: int) -> None:
    game_id = new_game_id(lane)
    assert lane_of(game_id) == lane and valid_id(game_id) and len(game_id) == 12


def test_ids_of_one_lane_still_differ() -> None:
    assert len({new_game_id(5) for _ in range(1000)}) == 1000


@pytest.mark.parametrize("lane", [-1, MAX_LANES])
def test_a_lane_out_of_range_is_refused_in_one_line(lane: int) -> None:
    with pytest.raises(BadParameterError, match=r"^--lane .*; expected 0 to 63"):
        new_game_id(lane)
    with pytest.raises(BadParameterError, match="--lane needs --broker"):
        check_lane_option(lane, None)


def _paths(routes: list[Any]) -> list[str]:
    """The paths of ``routes``, those of the routers included in them too (FastAPI keeps
    an included router whole, as ``original_router``; every router here has no prefix)."""
    found = []
    for route in routes:
        if hasattr(route, "original_router"):
            found += _paths(route.original_router.routes)
        elif hasattr(route, "path"):
            found.append(route.path)
    return found


def _routes(tmp_path: Path) -> list[str]:
    app = create_app(Settings(tmp_path / "games.sqlite", agent_workers="thread"))
    routes = _paths(app.routes)
    assert "/api/lobby" in routes or "/ws/lobby" in routes, routes  # the routers are read
    return routes


def test_the_paths_routed_by_lane_are_the_routes_that_name_a_game(tmp_path: Path) -> None:
    routes = _routes(tmp_path)
    naming = {path.split("/{game_id}")[0].strip("/") for path in routes
              if "/{game_id}" in path}
    assert naming == set(GAME_PATHS)
    # no other route starts like a game's path followed by one more segment
    pattern = re.compile(rf"^/(?:{'|'.join(GAME_PATHS)})/(?!\{{game_id\}})[^/]+")
    others = [p for p in routes if pattern.match(p) and "{game_id}" not in p]
    assert sorted(others) == sorted(NOT_GAMES)


def test_a_server_in_a_lane_makes_games_of_that_lane(tmp_path: Path) -> None:
    app = create_app(Settings(tmp_path / "games.sqlite", agent_workers="thread", lane=3))
    with TestClient(app, base_url="http://localhost") as client:
        for opponent in ("hotseat", "online"):
            made = client.post("/api/games", json={"game": "war_of_life",
                                                   "opponent": opponent})
            assert made.status_code == 201, made.text
            assert lane_of(made.json()["id"]) == 3


def test_serves_lane_option_spans_the_lanes() -> None:
    from typer.main import get_command

    from lifearena.cli import app

    serve = get_command(app).commands["serve"]  # type: ignore[attr-defined]
    (lane,) = [p for p in serve.params if p.name == "lane"]
    assert (lane.min, lane.max) == (0, MAX_LANES - 1)
