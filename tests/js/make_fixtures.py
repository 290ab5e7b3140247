"""Write the legal views the JavaScript unit tests read (tests/js/fixtures/views.json): real
views of the server, captured through its HTTP API from fixed positions of every game.

Run ``python tests/js/make_fixtures.py`` after changing what a view holds;
tests/web/test_js_units.py fails while the file differs from what this script writes.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from lifearena.core import Record
from lifearena.games import losat
from lifearena.games.losat import format_position, parse_point
from lifearena.web.app import create_app
from lifearena.web.settings import Settings

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures" / "views.json"
KEPT = ("game", "look", "display", "legal", "moves", "move_sides", "moves_from", "first_turn",
        "ply", "simultaneous", "seats", "awaiting", "mine_cells")
"""The parts of a view the pure modules read (the rest holds ids and tokens)."""
SHORT_WAR = "[[[1,4],[1,7],[6,2]],[[2,2],[2,7],[2,8],[7,2],[7,7]]]"


def _losat_capture() -> str:
    """A Losat record whose first move may capture D7 (three black stones around it)."""
    state = losat.new_game(width=9, length=13)
    board = state.board.copy()
    for name, value in (("C8", 1), ("D8", 1), ("E8", 1), ("D7", 2)):
        point = parse_point(name, 9, 13)
        board[point // 9, point % 9] = value
    return Record("losat", dict(state.params), format_position(board, 0, (0, 0), 0),
                  ["a", "b"], []).to_text()


CASES: list[tuple[str, dict[str, Any], list[tuple[int, str]]]] = [
    ("war_of_life", {"game": "war_of_life", "params": {"start": "prolog", "position": SHORT_WAR}},
     []),
    ("life_for_two_first", {"game": "life_for_two"}, []),
    ("life_for_two_second", {"game": "life_for_two"},
     [(0, "1,1 2,1 1,2"), (1, "4,4 5,4 4,5")]),
    ("losat_capture", {"record": _losat_capture()}, []),
    ("p2life", {"game": "p2life", "params": {"size": 6, "seed": 1}}, [(0, "+2,2"), (1, "+5,5")]),
    ("blocking_queen_move", {"game": "blocking_queen",
                             "params": {"k": 2, "start": "square", "x": 6, "y": 9}}, []),
    ("blocking_queen_block", {"game": "blocking_queen",
                              "params": {"k": 2, "start": "square", "x": 6, "y": 9}},
     [(0, "6,6")]),
    ("classic", {"game": "life_for_two", "params": {"rules": "classic"}}, []),
]


def capture(client: TestClient) -> dict[str, Any]:
    """Every case's view, as the hot-seat holder of both seats sees it."""
    views: dict[str, Any] = {}
    for name, body, moves in CASES:
        if "record" in body:
            response = client.post("/api/records", json={"record": body["record"]})
        else:
            response = client.post("/api/games", json={"opponent": "hotseat", **body})
        assert response.status_code == 201, response.text
        created = response.json()
        headers = {"X-Seat-Token": created["token"]}
        for seat, text in moves:
            ply = client.get(f"/api/games/{created['id']}", headers=headers).json()["ply"]
            played = client.post(f"/api/games/{created['id']}/moves", headers=headers,
                                 json={"move": text, "seat": seat, "ply": ply})
            assert played.status_code == 200, played.text
        view = client.get(f"/api/games/{created['id']}", headers=headers).json()
        views[name] = {key: view[key] for key in KEPT}
    return views


def render() -> str:
    """The fixtures file's text, from a fresh server."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Settings(Path(folder) / "games.sqlite", agent_workers="thread"))
        with TestClient(app, base_url="http://localhost") as client:
            return json.dumps(capture(client), indent=1, sort_keys=True) + "\n"


if __name__ == "__main__":
    FIXTURES.parent.mkdir(exist_ok=True)
    FIXTURES.write_text(render())
    sys.stdout.write(f"wrote {FIXTURES}\n")
