"""The players' pages in a real browser: signing up, logging in and out from the header, the
account page's API tokens (the secret shown once), a player's page with ratings, a chart and
finished games after a rated game, the leaderboards, and the your-turn mark a tab's title takes
when an opponent moves. Screenshots go to ``$LIFEARENA_SCREENSHOTS`` when set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from . import test_browser
from .conftest import live_server
from .test_browser import _page

browser = test_browser.browser
shots = test_browser.shots
"""The browser tests' fixtures: one browser per module, the screenshots' folder."""

pytestmark = pytest.mark.timeout(120)

SIZES = ((1280, 800), (390, 844))
"""A desktop window and a phone."""


def _call(page: Any, base_url: str, path: str, body: dict | None = None) -> Any:
    """A request with the page's cookies (its player); fails the test unless answered ok."""
    if body is None:
        response = page.request.get(base_url + path)
    else:
        response = page.request.post(base_url + path, data=body,
                                     headers={"Content-Type": "application/json"})
    assert response.ok, (path, response.status, response.text())
    return response.json()


def _signup(page: Any, base_url: str, name: str) -> None:
    _call(page, base_url, "/api/account/signup", {"name": name, "password": "correct horse"})


def _play_first_legal(page: Any, base_url: str, game_id: str) -> None:
    view = _call(page, base_url, f"/api/games/{game_id}")
    legal = view["legal"][str(view["seats"][0])]
    _call(page, base_url, f"/api/games/{game_id}/moves",
          {"move": legal["moves"][0]["move"], "ply": view["ply"]})


def _online_game(first: Any, second: Any, base_url: str, **extra: Any) -> str:
    """A War of Life game between the players of two pages (the first makes it, the second
    takes the invitation); its id."""
    created = _call(first, base_url, "/api/games",
                    {"game": "war_of_life", "opponent": "online", **extra})
    invitation = created["links"]["invite"].split("#i=")[1]
    _call(second, base_url, f"/api/games/{created['id']}/claim", {"invitation": invitation})
    return str(created["id"])


def _listed(page: Any) -> list[str]:
    """The ids of the finished games a player's page lists, in order."""
    return list(page.locator("#finished-rows tr").evaluate_all(
        "rows => rows.map(r => r.dataset.id)"))


def _header(page: Any) -> str:
    return " ".join(page.inner_text("header.top nav.me").split())


def _fits(page: Any, name: str, width: int, wrong: list[str]) -> None:
    wide = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    if wide[0] > wide[1]:
        wrong.append(f"{name} at {width}: scrolls sideways ({wide[0]} > {wide[1]})")


