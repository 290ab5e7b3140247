"""The tournaments page starts, stops and resumes a tournament in the real browser."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from lifearena.web import Settings

from .conftest import serving


def _state(page: Any, wanted: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while page.get_attribute("#progress", "data-state") != wanted:
        assert time.monotonic() < deadline, (page.inner_text("#progress"),
                                             page.inner_text("#error"))
        time.sleep(0.1)


def test_start_stop_resume_from_the_page(page: Any, tmp_path: Path, shots: Path) -> None:
    settings = Settings(tmp_path / "games.sqlite", agent_workers="thread",
                        tournaments_running=1)
    with serving(settings) as url:
        page.goto(f"{url}/lab/tournaments")
        page.wait_for_selector("body[data-ready='1']")
        page.click("#launch-card summary")
        page.select_option("#launch-game", "life_for_two")
        page.wait_for_selector("#launch-agents input[value='greedy']:checked")
        assert page.locator("#launch-agents input:checked").count() == 2
        page.fill("#launch-games", "32")
        page.fill("#launch-seed", "5")
        assert page.inner_text("#launch-total") == "2 entrants: 128 games"
        page.screenshot(path=str(shots / "tournament-form.png"), full_page=True)
        page.click("#launch-start")
        _state(page, "running")
        assert "/ 128 games" in page.inner_text("#progress")
        # the page follows the run: games appear while it goes on, with the time left
        page.wait_for_selector("#progress:has-text('s left')")
        assert int(page.get_attribute("#progress", "data-done") or 0) > 0
        # a second one is over this server's bound: the refusal is shown, the first goes on
        page.click("#launch-start")
        page.wait_for_selector("#error:has-text('at most 1 at once')")
        page.click("#stop")
        _state(page, "stopped")
        assert page.is_visible("#resume") and not page.is_visible("#stop")
        stopped_at = int(page.get_attribute("#progress", "data-done") or -1)
        assert 0 < stopped_at < 128
        assert f"({stopped_at} / 128 games, interrupted)" in page.inner_text("#run")
        page.screenshot(path=str(shots / "tournament-stopped.png"), full_page=True)
        page.click("#resume")
        _state(page, "done")
        assert page.inner_text("#progress").startswith("128 / 128 games")
        assert not page.is_visible("#resume") and not page.is_visible("#stop")
        assert page.locator("#ranking-table tbody tr").count() == 2
        page.screenshot(path=str(shots / "tournament-resumed.png"), full_page=True)
