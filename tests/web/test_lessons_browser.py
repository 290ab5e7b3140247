"""The War of Life lesson in a real browser, on a desktop (1280x800, clicks) and a phone
(390x844, taps): reached from the header's Learn link, played through to the end by clicking
the board (one wrong try told, then tried again; one step by keyboard alone on the desktop),
Next between steps, and "Play this game" opening the home page with War of Life chosen.
Nothing may scroll sideways on the phone, and every text reads at AA contrast. Screenshots go
to ``$LIFEARENA_SCREENSHOTS`` when set, else to the test's folder.

Every wait is a condition with a deadline (playwright's waits)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import test_browser
from .conftest import live_server
from .test_accessibility_browser import _contrast

browser = test_browser.browser
"""One browser per module (skips with a reason when none is found)."""

pytestmark = pytest.mark.timeout(120)

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
RIGHT = [((4, 5), (3, 4)), ((5, 5), (4, 4)), ((1, 4), (2, 4)), ((5, 3), (4, 3)),
         ((4, 6), (5, 5))]
"""Each step's solution as the two cells clicked, ``(row, column)`` from 0: the piece, then
where it goes."""
WRONG = ((4, 5), (5, 6))
"""A legal move of step 1 that makes no birth on 4,4."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("lessons") / "games.sqlite") as url:
        yield url


@pytest.fixture(params=list(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def page(browser: Any, size: str) -> Iterator[Any]:
    """A page of a fresh context at ``size`` (the phone's with touch); script errors fail."""
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


def _move(page: Any, size: str, cells: tuple[tuple[int, int], tuple[int, int]]) -> None:
    for r, c in cells:
        _press(page, size, f"svg#board [data-r='{r}'][data-c='{c}']")


def _keyed(page: Any, cells: tuple[tuple[int, int], tuple[int, int]]) -> None:
    """The move played by keyboard alone: arrows from the board's corner, Enter on each cell."""
    page.focus("svg#board")
    at = (0, 0)
    for r, c in cells:
        for key, count in (("ArrowDown", r - at[0]), ("ArrowUp", at[0] - r),
                           ("ArrowRight", c - at[1]), ("ArrowLeft", at[1] - c)):
            for _ in range(max(0, count)):
                page.keyboard.press(key)
        page.keyboard.press("Enter")
        at = (r, c)


def _fits(page: Any) -> None:
    wide, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert wide <= inner, f"the page scrolls sideways: {wide} > {inner}"


def test_the_war_of_life_lesson_played_through_by_clicking(page: Any, base_url: str,
                                                           size: str, tmp_path: Path) -> None:
    shots = Path(os.environ.get("LIFEARENA_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.goto(base_url + "/")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator(".quick-game[data-game=war_of_life] a.learn-line").get_attribute(
        "href") == "/learn/war_of_life"
    _press(page, size, "#me-learn")
    page.wait_for_selector(".lesson-card[data-game=war_of_life]")
    assert page.locator(".lesson-card").count() == 5
    assert _contrast(page, "learn") == []
    _fits(page)
    page.screenshot(path=str(shots / f"learn-{size}.png"), full_page=True)
    _press(page, size, ".lesson-card[data-game=war_of_life] a.button")
    page.wait_for_selector("body[data-ready='1'][data-step='1'][data-phase='play']")
    assert "Step 1 of 5" in page.inner_text("#step-title")

    _move(page, size, WRONG)  # one wrong try: told so, then tried again
    page.wait_for_selector("body[data-phase='missed']")
    assert page.inner_text("#message").startswith("Not yet")
    assert _contrast(page, "a missed step") == []
    page.screenshot(path=str(shots / f"lesson-missed-{size}.png"), full_page=True)
    _press(page, size, "#lesson-retry")
    page.wait_for_selector("body[data-phase='play']")

    for number, cells in enumerate(RIGHT, start=1):
        page.wait_for_selector(f"body[data-step='{number}'][data-phase='play']")
        if number == 2:
            _press(page, size, "#lesson-hint")
            assert page.inner_text("#hint").startswith("Hint: ")
            assert _contrast(page, "a hint") == []
        if number == 2 and size == "desktop":
            _keyed(page, cells)  # the board answers the keyboard too
        else:
            _move(page, size, cells)
        page.wait_for_selector("body[data-phase='done']")
        assert "good" in str(page.get_attribute("#message", "class"))
        assert page.evaluate("(() => { const r = document.getElementById('actions')"
                             ".getBoundingClientRect(); return r.top >= 0 && "
                             "r.bottom <= innerHeight; })()"), "Next is out of sight"
        assert page.locator(f"#dots li.done >> nth={number - 1}").count() == 1
        if number == 1:
            page.wait_for_selector("svg#board circle.born")  # the generation's births marked
            assert page.is_visible("#legend")
            assert _contrast(page, "a step done") == []
            page.screenshot(path=str(shots / f"lesson-born-{size}.png"), full_page=True)
        _fits(page)
        if number < len(RIGHT):
            _press(page, size, "#lesson-next")
    assert "learnt War of Life" in page.inner_text("#closing")
    page.screenshot(path=str(shots / f"lesson-end-{size}.png"), full_page=True)
    _press(page, size, "#lesson-play")
    page.wait_for_selector("body[data-ready='1']")
    assert page.input_value("#game") == "war_of_life"
