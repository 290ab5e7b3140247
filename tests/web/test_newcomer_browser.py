"""What a newcomer meets on the site, in a real browser on a desktop (1280x800) and a phone
(390x844, taps): quick games that start afresh (the drawn seed shown) and a friend's game with
a clock; Losat's points lit before any click and each change saying who scores by it; the
queen game's board that stays put between its phases and a tap that asks before it moves;
earlier positions with their own births, deaths and counts; the typed-move help gone once a
game is over; Life for Two's sides named by their colours and a pick drawn in one's own.

Every wait is a condition with a deadline (playwright's waits)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import pytest

from lifearena.core import Record
from lifearena.games import losat
from lifearena.games.losat import format_position, parse_point

from . import test_browser
from .conftest import live_server

browser = test_browser.browser
"""One browser per module (skips with a reason when none is found)."""

pytestmark = pytest.mark.timeout(120)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
"""A desktop window, and a phone (an iPhone 12 to 14's CSS pixels) that taps."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("newcomer") / "games.sqlite") as url:
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


def _press(page: Any, size: str, selector: str) -> None:
    """A click on the desktop, a finger's tap on the phone."""
    if size == "phone":
        page.tap(selector)
    else:
        page.click(selector)


def _api(page: Any, base_url: str, path: str, body: dict | None = None,
         token: str | None = None) -> dict:
    headers = {"X-Seat-Token": token} if token else {}
    if body is None:
        response = page.request.get(base_url + path, headers=headers)
    else:
        response = page.request.post(base_url + path, data=body,
                                     headers={**headers, "Origin": base_url})
    assert response.ok, response.text()
    return dict(response.json())


def _open(page: Any, base_url: str, created: dict) -> tuple[str, str]:
    """Go to a made game's page as its creator; answer its id and token."""
    page.goto(base_url + created["links"]["you"])
    page.wait_for_selector("svg.board [data-cell]")
    return created["id"], created["token"]


def _status(page: Any) -> str:
    return str(page.inner_text("#players [data-status]"))


# -- 7: quick games start afresh; 10: a friend's game may have a clock --------------------------

def test_each_quick_game_starts_afresh_shows_its_seed_and_a_friend_gets_a_clock(
        page: Any, base_url: str, size: str) -> None:
    seeds = []
    for _ in range(2):
        page.goto(base_url + "/")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#quick-clock", "live:5:3")
        page.click("[aria-label='Play a friend: War of Life']")
        page.wait_for_selector("svg.board [data-cell]")
        found = re.search(r"Seed (\d+)", _status(page))
        assert found, _status(page)
        seeds.append(int(found.group(1)))
        page.wait_for_selector("#controls .clock")
        game = page.url.split("/play/")[1].split("#")[0]
        assert _api(page, base_url, f"/api/games/{game}")["opponent"]["clock"] == {
            "kind": "live", "minutes": 5, "increment": 3}
    assert seeds[0] != seeds[1]
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]


# -- 8: Losat says who scores, lights its points, names its goal lines ---------------------------

def _self_capture_record() -> str:
    """Losat, Black to move, White at 4 captures: Black's own D7 stands among three white
    stones, so capturing it is White's fifth capture (and White's win)."""
    state = losat.new_game(width=9, length=13)
    board = state.board.copy()  # the state's board is read-only
    for name, value in (("C8", 2), ("D8", 2), ("E8", 2), ("D7", 1)):
        point = parse_point(name, 9, 13)
        board[point // 9, point % 9] = value
    return Record("losat", dict(state.params), format_position(board, 0, (0, 4), 0),
                  ["me", "me too"], []).to_text()


def test_losat_lights_its_points_and_says_who_scores_before_the_click(
        page: Any, base_url: str, size: str) -> None:
    created = _api(page, base_url, "/api/records", {"record": _self_capture_record()})
    game, token = _open(page, base_url, created)
    legal = _api(page, base_url, f"/api/games/{game}", token=unquote(token))["legal"]["0"]
    points = {"{},{}".format(*m["cells"][0]) for m in legal["moves"] if m["cells"]}
    # lit before any click
    page.wait_for_selector("rect.cell.target")
    lit = {page.get_attribute(f"rect.cell.target >> nth={i}", "data-cell")
           for i in range(page.locator("rect.cell.target").count())}
    assert lit == points
    assert "Black wins on row 11" in _status(page) and "White wins on row 3" in _status(page)
    d7 = "[data-cell='6,3']"
    _press(page, size, d7)
    page.wait_for_selector("#choices button:has-text('Capture at D7')")
    capture = page.locator("#choices button:has-text('Capture at D7')")
    assert capture.inner_text() == "Capture at D7 — White scores, 5th capture: White wins"
    assert page.locator("#moves .move").count() == 0  # a click or a tap never plays at once
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]


# -- 10: the queen's board stays put; a tap asks before it moves --------------------------------

