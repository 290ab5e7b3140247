"""The game page's learning aids in a real browser, on a desktop (1280x800) and a phone
(390x844): the rules card with its example picture, the preview of a composed War of Life
move (its births and deaths marked before the move is played), the two generations of the
last turn after the computer's reply, and the analysis board's link once the game is over.

Every wait is a condition with a deadline (playwright's waits)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import test_browser
from .conftest import live_server

browser = test_browser.browser
"""One browser per module (skips with a reason when none is found)."""
shots = test_browser.shots

pytestmark = pytest.mark.timeout(120)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("learning") / "games.sqlite") as url:
        yield url


@pytest.fixture(params=list(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def page(browser: Any, size: str) -> Iterator[Any]:
    """A page of a fresh browser context at ``size`` (the phone's with touch); its script
    errors fail the test."""
    context = browser.new_context(viewport=SIZES[size], has_touch=size == "phone")
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    opened.set_default_timeout(15_000)
    yield opened
    context.close()
    assert errors == []


def _new_game(page: Any, base_url: str) -> tuple[str, str]:
    """A War of Life game against the easy computer, this page to play Blue (first).
    Answers the game's id and seat token."""
    response = page.request.post(base_url + "/api/games", headers={"Origin": base_url}, data={
        "game": "war_of_life", "opponent": "agent", "level": "easy", "side": 0})
    assert response.ok, response.text()
    created = response.json()
    return created["id"], created["token"]


def _open(page: Any, base_url: str, game: str, token: str) -> None:
    page.goto(f"{base_url}/play/{game}#t={token}")
    page.wait_for_selector("svg.board [data-cell]")


def _against_the_computer(page: Any, base_url: str) -> tuple[str, str]:
    """A new game against the computer (see _new_game), its page opened."""
    game, token = _new_game(page, base_url)
    _open(page, base_url, game, token)
    return game, token


def _view(page: Any, base_url: str, game: str, token: str) -> dict:
    response = page.request.get(f"{base_url}/api/games/{game}", headers={"X-Seat-Token": token})
    assert response.ok, response.text()
    return dict(response.json())


def _fits(page: Any, size: str) -> None:
    """Nothing is wider than the window."""
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]


def test_the_rules_card_shows_the_rules_and_an_example_and_stays_closed_once_closed(
        page: Any, base_url: str, size: str, shots: Path) -> None:
    game, token = _new_game(page, base_url)
    rules = page.request.get(f"{base_url}/api/games/{game}/rules").json()
    _open(page, base_url, game, token)
    card = page.wait_for_selector("#rules:not([hidden])")
    assert f"How to play {rules['name']}" in card.inner_text()
    assert page.locator("#rules .rules-section h3").all_inner_texts() == [
        s["title"] for s in rules["sections"]]
    # the example is inert: no cell of it is the board's to a click or a query
    assert page.locator("#rules svg.rules-picture rect.example-cell").count() > 0
    assert page.locator("#rules [data-cell], #rules .cell").count() == 0
    births, deaths = rules["picture"].get("births") or [], rules["picture"].get("deaths") or []
    assert page.locator("#rules svg.rules-picture circle.example-born").count() == len(births)
    assert page.locator("#rules svg.rules-picture circle.example-died").count() == len(deaths)
    assert page.get_attribute("#rules-lesson", "href") == rules["lesson"]
    assert page.inner_text("#rules-lesson") == "Try the lesson"
    _fits(page, size)
    page.screenshot(path=str(shots / f"rules-card-{size}.png"), full_page=True)
    page.click("#rules-close")
    page.wait_for_selector("#rules", state="hidden")
    page.reload()
    page.wait_for_selector("svg.board [data-cell]")
    page.wait_for_selector("#rules-button:not([hidden])")
    assert page.is_hidden("#rules"), "remembered closed"
    page.click("#rules-button")
    page.wait_for_selector("#rules:not([hidden])")


