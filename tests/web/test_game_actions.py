"""Resignation, draw offers, rematches, takebacks and presence, over HTTP and the socket."""

from __future__ import annotations

import json
import time
from typing import Any

from fastapi.testclient import TestClient

from lifearena.core import Record
from lifearena.web.rooms.presence import PRESENCE_DELAY

from .conftest import connect, create, move, tokens_of, view, wait_until

WAR = {"start": "random", "seed": 11}


def act(client: TestClient, game_id: str, what: str, token: str | None,
        **body: Any) -> Any:
    """POST /api/games/{id}/{what} as the holder of ``token`` (none: a spectator)."""
    headers = {"X-Seat-Token": token} if token else {}
    return client.post(f"/api/games/{game_id}/{what}", json=body, headers=headers)


def first_legal(client: TestClient, game_id: str, token: str) -> str:
    """The first legal move of the seat ``token`` holds (it must be that seat's turn)."""
    legal = view(client, game_id, token)["legal"]
    return next(iter(legal.values()))["moves"][0]["move"]


def play_one(client: TestClient, game_id: str, token: str) -> None:
    response = move(client, game_id, token, first_legal(client, game_id, token))
    assert response.status_code == 200, response.text



def one_line_error(response: Any, status: int, fragment: str) -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert "\n" not in error and fragment in error, error


def test_a_resignation_ends_the_game_for_the_other_side(client: TestClient) -> None:
    created = create(client, "war_of_life", params=WAR)
    blue, red = tokens_of(created)
    game_id = created["id"]
    one_line_error(act(client, game_id, "resign", None), 403, "spectators")
    done = act(client, game_id, "resign", red)
    assert done.status_code == 200, done.text
    outcome = done.json()["outcome"]
    assert outcome["winner"] == 0 and outcome["termination"] == "resign"
    assert done.json()["awaiting"] == []
    one_line_error(move(client, game_id, blue, "[1,1,1,2]"), 409, "the game is over")
    one_line_error(act(client, game_id, "resign", blue), 409, "over")
    record = Record.from_json(client.get(f"/api/games/{game_id}/record").text)
    assert record.outcome_value().termination.value == "resign"
    assert record.outcome_value().winner == 0
    listed = client.get("/api/games").json()
    assert game_id in [g["id"] for g in listed["finished"]]
    assert game_id not in [g["id"] for g in listed["games"]]


def test_at_one_screen_the_side_to_move_resigns(client: TestClient) -> None:
    created = create(client, "war_of_life", "hotseat", params=WAR)
    token = created["token"]
    play_one(client, created["id"], token)  # blue moved: red is to move
    resigned = act(client, created["id"], "resign", token).json()
    assert resigned["outcome"]["winner"] == 0


def test_a_draw_offer_is_declined_then_accepted(client: TestClient) -> None:
    created = create(client, "war_of_life", params=WAR)
    blue, red = tokens_of(created)
    game_id = created["id"]
    offered = act(client, game_id, "draw", blue, action="offer").json()
    assert offered["offers"]["draw"] == 0 and offered["outcome"] is None
    one_line_error(act(client, game_id, "draw", blue, action="accept"), 409, "no draw offer")
    one_line_error(act(client, game_id, "draw", blue, action="offer"), 409, "already offered")
    one_line_error(act(client, game_id, "draw", None, action="accept"), 403, "spectators")
    declined = act(client, game_id, "draw", red, action="decline").json()
    assert declined["offers"]["draw"] is None and declined["outcome"] is None
    # the maker's page is told who declined
    assert view(client, game_id, blue)["offers"]["draw_declined"] == 1
    renewed = act(client, game_id, "draw", red, action="offer").json()
    assert renewed["offers"]["draw_declined"] is None
    agreed = act(client, game_id, "draw", blue, action="accept").json()
    assert agreed["outcome"]["winner"] is None
    assert agreed["outcome"]["termination"] == "agreed"
    one_line_error(act(client, game_id, "draw", red, action="offer"), 409, "over")


def test_a_draw_offer_lapses_when_the_makers_opponent_moves(client: TestClient) -> None:
    created = create(client, "war_of_life", params=WAR)
    blue, red = tokens_of(created)
    game_id = created["id"]
    act(client, game_id, "draw", blue, action="offer")
    play_one(client, game_id, blue)  # its maker's own move: the offer stands
    assert view(client, game_id)["offers"]["draw"] == 0
    play_one(client, game_id, red)
    assert view(client, game_id)["offers"]["draw"] is None
    one_line_error(act(client, game_id, "draw", red, action="accept"), 409, "no draw offer")