def _board_top(page: Any) -> float:
    return float(page.evaluate("document.querySelector('#board').getBoundingClientRect().top"))


def test_the_queen_board_stays_put_and_a_tap_asks_before_the_queen_moves(
        page: Any, base_url: str, size: str) -> None:
    created = _api(page, base_url, "/api/games", {
        "game": "blocking_queen", "opponent": "agent", "level": "random", "side": 0,
        "params": {"k": 2, "start": "square", "x": 20, "y": 20}})
    game, token = _open(page, base_url, created)
    page.wait_for_function("() => /move the queen/.test(document.querySelector('#banner')"
                           ".textContent)")
    top = _board_top(page)
    legal = _api(page, base_url, f"/api/games/{game}", token=unquote(token))["legal"]["0"]
    # one step north-west: the opponent can still move from there, so blocks are asked
    nearest = max(legal["interaction"]["parts"], key=lambda part: sum(part["cell"]))
    square = "[data-cell='{},{}']".format(*nearest["cell"])
    _press(page, size, square)
    if size == "phone":  # the tap selected the square and asks; a second tap plays it
        page.wait_for_selector(f"rect.cell.selected{square}")
        assert "Tap it again" in page.inner_text("#message")
        assert page.locator("#moves .move").count() == 0
        _press(page, size, square)
    page.wait_for_function("() => /block a shaded square/.test(document.querySelector('#banner')"
                           ".textContent)")
    assert page.locator("#moves .move").count() == 1
    assert abs(_board_top(page) - top) < 1, (top, _board_top(page))


# -- 10: earlier positions; the typed help after the end -----------------------------------------

WAR = "[[[2,2],[2,3],[3,2],[5,5]],[[6,6],[6,7],[7,6],[4,8]]]"
"""A War of Life position whose first moves make births and deaths."""


def test_an_earlier_position_shows_its_births_deaths_and_counts_and_the_help_goes_at_the_end(
        page: Any, base_url: str, size: str) -> None:
    created = _api(page, base_url, "/api/games", {
        "game": "war_of_life", "opponent": "hotseat",
        "params": {"start": "prolog", "position": WAR}})
    game, token = _open(page, base_url, created)
    for seat in (0, 1):
        shown = _api(page, base_url, f"/api/games/{game}", token=unquote(token))
        text = shown["legal"][str(seat)]["moves"][0]["move"]
        _api(page, base_url, f"/api/games/{game}/moves",
             {"move": text, "ply": shown["ply"], "seat": seat}, token=unquote(token))
    page.wait_for_function("() => document.querySelectorAll('#moves .move').length === 2")
    after_one = _api(page, base_url, f"/api/games/{game}/position?upto=1")
    assert after_one["births"] or after_one["deaths"]
    _press(page, size, "#moves .move[data-ply='1']")
    page.wait_for_function("() => /after move 1/.test(document.querySelector('#banner')"
                           ".textContent)")
    rings = len(after_one["births"]) + len(after_one["deaths"])
    page.wait_for_function("() => document.querySelectorAll('svg.board circle.born, "
                           f"svg.board circle.died').length === {rings}")
    assert page.is_visible("#legend")
    counts = [page.inner_text(f".player[data-seat='{s}'] .count") for s in (0, 1)]
    assert counts == [f"{n} piece{'' if n == 1 else 's'}" for n in after_one["counts"]]
    assert after_one["counts"] != _api(page, base_url, f"/api/games/{game}")["display"]["counts"]
    # at the end of the game the typed-move help goes with the typed-move field
    page.keyboard.press("End")
    if not _api(page, base_url, f"/api/games/{game}")["outcome"]:
        _api(page, base_url, f"/api/games/{game}/resign", {}, token=unquote(token))
    page.wait_for_selector("#banner.result")
    assert not page.is_visible("#move-help") and not page.is_visible("#typed")


# -- 10: Life for Two's sides and picks ---------------------------------------------------------

def test_life_for_two_names_its_sides_by_colour_and_draws_a_pick_in_ones_own(
        page: Any, base_url: str, size: str) -> None:
    created = _api(page, base_url, "/api/games", {"game": "life_for_two", "opponent": "online",
                                                   "side": 1})
    _open(page, base_url, created)
    players = page.inner_text("#players")
    assert "Teal" in players and "Orange (you)" in players and "(*)" not in players
    orange = _api(page, base_url, f"/api/games/{created['id']}")["look"]["sides"][1]["colour"]
    # the invitation waits: a spectator-less page may still pick once the friend joins
    claimed = _api(page, base_url, f"/api/games/{created['id']}/claim",
                   {"invitation": created["links"]["invite"].split("#i=")[1]})
    assert claimed["seat"] == 0
    page.wait_for_function("() => /You play/.test(document.querySelector('#banner')"
                           ".textContent)")
    _press(page, size, "[data-cell='2,2']")
    pick = page.locator("svg.board circle.pick-piece")
    pick.wait_for()
    assert pick.get_attribute("fill") == orange
