"""Players over HTTP: anonymous identities, names, accounts, sessions, ratings of rated
games (people and the computer), my games, player pages' data, leaderboards and tokens.

Each person is a test client of its own that keeps its cookies, as a browser does, from an
address of its own."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lifearena.arena.glicko2 import LICHESS, Rating, rate_game
from lifearena.web import Settings, create_app
from lifearena.web.identity import COOKIE

Person = Callable[..., TestClient]


@pytest.fixture()
def people(games_db: str | Path) -> Iterator[Person]:
    """Make browsers of one server, each from its own address (``person("10.0.0.2")``), on
    each kind of database (SQLite, PostgreSQL)."""
    app = create_app(Settings(games_db, agent_workers="thread"))
    with contextlib.ExitStack() as stack:
        count = [0]

        def person(address: str | None = None) -> TestClient:
            count[0] += 1
            host = address or f"10.0.0.{count[0]}"
            return stack.enter_context(TestClient(app, base_url="http://localhost",
                                                  client=(host, 5000)))
        yield person


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def signup(client: TestClient, name: str, password: str = "correct horse") -> dict:
    return ok(client.post("/api/account/signup", json={"name": name, "password": password}),
              201)["player"]


def new_game(client: TestClient, **body: Any) -> dict:
    body.setdefault("game", "war_of_life")
    body.setdefault("params", {"start": "random", "seed": 5})
    return ok(client.post("/api/games", json=body), 201)


def me(client: TestClient) -> dict:
    return ok(client.get("/api/me"))


def test_a_browser_is_nobody_until_it_plays_then_an_anonymous_player(people: Person) -> None:
    browser = people()
    assert me(browser) == {"player": None, "ratings": {}}
    new_game(browser, opponent="hotseat")
    cookie = browser.cookies.get(COOKIE)
    assert cookie and len(cookie) >= 40
    player = me(browser)["player"]
    assert player["kind"] == "anonymous" and player["name"] == "Anonymous"
    playing = ok(browser.get("/api/me/games"))["playing"]
    assert len(playing) == 1 and playing[0]["your_turn"]


def test_the_session_cookie_is_httponly_lax_and_secure_over_https(tmp_path: Path) -> None:
    app = create_app(Settings(tmp_path / "g.sqlite", agent_workers="thread"))
    for base, secure in (("http://localhost", False), ("https://localhost", True)):
        with TestClient(app, base_url=base) as browser:
            response = browser.post("/api/me/name", json={"name": f"Name{int(secure)}"})
            assert response.status_code == 200, response.text
            header = response.headers["set-cookie"].lower()
            assert "httponly" in header and "samesite=lax" in header
            assert ("secure" in header.replace("samesite", "")) is secure


def test_names_are_unique_in_any_case_and_plain_ascii(people: Person) -> None:
    alice, mallory = people(), people()
    assert ok(alice.post("/api/me/name", json={"name": "Alice"}))["player"]["name"] == "Alice"
    taken = mallory.post("/api/me/name", json={"name": "aLiCe"})
    assert taken.status_code == 409 and "taken" in taken.json()["error"]
    for name in ("Аlice", "Ali\u200bce", "<b>x</b>", "a", "x" * 21, "computer-easy", "a__b"):
        refused = mallory.post("/api/me/name", json={"name": name})
        assert refused.status_code == 400, name
        assert "\n" not in refused.json()["error"]


def test_signing_up_keeps_the_anonymous_players_games(people: Person) -> None:
    browser = people()
    created = new_game(browser, opponent="agent", level="random")
    anonymous = me(browser)["player"]["id"]
    account = signup(browser, "Keeper")
    assert account["id"] == anonymous and account["kind"] == "account"
    assert [g["id"] for g in ok(browser.get("/api/me/games"))["playing"]] == [created["id"]]
    page = ok(browser.get("/api/players/keeper"))
    assert page["player"]["name"] == "Keeper" and page["counts"]["playing"] == 1


def test_login_starts_a_new_session_and_logout_ends_it(people: Person) -> None:
    first = people()
    signup(first, "Rotor")
    ok(first.post("/api/account/logout", json={}))
    assert me(first)["player"] is None
    # a cookie planted before login (session fixation) is worth nothing after it
    first.post("/api/me/name", json={"name": "Planted"})
    planted = first.cookies.get(COOKIE)
    ok(first.post("/api/account/login", json={"name": "rotor", "password": "correct horse"}))
    fresh = first.cookies.get(COOKIE)
    assert fresh and fresh != planted
    stranger = people()
    stranger.cookies.set(COOKIE, planted, domain="localhost.local")
    assert me(stranger)["player"] is None
    assert me(first)["player"]["name"] == "Rotor"


def test_a_wrong_password_says_one_thing_and_brute_force_is_bounded(people: Person) -> None:
    owner, attacker = people(), people()
    signup(owner, "Target")
    answers = [attacker.post("/api/account/login", json={"name": name, "password": "guess1234"})
               for name in ("Target", "nobody-here")]
    assert [a.status_code for a in answers] == [401, 401]
    assert answers[0].json() == answers[1].json() == {"error": "wrong name or password"}
    codes = [attacker.post("/api/account/login",
                           json={"name": "Target", "password": f"guess{n:04d}"}).status_code
             for n in range(10)]
    assert codes[:6] == [401] * 6 and codes[-1] == 429
    # the account's bound holds from another address too, and the right password waits
    other = people()
    late = other.post("/api/account/login", json={"name": "Target", "password": "correct horse"})
    assert late.status_code == 429 and "wrong passwords" in late.json()["error"]


def test_a_rated_game_needs_accounts_and_moves_ratings_as_glicko2_says(people: Person) -> None:
    alice, bob, guest = people(), people(), people()
    anonymous_rated = new_game(guest, opponent="online", rated=False)
    assert anonymous_rated["id"]
    refused = guest.post("/api/games", json={"game": "war_of_life", "opponent": "online",
                                             "rated": True})
    assert refused.status_code == 403 and "account" in refused.json()["error"]
    signup(alice, "Alice")
    signup(bob, "Bob")
    created = new_game(alice, opponent="online", rated=True, side=0)
    invitation = created["links"]["invite"].split("#i=")[1]
    claim = {"invitation": invitation}
    assert guest.post(f"/api/games/{created['id']}/claim", json=claim).status_code == 403
    ok(bob.post(f"/api/games/{created['id']}/claim", json=claim))
    game = ok(alice.get(f"/api/games/{created['id']}"))
    assert game["rated"] and [p["name"] for p in game["people"]] == ["Alice", "Bob"]
    assert game["seats"] == [0]  # Alice's session plays her seat without the link's token
    play_two_moves(alice, bob, created["id"])
    ok(bob.post(f"/api/games/{created['id']}/resign", json={}))
    winner, loser = rate_game(Rating(), Rating(), 1.0, LICHESS)
    assert me(alice)["ratings"]["war_of_life"]["rating"] == round(winner.rating)
    assert me(bob)["ratings"]["war_of_life"]["rating"] == round(loser.rating)
    assert me(alice)["ratings"]["war_of_life"]["shown"].endswith("?")
    ended = ok(alice.get(f"/api/games/{created['id']}"))
    assert ended["people"][0]["rating_change"] == round(winner.rating - 1500)
    history = ok(alice.get("/api/players/Alice/history", params={"game": "war_of_life"}))
    assert [round(p["rating"]) for p in history["points"]] == [round(winner.rating)]
    finished = ok(bob.get("/api/players/bob/games", params={"result": "loss"}))["games"]
    assert [g["id"] for g in finished] == [created["id"]] and finished[0]["opponent"] == "Alice"
    assert ok(bob.get("/api/players/bob/games", params={"result": "win"}))["games"] == []


def play_two_moves(first: TestClient, second: TestClient, game_id: str) -> None:
    """Each side plays its first legal move (a rated game counts from two moves)."""
    for client in (first, second):
        view = ok(client.get(f"/api/games/{game_id}"))
        seat = str(view["seats"][0])
        legal = view["legal"][seat]
        ok(client.post(f"/api/games/{game_id}/moves",
                       json={"move": legal["moves"][0]["move"], "ply": view["ply"]}))


def test_a_game_resigned_at_once_is_not_rated(people: Person) -> None:
    alice, bob = people(), people()
    signup(alice, "Quick")
    signup(bob, "Quitter")
    created = new_game(alice, opponent="online", rated=True)
    invitation = created["links"]["invite"].split("#i=")[1]
    ok(bob.post(f"/api/games/{created['id']}/claim", json={"invitation": invitation}))
    ok(bob.post(f"/api/games/{created['id']}/resign", json={}))
    assert me(alice)["ratings"] == {} and me(bob)["ratings"] == {}


def test_the_computers_rating_moves_in_rated_games_only(people: Person) -> None:
    browser = people()
    before = ok(browser.get("/api/computer"))["games"]["war_of_life"]["random"]
    casual = new_game(browser, opponent="agent", level="random")
    ok(browser.post(f"/api/games/{casual['id']}/resign", json={}))
    assert ok(browser.get("/api/computer"))["games"]["war_of_life"]["random"] == before
    assert browser.post("/api/games", json={"game": "war_of_life", "opponent": "agent",
                                            "level": "random", "rated": True}
                        ).status_code == 403
    signup(browser, "Human")
    rated = new_game(browser, opponent="agent", level="random", rated=True)
    play_one_move(browser, rated["id"])
    wait_for_my_turn(browser, rated["id"], moves=2)
    ok(browser.post(f"/api/games/{rated['id']}/resign", json={}))
    after = ok(browser.get("/api/computer"))["games"]["war_of_life"]["random"]
    assert after["rating"] > before["rating"] and after["games"] == before["games"] + 1
    assert me(browser)["ratings"]["war_of_life"]["losses"] == 1


def wait_for_my_turn(client: TestClient, game_id: str, moves: int, within: float = 30) -> None:
    import time

    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        view = ok(client.get(f"/api/games/{game_id}"))
        if view["move_number"] >= moves and view["seats"][0] in view["awaiting"]:
            return
        time.sleep(0.05)
    raise AssertionError("the computer did not move in time")


def play_one_move(client: TestClient, game_id: str) -> None:
    view = ok(client.get(f"/api/games/{game_id}"))
    legal = view["legal"][str(view["seats"][0])]
    ok(client.post(f"/api/games/{game_id}/moves",
                   json={"move": legal["moves"][0]["move"], "ply": view["ply"]}))


def test_deleting_an_account_keeps_its_games_under_no_name(people: Person) -> None:
    leaver, friend = people(), people()
    signup(leaver, "Leaver")
    created = new_game(leaver, opponent="online")
    invitation = created["links"]["invite"].split("#i=")[1]
    ok(friend.post(f"/api/games/{created['id']}/claim", json={"invitation": invitation}))
    wrong = leaver.post("/api/account/delete", json={"password": "not it at all"})
    assert wrong.status_code == 401
    ok(leaver.post("/api/account/delete", json={"password": "correct horse"}))
    assert me(leaver)["player"] is None
    game = ok(friend.get(f"/api/games/{created['id']}"))
    assert game["people"][1 - game["seats"][0]]["name"] == "deleted player"
    assert friend.get("/api/players/Leaver").status_code == 404
    signup(people(), "leaver")  # the name is free again


def test_api_tokens_are_shown_once_scoped_and_revocable(people: Person) -> None:
    owner = people()
    assert owner.post("/api/account/tokens", json={"label": "x", "scopes": ["bot:play"]}
                      ).status_code == 401
    signup(owner, "Maker")
    made = ok(owner.post("/api/account/tokens",
                         json={"label": "my bot", "scopes": ["board:read"]}), 201)
    secret = made["token"]
    listed = ok(owner.get("/api/account/tokens"))["tokens"]
    assert len(listed) == 1 and "token" not in listed[0] and secret not in str(listed)
    program = people()
    bearer = {"Authorization": f"Bearer {secret}"}
    assert ok(program.get("/api/me", headers=bearer))["player"]["name"] == "Maker"
    ok(owner.post(f"/api/account/tokens/{made['id']}/revoke", json={}))
    assert program.get("/api/me", headers=bearer).status_code == 401


def test_an_account_becomes_a_bot_only_before_it_plays(people: Person) -> None:
    fresh, player = people(), people()
    signup(fresh, "Botty")
    assert ok(fresh.post("/api/account/bot", json={}))["player"]["kind"] == "bot"
    signup(player, "Played")
    new_game(player, opponent="hotseat")
    refused = player.post("/api/account/bot", json={})
    assert refused.status_code == 400 and "played" in refused.json()["error"]


def test_leaderboards_list_established_ratings_only(people: Person) -> None:
    browser, steady, new = people(), people(), people()
    assert ok(browser.get("/api/leaderboard", params={"game": "war_of_life"}))["players"] == []
    assert browser.get("/api/leaderboard", params={"game": "chess"}).status_code == 400
    signup(steady, "Steady")
    signup(new, "Newcomer")
    book = browser.app.state.server.players
    ids = {name: me(client)["player"]["id"] for name, client in (("Steady", steady),
                                                                  ("Newcomer", new))}
    # an established rating (deviation under 110), and a higher but provisional one
    book.set_rating(ids["Steady"], "war_of_life", Rating(1640.0, 70.0, 0.06))
    book.set_rating(ids["Newcomer"], "war_of_life", Rating(1900.0, 200.0, 0.06))
    board = ok(browser.get("/api/leaderboard", params={"game": "war_of_life"}))["players"]
    assert [(row["rank"], row["name"], row["rating"]) for row in board] == [
        (1, "Steady", 1640)]
    assert ok(browser.get("/api/leaderboard", params={"game": "losat"}))["players"] == []
