"""The bot API (``lifearena.web.bot_api``) and its client (``lifearena bot connect``).

Refusals are checked through the test client; streams need a real server
(``live_server``): the test client would wait for a stream's end. Every person is a client of
its own keeping its cookies, as a browser does; bots read their streams in threads or run as
``lifearena bot connect`` processes. Waits are conditions with deadlines."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from lifearena.web import Settings, create_app

from .conftest import SERVED, live_server, wait_until

ROOT = Path(__file__).resolve().parents[2]
WAR = {"start": "random", "seed": 11}
"""A War of Life start that lasts a few moves between a first-move player and random."""


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def account(client: Any, name: str, *, bot: bool = False,
            scopes: tuple[str, ...] = ("bot:play", "challenge:write")) -> str:
    """Sign ``client`` up as ``name`` (a bot account if ``bot``); answer an API token."""
    ok(client.post("/api/account/signup", json={"name": name, "password": "correct horse"}),
       201)
    if bot:
        ok(client.post("/api/account/bot", json={}))
    return ok(client.post("/api/account/tokens", json={"label": "t", "scopes": list(scopes)}),
              201)["token"]


def site(url: str) -> httpx.Client:
    """A browser of the live server at ``url`` (keeping its cookies)."""
    return httpx.Client(base_url=url, timeout=60)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# -- refusals (test client) ---------------------------------------------------------------


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return create_app(Settings(tmp_path / "games.sqlite", agent_workers="thread"))


def test_tokens_and_scopes_are_enforced(app: Any) -> None:
    with TestClient(app, base_url="http://localhost", client=("10.0.0.1", 1)) as robo, \
            TestClient(app, base_url="http://localhost", client=("10.0.0.2", 1)) as ann:
        bot_token = account(robo, "Robo", bot=True)
        reader = ok(robo.post("/api/account/tokens", json={"label": "r",
                                                           "scopes": ["board:read"]}), 201)
        person_token = account(ann, "Ann", scopes=("bot:play", "board:read"))
        made = ok(ann.post("/api/challenge/Robo", json={"game": "blocking_queen",
                                                        "params": {"k": 2}}), 201)
        started = ok(robo.post(f"/api/challenge/{made['challenge']['id']}/accept",
                               headers=bearer(bot_token)))
        game = started["game"]["id"]
        anonymous = TestClient(app, base_url="http://localhost", client=("10.0.0.3", 1))
        refused = anonymous.post(f"/api/bot/game/{game}/resign", json={})
        assert refused.status_code == 401 and "Bearer" in refused.json()["error"]
        assert anonymous.get("/api/stream/event").status_code == 401
        wrong = robo.post(f"/api/bot/game/{game}/resign", headers=bearer(reader["token"]))
        assert wrong.status_code == 403 and "bot:play" in wrong.json()["error"]
        person = ann.post(f"/api/bot/game/{game}/resign", headers=bearer(person_token))
        assert person.status_code == 403 and "only bot accounts" in person.json()["error"]
        in_url = anonymous.get(f"/api/stream/event?token={bot_token}")
        assert in_url.status_code == 400 and "URL" in in_url.json()["error"]
        bogus = anonymous.get("/api/stream/event", headers=bearer("lat_nope"))
        assert bogus.status_code == 401
        # a body-less post with a token passes the guard (no cross-site page can send one)
        assert ok(robo.post(f"/api/bot/game/{game}/draw/maybe", headers=bearer(bot_token)),
                  400) == {"error": "draw answer 'maybe'; expected yes (offer or accept) or "
                                    "no (decline)"}
        assert robo.post(f"/api/bot/game/{game}/draw/yes",
                         headers=bearer(bot_token)).status_code in (200, 409)
        assert ok(robo.post(f"/api/bot/game/{game}/resign", headers=bearer(bot_token)))["ok"]
        view = ok(ann.get(f"/api/games/{game}"))
        assert view["outcome"]["termination"] == "resign"
        stranger = robo.post(f"/api/challenge/{made['challenge']['id']}/accept",
                             headers=bearer(bot_token))
        assert stranger.status_code == 409


def test_challenges_are_named_bounded_declined_and_listed(app: Any) -> None:
    with TestClient(app, base_url="http://localhost", client=("10.0.0.1", 1)) as robo, \
            TestClient(app, base_url="http://localhost", client=("10.0.0.2", 1)) as ann:
        token = account(robo, "Robo", bot=True)
        ok(ann.post("/api/me/name", json={"name": "Anon"}))
        rated = ann.post("/api/challenge/Robo", json={"game": "blocking_queen", "rated": True})
        assert rated.status_code == 403 and "accounts on both sides" in rated.json()["error"]
        assert ann.post("/api/challenge/Nobody", json={"game": "losat"}).status_code == 404
        bad = ann.post("/api/challenge/Robo", json={"game": "losat", "params": {"width": 99}})
        assert bad.status_code == 400
        made = ok(ann.post("/api/challenge/Robo", json={"game": "losat"}), 201)["challenge"]
        mine = ok(robo.get("/api/challenge", headers=bearer(token)))
        assert [c["id"] for c in mine["in"]] == [made["id"]] and mine["out"] == []
        assert mine["in"][0]["challenger"]["name"] == "Anon"
        ok(robo.post(f"/api/challenge/{made['id']}/decline", headers=bearer(token),
                     json={"reason": "later"}))
        assert ok(robo.get("/api/challenge", headers=bearer(token)))["in"] == []
        # a bot challenges a person, who accepts from the site (its session)
        ok(ann.post("/api/account/signup", json={"name": "Anon", "password": "correct horse"}),
           201)
        asked = ok(robo.post("/api/challenge/Anon", headers=bearer(token),
                             json={"game": "blocking_queen", "rated": True, "colour": 1}),
                   201)["challenge"]
        assert ok(ann.get("/api/challenge"))["in"][0]["id"] == asked["id"]
        started = ok(ann.post(f"/api/challenge/{asked['id']}/accept", json={}))["game"]
        assert started["seat"] == 0
        assert ok(ann.get(f"/api/games/{started['id']}"))["people"][1]["name"] == "Robo"
        for _ in range(10):
            ok(ann.post("/api/challenge/Robo", json={"game": "losat"}), 201)
        over = ann.post("/api/challenge/Robo", json={"game": "losat"})
        assert over.status_code == 429 and "10 open challenges" in over.json()["error"]


def test_a_token_past_its_requests_gets_429(app: Any) -> None:
    with TestClient(app, base_url="http://localhost") as robo:
        token = account(robo, "Robo", bot=True)
        robo.app.state.server.bot_api["limits"].requests_per_minute = 5
        answers = [robo.get("/api/challenge", headers=bearer(token)).status_code
                   for _ in range(6)]
        assert answers == [200] * 5 + [429]
        said = robo.get("/api/challenge", headers=bearer(token)).json()["error"]
        assert "5 requests of this token" in said and "\n" not in said


# -- streams (a real server) ----------------------------------------------------------------


class Reader:
    """An NDJSON stream read in a thread; ``lines`` grows as it comes."""

    def __init__(self, client: httpx.Client, path: str) -> None:
        self.lines: list[dict[str, Any]] = []
        self.ended = threading.Event()
        self.client, self.path = client, path
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with contextlib.suppress(httpx.HTTPError), \
                self.client.stream("GET", self.path) as response:
            for line in response.iter_lines():
                if line:
                    self.lines.append(json.loads(line))
        self.ended.set()

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [line for line in self.lines if line.get("type") == kind]


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[str]:
    with live_server(tmp_path / "games.sqlite", rated_within_address=True) as url:
        yield url


def person_move(person: httpx.Client, game_id: str) -> bool:
    """The person's first legal move if it is its turn; ``True`` once the game is over."""
    view = ok(person.get(f"/api/games/{game_id}"))
    if view["outcome"] is not None:
        return True
    for legal in view["legal"].values():
        if legal["moves"]:
            person.post(f"/api/games/{game_id}/moves",
                        json={"move": legal["moves"][0]["move"], "ply": view["ply"]})
    return False


