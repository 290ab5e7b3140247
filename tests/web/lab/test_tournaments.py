"""Tournament pages against ``lifearena tournament`` on the same results file."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lifearena.arena.storage import ResultsDB
from lifearena.arena.tournament import report
from lifearena.core import Record, replay
from lifearena.web import Settings

from .conftest import RUN, make_app, serving, until


@pytest.fixture
def lab(tmp_path: Path, played: tuple[Path, str]) -> Iterator[TestClient]:
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread",
                              results=(played[0],)))
    with TestClient(app, base_url="http://localhost") as client:
        yield client


def _cli_rows(printed: str, title: str) -> list[list[str]]:
    """The rows of one of the CLI's rich tables, cells stripped."""
    section = printed.split(title, 1)[1]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("└"):
            break
        if line.startswith("│"):
            rows.append([cell.strip() for cell in line.strip("│").split("│")])
    return rows


def test_the_report_is_the_clis(lab: TestClient, played: tuple[Path, str]) -> None:
    path, printed = played
    files = lab.get("/api/lab/tournaments").json()["files"]
    assert files[0]["runs"][0] == {"name": RUN, "kind": "tournament", "status": "done",
                                   "games": 18, "total": 18}
    data = lab.get(f"/api/lab/tournaments/1/{RUN}").json()
    assert data["title"] in printed
    ranking = [[str(i), r["agent"], str(r["games"]), str(r["wins"]), str(r["draws"]),
                str(r["losses"]), r["score_text"], r["win_text"]]
               for i, r in enumerate(data["ranking"], start=1)]
    assert ranking == _cli_rows(printed, "Ranking")
    first = [[r["agent"], r["first_text"], r["second_text"], r["advantage_text"]]
             for r in data["first_player"]]
    assert first == _cli_rows(printed, "First-player advantage")
    assert data["decisive"]["text"] in printed
    with ResultsDB(path) as db:
        assert data["ranking"][0]["agent"] == report(db.get_run(RUN)).ranking[0].agent
    # the crosstable adds up to the games, and ratings come with intervals
    cells = [c for row in data["crosstable"]["cells"] for c in row if c]
    # games between two agents appear in both their rows, self-play games once
    assert sum(c["games"] for c in cells) == 2 * 18 - 3 * 2
    assert all(r["low"] <= r["elo"] <= r["high"] for r in data["ratings"])


def test_games_of_a_pairing_and_their_records(lab: TestClient) -> None:
    games = lab.get(f"/api/lab/tournaments/1/{RUN}/games",
                    params={"pairing": "random|bloodlust"}).json()["games"]
    assert len(games) == 4
    first = games[0]
    record = lab.get(f"/api/lab/tournaments/1/{RUN}/record", params={
        "pairing": "random|bloodlust", "index": first["game_index"],
        "seat": first["seat"]}).json()["record"]
    state = replay(Record(**record))
    assert len(record["moves"]) == first["length"] and state.is_terminal()
    missing = lab.get(f"/api/lab/tournaments/1/{RUN}/games", params={"pairing": "x|y"})
    assert missing.status_code == 404 and "x|y" in missing.json()["error"]
    assert lab.get("/api/lab/tournaments/9/x").status_code == 404
    no_run = lab.get("/api/lab/tournaments/1/nope")
    assert no_run.status_code == 404 and no_run.json()["error"] == (
        "no run 'nope' in this results file")


def test_the_page_shows_the_clis_numbers_and_follows_a_running_file(
        page: Any, tmp_path: Path, played: tuple[Path, str], shots: Path) -> None:
    path, printed = played
    partial = tmp_path / "partial.sqlite"
    shutil.copy(path, partial)
    with sqlite3.connect(partial) as connection:
        held = connection.execute("SELECT * FROM games WHERE pairing = 'land_grab|land_grab'"
                                  ).fetchall()
        connection.execute("DELETE FROM games WHERE pairing = 'land_grab|land_grab'")
    settings = Settings(tmp_path / "games.sqlite", agent_workers="thread",
                        results=(path, partial))
    with serving(settings) as url:
        page.goto(f"{url}/lab/tournaments#file=1&run={RUN}")
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_selector("#ranking-table")
        shown = [[c.strip() for c in row.split("\t")]
                 for row in page.locator("#ranking-table tbody tr").all_inner_texts()]
        assert shown == _cli_rows(printed, "Ranking")
        firsts = [[c.strip() for c in row.split("\t")]
                  for row in page.locator("#first-table tbody tr").all_inner_texts()]
        assert firsts == _cli_rows(printed, "First-player advantage")
        assert page.inner_text("#decisive") in printed
        assert page.locator("#ratings circle.rating").count() == 3
        page.click("#crosstable-table tbody tr:nth-child(1) td:nth-child(3) a")
        page.wait_for_selector("#games a[href*='/lab/replay']")
        page.screenshot(path=str(shots / "tournament.png"), full_page=True)

        page.goto(f"{url}/lab/tournaments#file=2&run={RUN}")
        page.wait_for_selector("#ranking-table")
        assert re.match(r"1[0-9] / 18 games", page.inner_text("#progress"))
        with sqlite3.connect(partial) as connection:
            marks = ", ".join("?" * len(held[0]))
            connection.executemany(f"INSERT INTO games VALUES ({marks})", held)
        until(lambda: page.inner_text("#progress").startswith("18 / 18"), 120,
              "the run's last games to be shown")


