"""Several replicas of ``lifearena serve`` as one site: real processes over one PostgreSQL
database and one Redis (``--db postgresql://... --broker redis://...``).

One module-scoped cluster of two replicas serves every test (their start is the costly
part); the tests that break something run last: Redis restarted mid-game, then a replica
killed with SIGKILL (after which only one replica is left)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from brokers import RedisServer, free_port, need_redis_py, own_redis, redis_program
from databases import fresh_postgres
from lifearena.web.lanes import lane_of
from lifearena.web.nginx import site_config, standalone_config
from lifearena.web.refusals import TurnError
from lifearena.web.store import FencedOut, GameRow, Store

from .conftest import wait_until

websockets_sync = pytest.importorskip("websockets.sync.client")

LASTING = {"seed": 4}
"""A War of Life start that its first legal moves play for ten plies without an end."""


@dataclass
class Replica:
    """One ``lifearena serve`` process of the cluster."""

    name: str
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def get(self, path: str, token: str | None = None) -> httpx.Response:
        headers = {"X-Seat-Token": token} if token else {}
        return httpx.get(self.url + path, headers=headers, timeout=15)

    def post(self, path: str, body: dict[str, Any], token: str | None = None
             ) -> httpx.Response:
        headers = {"X-Seat-Token": token} if token else {}
        return httpx.post(self.url + path, json=body, headers=headers, timeout=15)

    def answers(self) -> bool:
        try:
            return self.get("/api/catalog").status_code == 200
        except httpx.HTTPError:
            return False


@dataclass
class Cluster:
    replicas: list[Replica]
    redis: RedisServer
    db: str

    def owner(self, game_id: str) -> str | None:
        """The replica holding ``game_id``'s lease now (read straight from Redis)."""
        return self.holder(f"game:{game_id}")

    def holder(self, lease: str) -> str | None:
        """Who holds the broker lease ``lease`` now (read straight from Redis)."""
        import redis

        client = redis.Redis.from_url(self.redis.url(), socket_connect_timeout=2)
        try:
            held = client.get(f"lifearena:lease:{lease}")
        finally:
            client.close()
        return None if held is None else held.decode()


def start_replica(folder: Path, name: str, db: str, broker: str,
                  lane: int | None = None) -> Replica:
    """``lifearena serve`` as replica ``name`` (in lane ``lane``: its place in nginx's list)."""
    port = free_port()
    log = folder / f"{name}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "lifearena", "serve", "--port", str(port), "--db", db,
             "--broker", broker, "--replica-id", name, "--workers", "1", "--tournaments",
             "0", "--games-in-progress", "10000", "--creates-per-minute", "10000",
             *(() if lane is None else ("--lane", str(lane)))],
            stdout=out, stderr=subprocess.STDOUT, cwd=folder,
            env={**os.environ, "NO_COLOR": "1"})
    return Replica(name, f"http://127.0.0.1:{port}", process, log)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    need_redis_py()
    redis_program()
    folder = tmp_path_factory.mktemp("replicas")
    with fresh_postgres() as db, own_redis() as redis:
        replicas = [start_replica(folder, f"r{i}", db, redis.url(), lane=i) for i in range(2)]
        try:
            for replica in replicas:
                wait_until(lambda r=replica: r.answers() or r.process.poll() is not None,
                           f"replica {replica.name} answering", within=60)
                assert replica.process.poll() is None, replica.log.read_text()[-2000:]
            yield Cluster(replicas, redis, db)
        finally:
            for replica in replicas:
                if replica.process.poll() is None:
                    replica.process.terminate()
            for replica in replicas:
                try:
                    replica.process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    replica.process.kill()
                    replica.process.wait(timeout=5)