def test_a_composed_war_of_life_move_is_previewed_before_it_is_played(
        page: Any, base_url: str, size: str, shots: Path) -> None:
    game, token = _new_game(page, base_url)
    asked: list[dict] = []
    page.on("request", lambda r: asked.append({"body": r.post_data_json,
                                               "token": r.headers.get("x-seat-token")})
            if r.url.endswith("/preview") else None)
    _open(page, base_url, game, token)
    legal = _view(page, base_url, game, token)["legal"]["0"]
    move = legal["moves"][0]
    piece, target = ("[data-cell='{},{}']".format(*cell) for cell in move["cells"])
    page.click(piece) if size == "desktop" else page.tap(piece)
    page.wait_for_selector("rect.cell.target")
    if size == "desktop":
        page.hover(target)  # the pointer on a target previews the move a click there plays
    else:
        # on a phone a tap on a target plays at once: the keyboard's cursor previews it
        page.focus("svg.board")
        r0, c0 = move["cells"][0]
        r1, c1 = move["cells"][1]
        for _ in range(abs(r1 - r0)):
            page.keyboard.press("ArrowDown" if r1 > r0 else "ArrowUp")
        for _ in range(abs(c1 - c0)):
            page.keyboard.press("ArrowRight" if c1 > c0 else "ArrowLeft")
    line = page.wait_for_selector("#preview-line:not([hidden])")
    found = re.fullmatch(r"preview: \+(\d+) born, \u2212(\d+) die", line.inner_text())
    assert found, line.inner_text()
    assert page.locator("svg.board circle.born").count() == int(found.group(1))
    assert page.locator("svg.board circle.died").count() == int(found.group(2))
    assert page.is_visible("#legend")
    assert asked and asked[0] == {"body": {"move": move["move"]}, "token": token}
    assert _view(page, base_url, game, token)["ply"] == 0, "a preview plays nothing"
    _fits(page, size)
    page.screenshot(path=str(shots / f"preview-{size}.png"), full_page=True)
    page.keyboard.press("Escape") if size == "phone" else page.mouse.move(0, 0)
    page.wait_for_selector("#preview-line", state="hidden")


def test_after_the_computers_reply_both_generations_can_be_seen_then_the_analysis_link(
        page: Any, base_url: str, size: str, shots: Path) -> None:
    game, token = _against_the_computer(page, base_url)
    move = _view(page, base_url, game, token)["legal"]["0"]["moves"][0]
    for cell in move["cells"]:
        selector = "[data-cell='{},{}']".format(*cell)
        page.click(selector) if size == "desktop" else page.tap(selector)
    page.wait_for_selector("#gen-mine")
    view = _view(page, base_url, game, token)
    assert view["ply"] == 2, "the computer replied"
    mine = page.request.get(f"{base_url}/api/games/{game}/position?upto=1").json()
    page.click("#gen-mine")
    page.wait_for_selector("#gen-mine[aria-pressed=true]")
    page.wait_for_function(
        "() => document.getElementById('banner').textContent.includes('after move 1')")
    # the position after this page's move, with the births and deaths its generation made
    assert page.locator("svg.board circle.born").count() == len(mine["births"])
    assert page.locator("svg.board circle.died").count() == len(mine["deaths"])
    _fits(page, size)
    page.screenshot(path=str(shots / f"your-move-{size}.png"), full_page=True)
    page.click("#gen-reply")
    page.wait_for_selector("#gen-reply[aria-pressed=true]")
    assert page.locator("svg.board circle.born").count() == len(view["display"]["births"])
    assert page.locator("svg.board circle.died").count() == len(view["display"]["deaths"])
    assert page.is_hidden("#analysis-link")
    resigned = page.request.post(f"{base_url}/api/games/{game}/resign", data={},
                                 headers={"X-Seat-Token": token, "Origin": base_url})
    assert resigned.ok, resigned.text()
    link = page.wait_for_selector("#analysis-link:not([hidden])")
    assert link.get_attribute("href") == f"/analysis/{game}"
    assert link.inner_text() == "Analysis board"
    _fits(page, size)
    page.screenshot(path=str(shots / f"after-{size}.png"), full_page=True)
