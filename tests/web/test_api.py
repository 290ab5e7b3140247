"""The HTTP API: creating games, moves and their refusals, records, bounds and headers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import lifearena.web
from lifearena.core import Game, Record, State, presentation_of, replay
from lifearena.web.app import MAX_BODY
from lifearena.web.lab.common import MAX_LAB_BODY

from .conftest import QUICK_WAR, claim, create, move, tokens_of, view


def shown(state: State) -> str:
    """A position as its text board shows it."""
    return presentation_of(state).text(state)


def test_catalog_lists_the_five_games_with_a_picture_each(client: TestClient) -> None:
    games = client.get("/api/catalog").json()["games"]
    assert [g["name"] for g in games] == ["war_of_life", "life_for_two", "losat", "p2life",
                                          "blocking_queen"]
    for entry in games:
        assert entry["summary"] and entry["params"] and entry["levels"]
        assert "grid" in entry["picture"] or "queen" in entry["picture"]


def test_pages_carry_a_same_origin_content_security_policy(client: TestClient) -> None:
    for path in ("/", "/static/js/game-page.js", "/api/catalog"):
        response = client.get(path)
        assert response.status_code == 200
        policy = response.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "http" not in policy


def test_pages_name_no_other_host(client: TestClient) -> None:
    static = Path(lifearena.web.__file__).parent / "static"
    files = sorted(static.rglob("*.*"))
    assert {"game.html", "game-page.js", "draw.js", "style.css"} <= {f.name for f in files}
    for path in ["/", *(f"/static/{f.relative_to(static).as_posix()}" for f in files)]:
        response = client.get(path)
        assert response.status_code == 200, path
        text = response.text
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
        assert "https://" not in text


@pytest.mark.parametrize("game", ["war_of_life", "life_for_two", "losat", "p2life",
                                  "blocking_queen"])
def test_a_new_game_is_built_once_from_its_form(client: TestClient, game: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``POST /api/games`` checks the form's parameters and makes the start with one
    :class:`~lifearena.core.Game`, and plays from that start: it never writes the start out
    as text to parse it back (and the game then plays from the very state made)."""
    built: list[str] = []
    parsed: list[str] = []
    make, parse = Game.__init__, Game.state_from_setup

    def counted_init(self: Game, *args: Any, **kwargs: Any) -> None:
        built.append(type(self).__name__)
        make(self, *args, **kwargs)

    def counted_parse(self: Game, setup: str) -> State:
        parsed.append(setup)
        return parse(self, setup)

    monkeypatch.setattr(Game, "__init__", counted_init)
    monkeypatch.setattr(Game, "state_from_setup", counted_parse)
    made = create(client, game, join=False)
    assert (len(built), parsed) == (1, [])
    # the game made plays on, and its start is stored as the same position
    monkeypatch.setattr(Game, "__init__", make)
    monkeypatch.setattr(Game, "state_from_setup", parse)
    server = client.app.state.server  # type: ignore[attr-defined]
    live = server.games[made["id"]]
    stored = server.store.get(made["id"])
    assert shown(replay(Record(game, stored.params, stored.setup, ["", ""], []))) == \
        shown(live.state)
    assert view(client, made["id"], made["token"])["ply"] == 0


def test_an_online_game_gives_its_creator_one_seat_and_an_invitation_for_the_other(
        client: TestClient) -> None:
    created = create(client, "war_of_life", join=False, params={"start": "random", "seed": 3},
                     side=1)
    game_id, mine = created["id"], created["token"]
    assert created["seat"] == 1 and created["links"]["you"] == f"/play/{game_id}#t={mine}"
    assert set(created["links"]) == {"you", "invite", "spectator"}
    assert mine not in created["links"]["invite"]
    waiting = view(client, game_id, mine)
    assert waiting["seats"] == [1] and waiting["waiting_for_opponent"]
    assert waiting["invitation"] == {"seat": 0, "claimed": False,
                                     "link": created["links"]["invite"]}
    # nobody moves before the opponent joins, and the creator cannot take the other seat
    assert move(client, game_id, mine, "[1,1,1,2]").status_code == 409
    assert claim(client, created, token=mine).status_code == 403
    joined = claim(client, created)
    assert joined.status_code == 200 and joined.json()["seat"] == 0
    theirs = joined.json()["token"]
    assert theirs != mine and len(theirs) >= 20
    assert view(client, game_id, theirs)["seats"] == [0]
    assert not view(client, game_id)["waiting_for_opponent"]
    # the invitation is spent: a second opener is told so and holds no seat
    again = claim(client, created)
    assert again.status_code == 409 and "already been claimed" in again.json()["error"]
    assert client.get(f"/play/{game_id}").status_code == 200


