"""``lifearena serve`` as a process: its agent workers end with it, whatever signal ends it,
and a signal stops it without a traceback (SIGTERM checkpointing the games file); a port in
use, or a games file that is not lifearena's, is one error line and exit 2, with nothing
printed as if it started and no file made or changed."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest

from signals import ctrl_c_reaches_children  # tests/signals.py

STARTUP = 300.0
"""Seconds a server may take to start: on a fresh install its warm-up compiles the engine."""
STOP = 120.0
"""Seconds a signalled server, then its workers, may take to be gone on a busy machine
(a deadline: each wait ends as soon as they are gone)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(tmp_path: Path, port: int, *extra: str) -> subprocess.Popen[str]:
    with ctrl_c_reaches_children():
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
    process.wait(STOP)
    _, alive = psutil.wait_procs(children, timeout=STOP)
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
    assert not (tmp_path / "games.sqlite").exists()  # a failed start leaves no file behind


@pytest.mark.parametrize("content", [b"not a database at all\n" * 100, "foreign"])
def test_a_corrupt_or_foreign_games_file_is_one_line_and_exit_2(tmp_path: Path,
                                                                content: bytes | str) -> None:
    db = tmp_path / "games.sqlite"
    if content == "foreign":
        with sqlite3.connect(db) as other:
            other.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    else:
        assert isinstance(content, bytes)
        db.write_bytes(content)
    before = db.read_bytes()
    process = _serve(tmp_path, _free_port())
    out, err = process.communicate(timeout=STARTUP)
    assert process.returncode == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "not a lifearena games database" in err
    assert db.read_bytes() == before  # refused before anything was written to it


def test_sigterm_checkpoints_the_write_ahead_log(
        server: tuple[subprocess.Popen[str], str, list[psutil.Process]],
        tmp_path: Path) -> None:
    process, url, _ = server
    made = httpx.post(f"{url}/api/games", json={"game": "blocking_queen"}, timeout=30)
    assert made.status_code == 201, made.text
    wal = tmp_path / "games.sqlite-wal"
    assert wal.exists() and wal.stat().st_size > 0
    process.send_signal(signal.SIGTERM)
    process.wait(60)
    assert not wal.exists() or wal.stat().st_size == 0
    with sqlite3.connect(tmp_path / "games.sqlite") as stored:
        assert stored.execute("SELECT id FROM games").fetchall() == [(made.json()["id"],)]