def test_draw_offers_are_refused_where_they_do_not_apply(client: TestClient) -> None:
    both = create(client, "life_for_two")
    one_line_error(act(client, both["id"], "draw", both["tokens"][0], action="offer"), 409,
                   "simultaneous")
    bad = act(client, both["id"], "draw", both["tokens"][0], action="maybe")
    assert bad.status_code == 400 and "action" in bad.json()["error"]
    agent = create(client, "war_of_life", "agent", params=WAR, level="random")
    answered = act(client, agent["id"], "draw", agent["token"], action="offer").json()
    assert answered["offers"]["draw"] is None and answered["offers"]["draw_declined"] == 1
    assert answered["outcome"] is None


def test_an_online_rematch_gives_each_seat_its_own_link(client: TestClient) -> None:
    created = create(client, "war_of_life", params=WAR)
    blue, red = tokens_of(created)
    game_id = created["id"]
    one_line_error(act(client, game_id, "rematch", blue, action="offer"), 409, "over")
    act(client, game_id, "resign", blue)
    one_line_error(act(client, game_id, "rematch", None, action="offer"), 403, "spectators")
    offered = act(client, game_id, "rematch", blue, action="offer").json()
    assert offered["offers"]["rematch"] == 0 and offered["rematch"] is None
    one_line_error(act(client, game_id, "rematch", blue, action="accept"), 409, "no rematch")
    accepted = act(client, game_id, "rematch", red, action="accept").json()
    new_id = accepted["rematch"]["id"]
    seen = {token: view(client, game_id, token) for token in (blue, red)}
    watcher = view(client, game_id)
    assert watcher["rematch"] == {"id": new_id, "link": f"/play/{new_id}"}
    new_tokens = {}
    for token, seen_view in seen.items():
        link = seen_view["rematch"]["link"]
        assert link.startswith(f"/play/{new_id}#t=")
        new_tokens[token] = link.split("#t=")[1]
    assert new_tokens[blue] != new_tokens[red]
    # each page's view names its own new token only
    assert new_tokens[red] not in json.dumps(seen[blue])
    assert new_tokens[blue] not in json.dumps(seen[red])
    assert not any(t in json.dumps(watcher) for t in new_tokens.values())
    # colours swapped: the old blue plays red
    assert view(client, new_id, new_tokens[blue])["seats"] == [1]
    assert view(client, new_id, new_tokens[red])["seats"] == [0]
    fresh = view(client, new_id)
    assert fresh["outcome"] is None and fresh["params"] == view(client, game_id)["params"]
    assert fresh["setup"] == watcher["setup"]
    one_line_error(act(client, game_id, "rematch", red, action="offer"), 409, "already")


def test_a_declined_rematch_can_be_offered_again(client: TestClient) -> None:
    created = create(client, "war_of_life", params=WAR)
    blue, red = tokens_of(created)
    act(client, created["id"], "resign", red)
    act(client, created["id"], "rematch", red, action="offer")
    declined = act(client, created["id"], "rematch", blue, action="decline").json()
    assert declined["offers"]["rematch"] is None and declined["rematch"] is None
    assert view(client, created["id"], red)["offers"]["rematch_declined"] == 0
    again = act(client, created["id"], "rematch", blue, action="offer").json()
    assert again["offers"]["rematch"] == 0 and again["offers"]["rematch_declined"] is None


def test_a_rematch_against_an_agent_starts_at_once_with_the_seats_swapped(
        client: TestClient) -> None:
    created = create(client, "war_of_life", "agent", params=WAR, level="random")
    act(client, created["id"], "resign", created["token"])
    made = act(client, created["id"], "rematch", created["token"], action="offer").json()
    link = made["rematch"]["link"]
    new_id, token = made["rematch"]["id"], link.split("#t=")[1]
    fresh = view(client, new_id, token)
    assert fresh["seats"] == [1] and fresh["opponent"]["agent_seat"] == 0
    assert fresh["opponent"]["level"] == "random"
    # the agent moves first in the rematch
    wait_until(lambda: view(client, new_id)["moves"])


def test_a_hot_seat_rematch_keeps_one_link_for_both_seats(client: TestClient) -> None:
    created = create(client, "blocking_queen", "hotseat", params={"k": 2})
    act(client, created["id"], "resign", created["token"])
    made = act(client, created["id"], "rematch", created["token"], action="offer").json()
    token = made["rematch"]["link"].split("#t=")[1]
    assert view(client, made["rematch"]["id"], token)["seats"] == [0, 1]


