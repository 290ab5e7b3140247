"""The lobby's open challenges: made, listed without secrets, accepted into a game that seats
both players with private tokens, cancelled, expired, bounded; bad input refused in one line;
and the lobby's socket (a snapshot, then only deltas, and the creator's private seat)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lifearena.web import Settings, create_app
from lifearena.web.limits import CreationRate
from lifearena.web.lobby import BATCH_EVERY, KEEP_CLOSED, Lobby, UnknownChallenge
from lifearena.web.models import NewChallenge

from .conftest import move, view

pytestmark = pytest.mark.timeout(60)

OWNER = "X-Challenge-Owner"


def challenge(client: TestClient, game: str = "blocking_queen", **extra: Any) -> dict:
    """Open a challenge; fail the test unless the server took it."""
    response = client.post("/api/challenges", json={"game": game, **extra})
    assert response.status_code == 201, response.text
    return dict(response.json())


def accept(client: TestClient, made: dict, owner: str | None = None) -> Any:
    headers = {OWNER: owner} if owner else {}
    return client.post(f"/api/challenges/{made['id']}/accept", json={}, headers=headers)


def listed(client: TestClient) -> list[str]:
    return [c["id"] for c in client.get("/api/challenges").json()["challenges"]]


def one_line_error(response: Any, status: int) -> str:
    """The error of a refusal, checked to be ``status`` and one line of JSON."""
    assert response.status_code == status, (response.status_code, response.text)
    error = response.json()["error"]
    assert isinstance(error, str) and error and "\n" not in error and len(error) < 300
    return str(error)


def test_a_challenge_is_listed_without_its_secret(client: TestClient) -> None:
    made = challenge(client, params={"k": 3}, colour=1)
    assert set(made) == {"id", "owner"}
    data = client.get("/api/challenges").json()
    assert abs(data["now"] - time.time()) < 60
    [shown] = data["challenges"]
    assert shown["id"] == made["id"] and shown["game"] == "blocking_queen"
    assert shown["title"] == "Blocking queen" and shown["params"] == {"k": 3}
    assert shown["colour"] == 1 and shown["clock"] is None
    assert shown["expires"] - shown["created"] == pytest.approx(1800)
    assert made["owner"] not in json.dumps(data)
    status = client.get(f"/api/challenges/{made['id']}").json()
    assert status["status"] == "open" and "token" not in status


def test_accepting_seats_both_players_each_with_a_private_token(client: TestClient) -> None:
    clock = {"kind": "live", "minutes": 5, "increment": 2}
    # a fixed start, where both seats have a move to play (a drawn one may end at once)
    made = challenge(client, colour=0, clock=clock, params={"seed": 1})
    # before it is accepted, the owner learns no game
    assert "token" not in client.get(f"/api/challenges/{made['id']}",
                                      headers={OWNER: made["owner"]}).json()
    response = accept(client, made)
    assert response.status_code == 200, response.text
    joined = response.json()
    assert joined["seat"] == 1 and joined["links"]["you"] == (
        f"/play/{joined['id']}#t={joined['token']}")
    # the creator's seat, told to its owner secret only
    status = client.get(f"/api/challenges/{made['id']}", headers={OWNER: made["owner"]}).json()
    assert status["status"] == "accepted" and status["game"] == joined["id"]
    assert status["seat"] == 0 and status["link"] == f"/play/{joined['id']}#t={status['token']}"
    assert status["token"] != joined["token"]
    public = client.get(f"/api/challenges/{made['id']}").json()
    assert public["status"] == "accepted" and status["token"] not in json.dumps(public)
    assert joined["token"] not in json.dumps(public)
    assert listed(client) == []
    # both seats are taken: nobody waits for an invitation, and each token is its seat's
    game_id = joined["id"]
    assert view(client, game_id, status["token"])["seats"] == [0]
    assert view(client, game_id, joined["token"])["seats"] == [1]
    shown = view(client, game_id)
    assert not shown["waiting_for_opponent"] and shown["invitation"] is None
    assert shown["opponent"]["kind"] == "online"
    row = client.app.state.server.store.get(game_id)  # type: ignore[attr-defined]
    assert row.opponent["clock"]["kind"] == "live" and row.opponent["clock"]["minutes"] == 5
    # each token moves its own seat only, and each plays a move
    tokens = {0: status["token"], 1: joined["token"]}
    moved = set()
    while moved != {0, 1}:
        [seat] = view(client, game_id)["awaiting"]
        text = view(client, game_id, tokens[seat])["legal"][str(seat)]["moves"][0]["move"]
        assert move(client, game_id, tokens[1 - seat], text).status_code == 409  # not its turn
        assert move(client, game_id, tokens[seat], text).status_code == 200
        moved.add(seat)


def test_a_random_colour_is_drawn_when_accepted(client: TestClient) -> None:
    seats = set()
    for _ in range(12):
        made = challenge(client)  # colour "random" by default
        joined = accept(client, made).json()
        mine = client.get(f"/api/challenges/{made['id']}", headers={OWNER: made["owner"]})
        assert mine.json()["seat"] == 1 - joined["seat"]
        seats.add(joined["seat"])
        if seats == {0, 1}:
            break
    assert seats == {0, 1}  # 12 draws of one colour happen once in 2,048 runs


def test_own_twice_cancelled_and_unknown_challenges_are_refused(client: TestClient) -> None:
    made = challenge(client)
    assert "own challenge" in one_line_error(accept(client, made, made["owner"]), 403)
    assert accept(client, made).status_code == 200
    assert "already accepted" in one_line_error(accept(client, made), 409)
    # cancelling needs the owner secret, and only an open challenge can be
    other = challenge(client)
    path = f"/api/challenges/{other['id']}/cancel"
    assert "owner" in one_line_error(client.post(path, json={}), 403)
    one_line_error(client.post(path, json={}, headers={OWNER: "not-the-owner"}), 403)
    assert listed(client) == [other["id"]]
    done = client.post(path, json={}, headers={OWNER: other["owner"]})
    assert done.status_code == 200 and done.json()["status"] == "cancelled"
    assert listed(client) == []
    assert "cancelled" in one_line_error(accept(client, other), 409)
    assert "cancelled" in one_line_error(client.post(path, json={},
                                                     headers={OWNER: other["owner"]}), 409)
    one_line_error(client.post(f"/api/challenges/{made['id']}/cancel", json={},
                               headers={OWNER: made["owner"]}), 409)
    for answer in (client.get("/api/challenges/nosuchone1"),
                   accept(client, {"id": "nosuchone1"})):
        assert "no challenge" in one_line_error(answer, 404)
    # a wrong owner secret learns nothing of an accepted challenge
    one_line_error(client.get(f"/api/challenges/{made['id']}", headers={OWNER: "nope"}), 403)


@pytest.mark.parametrize(("body", "fragment"), [
    ({"game": "chess"}, "unknown game"),
    ({"game": "blocking_queen", "params": {"k": 99}}, "k"),
    ({"game": "blocking_queen", "params": {"nope": 1}}, "nope"),
    ({"game": "life_for_two", "params": {"rules": "classic"}}, "one screen only"),
    ({"game": "war_of_life", "params": {"start": "prolog", "position": "[[1"}}, "bad setup"),
    ({"game": "blocking_queen", "colour": 2}, "colour"),
    ({"game": "blocking_queen", "colour": "blue"}, "colour"),
    ({"game": "blocking_queen", "colour": True}, "colour"),
    ({"game": "blocking_queen", "clock": {"kind": "live"}}, "clock"),
    ({"game": "blocking_queen", "clock": {"kind": "live", "minutes": 5, "days": 2}}, "clock"),
    ({"game": "blocking_queen", "clock": {"kind": "live", "minutes": 0.1}}, "0.1 minutes"),
    ({"game": "blocking_queen", "owner": "mine"}, "owner"),
    ({"params": {}}, "game"),
])
def test_bad_challenges_are_refused_in_one_line(client: TestClient, body: dict,
                                                fragment: str) -> None:
    error = one_line_error(client.post("/api/challenges", json=body), 400)
    assert fragment in error, error
    assert listed(client) == []


def test_bad_requests_about_challenges_are_refused_in_one_line(client: TestClient) -> None:
    made = challenge(client)
    for response in (
            client.post(f"/api/challenges/{made['id']}/accept", json={"seat": 0}),
            client.post(f"/api/challenges/{made['id']}/cancel", json={},
                        headers={OWNER: "x" * 200}),
            client.get(f"/api/challenges/{made['id']}", headers={OWNER: "x" * 200})):
        one_line_error(response, 400)
    assert listed(client) == [made["id"]]


def test_open_challenges_are_bounded_per_address_and_in_all(client: TestClient) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    made = [challenge(client) for _ in range(lobby.per_address)]
    assert "open challenges from this address" in one_line_error(
        client.post("/api/challenges", json={"game": "losat"}), 429)
    # a cancelled one frees its place
    client.post(f"/api/challenges/{made[0]['id']}/cancel", json={},
                headers={OWNER: made[0]["owner"]})
    challenge(client)
    lobby.max_open = len(lobby.open)
    lobby.per_address = 100
    assert "on this server" in one_line_error(
        client.post("/api/challenges", json={"game": "losat"}), 429)
    assert len(listed(client)) == lobby.max_open


def test_challenges_made_per_minute_are_bounded(db: Path) -> None:
    app = create_app(Settings(db, agent_workers="thread", creates_per_minute=3))
    with TestClient(app, base_url="http://localhost") as client:
        for _ in range(3):
            made = challenge(client)
            client.post(f"/api/challenges/{made['id']}/cancel", json={},
                        headers={OWNER: made["owner"]})
        assert "in the last minute" in one_line_error(
            client.post("/api/challenges", json={"game": "losat"}), 429)


def test_the_lobby_sweeps_expired_challenges_and_forgets_closed_ones() -> None:
    now = [1000.0]
    lobby = Lobby(expiry=60, clock=lambda: now[0])
    old = lobby.create(NewChallenge(game="losat"), "a")
    now[0] += 30
    young = lobby.create(NewChallenge(game="losat"), "a")
    now[0] += 30
    assert lobby.sweep() == 1
    assert [c["id"] for c in lobby.listing()["challenges"]] == [young["id"]]
    assert lobby.status(old["id"], old["owner"])["status"] == "expired"
    assert lobby.addresses == {"a": 1}
    now[0] += KEEP_CLOSED
    assert lobby.sweep() == 1
    with pytest.raises(UnknownChallenge):
        lobby.get(old["id"])
    assert lobby.status(young["id"], None)["status"] == "expired"
    assert old["owner"] not in lobby.owners


# -- the socket ------------------------------------------------------------------------------

LOBBY_WS = "ws://localhost/ws/lobby"


class LobbyPage:
    """A lobby socket read one message at a time, and the changes of a ``changes`` message
    (the lobby batches them) one by one, in order."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.queued: list[dict] = []
        self.batches = 0

    def receive_json(self) -> dict:
        if not self.queued:
            message = self.socket.receive_json()
            if message.get("type") != "changes":
                return dict(message)
            assert message["changes"], "an empty batch of changes"
            self.batches += 1
            self.queued = list(message["changes"])
        return self.queued.pop(0)

    def send_text(self, text: str) -> None:
        self.socket.send_text(text)


