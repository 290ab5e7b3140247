"""The lessons' API: the list, a lesson's steps with their starts as a game page draws them,
a move judged by the game's rules, and one line of 4xx for everything else (never a 5xx)."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from lifearena.lessons import lesson, solution_moves
from lifearena.web import Settings, create_app
from lifearena.web.catalog import GAMES

FIXTURES = Path(__file__).resolve().parents[1] / "js" / "make_lesson_fixtures.py"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app for the module: the lessons keep nothing between requests."""
    app = create_app(Settings(tmp_path_factory.mktemp("lessons") / "games.sqlite",
                              agent_workers="thread"))
    with TestClient(app, base_url="http://localhost") as test_client:
        yield test_client


def test_the_list_names_every_game_with_its_first_picture(client: TestClient) -> None:
    response = client.get("/api/lessons")
    assert response.status_code == 200
    listed = response.json()["lessons"]
    assert [entry["game"] for entry in listed] == list(GAMES)
    for entry in listed:
        assert entry["steps"] == len(lesson(entry["game"]).steps)
        assert entry["link"] == f"/learn/{entry['game']}"
        assert entry["look"]["sides"] and entry["picture"]


@pytest.mark.parametrize("game", GAMES)
def test_a_lesson_gives_each_steps_words_start_and_legal_view(client: TestClient,
                                                               game: str) -> None:
    data = client.get(f"/api/lessons/{game}").json()
    assert data["game"] == game and data["play"] == f"/?game={game}#new-game"
    steps = lesson(game).steps
    assert [s["title"] for s in data["steps"]] == [s.title for s in steps]
    for shown, step in zip(data["steps"], steps, strict=True):
        assert shown["task"] == step.task and shown["hint"] == step.hint
        assert "solution" not in shown and "success" not in shown
        assert shown["display"] and shown["legal"]["interaction"]["kind"] != "wait"
        assert shown["legal"]["count"] > 0


@pytest.mark.parametrize("game", GAMES)
def test_each_steps_solution_is_met_through_the_api(client: TestClient, game: str) -> None:
    for number, step in enumerate(lesson(game).steps, start=1):
        *before, move = solution_moves(step)
        response = client.post(f"/api/lessons/{game}/{number}",
                               json={"move": move, "before": before})
        assert response.status_code == 200, response.text
        answer = response.json()
        assert answer["met"] and not answer["more"] and answer["message"] == step.success
        assert answer["last_step"] == (number == len(lesson(game).steps))
        assert "grid" in answer["display"] or "queen" in answer["display"]


def test_a_generation_is_marked_and_a_wrong_move_is_told(client: TestClient) -> None:
    right = client.post("/api/lessons/war_of_life/1", json={"move": "[5,6,4,5]"}).json()
    assert [3, 3] in right["display"]["births"] and right["display"]["before"]
    wrong = client.post("/api/lessons/war_of_life/1", json={"move": "[5,6,6,7]"}).json()
    assert not wrong["met"] and wrong["message"].startswith("Not yet")


def test_a_simultaneous_step_reveals_the_other_sides_choice(client: TestClient) -> None:
    answer = client.post("/api/lessons/life_for_two/2", json={"move": "1,4"}).json()
    assert answer["met"] and answer["reply"] == "1,4"
    assert answer["display"]["collisions"] == [[3, 0]]


def test_a_queen_move_asks_for_its_block_next(client: TestClient) -> None:
    first = client.post("/api/lessons/blocking_queen/2", json={"move": "1,0"}).json()
    assert first["more"] and not first["met"]
    assert first["legal"]["interaction"]["pass_move"] == "-"
    done = client.post("/api/lessons/blocking_queen/2",
                       json={"move": "#0,0", "before": ["1,0"]}).json()
    assert done["met"] and done["outcome"]["winner"] == 0


@pytest.mark.parametrize(("path", "body", "status", "words"), [
    ("/api/lessons/chess/1", {"move": "e4"}, 404, "no lesson for 'chess'"),
    ("/api/lessons/war_of_life/9", {"move": "[5,6,4,5]"}, 404, "expected 1..5"),
    ("/api/lessons/war_of_life/0", {"move": "[5,6,4,5]"}, 404, "no step 0"),
    ("/api/lessons/war_of_life/x", {"move": "[5,6,4,5]"}, 404, "no step 'x'"),
    ("/api/lessons/war_of_life/1", {"move": "[3,3,3,4]"}, 422, "occupied"),
    ("/api/lessons/war_of_life/1", {"move": "hello"}, 400, "hello"),
    ("/api/lessons/war_of_life/1", {"move": ""}, 400, "bad request"),
    ("/api/lessons/war_of_life/1", {"move": 5}, 400, "bad request"),
    ("/api/lessons/war_of_life/1", {"mov": "[5,6,4,5]"}, 400, "bad request"),
    ("/api/lessons/war_of_life/1", {"move": "[5,6,4,5]", "before": ["x"] * 9}, 400,
     "bad request"),
    ("/api/lessons/losat/1", {"move": "+bA1"}, 422, "needs exactly 3 black neighbours"),
    ("/api/lessons/blocking_queen/1", {"move": "0,0", "before": ["0,0"]}, 422,
     "turn has passed"),
])
def test_refusals_are_one_line_4xx(client: TestClient, path: str, body: object, status: int,
                                   words: str) -> None:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert words in error and "\n" not in error


def test_unknown_lessons_and_pages(client: TestClient) -> None:
    assert client.get("/api/lessons/chess").status_code == 404
    assert "no lesson" in client.get("/api/lessons/" + "x" * 300).json()["error"]
    assert client.get("/learn").status_code == 200
    assert client.get("/learn/losat").status_code == 200
    page = client.get("/learn/chess")
    assert page.status_code == 404 and "No such page" in page.text


@pytest.mark.parametrize("junk", ["\x00", "💥" * 50, "[" * 60, "1,1 " * 40, "+w99,99",
                                  "#-1,-1", "pass pass", "-" * 200])
@pytest.mark.parametrize("game", GAMES)
def test_junk_moves_never_give_a_5xx(client: TestClient, game: str, junk: str) -> None:
    response = client.post(f"/api/lessons/{game}/1", json={"move": junk})
    assert 400 <= response.status_code < 500, response.text


def test_the_learn_pages_unit_fixtures_are_what_the_api_sends_now() -> None:
    """tests/js/fixtures/lessons.json is rewritten by tests/js/make_lesson_fixtures.py."""
    spec = importlib.util.spec_from_file_location("make_lesson_fixtures", FIXTURES)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    stored = (FIXTURES.parent / "fixtures" / "lessons.json").read_text()
    assert module.render() == stored, "run: python tests/js/make_lesson_fixtures.py"
