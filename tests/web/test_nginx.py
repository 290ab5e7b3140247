"""Debian's nginx in front of ``lifearena serve``, with the configuration that ``lifearena
deploy nginx`` prints (:mod:`lifearena.web.nginx`) wrapped for an unprivileged nginx on a
loopback port: pages, answers, a game's socket and the body bound all pass through.

nginx is a real part here: without it the tests skip, naming the package, unless
``LIFEARENA_REQUIRE_NGINX=1`` (CI installs it), which makes them fail instead."""

from __future__ import annotations

import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from lifearena.web.app import MAX_LAB_BODY
from lifearena.web.lanes import new_game_id
from lifearena.web.nginx import BODY_BYTES, site_config, standalone_config

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx")
                                  else None)
STARTUP = 300.0
"""Seconds the server may take to start (a fresh install's warm-up compiles the engine)."""

if NGINX is None:
    if os.environ.get("LIFEARENA_REQUIRE_NGINX") == "1":
        pytest.fail("nginx is missing and LIFEARENA_REQUIRE_NGINX=1: apt-get install nginx",
                    pytrace=False)
    pytest.skip("needs Debian's nginx: apt-get install nginx", allow_module_level=True)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until_answering(url: str, deadline: float) -> None:
    while True:
        try:
            if httpx.get(url, timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"{url} did not answer in time")
        time.sleep(0.1)