@contextlib.contextmanager
def lobby_page(client: TestClient) -> Iterator[LobbyPage]:
    """A page of the lobby (its socket) of ``client``'s server."""
    with client.websocket_connect(LOBBY_WS) as socket:
        yield LobbyPage(socket)


def until(socket: Any, kind: str) -> dict:
    """Read the socket's messages until one of type ``kind`` comes (at most 50)."""
    for _ in range(50):
        message = socket.receive_json()
        if message["type"] == kind:
            return dict(message)
    raise AssertionError(f"no {kind} message came")


def test_the_socket_sends_a_snapshot_then_deltas(client: TestClient) -> None:
    before = challenge(client, game="losat", colour=1)
    with lobby_page(client) as page:
        snapshot = page.receive_json()
        assert snapshot["type"] == "snapshot" and abs(snapshot["now"] - time.time()) < 60
        assert [c["id"] for c in snapshot["challenges"]] == [before["id"]]
        assert before["owner"] not in json.dumps(snapshot)
        made = challenge(client, game="p2life", colour=0)
        added = page.receive_json()
        assert added["type"] == "challenge-added"
        assert added["challenge"]["id"] == made["id"] and added["challenge"]["game"] == "p2life"
        assert made["owner"] not in json.dumps(added)
        client.post(f"/api/challenges/{before['id']}/cancel", json={},
                    headers={OWNER: before["owner"]})
        assert page.receive_json() == {"type": "challenge-removed", "id": before["id"],
                                       "reason": "cancelled"}
        joined = accept(client, made).json()
        removed = page.receive_json()
        assert removed == {"type": "challenge-removed", "id": made["id"], "reason": "accepted"}
        # a page that named no owner never hears the creator's token
        page.send_text(json.dumps({"type": "ping"}))
        page.send_text(json.dumps({"type": "hello", "owners": []}))
        assert page.receive_json() == {"type": "mine", "ids": []}
        assert joined["token"] not in json.dumps(snapshot)


