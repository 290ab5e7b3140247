"""The sandbox's API: rule tables, typed rules, soups, RLE, and the size limit."""

from __future__ import annotations

import numpy as np
from fastapi.testclient import TestClient

from lifearena.life import Rule, available_rules, random_grid, read_rle
from lifearena.web.lab.sandbox import MAX_SIDE, grid_from_text

GLIDER = "#N glider\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n"


def test_the_named_rules_come_with_their_tables(client: TestClient) -> None:
    data = client.get("/api/lab/rules").json()
    assert [r["name"] for r in data["rules"]] == list(available_rules())
    p2life = next(r for r in data["rules"] if r["name"] == "p2life")
    assert p2life["coin"] is True
    assert p2life["table"] == Rule.named("p2life").table.ravel().tolist()
    assert data["max_side"] == MAX_SIDE


def test_typed_rules_life_like_and_clauses(client: TestClient) -> None:
    assert client.get("/api/lab/rule", params={"spec": "b36/s23"}).json()["name"] == "B36/S23"
    text = Rule.named("immigration").to_table_text()
    typed = client.get("/api/lab/rule", params={"spec": text}).json()
    assert typed["table"] == Rule.named("immigration").table.ravel().tolist()
    bad = client.get("/api/lab/rule", params={"spec": "B9/S23"})
    assert bad.status_code == 400 and "0 to 8" in bad.json()["error"]


def test_a_typed_rule_never_reads_a_file(client: TestClient) -> None:
    response = client.get("/api/lab/rule", params={"spec": "@/etc/passwd"})
    assert response.status_code == 400
    assert "unknown rule" in response.json()["error"]


def test_the_soup_is_the_engines(client: TestClient) -> None:
    data = client.get("/api/lab/soup", params={"height": 9, "width": 11, "density": 0.4,
                                               "seed": 3}).json()
    cells = grid_from_text(9, 11, data["cells"])
    assert np.array_equal(cells, random_grid(9, 11, density=0.4, seed=3))


def test_oversize_grids_are_refused_naming_the_limit(client: TestClient) -> None:
    response = client.get("/api/lab/soup", params={"height": 257, "width": 10})
    assert response.status_code == 400
    assert "height: Input should be less than or equal to 256" in response.json()["error"]
    huge = client.post("/api/lab/rle/read", json={"text": "x = 100000, y = 3\nbo!"})
    assert huge.status_code == 400 and "256" in huge.json()["error"]
    write = client.post("/api/lab/rle/write", json={"height": 300, "width": 1, "cells": "0" * 300})
    assert write.status_code == 400 and "256" in write.json()["error"]


def test_rle_round_trip(client: TestClient) -> None:
    read = client.post("/api/lab/rle/read", json={"text": GLIDER}).json()
    assert (read["height"], read["width"], read["cells"], read["rule"]) == (
        3, 3, "010001111", "B3/S23")
    two = "012" + "0" * 6
    text = client.post("/api/lab/rle/write",
                       json={"height": 3, "width": 3, "cells": two, "rule": "p2life"}).json()
    pattern = read_rle(text["text"])
    assert pattern.rule == "p2life"
    assert pattern.cells[0, :3].tolist() == [0, 1, 2]


def test_bad_cells_and_bad_rle_are_one_line_errors(client: TestClient) -> None:
    response = client.post("/api/lab/rle/write", json={"height": 2, "width": 2, "cells": "01"})
    assert response.status_code == 400 and "expected 4 digits" in response.json()["error"]
    response = client.post("/api/lab/rle/read", json={"text": "bo$ob!"})
    assert response.status_code == 400 and "header" in response.json()["error"]


def test_the_page_is_served(client: TestClient) -> None:
    response = client.get("/lab/sandbox")
    # the page's module imports the step (an ES module of its own)
    assert response.status_code == 200 and '"/static/lab/sandbox.js"' in response.text
    assert 'from "./lifestep.js"' in client.get("/static/lab/sandbox.js").text
    assert client.get("/static/lab/lifestep.js").status_code == 200
