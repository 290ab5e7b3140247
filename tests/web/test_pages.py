"""What a person meets at an address that names nothing (a page, not JSON), and the home
page's lists of the games being played and lately finished, kept by the store across a
restart."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from fastapi.testclient import TestClient

from lifearena.core import Record
from lifearena.web import Settings, create_app
from lifearena.web.guard import CSP
from lifearena.web.rooms import LIVE_WITHIN
from lifearena.web.store import Store

from .conftest import QUICK_WAR, create, move, tokens_of, view

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def _page_of(client: TestClient, path: str) -> str:
    """The text of the 404 page a browser is shown at ``path``, checked to be a page served
    under the server's security headers with no inline script or style."""
    response = client.get(path, headers=BROWSER, follow_redirects=False)
    assert response.status_code == 404, (path, response.status_code)
    assert response.headers["content-type"].startswith("text/html"), path
    assert response.headers["content-security-policy"] == CSP
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    text = response.text
    assert text.startswith("<!doctype html>") and "<script" not in text
    assert "style=" not in text and "<style" not in text
    assert '<link rel="stylesheet" href="/static/style.css">' in text
    return text


def test_an_unknown_game_or_lab_page_is_a_page_saying_so_with_a_way_back(
        client: TestClient) -> None:
    for path in ("/game/nosuchgame1", "/play/nosuchgame1"):
        text = _page_of(client, path)
        assert "No such game: <code>nosuchgame1</code>" in text
        assert '<a id="back" href="/">back to the games</a>' in text
    text = _page_of(client, "/lab/nothing")
    assert "No such lab page: <code>/lab/nothing</code>" in text
    assert 'href="/lab">back to the lab</a>' in text
    for path in ("/nothing/here", "/play/nosuchgame1/more", "/static/nothing.js"):
        assert "No such page: <code>" in _page_of(client, path)
    # whatever the address holds is shown as text, never as markup
    text = _page_of(client, "/lab/%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "<script>" not in text
    assert "x" * 41 not in _page_of(client, "/play/" + "x" * 80)


def test_the_api_still_answers_json_for_what_it_does_not_know(client: TestClient) -> None:
    for path in ("/api/games/nosuchgame1", "/api/nothing", "/api/games/nosuchgame1/record"):
        for headers in ({}, BROWSER):
            response = client.get(path, headers=headers)
            assert response.status_code == 404, path
            assert response.headers["content-type"] == "application/json", path
            assert response.json()["error"]
    # a request that is not a browser's page load keeps its JSON answer too
    posted = client.post("/game/nosuchgame1", json={})
    assert posted.status_code == 405 and posted.json()["error"]


def test_a_game_address_leads_to_the_game_page(client: TestClient) -> None:
    created = create(client, "life_for_two", opponent="hotseat")
    response = client.get(f"/game/{created['id']}", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == f"/play/{created['id']}"
    assert client.get(f"/play/{created['id']}", headers=BROWSER).status_code == 200


def _finish_quick_war(client: TestClient) -> str:
    """A War of Life game played to its end (two moves); its id."""
    created = create(client, "war_of_life", params={"start": "prolog", "position": QUICK_WAR})
    blue, red = tokens_of(created)
    assert move(client, created["id"], blue, "[2,2,1,1]").status_code == 200
    assert move(client, created["id"], red, "[6,6,5,5]").status_code == 200
    return str(created["id"])


def test_the_lists_hold_games_being_played_and_finished_ones(client: TestClient) -> None:
    playing = create(client, "life_for_two", opponent="hotseat")["id"]
    cancelled = create(client, "life_for_two", join=False)
    assert client.post(f"/api/games/{cancelled['id']}/cancel", json={},
                       headers={"X-Seat-Token": cancelled["token"]}).status_code == 200
    finished = _finish_quick_war(client)
    listed = client.get("/api/games").json()
    assert abs(listed["now"] - time.time()) < 60
    assert [g["id"] for g in listed["games"]] == [playing]
    [game] = listed["games"]
    assert game["title"] == "Life for Two" and game["kind"] == "hotseat"
    assert game["moves"] == 0 and game["watch"] == f"/play/{playing}"
    assert "token" not in str(listed)
    [done] = listed["finished"]
    assert done["id"] == finished and done["moves"] == 2 and done["kind"] == "online"
    assert done["result"] == {key: value for key, value in view(client, finished)[
        "outcome"].items() if key != "text"}
    assert done["outcome"] == view(client, finished)["outcome"]["text"]
    assert done["replay"] == f"/lab/replay#game={finished}"
    # a finished game's record opened again is a game at its end: listed as finished
    record = client.get(f"/api/games/{finished}/record").text
    reopened = client.post("/api/records", json={"record": record}).json()["id"]
    assert [g["id"] for g in client.get("/api/games").json()["finished"]] == [reopened,
                                                                                finished]


def test_finished_games_are_still_listed_after_a_restart(db: Path) -> None:
    with TestClient(create_app(Settings(db, agent_workers="thread")),
                    base_url="http://localhost") as first:
        finished = _finish_quick_war(first)
        playing = create(first, "blocking_queen", opponent="hotseat")["id"]
        assert [g["id"] for g in first.get("/api/games").json()["finished"]] == [finished]
    # a new server on the same file, which has loaded no game into memory
    with TestClient(create_app(Settings(db, agent_workers="thread")),
                    base_url="http://localhost") as second:
        listed = second.get("/api/games").json()
        assert [g["id"] for g in listed["finished"]] == [finished]
        assert listed["finished"][0]["result"]["winner"] == 1
        assert [g["id"] for g in listed["games"]] == [playing]
        assert not second.app.state.server.games


def test_games_nobody_played_for_long_or_of_an_older_file_are_not_listed_as_played(
        db: Path) -> None:
    with TestClient(create_app(Settings(db, agent_workers="thread")),
                    base_url="http://localhost") as client:
        stale = create(client, "life_for_two", opponent="hotseat")["id"]
        fresh = create(client, "life_for_two", opponent="hotseat")["id"]
        with sqlite3.connect(db) as raw:
            raw.execute("UPDATE games SET updated = ? WHERE id = ?",
                        (time.time() - LIVE_WITHIN - 60, stale))
            # a row as an earlier version wrote it: whether it ended is not known
            raw.execute("UPDATE games SET status = 'unknown' WHERE id = ?", (fresh,))
        assert client.get("/api/games").json()["games"] == []
        # once played again, the older row says where it stands
        assert move(client, fresh, client.app.state.server.store.get(fresh).tokens[0],
                    "2,2 3,2 3,3", seat=0).status_code == 200
        assert [g["id"] for g in client.get("/api/games").json()["games"]] == [fresh]


def test_a_file_of_an_earlier_version_gains_the_status_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, params TEXT "
                    "NOT NULL, setup TEXT NOT NULL, opponent TEXT NOT NULL, tokens TEXT NOT "
                    "NULL, moves TEXT NOT NULL DEFAULT '[]', pending TEXT NOT NULL DEFAULT "
                    "'{}', created REAL NOT NULL, updated REAL NOT NULL)")
        record = Record("war_of_life", {}, QUICK_WAR, ["", ""], [])
        raw.execute("INSERT INTO games VALUES ('oldgame1', 'war_of_life', '{}', ?, "
                    "'{\"kind\": \"hotseat\"}', '[\"t\", \"t\"]', '[]', '{}', 1, ?)",
                    (str(record.setup), time.time()))
    store = Store(path)
    try:
        assert store.get("oldgame1") is not None
        assert store.latest(False, 10) == [] and store.latest(True, 10) == []
        store.save_progress("oldgame1", ["[2,2,1,1]"], {})
        assert [g.id for g in store.latest(False, 10)] == ["oldgame1"]
    finally:
        store.close()


def test_the_home_page_is_modules_and_stylesheets_only(client: TestClient) -> None:
    response = client.get("/", headers=BROWSER)
    assert response.status_code == 200
    assert response.headers["content-security-policy"] == CSP
    text = response.text
    assert '<script type="module" src="/static/home.js"></script>' in text
    assert text.count("<script") == 1  # the one module; it imports the rest
    assert "style=" not in text and "<style" not in text
    assert '<link rel="stylesheet" href="/static/home.css">' in text
    for path in ("/static/home.js", "/static/home/lobby.js", "/static/home/fields.js",
                 "/static/home/words.js", "/static/lab/live.js"):
        script = client.get(path)
        assert script.status_code == 200, path
        assert script.text.startswith("// @ts-check"), path
    assert client.get("/static/home.css").status_code == 200
    live = client.get("/lab/live", headers=BROWSER).text
    assert '<script type="module" src="/static/lab/live.js"></script>' in live


def test_the_labs_live_list_is_the_stores_as_the_home_page_reads_it(
        games_db: str | Path) -> None:
    db = games_db  # on each backend
    with TestClient(create_app(Settings(db, agent_workers="thread")),
                    base_url="http://localhost") as first:
        finished = _finish_quick_war(first)
        playing = create(first, "losat", opponent="hotseat")["id"]
    # a new server on the same file lists them though it has loaded neither
    with TestClient(create_app(Settings(db, agent_workers="thread")),
                    base_url="http://localhost") as second:
        lab = second.get("/api/lab/live").json()
        home = second.get("/api/games").json()
        assert [g["id"] for g in lab["games"]] == [g["id"] for g in home["games"]] == [playing]
        assert [g["id"] for g in lab["finished"]] == [finished]
        assert lab["finished"][0]["result"] == home["finished"][0]["result"]
        assert abs(lab["now"] - time.time()) < 60
        assert not second.app.state.server.games


def test_the_players_pages_are_served_and_a_name_that_is_nobodys_is_missing(
        client: TestClient) -> None:
    for path, module in (("/account", "/static/account.js"),
                         ("/leaderboard", "/static/leaderboard.js")):
        response = client.get(path, headers=BROWSER)
        assert response.status_code == 200, path
        assert response.headers["content-security-policy"] == CSP
        text = response.text
        assert f'<script type="module" src="{module}"></script>' in text
        assert text.count("<script") == 1 and "style=" not in text and "<style" not in text
    text = _page_of(client, "/@/nobody-here")
    assert "No such player: <code>nobody-here</code>" in text
    assert '<a id="back" href="/leaderboard">to the leaderboards</a>' in text
    assert "x" * 41 not in _page_of(client, "/@/" + "x" * 80)
    signed = client.post("/api/account/signup", json={"name": "Someone",
                                                       "password": "correct horse"})
    assert signed.status_code == 201, signed.text
    for path in ("/@/Someone", "/@/someone"):  # names in any case
        response = client.get(path, headers=BROWSER)
        assert response.status_code == 200, path
        assert '<script type="module" src="/static/player.js"></script>' in response.text
    for path in ("/static/account.js", "/static/player.js", "/static/leaderboard.js",
                 "/static/home/mine.js", "/static/js/me.js", "/static/js/turn.js",
                 "/static/js/rating.js", "/static/js/chart.js"):
        script = client.get(path)
        assert script.status_code == 200, path
        assert script.text.startswith("// @ts-check"), path
