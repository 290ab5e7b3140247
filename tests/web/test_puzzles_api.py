"""The puzzles' API: solving and failing a puzzle, the ratings it moves (the player's and the
puzzle's), retries, anonymous players, the daily puzzle, and junk refused with a 4xx; on
SQLite and PostgreSQL (``games_db``)."""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lifearena.web import Settings, create_app
from lifearena.web.identity import COOKIE
from puzzle_fixtures import queen_puzzle, queen_puzzles, war_puzzle, write_folder

Browser = Callable[..., TestClient]


@pytest.fixture()
def browsers(games_db: str | Path, tmp_path: Path) -> Iterator[Browser]:
    """Browsers (keeping their cookies) of one server offering the test's queen puzzles and
    one that names a game of this server as its source."""
    folder = write_folder(tmp_path / "puzzles",
                          [*queen_puzzles(), queen_puzzle("1,3", 1400.0, web_game="nosuchgame"),
                           war_puzzle()])
    app = create_app(Settings(games_db, agent_workers="thread", puzzles_dir=folder))
    with contextlib.ExitStack() as stack:
        count = [0]

        def browser() -> TestClient:
            count[0] += 1
            return stack.enter_context(TestClient(app, base_url="http://localhost",
                                                  client=(f"10.1.0.{count[0]}", 5000)))
        yield browser


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def losing(puzzle_id: str, moves: list[str]) -> str:
    """A move of ``moves`` that does not solve the puzzle ``puzzle_id``."""
    solutions = {p.id: p.solutions for p in [*queen_puzzles(), queen_puzzle("1,3", 1400.0)]}
    return next(move for move in moves if move not in solutions[puzzle_id])


def play(client: TestClient, puzzle_id: str, moves: list[str], move: str) -> Any:
    return ok(client.post(f"/api/puzzles/id/{puzzle_id}/moves",
                          json={"moves": moves, "move": move}))


def test_a_puzzle_solved_moves_both_ratings(browsers: Browser) -> None:
    me = browsers()
    puzzle = ok(me.get("/api/puzzles/id/bq-4-6"))
    assert puzzle["prompt"].endswith("to move — find the win") and "theme" not in puzzle
    assert puzzle["display"]["queen"] == [4, 6] and puzzle["legal"]["count"] > 0
    first = play(me, "bq-4-6", [], "3,5")
    assert first["verdict"] == "right" and first["reply"] == "3,1"
    assert first["moves"] == ["3,5", "3,1"] and not first["over"]
    assert first["shown"]["queen"] == [3, 5] and first["display"]["queen"] == [3, 1]
    assert "rating" not in first  # nothing is rated before the end
    second = play(me, "bq-4-6", first["moves"], "2,1")
    assert second["verdict"] == "right"
    last = play(me, "bq-4-6", second["moves"], "0,0")
    assert last["verdict"] == "solved" and last["over"] and last["theme"] == "wythoff-in-3"
    rated = last["rating"]
    assert rated["rated"] and rated["player"]["before"] == 1500
    assert rated["player"]["change"] > 0 and rated["puzzle"]["change"] < 0
    assert rated["puzzle"]["before"] == 1700
    assert ok(me.get("/api/puzzles/id/bq-4-6"))["rating"] == rated["puzzle"]["after"]
    mine = ok(me.get("/api/puzzles"))["rating"]
    assert mine["rating"] == rated["player"]["after"] and mine["plays"] == 1
    assert [step["move"] for step in last["solution"]][:1] == ["3,5"]


def test_a_war_of_life_puzzle_is_drawn_and_played_as_a_game_view_gives_it(
        browsers: Browser) -> None:
    me = browsers()
    puzzle = ok(me.get("/api/puzzles/id/wol-demo"))
    assert puzzle["display"]["grid"]["rows"] == 8 and puzzle["side"] == "Blue"
    assert puzzle["legal"]["interaction"]["kind"] == "piece-then-target"
    listed = {choice["move"] for choice in puzzle["legal"]["moves"]}
    assert set(war_puzzle().solutions) <= listed
    for move in war_puzzle().solutions:  # either wins; the defence is played before the end
        answer = play(browsers(), "wol-demo", [], move)
        assert answer["verdict"] == "solved" and answer["display"]["grid"]
    wrong = play(me, "wol-demo", [], next(iter(listed - set(war_puzzle().solutions))))
    assert wrong["verdict"] == "wrong" and wrong["winning"] == list(war_puzzle().solutions)


def test_any_winning_move_is_right(browsers: Browser) -> None:
    me = browsers()
    for move in ("2,1", "1,2"):  # the puzzle's two solutions
        assert play(me, "bq-2-3", [], move)["verdict"] == "right"


