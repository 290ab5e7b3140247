"""The web's new-game defaults agree with the games' own (what the CLI and docs promise)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from lifearena.games import losat
from lifearena.web import catalog


def test_losat_starts_on_the_games_own_19_by_19_board() -> None:
    state = catalog.new_state("losat", {})
    assert state.setup() == losat.new_game().setup()
    assert (state.params["width"], state.params["length"]) == (19, 19)


def test_the_catalog_says_which_settings_are_played_at_one_screen_only(
        client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
    assert games["life_for_two"]["hotseat_only_when"] == ["rules", "classic"]
    assert games["war_of_life"]["hotseat_only_when"] is None
    # the server refuses what the form no longer offers
    refused = client.post("/api/games", json={"game": "life_for_two", "opponent": "agent",
                                              "params": {"rules": "classic"}})
    assert refused.status_code == 400


def test_the_server_refuses_by_the_catalogs_one_screen_settings(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # the refusal follows the catalog's data, whatever game and setting it names
    entry = replace(catalog.CATALOG["war_of_life"], hotseat_only_when=("start", "random"))
    monkeypatch.setitem(catalog.CATALOG, "war_of_life", entry)
    refused = client.post("/api/games", json={"game": "war_of_life", "opponent": "online",
                                              "params": {"start": "random"}})
    assert refused.status_code == 400
    assert refused.json()["error"] == ("War of Life with start 'random' is played at one "
                                       "screen only; choose 'at this screen'")
    hotseat = client.post("/api/games", json={"game": "war_of_life", "opponent": "hotseat",
                                              "params": {"start": "random"}})
    assert hotseat.status_code == 201