@dataclass
class Page:
    """A game's socket on one replica, keeping every message it received."""

    socket: Any
    got: list[dict[str, Any]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)

    def read_until(self, check: Callable[[dict[str, Any]], bool], what: str,
                   within: float = 10.0) -> dict[str, Any]:
        for message in self.got:
            if check(message):
                return message
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            try:
                text = self.socket.recv(timeout=max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                break
            self.texts.append(text)
            message = json.loads(text)
            self.got.append(message)
            if check(message):
                return message
        raise AssertionError(f"{what}: not within {within:g} s")

    def close(self) -> None:
        self.socket.close()


def open_page(replica: Replica, game_id: str, token: str | None) -> Page:
    # entered as a context manager (what websockets asks of a connection kept open);
    # Page.close leaves it
    socket = websockets_sync.connect(replica.url.replace("http", "ws") + f"/ws/{game_id}",
                                     open_timeout=10).__enter__()
    socket.send(json.dumps({"type": "hello", "token": token}))
    page = Page(socket)
    page.read_until(lambda m: m.get("type") == "state", "the first view")
    return page


def online_game(maker: Replica, joiner: Replica, game: str, **extra: Any
                ) -> tuple[str, list[str]]:
    """An online game made on ``maker`` and claimed on ``joiner``: its id and the seats'
    tokens."""
    made = maker.post("/api/games", {"game": game, "opponent": "online", **extra})
    assert made.status_code == 201, made.text
    created = made.json()
    invitation = created["links"]["invite"].split("#i=")[1]
    claimed = joiner.post(f"/api/games/{created['id']}/claim", {"invitation": invitation})
    assert claimed.status_code == 200, claimed.text
    tokens = ["", ""]
    tokens[created["seat"]] = created["token"]
    tokens[claimed.json()["seat"]] = claimed.json()["token"]
    return created["id"], tokens


def first_legal(replica: Replica, game_id: str, token: str) -> tuple[dict[str, Any], str]:
    """The game as ``token``'s seat sees it on ``replica``, and a legal War of Life move."""
    seen = replica.get(f"/api/games/{game_id}", token).json()
    assert seen["awaiting"], {k: seen.get(k) for k in ("ply", "outcome", "awaiting")}
    seat = seen["awaiting"][0]
    assert str(seat) in seen["legal"], {k: seen.get(k) for k in ("ply", "seats", "awaiting")}
    return seen, seen["legal"][str(seat)]["moves"][0]["move"]


def moves_of(replica: Replica, game_id: str) -> list[str]:
    answer = replica.get(f"/api/games/{game_id}/moves?limit=500").json()
    return [m if isinstance(m, str) else m["move"] for m in answer["moves"]]


def at_ply(ply: int) -> Callable[[dict[str, Any]], bool]:
    return lambda message: message.get("type") == "state" and message.get("ply") == ply


def test_a_write_with_a_stale_fencing_token_is_refused(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite")
    row = GameRow("g1", "war_of_life", {}, "", {"kind": "online"}, ["t", "u"])
    store.insert(row)
    store.save_play(row)  # a single server's writes (fence 0) are never refused
    new_owner, old_owner = replace(row, fence=2), replace(row, fence=1)
    new_owner.moves = ["[2,8,1,8]"]
    store.save_play(new_owner)
    old_owner.moves = ["[2,8,2,7]"]
    with pytest.raises(FencedOut, match="owned by another replica"):
        store.save_play(old_owner)
    with pytest.raises(FencedOut):
        store.save_seats(old_owner)
    stored = store.get("g1")
    assert stored is not None and stored.moves == ["[2,8,1,8]"] and stored.fence == 2
    assert store.fence_of("g1") == 2 and store.fence_of("nope") is None
    # a replica taking the game over marks it before loading it: the old owner's late
    # write is refused before the new owner wrote anything
    assert store.take_fence("g1", 3) and not store.take_fence("g1", 2)
    new_owner.moves.append("[5,1,4,1]")
    with pytest.raises(FencedOut):
        store.save_play(new_owner)
    store.close()


def in_process_replicas(tmp_path: Path) -> tuple[Any, Any, Any, list[Store]]:
    """Two replicas, ``one`` and ``two``, in this process over a memory broker and one
    SQLite file (a store each): ``(broker, one, two, stores)``; the caller closes the
    stores."""
    from lifearena.web.broker import MemoryBroker
    from lifearena.web.rooms.cluster import ReplicatedRooms
    from lifearena.web.settings import Settings
    from lifearena.web.sockets import LocalTransport

    broker = MemoryBroker()
    stores = [Store(tmp_path / "games.sqlite") for _ in range(2)]
    one, two = (ReplicatedRooms(Settings(tmp_path / "games.sqlite", agent_workers="thread"),
                                store, LocalTransport(), broker=broker, replica=name)
                for store, name in zip(stores, ("one", "two"), strict=True))
    return broker, one, two, stores


def run_closing(scenario: Callable[[], Any], stores: list[Store]) -> Any:
    """``asyncio.run(scenario())``'s answer; ``stores`` closed after it, whatever happens."""
    try:
        return asyncio.run(scenario())
    finally:
        for store in stores:
            store.close()


async def leave_all(*replicas: Any) -> None:
    """Stop in-process replicas: leases given up, background tasks ended."""
    for rooms in replicas:
        await rooms.leave()
        for task in list(rooms.tasks):
            task.cancel()


def test_a_stale_owner_s_move_is_refused_by_the_store_and_forwarded_to_the_new_owner(
        tmp_path: Path) -> None:
    """Two replicas in one process over a memory broker: the first loses its lease without
    noticing (as in a long pause), the second takes the game over and moves; the first's
    next move is refused by its stale copy, the store shows a larger fencing token than its
    own, and the call then reaches the new owner: both moves are played once, in order."""
    from lifearena.web.models import Move, NewGame

    broker, one, two, stores = in_process_replicas(tmp_path)

    async def scenario() -> list[str]:
        await one.join()
        await two.join()
        made = one.create(NewGame(game="war_of_life", opponent="hotseat", params=LASTING))
        game_id, token = made["id"], made["token"]
        live = await one.game(game_id)
        assert one.owns(game_id) and live.row.fence > 0
        first = live.view([0, 1])["legal"]["0"]["moves"][0]["move"]
        await broker.release(f"game:{game_id}", "one")  # lost, and "one" does not know yet
        after = await two.move(game_id, token, None, Move(move=first, ply=0))
        assert two.owns(game_id) and after.row.moves == [first]
        second = after.view([0, 1])["legal"]["1"]["moves"][0]["move"]
        stale = await one.move(game_id, token, None, Move(move=second, ply=1))
        assert stale.row.moves == [first, second] and not one.owns(game_id)
        with pytest.raises(TurnError):  # a refusal comes back as the owner raised it
            await one.move(game_id, token, None, Move(move=second, ply=1))
        await leave_all(one, two)
        return stores[0].get(game_id).moves  # type: ignore[union-attr]

    moves = run_closing(scenario, stores)
    assert len(moves) == 2 and len(set(moves)) == 2


def test_a_move_asked_again_of_a_slow_owner_is_played_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The owner answers a forwarded move later than the asker waits, so the asker asks
    again: the owner does not play it a second time (which would refuse it as stale), and
    the asker gets the one answer."""
    from lifearena.web.models import Move, NewGame
    from lifearena.web.rooms import cluster as cluster_module

    monkeypatch.setattr(cluster_module, "FORWARD_TIMEOUT_S", 0.2)
    _, one, two, stores = in_process_replicas(tmp_path)
    writes: list[int] = []
    stored = one.stored

    async def slow_stored(call: Any, *args: Any) -> Any:
        if getattr(call, "__name__", "") == "save_play":
            writes.append(len(args[0].moves))
            await asyncio.sleep(0.5)  # the asker asks again meanwhile
        return await stored(call, *args)

    monkeypatch.setattr(one, "stored", slow_stored)

    async def scenario() -> None:
        await one.join()
        await two.join()
        made = one.create(NewGame(game="war_of_life", opponent="hotseat", params=LASTING))
        game_id, token = made["id"], made["token"]
        live = await one.game(game_id)
        first = live.view([0, 1])["legal"]["0"]["moves"][0]["move"]
        after = await two.move(game_id, token, None, Move(move=first, ply=0))
        assert after.row.moves == [first] and writes == [1]
        await leave_all(one, two)

    run_closing(scenario, stores)


def test_the_owner_publishes_only_the_views_other_replicas_pages_hold(tmp_path: Path) -> None:
    """No page of the game elsewhere: a move publishes nothing. A page holding seat 1 opens
    on the other replica: at its next sweep the owner learns of it and publishes seat 1's
    view at once (the move made before), then after each change that view alone."""
    from lifearena.web.broker import Message
    from lifearena.web.models import Move, NewGame

    from .test_rooms import Page

    broker, one, two, stores = in_process_replicas(tmp_path)

    published: list[Message] = []

    async def until(done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + 10
        while not done():
            assert time.monotonic() < deadline, f"not within 10 s: {what}"
            await asyncio.sleep(0.01)

    async def scenario() -> None:
        await one.join()
        await two.join()
        made = one.create(NewGame(game="war_of_life", opponent="hotseat", params=LASTING))
        game_id, token = made["id"], made["token"]
        live = await one.game(game_id)
        async with broker.subscribe([f"game:{game_id}"]) as spy:
            async def collect() -> None:
                async for message in spy:
                    published.append(message)
            collector = asyncio.get_running_loop().create_task(collect())
            for ply in (0, 1):  # no page elsewhere: nothing published
                text = live.view([0, 1])["legal"][str(ply)]["moves"][0]["move"]
                await one.move(game_id, token, None, Move(move=text, ply=ply))
            page = Page()
            two.open_page(await two.game(game_id), page, [1])
            await until(lambda: bool(page.got), "the page's first view")
            await one.sweep()  # the owner learns of seat 1's page on "two"
            await until(lambda: len(published) == 1, "seat 1's view published at once")
            text = live.view([0, 1])["legal"]["0"]["moves"][0]["move"]
            await one.move(game_id, token, None, Move(move=text, ply=2))
            await until(lambda: len(published) == 2, "seat 1's view of the next move")
            await until(lambda: page.got[-1]["ply"] == 3, "the page shown the next move")
            assert [(m.data["seats"], json.loads(m.data["text"])["ply"]) for m in published] \
                == [([1], 2), ([1], 3)]
            collector.cancel()
        await leave_all(one, two)

    run_closing(scenario, stores)


def test_a_replica_marks_its_pages_when_they_change_and_renews_them_every_few_sweeps(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening and closing a page marks its seat list at once; a sweep sends nothing but
    the renewal of the held marks every MARK_EVERY sweeps (and the first sweep after a
    Redis gap), so a replica's marks cost no Redis call a game a second."""
    from lifearena.web.broker import Message
    from lifearena.web.models import NewGame
    from lifearena.web.rooms import cluster as cluster_module
    from lifearena.web.rooms.cluster import MARK_EVERY

    from .test_rooms import Page

    monkeypatch.setattr(cluster_module, "SWEEP_S", 3600.0)  # only the sweeps called here
    broker, one, two, stores = in_process_replicas(tmp_path)
    sent: list[list[tuple[str, str, bool]]] = []
    mark_all = broker.mark_all

    async def spied(marks: Any, ttl_s: float) -> None:
        if marks:
            sent.append([(member, present) for _, member, present in marks])
        await mark_all(marks, ttl_s)

    monkeypatch.setattr(broker, "mark_all", spied)

    async def scenario() -> None:
        await one.join()
        await two.join()
        made = one.create(NewGame(game="war_of_life", opponent="hotseat", params=LASTING))
        deadline = time.monotonic() + 10
        while two._sweeps < 1:  # the sweep at joining, then none but ours
            assert time.monotonic() < deadline, "no sweep at joining within 10 s"
            await asyncio.sleep(0.01)
        page = Page()
        two.open_page(await two.game(made["id"]), page, [1])
        for _ in range(20):
            await asyncio.sleep(0)
        assert sent == [[("two:1", True)]]  # at once
        sent.clear()
        for number in range(1, 2 * MARK_EVERY + 1):
            await two.sweep()
            assert sent == ([[("two:1", True)]] if number % MARK_EVERY == 0 else []), number
            sent.clear()
        two._received(Message("replica:two", {}, gap=True))
        await two.sweep()
        assert sent == [[("two:1", True)]]  # marked again after a gap
        sent.clear()
        two.close_page(made["id"], page)
        for _ in range(20):
            await asyncio.sleep(0)
        assert sent == [[("two:1", False)]]
        await leave_all(one, two)

    run_closing(scenario, stores)


def test_another_replicas_game_is_rebuilt_once_per_change_and_off_the_event_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A replica that does not own a game reads its row at every request but rebuilds the
    game only when the row changed, and rebuilds a long one in a slow-work worker (here
    every one: the bound is set below 0 moves), so readers cannot stall its event loop."""
    from lifearena.web.models import Move, NewGame
    from lifearena.web.rooms import cluster as cluster_module

    rebuilt: list[int] = []
    original = cluster_module.rebuild

    def counting(row: GameRow) -> Any:
        rebuilt.append(len(row.moves))
        return original(row)

    monkeypatch.setattr(cluster_module, "rebuild", counting)
    monkeypatch.setattr(cluster_module, "LOOP_REPLAY_MOVES", -1)
    _, one, two, stores = in_process_replicas(tmp_path)
    offloaded: list[str] = []
    run = two.heavy.run

    async def watched_run(client: str, work: Any, *args: Any) -> Any:
        offloaded.append(getattr(work, "__name__", str(work)))
        return await run(client, work, *args)

    monkeypatch.setattr(two.heavy, "run", watched_run)

    async def scenario() -> None:
        await one.join()
        await two.join()
        made = one.create(NewGame(game="war_of_life", opponent="hotseat", params=LASTING))
        game_id, token = made["id"], made["token"]
        live = await one.game(game_id)
        rebuilt.clear()  # the owner's own first read
        rows = set()  # the stored rows the reads met (the owner may stamp it meanwhile)
        for _ in range(4):
            rows.add(repr(stores[1].get(game_id)))
            seen = await two.game(game_id)
            assert not two.owns(game_id) and seen.row.moves == []
        assert len(rebuilt) == len(rows) < 4 and offloaded == ["counting"] * len(rows)
        before = len(rebuilt)
        first = live.view([0, 1])["legal"]["0"]["moves"][0]["move"]
        await one.move(game_id, token, None, Move(move=first, ply=0))
        assert (await two.game(game_id)).row.moves == [first]  # a new row: a new copy
        assert len(rebuilt) == before + 1 and rebuilt[-1] == 1
        await leave_all(one, two)

    run_closing(scenario, stores)


def test_two_clients_on_two_replicas_play_war_of_life(cluster: Cluster) -> None:
    a, b = cluster.replicas
    game_id, tokens = online_game(a, b, "war_of_life", params=LASTING)
    assert cluster.owner(game_id) == a.name  # the replica that made it owns it
    pages = [open_page(b, game_id, tokens[0]), open_page(a, game_id, tokens[1]),
             open_page(b, game_id, None)]
    played = []
    try:
        # the owner (a) sees seat 0's page on replica b as present
        wait_until(lambda: a.get(f"/api/games/{game_id}").json()["connected"] == [True, True],
                   "both seats present on the owner", within=5)
        for ply in range(6):
            seat = ply % 2
            seen, text = first_legal(b if ply % 3 else a, game_id, tokens[seat])
            assert seen["awaiting"] == [seat] and seen["ply"] == ply
            if seat == 0:  # over its socket on replica b, forwarded to the owner
                pages[0].socket.send(json.dumps({"type": "move", "move": text, "ply": ply}))
            else:  # over HTTP, alternately on either replica
                answer = (a, b)[ply % 4 == 1].post(f"/api/games/{game_id}/moves",
                                                   {"move": text, "ply": ply}, tokens[seat])
                assert answer.status_code == 200, answer.text
                assert answer.json()["ply"] == ply + 1
            played.append(text)
            for page in pages:  # every page, on either replica, is told
                page.read_until(at_ply(ply + 1), f"ply {ply + 1} on a page")
        # a refusal travels back from the owner as the same 4xx
        stale = b.post(f"/api/games/{game_id}/moves", {"move": played[0], "ply": 0},
                       tokens[0])
        assert stale.status_code == 409, stale.text
        assert moves_of(a, game_id) == moves_of(b, game_id) == played
    finally:
        for page in pages:
            page.close()


def test_a_hidden_choice_reaches_no_other_seat_on_any_replica(cluster: Cluster) -> None:
    a, b = cluster.replicas
    game_id, tokens = online_game(a, b, "life_for_two")
    chooser = open_page(b, game_id, tokens[0])
    others = [open_page(a, game_id, tokens[1]), open_page(b, game_id, tokens[1]),
              open_page(a, game_id, None), open_page(b, game_id, None)]
    try:
        seen = b.get(f"/api/games/{game_id}", tokens[0]).json()
        cells = [part["text"] for part in seen["legal"]["0"]["interaction"]["parts"]]
        choice, answer_choice = " ".join(cells[:3]), " ".join(cells[-3:])
        sent = b.post(f"/api/games/{game_id}/moves", {"move": choice, "ply": 0}, tokens[0])
        assert sent.status_code == 200, sent.text
        # seat 0's own page on replica b (the owner is a) sees its choice ...
        chooser.read_until(lambda m: m.get("type") == "state" and bool(m.get("mine")),
                           "the choice on its own seat's page")
        # ... and every other page learns that a choice was made, never what it is
        for page in others:
            page.read_until(lambda m: m.get("type") == "state" and m.get("awaiting") == [1],
                            "seat 0's choice made")
        others[0].socket.send(json.dumps({"type": "move", "move": answer_choice, "ply": 0}))
        for page in [chooser, *others]:
            page.read_until(lambda m: m.get("type") == "state" and m.get("ply", 0) >= 1,
                            "the turn resolved")
        for page in others:  # what each saw before the turn resolved (and showed both)
            before = [(m, text) for m, text in zip(page.got, page.texts, strict=True)
                      if m.get("type") == "state" and m.get("ply") == 0]
            assert before, "no view of the turn before it resolved"
            for message, text in before:
                assert not message.get("mine") and not message.get("mine_cells"), message
                assert choice not in text
    finally:
        for page in [chooser, *others]:
            page.close()


@pytest.mark.parametrize("game", ["losat", "p2life", "blocking_queen"])
def test_two_replicas_play_each_other_game(cluster: Cluster, game: str) -> None:
    """The other games (p2life's turns simultaneous) between a seat on each replica, every
    move posted on the replica of its turn, spectators on both told of each turn."""
    a, b = cluster.replicas
    game_id, tokens = online_game(a, b, game)
    pages = [open_page(a, game_id, None), open_page(b, game_id, None)]
    try:
        for turn in range(4):
            seen = a.get(f"/api/games/{game_id}", tokens[0]).json()
            if seen["outcome"] is not None:
                break
            ply = seen["ply"]
            for seat in seen["awaiting"]:
                replica = (a, b)[(turn + seat) % 2]
                view = replica.get(f"/api/games/{game_id}", tokens[seat]).json()
                move = view["legal"][str(seat)]["moves"][-1]["move"]
                answer = replica.post(f"/api/games/{game_id}/moves",
                                      {"move": move, "ply": ply}, tokens[seat])
                assert answer.status_code == 200, answer.text
            for page in pages:
                page.read_until(at_ply(ply + 1), f"{game}'s ply {ply + 1} on a spectator's page")
        played = moves_of(a, game_id)
        assert len(played) >= 2 and moves_of(b, game_id) == played
    finally:
        for page in pages:
            page.close()


# -- the lobby, the pools and "your turn" on every replica ---------------------------------------

LOBBY_CHALLENGE = {"game": "blocking_queen", "colour": 0}


def lobby_page(replica: Replica, owners: list[str] | None = None) -> Page:
    """A lobby socket on ``replica``, past its snapshot (and its ``mine`` answer when it
    names ``owners``)."""
    socket = websockets_sync.connect(replica.url.replace("http", "ws") + "/ws/lobby",
                                     open_timeout=10).__enter__()
    page = Page(socket)
    page.read_until(lambda m: m.get("type") == "snapshot", "the lobby's snapshot")
    if owners is not None:
        socket.send(json.dumps({"type": "hello", "owners": owners}))
        page.read_until(lambda m: m.get("type") == "mine", "the answer to hello")
    return page


def changed(kind: str, challenge_id: str) -> Any:
    """Whether a lobby message tells ``kind`` (added or removed) of ``challenge_id``."""
    def check(message: dict[str, Any]) -> bool:
        for change in message.get("changes", []):
            found = change.get("challenge", {}).get("id") if kind == "challenge-added" \
                else change.get("id")
            if change.get("type") == kind and found == challenge_id:
                return True
        return False
    return check


def listed(replica: Replica) -> list[str]:
    """The ids of the open challenges ``replica`` lists."""
    return [c["id"] for c in replica.get("/api/challenges").json()["challenges"]]


def token_of(client: httpx.Client, made: dict[str, Any]) -> dict[str, Any] | None:
    """The creator's seat once its challenge ``made`` is accepted (None until then)."""
    answer = client.get(f"/api/challenges/{made['id']}",
                        headers={"X-Challenge-Owner": made["owner"]}).json()
    return answer if answer.get("token") else None


def make(replica: Replica) -> dict[str, Any]:
    made = replica.post("/api/challenges", LOBBY_CHALLENGE)
    assert made.status_code == 201, made.text
    return dict(made.json())


def test_a_challenge_made_on_one_replica_is_accepted_on_the_other(cluster: Cluster) -> None:
    a, b = cluster.replicas
    creator = lobby_page(a)
    watcher = lobby_page(b)
    try:
        made = make(a)
        creator.socket.send(json.dumps({"type": "hello", "owners": [made["owner"]]}))
        watcher.read_until(changed("challenge-added", made["id"]), "the challenge on B")
        assert made["id"] in listed(b)
        accepted = b.post(f"/api/challenges/{made['id']}/accept", {})
        assert accepted.status_code == 200, accepted.text
        game = accepted.json()
        seated = creator.read_until(lambda m: m.get("type") == "seated",
                                    "the creator's seat, told on A")
        assert seated["game"] == game["id"] and seated["seat"] == 1 - game["seat"]
        creator.read_until(changed("challenge-removed", made["id"]), "the removal on A")
        assert made["id"] not in listed(a)
        for replica, token in ((a, seated["token"]), (b, game["token"])):
            view = replica.get(f"/api/games/{game['id']}", token).json()
            assert view["id"] == game["id"]
        again = a.post(f"/api/challenges/{made['id']}/accept", {})
        assert again.status_code == 409, again.text
    finally:
        creator.close()
        watcher.close()


def test_two_acceptances_racing_on_two_replicas_seat_one_game(cluster: Cluster) -> None:
    a, b = cluster.replicas
    watcher = lobby_page(b)
    try:
        made = make(a)
        watcher.read_until(changed("challenge-added", made["id"]), "the challenge on B")
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(
                lambda r: httpx.post(f"{r.url}/api/challenges/{made['id']}/accept", json={},
                                     timeout=15), (a, b)))
        codes = sorted(answer.status_code for answer in answers)
        assert codes == [200, 409], [answer.text for answer in answers]
    finally:
        watcher.close()


def test_a_challenge_cancelled_on_one_replica_is_gone_on_the_other(cluster: Cluster) -> None:
    a, b = cluster.replicas
    watcher = lobby_page(b)
    try:
        made = make(a)
        watcher.read_until(changed("challenge-added", made["id"]), "the challenge on B")
        cancelled = httpx.post(f"{b.url}/api/challenges/{made['id']}/cancel", json={},
                               headers={"X-Challenge-Owner": made["owner"]}, timeout=15)
        assert cancelled.status_code == 200, cancelled.text
        watcher.read_until(changed("challenge-removed", made["id"]), "the removal on B")
        late = a.post(f"/api/challenges/{made['id']}/accept", {})
        assert late.status_code == 409, late.text
    finally:
        watcher.close()


@pytest.mark.parametrize("where", ["maker", "other"])
def test_a_page_saying_hello_on_either_replica_learns_its_own_challenge(
        cluster: Cluster, where: str) -> None:
    a, b = cluster.replicas
    made = make(a)
    wait_until(lambda: made["id"] in listed(b), "the challenge listed on B")
    page = lobby_page(a if where == "maker" else b)
    try:
        page.socket.send(json.dumps({"type": "hello", "owners": [made["owner"]]}))
        mine = page.read_until(lambda m: m.get("type") == "mine" and m["ids"], "its own")
        assert mine["ids"] == [made["id"]]
    finally:
        page.close()


def test_two_seekers_on_two_replicas_are_paired_into_one_game(cluster: Cluster) -> None:
    a, b = cluster.replicas
    with httpx.Client(base_url=a.url, timeout=15) as ann, \
            httpx.Client(base_url=b.url, timeout=15) as bob:
        for client in (ann, bob):
            joined = client.post("/api/pools/war_of_life/unlimited/join", json={})
            assert joined.status_code == 200, joined.text
        told = [client.get("/api/pools/me", params={"wait": 10}).json()["paired"]
                for client in (ann, bob)]
        assert told[0] is not None and told[1] is not None, told
        assert told[0]["id"] == told[1]["id"]
        for client in (ann, bob):
            assert client.get("/api/pools/me").json()["seeking"] == []


def test_your_turn_is_right_on_either_replica(cluster: Cluster) -> None:
    a, b = cluster.replicas
    with httpx.Client(base_url=a.url, timeout=15) as maker, \
            httpx.Client(base_url=b.url, timeout=15) as taker:
        made = maker.post("/api/challenges", json={"game": "war_of_life", "colour": 0,
                                                   "params": LASTING})
        assert made.status_code == 201, made.text
        wait_until(lambda: made.json()["id"] in listed(b), "the challenge listed on B")
        game = taker.post(f"/api/challenges/{made.json()['id']}/accept", json={}).json()
        mine = wait_until(lambda: token_of(maker, made.json()), "the maker's seat, on A")

        def turns(client: httpx.Client, url: str) -> int:
            answer = client.get(url + "/api/me/games")
            assert answer.status_code == 200, answer.text
            entry = [g for g in answer.json()["playing"] if g["id"] == game["id"]]
            assert entry, answer.text
            return int(entry[0]["your_turn"])

        # the maker plays seat 0 (it moves first), on whichever replica its page asks
        for url in (a.url, b.url):
            assert (turns(maker, url), turns(taker, url)) == (1, 0)
        seen, move = first_legal(b, game["id"], mine["token"])
        played = b.post(f"/api/games/{game['id']}/moves", {"move": move, "ply": seen["ply"]},
                        mine["token"])
        assert played.status_code == 200, played.text
        for url in (a.url, b.url):
            assert (turns(maker, url), turns(taker, url)) == (0, 1)


def test_a_bot_on_one_replica_is_challenged_from_the_other_and_plays(cluster: Cluster
                                                                    ) -> None:
    """The bot API across replicas (lifearena.web.bot_share): the bot's event stream is on
    B, the person challenges it on A; the bot hears of it and accepts on B (B owns the
    game); the person's stream on A hears the game start and finish; a game stream on A,
    which does not own the game, follows every move."""
    from .test_bot_api import WAR, Reader, account, bearer, ok, person_move

    a, b = cluster.replicas
    with httpx.Client(base_url=b.url, timeout=15) as robo_site, \
            httpx.Client(base_url=a.url, timeout=15) as ann:
        token = account(robo_site, "ReplicaRobo", bot=True)
        account(ann, "ReplicaAnn")
        robo = httpx.Client(base_url=b.url, headers=bearer(token), timeout=30)
        robo_on_a = httpx.Client(base_url=a.url, headers=bearer(token), timeout=30)
        events, ann_events = Reader(robo, "/api/stream/event"), Reader(ann, "/api/stream/event")
        made = ok(ann.post("/api/challenge/ReplicaRobo", json={
            "game": "war_of_life", "params": WAR, "colour": 0}), 201)["challenge"]
        told = wait_until(lambda: events.of("challenge"), "the challenge on B's stream")
        assert told[0]["challenge"]["id"] == made["id"]
        game_id = ok(robo.post(f"/api/challenge/{made['id']}/accept"))["game"]["id"]
        wait_until(lambda: cluster.owner(game_id) == b.name, "B owning the game")
        start = wait_until(lambda: ann_events.of("gameStart"), "gameStart on A")[0]["game"]
        assert (start["id"], start["seat"], start["my_turn"]) == (game_id, 0, True)
        assert ok(ann.get("/api/challenge"))["out"] == []  # closed on A too
        game = Reader(robo_on_a, f"/api/bot/game/stream/{game_id}")
        full = wait_until(lambda: game.of("gameFull"), "gameFull on A")[0]
        assert full["your_seat"] == 1 and full["state"]["moves"] == []
        person_move(ann, game_id)  # on A, forwarded to B
        state = wait_until(lambda: [s for s in game.of("gameState") if len(s["moves"]) == 1],
                           "the person's move told on A")[-1]
        assert state["your_turn"] and state["legal"]
        move = urllib.parse.quote(state["legal"][0], safe="")
        ok(robo.post(f"/api/bot/game/{game_id}/move/{move}?ply=1"))
        wait_until(lambda: any(len(s["moves"]) == 2 for s in game.of("gameState")),
                   "the bot's move told on A")
        ok(robo.post(f"/api/bot/game/{game_id}/resign"))
        assert game.ended.wait(15), "the stream on A ends with the game"
        assert game.lines[-1]["status"] == "ended"
        finish = wait_until(lambda: ann_events.of("gameFinish"), "gameFinish on A")[0]
        assert finish["game"]["id"] == game_id and finish["game"]["result"] == "win"
        assert len(events.of("challenge")) == 1 and len(ann_events.of("gameStart")) == 1
        robo.close()
        robo_on_a.close()


def nginx_config(folder: Path, port: int, replicas: list[Replica]) -> Path:
    """The server block of ``lifearena deploy nginx`` (docs/deploy.md) in front of
    ``replicas`` on loopback ``port``, run unprivileged in ``folder``."""
    site = site_config([r.url.removeprefix("http://") for r in replicas],
                       listen=f"127.0.0.1:{port}")
    config = folder / "nginx.conf"
    config.write_text(standalone_config(site, folder))
    return config


@pytest.fixture(scope="module")
def proxy(cluster: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Replica]:
    """nginx on a free loopback port in front of the cluster's replicas."""
    program = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists()
                                        else None)
    if program is None:
        if os.environ.get("LIFEARENA_REQUIRE_NGINX") == "1":
            pytest.fail("nginx is missing and LIFEARENA_REQUIRE_NGINX=1: apt-get install nginx")
        pytest.skip("nginx is not installed (apt-get install nginx)")
    folder = tmp_path_factory.mktemp("nginx")
    port = free_port()
    config = nginx_config(folder, port, cluster.replicas)
    process = subprocess.Popen([program, "-p", str(folder), "-c", str(config)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    front = Replica("nginx", f"http://127.0.0.1:{port}", process, folder / "error.log")
    try:
        wait_until(lambda: front.answers() or process.poll() is not None, "nginx answering")
        assert process.poll() is None, front.log.read_text()
        yield front
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_a_game_through_nginx_in_front_of_the_replicas(cluster: Cluster, proxy: Replica
                                                       ) -> None:
    game_id, tokens = online_game(proxy, proxy, "war_of_life", params=LASTING)
    # made by whichever replica nginx chose, in that replica's lane: nginx sends the
    # game's requests to it first (lifearena.web.lanes)
    assert lane_of(game_id) in (0, 1)
    assert cluster.owner(game_id) == cluster.replicas[lane_of(game_id)].name
    pages = [open_page(proxy, game_id, tokens[0]), open_page(proxy, game_id, tokens[1])]
    try:
        for ply in range(4):  # each request may reach either replica
            _, text = first_legal(proxy, game_id, tokens[ply % 2])
            answer = proxy.post(f"/api/games/{game_id}/moves", {"move": text, "ply": ply},
                                tokens[ply % 2])
            assert answer.status_code == 200, answer.text
            for page in pages:
                page.read_until(at_ply(ply + 1), f"ply {ply + 1} through nginx")
    finally:
        for page in pages:
            page.close()


def test_the_game_goes_on_after_redis_restarts(cluster: Cluster) -> None:
    a, b = cluster.replicas
    game_id, tokens = online_game(a, b, "war_of_life", params=LASTING)
    _, text = first_legal(a, game_id, tokens[0])
    assert a.post(f"/api/games/{game_id}/moves", {"move": text, "ply": 0},
                  tokens[0]).status_code == 200
    cluster.redis.stop()
    cluster.redis.start()  # empty: every lease and fencing counter forgotten
    played = [text]
    for ply, (replica, seat) in enumerate([(b, 1), (a, 0), (b, 1)], start=1):
        _seen, text = first_legal(replica, game_id, tokens[seat])
        answer = replica.post(f"/api/games/{game_id}/moves", {"move": text, "ply": ply},
                              tokens[seat])
        assert answer.status_code == 200, answer.text
        played.append(text)
    assert moves_of(a, game_id) == moves_of(b, game_id) == played
    assert cluster.owner(game_id) in (a.name, b.name)


def test_a_killed_replicas_games_go_on_on_another(cluster: Cluster) -> None:
    a, b = cluster.replicas
    clock = {"kind": "live", "minutes": 1, "increment": 0}
    made = a.post("/api/games", {"game": "war_of_life", "opponent": "agent", "side": 0,
                                 "clock": clock, "params": LASTING})
    assert made.status_code == 201, made.text
    timed, person = made.json()["id"], made.json()["token"]
    _, text = first_legal(a, timed, person)
    assert a.post(f"/api/games/{timed}/moves", {"move": text, "ply": 0},
                  person).status_code == 200
    wait_until(lambda: a.get(f"/api/games/{timed}").json()["ply"] == 2, "the agent's reply")
    two, tokens = online_game(a, b, "war_of_life", params=LASTING)
    _, first = first_legal(a, two, tokens[0])
    assert a.post(f"/api/games/{two}/moves", {"move": first, "ply": 0},
                  tokens[0]).status_code == 200
    before_timed, before_two = moves_of(a, timed), moves_of(a, two)
    assert cluster.owner(timed) == cluster.owner(two) == a.name
    watcher = open_page(b, two, None)  # a page of the untimed game on the survivor

    a.process.send_signal(signal.SIGKILL)
    killed = time.monotonic()
    a.process.wait(timeout=10)
    # the sweep of the survivor takes the timed game over within 5 s (lease TTL + a sweep)
    wait_until(lambda: cluster.owner(timed) == cluster.owner(two) == b.name,
               "the timed game and the watched one taken over", within=5)
    taken = time.monotonic() - killed
    view = b.get(f"/api/games/{timed}", person).json()
    left = view["clock"]["remaining_ms"][0] / 1000
    # the person's clock ran on while no replica held the game: it is charged for it
    assert left <= 60 - taken + 0.5, (left, taken)
    _, text = first_legal(b, timed, person)
    answer = b.post(f"/api/games/{timed}/moves", {"move": text, "ply": 2}, person)
    assert answer.status_code == 200, answer.text
    wait_until(lambda: b.get(f"/api/games/{timed}").json()["ply"] == 4,
               "the agent's reply on the survivor")
    after = moves_of(b, timed)
    assert after[:2] == before_timed and after[2] == text and len(after) == 4
    # the two-person game moves on through the survivor (its lease expired)
    _seen, second = first_legal(b, two, tokens[1])
    answer = b.post(f"/api/games/{two}/moves", {"move": second, "ply": 1}, tokens[1])
    assert answer.status_code == 200, answer.text
    assert moves_of(b, two) == [*before_two, second]
    watcher.read_until(at_ply(2), "the watcher told of the move on the new owner")
    watcher.close()


def test_the_pools_pair_again_once_their_pairer_is_killed(cluster: Cluster,
                                                          tmp_path: Path) -> None:
    """The replica running the pairing rounds (the holder of the lease ``pools``) is killed:
    a replica started beside it takes the lease over within its TTL and pairs two seekers
    who join there."""
    pairer = next(r for r in cluster.replicas if r.process.poll() is None)
    other = start_replica(tmp_path, "r2", cluster.db, cluster.redis.url())
    cluster.replicas.append(other)  # stopped with the others
    wait_until(lambda: other.answers() or other.process.poll() is not None,
               "replica r2 answering", within=60)
    assert other.process.poll() is None, other.log.read_text()[-2000:]
    wait_until(lambda: cluster.holder("pools") == pairer.name, "the survivor pairing")
    pairer.process.send_signal(signal.SIGKILL)
    pairer.process.wait(timeout=10)
    with httpx.Client(base_url=other.url, timeout=15) as ann, \
            httpx.Client(base_url=other.url, timeout=15) as bob:
        for client in (ann, bob):
            joined = client.post("/api/pools/war_of_life/unlimited/join", json={})
            assert joined.status_code == 200, joined.text
        wait_until(lambda: cluster.holder("pools") == other.name, "the pairing taken over",
                   within=5)
        told = [client.get("/api/pools/me", params={"wait": 10}).json()["paired"]
                for client in (ann, bob)]
        assert told[0] is not None and told[1] is not None, told
        assert told[0]["id"] == told[1]["id"]