def test_a_wrong_move_reveals_the_solution_and_costs_rating(browsers: Browser) -> None:
    me = browsers()
    wrong = play(me, "bq-4-6", [], "4,5")
    assert wrong["verdict"] == "wrong" and wrong["over"] and wrong["reply"] is None
    assert wrong["winning"] == ["3,5"] and wrong["solutions"] == ["3,5"]
    assert [step["move"] for step in wrong["solution"]] == ["3,5", "3,1", "2,1", "1,0", "0,0"]
    assert wrong["shown"]["queen"] == [4, 5]  # the wrong move is on the board
    assert wrong["rating"]["rated"] and wrong["rating"]["player"]["change"] < 0
    assert wrong["rating"]["puzzle"]["change"] > 0


def test_a_retry_is_judged_and_unrated(browsers: Browser) -> None:
    me = browsers()
    play(me, "bq-2-3", [], "2,2")  # failed: rated
    rating = ok(me.get("/api/puzzles"))["rating"]
    puzzle_rating = ok(me.get("/api/puzzles/id/bq-2-3"))["rating"]
    first = play(me, "bq-2-3", [], "1,2")
    solved = play(me, "bq-2-3", first["moves"], "0,0")
    assert solved["verdict"] == "solved" and solved["rating"] == {
        "rated": False, "player": None, "puzzle": None}
    assert ok(me.get("/api/puzzles"))["rating"] == rating
    assert ok(me.get("/api/puzzles/id/bq-2-3"))["rating"] == puzzle_rating
    assert ok(me.get("/api/puzzles/id/bq-2-3"))["tried"] == {"attempts": 2, "solved": True}


def test_an_anonymous_browser_gets_a_player_and_a_rating(browsers: Browser) -> None:
    me = browsers()
    assert ok(me.get("/api/puzzles"))["rating"] is None
    assert COOKIE not in me.cookies
    answer = play(me, "bq-2-3", [], "0,3")  # wrong
    assert COOKIE in me.cookies and answer["rating"]["rated"]
    assert ok(me.get("/api/me"))["player"]["kind"] == "anonymous"
    assert ok(me.get("/api/puzzles"))["rating"]["plays"] == 1


def test_next_is_near_my_rating_and_skips_what_i_tried(browsers: Browser) -> None:
    me = browsers()
    listed = ok(me.get("/api/puzzles"))
    counts = {entry["game"]: (entry["count"], entry["solved"]) for entry in listed["games"]}
    assert counts == {"war_of_life": (1, 0), "blocking_queen": (5, 0)}
    seen = set()
    for _ in range(5):
        puzzle = ok(me.get("/api/puzzles/blocking_queen/next"))
        assert puzzle["id"] not in seen
        seen.add(puzzle["id"])
        moves = [choice["move"] for choice in puzzle["legal"]["moves"]]
        assert play(me, puzzle["id"], [], losing(puzzle["id"], moves))["verdict"] == "wrong"
    assert len(seen) == 5
    # every one tried and failed: the unsolved come round again
    assert ok(me.get("/api/puzzles/blocking_queen/next"))["id"] in seen


