"""The analysis board in a real browser: a finished War of Life game against the computer,
its evaluation graph, marks and best move, a variation played and the game's own moves
unchanged afterwards; at a desktop size and a phone's, nothing overflowing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lifearena.analysis.war_of_life_search import move_value
from lifearena.core import Record, replay

from .conftest import wait_until
from .test_browser import _page, base_url, browser, shots  # noqa: F401  (fixtures)

pytestmark = pytest.mark.timeout(180)


def finished_game_against_the_computer(page: Any, url: str) -> tuple[str, Record]:
    """A War of Life game against the random level, blue playing, at each of its turns, the
    move the compiled search thinks worst (so the analysis has marks to show), to its end."""
    made = page.request.post(url + "/api/games", data={
        "game": "war_of_life", "opponent": "agent", "level": "random", "side": 0,
        "params": {"start": "random", "seed": 11}})
    assert made.status == 201, made.text()
    game_id, token = made.json()["id"], made.json()["token"]

    def record() -> Record:
        return Record.from_json(page.request.get(f"{url}/api/games/{game_id}/record").text())

    for _ in range(200):
        state = wait_until(lambda: (lambda s: s if s.is_terminal() or s.current_player() == 0
                                    else None)(replay(record())), "blue's turn or the end")
        if state.is_terminal():
            break
        worst = min(state.legal_actions(), key=lambda a: move_value(state, a, 2))
        played = page.request.post(f"{url}/api/games/{game_id}/moves", headers={
            "X-Seat-Token": token}, data={"move": state.action_to_string(worst),
                                          "ply": state.move_number()})
        assert played.status == 200, played.text()
    final = record()
    assert replay(final).is_terminal()
    return game_id, final


def no_overflow(page: Any) -> bool:
    return bool(page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"))


def test_the_analysis_board_of_a_finished_game(browser: Any, base_url: str,  # noqa: F811
                                               shots: Path) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_viewport_size({"width": 1280, "height": 800})
    game_id, record = finished_game_against_the_computer(page, base_url)
    page.goto(f"{base_url}/analysis/{game_id}")
    try:
        page.wait_for_selector("svg.graph .graph-point", state="attached", timeout=60_000)
    except Exception:
        raise AssertionError(f"{page.inner_text('#message')!r} {errors}") from None
    assert page.locator("svg.graph .graph-point").count() == len(record.moves) + 1
    assert page.locator("#moves .move.blunder, #moves .move.mistake, "
                        "#moves .move.inaccuracy").count() >= 1
    page.wait_for_selector("svg.board rect.cell.target")  # the best move at the start
    assert page.inner_text("#best").strip()
    page.screenshot(path=str(shots / "analysis_start.png"))

    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#moves .move.current[data-at='1']")
    first_position = replay(record, upto=1)
    other = next(a for a in first_position.legal_actions()
                 if first_position.action_to_string(a) != record.moves[1])
    page.fill("#typed-move", first_position.action_to_string(other))
    page.press("#typed-move", "Enter")
    page.wait_for_selector("#moves .variation .move.current")
    assert page.is_visible("#back-main")
    page.screenshot(path=str(shots / "analysis_variation.png"))
    page.click("#back-main")
    page.wait_for_selector("#moves .move.current[data-line='-1']")
    main = [t.split(". ", 1)[1].split(" ")[0] for t in
            page.locator("#moves > li > button.move").all_inner_texts()]
    assert main == record.moves
    again = Record.from_json(page.request.get(f"{base_url}/api/games/{game_id}/record").text())
    assert again.moves == record.moves  # the variation never reached the game
    assert no_overflow(page)
    box = page.locator("svg.graph").bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)  # the end
    page.wait_for_selector(f"#moves .move.current[data-at='{len(record.moves)}']")
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)  # the start: no move yet
    page.wait_for_function("() => !document.querySelector('#moves .move.current')")

    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("() => document.documentElement.clientWidth <= 390")  # laid out
    page.screenshot(path=str(shots / "analysis_phone.png"), full_page=True)
    assert no_overflow(page)
    box = page.locator("svg.board").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    assert errors == []


def test_a_pasted_record_is_analysed(browser: Any, base_url: str) -> None:  # noqa: F811
    errors: list[str] = []
    page = _page(browser, errors)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base_url}/analysis")
    page.fill("#record-text", "not a record")
    page.click("#loader button[type=submit]")
    page.wait_for_function("() => /record/.test(document.querySelector('#message').textContent)")
    record = Record("blocking_queen", {"k": 1}, "2,2", ["a", "b"], ["1,1", "0,0"])
    page.fill("#record-text", record.to_text())
    page.click("#loader button[type=submit]")
    page.wait_for_selector("#moves .move.blunder")
    assert page.inner_text("#message") == ""
    assert no_overflow(page)
    assert [e for e in errors if "400" not in e] == []  # the refused record's own answer