def test_the_creator_can_cancel_an_unanswered_invitation_only(client: TestClient) -> None:
    created = create(client, "life_for_two", join=False)
    refused = client.post(f"/api/games/{created['id']}/cancel", json={})
    assert refused.status_code == 403
    cancelled = client.post(f"/api/games/{created['id']}/cancel", json={},
                            headers={"X-Seat-Token": created["token"]})
    assert cancelled.status_code == 200 and cancelled.json()["cancelled"]
    assert cancelled.json()["awaiting"] == []
    late = claim(client, created)
    assert late.status_code == 409 and "cancelled" in late.json()["error"]
    joined = create(client, "life_for_two")
    after = client.post(f"/api/games/{joined['id']}/cancel", json={},
                        headers={"X-Seat-Token": joined["token"]})
    assert after.status_code == 409 and "waiting for its opponent" in after.json()["error"]


@pytest.mark.parametrize(("body", "fragment"), [
    ({"game": "chess"}, "unknown game"),
    ({"game": "losat", "params": {"width": 400}}, "width=400"),
    ({"game": "losat", "params": {"depth": 3}}, "unknown losat parameter"),
    ({"game": "p2life", "params": {"density": "lots"}}, "density"),
    ({"game": "war_of_life", "params": {"start": "prolog", "position": "[[[9,9]],[]]"}},
     "9"),
    ({"game": "war_of_life", "opponent": "agent", "level": "godlike"}, "unknown level"),
    ({"game": "war_of_life", "opponent": "robot"}, "opponent"),
    ({"game": "war_of_life", "side": 2}, "side"),
])
def test_bad_new_games_are_refused_with_one_line(client: TestClient, body: dict,
                                                  fragment: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert fragment in error and "\n" not in error


def test_oversize_and_malformed_bodies_are_refused(client: TestClient) -> None:
    big = client.post("/api/games", content=b"{" + b" " * (MAX_BODY + 10) + b"}",
                      headers={"Content-Type": "application/json"})
    assert big.status_code == 413 and "error" in big.json()
    broken = client.post("/api/games", content=b"{not json",
                         headers={"Content-Type": "application/json"})
    assert broken.status_code == 400 and "not JSON" in broken.json()["error"]
    deep = client.post("/api/games", content=b"[" * 8000 + b"]" * 8000,
                       headers={"Content-Type": "application/json"})
    assert deep.status_code == 400 and "JSON" in deep.json()["error"]


def test_games_created_per_client_per_minute_are_bounded(db) -> None:
    from lifearena.web import Settings, create_app

    app = create_app(Settings(db, agent_workers="thread", creates_per_minute=3))
    with TestClient(app, base_url="http://localhost") as client:
        for _ in range(3):
            create(client, "blocking_queen")
        refused = client.post("/api/games", json={"game": "blocking_queen"})
        assert refused.status_code == 429 and "minute" in refused.json()["error"]


def test_unknown_and_path_like_ids_are_not_found(client: TestClient) -> None:
    for game_id in ("nosuchgame1", "..%2F..%2Fetc", "a" * 80):
        response = client.get(f"/api/games/{game_id}/record")
        assert response.status_code == 404 and "error" in response.json()


def _refused(client: TestClient, game_id: str, token: str | None, text: str, status: int,
             fragment: str, seat: int | None = None) -> None:
    before = view(client, game_id)
    response = move(client, game_id, token, text, seat)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert fragment in error and "\n" not in error
    after = view(client, game_id)
    assert after["moves"] == before["moves"] and after["display"] == before["display"]


def test_moves_without_the_right_token_out_of_turn_or_illegal_change_nothing(
        client: TestClient) -> None:
    created = create(client, "war_of_life", params={"start": "random", "seed": 5})
    game_id = created["id"]
    blue, red = tokens_of(created)
    first = view(client, game_id, blue)["legal"]["0"]["moves"][0]["move"]
    _refused(client, game_id, None, first, 403, "spectators cannot move")
    _refused(client, game_id, "forged-token-000000000", first, 403, "does not belong")
    _refused(client, game_id, red, first, 409, "not r's turn")
    _refused(client, game_id, red, first, 403, "does not play seat 0", seat=0)
    _refused(client, game_id, blue, "[1,1,8,8]", 422, "neighbouring cell")
    _refused(client, game_id, blue, "hello", 400, "hello")
    _refused(client, game_id, blue, "x" * 500, 400, "at most")
    own = view(client, game_id, blue)["display"]["grid"]["cells"]
    red_cell = next((r, c) for r in range(8) for c in range(8) if own[r][c] == 2)
    text = f"[{red_cell[0] + 1},{red_cell[1] + 1},{red_cell[0] + 1},{red_cell[1] + 1}]"
    response = move(client, game_id, blue, text)
    assert response.status_code in (400, 422)
    assert move(client, game_id, blue, first).status_code == 200
    assert view(client, game_id, red)["moves"] == [first]


def test_illegal_moves_explain_themselves(client: TestClient) -> None:
    created = create(client, "losat", params={"width": 9, "length": 13})
    black, _ = tokens_of(created)
    response = move(client, created["id"], black, "+bA1")
    assert response.status_code == 422
    assert response.json()["error"] == ("+bA1: an added black stone needs exactly 3 black "
                                        "neighbours; A1 has 0")
    queen = create(client, "blocking_queen", params={"start": "square", "x": 4, "y": 6})
    first, _ = tokens_of(queen)
    refused = move(client, queen["id"], first, "5,5")
    assert refused.status_code == 422 and "west, north or north-west" in refused.json()["error"]


def test_finished_game_record_downloads_and_opens_again(client: TestClient) -> None:
    created = create(client, "war_of_life", params={"start": "prolog", "position": QUICK_WAR})
    blue, red = tokens_of(created)
    assert move(client, created["id"], blue, "[2,2,1,1]").status_code == 200
    assert move(client, created["id"], red, "[6,6,5,5]").status_code == 200
    final = view(client, created["id"])
    assert final["outcome"] is not None
    as_json = client.get(f"/api/games/{created['id']}/record?format=json")
    assert as_json.status_code == 200 and "attachment" in as_json.headers["content-disposition"]
    record = Record.from_json(as_json.text)
    assert record.moves == ["[2,2,1,1]", "[6,6,5,5]"] and record.result == final["outcome"]["text"]
    as_text = client.get(f"/api/games/{created['id']}/record?format=text").text
    assert Record.from_text(as_text) == record
    assert str(replay(record).outcome()) == final["outcome"]["text"]
    opened = client.post("/api/records", json={"record": as_text})
    assert opened.status_code == 201
    again = view(client, opened.json()["id"], opened.json()["token"])
    assert again["moves"] == record.moves and again["display"] == final["display"]
    assert client.get(f"/api/games/{created['id']}/position?upto=1").json()["grid"]


@pytest.mark.parametrize("text", [
    "not a record",
    json.dumps({"game": "war_of_life", "params": {}, "setup": QUICK_WAR, "players": [],
                "moves": ["[9,9,9,9]"]}),
    json.dumps({"game": "../../etc/passwd", "params": {}, "setup": "x", "players": [],
                "moves": []}),
])
def test_bad_records_are_refused(client: TestClient, text: str) -> None:
    response = client.post("/api/records", json={"record": text})
    assert response.status_code == 400 and response.json()["error"]


def test_hot_seat_token_plays_both_seats(client: TestClient) -> None:
    created = create(client, "life_for_two", opponent="hotseat")
    token = created["token"]
    assert move(client, created["id"], token, "1,1 2,1 1,2", seat=0).json()["chosen"] == [0]
    after = move(client, created["id"], token, "5,5 4,5 5,4", seat=1).json()
    assert after["move_number"] == 1 and after["chosen"] == []


def test_an_unknown_game_page_says_so(client: TestClient) -> None:
    response = client.get("/play/nosuchgame1")
    assert response.status_code == 404 and "No such game" in response.text


def test_classic_life_for_two_runs_the_1978_program_at_one_screen(client: TestClient) -> None:
    refused = client.post("/api/games", json={"game": "life_for_two", "opponent": "online",
                                              "params": {"rules": "classic"}})
    assert refused.status_code == 400 and "one screen" in refused.json()["error"]
    created = create(client, "life_for_two", opponent="hotseat", params={"rules": "classic"})
    token = created["token"]
    assert "LIFE2" in view(client, created["id"], token)["display"]["text"]
    answers = ["1,1", "2,1", "1,2", "3,4", "4,4", "5,4", "3,2", "3,2"]
    for number, answer in enumerate(answers):
        state = view(client, created["id"], token)
        assert state["awaiting"] == [0 if number < 3 else 1 if number < 6 else number % 2]
        assert move(client, created["id"], token, answer).status_code == 200
    final = view(client, created["id"], token)
    assert final["outcome"]["winner"] == 0
    assert final["outcome"]["detail"] == "PLAYER 1 IS THE WINNER"
    assert "SAME COORD.  SET TO 0" in final["display"]["text"]
    assert move(client, created["id"], token, "1,1").status_code == 409
    # its records are Life for Two's, and replay the program's transcript
    for form in ("json", "text"):
        text = client.get(f"/api/games/{created['id']}/record?format={form}").text
        record = Record.load(text)
        assert (record.game, record.setup, record.moves) == ("life_for_two", "classic", answers)
        assert str(replay(record)) == final["display"]["text"]
    assert str(replay(record)).rstrip().endswith("PLAYER 1 IS THE WINNER")


def test_classic_life_for_two_is_a_live_game_of_the_program(client: TestClient) -> None:
    created = create(client, "life_for_two", opponent="hotseat", params={"rules": "classic"})
    game_id, token = created["id"], created["token"]
    first = view(client, game_id, token)
    assert first["game"] == "life_for_two" and first["title"] == "Life for Two (the 1978 program)"
    assert first["display"]["terminal"] is True and first["simultaneous"] is False
    assert first["legal"]["0"]["interaction"]["kind"] == "answer"
    assert first["legal"]["0"]["count"] == 25 and "1" not in first["legal"]
    assert "look away in turn" in first["move_help"]
    # a refused answer gets the program's words and changes nothing
    for text, status in (("three", 400), ("6,1", 400)):
        refused = move(client, game_id, token, text)
        assert refused.status_code == status
    assert move(client, game_id, token, "1, 1").status_code == 200
    refused = move(client, game_id, token, "1,1")
    assert refused.status_code == 422 and refused.json()["error"] == "ILLEGAL COORDS. RETYPE"
    assert move(client, game_id, token, "three").json()["error"] == "?REDO FROM START"
    now = view(client, game_id, token)
    assert now["moves"] == ["1,1"] and now["display"]["text"].count("? ") == 2
    assert now["display"]["text"].endswith("? 1,1\nX,Y\nXXXXXX\n$$$$$$\n&&&&&&\n? ")
    # an earlier position is the transcript as it stood
    before = client.get(f"/api/games/{game_id}/position?upto=0").json()
    assert before == {"text": first["display"]["text"], "terminal": True}


def test_a_classic_game_stored_in_the_earlier_form_opens(client: TestClient) -> None:
    """Games of the 1978 program stored before it was a state of Life for Two (game
    ``life_for_two_classic``, no setup, every line typed kept) open as Life for Two's
    classic rules, with the answers the program took."""
    from lifearena.web.store import GameRow

    server = client.app.state.server  # type: ignore[attr-defined]
    typed = ["1,1", "9,9", "2,1", "three", "1,2", "3,4", "4,4", "5,4", "3,2"]
    server.store.insert(GameRow("oldclassic1", "life_for_two_classic", {}, "",
                                {"kind": "hotseat"}, ["hot-token", "hot-token"], typed))
    old = view(client, "oldclassic1", "hot-token")
    assert old["moves"] == [t for t in typed if t not in ("9,9", "three")]
    assert old["awaiting"] == [1] and old["display"]["text"].count("? ") == 8
    stored = server.store.get("oldclassic1")  # upgraded in the store at its first load
    assert (stored.game, stored.setup, stored.moves) == ("life_for_two", "classic",
                                                          old["moves"])
    assert move(client, "oldclassic1", "hot-token", "3,2").status_code == 200
    assert view(client, "oldclassic1")["outcome"]["winner"] == 0
    finished = server.recent()["finished"]
    assert [(g["id"], g["title"]) for g in finished] == [("oldclassic1", "Life for Two")]


@pytest.mark.parametrize(("path", "bound"), [("/api/games", MAX_BODY),
                                              ("/api/lab/rle/read", MAX_LAB_BODY)])
def test_an_oversize_body_sent_in_chunks_is_refused_as_too_large(client: TestClient, path: str,
                                                                 bound: int) -> None:
    # no Content-Length: the body's own reader finds it too large, with the same status
    def chunks() -> Iterator[bytes]:
        yield b"{"
        yield b" " * bound
        yield b"}"

    response = client.post(path, content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert f"expected at most {bound}" in response.json()["error"]


def test_a_games_file_of_the_earlier_form_loads_and_plays(db) -> None:
    """Files written before invitations (no application id, no invites or cancelled
    columns, an online game holding both seats' tokens) are brought up to date in place."""
    import sqlite3

    from lifearena.web import Settings, create_app

    with sqlite3.connect(db) as old:
        old.execute("CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, params TEXT "
                    "NOT NULL, setup TEXT NOT NULL, opponent TEXT NOT NULL, tokens TEXT NOT "
                    "NULL, moves TEXT NOT NULL DEFAULT '[]', pending TEXT NOT NULL DEFAULT "
                    "'{}', created REAL NOT NULL, updated REAL NOT NULL)")
        old.execute("INSERT INTO games VALUES ('oldgame1', 'life_for_two', ?, ?, ?, ?, '[]', "
                    "'{}', 0, 0)", (json.dumps({"max_turns": None, "limit_result": "draw"}),
                                    "...../...../...../...../..... 1",
                                    json.dumps({"kind": "online"}),
                                    json.dumps(["first-seat-token", "second-seat-token"])))
    app = create_app(Settings(db, agent_workers="thread"))
    with TestClient(app, base_url="http://localhost") as client:
        assert view(client, "oldgame1", "first-seat-token")["seats"] == [0]
        assert not view(client, "oldgame1")["waiting_for_opponent"]
        assert move(client, "oldgame1", "first-seat-token", "1,1 1,2 2,2").status_code == 200
        after = move(client, "oldgame1", "second-seat-token", "5,5 5,4 4,5")
        assert after.json()["move_number"] == 1


def test_only_the_creator_sees_the_waiting_invitation_link(client: TestClient) -> None:
    created = create(client, "war_of_life", join=False)
    game_id = created["id"]
    assert view(client, game_id, created["token"])["invitation"]["link"] == (
        created["links"]["invite"])
    assert "link" not in view(client, game_id)["invitation"]
    claimed = claim(client, created).json()
    for token in (created["token"], claimed["token"], None):
        assert view(client, game_id, token)["invitation"] == {"seat": 1, "claimed": True}


def test_a_reopened_record_keeps_the_names_of_who_played_it(client: TestClient) -> None:
    record = Record("war_of_life", {}, QUICK_WAR, ["minimax", "bloodlust (easy)"],
                    ["[2,2,1,1]"])
    opened = client.post("/api/records", json={"record": record.to_json()})
    assert opened.status_code == 201, opened.text
    shown = view(client, opened.json()["id"], opened.json()["token"])
    assert shown["players"] == ["minimax", "bloodlust (easy)"]
    again = Record.from_json(client.get(f"/api/games/{opened.json()['id']}/record").text)
    assert again.players == ["minimax", "bloodlust (easy)"]
    long = Record("war_of_life", {}, QUICK_WAR, ["x" * 500, "two\nlines"], [])
    opened = client.post("/api/records", json={"record": long.to_json()})
    shown = view(client, opened.json()["id"], opened.json()["token"])
    assert shown["players"] == ["x" * 80, "two lines"]


@pytest.mark.parametrize(("text", "kind"), [
    ((b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))).decode("latin-1"),
     "PNG image"),
    ('[Game "war_of_life"]\n[Setup ""]\n\x00\x00\n1. [1,1,2,2]', "not text"),
], ids=["png-as-latin-1", "nuls"])
def test_a_binary_record_is_refused_in_one_line(client: TestClient, text: str,
                                                kind: str) -> None:
    response = client.post("/api/records", json={"record": text})
    assert response.status_code == 400, response.text
    assert response.json() == {"error": f"that is not a record: it is binary ({kind}); "
                                        "expected a JSON or text record"}