def test_next_chooses_the_nearest_ratings(browsers: Browser,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from lifearena.web import puzzle_routes

    monkeypatch.setattr(puzzle_routes, "NEAREST", 1)  # the nearest alone, not one of five
    me = browsers()
    # a new player is rated 1500: the 1500 puzzle, then (skipped) the 1550 one, not the 1400
    assert ok(me.get("/api/puzzles/blocking_queen/next"))["id"] == "bq-5-7"
    assert ok(me.get("/api/puzzles/blocking_queen/next?exclude=bq-5-7"))["id"] == "bq-6-9"
    play(me, "bq-2-3", [], "0,3")  # a failure: the player drops below 1500
    assert ok(me.get("/api/puzzles"))["rating"]["rating"] < 1400
    assert ok(me.get("/api/puzzles/blocking_queen/next"))["id"] == "bq-1-3"  # rated 1400


def test_the_daily_puzzle_is_the_same_for_everyone_and_stable(browsers: Browser) -> None:
    one, two = browsers(), browsers()
    daily = ok(one.get("/api/puzzles/daily"))
    assert daily["date"] == datetime.datetime.now(datetime.UTC).date().isoformat()
    assert ok(two.get("/api/puzzles/daily"))["id"] == daily["id"]
    assert ok(one.get("/api/puzzles"))["daily"]["id"] == daily["id"]


def test_the_daily_choice_depends_on_the_date_alone(tmp_path: Path) -> None:
    from lifearena.puzzles.collection import Collection

    folder = write_folder(tmp_path / "p")
    days = [datetime.date(2026, 1, 1) + datetime.timedelta(days=n) for n in range(40)]
    first = [Collection(folder).daily(day).id for day in days]  # type: ignore[union-attr]
    again = [Collection(folder).daily(day).id for day in days]  # type: ignore[union-attr]
    assert first == again and len(set(first)) > 1


def test_the_source_game_links_to_its_record_when_the_game_is_not_here(
        browsers: Browser) -> None:
    me = browsers()
    source = ok(me.get("/api/puzzles/id/bq-1-3"))["source"]
    assert source["game_id"] is None and source["link"] == "/api/puzzles/id/bq-1-3/record"
    record = me.get(source["link"])
    assert record.status_code == 200 and record.json()["setup"] == "1,3"
    assert record.json()["extra"] == {"web_game": "nosuchgame"}


def test_the_source_game_links_to_the_game_when_it_is_on_this_server(
        games_db: str | Path, tmp_path: Path) -> None:
    folder = tmp_path / "puzzles"
    app = create_app(Settings(games_db, agent_workers="thread", puzzles_dir=folder))
    with TestClient(app, base_url="http://localhost") as me:
        made = ok(me.post("/api/games", json={"game": "blocking_queen", "params": {"k": 1},
                                              "opponent": "hotseat"}), 201)
        # the puzzles are read at their first request: written now, they name the game
        write_folder(folder, [queen_puzzle("2,3", 1500.0, web_game=made["id"])])
        source = ok(me.get("/api/puzzles/id/bq-2-3"))["source"]
    assert source == {"game_id": made["id"], "link": f"/game/{made['id']}",
                      "record": "/api/puzzles/id/bq-2-3/record", "ply": 0}


JUNK: list[tuple[str, str, Any, int]] = [
    ("get", "/api/puzzles/id/nope", None, 404),
    ("get", "/api/puzzles/id/" + "x" * 200, None, 400),
    ("get", "/api/puzzles/id/a%20b", None, 400),
    ("get", "/api/puzzles/chess/next", None, 404),
    ("get", "/api/puzzles/BAD!/next", None, 400),
    ("get", "/api/puzzles/losat/next", None, 404),  # a game without puzzles here
    ("post", "/api/puzzles/id/bq-4-6/moves", {"move": "zz"}, 400),
    ("post", "/api/puzzles/id/bq-4-6/moves", {"move": "9,9"}, 422),
    ("post", "/api/puzzles/id/bq-4-6/moves", {"move": ""}, 400),
    ("post", "/api/puzzles/id/bq-4-6/moves", {"move": 3}, 400),
    ("post", "/api/puzzles/id/bq-4-6/moves", {"move": "3,5", "extra": 1}, 400),
    ("post", "/api/puzzles/id/bq-4-6/moves", {"moves": "3,5", "move": "3,5"}, 400),
    ("post", "/api/puzzles/id/bq-4-6/moves", {"moves": ["3,5"] * 65, "move": "0,0"}, 400),
    # earlier moves that this puzzle never played: a wrong first move, a made-up reply
    ("post", "/api/puzzles/id/bq-4-6/moves", {"moves": ["4,5", "0,5"], "move": "0,0"}, 400),
    ("post", "/api/puzzles/id/bq-4-6/moves", {"moves": ["3,5", "0,5"], "move": "0,0"}, 400),
    ("post", "/api/puzzles/id/bq-4-6/moves", {"moves": ["3,5"], "move": "3,1"}, 400),
    ("post", "/api/puzzles/id/bq-2-3/moves",
     {"moves": ["2,1", "1,0", "0,0"], "move": "0,0"}, 400),  # after the end
    ("post", "/api/puzzles/id/nope/moves", {"move": "0,0"}, 404),
]
"""Requests a server must refuse, each with the status it must refuse them with."""


def test_junk_is_a_4xx_with_a_reason(browsers: Browser) -> None:
    me = browsers()
    for method, path, body, status in JUNK:
        response = me.post(path, json=body) if method == "post" else me.get(path)
        assert response.status_code == status, (path, body, response.text)
        assert response.json()["error"], (path, body)


def test_a_server_without_puzzles_says_so(tmp_path: Path) -> None:
    app = create_app(Settings(tmp_path / "games.sqlite", agent_workers="thread",
                              puzzles_dir=tmp_path / "none"))
    with TestClient(app, base_url="http://localhost") as me:
        assert ok(me.get("/api/puzzles")) == {"games": [], "rating": None, "daily": None}
        assert me.get("/api/puzzles/daily").status_code == 404
        assert me.get("/api/puzzles/war_of_life/next").status_code == 404


def test_every_shipped_game_opens_and_judges_its_first_puzzle(tmp_path: Path) -> None:
    from lifearena.puzzles.collection import Collection
    from lifearena.web import catalog

    shipped = Collection(None, catalog.GAMES)
    app = create_app(Settings(tmp_path / "games.sqlite", agent_workers="thread"))
    with TestClient(app, base_url="http://localhost") as me:
        listed = {entry["game"]: entry["count"] for entry in ok(me.get("/api/puzzles"))["games"]}
        assert listed == shipped.counts()
        for game in listed:
            puzzle = min(shipped.of(game), key=lambda p: p.id)
            view = ok(me.get(f"/api/puzzles/id/{puzzle.id}"))
            assert view["legal"]["count"] > 0 and view["display"]
            answer = play(me, puzzle.id, [], puzzle.solutions[0])
            assert answer["verdict"] in ("right", "solved"), (game, answer)