def test_streams_show_challenges_games_and_states(server: str) -> None:
    with site(server) as robo_site, site(server) as ann:
        token = account(robo_site, "Robo", bot=True)
        account(ann, "Ann")
        robo = httpx.Client(base_url=server, headers=bearer(token), timeout=30)
        events = Reader(robo, "/api/stream/event")
        made = ok(ann.post("/api/challenge/Robo", json={
            "game": "war_of_life", "params": WAR, "rated": True, "colour": 0}), 201)
        told = wait_until(lambda: events.of("challenge"), "the challenge event")
        assert told[0]["challenge"]["id"] == made["challenge"]["id"]
        game_id = ok(robo.post(f"/api/challenge/{made['challenge']['id']}/accept"))["game"]["id"]
        start = wait_until(lambda: events.of("gameStart"), "gameStart")[0]["game"]
        assert (start["id"], start["seat"], start["rated"]) == (game_id, 1, True)
        assert start["opponent"]["name"] == "Ann"
        game = Reader(robo, f"/api/bot/game/stream/{game_id}")
        full = wait_until(lambda: game.of("gameFull"), "gameFull")[0]
        assert full["your_seat"] == 1 and full["game"] == "war_of_life" and full["setup"]
        assert [s["name"] for s in full["seats"]] == ["Ann", "Robo"]
        assert full["state"]["moves"] == [] and not full["state"]["your_turn"]
        person_move(ann, game_id)
        state = wait_until(lambda: game.of("gameState"), "a state line")[-1]
        assert state["your_turn"] and len(state["moves"]) == 1 and state["legal"]
        move = urllib.parse.quote(state["legal"][0], safe="")
        ok(robo.post(f"/api/bot/game/{game_id}/move/{move}?ply=1"))
        again = robo.post(f"/api/bot/game/{game_id}/move/{move}?ply=1")
        assert again.status_code == 409  # the same move number twice: nothing played
        wait_until(lambda: len(game.of("gameState")) >= 2, "the bot's own move told")
        while not person_move(ann, game_id):
            state = game.lines[-1]
            state = state.get("state", state)
            if state["your_turn"]:
                ok(robo.post(f"/api/bot/game/{game_id}/resign"))
            seen = len(game.lines)
            wait_until(lambda seen=seen: len(game.lines) > seen or game.ended.is_set(),
                       "the next state")
        assert game.ended.wait(10), "the game stream ends with the game"
        assert game.lines[-1]["status"] == "ended"
        finish = wait_until(lambda: events.of("gameFinish"), "gameFinish")[0]["game"]
        assert finish["id"] == game_id and finish["result"] in ("win", "loss", "draw")
        robo.close()