def test_a_ladder_run_is_rated_as_lifearena_ladder_rates_it(
        tmp_path: Path, played: tuple[Path, str]) -> None:
    from lifearena.arena.ladder import rate

    with ResultsDB(played[0]) as source:
        games = list(source.get_run(RUN).games())
    path = tmp_path / "ladder.sqlite"
    with ResultsDB(path) as db:
        db.open_run("ladder-war_of_life", "ladder", {"game": "war_of_life"}).add_games(games)
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread",
                              results=(path,)))
    with TestClient(app, base_url="http://localhost") as client:
        data = client.get("/api/lab/tournaments/1/ladder-war_of_life").json()
    ladder = rate("war_of_life", [result for _, result in games])
    assert data["kind"] == "ladder" and data["done"] == 18 and data["total"] is None
    assert [(r["agent"], r["elo_text"], r["interval_text"], r["games"], r["score_text"])
            for r in data["rows"]] == [
        (r["agent"], f"{r['elo']:.0f}", f"[{r['low']:.0f}, {r['high']:.0f}]", r["games"],
         f"{100 * r['score']:.1f}%") for r in ladder.rows()]
    first, n, _ = ladder.first_score
    assert data["first_text"].startswith(f"first player scores {100 * first:.1f}%")
    assert f"over {n} games" in data["first_text"]


def test_a_ladder_shows_the_total_it_planned(tmp_path: Path) -> None:
    from lifearena.cli import main

    path = tmp_path / "ladder.sqlite"
    with pytest.raises(SystemExit) as exit_info:
        main(["ladder", "war-of-life", "-n", "1", "-a", "land_grab,bloodlust", "--db",
              str(path), "--bootstrap", "5"])
    assert exit_info.value.code == 0
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread",
                              results=(path,)))
    with TestClient(app, base_url="http://localhost") as client:
        listed = client.get("/api/lab/tournaments").json()["files"][0]["runs"]
        data = client.get("/api/lab/tournaments/1/ladder-war_of_life").json()
    # random joins the two named entrants: 3 pairs, each start played in both seats
    assert listed == [{"name": "ladder-war_of_life", "kind": "ladder", "status": "done",
                       "games": 6, "total": 6}]
    assert (data["done"], data["total"]) == (6, 6)


def _crowded(tmp_path: Path, played: tuple[Path, str], copies: int) -> Path:
    """The played file with ``copies`` extra copies of each random|bloodlust game (new
    start indices): a pairing of many games."""
    path = tmp_path / "crowded.sqlite"
    shutil.copy(played[0], path)
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT * FROM games WHERE pairing = 'random|bloodlust'"
                                  ).fetchall()
        marks = ", ".join("?" * len(rows[0]))
        extra = [(*row[:2], row[2] + 1000 * (i + 1), *row[3:])
                 for i in range(copies) for row in rows]
        connection.executemany(f"INSERT INTO games VALUES ({marks})", extra)
    return path