def test_the_creators_page_is_told_its_seat_and_no_other_page_is(client: TestClient) -> None:
    with lobby_page(client) as creator, \
            lobby_page(client) as other:
        assert creator.receive_json()["type"] == other.receive_json()["type"] == "snapshot"
        made = challenge(client, colour=1)
        assert creator.receive_json()["type"] == other.receive_json()["type"] == (
            "challenge-added")
        creator.send_text(json.dumps({"type": "hello", "owners": [made["owner"], "stale1"]}))
        assert creator.receive_json() == {"type": "mine", "ids": [made["id"]]}
        joined = accept(client, made).json()
        seated = until(creator, "seated")
        assert seated["challenge"] == made["id"] and seated["game"] == joined["id"]
        assert seated["seat"] == 1 and joined["seat"] == 0
        assert seated["link"] == f"/play/{joined['id']}#t={seated['token']}"
        assert view(client, joined["id"], seated["token"])["seats"] == [1]
        assert other.receive_json() == {"type": "challenge-removed", "id": made["id"],
                                        "reason": "accepted"}
        # a page reopened after the acceptance learns its seat from its hello
        with lobby_page(client) as again:
            assert again.receive_json()["type"] == "snapshot"
            again.send_text(json.dumps({"type": "hello", "owners": [made["owner"]]}))
            assert again.receive_json() == seated
            assert again.receive_json() == {"type": "mine", "ids": []}
        # the other page asks on: it never got a seated message
        other.send_text(json.dumps({"type": "hello", "owners": []}))
        assert other.receive_json() == {"type": "mine", "ids": []}


