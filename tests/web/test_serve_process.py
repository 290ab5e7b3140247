"""``lifearena serve`` as a process: its agent workers end with it, whatever signal ends it,
and a signal stops it without a traceback; a port in use is one error line and exit 2, with
nothing printed as if it started."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest

STARTUP = 300.0
"""Seconds a server may take to start: on a fresh install its warm-up compiles the engine."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(tmp_path: Path, port: int, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "lifearena", "serve", "--port", str(port),
         "--db", str(tmp_path / "games.sqlite"), "--workers", "1", "--tournaments", "0",
         *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "NO_COLOR": "1"})


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str, list[psutil.Process]]]:
    """A started ``lifearena serve``, its URL, and a list of the processes it started (the
    test fills it); whatever is left of them is killed afterwards."""
    port = _free_port()
    process = _serve(tmp_path, port)
    assert process.stdout is not None
    first = process.stdout.readline()  # printed once the server is warm and bound
    assert first.startswith("lifearena web: http://127.0.0.1:"), (first, process.stderr)
    started: list[psutil.Process] = []
    try:
        yield process, f"http://127.0.0.1:{port}", started
    finally:
        process.kill()
        for left in started:
            with contextlib.suppress(psutil.NoSuchProcess):
                left.kill()
        process.communicate()


def _agent_moved(url: str) -> None:
    """Create a game against the easy agent, which moves first, and wait for its move."""
    created = httpx.post(f"{url}/api/games", json={"game": "war_of_life", "opponent": "agent",
                                                   "level": "easy", "side": 1}, timeout=30)
    assert created.status_code == 201, created.text
    game, token = created.json()["id"], created.json()["token"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = httpx.get(f"{url}/api/games/{game}", headers={"X-Seat-Token": token},
                         timeout=30).json()
        if view["move_number"] >= 1:
            return
        time.sleep(0.2)
    raise AssertionError("the agent never moved")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_agent_workers_end_with_the_server(
        server: tuple[subprocess.Popen[str], str, list[psutil.Process]], signum: int) -> None:
    process, url, started = server
    _agent_moved(url)
    children = psutil.Process(process.pid).children(recursive=True)
    started.extend(children)
    assert children, "the agent thought in no worker process"
    process.send_signal(signum)
    process.wait(30)
    _, alive = psutil.wait_procs(children, timeout=5)
    assert not alive, f"left running after {signal.Signals(signum).name}: " + ", ".join(
        " ".join(p.cmdline()[:4]) for p in alive)
    assert process.stderr is not None
    err = process.stderr.read()
    assert "Traceback" not in err, err  # a stopped server is no error
    if signum == signal.SIGINT:  # Ctrl-C
        assert process.returncode == 130 and err.strip().splitlines()[-1] == "interrupted"


def test_a_port_in_use_is_one_error_line_and_nothing_printed(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        process = _serve(tmp_path, port)
        out, err = process.communicate(timeout=STARTUP)
    assert process.returncode == 2
    assert out == ""
    assert err.strip() == (f"error: --port {port}: 127.0.0.1:{port} is already in use; "
                           "expected a free port (or stop the server using it)")