def test_the_games_of_a_pairing_come_a_page_at_a_time(tmp_path: Path,
                                                      played: tuple[Path, str]) -> None:
    path = _crowded(tmp_path, played, 60)   # 4 + 240 games
    app = make_app(Settings(tmp_path / "games.sqlite", agent_workers="thread",
                              results=(path,)))
    url = f"/api/lab/tournaments/1/{RUN}/games"
    with TestClient(app, base_url="http://localhost") as client:
        first = client.get(url, params={"pairing": "random|bloodlust"}).json()
        assert (first["total"], first["offset"], first["limit"]) == (244, 0, 100)
        assert len(first["games"]) == 100
        pages = [client.get(url, params={"pairing": "random|bloodlust", "offset": offset,
                                         "limit": 100}).json()["games"]
                 for offset in (0, 100, 200)]
        assert [len(p) for p in pages] == [100, 100, 44]
        keys = [(g["game_index"], g["seat"]) for p in pages for g in p]
        assert len(set(keys)) == 244
        past = client.get(url, params={"pairing": "random|bloodlust", "offset": 500}).json()
        assert past["games"] == [] and past["total"] == 244
        for bad, words in [({"limit": 0}, "limit: Input should be greater than or equal to 1"),
                           ({"limit": 501}, "limit: Input should be less than or equal to 500"),
                           ({"offset": -1}, "offset: Input should be greater than or equal"),
                           ({"offset": 10**30}, "offset: Input should be less than or equal"),
                           ({"limit": "ten"}, "limit: Input should be a valid integer")]:
            refused = client.get(url, params={"pairing": "random|bloodlust", **bad})
            assert refused.status_code == 400 and words in refused.json()["error"], bad


def test_the_page_pages_a_pairings_games_and_fits_its_width(
        page: Any, tmp_path: Path, played: tuple[Path, str], shots: Path) -> None:
    path = _crowded(tmp_path, played, 60)
    settings = Settings(tmp_path / "games.sqlite", agent_workers="thread", results=(path,))
    with serving(settings) as url:
        for width in (1280, 800):
            page.set_viewport_size({"width": width, "height": 900})
            page.goto(f"{url}/lab/tournaments#file=1&run={RUN}")
            page.wait_for_selector("#ranking-table")
            # nothing runs off the right edge, and the ratings chart covers no table
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            chart = page.locator("#ratings").bounding_box()
            for table_id in ("crosstable-table", "ranking-table"):
                box = page.locator(f"#{table_id}").bounding_box()
                apart = (box["x"] + box["width"] <= chart["x"] or chart["x"] + chart["width"]
                         <= box["x"] or box["y"] + box["height"] <= chart["y"]
                         or chart["y"] + chart["height"] <= box["y"])
                assert apart, (width, table_id)
            page.screenshot(path=str(shots / f"tournament-{width}.png"), full_page=True)
        page.click("#crosstable-table tbody tr:nth-child(1) td:nth-child(3) a")
        page.wait_for_selector("#games-table")
        assert page.locator("#games-table tbody tr").count() == 100
        assert page.inner_text("#games-range") == "1–100 of 244"
        # each game's ending in words, as the game page says it, not the stored code ("win")
        endings = set(page.locator("#games-table tbody td:nth-child(5)").all_inner_texts())
        assert endings and endings <= {"random has no pieces left", "bloodlust has no pieces "
                                       "left", "a draw", "the move limit was reached"}, endings
        assert page.is_disabled("#games-prev")
        page.click("#games-next")
        page.wait_for_selector("#games-range:text('101–200 of 244')")
        page.click("#games-next")
        page.wait_for_selector("#games-range:text('201–244 of 244')")
        assert page.locator("#games-table tbody tr").count() == 44
        assert page.is_disabled("#games-next")
        page.screenshot(path=str(shots / "tournament-pairing.png"), full_page=True)


def test_no_results_file_shows_no_empty_sections(page: Any, tmp_path: Path,
                                                 shots: Path) -> None:
    settings = Settings(tmp_path / "games.sqlite", agent_workers="thread")
    with serving(settings) as url:
        page.goto(f"{url}/lab/tournaments")
        page.wait_for_selector("body[data-ready='1']")
        assert page.inner_text("#title").startswith("No tournament here")
        for hidden in ("#report", "#ratings", "#crosstable"):
            assert not page.is_visible(hidden), hidden
        page.screenshot(path=str(shots / "tournament-none.png"), full_page=True)


def test_a_slow_report_shows_loading(page: Any, tmp_path: Path,
                                     played: tuple[Path, str]) -> None:
    settings = Settings(tmp_path / "games.sqlite", agent_workers="thread",
                        results=(played[0],))
    with serving(settings) as url:
        held: list[Any] = []
        page.route("**/api/lab/tournaments/1/*", lambda route: held.append(route))
        page.goto(f"{url}/lab/tournaments#file=1&run={RUN}")
        page.wait_for_selector("#title:text('Loading')")
        assert page.inner_text("#progress") == "loading…"
        assert not page.is_visible("#report")
        def routed() -> bool:
            page.wait_for_timeout(50)  # Playwright calls its route handlers meanwhile
            return bool(held)

        until(routed, 120, "the report's request")
        held[0].continue_()
        page.wait_for_selector("#ranking-table")
        assert page.is_visible("#report") and "Loading" not in page.inner_text("#title")