def _start_nginx(folder: Path, upstream: int, front: int) -> subprocess.Popen[str]:
    """nginx on loopback ``front`` in front of ``upstream``, run unprivileged in ``folder``
    with the block ``lifearena deploy nginx`` prints."""
    config = folder / "nginx.conf"
    config.write_text(standalone_config(
        site_config([f"127.0.0.1:{upstream}"], listen=f"127.0.0.1:{front}"), folder))
    return subprocess.Popen([str(NGINX), "-p", str(folder), "-c", str(config)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A ``lifearena serve`` behind nginx: (nginx's URL, the server's own URL)."""
    folder = tmp_path_factory.mktemp("nginx")
    port, front = _free_port(), _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "lifearena", "serve", "--port", str(port),
         "--db", str(folder / "games.sqlite"), "--workers", "1", "--tournaments", "0",
         "--forwarded-allow-ips", "127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=folder,
        env={**os.environ, "NO_COLOR": "1"})
    proxy = _start_nginx(folder, port, front)
    try:
        assert server.stdout is not None
        first = server.stdout.readline()  # printed once the server is warm and bound
        assert first.startswith("lifearena web: http://127.0.0.1:"), first
        deadline = time.monotonic() + STARTUP
        _wait_until_answering(f"http://127.0.0.1:{front}/api/catalog", deadline)
        yield f"http://127.0.0.1:{front}", f"http://127.0.0.1:{port}"
    finally:
        # nginx's master ends its workers on SIGTERM (a killed master would orphan them)
        for process in (proxy, server):
            process.terminate()
            try:
                process.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate(timeout=60)


def test_pages_and_answers_pass_through(site: tuple[str, str]) -> None:
    front, direct = site
    for path in ("/api/catalog", "/api/games"):
        via, own = httpx.get(front + path, timeout=30), httpx.get(direct + path, timeout=30)
        assert via.status_code == own.status_code == 200
        assert via.json().keys() == own.json().keys() if isinstance(own.json(), dict) \
            else len(via.json()) == len(own.json())
    home = httpx.get(front + "/", timeout=30)
    assert home.status_code == 200 and "<html" in home.text.lower()


def test_a_game_plays_over_its_socket_through_nginx(site: tuple[str, str]) -> None:
    front, _ = site
    created = httpx.post(front + "/api/games", json={"game": "war_of_life",
                                                     "opponent": "hotseat"}, timeout=30)
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["token"]
    with connect(front.replace("http", "ws") + f"/ws/{game_id}", open_timeout=30) as page:
        page.send(json.dumps({"type": "hello", "token": token}))
        first = json.loads(page.recv(timeout=30))
        assert first["seats"] == [0, 1]  # hot seat: this page holds both
        text = first["legal"]["0"]["moves"][0]["move"]
        page.send(json.dumps({"type": "move", "move": text, "ply": 0, "seat": 0}))
        assert json.loads(page.recv(timeout=30))["moves"] == [text]


def test_a_body_over_the_servers_largest_is_refused_at_the_proxy(site: tuple[str, str]
                                                                  ) -> None:
    front, _ = site
    answer = httpx.post(front + "/api/records", content=b"x" * (BODY_BYTES + 1),
                        headers={"Content-Type": "text/plain"}, timeout=30)
    assert answer.status_code == 413
    assert BODY_BYTES == MAX_LAB_BODY


def test_a_dead_replica_is_a_gateway_error_not_a_hang(tmp_path: Path) -> None:
    # nginx in front of a port where nothing listens answers 502 at once
    front = _free_port()
    proxy = _start_nginx(tmp_path, _free_port(), front)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                answer = httpx.get(f"http://127.0.0.1:{front}/api/catalog", timeout=10)
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.05)
        assert answer.status_code == 502
    finally:
        proxy.terminate()  # its master ends its workers
        proxy.communicate(timeout=60)


class _Named(http.server.BaseHTTPRequestHandler):
    """An upstream that answers every GET with its own name (a stand-in for a replica)."""

    def do_GET(self) -> None:
        body = self.server.name.encode()  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def named_upstreams() -> Iterator[list[http.server.ThreadingHTTPServer]]:
    """Three upstreams on loopback, each answering its name ``r0``, ``r1``, ``r2``."""
    servers = []
    for index in range(3):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Named)
        server.name = f"r{index}"  # type: ignore[attr-defined]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    try:
        yield servers
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


def test_a_games_requests_go_to_its_lanes_replica_and_to_another_once_it_is_gone(
        tmp_path: Path, named_upstreams: list[http.server.ThreadingHTTPServer]) -> None:
    ports = [s.server_address[1] for s in named_upstreams]
    front = _free_port()
    config = tmp_path / "nginx.conf"
    config.write_text(standalone_config(
        site_config([f"127.0.0.1:{p}" for p in ports], listen=f"127.0.0.1:{front}"),
        tmp_path))
    proxy = subprocess.Popen([str(NGINX), "-p", str(tmp_path), "-c", str(config)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{front}"
    try:
        _wait_until_answering(url + "/api/catalog", time.monotonic() + 60)
        games = {lane: new_game_id(lane) for lane in range(3)}
        for lane, game_id in games.items():
            for path in (f"/play/{game_id}", f"/game/{game_id}", f"/ws/{game_id}",
                         f"/api/games/{game_id}", f"/api/games/{game_id}/moves",
                         f"/analysis/{game_id}", f"/api/bot/game/stream/{game_id}",
                         f"/api/bot/game/{game_id}/resign"):
                assert httpx.get(url + path, timeout=10).text == f"r{lane}", path
        # requests naming no game are spread over every replica (least_conn)
        for path in ("/ws/lobby", "/api/catalog", "/api/games", "/api/challenges/Bxyz"):
            answers = {httpx.get(url + path, timeout=10).text for _ in range(6)}
            assert answers <= {"r0", "r1", "r2"} and len(answers) > 1, (path, answers)
        # lane 1's replica gone: its games' requests reach a backup, never a 502, nearly
        # always the next replica (r2), which then owns them rather than forwarding
        named_upstreams[1].shutdown()
        named_upstreams[1].server_close()
        answers = [httpx.get(url + f"/ws/{games[1]}", timeout=10) for _ in range(21)]
        assert all(a.status_code == 200 and a.text in {"r0", "r2"} for a in answers)
        assert sum(a.text == "r2" for a in answers) >= 18, [a.text for a in answers]
    finally:
        proxy.terminate()
        proxy.communicate(timeout=60)
