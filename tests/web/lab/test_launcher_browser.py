"""The tournaments page starts, stops and resumes a tournament in the real browser, with the
operator's admin link; without it the page is read only and says why.

Every wait is a polled condition with a generous deadline: the page polls the server every
2 s and the tournament runs in a child process, both slow on a loaded machine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from lifearena.web import Settings
from lifearena.web.lab.admin import NEEDS_ADMIN, WRONG_LINK
from lifearena.web.lab.launcher import budget_message

from .conftest import ADMIN, serving, until

WAIT = 240
"""Seconds a page has to reach a state (a tournament's process under load)."""


def _state(page: Any, wanted: str, seconds: float = WAIT) -> None:
    until(lambda: page.get_attribute("#progress", "data-state") == wanted, seconds,
          f"state {wanted} (progress {page.inner_text('#progress')!r}, error "
          f"{page.inner_text('#error')!r})")


def _text(page: Any, selector: str, words: str, seconds: float = WAIT) -> None:
    until(lambda: words in page.inner_text(selector), seconds,
          f"{words!r} in {selector} (it says {page.inner_text(selector)!r})")


def test_start_stop_resume_from_the_admin_link(page: Any, tmp_path: Path, shots: Path) -> None:
    settings = Settings(tmp_path / "games.sqlite", agent_workers="thread",
                        tournaments_running=1)
    with serving(settings, ADMIN) as url:
        page.goto(f"{url}/lab/tournaments#admin={ADMIN}")
        page.wait_for_selector("body[data-ready='1']")
        # the token left the address bar for this tab's session storage
        assert ADMIN not in page.url and "admin" not in page.url
        assert page.evaluate("sessionStorage.getItem('lifearena-lab-admin')") == ADMIN
        assert page.get_attribute("body", "data-admin") == "1"
        assert not page.is_visible("#admin-note")
        page.click("#launch-card summary")
        assert "of its 1,074 MB for tournaments used" in page.inner_text("#launch-note")
        # 2,000 games: still running however long the page takes to show each step (on an
        # idle machine 128 games ended before a stale page's Stop reached the server)
        page.select_option("#launch-game", "life_for_two")
        page.wait_for_selector("#launch-agents input[value='greedy']:checked")
        assert page.locator("#launch-agents input:checked").count() == 2
        page.fill("#launch-games", "500")
        page.fill("#launch-seed", "5")
        assert page.inner_text("#launch-total") == "2 entrants: 2000 games"
        page.screenshot(path=str(shots / "tournament-form.png"), full_page=True)
        page.click("#launch-start")
        _state(page, "running")
        assert "/ 2000 games" in page.inner_text("#progress")
        # a second one is over this server's bound: the refusal is shown, the first goes on
        page.click("#launch-start")
        _text(page, "#error", "at most 1 at once")
        assert page.get_attribute("#progress", "data-state") == "running"
        # the page follows the run: games appear while it goes on, with the time left
        _text(page, "#progress", "s left")
        assert int(page.get_attribute("#progress", "data-done") or 0) > 0
        page.click("#stop")
        _state(page, "stopped")
        assert page.is_visible("#resume") and not page.is_visible("#stop")
        assert "s left" not in page.inner_text("#progress")
        stopped_at = int(page.get_attribute("#progress", "data-done") or -1)
        assert 0 < stopped_at < 2000
        assert f"({stopped_at} / 2000 games, interrupted)" in page.inner_text("#run")
        page.screenshot(path=str(shots / "tournament-stopped.png"), full_page=True)
        # a reload keeps the token (this tab's session), though the link's fragment is gone
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert page.get_attribute("body", "data-admin") == "1" and page.is_visible("#resume")
        # Resume goes on from the file: past the games stored when it was stopped
        page.click("#resume")
        _state(page, "running")
        until(lambda: int(page.get_attribute("#progress", "data-done") or 0) > stopped_at,
              WAIT, "games after the resumed run's first block")
        assert page.is_visible("#stop") and not page.is_visible("#resume")
        page.click("#stop")
        _state(page, "stopped")
        # a short one runs to its end: neither Stop nor Resume then, and its tables (the
        # form, closed again by the reload, is opened)
        page.click("#launch-card summary")
        page.select_option("#launch-game", "blocking_queen")
        page.wait_for_selector("#launch-agents input[value='greedy']:checked")
        page.fill("#launch-games", "1")
        assert page.inner_text("#launch-total") == "2 entrants: 4 games"
        page.click("#launch-start")
        _state(page, "done")
        assert page.inner_text("#progress").startswith("4 / 4 games")
        assert "lab-2" in page.input_value("#run")
        assert not page.is_visible("#resume") and not page.is_visible("#stop")
        assert page.locator("#ranking-table tbody tr").count() == 2
        page.screenshot(path=str(shots / "tournament-done.png"), full_page=True)


def test_without_the_admin_link_the_page_is_read_only_and_shows_the_budget_stop(
        page: Any, tmp_path: Path, shots: Path) -> None:
    settings = Settings(tmp_path / "games.sqlite", agent_workers="thread",
                        tournaments_running=1)
    budget = 300_000
    with serving(settings, ADMIN, disk_budget=budget) as url:
        # the operator starts a long tournament; the budget will stop it
        started = httpx.post(f"{url}/api/lab/tournaments/start", headers={
            "X-Admin-Token": ADMIN, "Origin": url}, timeout=120, json={
            "game": "life_for_two", "agents": ["random", "greedy"], "games": 500, "seed": 3})
        assert started.status_code == 201, started.text
        launch = started.json()
        page.goto(f"{url}/lab/tournaments#file={launch['id']}&run={launch['run']}")
        page.wait_for_selector("body[data-ready='1']")
        assert page.get_attribute("body", "data-admin") == "0"
        assert page.inner_text("#admin-note") == NEEDS_ADMIN
        assert not page.is_visible("#launch-card")
        if page.get_attribute("#progress", "data-state") == "running":
            assert not page.is_visible("#stop")
        for width, height in ((1280, 800), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(shots / f"tournament-read-only-{width}.png"))
        # nobody stops it: the server's watcher does, and the page says why
        _state(page, "stopped")
        _text(page, "#error", budget_message(budget))
        assert not page.is_visible("#resume") and not page.is_visible("#stop")
        page.screenshot(path=str(shots / "tournament-budget-390.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 800})
        page.screenshot(path=str(shots / "tournament-budget-1280.png"), full_page=True)
        # a stale admin link (a server restarted since) is named as such; the link opened
        # in this tab changes only the fragment, which the page follows
        page.goto(f"{url}/lab/tournaments#admin=stale-token&file={launch['id']}&run="
                  f"{launch['run']}")
        until(lambda: page.inner_text("#admin-note") == WRONG_LINK, 60, "the stale link named")
        assert "stale" not in page.url and page.url.endswith(f"run={launch['run']}")
        # with the operator's link the same page offers Resume (the budget then refuses it)
        page.goto(f"{url}/lab/tournaments#admin={ADMIN}&file={launch['id']}&run="
                  f"{launch['run']}")
        until(lambda: page.get_attribute("body", "data-admin") == "1", 60, "the admin link")
        assert ADMIN not in page.url and not page.is_visible("#admin-note")
        until(lambda: page.is_visible("#resume"), 60, "Resume offered to the operator")
        assert "s left" not in page.inner_text("#progress")  # no time left while stopped
        for width, height in ((1280, 800), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(shots / f"tournament-admin-{width}.png"), full_page=True)
        # in a fresh tab the page reads the link at its start
        fresh = page.context.new_page()
        fresh.goto(f"{url}/lab/tournaments#admin={ADMIN}")
        fresh.wait_for_selector("body[data-ready='1']")
        assert fresh.get_attribute("body", "data-admin") == "1" and ADMIN not in fresh.url
        fresh.close()
