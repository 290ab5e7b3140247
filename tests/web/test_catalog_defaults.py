"""The web's new-game defaults agree with the games' own (what the CLI and docs promise)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from lifearena.games import losat
from lifearena.web import catalog

from .conftest import create, view


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


@pytest.mark.parametrize("game", ["war_of_life", "p2life", "blocking_queen"])
def test_each_quick_game_draws_a_fresh_seed_kept_in_its_record_and_view(
        client: TestClient, game: str) -> None:
    made = [create(client, game, opponent) for opponent in ("agent", "online", "hotseat")]
    views = [view(client, m["id"]) for m in made]
    seeds = [dict(v["drawn"])["Seed"] for v in views]
    assert len(set(seeds)) == 3, seeds
    assert len({(v["setup"], json.dumps(v["display"])) for v in views}) > 1  # starts differ
    for created, seed, shown in zip(made, seeds, views, strict=True):
        record = client.get(f"/api/games/{created['id']}/record").json()
        assert record["extra"]["seed"] == seed
        # the seed replays the start
        assert catalog.new_state(game, {"seed": seed}).setup() == shown["setup"]
        assert "drawn" not in shown["opponent"]


def test_a_seed_the_form_names_is_kept_and_a_typed_position_draws_none(
        client: TestClient) -> None:
    chosen = create(client, "war_of_life", "hotseat", params={"seed": 7})
    assert view(client, chosen["id"])["drawn"] == []
    assert view(client, chosen["id"])["setup"] == catalog.new_state(
        "war_of_life", {"seed": 7}).setup()
    typed = create(client, "war_of_life", "hotseat", params={"start": "prolog"})
    assert view(client, typed["id"])["drawn"] == []


def test_a_challenge_accepted_from_the_lobby_draws_a_fresh_seed(client: TestClient) -> None:
    seeds = []
    for _ in range(2):
        made = client.post("/api/challenges", json={"game": "p2life", "params": {}})
        assert made.status_code == 201, made.text
        accepted = client.post(f"/api/challenges/{made.json()['id']}/accept", json={})
        assert accepted.status_code == 200, accepted.text
        seeds.append(view(client, accepted.json()["id"])["params"]["seed"])
    assert seeds[0] != seeds[1]


def test_p2lifes_rules_say_when_a_token_survives() -> None:
    summary = catalog.CATALOG["p2life"].summary
    assert "survives" in summary and "by 2 or 3" in summary