def test_sign_up_log_out_and_log_in_from_the_header(browser: Any, tmp_path: Path,
                                                    shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    with live_server(tmp_path / "games.sqlite") as base_url:
        page.goto(base_url + "/")
        page.wait_for_selector("body[data-ready='1'] #me-name")
        page.wait_for_selector("html[data-me='nobody']")
        assert _header(page).startswith(
            "Learn Puzzles Leaderboards Anonymous choose a name Log in Sign up")
        page.click("#me-signup")
        page.wait_for_selector("#signup-box:not([hidden])")
        page.fill("#signup-name", "Alice")
        page.fill("#signup-password", "correct horse")
        page.click("#signup-button")
        page.wait_for_selector("html[data-me='Alice']")
        name = page.locator("#me-name")
        assert name.inner_text() == "Alice" and name.get_attribute("href") == "/@/Alice"
        page.wait_for_selector("#tokens-box:not([hidden])")
        assert page.locator("#signup-box").is_hidden()
        wrong: list[str] = []
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            _fits(page, "account", width, wrong)
            page.screenshot(path=str(shots / f"account-{width}x{height}.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 800})
        # the header's log out, on another page
        page.goto(base_url + "/lab/sandbox")
        page.wait_for_selector("html[data-me='Alice'] #me-logout")
        page.click("#me-logout")
        page.wait_for_selector("html[data-me='nobody'] #me-login")
        assert "Alice" not in _header(page)
        # a wrong password: the server's one line
        page.click("#me-login")
        page.wait_for_selector("#login-box:not([hidden])")
        page.fill("#login-name", "Alice")
        page.fill("#login-password", "wrong horse")
        page.click("#login-button")
        page.wait_for_function("() => document.getElementById('login-error').textContent !== ''")
        said = page.inner_text("#login-error")
        assert "\n" not in said and said, said
        assert "e-mail" in page.inner_text("#login-box")
        page.fill("#login-password", "correct horse")
        page.click("#login-button")
        page.wait_for_selector("html[data-me='Alice'] #me-logout")
        assert page.inner_text("#login-error") == ""
        # the new game's rated box: for an account, in a game not at one screen
        page.goto(base_url + "/")
        page.wait_for_selector("html[data-me='Alice'] body[data-ready='1'] #me-name")
        assert page.locator("#rated").is_disabled()
        assert "never rated" in page.inner_text("#rated-hint")
        page.check("input[name=opponent][value=online]")
        assert page.locator("#rated").is_enabled() and page.inner_text("#rated-hint") == ""
        page.click("#me-logout")
        page.wait_for_selector("html[data-me='nobody'] #me-login")
        assert page.locator("#rated").is_disabled()
        assert page.inner_text("#rated-hint") == "log in to play rated games"
        assert not wrong, wrong
        # the wrong password's answer is the one error the browser logs (checked while the
        # server runs: a page open when it stops logs its sockets' end)
        assert errors == ["Failed to load resource: the server responded with a status of "
                          "401 (Unauthorized)"]


def test_a_token_is_shown_once_then_listed_without_its_secret(browser: Any, tmp_path: Path,
                                                               shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    with live_server(tmp_path / "games.sqlite") as base_url:
        page.goto(base_url + "/account")
        _signup(page, base_url, "Maker")
        page.reload()
        page.wait_for_selector("#tokens-box:not([hidden]) #no-tokens:not([hidden])")
        page.fill("#token-label", "my bot")
        page.check("#token-scopes input[value='board:read']")
        page.click("#token-create")
        page.wait_for_selector("#token-secret:not([hidden])")
        secret = page.input_value("#token-value")
        assert len(secret) > 20
        assert "only once" in page.inner_text("#token-secret")
        row = page.locator("#token-rows tr")
        page.wait_for_function("() => document.querySelectorAll('#token-rows tr').length === 1")
        assert "my bot" in row.inner_text() and "bot:play, board:read" in row.inner_text()
        assert secret not in row.inner_text() and secret[:8] + "…" in row.inner_text()
        wrong: list[str] = []
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            _fits(page, "tokens", width, wrong)
            page.locator("#tokens-box").screenshot(path=str(shots / f"tokens-{width}x{height}.png"))
        assert not wrong, wrong
        # the secret is shown nowhere again
        page.reload()
        page.wait_for_selector("#token-rows tr")
        assert page.locator("#token-secret").is_hidden()
        assert page.input_value("#token-value") == ""
        assert secret not in page.content()
        page.click("#token-rows tr button")
        page.wait_for_selector("#no-tokens:not([hidden])")
        assert page.locator("#token-rows tr").count() == 0
        assert errors == []


def test_a_players_page_shows_ratings_a_chart_and_finished_games(browser: Any, tmp_path: Path,
                                                                  shots: Path) -> None:
    errors: list[str] = []
    alice = _page(browser, errors)
    bob = _page(browser, errors)
    # both browsers come from 127.0.0.1: a rated game between them is allowed here
    with live_server(tmp_path / "games.sqlite", rated_within_address=True) as base_url:
        alice.goto(base_url + "/")
        bob.goto(base_url + "/")
        _signup(alice, base_url, "Alice")
        _signup(bob, base_url, "Bob")
        game_id = _online_game(alice, bob, base_url, rated=True, side=0)
        _play_first_legal(alice, base_url, game_id)
        _play_first_legal(bob, base_url, game_id)
        # the game's page: names linking to their pages, ratings, and their changes as the
        # game ends
        alice.goto(base_url + f"/play/{game_id}")
        alice.wait_for_selector("#players .person .rating")
        assert alice.locator("#players .person .change").count() == 0
        _call(bob, base_url, f"/api/games/{game_id}/resign", {})
        alice.wait_for_selector("#players .person .change")
        first = alice.locator("#players .player[data-seat='0']")
        assert first.locator("a.name").get_attribute("href") == "/@/Alice"
        assert first.locator(".change").inner_text().startswith("+")
        assert alice.locator("#players .player[data-seat='1'] .change").inner_text().startswith("-")
        assert alice.locator("#players .player[data-seat='1'] .rating").inner_text().endswith("?")
        assert alice.inner_text("#players .game-kind") == "rated game"
        alice.screenshot(path=str(shots / "game-rated-over.png"), full_page=True)
        # Alice's page
        wrong: list[str] = []
        for width, height in SIZES:
            alice.set_viewport_size({"width": width, "height": height})
            alice.goto(base_url + "/@/alice")
            alice.wait_for_selector("body[data-ready='1'] #chart svg.rating-chart circle.dot")
            _fits(alice, "player", width, wrong)
            alice.screenshot(path=str(shots / f"player-{width}x{height}.png"), full_page=True)
        assert alice.inner_text("#player-name") == "Alice"
        rating = alice.locator("#ratings li[data-game='war_of_life'] .value")
        assert rating.inner_text().endswith("?")
        assert "±" in (rating.get_attribute("title") or "")
        assert alice.locator("#chart").get_attribute("data-points") == "1"
        assert alice.locator("#chart svg text.axis").count() >= 3
        row = alice.locator(f"#finished-rows tr[data-id='{game_id}']")
        assert "won" in row.inner_text() and "Bob" in row.inner_text()
        assert row.locator(".change").inner_text().startswith("+")
        assert row.locator("a", has_text="replay").get_attribute("href") == (
            f"/lab/replay#game={game_id}")
        assert row.locator("a", has_text="record").get_attribute("href") == f"/play/{game_id}"
        alice.select_option("#filter-result", "loss")
        alice.wait_for_selector("#no-finished:not([hidden])")
        alice.select_option("#filter-result", "win")
        alice.wait_for_selector(f"#finished-rows tr[data-id='{game_id}']")
        # the leaderboards answer (no rating is established after one game)
        for width, height in SIZES:
            alice.set_viewport_size({"width": width, "height": height})
            alice.goto(base_url + "/leaderboard")
            alice.wait_for_selector("body[data-ready='1']")
            _fits(alice, "leaderboard", width, wrong)
            alice.screenshot(path=str(shots / f"leaderboard-{width}x{height}.png"),
                             full_page=True)
        assert "The computer: " in alice.inner_text("#computer-line")
        assert not wrong, wrong
        assert errors == []


NOTIFICATIONS = """
window.shown = [];
window.Notification = class {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) { window.shown.push([title, options.body]); }
};
document.hasFocus = () => false;
"""
"""A browser where notifications are allowed, recorded in ``window.shown``, and the page is
not the window in front (so it notifies)."""


def test_the_home_pages_title_says_your_turn_when_the_opponent_moves(
        browser: Any, tmp_path: Path, shots: Path) -> None:
    errors: list[str] = []
    alice = _page(browser, errors)
    alice.context.add_init_script(NOTIFICATIONS)
    bob = _page(browser, errors)
    with live_server(tmp_path / "games.sqlite") as base_url:
        alice.goto(base_url + "/")
        bob.goto(base_url + "/")
        _signup(alice, base_url, "Alice")
        _signup(bob, base_url, "Bob")
        # Alice plays second: Bob's move first
        game_id = _online_game(alice, bob, base_url, side=1,
                               clock={"kind": "correspondence", "days": 3})
        alice.goto(base_url + "/")
        alice.wait_for_selector(f"#mine-games li[data-id='{game_id}']")
        assert not alice.title().startswith("(")
        assert "their turn" in alice.inner_text(f"#mine-games li[data-id='{game_id}']")
        _play_first_legal(bob, base_url, game_id)
        alice.wait_for_function("() => document.title.startsWith('(1) Your turn — ')",
                                timeout=40_000)  # the page asks every 12 s
        item = alice.locator(f"#mine-games li[data-id='{game_id}']")
        alice.wait_for_selector(f"#mine-games li.your-turn[data-id='{game_id}'] .turn-mark")
        assert "3 days a move" in item.inner_text()
        assert "Bob" in item.inner_text()
        icon = alice.locator("link[rel=icon]").get_attribute("href") or ""
        assert icon.startswith("data:image/svg+xml")
        # a notification told of it (the person allowed them), once
        alice.wait_for_function("() => window.shown.length > 0")
        assert alice.evaluate("window.shown") == [["Your turn — lifearena",
                                                   "War of Life against Bob"]]
        alice.screenshot(path=str(shots / "home-your-turn.png"), full_page=False)
        # the mark stays while the game page names its tab
        alice.goto(base_url + f"/play/{game_id}")
        alice.wait_for_selector("svg.board [data-cell]")
        alice.wait_for_function("() => document.title.startsWith('(1) Your turn — lifearena — ')",
                                timeout=40_000)
        # Alice's move: the mark goes
        _play_first_legal(alice, base_url, game_id)
        alice.goto(base_url + "/")
        alice.wait_for_selector(f"#mine-games li[data-id='{game_id}']:not(.your-turn)")
        alice.wait_for_function("() => !document.title.startsWith('(')")
        assert errors == []


def test_a_players_finished_games_come_a_page_at_a_time(browser: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    alice = _page(browser, errors)
    bob = _page(browser, errors)
    with live_server(tmp_path / "games.sqlite", creates_per_minute=100) as base_url:
        alice.goto(base_url + "/")
        bob.goto(base_url + "/")
        _signup(alice, base_url, "Alice")
        lost = []
        for number in range(21):  # a page holds 20
            game_id = _online_game(alice, bob, base_url)
            loser = alice if number % 7 == 0 else bob
            _call(loser, base_url, f"/api/games/{game_id}/resign", {})
            if loser is alice:
                lost.append(game_id)
        alice.goto(base_url + "/@/Alice")
        alice.wait_for_selector("body[data-ready='1'] #more:not([hidden])")
        assert alice.locator("#finished-rows tr").count() == 20
        alice.click("#more")
        alice.wait_for_selector("body[data-finished='21'] #more[hidden]", state="attached")
        shown = _listed(alice)
        assert len(set(shown)) == 21
        alice.select_option("#filter-result", "loss")
        alice.wait_for_selector("body[data-finished='3']")
        shown = _listed(alice)
        assert sorted(shown) == sorted(lost) and alice.locator("#more").is_hidden()
        assert "Anonymous" in alice.inner_text("#finished-rows")  # Bob never chose a name
        assert errors == []


def _sign_up_in_the_page(page: Any, base_url: str, name: str) -> None:
    """Sign up through the header's link and the account page's form."""
    page.goto(base_url + "/")
    page.wait_for_selector("html[data-me='nobody'] #me-signup")
    page.click("#me-signup")
    page.wait_for_selector("#signup-box:not([hidden])")
    page.fill("#signup-name", name)
    page.fill("#signup-password", "correct horse")
    page.click("#signup-button")
    page.wait_for_selector(f"html[data-me='{name}']")


def _type_moves_until(page: Any, base_url: str, game_id: str, count: int) -> None:
    """Type the first legal move into the game's page whenever it is this page's turn,
    until the game has ``count`` moves (the page plays its seat by its player's session:
    its link has no seat token)."""
    import time

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = _call(page, base_url, f"/api/games/{game_id}")
        if view["move_number"] >= count or view["outcome"] is not None:
            return
        seat = view["seats"][0]
        if seat in view["awaiting"]:
            text = view["legal"][str(seat)]["moves"][0]["move"]
            page.fill("#typed-move", text)
            page.press("#typed-move", "Enter")
            moved = time.monotonic() + 20
            while _call(page, base_url, f"/api/games/{game_id}")["move_number"] \
                    == view["move_number"]:
                assert time.monotonic() < moved, f"{text} was not played"
                time.sleep(0.05)
        else:
            time.sleep(0.05)
    raise AssertionError(f"game {game_id} did not reach {count} moves")


def test_two_people_play_a_rated_pool_game_and_a_third_plays_the_computer(
        browser: Any, tmp_path: Path, shots: Path) -> None:
    """Three browsers: two people sign up, are paired by the 3+2 pool for a rated game,
    play it in their pages, see their ratings move as Glicko-2 says and find the game on
    both their pages; a third, anonymous, plays the computer, whose rating moves only when
    a game against it is rated."""
    from lifearena.arena.glicko2 import LICHESS, Rating, rate_game

    errors: list[str] = []
    ann, ben, guest = _page(browser, errors), _page(browser, errors), _page(browser, errors)
    # all three browsers come from 127.0.0.1: a rated game between two of them is allowed
    with live_server(tmp_path / "games.sqlite", rated_within_address=True) as base_url:
        _sign_up_in_the_page(ann, base_url, "Ann")
        _sign_up_in_the_page(ben, base_url, "Ben")
        for page in (ann, ben):
            page.goto(base_url + "/")
            page.wait_for_selector("body[data-ready='1'] #pool-presets button")
            page.select_option("#pool-game", "war_of_life")
            page.check("#pool-rated")
            page.click("#pool-presets button[data-preset='3+2']")
        for page in (ann, ben):
            page.wait_for_url("**/play/**", timeout=30_000)
        game_id = ann.url.rsplit("/", 1)[1]
        assert ben.url.rsplit("/", 1)[1] == game_id and "#t=" not in ann.url
        ann.wait_for_selector("#players .person .rating")
        assert ann.inner_text("#players .game-kind") == "rated game"
        view = _call(ann, base_url, f"/api/games/{game_id}")
        assert view["opponent"]["clock"] == {"kind": "live", "minutes": 3, "increment": 2}
        first = ann if view["seats"] == [0] else ben
        second = ben if first is ann else ann
        _type_moves_until(first, base_url, game_id, 1)
        _type_moves_until(second, base_url, game_id, 2)
        _call(second, base_url, f"/api/games/{game_id}/resign", {})
        first.wait_for_selector("#players .person .change")
        won, lost = rate_game(Rating(), Rating(), 1.0, LICHESS)
        winner = "Ann" if first is ann else "Ben"
        for page, rating in ((first, won), (second, lost)):
            mine = _call(page, base_url, "/api/me")["ratings"]["war_of_life"]
            assert mine["rating"] == round(rating.rating), (mine, rating)
        first.screenshot(path=str(shots / "pool-game-over.png"), full_page=True)
        for page, name in ((ann, "Ann"), (ben, "Ben")):
            page.goto(base_url + f"/@/{name}")
            page.wait_for_selector(f"body[data-ready='1'] #finished-rows tr[data-id='{game_id}']")
            row = page.inner_text(f"#finished-rows tr[data-id='{game_id}']")
            assert ("won" in row) is (name == winner), row
            assert page.locator("#chart").get_attribute("data-points") == "1"
        # the third: anonymous, against the computer (casual), then a rated game of Ann's
        before = _call(guest, base_url, "/api/computer")["games"]["war_of_life"]["easy"]
        guest.goto(base_url + "/")
        guest.wait_for_selector("body[data-ready='1'] #quick-games li")
        guest.select_option("#quick-level", "easy")
        guest.click("#quick-games li[data-game='war_of_life'] button.quick-agent")
        guest.wait_for_url("**/play/**")
        casual = guest.url.split("/play/")[1].split("#")[0]
        assert _call(guest, base_url, "/api/me")["player"]["kind"] == "anonymous"
        _type_moves_until(guest, base_url, casual, 2)
        _call(guest, base_url, f"/api/games/{casual}/resign", {})
        after_casual = _call(guest, base_url, "/api/computer")["games"]["war_of_life"]["easy"]
        assert after_casual == before
        rated = _call(ann, base_url, "/api/games", {"game": "war_of_life", "opponent": "agent",
                                                    "level": "easy", "rated": True})["id"]
        ann.goto(base_url + f"/play/{rated}")
        ann.wait_for_selector("#players .person .rating")
        _type_moves_until(ann, base_url, rated, 2)
        _call(ann, base_url, f"/api/games/{rated}/resign", {})
        after = _call(guest, base_url, "/api/computer")["games"]["war_of_life"]["easy"]
        assert after["rating"] > before["rating"] and after["games"] == before["games"] + 1
        assert errors == []
