"""The sandbox in a real browser: drawing, stepping, share links, the size limit, speed."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import numpy as np
import pytest

from lifearena.life import Rule, evolve, random_grid, read_rle
from lifearena.web.lab.sandbox import grid_from_text

from .conftest import until

pytestmark = pytest.mark.timeout(120)
GLIDER = "x = 3, y = 3, rule = B3/S23\nbob$2bo$3o!"


def _open(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    # the page publishes no globals: its module exports `sandbox`, named here for the tests
    page.evaluate("import('/static/lab/sandbox.js').then((m) => { window.sandbox = m.sandbox; })")


def _cells(page: Any) -> np.ndarray:
    state = page.evaluate("[sandbox.state.height, sandbox.state.width, sandbox.cellsText()]")
    return grid_from_text(*state)


def _until(page: Any, expression: str) -> None:
    """Wait until ``expression`` is true in the page (polled: the CSP forbids eval)."""
    until(lambda: page.evaluate(expression), 90, expression)


def _populations(page: Any, steps: int) -> list[tuple[int, int]]:
    seen = []
    for _ in range(steps):
        page.click("#step")
        seen.append((int(page.inner_text("#pop1")), int(page.inner_text("#pop2"))))
    return seen


def test_a_glider_returns_to_its_shape_after_four_generations_on_a_torus(
        page: Any, base_url: str, shots: Path) -> None:
    query = urlencode({"rule": "life", "w": 16, "h": 16, "torus": 1, "seed": 0, "rle": GLIDER})
    _open(page, f"{base_url}/lab/sandbox#{query}")
    start = _cells(page)
    assert start.sum() == 5
    for _ in range(4):
        page.click("#step")
    assert page.inner_text("#gen") == "4"
    assert np.array_equal(_cells(page), np.roll(start, (1, 1), axis=(0, 1)))
    # wrap it all the way round the torus: 64 generations later it is back where it started
    page.evaluate("sandbox.bench(60)")
    assert np.array_equal(_cells(page), start)
    page.screenshot(path=str(shots / "sandbox-glider.png"))


# above 2^53, where a JS Number would round: the page keeps seeds exact
BIG_SEED = 2**63 - 25


def test_drawing_in_both_colours_and_a_p2life_run_equal_to_the_engine(
        page: Any, base_url: str) -> None:
    _open(page, f"{base_url}/lab/sandbox#" + urlencode(
        {"rule": "p2life", "w": 20, "h": 20, "torus": 0, "seed": BIG_SEED}))
    box = page.locator("#field").bounding_box()
    unit = box["width"] / 20

    def click(x: int, y: int) -> None:
        page.mouse.click(box["x"] + (x + 0.5) * unit, box["y"] + (y + 0.5) * unit)

    for x in (8, 9, 10):
        click(x, 8)
    page.check("input[name=paint][value='2']")
    for x in (8, 9, 10):
        click(x, 10)
    drawn = _cells(page)
    assert drawn[8, 8:11].tolist() == [1, 1, 1] and drawn[10, 8:11].tolist() == [2, 2, 2]
    for _ in range(3):
        page.click("#step")
    want = evolve(drawn, Rule.named("p2life"), 3, seed=BIG_SEED, kernel="reference")
    assert page.input_value("#seed") == str(BIG_SEED)
    assert np.array_equal(_cells(page), want)


def test_a_shared_link_reproduces_the_same_population_sequence(
        page: Any, browser: Any, base_url: str, shots: Path) -> None:
    _open(page, f"{base_url}/lab/sandbox")
    page.select_option("#rule", "p2life")
    page.fill("#width", "64")
    page.fill("#height", "48")
    page.fill("#density", "0.4")
    page.fill("#seed", "7")
    page.click("#soup")
    _until(page, "sandbox.state.width === 64")
    assert np.array_equal(_cells(page), random_grid(48, 64, density=0.4, seed=7))
    page.click("#share-make")
    _until(page, "document.getElementById('share').value.includes('#')")
    link = page.input_value("#share")
    first = _populations(page, 12)
    want = evolve(random_grid(48, 64, density=0.4, seed=7), Rule.named("p2life"), 12,
                  torus=True, seed=7, kernel="reference")
    assert np.array_equal(_cells(page), want)
    page.click("#share-make")
    _until(page, "document.getElementById('share').value.includes('gen=12')")
    later = page.input_value("#share")
    page.screenshot(path=str(shots / "sandbox-p2life.png"))

    other = browser.new_page()
    try:
        _open(other, link)
        assert _populations(other, 12) == first
        _open(other, later)
        assert other.inner_text("#gen") == "12"
        assert np.array_equal(_cells(other), want)
    finally:
        other.close()


def test_bigger_grids_are_refused_with_the_limit_named(page: Any, base_url: str) -> None:
    _open(page, f"{base_url}/lab/sandbox")
    page.fill("#width", "300")
    page.click("#resize")
    assert page.inner_text("#error") == (
        "width 300 is over the sandbox's limit; expected 1 to 256 cells")
    page.click("#soup")
    assert "256" in page.inner_text("#error")
    page.fill("#width", "0")
    page.click("#resize")
    assert page.inner_text("#error") == "width 0 is too small; expected 1 to 256 cells"


def test_256_by_256_runs_at_30_generations_a_second_or_more(
        page: Any, base_url: str, shots: Path) -> None:
    _open(page, f"{base_url}/lab/sandbox#" + urlencode(
        {"rule": "p2life", "w": 256, "h": 256, "torus": 1, "seed": 1, "soup": 0.5}))
    page.evaluate("sandbox.bench(5)")
    ms = page.evaluate("sandbox.bench(60)")
    drawn = page.evaluate("""() => { const t0 = performance.now();
        for (let i = 0; i < 20; i++) { sandbox.bench(1); }
        return (performance.now() - t0) / 20; }""")
    print(f"256x256 p2life: {ms:.2f} ms per generation, {drawn:.2f} ms with drawing")
    assert drawn < 1000 / 30
    # the page's own run loop at full speed, drawing every frame: its readout, measured
    # every half second while it runs, reaches 30 generations a second (waited for)
    page.locator("#speed").fill("121")
    page.click("#run")
    until(lambda: (_rate(page) or 0) >= 30, 30, "the run loop at 30 generations a second")
    print(f"run loop: {_rate(page)} generations a second")
    page.click("#run")
    page.screenshot(path=str(shots / "sandbox-256.png"))


def test_a_link_after_changing_the_edges_mid_run_still_replays_the_screen(
        page: Any, browser: Any, base_url: str) -> None:
    _open(page, f"{base_url}/lab/sandbox#" + urlencode(
        {"rule": "immigration", "w": 32, "h": 24, "torus": 1, "seed": 3, "soup": 0.35}))
    for _ in range(5):
        page.click("#step")
    page.select_option("#torus", "0")
    for _ in range(4):
        page.click("#step")
    page.select_option("#rule", "p2life")
    page.click("#step")
    page.click("#share-make")
    _until(page, "document.getElementById('share').value.includes('gen=10')")
    link = page.input_value("#share")
    here = _cells(page)
    other = browser.new_page()
    try:
        _open(other, link)
        assert other.inner_text("#gen") == "10"
        assert np.array_equal(_cells(other), here)
        other.click("#step")
        page.click("#step")
        assert np.array_equal(_cells(other), _cells(page))
    finally:
        other.close()


def test_rle_load_and_save(page: Any, base_url: str) -> None:
    _open(page, f"{base_url}/lab/sandbox#" + urlencode({"rule": "life", "w": 10, "h": 10}))
    page.fill("#rle", "#N two colours\nx = 3, y = 2, rule = p2life\nA.B$3A!")
    page.click("#rle-load")
    _until(page, "document.getElementById('rule').value === 'p2life'")
    cells = _cells(page)
    assert cells[4, 3:6].tolist() == [1, 0, 2] and cells[5, 3:6].tolist() == [1, 1, 1]
    with page.expect_download() as download:
        page.click("#rle-save")
    saved = Path(download.value.path()).read_text()
    assert saved == page.input_value("#rle")
    pattern = read_rle(saved)
    assert pattern.rule == "p2life" and np.array_equal(pattern.cells, cells)
    page.fill("#rle", "x = 999, y = 2\nbo!")
    page.click("#rle-load")
    _until(page, "document.getElementById('error').textContent.includes('256')")


def _rate(page: Any) -> float | None:
    """The generations-per-second readout as a number (None while it shows none)."""
    text = page.inner_text("#rate")
    try:
        return float(text)
    except ValueError:
        return None


def test_the_generations_per_second_readout_measures_a_run_and_keeps_it_when_paused(
        page: Any, base_url: str) -> None:
    _open(page, f"{base_url}/lab/sandbox#" + urlencode(
        {"rule": "life", "w": 32, "h": 32, "torus": 1, "seed": 1, "soup": 0.3}))
    assert page.inner_text("#rate") == "–"   # nothing run yet, nothing measured
    page.click("#run")
    until(lambda: _rate(page), 60, "a measured rate while running")
    page.click("#run")   # pause: the run's figure stays, not "–"
    assert page.inner_text("#run") == "Run"
    paused = _rate(page)
    assert paused is not None and paused > 0, page.inner_text("#rate")
    page.click("#step")   # a step keeps the last run's figure too
    assert _rate(page) == paused