def test_bad_socket_messages_are_one_line_errors(client: TestClient) -> None:
    with lobby_page(client) as page:
        page.receive_json()
        for text, fragment in (("{nope", "not JSON"), ("[1]", "JSON object"),
                               (json.dumps({"type": "move", "move": "x", "ply": 0}), "tag"),
                               (json.dumps({"type": "hello", "owners": ["x"] * 17}), "owners"),
                               ("x" * 5000, "at most")):
            page.send_text(text)
            error = page.receive_json()
            assert error["type"] == "error" and error["status"] == 400
            assert fragment in error["error"] and "\n" not in error["error"], error


_FIELD = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=70),
                   st.lists(st.one_of(st.text(max_size=70), st.integers()), max_size=20))
_MESSAGE = st.one_of(
    st.text(max_size=60),
    st.fixed_dictionaries({"type": st.sampled_from(["hello", "ping", "move", "x", 1])},
                          optional={"owners": _FIELD, "token": _FIELD}).map(json.dumps))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(messages=st.lists(_MESSAGE, min_size=1, max_size=5))
def test_no_lobby_message_breaks_the_lobby_socket(client: TestClient,
                                                  messages: list[str]) -> None:
    with lobby_page(client) as page:
        assert page.receive_json()["type"] == "snapshot"
        for text in messages:
            page.send_text(text)
            # the probe after each message proves the socket still answers: a hello the
            # lobby takes is answered "mine", anything else a one-line 400
            page.send_text(json.dumps({"type": "hello", "owners": ["probe"]}))
            expected = 1 + _said_hello(text)
            while expected:
                answer = page.receive_json()
                if answer["type"] == "mine":
                    expected -= 1
                else:
                    assert answer["type"] == "error", answer
                    assert answer["status"] == 400 and "\n" not in answer["error"]


