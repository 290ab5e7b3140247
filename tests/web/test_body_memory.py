"""A real ``lifearena serve`` does not hold oversize bodies in memory: six clients each
sending 100 MiB in chunks (no Content-Length) at once are each answered 413 as soon as their
body passes its bound, the server stops reading them, and its memory barely moves.

The uploads go over raw sockets so that the test sees exactly what the server does: a client
library may buffer, retry or hide a connection closed under it."""

from __future__ import annotations

import contextlib
import os
import queue
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

STARTUP = 300.0
"""Seconds the server may take to start: on a fresh install its warm-up compiles the engine."""
UPLOADS = 6
UPLOAD_BYTES = 100 * 2**20
CHUNK = b" " * 65_536
GROWTH = 50 * 2**20
"""How much the server's resident memory may grow over the six uploads."""
DEADLINE = 20.0
"""Seconds the six uploads may take together."""


@dataclass
class Upload:
    """What one client saw: the status the server answered (``None``: none was read), the
    body bytes it got to send before the server answered or closed, and how it ended."""

    status: int | None
    sent: int
    ending: str


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _first_line(process: subprocess.Popen[str], deadline: float) -> str:
    """The first line the server prints, waited for until ``deadline`` seconds."""
    lines: queue.Queue[str] = queue.Queue()
    stdout = process.stdout
    assert stdout is not None
    threading.Thread(target=lambda: lines.put(stdout.readline()), daemon=True).start()
    try:
        return lines.get(timeout=deadline)
    except queue.Empty:
        raise AssertionError(f"the server printed nothing in {deadline:.0f} s") from None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """A started ``lifearena serve`` and its port."""
    port = _free_port()
    log = tmp_path / "stderr.txt"
    with log.open("w") as stderr:  # a file, not a pipe: nothing the server logs can block it
        process = subprocess.Popen(
            [sys.executable, "-m", "lifearena", "serve", "--port", str(port),
             "--db", str(tmp_path / "games.sqlite"), "--workers", "1", "--tournaments", "0"],
            stdout=subprocess.PIPE, stderr=stderr, text=True, cwd=tmp_path,
            env={**os.environ, "NO_COLOR": "1"})
    try:
        first = _first_line(process, STARTUP)  # printed once the server is warm and bound
        assert first.startswith(f"lifearena web: http://127.0.0.1:{port}/"), (
            first, log.read_text())
        yield process, port
    finally:
        process.kill()
        process.communicate()


def _upload(port: int, total: int) -> Upload:
    """POST ``total`` bytes of JSON whitespace to /api/games in 64 KiB chunks, reading the
    answer as soon as one comes, and stopping there."""
    sent, ending = 0, "sent whole"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                           "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                           "\r\n".encode())
        frame = f"{len(CHUNK):x}\r\n".encode() + CHUNK + b"\r\n"
        while sent < total:
            if select.select([connection], [], [], 0)[0]:  # the server has answered
                ending = "answered early"
                break
            try:
                connection.sendall(frame)
            except (BrokenPipeError, ConnectionResetError) as error:
                ending = f"closed under the client ({type(error).__name__})"
                break
            sent += len(CHUNK)
        else:
            with contextlib.suppress(OSError):
                connection.sendall(b"0\r\n\r\n")
        answer = b""
        with contextlib.suppress(OSError):  # a reset after the answer ends the reading
            while b"\r\n\r\n" not in answer:
                part = connection.recv(65_536)
                if not part:
                    break
                answer += part
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else None
    return Upload(status, sent, ending)


def test_oversize_chunked_uploads_are_refused_as_they_stream(
        server: tuple[subprocess.Popen[str], int]) -> None:
    process, port = server
    watched = psutil.Process(process.pid)
    warm = _upload(port, 4 * len(CHUNK))  # the code paths of a refusal, loaded and run once
    assert warm.status == 413, warm
    before = watched.memory_info().rss
    started = time.monotonic()
    with ThreadPoolExecutor(UPLOADS) as pool:
        uploads = list(pool.map(_upload, [port] * UPLOADS, [UPLOAD_BYTES] * UPLOADS,
                                timeout=DEADLINE))
    took = time.monotonic() - started
    grown = watched.memory_info().rss - before
    assert all(upload.status == 413 for upload in uploads), uploads
    # the server stopped reading each body: no client got near sending all of it
    assert all(upload.sent < UPLOAD_BYTES // 4 for upload in uploads), uploads
    assert grown < GROWTH, f"the server grew by {grown / 2**20:.1f} MiB; uploads: {uploads}"
    assert took < DEADLINE
    assert process.poll() is None, "the server died"