def test_a_takeback_undoes_the_persons_move_and_the_agents_reply(client: TestClient) -> None:
    created = create(client, "war_of_life", "agent", params=WAR, level="random")
    game_id, token = created["id"], created["token"]
    one_line_error(act(client, game_id, "takeback", token), 409, "nothing to take back")
    assert view(client, game_id, token)["can_take_back"] is False
    play_one(client, game_id, token)
    replied = wait_until(lambda: len(view(client, game_id, token)["moves"]) == 2
                       and view(client, game_id, token))
    assert replied["can_take_back"] is True
    one_line_error(act(client, game_id, "takeback", None), 403, "spectators")
    with connect(client, game_id) as watcher:
        assert len(watcher.receive_json()["moves"]) == 2
        undone = act(client, game_id, "takeback", token)
        assert undone.status_code == 200, undone.text
        assert undone.json()["moves"] == [] and undone.json()["awaiting"] == [0]
        assert watcher.receive_json()["moves"] == []  # told
    play_one(client, game_id, token)  # and play goes on from there
    wait_until(lambda: len(view(client, game_id)["moves"]) == 2)


def test_takebacks_are_refused_outside_untimed_agent_games(client: TestClient) -> None:
    online = create(client, "war_of_life", params=WAR)
    blue, _ = tokens_of(online)
    play_one(client, online["id"], blue)
    one_line_error(act(client, online["id"], "takeback", blue), 409, "against an agent")
    timed = create(client, "war_of_life", "agent", params=WAR, level="random",
                   clock={"kind": "live", "minutes": 5, "increment": 0})
    play_one(client, timed["id"], timed["token"])
    one_line_error(act(client, timed["id"], "takeback", timed["token"]), 409, "clock")


def test_the_socket_takes_the_same_requests(client: TestClient) -> None:
    created = create(client, "war_of_life", params=WAR)
    blue, red = tokens_of(created)
    game_id = created["id"]
    with connect(client, game_id, blue) as b, connect(client, game_id) as spectator:
        b.receive_json()
        spectator.receive_json()
        spectator.send_text(json.dumps({"type": "resign"}))
        refused = spectator.receive_json()
        assert refused["type"] == "error" and refused["status"] == 403
        b.send_text(json.dumps({"type": "draw", "action": "now"}))
        bad = b.receive_json()
        assert bad["type"] == "error" and bad["status"] == 400 and "action" in bad["error"]
        b.send_text(json.dumps({"type": "draw", "action": "offer"}))
        seen = b.receive_json()
        while seen.get("offers", {}).get("draw") != 0:  # a presence message may come first
            seen = b.receive_json()
        b.send_text(json.dumps({"type": "resign"}))
        ended = b.receive_json()
        while ended.get("outcome") is None:
            ended = b.receive_json()
        assert ended["outcome"]["winner"] == 1
        b.send_text(json.dumps({"type": "takeback"}))
        assert b.receive_json()["status"] == 409
        b.send_text(json.dumps({"type": "rematch", "action": "offer"}))
        offered = b.receive_json()
        while offered.get("offers", {}).get("rematch") != 0:
            offered = b.receive_json()
    assert view(client, game_id, red)["offers"]["rematch"] == 0


def until(socket: Any, done: Any, most: int = 20) -> dict:
    """The first message of ``socket`` that satisfies ``done`` (within ``most`` messages)."""
    for _ in range(most):
        message = socket.receive_json()
        if done(message):
            return message
    raise AssertionError("the expected message never came")


def test_pages_are_told_who_has_the_game_open(client: TestClient) -> None:
    created = create(client, "war_of_life", params=WAR)
    blue, red = tokens_of(created)
    game_id = created["id"]
    with connect(client, game_id, blue) as b:
        assert b.receive_json()["connected"] == [True, False]
        with connect(client, game_id, red) as r:
            assert r.receive_json()["connected"] == [True, True]
            until(b, lambda m: m.get("connected") == [True, True])
        until(b, lambda m: m.get("connected") == [True, False])
    # spectators count for nobody
    with connect(client, game_id) as watcher:
        assert watcher.receive_json()["connected"] == [False, False]


def test_reconnecting_pages_make_few_presence_messages(client: TestClient) -> None:
    created = create(client, "war_of_life", params=WAR)
    blue, red = tokens_of(created)
    game_id = created["id"]
    with connect(client, game_id, blue) as b:
        b.receive_json()
        began = time.monotonic()
        for _ in range(20):
            with connect(client, game_id, red) as r:
                r.receive_json()
        # one move after the storm: every message before it is a presence message
        play_one(client, game_id, blue)
        took = time.monotonic() - began
        count = 0
        while not b.receive_json().get("moves"):
            count += 1
        # at most one message per PRESENCE_DELAY, not one per page opened or closed (40)
        assert count <= 2 + took / PRESENCE_DELAY, (count, took)
        assert count < 40