# -- lifearena bot connect -------------------------------------------------------------------


def connect(url: str, token: str, *args: str) -> subprocess.Popen[str]:
    """``lifearena bot connect`` in a process of its own."""
    env = {**os.environ, "LIFEARENA_TOKEN": token, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.Popen([sys.executable, "-m", "lifearena", "bot", "connect", url,
                             "--time-per-move", "0.05", *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def finish(process: subprocess.Popen[str], within: float = 60) -> str:
    try:
        out, _ = process.communicate(timeout=within)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate()
        raise AssertionError(f"the bot did not finish:\n{out}") from None
    assert process.returncode == 0, out
    return out


def play_out(person: httpx.Client, game_id: str, within: float = 60) -> dict[str, Any]:
    wait_until(lambda: person_move(person, game_id), "the game's end", within)
    return ok(person.get(f"/api/games/{game_id}"))


def my_game(client: httpx.Client, within: float = 30) -> str:
    playing = wait_until(lambda: ok(client.get("/api/me/games"))["playing"],
                         "a game in progress", within)
    return str(playing[0]["id"])


def test_a_connected_bot_plays_a_rated_game_against_a_person(server: str) -> None:
    with site(server) as robo, site(server) as ann:
        token = account(robo, "Robo", bot=True)
        account(ann, "Ann")
        bot = connect(server, token, "--agent", "random", "--games", "1")
        ok(ann.post("/api/challenge/Robo", json={"game": "war_of_life", "params": WAR,
                                                 "rated": True}), 201)
        view = play_out(ann, my_game(ann))
        out = finish(bot)
        assert "accepted Ann's challenge" in out and "done: 1 games finished" in out
        assert view["rated"] and all("rating_change" in p for p in view["people"])


def test_two_connected_bots_play_each_other(server: str) -> None:
    with site(server) as one, site(server) as two:
        first, second = account(one, "BotOne", bot=True), account(two, "BotTwo", bot=True)
        host = connect(server, second, "--agent", "random", "--games", "1")
        guest = connect(server, first, "--agent", "random", "--games", "1", "--challenge",
                        "BotTwo", "--game", "queen", "--rated")
        assert "challenged BotTwo" in finish(guest)
        assert "done: 1 games finished" in finish(host)
        games = ok(one.get("/api/players/BotOne"))["counts"]
        assert games["games"] == 1


def test_two_bots_seeking_in_the_bots_pool_are_paired_and_play_rated(server: str) -> None:
    with site(server) as one, site(server) as two:
        tokens = account(one, "PoolOne", bot=True), account(two, "PoolTwo", bot=True)
        # War of Life: twelve pieces a side, so the game lasts the two moves a rating needs
        bots = [connect(server, token, "--agent", "random", "--games", "1", "--seek", "1d",
                        "--game", "war-of-life", "--rated") for token in tokens]
        for bot in bots:
            out = finish(bot)
            assert "waiting in the bots' pool" in out and "done: 1 games finished" in out
        ratings = ok(one.get("/api/players/PoolOne"))["ratings"]
        assert ratings["war_of_life"]["games"] == 1


def test_a_bot_cut_off_mid_game_resumes_and_finishes(server: str) -> None:
    with site(server) as robo, site(server) as ann:
        token = account(robo, "Robo", bot=True)
        account(ann, "Ann")
        bot = connect(server, token, "--agent", "random", "--games", "1")
        ok(ann.post("/api/challenge/Robo", json={"game": "war_of_life", "params": WAR,
                                                 "colour": 0}), 201)
        game_id = my_game(ann)
        person_move(ann, game_id)
        wait_until(lambda: ok(ann.get(f"/api/games/{game_id}"))["move_number"] >= 2,
                   "the bot's first move")
        bot.kill()  # the connection cut mid-game, the client gone with it
        bot.communicate()
        person_move(ann, game_id)
        again = connect(server, token, "--agent", "random", "--games", "1")
        wait_until(lambda: ok(ann.get(f"/api/games/{game_id}"))["move_number"] >= 4,
                   "the restarted bot's move")
        view = play_out(ann, game_id)
        assert view["outcome"] is not None
        out = finish(again)
        assert "done: 1 games finished" in out


def test_a_stream_cut_by_the_server_is_reopened(tmp_path: Path) -> None:
    with live_server(tmp_path / "games.sqlite") as server, \
            site(server) as robo, site(server) as ann:
        token = account(robo, "Robo", bot=True)
        account(ann, "Ann")
        bot = connect(server, token, "--agent", "random", "--games", "1")
        ok(ann.post("/api/challenge/Robo", json={"game": "war_of_life", "params": WAR,
                                                 "colour": 0}), 201)
        game_id = my_game(ann)
        person_move(ann, game_id)
        wait_until(lambda: ok(ann.get(f"/api/games/{game_id}"))["move_number"] >= 2,
                   "the bot's first move")
        hub = _hub_of(server)
        for feeds in [*hub.events.values()]:
            for feed in list(feeds.values()):
                feed.drop("cut by the test")
        for readers in [*hub.games.values()]:
            for feed in list(readers):
                feed.drop("cut by the test")
        view = play_out(ann, game_id)
        assert view["outcome"] is not None
        out = finish(bot)
        assert "connection lost" in out or "stream lost" in out




def _hub_of(url: str) -> Any:
    """The bot API's streams of the live server at ``url``."""
    return SERVED[url].state.server.bot_api["hub"]


def test_the_raw_http_bot_of_the_docs_plays_a_game(server: str, tmp_path: Path) -> None:
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    code = re.search(r"<!-- raw-bot -->\n```python\n(.*?)```", text, re.S)
    assert code is not None, "docs/bots.md has lost its raw bot"
    assert len(code.group(1).splitlines()) < 40
    script = tmp_path / "raw_bot.py"
    script.write_text(code.group(1), encoding="utf-8")
    with site(server) as robo, site(server) as ann:
        token = account(robo, "RawBot", bot=True)
        account(ann, "Ann")
        process = subprocess.Popen([sys.executable, str(script)], text=True,
                                   env={**os.environ, "LIFEARENA_URL": server,
                                        "LIFEARENA_TOKEN": token},
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        ok(ann.post("/api/challenge/RawBot", json={"game": "war_of_life", "params": WAR,
                                                   "rated": True}), 201)
        view = play_out(ann, my_game(ann))
        assert view["outcome"] is not None and view["move_number"] >= 2
        finish(process, within=30)
