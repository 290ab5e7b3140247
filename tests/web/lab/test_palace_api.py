"""The palace explorer's tiles: exact palace numbers, block means, limits, the bounded cache."""

from __future__ import annotations

import base64

import numpy as np
import pytest
from fastapi.testclient import TestClient

from lifearena.games.blocking_queen.palace import palace_numbers
from lifearena.studies.palace_picture import Window, fold_picture
from lifearena.web.lab.palace import MAX_AREA, TILE, TileCache


def _values(data: dict) -> np.ndarray:
    dtype = np.uint8 if data["exact"] else np.int8
    return np.frombuffer(base64.b64decode(data["values"]), dtype).reshape(TILE, TILE)


@pytest.mark.parametrize(("k", "tx", "ty"), [(1, 0, 0), (2, 1, 0), (3, 0, 1), (5, 1, 1)])
def test_a_level_0_tile_holds_the_palace_numbers(client: TestClient, k: int, tx: int,
                                                 ty: int) -> None:
    data = client.get("/api/lab/palace/tile", params={"k": k, "level": 0, "tx": tx,
                                                      "ty": ty}).json()
    assert (data["x0"], data["y0"], data["block"]) == (tx * TILE, ty * TILE, 1)
    want = palace_numbers(k, (tx + 1) * TILE, (ty + 1) * TILE)[ty * TILE:, tx * TILE:]
    assert np.array_equal(_values(data), want)


def test_a_coarser_tile_holds_scaled_block_means(client: TestClient) -> None:
    data = client.get("/api/lab/palace/tile", params={"k": 2, "level": 2, "tx": 0,
                                                      "ty": 0}).json()
    assert data["block"] == 4 and not data["exact"]
    picture = fold_picture(2, Window(0, 0, 4 * TILE, 4 * TILE), block=4, saturation=4)
    assert np.array_equal(_values(data), np.rint(picture.values * data["scale"]))
    # the means are those of the exact numbers, clipped at the saturation
    exact = np.clip(palace_numbers(2, 8, 8) - 2, -4, 4)
    assert _values(data)[0, 0] == round(exact[:4, :4].mean() * data["scale"])


def test_far_or_bad_tiles_are_refused_naming_the_limit(client: TestClient) -> None:
    far = client.get("/api/lab/palace/tile", params={"k": 2, "level": 8, "tx": 1, "ty": 1})
    assert far.status_code == 400
    assert f"{MAX_AREA:,}" in far.json()["error"] and "(131072, 131072)" in far.json()["error"]
    tile = {"k": 2, "level": 0, "tx": 0, "ty": 0}
    at_least = "Input should be greater than or equal"
    at_most = "Input should be less than or equal"
    for change, words in [({"k": 0}, f"k: {at_least} to 1"), ({"k": 99}, f"k: {at_most} to 64"),
                          ({"level": 9}, f"level: {at_most} to 8"), ({"tx": -1}, f"tx: {at_least}"),
                          ({"ty": 10**30}, f"ty: {at_most}"),
                          ({"k": 2.5}, "k: Input should be a valid integer")]:
        params = {**tile, **change}
        response = client.get("/api/lab/palace/tile", params=params)
        assert response.status_code == 400 and words in response.json()["error"], params
    missing = client.get("/api/lab/palace/tile", params={"k": 2, "level": 0, "tx": 0})
    assert missing.status_code == 400 and "ty: Field required" in missing.json()["error"]


def test_the_cache_is_bounded_and_serves_repeats() -> None:
    cache = TileCache(capacity=3)
    first = cache.get(2, 0, 0, 0)
    assert cache.get(2, 0, 0, 0) is first and cache.computed == 1
    for tx in range(1, 5):
        cache.get(2, 0, tx, 0)
    assert len(cache) == 3 and cache.computed == 5
    assert cache.get(2, 0, 0, 0) is not first   # evicted, computed again


def test_the_web_queen_game_starts_anywhere_the_explorer_offers_a_click(
        client: TestClient) -> None:
    from lifearena.games.blocking_queen import SIDE
    from lifearena.web.lab.palace import MAX_K

    limits = client.get("/api/lab/palace/limits").json()
    assert limits["max_k"] == MAX_K == 64
    assert limits["play_max_square"] == SIDE - 1
    edge = limits["play_max_square"]
    for k, x, y in [(64, edge, edge), (10, 4, edge), (1, edge, 0)]:
        response = client.post("/api/games", json={
            "game": "blocking_queen", "opponent": "agent", "level": "hard", "side": 0,
            "params": {"k": k, "start": "square", "x": x, "y": y}})
        assert response.status_code == 201, response.json()
        assert response.json()["links"]["you"]
    refused = client.post("/api/games", json={
        "game": "blocking_queen", "opponent": "agent", "level": "hard",
        "params": {"k": 2, "start": "square", "x": edge + 1, "y": 3}})
    assert refused.status_code == 400
    assert f"expected an integer 0..{edge}" in refused.json()["error"]
