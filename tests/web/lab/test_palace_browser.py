"""The palace explorer in a real browser: tiles drawn, values under the mouse, play from a
square against the perfect player."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lifearena.games.blocking_queen.palace import palace_numbers

from .conftest import until

pytestmark = pytest.mark.timeout(300)


def _expose(page: Any) -> None:
    """Name the page's module ``palace`` for the test's expressions (the page itself
    publishes no globals: its module exports the view, valueAt and the tiles)."""
    page.evaluate("import('/static/lab/palace.js').then((m) => { window.palace = m; })")


def _settle(page: Any) -> None:
    until(lambda: page.get_attribute("body", "data-loading") == "0", 90, "the tiles")


def test_the_map_shows_palace_numbers_and_a_click_opens_the_queen_game(
        page: Any, base_url: str, shots: Path) -> None:
    page.goto(f"{base_url}/lab/palace#k=2&x=0&y=0&level=-4")
    page.wait_for_selector("body[data-ready='1']")
    _expose(page)
    _settle(page)
    want = palace_numbers(2, 40, 40)
    for x, y in [(0, 0), (1, 0), (2, 2), (3, 5), (17, 23), (39, 1)]:
        assert page.evaluate(f"palace.valueAt({x}, {y}).n") == want[y, x], (x, y)
    box = page.locator("#map").bounding_box()
    scale = box["width"] / 768   # 16 px a square at level -4
    at = (box["x"] + (5 + 0.5) * 16 * scale, box["y"] + (3 + 0.5) * 16 * scale)
    page.mouse.move(*at)
    hover = page.inner_text("#hover")
    assert hover.startswith(f"(5, 3): n = {want[3, 5]}")
    page.screenshot(path=str(shots / "palace-near.png"))
    page.mouse.click(*at)
    page.wait_for_url("**/play/**")
    page.wait_for_selector("svg.board")
    page.screenshot(path=str(shots / "palace-game.png"))


def test_zoomed_out_and_a_refused_far_tile(page: Any, base_url: str, shots: Path) -> None:
    page.goto(f"{base_url}/lab/palace#k=3&x=0&y=0&level=3")
    page.wait_for_selector("body[data-ready='1']")
    _expose(page)
    _settle(page)
    page.screenshot(path=str(shots / "palace-far.png"))
    page.fill("#x", "200000")
    page.fill("#y", "200000")
    page.click("#go")
    until(lambda: "expected at most" in page.inner_text("#error"), 90, "the limit named")
    assert "4,294,967,296" in page.inner_text("#error")


def _hover(page: Any, x: int, y: int) -> tuple[float, float]:
    """Point the mouse at square (x, y) of a level -4 view (16 px a square); its place."""
    view = page.evaluate("[palace.view.ox, palace.view.oy]")
    box = page.locator("#map").bounding_box()
    scale = box["width"] / 768
    at = (box["x"] + (x - view[0] + 0.5) * 16 * scale,
          box["y"] + (y - view[1] + 0.5) * 16 * scale)
    page.mouse.move(*at)
    return at


def test_a_click_plays_where_the_game_can_and_says_why_not_elsewhere(
        page: Any, base_url: str, shots: Path) -> None:
    page.goto(f"{base_url}/lab/palace#k=2&x=0&y=0&level=-4")
    page.wait_for_selector("body[data-ready='1']")
    _expose(page)
    # an edited link in the open tab moves the view (k = 10, far from the origin)
    page.evaluate("location.hash = '#k=10&x=4730&y=4070&level=-4'")
    until(lambda: page.evaluate("palace.view.k") == 10, 90, "the view to follow the link")
    _settle(page)
    at = _hover(page, 4736, 4079)
    hover = page.inner_text("#hover")
    assert hover.startswith("(4736, 4079): n = ") and "x, y ≤ 127" in hover
    assert "click to play" not in hover
    page.mouse.click(*at)
    assert "x, y ≤ 127" in page.inner_text("#error")
    assert "/lab/palace" in page.url
    # the largest k the explorer draws, near the edge of the game's board: a click plays
    page.evaluate("location.hash = '#k=64&x=96&y=100&level=-4'")
    until(lambda: page.evaluate("palace.view.k") == 64, 90, "the view to follow the link")
    _settle(page)
    at = _hover(page, 120, 127)
    assert "click to play from here" in page.inner_text("#hover")
    page.mouse.click(*at)
    page.wait_for_url("**/play/**")
    page.wait_for_selector("svg.board")
    page.screenshot(path=str(shots / "palace-game-k64.png"))


def _under_mouse(page: Any, at: tuple[float, float]) -> tuple[int, int]:
    """The square of the view now shown at the page point ``at``."""
    return tuple(page.evaluate("""([px, py]) => {
        const box = document.getElementById('map').getBoundingClientRect();
        const canvas = document.getElementById('map'), u = Math.pow(2, palace.view.level);
        return [Math.floor(palace.view.ox + (px - box.left) * canvas.width / box.width * u),
                Math.floor(palace.view.oy + (py - box.top) * canvas.height / box.height * u)];
        }""", list(at)))


def test_the_hover_line_follows_a_zoom_without_the_mouse_moving(
        page: Any, base_url: str) -> None:
    page.goto(f"{base_url}/lab/palace#k=2&x=0&y=0&level=-4")
    page.wait_for_selector("body[data-ready='1']")
    _expose(page)
    _settle(page)
    want = palace_numbers(2, 128, 128)
    # the mouse off the middle of square (5, 3), and off any square's edge at the other zooms
    box = page.locator("#map").bounding_box()
    scale = box["width"] / 768   # 16 px a square at level -4
    at = (box["x"] + 5.3 * 16 * scale, box["y"] + 3.3 * 16 * scale)
    page.mouse.move(*at)
    assert page.inner_text("#hover").startswith(f"(5, 3): n = {want[3, 5]}")
    # the wheel zooms out about the mouse, but the view stops at the origin: another square
    # is under the mouse now, and the line says which
    page.mouse.wheel(0, 120)
    until(lambda: page.evaluate("palace.view.level") == -3, 60, "the zoom")
    _settle(page)
    x, y = _under_mouse(page, at)
    assert (x, y) != (5, 3)
    until(lambda: page.inner_text("#hover").startswith(f"({x}, {y}): n = {want[y, x]}"), 60,
          f"the line to describe ({x}, {y}), not {page.inner_text('#hover')!r}")
    # a zoom from the keyboard, about the map's middle, with the mouse still where it was
    page.focus("#map")
    page.keyboard.press("-")
    until(lambda: page.evaluate("palace.view.level") == -2, 60, "the keyboard's zoom")
    _settle(page)
    before = (x, y)
    x, y = _under_mouse(page, at)
    assert (x, y) != before
    until(lambda: page.inner_text("#hover").startswith(f"({x}, {y}): n = {want[y, x]}"), 60,
          f"the line to describe ({x}, {y}), not {page.inner_text('#hover')!r}")
    # the mouse leaves the map: the line no longer describes a square
    page.mouse.move(1, 1)
    assert page.inner_text("#hover").startswith("Drag to pan")
