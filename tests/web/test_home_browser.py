"""The home page in a real browser: the games being played and lately finished (with ages
as people say them, and still there after a restart), the lab's live list read the same way,
the page of an unknown address, and the layout on a phone. Screenshots go to
``$LIFEARENA_SCREENSHOTS`` when set."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from . import test_browser
from .conftest import QUICK_WAR, live_server
from .test_browser import _page

browser = test_browser.browser
shots = test_browser.shots
"""The browser tests' fixtures: one browser per module, the screenshots' folder."""

pytestmark = pytest.mark.timeout(120)

SIZES = ((1280, 800), (390, 844))
"""A desktop window and a phone (an iPhone 12 to 14's CSS pixels)."""


def _post(page: Any, base_url: str, path: str, body: dict, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Seat-Token"] = token
    response = page.request.post(base_url + path, data=body, headers=headers)
    assert response.ok, response.text()
    return response.json()


def test_ages_read_as_people_say_them(browser: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    with live_server(tmp_path / "games.sqlite") as base_url:
        page.goto(base_url + "/")
        said = page.evaluate("""async () => {
            const { ago } = await import('/static/ago.js');
            return [-5, 0, 59, 60, 119, 1045, 3599, 3600, 3 * 3600 + 5, 86399, 86400,
                    2 * 86400 + 7, 40 * 86400, NaN, Infinity, '12'].map(ago); }""")
    assert said == ["just now", "just now", "just now", "1 min ago", "1 min ago", "17 min ago",
                    "59 min ago", "1 h ago", "3 h ago", "23 h ago", "1 day ago", "2 days ago",
                    "40 days ago", "", "", ""]
    assert errors == []


def test_the_home_page_lists_games_by_age_and_finished_ones_survive_a_restart(
        browser: Any, tmp_path: Path, shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    db = tmp_path / "games.sqlite"
    with live_server(db) as base_url:
        played = _post(page, base_url, "/api/games", {
            "game": "war_of_life", "opponent": "hotseat",
            "params": {"start": "prolog", "position": QUICK_WAR}})
        for ply, text in enumerate(["[2,2,1,1]", "[6,6,5,5]"]):
            _post(page, base_url, f"/api/games/{played['id']}/moves",
                  {"move": text, "ply": ply, "seat": ply}, played["token"])
        waiting = _post(page, base_url, "/api/games", {"game": "losat", "opponent": "hotseat"})
        page.goto(base_url + "/")
        page.wait_for_selector(f"#finished-games li[data-id='{played['id']}']")
    # as if the last move of the game in progress was 545 s ago (a game left alone for 10
    # minutes leaves the list)
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET updated = updated - 545 WHERE id = ?", (waiting["id"],))
    with live_server(db) as base_url:  # a new server on the same file
        page.goto(base_url + "/")
        page.wait_for_selector("body[data-listed='1']")
        finished = page.locator(f"#finished-games li[data-id='{played['id']}']")
        assert finished.locator(".head a").inner_text() == "War of Life"
        about = finished.locator(".about").inner_text()
        assert about.startswith("Red wins") and "2 moves" in about, about
        assert finished.locator(".age").inner_text() == "just now"
        assert finished.locator("a", has_text="replay").get_attribute("href") == (
            f"/lab/replay#game={played['id']}")
        live = page.locator(f"#live-games li[data-id='{waiting['id']}']")
        assert live.locator(".age").inner_text() == "9 min ago"
        assert live.locator(".about").inner_text() == "at one screen · 0 moves"
        assert page.is_hidden("#no-finished") and page.is_hidden("#no-live")
        page.screenshot(path=str(shots / "home-after-restart.png"), full_page=True)
        # a listed game opens its page
        live.locator(".head a").click()
        page.wait_for_selector("svg.board [data-cell]")
        assert page.url == f"{base_url}/play/{waiting['id']}"
    assert errors == []


def test_the_labs_live_list_reads_the_store_and_words_ages_alike(
        browser: Any, tmp_path: Path, shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    db = tmp_path / "games.sqlite"
    with live_server(db) as base_url:
        played = _post(page, base_url, "/api/games", {
            "game": "war_of_life", "opponent": "hotseat",
            "params": {"start": "prolog", "position": QUICK_WAR}})
        for ply, text in enumerate(["[2,2,1,1]", "[6,6,5,5]"]):
            _post(page, base_url, f"/api/games/{played['id']}/moves",
                  {"move": text, "ply": ply, "seat": ply}, played["token"])
        waiting = _post(page, base_url, "/api/games", {"game": "losat", "opponent": "hotseat"})
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET updated = updated - 545 WHERE id = ?", (waiting["id"],))
    with live_server(db) as base_url:  # a new server, which has loaded no game
        page.goto(base_url + "/lab/live")
        page.wait_for_selector(f"#list tr[data-id='{waiting['id']}']")
        cells = page.inner_text(f"#list tr[data-id='{waiting['id']}']").split("\t")
        assert cells[:5] == ["Losat", "at one screen", "0", "0", "9 min ago"], cells
        cells = page.inner_text(f"#finished tr[data-id='{played['id']}']").split("\t")
        assert cells[0] == "War of Life" and cells[2] == "2", cells
        assert cells[3].startswith("Red wins — ") and cells[4] == "just now", cells
        page.screenshot(path=str(shots / "lab-live.png"), full_page=True)
    assert errors == []


def _header_lines(page: Any) -> dict[str, int]:
    """How many lines each part of the page's header takes."""
    return dict(page.evaluate("""() => [...document.querySelector('header.top').children].map(
        e => [e.className || e.tagName, Math.round(e.getBoundingClientRect().height /
              parseFloat(getComputedStyle(e).lineHeight))])"""))


def test_the_home_and_game_pages_fit_a_phone(browser: Any, tmp_path: Path,
                                             shots: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    with live_server(tmp_path / "games.sqlite") as base_url:
        created = _post(page, base_url, "/api/games", {"game": "war_of_life",
                                                       "opponent": "hotseat"})
        program = _post(page, base_url, "/api/games", {
            "game": "life_for_two", "params": {"rules": "classic"}, "opponent": "hotseat"})
        wrong = []
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            for name, address, drawn in (
                    ("home", "/", "body[data-listed='1'] .game-card"),
                    ("game", created["links"]["you"], "svg.board [data-cell]"),
                    ("program", program["links"]["you"], "#terminal:not([hidden])"),
                    ("missing", "/game/nosuchgame1", "#back")):
                page.goto(base_url + address)
                page.wait_for_selector(drawn)
                wide = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
                if wide[0] > wide[1]:
                    wrong.append(f"{name} at {width}: scrolls sideways ({wide[0]} > {wide[1]})")
                # the header's parts each on a line or two, not squeezed into narrow columns
                for part, lines in _header_lines(page).items():
                    if lines > (1 if width > 1000 else 2):
                        wrong.append(f"{name} at {width}: the header's {part} takes {lines} "
                                     "lines")
                page.screenshot(path=str(shots / f"{name}-{width}x{height}.png"),
                                full_page=True)
            # the custom game's fields are not squeezed beside their labels
            page.goto(base_url + "/")
            page.wait_for_selector(".game-card")
            start_field = page.locator("#param-start").bounding_box()
            if start_field["width"] < min(300, width - 100):
                wrong.append(f"home at {width}: the start field is {start_field['width']:.0f} "
                             "px wide")
    assert not wrong, wrong
    # the unknown address's 404 is the one error the browser logs
    assert errors == ["Failed to load resource: the server responded with a status of 404 "
                      "(Not Found)"] * len(SIZES)


def test_an_unknown_game_address_shows_a_page_that_leads_home(browser: Any,
                                                              tmp_path: Path) -> None:
    errors: list[str] = []
    page = _page(browser, errors)
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text)
            if "Content Security Policy" in m.text else None)
    with live_server(tmp_path / "games.sqlite") as base_url:
        for address, heading in (("/game/nosuchgame1", "No such game: nosuchgame1"),
                                 ("/play/nosuchgame1", "No such game: nosuchgame1"),
                                 ("/lab/nothing", "No such lab page: /lab/nothing")):
            response = page.goto(base_url + address)
            assert response.status == 404
            assert page.inner_text("h2") == heading
            assert page.title().endswith("— lifearena")
            # the stylesheet applied (the page is not bare HTML)
            assert page.evaluate("getComputedStyle(document.body).backgroundColor") == (
                "rgb(245, 243, 238)")
        page.goto(base_url + "/play/nosuchgame1")
        page.click("#back")
        page.wait_for_selector(".game-card")
        assert page.url == base_url + "/"
    assert violations == []
    assert set(errors) == {"Failed to load resource: the server responded with a status of "
                           "404 (Not Found)"}
