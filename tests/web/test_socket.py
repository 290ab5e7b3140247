"""The WebSocket: pushes after every change, hidden simultaneous choices, agents off the event
loop, bounds, and a restart that loses nothing."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from lifearena.agents import Agent, Limit, register_agent
from lifearena.core import State
from lifearena.web import Settings, catalog, create_app
from lifearena.web.app import MAX_WS_MESSAGE

from .conftest import connect, create, move, move_message, tokens_of, view


def receive_until(socket: Any, done: Any, seen: list[dict]) -> dict:
    """Read messages (keeping each in ``seen``) until one satisfies ``done``."""
    for _ in range(50):
        message = socket.receive_json()
        seen.append(message)
        if done(message):
            return message
    raise AssertionError("the expected message never came")


def test_socket_pushes_each_move_to_both_seats_and_spectators(client: TestClient) -> None:
    created = create(client, "war_of_life", params={"start": "random", "seed": 11})
    blue, red = tokens_of(created)
    game_id = created["id"]
    with connect(client, game_id, blue) as b, connect(client, game_id, red) as r, \
            connect(client, game_id) as spectator:
        first = b.receive_json()
        assert first["seats"] == [0] and r.receive_json()["seats"] == [1]
        assert spectator.receive_json()["seats"] == []
        text = first["legal"]["0"]["moves"][0]["move"]
        b.send_text(move_message(text, 0))
        for socket in (b, r, spectator):
            assert socket.receive_json()["moves"] == [text]


def test_socket_refusals_are_one_line_errors(client: TestClient) -> None:
    created = create(client, "war_of_life", params={"start": "random", "seed": 11})
    _, red = tokens_of(created)
    with connect(client, created["id"], red) as socket:
        socket.receive_json()
        for message, fragment in [
            ("x" * (MAX_WS_MESSAGE + 1), "at most"),
            ("{nope", "not JSON"),
            ("[" * 2000 + "]" * 2000, "nested deeper"),
            ("[1, 2]", "JSON object"),
            (json.dumps({"type": "shout"}), "type"),
            (move_message("[1,1,1,2]", 0), "not r's turn"),
            (json.dumps({"type": "move", "move": 12, "ply": 0}), "move: Input should be a "
             "valid string"),
            (move_message("[1,1,1,2]", 0, seat=0.0), "seat: Input should be a valid integer"),
            (move_message("[1,1,1,2]", 0, seat=True), "seat: Input should be a valid integer"),
            (move_message("[1,1,1,2]", 0, seat="1"), "seat: Input should be a valid integer"),
            (json.dumps({"type": "move", "move": "x"}), "ply: Field required"),
            ('{"type": "move", "move": "x", "ply": ' + "9" * 4000 + "}", "number of"),
        ]:
            socket.send_text(message)
            answer = socket.receive_json()
            assert answer["type"] == "error" and fragment in answer["error"], answer
        socket.send_bytes(b"\x00\x01")
        assert "binary" in socket.receive_json()["error"]
    assert view(client, created["id"])["moves"] == []
    with connect(client, created["id"], "wrong-token") as socket:
        refused = socket.receive_json()
        assert refused["type"] == "error" and refused["status"] == 403


@pytest.mark.parametrize(("game", "first", "second"), [
    ("life_for_two", "3,4 3,3 4,3", "5,5 4,5 5,4"),
    ("p2life", None, None),
])
def test_a_pending_choice_reaches_no_one_else(client: TestClient, game: str,
                                              first: str | None, second: str | None) -> None:
    created = create(client, game, params={"size": 8, "seed": 2} if game == "p2life" else {})
    seat0, seat1 = tokens_of(created)
    game_id = created["id"]
    seen_by_others: list[dict] = []
    with connect(client, game_id, seat0) as s0, connect(client, game_id, seat1) as s1, \
            connect(client, game_id) as spectator:
        start = s0.receive_json()
        seen_by_others += [s1.receive_json(), spectator.receive_json()]
        if first is None:  # p2life: place on the first empty cell
            cells = start["display"]["grid"]["cells"]
            r, c = next((r, c) for r, row in enumerate(cells) for c, v in enumerate(row) if not v)
            first, second = f"+{c + 1},{r + 1}", "pass"
        s0.send_text(move_message(first, 0))
        mine = receive_until(s0, lambda m: m.get("chosen") == [0], [])
        secret = next(iter(mine["mine"].values()))
        receive_until(s1, lambda m: m.get("chosen") == [0], seen_by_others)
        receive_until(spectator, lambda m: m.get("chosen") == [0], seen_by_others)
        seen_by_others.append(view(client, game_id, seat1))
        seen_by_others.append(view(client, game_id))
        refused = move(client, game_id, seat1, "not a move")
        seen_by_others.append(refused.json())
        record = client.get(f"/api/games/{game_id}/record").text
        seen_by_others.append({"record": record})
        for message in seen_by_others:
            # the other seat's own legal moves may name the same cell: not a leak
            text = json.dumps({k: v for k, v in message.items() if k != "legal"})
            assert secret not in text, message
            assert message.get("mine", {}) == {}
            if "display" in message:
                assert message["display"] == start["display"]
        s1.send_text(move_message(second, 0))
        revealed = receive_until(spectator, lambda m: m.get("move_number") == 1, [])
        assert secret in revealed["moves"][0] and revealed["chosen"] == []


def test_a_new_server_on_the_same_file_resumes_every_game(db: Path) -> None:
    settings = Settings(db, agent_workers="thread")
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        created = create(client, "losat", params={"width": 9, "length": 13})
        black, white = tokens_of(created)
        for token in (black, white, black):
            legal = view(client, created["id"], token)["legal"]
            text = next(iter(legal.values()))["moves"][0]["move"]
            assert move(client, created["id"], token, text).status_code == 200
        pending = create(client, "life_for_two")
        p0, p1 = tokens_of(pending)
        assert move(client, pending["id"], p0, "1,1 2,1 1,2").status_code == 200
        before = view(client, created["id"], white)
        before_pending = view(client, pending["id"], p0)
    with TestClient(create_app(settings), base_url="http://localhost") as client:
        after = view(client, created["id"], white)
        assert after == before
        assert view(client, pending["id"], p0)["mine"] == before_pending["mine"]
        assert move(client, pending["id"], p1, "5,5 4,5 5,4").json()["move_number"] == 1


def _wait(client: TestClient, game_id: str, token: str, done: Any) -> dict:
    for _ in range(200):
        state = view(client, game_id, token)
        if done(state):
            return state
        time.sleep(0.05)
    raise AssertionError("the agent never moved")


@pytest.mark.parametrize("game", ["war_of_life", "life_for_two", "losat", "p2life",
                                  "blocking_queen"])
def test_the_agent_answers_every_game(client: TestClient, game: str) -> None:
    params = {"width": 9, "length": 13} if game == "losat" else {}
    created = create(client, game, opponent="agent", level="random", side=1, params=params)
    token = created["token"]
    state = _wait(client, created["id"], token, lambda s: 1 in s["awaiting"] or s["outcome"])
    # the agent moved; a random queen can also win at once (to 1,0 or 0,1, blocking 0,0)
    assert state["players"][0] == "random"
    assert state["outcome"] or state["legal"]["1"]["count"] > 0
    assert state["mine"] == {}


class SleepyAgent(Agent):
    """Thinks for half a second, then plays the first legal move."""

    name = "sleepy"

    def act(self, state: State, player: int, limit: Limit | None = None) -> int:
        time.sleep(0.5)
        return state.legal_actions(player)[0]


@register_agent("sleepy", game="war_of_life")
def _make_sleepy(game: str | None = None, seed: int | None = 0, **options: object) -> Agent:
    return SleepyAgent()


def test_an_agent_thinking_never_delays_another_game(client: TestClient,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    levels = dict(catalog.CATALOG["war_of_life"].levels)
    levels["easy"] = ("sleepy", None)
    entry = catalog.CATALOG["war_of_life"]
    monkeypatch.setitem(catalog.CATALOG, "war_of_life",
                        dataclasses.replace(entry, levels=levels))
    slow = create(client, "war_of_life", opponent="agent", level="easy", side=1)
    assert view(client, slow["id"], slow["token"])["thinking"]
    other = create(client, "war_of_life")
    blue, _ = tokens_of(other)
    text = view(client, other["id"], blue)["legal"]["0"]["moves"][0]["move"]
    started = time.perf_counter()
    assert move(client, other["id"], blue, text).status_code == 200
    assert time.perf_counter() - started < 0.3
    assert view(client, slow["id"], slow["token"])["thinking"]
    _wait(client, slow["id"], slow["token"], lambda s: s["move_number"] == 1)


class BrokenAgent(Agent):
    """Always fails."""

    name = "broken"

    def act(self, state: State, player: int, limit: Limit | None = None) -> int:
        raise RuntimeError("no move today")


@register_agent("broken", game="blocking_queen")
def _make_broken(game: str | None = None, seed: int | None = 0, **options: object) -> Agent:
    return BrokenAgent()


def test_a_failing_agent_is_reported_not_hidden(client: TestClient,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    entry = catalog.CATALOG["blocking_queen"]
    levels = {**entry.levels, "easy": ("broken", None)}
    monkeypatch.setitem(catalog.CATALOG, "blocking_queen",
                        dataclasses.replace(entry, levels=levels))
    created = create(client, "blocking_queen", opponent="agent", level="easy", side=1)
    state = _wait(client, created["id"], created["token"], lambda s: s["agent_error"])
    assert "no move today" in state["agent_error"] and state["moves"] == []
