"""The puzzles' pages in a real browser, on a desktop window and a phone: a puzzle solved
move by move (the reply played on the board, the rating's change shown), one failed (the
winning move and the solution shown) then retried (judged, unrated), the list of games, the
header's link, and the daily puzzle's card on the home page. Nothing may scroll sideways on
the phone. Screenshots go to ``$LIFEARENA_SCREENSHOTS`` when set."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from puzzle_fixtures import write_folder

from . import test_browser
from .conftest import live_server

browser = test_browser.browser
shots = test_browser.shots
"""The browser tests' fixtures: one browser per module, the screenshots' folder."""

pytestmark = pytest.mark.timeout(120)

SIZES = ((1280, 800), (390, 844))
"""A desktop window and a phone."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("puzzles")
    write_folder(folder / "data")
    with live_server(folder / "games.sqlite", puzzles_dir=folder / "data") as url:
        yield url


def _page(browser: Any, size: tuple[int, int], errors: list[str]) -> Any:
    """A page of a new browser context (a new player) at ``size``."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(15_000)
    return page


def _square(page: Any, x: int, y: int) -> None:
    """Click the queen's square ``x,y`` (the board draws x to the right, y downward) once
    the board takes a move (after the reply to the last one was played on it)."""
    page.wait_for_selector('svg.board[data-ready="yes"]')
    page.locator(f'svg.board [data-r="{y}"][data-c="{x}"]').click()


def _banner(page: Any, text: str) -> None:
    page.wait_for_function("(text) => document.getElementById('banner').textContent"
                           ".includes(text)", arg=text)


def _fits(page: Any, width: int) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    box = page.locator("svg.board").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_a_puzzle_solved_and_one_failed_then_retried(browser: Any, base_url: str,
                                                     shots: Path, size: tuple[int, int]
                                                     ) -> None:
    errors: list[str] = []
    page = _page(browser, size, errors)
    page.goto(base_url + "/puzzles/blocking_queen?id=bq-4-6")
    _banner(page, "to move — find the win")
    assert page.locator("#source").get_attribute("href") == "/analysis?puzzle=bq-4-6"
    assert page.is_hidden("#source"), "the game it came from goes on past the puzzle"
    _fits(page, size[0])
    page.screenshot(path=str(shots / f"puzzle_start_{size[0]}.png"))
    _square(page, 3, 5)
    _banner(page, "Right!")
    page.wait_for_selector('#message:has-text("the reply: 3,1")')
    page.wait_for_selector('svg.board[data-ready="yes"]')
    page.fill("#typed-move", "2,1")  # typed, as the keyboard plays
    page.press("#typed-move", "Enter")
    _banner(page, "Right!")
    page.wait_for_function("() => document.getElementById('message').textContent"
                           ".includes('You played 2,1; the reply: 1,0')")
    _square(page, 0, 0)
    _banner(page, "Solved!")
    change = page.locator("#rating-change").inner_text()
    assert change.startswith("Your puzzle rating:") and "(+" in change
    assert page.locator("#theme").inner_text() == "Theme: wythoff in 3"
    _fits(page, size[0])
    page.screenshot(path=str(shots / f"puzzle_solved_{size[0]}.png"))
    if size[0] > 400:  # the game it came from, on the analysis board at the puzzle's position
        page.click("#source")
        page.wait_for_selector("svg.graph .graph-point", state="attached", timeout=60_000)
        page.go_back()

    page.goto(base_url + "/puzzles/blocking_queen?id=bq-2-3")
    _banner(page, "find the win")
    _square(page, 2, 2)
    _banner(page, "Wrong")
    assert page.is_hidden("#typed")
    assert page.locator("#winning").inner_text() == "The winning moves were 2,1, 1,2."
    assert "(\u2212" in page.locator("#rating-change").inner_text()
    page.click("#step-on")
    assert page.locator("#step").inner_text() == "Solution 1/3: 2,1"
    _fits(page, size[0])
    page.screenshot(path=str(shots / f"puzzle_failed_{size[0]}.png"))
    page.click("#retry")
    _banner(page, "Retry: ")
    _square(page, 1, 2)
    _banner(page, "Right!")
    page.wait_for_selector('#message:has-text("the reply")')
    _square(page, 0, 0)
    _banner(page, "Solved!")
    assert page.locator("#rating-change").inner_text() == (
        "Not rated: only your first try of a puzzle is rated.")
    page.click("#next")
    page.wait_for_function("() => !document.getElementById('banner').textContent"
                           ".includes('Solved')")
    assert errors == []


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_the_daily_puzzle_on_the_home_page_and_the_list(browser: Any, base_url: str,
                                                        shots: Path, size: tuple[int, int]
                                                        ) -> None:
    errors: list[str] = []
    page = _page(browser, size, errors)
    page.goto(base_url + "/")
    page.wait_for_selector("#daily-puzzle:not([hidden])")
    assert "find the win" in page.locator("#daily-puzzle-text").inner_text()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
    page.locator("#daily-puzzle").screenshot(path=str(shots / f"home_daily_{size[0]}.png"))
    page.click("#daily-puzzle-link")
    page.wait_for_url("**/puzzles/daily")
    _banner(page, "find the win")
    assert page.locator("#daily-date").inner_text().startswith("The daily puzzle of ")
    _fits(page, size[0])
    page.click("#me-puzzles")
    page.wait_for_selector(".puzzle-game[data-game=blocking_queen]")
    assert "4 puzzles" in page.locator(".puzzle-game").inner_text()
    assert page.locator("#my-rating").inner_text().startswith("Your puzzle rating: 1500?")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
    page.screenshot(path=str(shots / f"puzzles_list_{size[0]}.png"))
    assert errors == []