def _said_hello(text: str) -> bool:
    """Whether ``text`` is a hello the lobby takes (answered with its own ``mine``)."""
    try:
        data = json.loads(text)
    except ValueError:
        return False
    if not isinstance(data, dict) or data.get("type") != "hello":
        return False
    owners = data.get("owners", [])
    return (set(data) <= {"type", "owners"} and isinstance(owners, list) and len(owners) <= 16
            and all(isinstance(o, str) and 1 <= len(o) <= 64 for o in owners))


@pytest.fixture
def quick(db: Path) -> Iterator[TestClient]:
    """A server whose challenges expire after 0.3 s."""
    app = create_app(Settings(db, agent_workers="thread", challenge_expiry=0.3))
    with TestClient(app, base_url="http://localhost") as test_client:
        yield test_client


def test_an_expired_challenge_leaves_every_list(quick: TestClient) -> None:
    with lobby_page(quick) as page:
        page.receive_json()
        made = challenge(quick)
        assert page.receive_json()["type"] == "challenge-added"
        # the sweeper's message is the condition waited for (the test's timeout bounds it)
        assert page.receive_json() == {"type": "challenge-removed", "id": made["id"],
                                       "reason": "expired"}
    assert listed(quick) == []
    assert "expired" in one_line_error(accept(quick, made), 409)
    assert quick.get(f"/api/challenges/{made['id']}").json()["status"] == "expired"


def test_lobby_sockets_count_under_the_servers_socket_bounds(client: TestClient) -> None:
    server = client.app.state.server  # type: ignore[attr-defined]
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    lobby.max_watchers = 1
    with lobby_page(client) as first:
        assert first.receive_json()["type"] == "snapshot"
        with lobby_page(client) as second:
            refused = second.receive_json()
            assert refused["type"] == "error" and refused["status"] == 429
    # closed pages give their places back
    deadline = time.monotonic() + 10
    while server.socket_counts.total and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.socket_counts.total == 0 and not lobby.watchers


class RecordingPage:
    """A lobby page that keeps what it is offered (an outbox that never fills)."""

    closed = False

    def __init__(self) -> None:
        self.offered: list[str] = []

    def offer(self, message: str) -> None:
        self.offered.append(message)


def test_a_burst_of_changes_reaches_each_page_as_one_message() -> None:
    async def burst() -> list[dict]:
        lobby = Lobby(creations=CreationRate(1_000))
        page = RecordingPage()
        lobby.watch(page)  # type: ignore[arg-type]
        made = [lobby.create(NewChallenge(game="blocking_queen", colour=0),
                             f"203.0.113.{number // 5}") for number in range(100)]
        lobby.cancel(made[0]["id"], made[0]["owner"])
        deadline = time.monotonic() + 10 * BATCH_EVERY + 5
        while len(page.offered) < 2 and time.monotonic() < deadline:
            await asyncio.sleep(BATCH_EVERY / 5)  # polls for the batch, bounded above
        return [json.loads(text) for text in page.offered]

    snapshot, *batches = asyncio.run(burst())
    assert snapshot["type"] == "snapshot" and snapshot["challenges"] == []
    assert len(batches) == 1 and batches[0]["type"] == "changes"
    changes = batches[0]["changes"]
    assert [c["type"] for c in changes] == ["challenge-added"] * 100 + ["challenge-removed"]
    assert changes[-1]["id"] == changes[0]["challenge"]["id"]
